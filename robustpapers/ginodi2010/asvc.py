r"""ASVC: adversarial support vector classification by alternating optimisation (ginodi2010 appendix A, Algorithm 5)."""
from __future__ import annotations

import warnings
from numbers import Integral, Real
from typing import Any, Callable

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.svm import SVC
from sklearn.utils import check_random_state
from sklearn.utils.validation import validate_data

from ..core import SolverResult, Trace, check_binary_labels, check_nonnegative, check_positive, warn_not_converged
from ..core.params import Interval, ParamsMixin, StrOptions
from .guru import _binary_classes, _check_iter, _check_Xy, _LinearBinaryMixin

__all__ = ["asvc", "asvc_cone", "asvc_lower_bound", "asvc_objective", "ASVC", "multiclass_asvc", "multiclass_asvc_objective",
           "multiclass_asvc_alternate", "multiclass_worst_displacement"]


def asvc_objective(w: np.ndarray, b: Any, X: np.ndarray, y: np.ndarray, delta: float, C: float) -> Any:
    r"""Robust SVM objective (A.2) with the closed-form worst displacement (A.5).

    .. math::

        \tfrac12\|w\|^2 + C\sum_m [1 - y_m(w^\top x_m + b) + \delta\|w\|]_+ ,

    i.e. the thesis's :math:`\frac\lambda2\|w\|^2 + \sum_m[\cdot]_+` with :math:`C = 1/\lambda`.
    """
    return float(0.5 * w @ w + C * np.sum(np.maximum(1.0 - y * (X @ w + b) + delta * np.linalg.norm(w), 0.0)))


def asvc(X: np.ndarray, y: np.ndarray, delta: float, C: float = 1.0, *, tol: float = 1e-6, max_iter: int = 50,
         callback: Callable[..., Any] | None = None, verbose: int = 0,
         random_state: int | np.random.Generator | None = None) -> SolverResult:
    r"""ASVC (ginodi2010 Algorithm 5): alternate an SVM fit and the adversary's displacement.

    Solves (A.1) by alternating

    .. math::

        \Delta x_m \leftarrow -\delta\, y_m \frac{w}{\|w\|}\quad\text{(Theorem 2.1 of appendix A)},\qquad
        w, b \leftarrow \arg\min \tfrac12\|w\|^2 + C\sum_m[1 - y_m(w^\top(x_m+\Delta x_m) + b)]_+ ,

    from :math:`w = 0` (no displacement), until :math:`\|w_{k} - w_{k-1}\| \le \mathrm{tol}\,\max(1, \|w_k\|)`.
    The SVM step is scikit-learn's ``SVC(kernel="linear")`` (LIBSVM), not SVM-light. The thesis
    writes the displacement as :math:`-\delta w/\|w\|`; the label :math:`y_m` is needed for the
    worst case of :math:`[1 - y_m w^\top(x_m + \Delta x_m)]_+` (its own proof). Alternating
    minimisation is a heuristic: it is not guaranteed to decrease (A.2); the result reports
    the robust objective (A.2)/(A.5) along the way.

    Returns
    -------
    SolverResult with ``w``, ``b``, ``objective`` (A.2 at the last iterate).

    Examples
    --------
    >>> import numpy as np
    >>> from robustpapers.ginodi2010 import asvc
    >>> X = np.array([[1.0, 2.0], [2.0, 1.0], [-1.0, -2.0], [-2.0, -0.5]])
    >>> res = asvc(X, np.array([1.0, 1.0, -1.0, -1.0]), delta=0.1)
    >>> bool(res.success)
    True
    """
    X, y = _check_Xy(X, y)
    delta = check_nonnegative(delta, "delta")
    C = check_positive(C, "C")
    max_iter = _check_iter(max_iter, tol)
    d = X.shape[1]
    w, b = np.zeros(d), 0.0
    trace = Trace()
    success, message, k = False, "", 0
    for k in range(1, max_iter + 1):
        nw = np.linalg.norm(w)
        shift = -delta * np.outer(y, w / nw) if nw > 0 else 0.0
        svm = SVC(kernel="linear", C=C, tol=1e-6).fit(X + shift, y)
        w_new, b_new = svm.coef_[0].copy(), float(svm.intercept_[0])
        step = np.linalg.norm(w_new - w)
        w, b = w_new, b_new
        obj = asvc_objective(w, b, X, y, delta, C)
        trace.record(objective=obj, gap=step)
        if verbose:
            print(f"asvc iteration {k}: robust objective {obj:.6g}, step {step:.2e}")
        if callback is not None and callback(w, b, k):
            message = "stopped by callback"
            break
        if step <= tol * max(1.0, float(np.linalg.norm(w))):
            success, message = True, f"step <= tol={tol:g}"
            break
    else:
        message = warn_not_converged("asvc", "max_iter", f"last step {step:.2e}")
    return SolverResult(w.copy(), success=success, nit=k, message=message,
                        objective=asvc_objective(w, b, X, y, delta, C), trace=trace, w=w, b=b)


def asvc_lower_bound(mu: np.ndarray, w: np.ndarray, X: np.ndarray, y: np.ndarray, delta: float, C: float) -> float:
    r"""A lower bound on the optimum of (A.2) from dual weights ``mu``, for :func:`asvc_cone`'s certificate.

    For any :math:`\|u\|\le 1`, :math:`\delta\|w\|\ge\delta\,u^\top w`, so (A.2) is at least the SVM objective on
    the points :math:`x_m - \delta y_m u` (the hinge is increasing), which is at least its dual value at any
    :math:`0\le\mu\le C` with :math:`\sum_m\mu_m y_m = 0`:

    .. math::

        \textstyle\sum_m\mu_m - \tfrac12\big\|\sum_m\mu_m y_m (x_m - \delta y_m u)\big\|^2 .

    With :math:`u` the subgradient of :math:`\|w\|` that the KKT conditions of (A.2) pick
    (:math:`\sum_m\mu_m y_m x_m / (\delta\sum_m\mu_m)` projected on the unit ball, :math:`= w/\|w\|` at an
    optimum with :math:`w\ne0`), the bound equals the optimum at an optimal :math:`\mu`.
    """
    mu = np.clip(mu, 0.0, C)
    s = (mu * y) @ X
    den = delta * float(mu.sum())
    u = s / den if den > 0 else np.zeros_like(s)
    nu = float(np.linalg.norm(u))
    if nu > 1.0:
        u = u / nu
    v = s - den * u  # sum_m mu_m y_m (x_m - delta y_m u), as y_m^2 = 1
    # the equality sum mu_m y_m = 0 holds to the solver's precision; its residual times |b| is below that too
    return float(mu.sum() - 0.5 * v @ v)


def asvc_cone(X: np.ndarray, y: np.ndarray, delta: float, C: float = 1.0, *, tol: float = 1e-6,
              max_iter: int = 200, verbose: int = 0) -> SolverResult:
    r"""The robust SVM (A.2) of ginodi2010 appendix A solved as a second-order cone program, with a duality certificate.

    .. math::

        \min_{w,b,t,\xi}\ \tfrac12\|w\|^2 + C\sum_m\xi_m\quad\text{s.t.}\quad
        \xi_m\ge 0,\ \ \xi_m\ge 1 - y_m(w^\top x_m + b) + \delta t,\ \ \|w\|\le t ,

    the worst displacement (A.5) written with an epigraph variable; solved by cvxpy with Clarabel (an
    interior-point method). Not in the thesis, which alternates an SVM and the displacement
    (:func:`asvc`, Algorithm 5); the alternation need not converge (it cycles when the margin
    constraint :math:`\delta\|w\|` is active), the cone program does. The answer is certified by
    the relative gap between (A.2) at :math:`(w, b)` and the lower bound :func:`asvc_lower_bound`
    at the cone constraints' multipliers: ``success`` when Clarabel reports an optimum and
    ``gap <= tol``.

    Parameters
    ----------
    X : array (M, d); y : array (M,) in {-1, +1}, both present; delta >= 0; C > 0
    tol : float
        Relative duality gap to certify, :math:`(P - D)/\max(1, |P|)`.
    max_iter : int
        Clarabel's iteration cap.

    Returns
    -------
    SolverResult with ``w``, ``b``, ``objective`` ((A.2) at the answer), ``lower_bound``, ``gap``.

    Examples
    --------
    >>> import numpy as np
    >>> from robustpapers.ginodi2010 import asvc_cone
    >>> X = np.array([[1.0, 2.0], [2.0, 1.0], [-1.0, -2.0], [-2.0, -0.5]])
    >>> res = asvc_cone(X, np.array([1.0, 1.0, -1.0, -1.0]), delta=0.1)
    >>> bool(res.success and res.gap <= 1e-6)
    True
    """
    import cvxpy as cp

    X, y = _check_Xy(X, y)
    check_binary_labels(y)
    delta = check_nonnegative(delta, "delta")
    C = check_positive(C, "C")
    tol = check_positive(tol, "tol")
    max_iter = _check_iter(max_iter, tol)
    M, d = X.shape
    w, b, t, xi = cp.Variable(d), cp.Variable(), cp.Variable(), cp.Variable(M)
    margin = xi >= 1 - cp.multiply(y, X @ w + b) + delta * t
    prob = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(w) + C * cp.sum(xi)), [xi >= 0, margin, cp.norm(w) <= t])
    try:
        prob.solve(solver="CLARABEL", verbose=bool(verbose), max_iter=max_iter)
    except cp.error.SolverError as err:  # Clarabel gave up (numerical trouble): reported, not raised
        status = f"solver error: {err}"
    else:
        status = str(prob.status)
    ok = w.value is not None and margin.dual_value is not None
    wv = np.asarray(w.value, dtype=float) if ok else np.zeros(d)
    bv = float(np.asarray(b.value)) if ok else 0.0
    P = asvc_objective(wv, bv, X, y, delta, C)
    D = asvc_lower_bound(np.asarray(margin.dual_value, dtype=float), wv, X, y, delta, C) if ok else -np.inf
    gap = (P - D) / max(1.0, abs(P))
    success = bool(ok and status in ("optimal", "optimal_inaccurate") and gap <= tol)
    msg = f"{status}; relative duality gap {gap:.2e}"
    if not success:
        msg = warn_not_converged("asvc_cone", "max_iter (or tol)", msg)
    nit = int(prob.solver_stats.num_iters or 0) if prob.solver_stats is not None else 0
    return SolverResult(wv.copy(), success=success, nit=nit, message=msg, objective=P, w=wv, b=bv,
                        lower_bound=D, gap=float(gap))


class ASVC(ParamsMixin, _LinearBinaryMixin, ClassifierMixin, BaseEstimator):
    r"""Adversarial SVC (ginodi2010 appendix A, Algorithm 5): SVM against a worst-case ball displacement.

    .. math::

        \min_{w,b}\max_{\|\Delta x_m\|\le\delta}\tfrac12\|w\|^2 + C\sum_m[1 - y_m(w^\top(x_m+\Delta x_m)+b)]_+

    Parameters
    ----------
    delta : float >= 0
        Radius of the displacement ball.
    C : float > 0
        SVM trade-off (:math:`1/\lambda` in the thesis).
    solver : {"cone", "alternate"}, default "cone"
        ``"cone"``: the convex problem (A.2) as a cone program (:func:`asvc_cone`), certified by a relative
        duality gap at most ``tol`` (200 points: about 0.15 s). ``"alternate"``: the thesis's Algorithm 5
        (:func:`asvc`), opt-in: it stops when the step of :math:`w` is small, which certifies nothing, and on
        some data it cycles until ``max_iter`` (200 points with ``delta=0.5, C=10``: 50 alternations, 15 s).
    tol : float, default 1e-6
        ``"cone"``: relative duality gap; ``"alternate"``: relative step of :math:`w`.
    max_iter : int, optional
        Clarabel's iteration cap (``"cone"``, default 200) or the number of alternations (default 50). A run
        that stops before ``tol`` raises a ConvergenceWarning naming ``max_iter``.

    Examples
    --------
    >>> import numpy as np
    >>> from robustpapers.ginodi2010 import ASVC
    >>> X = np.array([[1.0, 2.0], [2.0, 1.0], [-1.0, -2.0], [-2.0, -0.5]])
    >>> ASVC(delta=0.1).fit(X, [1, 1, 0, 0]).predict(X).tolist()
    [1, 1, 0, 0]
    """

    _parameter_constraints = {
        "delta": [Interval(Real, 0, None, closed="left")],
        "C": [Interval(Real, 0, None, closed="neither")],
        "solver": [StrOptions(("cone", "alternate"))],
        "tol": [Interval(Real, 0, None, closed="neither")],
        "max_iter": [None, Interval(Integral, 1, None, closed="left")],
    }

    def __init__(self, delta: float = 0.1, C: float = 1.0, *, solver: str = "cone", tol: float = 1e-6,
                 max_iter: int | None = None) -> None:
        self.delta = delta
        self.C = C
        self.solver = solver
        self.tol = tol
        self.max_iter = max_iter

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def fit(self, X: ArrayLike, y: ArrayLike) -> ASVC:
        """Fit on ``X`` (n, d) and two-class labels ``y``; returns self."""
        self._validate_params()
        X, y = validate_data(self, X, y, dtype=float, ensure_all_finite=True)
        self.classes_ = _binary_classes(y, "ASVC")
        ys = np.where(y == self.classes_[1], 1.0, -1.0)
        if self.solver == "alternate":
            res = asvc(X, ys, self.delta, self.C, tol=self.tol, max_iter=50 if self.max_iter is None else self.max_iter)
        else:
            res = asvc_cone(X, ys, self.delta, self.C, tol=self.tol,
                            max_iter=200 if self.max_iter is None else self.max_iter)
        return self._set_linear_solution(res)


def multiclass_asvc_objective(W: np.ndarray, X: np.ndarray, y: np.ndarray, delta: float, C: float, b: Any = None
) -> Any:
    r"""Multiclass robust objective of ginodi2010 appendix A.4, (A.8).

    .. math::

        \tfrac12\sum_c\|w_c\|^2 + C\sum_m \max_{c}\Big[1 - \delta_{c,y_m} - (w_{y_m} - w_c)^\top x_m
        + \delta\,\|w_{y_m} - w_c\|\Big]

    (Crammer-Singer's multi-hinge against a displacement of radius :math:`\delta`; the thesis prints
    :math:`\delta_{c,y_m}` where the multi-hinge (A.6) needs :math:`1 - \delta_{c,y_m}`, and uses
    :math:`\lambda = 1/C` on the regulariser).
    """
    W = np.asarray(W, float)
    b = np.zeros(W.shape[0]) if b is None else np.asarray(b, float)
    M = X.shape[0]
    S = X @ W.T + b
    own = S[np.arange(M), y]
    D = W[y][:, None, :] - W[None, :, :]                       # (M, C, d): w_{y_m} - w_c
    T = 1.0 - (np.arange(W.shape[0])[None, :] == y[:, None]) - (own[:, None] - S) + delta * np.linalg.norm(D, axis=2)
    return float(0.5 * np.sum(W * W) + C * np.sum(T.max(axis=1)))


def multiclass_asvc(X: np.ndarray, y: np.ndarray, delta: float, C: float = 1.0, *, fit_intercept: bool = False,
                    tol: float = 1e-8, max_iter: Any = None, callback: Callable[..., Any] | None = None,
                    verbose: int = 0, random_state: int | np.random.Generator | None = None) -> SolverResult:
    r"""Multiclass ASVC (ginodi2010 appendix A.4): the robust multi-hinge (A.8) solved as a cone program.

    .. math::

        \min_{W}\ \tfrac12\sum_c\|w_c\|^2 + C\sum_m \max_{c}\Big[1 - \delta_{c,y_m} - (w_{y_m} - w_c)^\top x_m
        + \delta\|w_{y_m} - w_c\|\Big]

    The thesis only states the loss; instead of alternating an SVM with the displacement (which
    need not converge, see the binary :func:`asvc`), the convex problem is solved directly with
    cvxpy (Clarabel). Small problems only (one cone per sample and class).

    Parameters
    ----------
    X : array (M, d); y : int array (M,) with classes 0..K-1; delta >= 0; C > 0
    fit_intercept : bool
        Add per-class biases (outside the regulariser).

    Returns
    -------
    SolverResult with ``W`` (K, d), ``b`` (K,), ``objective``.

    Examples
    --------
    >>> import numpy as np
    >>> from robustpapers.ginodi2010 import multiclass_asvc
    >>> X = np.array([[2.0, 0.0], [0.0, 2.0], [-2.0, -2.0]]); y = np.array([0, 1, 2])
    >>> r = multiclass_asvc(X, y, delta=0.1)
    >>> (X @ r.W.T).argmax(axis=1).tolist()
    [0, 1, 2]
    """
    import cvxpy as cp

    X, _ = _check_Xy(X, np.ones(len(np.asarray(y))))
    y = np.asarray(y)
    if y.ndim != 1 or not np.issubdtype(y.dtype, np.integer) or y.min() < 0:
        raise ValueError("y must be a 1-D array of class indices 0..K-1")
    delta = check_nonnegative(delta, "delta")
    C = check_positive(C, "C")
    K = int(y.max()) + 1
    M, d = X.shape
    W = cp.Variable((K, d))
    b = cp.Variable(K) if fit_intercept else np.zeros(K)
    xi = cp.Variable(M)
    cons = []
    for c in range(K):
        rows = np.arange(M)
        for a in range(K):
            sel = rows[y == a]
            if sel.size == 0:
                continue
            if c == a:
                cons.append(xi[sel] >= 0)
                continue
            margin = X[sel] @ (W[a] - W[c]) + (b[a] - b[c] if fit_intercept else 0.0)
            cons.append(xi[sel] >= 1 - margin + delta * cp.norm(W[a] - W[c]))
    prob = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(W) + C * cp.sum(xi)), cons)
    prob.solve(solver="CLARABEL", verbose=bool(verbose))
    ok = prob.status in ("optimal", "optimal_inaccurate")
    msg = str(prob.status)
    if not ok:
        msg = warn_not_converged("multiclass_asvc", "the Clarabel settings", msg)
    Wv = np.asarray(W.value) if W.value is not None else np.zeros((K, d))
    bv = np.asarray(b.value) if isinstance(b, cp.Variable) and b.value is not None else np.zeros(K)
    return SolverResult(Wv.ravel().copy(), success=ok, nit=int(prob.solver_stats.num_iters or 0), message=msg,
                        objective=multiclass_asvc_objective(Wv, X, y, delta, C, bv), W=Wv, b=bv)


def _check_class_indices(X, y, name):
    X, _ = _check_Xy(X, np.ones(len(np.asarray(y))))
    y = np.asarray(y)
    if y.ndim != 1 or y.size != X.shape[0] or not np.issubdtype(y.dtype, np.integer) or y.min() < 0:
        raise ValueError(f"{name}: y must be a 1-D array of class indices 0..K-1 with one entry per row of X")
    return X, y


def multiclass_worst_displacement(W: np.ndarray, X: np.ndarray, y: np.ndarray, delta: float
                                  ) -> tuple[np.ndarray, np.ndarray]:
    r"""The adversary's step of the multiclass ASVC (ginodi2010 appendix A.4, (A.7)-(A.8)).

    For each sample the worst class and displacement of (A.8),

    .. math::

        \hat c_m = \arg\max_c\Big[1 - \delta_{c,y_m} - (w_{y_m} - w_c)^\top x_m + \delta\|w_{y_m} - w_c\|\Big],\qquad
        \Delta x_m = -\delta\,\frac{w_{y_m} - w_{\hat c_m}}{\|w_{y_m} - w_{\hat c_m}\|}

    (Theorem 2.1 of appendix A applied to the maximising class; :math:`\Delta x_m = 0` when
    :math:`\hat c_m = y_m` or the difference vanishes, e.g. at :math:`W = 0`).

    Returns
    -------
    (Delta, c_hat) : arrays of shape (M, d) and (M,)

    Examples
    --------
    >>> import numpy as np
    >>> from robustpapers.ginodi2010 import multiclass_worst_displacement
    >>> W = np.array([[1.0, 0.0], [0.0, 1.0]])
    >>> D, c = multiclass_worst_displacement(W, np.array([[0.5, 0.5]]), np.array([0]), 0.1)
    >>> np.round(D, 4).tolist(), c.tolist()
    ([[-0.0707, 0.0707]], [1])
    """
    W = np.asarray(W, float)
    M = X.shape[0]
    D = W[y][:, None, :] - W[None, :, :]                      # (M, K, d): w_{y_m} - w_c
    N = np.linalg.norm(D, axis=2)
    T = 1.0 - (np.arange(W.shape[0])[None, :] == y[:, None]) - np.einsum("mkd,md->mk", D, X) + delta * N
    c_hat = np.argmax(T, axis=1)
    n = N[np.arange(M), c_hat]
    Dm = D[np.arange(M), c_hat]
    with np.errstate(divide="ignore", invalid="ignore"):
        Delta = np.where((n > 0)[:, None], -delta * Dm / np.where(n > 0, n, 1.0)[:, None], 0.0)
    return Delta, c_hat


def multiclass_asvc_alternate(X: np.ndarray, y: np.ndarray, delta: float, C: float = 1.0, *, tol: float = 1e-5,
                              max_iter: int = 50, svm_tol: float = 1e-8, svm_max_iter: int = 100000,
                              callback: Callable[..., Any] | None = None, verbose: int = 0,
                              random_state: int | np.random.Generator | None = None) -> tuple[Any, ...]:
    r"""Multiclass ASVC by alternation (ginodi2010 appendix A.4 with the scheme of Algorithm 5).

    Minimises the robust multi-hinge objective (A.8)

    .. math::

        \tfrac12\sum_c\|w_c\|^2 + C\sum_m \max_{c}\Big[1 - \delta_{c,y_m} - (w_{y_m} - w_c)^\top x_m
        + \delta\|w_{y_m} - w_c\|\Big]

    by alternating, from :math:`W = 0` (no displacement), (a) a Crammer-Singer multiclass SVM on the
    displaced points :math:`x_m + \Delta x_m` (scikit-learn's ``LinearSVC(multi_class="crammer_singer",
    fit_intercept=False)``, LIBLINEAR; the thesis: "any off-the-shelf SVM solver") and (b) the
    adversary's step :func:`multiclass_worst_displacement`, until
    :math:`\|W_k - W_{k-1}\| \le \mathrm{tol}\max(1, \|W_k\|)`.

    Step (a) minimises, for fixed displacements, a lower bound of (A.8) (each displaced point lies
    in the ball), so its value (``trace["svm_value"]``) never exceeds the optimum of (A.8), up to
    the SVM's tolerance. A fixed point :math:`W^* \ne 0` is optimal: there the active terms of the
    displaced problem coincide with those of (A.8), so the SVM's optimality condition is a
    subgradient condition of (A.8). As in the binary case the alternation is not a descent method
    and need not converge; ``multiclass_asvc`` (the cone program) is the reliable solver.

    Parameters
    ----------
    X : array (M, d); y : int array (M,) with every class 0..K-1 present; delta >= 0; C > 0
    tol, max_iter : alternation controls (``ConvergenceWarning`` naming ``max_iter`` when it stops early).
    svm_tol, svm_max_iter : LIBLINEAR's ``tol`` and ``max_iter`` in step (a).
    random_state : int, RandomState or None
        Seeds LIBLINEAR's coordinate order in every step (a), for reproducible runs.

    Returns
    -------
    SolverResult with ``W`` (K, d), ``b`` (zeros), ``objective`` ((A.8) at the last iterate), ``trace``
    (``objective``, ``svm_value``, ``gap`` = the step) and ``c_hat`` (the last worst classes).

    Examples
    --------
    >>> import numpy as np
    >>> from robustpapers.ginodi2010 import multiclass_asvc_alternate
    >>> X = np.array([[2.0, 0.0], [0.0, 2.0], [-2.0, -2.0], [2.5, 0.5], [0.5, 2.5], [-2.5, -1.5]])
    >>> r = multiclass_asvc_alternate(X, np.array([0, 1, 2, 0, 1, 2]), delta=0.1)
    >>> bool(r.success), (X @ r.W.T).argmax(axis=1).tolist()
    (True, [0, 1, 2, 0, 1, 2])
    """
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.svm import LinearSVC

    X, y = _check_class_indices(X, y, "multiclass_asvc_alternate")
    delta = check_nonnegative(delta, "delta")
    C = check_positive(C, "C")
    max_iter = _check_iter(max_iter, tol)
    K = int(y.max()) + 1
    if K < 2 or np.unique(y).size != K:
        raise ValueError(f"multiclass_asvc_alternate: every class 0..{K - 1} must occur in y (at least two classes)")
    M, d = X.shape
    rng = check_random_state(random_state)
    W = np.zeros((K, d))
    trace = Trace()
    success, message, k, step = False, "", 0, np.nan
    for k in range(1, max_iter + 1):
        Delta, _ = multiclass_worst_displacement(W, X, y, delta)
        Xs = X + Delta
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            svm = LinearSVC(multi_class="crammer_singer", fit_intercept=False, C=C, tol=svm_tol,
                            max_iter=svm_max_iter, random_state=rng.randint(2**31 - 1)).fit(Xs, y)
        if K == 2:        # scikit-learn returns w_1 - w_0; LIBLINEAR's dual keeps w_0 + w_1 = 0
            W_new = np.vstack([-svm.coef_[0] / 2, svm.coef_[0] / 2])
        else:
            W_new = svm.coef_.copy()
        step = float(np.linalg.norm(W_new - W))
        W = W_new
        obj = multiclass_asvc_objective(W, X, y, delta, C)
        svm_value = multiclass_asvc_objective(W, Xs, y, 0.0, C)
        trace.record(objective=obj, svm_value=svm_value, gap=step)
        if verbose:
            print(f"multiclass_asvc_alternate iteration {k}: objective (A.8) {obj:.6g}, SVM value {svm_value:.6g}, "
                  f"step {step:.2e}")
        if callback is not None and callback(W, k):
            message = "stopped by callback"
            break
        if step <= tol * max(1.0, float(np.linalg.norm(W))):
            success, message = True, f"step <= tol={tol:g}"
            break
    else:
        message = warn_not_converged("multiclass_asvc_alternate", "max_iter", f"last step {step:.2e}")
    _, c_hat = multiclass_worst_displacement(W, X, y, delta)
    return SolverResult(W.ravel().copy(), success=success, nit=k, message=message,
                        objective=multiclass_asvc_objective(W, X, y, delta, C), trace=trace, W=W.copy(),
                        b=np.zeros(K), c_hat=c_hat)
