"""Robust linear classification under uncertainty: Theorem 1's SOCP (10), its W-form (3)/(44).

Shivaswamy, Bhattacharyya and Smola (2006), sections 2-3 and 6.1.
"""
from __future__ import annotations

from typing import Any, Sequence

import cvxpy as cp
import numpy as np
from scipy import sparse, stats

from ..core import SolverResult, check_positive, warn_not_converged
from ._validate import _check_factors, _check_gamma, _check_Xy, _stack_factors

__all__ = ["gamma_chebyshev", "gamma_gaussian", "robust_svm", "robust_svm_w", "worst_case_points"]


def _check_kappa(kappa):
    k = np.asarray(kappa, dtype=float) if not isinstance(kappa, bool) else None
    if k is None or not np.all(np.isfinite(k)) or np.any((k <= 0) | (k >= 1)):
        raise ValueError(f"kappa must lie in the open interval (0, 1), got {kappa!r}")
    return k


def gamma_chebyshev(kappa: float | np.ndarray) -> float | np.ndarray:
    r"""Radius of the robust (Chebyshev) constraint, shivaswamy2006 eq. (11).

    .. math:: \gamma = \sqrt{\kappa / (1 - \kappa)}

    Any distribution with the given mean and covariance puts mass at least
    ``kappa`` on the correct side when (10b) holds with this radius (Theorem 1).

    Parameters
    ----------
    kappa : float or array_like
        Confidence level(s) in (0, 1).

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> gamma_chebyshev(0.5)
    1.0
    """
    k = _check_kappa(kappa)
    g = np.sqrt(k / (1.0 - k))
    return float(g) if g.ndim == 0 else g


def gamma_gaussian(kappa: float | np.ndarray) -> float | np.ndarray:
    r"""Radius for normally distributed patterns, shivaswamy2006 eq. (12).

    .. math:: \gamma = \Phi^{-1}(\kappa)

    For ``kappa < 0.5`` the radius is negative and (10b) becomes a concave
    constraint (a non-convex problem, the setting of Bi and Zhang 2004): refused.

    Parameters
    ----------
    kappa : float or array_like
        Confidence level(s) in [0.5, 1).

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> round(gamma_gaussian(0.975), 3)
    1.96
    """
    k = _check_kappa(kappa)
    if np.any(k < 0.5):
        raise ValueError("kappa < 0.5 gives a negative Gaussian radius Phi^{-1}(kappa): (10b) is then "
                         "non-convex (shivaswamy2006 section 3.1); use kappa >= 0.5")
    g = stats.norm.ppf(k)
    return float(g) if g.ndim == 0 else g


def _solve(prob, name, tol, max_iter, verbose):
    opts = dict(max_iter=int(max_iter), verbose=bool(verbose))
    if tol is not None:
        opts.update(tol_gap_abs=tol, tol_gap_rel=tol, tol_feas=tol)
    try:
        prob.solve(solver="CLARABEL", **opts)
    except cp.error.SolverError as exc:  # pragma: no cover - solver failure
        raise RuntimeError(f"{name}: Clarabel failed ({exc}); increase max_iter or loosen tol") from exc
    status = prob.status
    nit = prob.solver_stats.num_iters if prob.solver_stats is not None and prob.solver_stats.num_iters else 0
    if status in (cp.INFEASIBLE, cp.UNBOUNDED, cp.INFEASIBLE_INACCURATE, cp.UNBOUNDED_INACCURATE):
        raise ValueError(f"{name}: the problem is {status}; check W / the data")
    ok = status == cp.OPTIMAL
    solve_time = float(prob.solver_stats.solve_time or np.nan) if prob.solver_stats is not None else np.nan
    if not ok:
        warn_not_converged(name, "max_iter (or loosen tol)", f"Clarabel status {status!r}")
    return ok, status, nit, solve_time


def _build(X, y, factors, g):
    n, d = X.shape
    w = cp.Variable(d)
    b = cp.Variable()
    xi = cp.Variable(n, nonneg=True)
    rows = [i for i in range(n) if factors[i].shape[1] > 0 and g[i] > 0]
    margin = cp.multiply(y, X @ w + b) - 1 + xi
    cons = []
    if rows:
        # rows passing the very same factor object share one cone (e.g. a spherical covariance)
        first, owner = {}, []
        for i in rows:
            owner.append(first.setdefault(id(factors[i]), len(first)))
        reps = [next(i for i, o in zip(rows, owner) if o == k) for k in range(len(first))]
        A, r = _stack_factors(factors, reps)
        t = cp.Variable(len(reps))
        P = sparse.csr_matrix((g[rows], (rows, owner)), shape=(n, len(reps)))
        cons.append(cp.SOC(t, cp.reshape(A @ w, (r, len(reps)), order="F"), axis=0))
        main = margin - P @ t >= 0
    else:
        main = margin >= 0
    cons.insert(0, main)
    return w, b, xi, cons, rows


def _result(w, b, xi, cons, objective, ok, status, nit, solve_time, **extra):
    # a solver that returns no multipliers (an inaccurate status) leaves NaN, one per pattern
    lam = (np.asarray(cons[0].dual_value, dtype=float) if cons[0].dual_value is not None
           else np.full(xi.shape[0], np.nan))
    wv = np.asarray(w.value, dtype=float)
    bv = float(b.value)
    return SolverResult(
        x=np.r_[wv, bv], w=wv, b=bv, xi=np.maximum(np.asarray(xi.value, dtype=float), 0.0), dual=lam,
        objective=objective, success=ok, status=0 if ok else 1, solver_status=status, nit=nit,
        message=f"Clarabel: {status}", solve_time=solve_time, **extra)


def robust_svm(X: np.ndarray, y: np.ndarray, Sigmas: np.ndarray | None = None, gamma: float | np.ndarray = 0.0,
               C: float = 1.0, *, factors: Sequence[Any] | None = None, tol: float = 1e-8,
               max_iter: int = 200, verbose: bool = False) -> SolverResult:
    r"""Robust soft-margin classifier under second-order-moment uncertainty (C-form), shivaswamy2006 eq. (10).

    .. math::

        \min_{w, b, \xi}\ \tfrac12 \|w\|^2 + C \sum_i \xi_i \quad\text{s.t.}\quad
        y_i(\langle w, \bar x_i\rangle + b) \ge 1 - \xi_i + \gamma_i \|\Sigma_i^{1/2} w\|,\ \ \xi_i \ge 0.

    Each row's ellipsoid :math:`\mathcal E(\bar x_i, \Sigma_i, \gamma_i)` must lie on the correct side
    of the margin (shivaswamy2006 eq. 17, Lemma 2). With :math:`\Sigma_i = L_i L_i^\top` only the factor enters:
    the cone is :math:`\|L_i^\top w\| \le t_i`, so a low-rank :math:`\Sigma_i` (e.g. the padded
    covariance of (44), nonzero on missing coordinates only) costs :math:`\mathrm{rank}\,\Sigma_i`
    cone entries, not :math:`d`. Solved with cvxpy/Clarabel.

    Parameters
    ----------
    X : ndarray (n, d)
        Means :math:`\bar x_i`.
    y : ndarray (n,)
        Labels in {-1, +1}.
    Sigmas : None, ndarray (n, d, d), or sequence of (d, d) arrays / None
        Covariances (symmetric PSD); None (or a None entry) for exact points.
    gamma : float or ndarray (n,)
        Radii :math:`\gamma_i \ge 0` (e.g. :func:`gamma_chebyshev`).
    C : float
        Slack penalty (> 0).
    factors : sequence of (d, r_i) arrays / None, optional
        :math:`L_i` with :math:`\Sigma_i = L_i L_i^\top`, instead of ``Sigmas``.
    tol, max_iter, verbose
        Clarabel tolerances, iteration limit and log.

    Returns
    -------
    SolverResult
        ``w``, ``b``, ``xi``, ``objective`` (:math:`\tfrac12\|w\|^2 + C\sum\xi`), ``dual``
        (multipliers :math:`\lambda_i \in [0, C]` of (10b)), ``solver_status``, ``success``.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0, 0.0], [2.0, 1.0], [-1.0, 0.0], [-2.0, -1.0]])
    >>> y = np.array([1.0, 1.0, -1.0, -1.0])
    >>> res = robust_svm(X, y, [0.1 * np.eye(2), None, None, None], gamma=1.0, C=10.0)
    >>> bool(res.success), bool(y[0] * (X[0] @ res.w + res.b) >= 1.0)
    (True, True)
    """
    X, y = _check_Xy(X, y)
    n, d = X.shape
    C = check_positive(C, "C")
    g = _check_gamma(gamma, n)
    factors = _check_factors(Sigmas, factors, n, d)
    w, b, xi, cons, rows = _build(X, y, factors, g)
    prob = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(w) + C * cp.sum(xi)), cons)
    ok, status, nit, st = _solve(prob, "robust_svm", tol, max_iter, verbose)
    wv = np.asarray(w.value, dtype=float)
    obj = 0.5 * float(wv @ wv) + C * float(np.sum(np.maximum(xi.value, 0)))
    return _result(w, b, xi, cons, obj, ok, status, nit, st, C=C, form="C")


def robust_svm_w(X: np.ndarray, y: np.ndarray, Sigmas: np.ndarray | None = None, gamma: float = 0.0,
                 W: float = 1.0, *, factors: np.ndarray | None = None, tol: float = 1e-8, max_iter: int = 200,
                 verbose: bool = False) -> SolverResult:
    r"""Robust classifier in the W-form, shivaswamy2006 eqs. (3) and (44).

    .. math::

        \min_{w, b, \xi}\ \sum_i \xi_i \quad\text{s.t.}\quad
        y_i(\langle w, \bar x_i\rangle + b) \ge 1 - \xi_i + \gamma_i \|\Sigma_i^{1/2} w\|,\ \
        \xi_i \ge 0,\ \ \|w\| \le W.

    With :math:`\Sigma_i = 0` for complete rows and the padded conditional covariance for rows with
    missing entries this is (44). For :math:`W = \|w^\star_C\|` (the C-form optimum) both forms
    share the optimum.

    Parameters
    ----------
    X, y, Sigmas, gamma, factors, tol, max_iter, verbose
        As in :func:`robust_svm`.
    W : float
        Bound on :math:`\|w\|` (> 0).

    Returns
    -------
    SolverResult
        ``w``, ``b``, ``xi``, ``objective`` (:math:`\sum\xi`), ``dual`` (:math:`\lambda_i\in[0,1]`),
        ``delta`` (multiplier of :math:`\|w\|\le W`, eq. 47), ``solver_status``.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0, 0.0], [2.0, 1.0], [-1.0, 0.0], [-2.0, -1.0]])
    >>> y = np.array([1.0, 1.0, -1.0, -1.0])
    >>> res = robust_svm_w(X, y, None, gamma=0.0, W=2.0)
    >>> bool(np.linalg.norm(res.w) <= 2.0 + 1e-6)
    True
    """
    X, y = _check_Xy(X, y)
    n, d = X.shape
    W = check_positive(W, "W")
    g = _check_gamma(gamma, n)
    factors = _check_factors(Sigmas, factors, n, d)
    w, b, xi, cons, rows = _build(X, y, factors, g)
    ball = cp.norm(w, 2) <= W
    cons.append(ball)
    prob = cp.Problem(cp.Minimize(cp.sum(xi)), cons)
    ok, status, nit, st = _solve(prob, "robust_svm_w", tol, max_iter, verbose)
    obj = float(np.sum(np.maximum(xi.value, 0)))
    delta = float(ball.dual_value) if ball.dual_value is not None else np.nan
    return _result(w, b, xi, cons, obj, ok, status, nit, st, W=W, delta=delta, form="W")


def worst_case_points(w: np.ndarray, X: np.ndarray, y: np.ndarray, Sigmas: np.ndarray | None = None,
                      gamma: float = 0.0, *, factors: np.ndarray | None = None) -> np.ndarray:
    r"""The point of each ellipsoid closest to the wrong side, shivaswamy2006 Lemma 2.

    .. math:: x_i^{\mathrm{wc}} = \bar x_i - y_i\,\gamma_i\,\frac{\Sigma_i w}{\sqrt{w^\top \Sigma_i w}},
       \qquad y_i\langle w, x_i^{\mathrm{wc}}\rangle = y_i\langle w, \bar x_i\rangle - \gamma_i\|\Sigma_i^{1/2}w\|.

    Parameters
    ----------
    w : ndarray (d,)
    X : ndarray (n, d)
    y : ndarray (n,)
    Sigmas, gamma, factors
        As in :func:`robust_svm`.

    Returns
    -------
    ndarray (n, d)

    Examples
    --------
    >>> import numpy as np
    >>> worst_case_points(np.array([1.0, 0.0]), np.array([[2.0, 0.0]]), np.array([1.0]), [np.eye(2)], 1.0)
    array([[1., 0.]])
    """
    X, y = _check_Xy(X, y, binary=False)
    n, d = X.shape
    w = np.asarray(w, dtype=float)
    g = _check_gamma(gamma, n)
    factors = _check_factors(Sigmas, factors, n, d)
    out = X.copy()
    for i, L in enumerate(factors):
        if L.shape[1] == 0:
            continue
        v = L.T @ w
        s = np.linalg.norm(v)
        if s > 0:
            out[i] -= y[i] * g[i] * (L @ v) / s
    return out
