r"""M-GURU and M-GURU-S^2 (ginodi2010 chapter 5, Algorithms 3-4): the robust sum-of-hinges loss."""
from __future__ import annotations

import math
from numbers import Integral, Real
from typing import Any, Callable

import numpy as np
from numpy.typing import ArrayLike
from scipy.optimize import minimize
from scipy.special import ndtr
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ..core import SolverResult, Trace, check_finite_array, check_positive, warn_not_converged
from .guru import _check_iter
from .loss import _check_sigma, _phi, smooth_hinge
from ..core.params import Interval, ParamsMixin, StrOptions

__all__ = ["multi_robust_loss", "multi_guru_objective", "m_guru", "m_guru_lbfgs", "MultiGURUClassifier"]

_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)


def _check_class_indices(X, y, n_classes):
    """``X`` (M >= 1 rows), integer labels 0..C-1 and ``C`` (default ``y.max() + 1``), or a ValueError.

    Checked before ``y.max()`` is taken: no rows, or labels that are not class indices (strings such
    as ``"cat"``), fail here with a message instead of inside numpy.
    """
    X = check_finite_array(X, "X", ndim=2)
    y = np.asarray(y)
    if X.shape[0] == 0 or y.size == 0:
        raise ValueError(f"X and y must have at least one row, got X of shape {X.shape} and {y.size} labels")
    if y.dtype.kind not in "biuf":
        raise ValueError(f"y must hold integer class indices 0..C-1, got {y.dtype} labels such as {y.ravel()[0].item()!r} "
                         "(encode them first, e.g. with sklearn.preprocessing.LabelEncoder)")
    if n_classes is not None and (isinstance(n_classes, bool) or int(n_classes) != n_classes):
        raise ValueError(f"n_classes must be an integer, got {n_classes!r}")
    if not np.all(np.isfinite(y)):
        raise ValueError("y contains NaN or inf")
    C = int(n_classes) if n_classes is not None else int(np.max(y)) + 1
    return X, y, C


def _check_multi(W, X, y, b=None):
    W = check_finite_array(W, "W", ndim=2)
    X = check_finite_array(X, "X", ndim=2)
    y = np.asarray(y)
    if y.ndim != 1 or y.size != X.shape[0]:
        raise ValueError(f"y must be 1-D with {X.shape[0]} entries, got shape {y.shape}")
    if not np.issubdtype(y.dtype, np.integer):
        if not np.all(np.isfinite(y.astype(float))) or np.any(y.astype(float) != np.round(y.astype(float))):
            raise ValueError("y must hold integer class indices 0..C-1")
        y = y.astype(int)
    C = W.shape[0]
    if y.size and (y.min() < 0 or y.max() >= C):
        raise ValueError(f"y must hold class indices in 0..{C - 1}")
    if W.shape[1] != X.shape[1]:
        raise ValueError(f"W has {W.shape[1]} columns but X has {X.shape[1]} features")
    b = np.zeros(C) if b is None else check_finite_array(b, "b", ndim=1)
    if b.size != C:
        raise ValueError(f"b must have {C} entries")
    return W, X, y, b


def _pair_terms(W, X, y, b, sigma):
    """Margins u (M, C), scales s (M, C) = sigma ||w_{y_m} - w_c|| and the mask of the pairs c != y_m."""
    M = X.shape[0]
    D = X @ W.T + b
    own = D[np.arange(M), y]
    U = 1.0 - (own[:, None] - D)
    G = W @ W.T
    dg = np.diag(G)
    N2 = np.maximum(dg[:, None] + dg[None, :] - 2 * G, 0.0)
    S = sigma * np.sqrt(N2)[y]
    mask = np.ones_like(U, dtype=bool)
    mask[np.arange(M), y] = False
    return U, S, mask


def multi_robust_loss(W: np.ndarray, X: np.ndarray, y: np.ndarray, sigma: float, b: Any = None) -> np.ndarray:
    r"""Per-sample robust sum-of-hinges loss (ginodi2010 eqs. (5.13)-(5.14)).

    .. math::

        \ell^{rob}_{sum}(x_m, y_m; w_1..w_C)
        = \max_{\rho(\Sigma)\le\sigma^2}\mathbb E_{n\sim\mathcal N(0,\Sigma)}\sum_{c\ne y_m}[1 - (w_{y_m}-w_c)^\top(x_m+n)]_+
        = \sum_{c\ne y_m} \ell^{rob}_{hinge}(x_m, +1; w_{y_m} - w_c, \sigma^2),

    the adversary's choice being the isotropic :math:`\Sigma^* = \sigma^2 I` (Theorem 2.1 of
    chapter 5). Intercepts ``b`` enter as :math:`b_{y_m} - b_c` (not in the thesis).

    Parameters
    ----------
    W : array (C, d); X : array (M, d); y : int array (M,) in 0..C-1; sigma : float > 0; b : array (C,)

    Returns
    -------
    ndarray of shape (M,)

    Examples
    --------
    >>> import numpy as np
    >>> from robustpapers.ginodi2010 import multi_robust_loss
    >>> multi_robust_loss(np.zeros((3, 2)), np.ones((2, 2)), np.array([0, 2]), sigma=1.0).tolist()
    [2.0, 2.0]
    """
    W, X, y, b = _check_multi(W, X, y, b)
    sigma = _check_sigma(sigma)
    U, S, mask = _pair_terms(W, X, y, b, sigma)
    L = _loss_from_margins_arr(U[mask], S[mask])
    out = np.zeros_like(U)
    out[mask] = L
    return out.sum(axis=1)


def _loss_from_margins_arr(u, s):
    """s f(u / s) elementwise for arrays u, s >= 0 (the hinge [u]_+ where s = 0); as ``loss._loss_from_margins``."""
    out = np.maximum(u, 0.0)
    live = s > 0.0
    u, s = u[live], s[live]
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        z = u / s
    res = np.empty_like(u)
    pos = u >= 0
    zp = z[pos]
    # u Phi(z) + s phi(z) where u >= 0: no cancellation; s f(z) through the Mills ratio where u < 0
    res[pos] = u[pos] * ndtr(zp) + s[pos] * np.where(np.isinf(zp), 0.0, _phi(np.where(np.isinf(zp), 0.0, zp)))
    res[~pos] = s[~pos] * smooth_hinge(z[~pos])
    out[live] = res
    return out


def multi_guru_objective(W: np.ndarray, X: np.ndarray, y: np.ndarray, sigma: float, b: Any = None) -> Any:
    r"""Sum over samples of :func:`multi_robust_loss` (ginodi2010 eq. (5.13))."""
    return float(np.sum(multi_robust_loss(W, X, y, sigma, b)))


def _multi_grad(W, X, y, b, sigma):
    """Full gradient of the objective (5.13) w.r.t. W (C, d) and b (C,)."""
    U, S, mask = _pair_terms(W, X, y, b, sigma)
    M, C = U.shape
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        Z = U / S
    P = np.where(S > 0, ndtr(Z), np.where(U > 0, 1.0, np.where(U < 0, 0.0, 0.5)))
    Q = np.where(S > 0, sigma * _INV_SQRT_2PI * np.exp(-0.5 * np.where(S > 0, Z, 0.0) ** 2), 0.0)
    P = P * mask
    Q = Q * mask
    Y1 = np.zeros((M, C))
    Y1[np.arange(M), y] = 1.0
    A = P - Y1 * P.sum(axis=1, keepdims=True)          # d/d(score_c) of the hinge part
    gW = A.T @ X
    gb = A.sum(axis=0)
    G = W @ W.T
    dg = np.diag(G)
    nrm = np.sqrt(np.maximum(dg[:, None] + dg[None, :] - 2 * G, 0.0))
    Nq = Y1.T @ Q                                        # N[a, c] = sum_{m: y_m = a} Q[m, c]
    with np.errstate(divide="ignore", invalid="ignore"):
        Nq = np.where(nrm > 0, Nq / nrm, 0.0)
    B = Nq + Nq.T
    gW = gW + (np.diag(B.sum(axis=1)) - B) @ W
    return gW, gb


def _sample_grad(W, x, c, b, sigma, fit_intercept):
    """Gradient of the per-sample loss w.r.t. every w_r (C, d) and b (C,), as in section 5.3 (vectorised over r)."""
    C = W.shape[0]
    V = W[c] - W                      # (C, d): w_{y_m} - w_r
    nrm = np.sqrt(np.einsum("ij,ij->i", V, V))
    u = 1.0 - (V @ x + (b[c] - b))
    s = sigma * nrm
    pos = s > 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(pos, u / np.where(pos, s, 1.0), 0.0)
    # s = 0: Phi -> 1[u > 0] (1/2 at u = 0), phi -> 0
    P = np.where(pos, ndtr(z), np.where(u > 0, 1.0, np.where(u < 0, 0.0, 0.5)))
    p = np.where(pos & (np.abs(z) < 40), _INV_SQRT_2PI * np.exp(-0.5 * z * z), 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        coef = np.where(nrm > 0, sigma * p / np.where(nrm > 0, nrm, 1.0), 0.0)
    P[c] = 0.0
    coef[c] = 0.0
    gV = coef[:, None] * V - P[:, None] * x[None, :]
    gW = -gV
    gW[c] = gV.sum(axis=0)
    if not fit_intercept:
        return gW, np.zeros(C)
    gB = P.copy()
    gB[c] = -P.sum()
    return gW, gB


def m_guru(X: np.ndarray, y: np.ndarray, sigma: float, *, n_classes: int | None = None, variant: str = "full",
           eta0: float = 1.0, fit_intercept: bool = False, tol: float = 1e-4, max_iter: int = 100,
           random_state: int | np.random.Generator | None = None, callback: Callable[..., Any] | None = None,
           verbose: int = 0, record_every: int | None = None) -> SolverResult:
    r"""M-GURU (ginodi2010 Algorithm 3) and M-GURU-S\ :sup:`2` (Algorithm 4) by SGD.

    Minimises (5.13)

    .. math::

        \min_{w_1..w_C}\sum_m\sum_{c\ne y_m}\sigma\|w_{y_m}-w_c\|\,
        f\!\Big(\frac{1 - (w_{y_m}-w_c)^\top x_m}{\sigma\|w_{y_m}-w_c\|}\Big)

    from :math:`W = 0` with step :math:`\eta_0/\sqrt t`, :math:`m` drawn uniformly. ``variant="full"``
    updates every :math:`w_r` with its gradient (section 5.3); ``variant="s2"`` also draws one class
    :math:`r` uniformly and updates :math:`w_r` only. Every update increments :math:`t`.
    Stopping rule as in :func:`guru_sgd` (relative change of the objective over an epoch of
    :math:`M` updates).

    Parameters
    ----------
    X : array (M, d); y : int array (M,) with classes 0..C-1
    n_classes : int, optional (default ``y.max() + 1``)
    record_every : int, optional
        Also record the objective every ``record_every`` updates in the trace (column ``update``),
        for loss-vs-updates curves (Fig. 5.2).

    Returns
    -------
    SolverResult
        ``W`` (C, d), ``b`` (C,), ``objective``, ``n_updates``, ``trace``.

    Examples
    --------
    >>> import numpy as np
    >>> from robustpapers.ginodi2010 import m_guru
    >>> X = np.array([[2.0, 0.0], [0.0, 2.0], [-2.0, -2.0]]); y = np.array([0, 1, 2])
    >>> res = m_guru(X, y, sigma=0.5, random_state=0, max_iter=50)
    >>> (X @ res.W.T).argmax(axis=1).tolist()
    [0, 1, 2]
    """
    X, y, C = _check_class_indices(X, y, n_classes)
    W = np.zeros((C, X.shape[1]))
    W, X, y, b = _check_multi(W, X, y)
    if C < 2:
        raise ValueError("need at least two classes")
    sigma = _check_sigma(sigma)
    eta0 = check_positive(eta0, "eta0")
    max_iter = _check_iter(max_iter, tol)
    if variant not in ("full", "s2"):
        raise ValueError(f"variant must be 'full' or 's2', got {variant!r}")
    rng = check_random_state(random_state)
    M = X.shape[0]
    trace = Trace()
    prev = multi_guru_objective(W, X, y, sigma, b)
    trace.record(objective=prev, epoch=0, update=0)
    t = 0
    success, message, epoch, change = False, "", 0, np.nan
    for epoch in range(1, max_iter + 1):
        for _ in range(M):
            i = rng.randint(M)
            t += 1
            eta = eta0 / math.sqrt(t)
            gW, gb = _sample_grad(W, X[i], y[i], b, sigma, fit_intercept)
            if variant == "full":
                W -= eta * gW
                b -= eta * gb
            else:
                r = rng.randint(C)
                W[r] -= eta * gW[r]
                b[r] -= eta * gb[r]
            if record_every and t % record_every == 0:
                trace.record(objective=multi_guru_objective(W, X, y, sigma, b), epoch=epoch, update=t)
        obj = multi_guru_objective(W, X, y, sigma, b)
        change = abs(prev - obj) / max(1.0, abs(obj))
        if not record_every:
            trace.record(objective=obj, gap=change, epoch=epoch, update=t)
        if verbose:
            print(f"m_guru[{variant}] epoch {epoch}: objective {obj:.6g}")
        prev = obj
        if callback is not None and callback(W, b, epoch):
            message = "stopped by callback"
            break
        if change <= tol:
            success, message = True, f"relative change of the objective over an epoch <= tol={tol:g}"
            break
    else:
        message = warn_not_converged("m_guru", "max_iter", f"{max_iter} epochs, last relative change {change:.2e}")
    return SolverResult(W.ravel().copy(), success=success, nit=epoch, message=message, objective=prev,
                        trace=trace, W=W.copy(), b=b.copy(), n_updates=t)


def m_guru_lbfgs(X: np.ndarray, y: np.ndarray, sigma: float, *, n_classes: int | None = None,
                 fit_intercept: bool = False, tol: float = 1e-8, max_iter: int = 2000,
                 W0: np.ndarray | None = None, b0: np.ndarray | None = None,
                 callback: Callable[..., Any] | None = None, verbose: int = 0,
                 random_state: int | np.random.Generator | None = None) -> SolverResult:
    r"""Full-batch L-BFGS on the M-GURU objective (5.13) (certifies M-GURU's optimum; not in the thesis).

    .. math::

        \min_{W, b}\;\frac1M\sum_m\sum_{c\ne y_m}\ell^{rob}_{hinge}(x_m, +1; w_{y_m}-w_c, \sigma^2)

    The objective is invariant to adding the same vector to every :math:`w_c`; L-BFGS from
    :math:`W = 0` keeps :math:`\sum_c w_c = 0` (every gradient sums to zero over classes).

    Parameters
    ----------
    X : array (M, d); y : int array (M,) with classes 0..C-1; sigma : float > 0
    n_classes : int, optional (default ``y.max() + 1``)
    fit_intercept : bool
    tol : float
        ``gtol`` of L-BFGS-B on the gradient of the mean objective.
    max_iter : int
    W0, b0 : arrays (C, d) and (C,), optional
        Start (default 0), e.g. the solution at a neighbouring sigma (warm start along a path).

    Returns
    -------
    SolverResult with ``W``, ``b``, ``objective`` (the sum), ``grad_norm``.
    """
    X, y, C = _check_class_indices(X, y, n_classes)
    _, X, y, b_zero = _check_multi(np.zeros((C, X.shape[1])), X, y)
    sigma = _check_sigma(sigma)
    max_iter = _check_iter(max_iter, tol)
    M, d = X.shape
    trace = Trace()

    def fun(p):
        W = p[:C * d].reshape(C, d)
        b = p[C * d:] if fit_intercept else b_zero
        val = multi_guru_objective(W, X, y, sigma, b) / M
        gW, gb = _multi_grad(W, X, y, b, sigma)
        g = np.concatenate([gW.ravel(), gb]) if fit_intercept else gW.ravel()
        return val, g / M

    def cb(intermediate_result):
        trace.record(objective=intermediate_result.fun * M)
        if callback is not None:
            return callback(intermediate_result.x)

    p0 = np.zeros(C * d + (C if fit_intercept else 0))
    if W0 is not None:
        W0 = check_finite_array(W0, "W0", ndim=2)
        if W0.shape != (C, d):
            raise ValueError(f"W0 must have shape {(C, d)}, got {W0.shape}")
        p0[:C * d] = W0.ravel()
    if b0 is not None and fit_intercept:
        b0 = check_finite_array(b0, "b0", ndim=1)
        if b0.shape != (C,):
            raise ValueError(f"b0 must have shape {(C,)}, got {b0.shape}")
        p0[C * d:] = b0
    res = minimize(fun, p0, jac=True, method="L-BFGS-B",
                   callback=cb, options=dict(maxiter=max_iter, gtol=tol, ftol=1e-15, maxcor=20))
    val, g = fun(res.x)
    gnorm = float(np.max(np.abs(g)))
    success = bool(gnorm <= 10 * tol or res.status == 0 and gnorm <= 1e3 * tol)
    msg = str(res.message)
    if not success:
        msg = warn_not_converged("m_guru_lbfgs", "max_iter", f"gradient norm {gnorm:.2e} > tol={tol:g}")
    W = res.x[:C * d].reshape(C, d).copy()
    b = res.x[C * d:].copy() if fit_intercept else np.zeros(C)
    return SolverResult(res.x.copy(), success=success, nit=res.nit, message=msg, objective=val * M, trace=trace,
                        W=W, b=b, grad_norm=gnorm)


class MultiGURUClassifier(ParamsMixin, ClassifierMixin, BaseEstimator):
    r"""Multiclass Gaussian robust classifier M-GURU (ginodi2010 chapter 5).

    Minimises the robust sum-of-hinges objective (5.13)

    .. math::

        \min_{W, b}\sum_m\sum_{c\ne y_m}\ell^{rob}_{hinge}(x_m, +1; w_{y_m}-w_c, \sigma^2),

    and predicts :math:`\arg\max_c w_c^\top x + b_c` (5.1).

    Parameters
    ----------
    sigma : float > 0
    variant : {"lbfgs", "full", "s2"}, default "lbfgs"
        Full-batch L-BFGS, Algorithm 3 (M-GURU) or Algorithm 4 (M-GURU-S\ :sup:`2`): the same convex objective
        (5.13). L-BFGS is the default because it is the fast path that certifies its answer (gradient norm
        at most ``tol``): on 300 points in 5 dimensions with 3 classes it stops in 0.1 s, where the thesis's
        SGD algorithms take 9 s ("full") and 6 s ("s2") and stop on a small change of the objective over an
        epoch, which certifies nothing. The thesis's algorithms are opt-in.
    fit_intercept : bool, default True
    eta0, tol, max_iter, random_state : solver controls.

    Attributes
    ----------
    coef_ : ndarray of shape (C, d)
    intercept_ : ndarray of shape (C,)
    classes_ : ndarray of shape (C,)
    result_ : SolverResult

    Examples
    --------
    >>> import numpy as np
    >>> from robustpapers.ginodi2010 import MultiGURUClassifier
    >>> X = np.array([[2.0, 0.0], [0.0, 2.0], [-2.0, -2.0]])
    >>> MultiGURUClassifier(sigma=0.5, variant="lbfgs").fit(X, ["a", "b", "c"]).predict(X).tolist()
    ['a', 'b', 'c']
    """

    _parameter_constraints = {
        "sigma": [Interval(Real, 0, None, closed="neither")],
        "variant": [StrOptions(("lbfgs", "full", "s2"))],
        "fit_intercept": ["boolean"],
        "eta0": [Interval(Real, 0, None, closed="neither")],
        "tol": [None, Interval(Real, 0, None, closed="neither")],
        "max_iter": [None, Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
    }

    def __init__(self, sigma: float = 1.0, *, variant: str = "lbfgs", fit_intercept: bool = True,
                 eta0: float = 1.0, tol: Any = None, max_iter: Any = None,
                 random_state: int | np.random.Generator | None = None) -> None:
        self.sigma = sigma
        self.variant = variant
        self.fit_intercept = fit_intercept
        self.eta0 = eta0
        self.tol = tol
        self.max_iter = max_iter
        self.random_state = random_state

    def fit(self, X: ArrayLike, y: ArrayLike) -> MultiGURUClassifier:
        """Fit on ``X`` (n, d) and labels ``y`` (two or more classes); returns self."""
        self._validate_params()
        X, y = validate_data(self, X, y, dtype=float, ensure_all_finite=True)
        check_classification_targets(y)
        self.classes_, yi = np.unique(y, return_inverse=True)
        if self.classes_.size < 2:
            raise ValueError("MultiGURUClassifier needs at least two classes in y; got 1 class")
        C = self.classes_.size
        if self.variant in ("full", "s2"):
            res = m_guru(X, yi, self.sigma, n_classes=C, variant=self.variant, eta0=self.eta0,
                         fit_intercept=self.fit_intercept, tol=1e-4 if self.tol is None else self.tol,
                         max_iter=100 if self.max_iter is None else self.max_iter, random_state=self.random_state)
        else:
            res = m_guru_lbfgs(X, yi, self.sigma, n_classes=C, fit_intercept=self.fit_intercept,
                               tol=1e-8 if self.tol is None else self.tol,
                               max_iter=2000 if self.max_iter is None else self.max_iter)
        self.result_ = res
        self.coef_ = res.W
        self.intercept_ = res.b
        self.n_iter_ = res.nit
        return self

    def _scores(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, dtype=float, reset=False, ensure_all_finite=True)
        return X @ self.coef_.T + self.intercept_

    def decision_function(self, X: ArrayLike) -> np.ndarray:
        """Scores :math:`w_c^\\top x + b_c`, shape (n, C); for two classes the difference, shape (n,)."""
        S = self._scores(X)
        return S[:, 1] - S[:, 0] if S.shape[1] == 2 else S

    def predict(self, X: ArrayLike) -> np.ndarray:
        """Class with the largest score (5.1)."""
        scores = self._scores(X)
        return self.classes_[np.argmax(scores, axis=1)]
