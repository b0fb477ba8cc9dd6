"""scikit-learn classifier for RSVM over a precomputed mean kernel plus its uncertainty description."""
from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted, validate_data

from ..core import check_finite_array, prediction_errors
from .solvers import rsvm, rsvm_decision_function
from ..core.uncertainty import beta_from_sigma, beta_from_support, check_eps, kappa_from_eps

__all__ = ["RSVMClassifier"]


class RSVMClassifier(ClassifierMixin, BaseEstimator):
    r"""Robust SVM for uncertain kernel entries (bhadra2010 eq. 15; RSVM and RSVM\ :sup:`(g)`).

    Solves, with :func:`robustpapers.bhadra2010.rsvm`,

    .. math::

        \max_{\alpha\in S_n}\; e^\top\alpha - \tfrac12\Bigl(\alpha^\top Y\bar K Y\alpha
        + \kappa\sqrt{\textstyle\sum_{ij}\beta_{ij}\alpha_i^2\alpha_j^2}\Bigr)

    where ``X`` passed to :meth:`fit` is the mean kernel :math:`\bar K` (precomputed, n x n), and the
    uncertainty is given to :meth:`fit` as ``sigma`` (Gaussian, bhadra2010 Theorem 1: :math:`\beta=\sigma^2`,
    :math:`\kappa=-\Phi^{-1}(\epsilon)`) or ``a, b`` (finite support, bhadra2010 Theorem 3:
    :math:`\beta=(l\gamma)^2`, :math:`\kappa=\sqrt{2\log(1/\epsilon)}`). Without them beta = 0 and the
    classifier is the nominal SVM on :math:`\bar K` (with the robust bias rule of bhadra2010 §3).
    ``predict``/``decision_function`` take the test-versus-training kernel (m x n).

    Parameters
    ----------
    C : float, default 1.0
    eps : float in (0, 0.5), default 0.1
    noise : {"finite_support", "gaussian"}
    method : {"qp", "socp", "qn"}
    beta_approx : {None, "principal", "psd"}
        The paper's §5.1 approximations ("principal" for qp, "psd" for socp).
    n_starts, max_iter, tol, random_state
        Passed to :func:`rsvm`.

    Attributes
    ----------
    alpha_ : ndarray (n,)
    intercept_ : float
    classes_ : ndarray (2,)
    result_ : SolverResult
    n_iter_ : int
    y_signed_ : ndarray (n,) of +-1

    Examples
    --------
    >>> import numpy as np
    >>> from robustpapers.bhadra2010 import RSVMClassifier
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]]); y = np.array([0, 0, 1, 1]); K = X @ X.T
    >>> clf = RSVMClassifier(C=10.0, noise="gaussian", method="qp").fit(K, y, sigma=0.1 * np.ones((4, 4)))
    >>> clf.predict(K).tolist()
    [0, 0, 1, 1]
    """

    def __init__(self, C=1.0, eps=0.1, noise="finite_support", method="socp", beta_approx=None,
                 n_starts=20, max_iter=20000, tol=1e-7, random_state=None):
        self.C = C
        self.eps = eps
        self.noise = noise
        self.method = method
        self.beta_approx = beta_approx
        self.n_starts = n_starts
        self.max_iter = max_iter
        self.tol = tol
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = True
        tags.classifier_tags.multi_class = False
        return tags

    def _beta(self, n, sigma, a, b):
        if self.noise == "gaussian":
            if a is not None or b is not None:
                raise ValueError("noise='gaussian' takes sigma, not a and b")
            if sigma is None:
                return np.zeros((n, n))
            return beta_from_sigma(np.broadcast_to(check_finite_array(sigma, "sigma"), (n, n)))
        if self.noise == "finite_support":
            if sigma is not None:
                raise ValueError("noise='finite_support' takes a and b, not sigma")
            if a is None and b is None:
                return np.zeros((n, n))
            if a is None or b is None:
                raise ValueError("finite-support noise needs both a and b")
            a = np.broadcast_to(check_finite_array(a, "a"), (n, n))
            b = np.broadcast_to(check_finite_array(b, "b"), (n, n))
            return beta_from_support(a, b)
        raise ValueError(f"noise must be 'finite_support' or 'gaussian', got {self.noise!r}")

    def fit(self, X, y, sigma=None, a=None, b=None):
        """Fit on the mean kernel ``X`` (n x n) with labels ``y`` and the uncertainty description."""
        X, y = validate_data(self, X, y, dtype=float)
        check_classification_targets(y)
        if type_of_target(y) != "binary":
            raise ValueError(f"Only binary classification is supported; got target type {type_of_target(y)}")
        if X.shape[0] != X.shape[1]:
            raise ValueError(f"X must be the square precomputed mean kernel, got shape {X.shape}")
        classes, yi = np.unique(y, return_inverse=True)
        if classes.size < 2:
            raise ValueError("RSVMClassifier needs samples of 2 classes; got 1 class")
        ys = np.where(yi == 1, 1.0, -1.0)
        kappa = kappa_from_eps(check_eps(self.eps), self.noise)
        beta = self._beta(X.shape[0], sigma, a, b)
        self.classes_ = classes  # only once every input has been validated
        self.result_ = rsvm(X, ys, self.C, beta, kappa, method=self.method, beta_approx=self.beta_approx,
                            n_starts=self.n_starts, max_iter=self.max_iter, tol=self.tol,
                            random_state=self.random_state)
        self.alpha_ = self.result_.alpha
        self.intercept_ = float(self.result_.b)
        self.n_iter_ = int(self.result_.nit)
        self.kappa_ = kappa
        self.y_signed_ = ys
        return self

    def decision_function(self, X):
        """Decision values for the test-versus-training kernel ``X`` (m x n_train)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=float, reset=False)
        return rsvm_decision_function(X, self.y_signed_, self.alpha_, self.intercept_)

    def predict(self, X):
        """Labels for the test-versus-training kernel ``X``."""
        f = self.decision_function(X)
        return self.classes_[(f > 0).astype(int)]

    def prediction_errors(self, K_test, K_test_samples, y):
        """NomErr/NE, MajErr/ME, RobustErr/RE (bhadra2010 eqs. 20, 18, 19) via :func:`robustpapers.core.prediction_errors`.

        ``K_test`` (m x n) is the mean test kernel, ``K_test_samples`` (n_s x m x n) the sampled ones
        (bhadra2010 §4 uses :math:`f^s_t` on the samples for ME and RE; NE is computed here on the samples too,
        as bhadra2010 eq. (20) defines it, and on the mean kernel under the key ``"NE_mean"``).
        """
        check_is_fitted(self)
        y = np.asarray(y)
        ys = np.where(y == self.classes_[1], 1.0, -1.0)
        Ks = check_finite_array(K_test_samples, "K_test_samples", ndim=3)
        F = rsvm_decision_function(Ks, self.y_signed_, self.alpha_, self.intercept_)
        out = prediction_errors(ys, self.decision_function(K_test), F)
        out["NE_mean"] = out["NE"]
        out["NE"] = float(np.mean(np.sign(F) != ys[None, :]))
        return out
