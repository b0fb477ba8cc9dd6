"""A scikit-learn classifier over precomputed kernel stacks: the robust SVM of bental2012 (USSVM)."""
from __future__ import annotations

from dataclasses import replace
from numbers import Integral, Real
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import check_array, check_is_fitted, validate_data

from ..core import Interval, KernelStack, ParamsMixin, StrOptions
from .prediction import evaluate_prediction_rules, nominal_decision, sampled_decisions
from .entry import USSVMOptions, ussvm
from .socp import ussvm_socp
from .ussvm import FSSOptions, ussvm_fss

__all__ = ["USSVMClassifier"]

#: The values of ``USSVMClassifier(solver=...)``.
SOLVERS = ("auto", "alternating", "fss", "socp")


class USSVMClassifier(ParamsMixin, ClassifierMixin, BaseEstimator):
    r"""Robust SVM under the affine kernel uncertainty :math:`\mathcal E(\kappa)` (bental2012 eq. (12)).

    .. math::

        \max_{\alpha\in S_n}\ \min_{\eta\ge 0, \|\eta\|_p\le\kappa}\
        e^\top\alpha - \tfrac12\alpha^\top Y\Big(\bar K + \sum_l\eta_l K_l\Big)Y\alpha

    ``fit`` takes a precomputed stack ``X`` of shape (L+1, n, n): ``X[0]`` = :math:`\bar K`,
    ``X[1:]`` = :math:`K_1..K_L` on the training points (a 2-D (n, n) kernel is the stack with
    L = 0, i.e. the plain SVM), or the same stack as a :class:`~robustpapers.core.KernelStack`.
    ``predict``/``decision_function`` take the test stack (L+1, m, n) (or its (m, n) nominal kernel,
    or a ``KernelStack``) and apply the nominal rule (25).

    **Model selection.** scikit-learn counts samples along the first axis, so the (L+1, n, n) array
    cannot be split by ``cross_val_score`` or ``GridSearchCV``; wrap it as ``KernelStack(stack)``,
    whose ``shape`` is (n, n) and whose ``[rows, cols]`` slices every kernel at once. With the
    ``pairwise`` tag of this estimator, each fold then fits on ``K_l[train][:, train]`` and scores on
    ``K_l[test][:, train]`` for every l (the robust problem (12) on the training points).

    Parameters
    ----------
    C : float > 0
    kappa : float >= 0
    p : float >= 1
    solver : {"auto", "alternating", "fss", "socp"}
        The method of :func:`ussvm` (default "auto": the fastest certified method, see there); "fss" calls
        :func:`ussvm_fss` (USSVM_MN) and "socp" :func:`ussvm_socp` (USSVM_SOCP) directly, as before.
    tol, max_iter : relative certified gap; FSS step cap (``solver="fss"``, and the FSS fallback of "auto").
    bias : {"paper", "free"}
        Bias rule (:func:`robust_bias`).
    solver_options : dict, USSVMOptions or FSSOptions, optional
        Extra keyword arguments for the solver: with "auto"/"alternating" a :class:`USSVMOptions` (or a dict of its
        fields, or an :class:`FSSOptions` for the FSS fallback); with "fss" an :class:`FSSOptions` (or a dict).

    Attributes
    ----------
    classes_, alpha_, b_, eta_, n_kernels_, result_, n_iter_, n_features_in_ (= n training points)

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 1.0], [1.0, 0.0], [3.0, 1.0], [4.0, 0.5]]); y = np.array([0, 0, 1, 1])
    >>> K = X @ X.T + np.eye(4)
    >>> clf = USSVMClassifier(C=1.0, kappa=0.1, solver="socp").fit(np.stack([K, K, 2 * K]), y)
    >>> clf.predict(np.stack([K, K, 2 * K])).tolist()
    [0, 0, 1, 1]

    Grid search over C and kappa on the uncertain kernels:

    >>> from sklearn.model_selection import GridSearchCV
    >>> from robustpapers.core import KernelStack
    >>> rng = np.random.default_rng(0)
    >>> Z = rng.normal(size=(24, 2)); yz = (Z[:, 0] + Z[:, 1] > 0).astype(int)
    >>> stack = KernelStack([Z @ Z.T, 0.1 * np.eye(24)])
    >>> search = GridSearchCV(USSVMClassifier(solver="socp"), {"C": [0.1, 1.0], "kappa": [0.1, 1.0]}, cv=3)
    >>> sorted(search.fit(stack, yz).best_params_)
    ['C', 'kappa']
    """

    _parameter_constraints = {
        "C": [Interval(Real, 0, None, closed="neither")],
        "kappa": [Interval(Real, 0, None, closed="left")],
        "p": [Interval(Real, 1, None, closed="left", allow_inf=True)],
        "solver": [StrOptions(SOLVERS)],
        "tol": [Interval(Real, 0, None, closed="neither")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "bias": [StrOptions(("paper", "free"))],
        "solver_options": [None, dict, FSSOptions, USSVMOptions],
    }

    def __init__(self, C: float = 1.0, kappa: float = 1.0, p: float = 2, solver: str = "auto",
                 tol: float = 1e-4, max_iter: int = 20_000, bias: str = "paper",
                 solver_options: dict[str, Any] | None = None) -> None:
        self.C = C
        self.kappa = kappa
        self.p = p
        self.solver = solver
        self.tol = tol
        self.max_iter = max_iter
        self.bias = bias
        self.solver_options = solver_options

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = True
        tags.classifier_tags.multi_class = False
        return tags

    def _stack(self, X, reset, y=None):
        if isinstance(X, KernelStack):
            X = X.kernels
        X = check_array(X, allow_nd=True, dtype=np.float64)
        if X.ndim == 2:
            if y is not None:
                X, y = validate_data(self, X, y, reset=reset, dtype=np.float64)
            else:
                X = validate_data(self, X, reset=reset, dtype=np.float64)
            return X[None], y
        if X.ndim != 3:
            raise ValueError(f"X must be a kernel stack of shape (L+1, m, n) or a kernel (m, n), got shape {X.shape}")
        if reset:
            self.n_features_in_ = X.shape[2]
        elif X.shape[2] != self.n_features_in_:
            raise ValueError(f"X has {X.shape[2]} features, but {type(self).__name__} is expecting "
                             f"{self.n_features_in_} features as input (one column per training point)")
        if y is not None:
            y = np.asarray(y)
            if y.shape[0] != X.shape[1]:
                raise ValueError(f"X has {X.shape[1]} rows but y has {y.shape[0]} labels")
        return X, y

    def fit(self, X: ArrayLike, y: ArrayLike) -> USSVMClassifier:
        """Fit on the training stack ``X`` (L+1, n, n) or ``KernelStack`` and labels ``y`` (two classes)."""
        self._validate_params()
        X, y = self._stack(X, reset=True, y=y)
        kind = type_of_target(y, input_name="y", raise_unknown=True)
        if kind != "binary":
            raise ValueError(f"Only binary classification is supported. The type of the target is {kind}.")
        self.classes_ = np.unique(y)
        if self.classes_.size < 2:
            raise ValueError("USSVMClassifier needs two classes; only one class is present in y")
        if X.shape[1] != X.shape[2]:
            raise ValueError(f"the training kernels must be square, got shape {X.shape[1:]}")
        ypm = np.where(y == self.classes_[1], 1.0, -1.0)
        if self.solver in ("auto", "alternating"):
            so = self.solver_options
            if isinstance(so, dict):
                try:
                    so = USSVMOptions(**so)
                except TypeError as err:
                    raise ValueError(f"solver_options for solver={self.solver!r}: {err}") from None
            so = USSVMOptions(fss=so) if isinstance(so, FSSOptions) else (so or USSVMOptions())
            res = ussvm(X[0], X[1:], ypm, self.C, self.kappa, self.p, method=self.solver, tol=self.tol,
                        bias=self.bias, options=replace(so, fss_max_iter=self.max_iter))
        elif isinstance(self.solver_options, FSSOptions):
            if self.solver != "fss":
                raise ValueError("solver_options may be an FSSOptions only with solver='fss', 'auto' or "
                                 "'alternating'")
            res = ussvm_fss(X[0], X[1:], ypm, self.C, self.kappa, self.p, tol=self.tol, max_iter=self.max_iter,
                            bias=self.bias, options=self.solver_options)
        elif self.solver == "fss":
            opts = dict(self.solver_options or {})
            res = ussvm_fss(X[0], X[1:], ypm, self.C, self.kappa, self.p, tol=self.tol, max_iter=self.max_iter,
                            bias=self.bias, **opts)
        else:
            opts = dict(self.solver_options or {})
            res = ussvm_socp(X[0], X[1:], ypm, self.C, self.kappa, self.p, bias=self.bias, **opts)
        self.result_ = res
        self.n_iter_ = max(int(res.nit), 1)
        self.alpha_ = res.alpha
        self.b_ = res.b
        self.eta_ = res.eta
        self.n_kernels_ = X.shape[0] - 1
        self.y_signed_ = ypm
        return self

    def decision_function(self, X: ArrayLike) -> np.ndarray:
        """Nominal decision values (rule (25)) on the test stack (L+1, m, n) or kernel (m, n)."""
        check_is_fitted(self)
        X, _ = self._stack(X, reset=False)
        return nominal_decision(X, self.y_signed_, self.alpha_, self.b_)

    def predict(self, X: ArrayLike) -> np.ndarray:
        """Labels by the nominal rule (25)."""
        f = self.decision_function(X)
        return self.classes_[(f > 0).astype(int)]

    def sample_decision_function(self, X: np.ndarray, R: int = 100,
                                 random_state: int | np.random.Generator | None = None) -> Any:
        """Decision values under R kernels drawn from :math:`\\mathcal E(\\kappa)` (rule (26)): (f_nominal, F (R, m))."""
        check_is_fitted(self)
        X, _ = self._stack(X, reset=False)
        f, F, _ = sampled_decisions(X, self.y_signed_, self.alpha_, self.b_, self.kappa, R=R, p=self.p,
                                    random_state=random_state)
        return f, F

    def prediction_errors(self, X: np.ndarray, y: np.ndarray, R: int = 100,
                          random_state: int | np.random.Generator | None = None) -> Any:
        """NominalErr, MajorityErr (27), RobustErr (28) on the test stack ``X`` with labels ``y``."""
        check_is_fitted(self)
        X, _ = self._stack(X, reset=False)
        ypm = np.where(np.asarray(y) == self.classes_[1], 1.0, -1.0)
        return evaluate_prediction_rules(X, ypm, self.y_signed_, self.alpha_, self.b_, self.kappa, R=R, p=self.p,
                                         random_state=random_state)
