"""scikit-learn classifier for RSVM over a precomputed mean kernel plus its uncertainty description."""
from __future__ import annotations

from numbers import Integral, Real
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted, validate_data

from ..core import (
    Interval, KernelStack, ParamsMixin, StrOptions, check_finite_array, check_psd, prediction_errors,
)
from .solvers import rsvm, rsvm_decision_function
from ..core.uncertainty import beta_from_sigma, beta_from_support, kappa_from_eps

__all__ = ["RSVMClassifier"]


class RSVMClassifier(ParamsMixin, ClassifierMixin, BaseEstimator):
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

    ``sigma``, ``a`` and ``b`` are scalars or (n, n) arrays, one entry per kernel entry. The mean kernel must be
    PSD for ``method="qp"`` and ``"socp"`` (the problem is then concave and the solver's optimum global);
    ``"qn"`` accepts any symmetric mean kernel (a multi-start local method on a non-concave problem).

    **Model selection.** A per-entry ``sigma`` (or ``a``, ``b``) passed to ``fit`` is a fit parameter that
    scikit-learn would cut by rows only; to cross-validate or grid-search, put it in a
    :class:`~robustpapers.core.KernelStack` with the mean kernel, ``KernelStack(K_bar, sigma=S)`` (or
    ``KernelStack(K_bar, a=A, b=B)``), and pass that as ``X``: every fold then fits on the blocks
    ``K_bar[train][:, train]`` and ``S[train][:, train]``, and scores on ``K_bar[test][:, train]``.

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

    Cross-validation with a per-entry sigma travelling with the kernel:

    >>> from sklearn.model_selection import cross_val_score
    >>> from robustpapers.core import KernelStack
    >>> rng = np.random.default_rng(0)
    >>> Z = rng.normal(size=(30, 2)); yz = (Z[:, 0] > 0).astype(int)
    >>> s = rng.uniform(0.0, 0.2, 30); S = np.outer(s, s)   # sigma_ij = s_i s_j: beta = sigma**2 is PSD
    >>> scores = cross_val_score(RSVMClassifier(noise="gaussian"), KernelStack(Z @ Z.T, sigma=S), yz, cv=3)
    >>> scores.shape
    (3,)
    """

    _parameter_constraints = {
        "C": [Interval(Real, 0, None, closed="neither")],
        "eps": [Interval(Real, 0, 0.5, closed="neither")],
        "noise": [StrOptions(("finite_support", "gaussian"))],
        "method": [StrOptions(("qp", "socp", "qn"))],
        "beta_approx": [None, StrOptions(("principal", "psd"))],
        "n_starts": [Interval(Integral, 1, None, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="neither")],
        "random_state": ["random_state"],
    }

    def __init__(self, C: float = 1.0, eps: float = 0.1, noise: str = "finite_support", method: str = "socp",
                 beta_approx: str | None = None, n_starts: int = 20, max_iter: int = 20000, tol: float = 1e-7,
                 random_state: int | np.random.Generator | None = None) -> None:
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

    @staticmethod
    def _entry(value, name, n):
        """A scalar or an (n, n) array, else a ValueError naming the shapes (not numpy's broadcast error)."""
        v = check_finite_array(value, name)
        if v.ndim != 0 and v.shape != (n, n):
            raise ValueError(f"{name} must be a scalar or of shape ({n}, {n}) (one entry per entry of the "
                             f"training kernel), got shape {v.shape}; to cross-validate with a per-entry {name}, "
                             f"pass KernelStack(K_bar, {name}=...) as X")
        return np.broadcast_to(v, (n, n))

    def _beta(self, n, sigma, a, b):
        if self.noise == "gaussian":
            if a is not None or b is not None:
                raise ValueError("noise='gaussian' takes sigma, not a and b")
            if sigma is None:
                return np.zeros((n, n))
            return beta_from_sigma(self._entry(sigma, "sigma", n))
        if sigma is not None:
            raise ValueError("noise='finite_support' takes a and b, not sigma")
        if a is None and b is None:
            return np.zeros((n, n))
        if a is None or b is None:
            raise ValueError("finite-support noise needs both a and b")
        return beta_from_support(self._entry(a, "a", n), self._entry(b, "b", n))

    @staticmethod
    def _unstack(X, given):
        """The mean kernel of a KernelStack and its entries (sigma, a, b), refusing a second description."""
        if not isinstance(X, KernelStack):
            return X, given
        if X.n_kernels:
            raise ValueError(f"RSVMClassifier takes one mean kernel; the KernelStack holds {X.n_kernels + 1}")
        unknown = sorted(set(X.entries) - {"sigma", "a", "b"})
        if unknown:
            raise ValueError(f"the KernelStack's entries must be among 'sigma', 'a', 'b', got {unknown}")
        both = sorted(k for k in X.entries if given[k] is not None)
        if both:
            raise ValueError(f"{both} given both in the KernelStack and to fit; pass them once")
        return X.nominal, {k: X.entries.get(k, v) for k, v in given.items()}

    def fit(self, X: ArrayLike, y: ArrayLike, sigma: Any = None, a: Any = None, b: Any = None
    ) -> RSVMClassifier:
        """Fit on the mean kernel ``X`` (n x n, or a ``KernelStack`` carrying sigma / a, b) with labels ``y``."""
        self._validate_params()
        X, desc = self._unstack(X, dict(sigma=sigma, a=a, b=b))
        sigma, a, b = desc["sigma"], desc["a"], desc["b"]
        X, y = validate_data(self, X, y, dtype=(np.float64, np.float32))
        check_classification_targets(y)
        if type_of_target(y) != "binary":
            raise ValueError(f"Only binary classification is supported; got target type {type_of_target(y)}")
        if X.shape[0] != X.shape[1]:
            raise ValueError(f"X must be the square precomputed mean kernel, got shape {X.shape}")
        classes, yi = np.unique(y, return_inverse=True)
        if classes.size < 2:
            raise ValueError("RSVMClassifier needs samples of 2 classes; got 1 class")
        ys = np.where(yi == 1, 1.0, -1.0)
        if self.method in ("qp", "socp"):  # concave only on a PSD mean kernel (bhadra2010 Theorems 4-6)
            check_psd(X, "the mean kernel X")
        X = X.astype(np.float64)
        kappa = kappa_from_eps(self.eps, self.noise)
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

    def decision_function(self, X: ArrayLike) -> np.ndarray:
        """Decision values for the test-versus-training kernel ``X`` (m x n_train)."""
        check_is_fitted(self)
        if isinstance(X, KernelStack):
            X = X.nominal  # the rule uses the mean test kernel
        X = validate_data(self, X, dtype=float, reset=False)
        return rsvm_decision_function(X, self.y_signed_, self.alpha_, self.intercept_)

    def predict(self, X: ArrayLike) -> np.ndarray:
        """Labels for the test-versus-training kernel ``X``."""
        f = self.decision_function(X)
        return self.classes_[(f > 0).astype(int)]

    def prediction_errors(self, K_test: np.ndarray, K_test_samples: Any, y: np.ndarray) -> Any:
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
