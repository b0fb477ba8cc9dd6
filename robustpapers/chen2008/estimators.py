"""A scikit-learn classifier for (possibly indefinite) kernels: chen2008's Indefinite SVM and its baselines."""
from __future__ import annotations

import warnings
from numbers import Integral, Real
from typing import Any, Callable

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.svm import SVC
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted, validate_data

from ..core import ConvergenceWarning, Interval, ParamsMixin, StrOptions, check_kernel, make_kernel, svm_dual
from .kernels import transform_kernel
from .apg import indefinite_svm_apg
from .siqclp import indefinite_svm

__all__ = ["IndefiniteSVC", "METHODS"]

#: Methods of chen2008 Table 1.
METHODS = ("siqclp", "denoise", "flip", "shift", "svm")


class IndefiniteSVC(ParamsMixin, ClassifierMixin, BaseEstimator):
    r"""SVM classifier on a possibly indefinite kernel (chen2008).

    ``method="siqclp"`` trains the Indefinite SVM of chen2008 eq. (2),

    .. math::

        \max_{0\le\alpha\le C,\ y^\top\alpha=0}\ \min_{K\succeq 0}\
        \alpha^\top e - \tfrac12\alpha^\top YKY\alpha + \rho\|K-K_0\|_F^2 ,

    by :func:`~robustpapers.chen2008.indefinite_svm_apg` (APG-FW, certified by a Frank-Wolfe gap; ``solver="apg"``,
    the default) or by :func:`~robustpapers.chen2008.indefinite_svm` (the paper's Algorithm 1 with pruning;
    ``solver="algorithm1"``);
    ``"denoise"``, ``"flip"``, ``"shift"`` train the SVM (1) on the transformed kernel
    (:func:`~robustpapers.chen2008.transform_kernel`); ``"svm"`` hands :math:`K_0` itself to
    LIBSVM (scikit-learn's ``SVC(kernel="precomputed")``), whose SMO solver, when the
    curvature :math:`K_{ii}+K_{jj}-2K_{ij}` of a working pair is not positive, replaces it by
    a small positive constant (Fan, Chen & Lin 2005), so it returns a stationary point of the
    non-concave dual, not a global optimum.

    **Test-time rule** (the paper states none; the proxy kernel lives on the training points
    only): every method predicts with the rows of the given similarity :math:`K_0(x, x_i)`
    between a test point and the training points,
    :math:`f(x) = \sum_i y_i\alpha_i K_0(x, x_i) + b`, with its own ``alpha`` and ``b``.

    Parameters
    ----------
    method : {"siqclp", "denoise", "flip", "shift", "svm"}
    kernel : "precomputed", "rbf", "linear", "poly" or callable
        With "precomputed", ``fit`` takes the (n, n) training kernel and ``predict`` the
        (m, n) kernel between test and training points.
    C : float > 0
    rho : float > 0
        Weight of the proxy-kernel penalty (siqclp only; validated in ``fit`` for every method).
    gamma : float or None
        Width of the "rbf"/"poly" kernel (None: 1 / n_features).
    tol, max_iter, prune :
        Passed to :func:`~robustpapers.chen2008.indefinite_svm` (siqclp only); ``tol`` and ``max_iter`` are
        validated in ``fit`` for every method.
    max_kernels : int >= 2 or None
        With pruning, a hard bound on the size of the localisation set, kept by aggregating the
        active constraints with the smallest multipliers (not in the paper; see
        :func:`~robustpapers.chen2008.indefinite_svm`). None: the paper's pruning rule only.
        Siqclp only; validated in ``fit`` for every method.
    slack_tol : float >= 0
        Activity tolerance on the slack of the pruning rule: kernels whose slack is at most
        ``slack_tol`` are kept (0: the paper's rule). Siqclp only; validated in ``fit`` for every
        method.
    active_tol : float >= 0
        Kernels whose multiplier exceeds ``active_tol`` count as active for pruning. Siqclp only;
        validated in ``fit`` for every method.
    solver : {"apg", "algorithm1"}, default "apg"
        The solver of ``method="siqclp"``: APG-FW, or chen2008's Algorithm 1. Both solve the same problem (2)
        and stop when their certified duality gap is at most ``tol``; APG-FW is the default because it gets
        there in far fewer and cheaper steps (300 points, rbf kernel, default options: APG-FW certified in
        0.3 s and 45 steps, Algorithm 1 in about 100 s and 650 exchange iterations; chen2008 Table 1's
        benchmark: every run certified in under 2 s where Algorithm 1 ends 1,000 iterations with gaps up to
        350). ``solver="algorithm1"`` is the paper's method, opt-in (the pages that reproduce the paper name
        it). With "apg", ``max_iter`` counts gradient steps and ``prune``, ``max_kernels``, ``slack_tol``,
        ``active_tol`` and ``master_start`` are not used. Validated in ``fit`` for every method.
    master_start : {"auto", "warm", "cold"}
        Where the interior-point solver of each master problem (7) starts (see
        :func:`~robustpapers.chen2008.indefinite_svm`). A converged run does not depend on it; a run
        stopped by ``max_iter`` does (another path of iterates). Siqclp only; validated in ``fit`` for
        every method.

    Attributes
    ----------
    classes_ : array (2,)
    alpha_ : array (n,)
    intercept_ : float
    kernel_ : array (n, n), the training kernel the SVM used (the proxy kernel for siqclp).
    result_ : SolverResult or None (siqclp only)
    n_iter_ : int, exchange iterations (siqclp), LIBSVM iterations (svm) or 1.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]]); y = np.array([0, 0, 1, 1])
    >>> clf = IndefiniteSVC(method="flip", kernel="rbf", gamma=0.5).fit(X, y)
    >>> clf.predict(X).tolist()
    [0, 0, 1, 1]
    """

    _parameter_constraints = {
        "method": [StrOptions(METHODS)],
        "kernel": [StrOptions(("precomputed", "rbf", "linear", "poly", "polynomial")), callable],
        "C": [Interval(Real, 0, None, closed="neither")],
        "rho": [Interval(Real, 0, None, closed="neither")],
        "gamma": [None, Interval(Real, 0, None, closed="neither")],
        "tol": [Interval(Real, 0, None, closed="neither")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "prune": ["boolean"],
        "max_kernels": [None, Interval(Integral, 2, None, closed="left")],
        "slack_tol": [Interval(Real, 0, None, closed="left")],
        "active_tol": [Interval(Real, 0, None, closed="left")],
        "master_start": [StrOptions(("auto", "warm", "cold"))],
        "solver": [StrOptions(("apg", "algorithm1"))],
    }

    def __init__(self, method: str = "siqclp", kernel: Callable[..., Any] | str = "rbf", C: float = 1.0,
                 rho: float = 1.0, gamma: float | None = None, tol: float = 1e-5, max_iter: int = 2000,
                 prune: bool = True, max_kernels: int | None = None, slack_tol: float = 0.0,
                 active_tol: float = 1e-6, master_start: str = "auto", solver: str = "apg") -> None:
        self.method = method
        self.kernel = kernel
        self.C = C
        self.rho = rho
        self.gamma = gamma
        self.tol = tol
        self.max_iter = max_iter
        self.prune = prune
        self.max_kernels = max_kernels
        self.slack_tol = slack_tol
        self.active_tol = active_tol
        self.master_start = master_start
        self.solver = solver

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = self.kernel == "precomputed"
        tags.classifier_tags.multi_class = False
        return tags

    def _kernel_fn(self):
        if callable(self.kernel):
            return self.kernel
        if self.kernel in ("rbf", "poly", "polynomial"):
            return make_kernel(self.kernel, gamma=self.gamma)
        if self.kernel == "linear":
            return make_kernel("linear")
        raise ValueError(f"kernel must be 'precomputed', 'rbf', 'linear', 'poly' or callable, got {self.kernel!r}")

    def fit(self, X: ArrayLike, y: ArrayLike) -> IndefiniteSVC:
        # every option, the solver's too, for every method: a bad one leaves nothing fitted
        self._validate_params()
        C, rho, tol = float(self.C), float(self.rho), float(self.tol)
        max_kernels, slack_tol, active_tol = self.max_kernels, float(self.slack_tol), float(self.active_tol)
        X, y = validate_data(self, X, y, dtype=float)
        check_classification_targets(y)
        classes = np.unique(y)
        if classes.size < 2:
            raise ValueError("IndefiniteSVC needs two classes in y; got one class only")
        y_type = type_of_target(y, input_name="y", raise_unknown=True)
        if y_type != "binary":
            raise ValueError(f"Only binary classification is supported. The type of the target is {y_type}.")
        yy = np.where(y == classes[1], 1.0, -1.0)
        if self.kernel == "precomputed":
            if X.shape[0] != X.shape[1]:
                raise ValueError(f"precomputed training kernel must be square, got shape {X.shape}")
            # chen2008 needs a symmetric K0: refuse a non-symmetric one, as indefinite_svm does (no silent fix)
            K0 = check_kernel(X, name="precomputed training kernel", symmetric=True)
            self.X_fit_ = None
        else:
            K0 = self._kernel_fn()(X, X)
            self.X_fit_ = X
        self.classes_ = classes
        K0 = (K0 + K0.T) / 2
        self.result_ = None
        if self.method == "siqclp" and self.solver == "apg":
            res = indefinite_svm_apg(K0, yy, C, rho, tol=tol, max_iter=int(self.max_iter))
            self.alpha_, self.intercept_, self.kernel_ = res.alpha, float(res.b), res.K
            self.result_ = res
            self.n_iter_ = int(res.nit)
        elif self.method == "siqclp":
            res = indefinite_svm(K0, yy, C, rho, tol=tol, prune=self.prune, max_iter=int(self.max_iter),
                                 max_kernels=None if max_kernels is None else int(max_kernels), slack_tol=slack_tol,
                                 active_tol=active_tol, master_start=self.master_start)
            self.alpha_, self.intercept_, self.kernel_ = res.alpha, float(res.b), res.K
            self.result_ = res
            self.n_iter_ = int(res.nit)
        elif self.method == "svm":
            clf = SVC(kernel="precomputed", C=C, tol=1e-7)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                clf.fit(K0, yy)
            alpha = np.zeros(yy.size)
            alpha[clf.support_] = np.abs(clf.dual_coef_[0])
            self.alpha_, self.intercept_, self.kernel_ = alpha, float(clf.intercept_[0]), K0
            self.n_iter_ = int(np.sum(clf.n_iter_))
        else:
            K = transform_kernel(K0, self.method)
            sol = svm_dual(K, yy, C)
            self.alpha_, self.intercept_, self.kernel_ = sol.alpha, float(sol.b), K
            self.n_iter_ = 1
        self.dual_coef_ = self.alpha_ * yy
        return self

    def decision_function(self, X: ArrayLike) -> np.ndarray:
        """Decision values :math:`\\sum_i y_i\\alpha_i K_0(x, x_i) + b` (positive: ``classes_[1]``)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=float, reset=False)
        if self.kernel == "precomputed":
            if X.shape[1] != self.dual_coef_.size:
                raise ValueError(f"precomputed test kernel must have {self.dual_coef_.size} columns, got {X.shape[1]}")
            Kt = X
        else:
            Kt = self._kernel_fn()(X, self.X_fit_)
        return Kt @ self.dual_coef_ + self.intercept_

    def predict(self, X: ArrayLike) -> np.ndarray:
        """Predicted classes: ``classes_[1]`` where the decision value is positive."""
        check_is_fitted(self)
        return self.classes_[(self.decision_function(X) > 0).astype(int)]
