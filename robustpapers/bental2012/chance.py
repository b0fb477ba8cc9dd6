"""FSS on the chance-constrained SVM of bhadra2010 in the convex case (bental2012 §5.4): the SOCP (22)
and the saddle-point form (23)."""
from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from ..core import (
    SolverResult, Trace, check_binary_labels, check_finite_array, check_nonnegative, check_positive, check_psd,
    project_svm_set, svm_dual, warn_not_converged,
)
from ..core.fss import SaddlePointProblem, fss_saddle
from .ussvm import svm_set_linear_max

__all__ = ["chance_objective", "chance_socp", "chance_fss", "project_orthant_ellipsoid"]


def _check(K_bar, beta, y, C, kappa):
    y = check_binary_labels(y)
    n = y.size
    C = check_positive(C, "C")
    kappa = check_nonnegative(kappa, "kappa")
    K_bar = check_psd(check_finite_array(K_bar, "K_bar", ndim=2), "K_bar")
    beta = check_finite_array(beta, "beta", ndim=2)
    if K_bar.shape != (n, n) or beta.shape != (n, n):
        raise ValueError(f"K_bar and beta must have shape ({n}, {n}), got {K_bar.shape} and {beta.shape}")
    if np.any(beta < 0):
        raise ValueError("beta must have nonnegative entries (beta_ij = beta'_ij^2)")
    lam, V = np.linalg.eigh((beta + beta.T) / 2)
    if lam[0] <= 1e-12 * max(1.0, lam[-1]):
        raise ValueError(f"beta must be positive definite for (23), smallest eigenvalue {lam[0]:.3g}")
    return K_bar, beta, y, C, kappa, lam, V


def chance_objective(alpha: np.ndarray, K_bar: np.ndarray, beta: Any, y: np.ndarray, kappa: float) -> Any:
    r""":math:`G(\alpha) = e^\top\alpha - \tfrac12\alpha^\top Y\bar KY\alpha - \tfrac\kappa2\sqrt{\sum_{ij}\beta_{ij}\alpha_i^2\alpha_j^2}`
    (minus the objective of bental2012 eq. (7)/(22))."""
    alpha = np.asarray(alpha, dtype=float)
    u, v = alpha * y, alpha**2
    return float(alpha.sum() - 0.5 * u @ K_bar @ u - 0.5 * kappa * math.sqrt(max(float(v @ beta @ v), 0.0)))


def chance_socp(K_bar: np.ndarray, beta: Any, y: np.ndarray, C: float, kappa: float, solver: str = "CLARABEL"
) -> Any:
    r"""The SOCP (22) of bental2012 §5.4 (bhadra2010 Theorem 6) with cvxpy.

    .. math::

        \min_{\alpha\in S_n, v}\ \tfrac12\alpha^\top Y\bar KY\alpha + \tfrac\kappa2\|\beta^{1/2}v\|_2 - e^\top\alpha
        \quad\text{s.t.}\quad \alpha_i^2 \le v_i

    Returns a SolverResult with ``alpha`` and ``objective`` = :math:`G(\alpha)` (see :func:`chance_objective`).

    Examples
    --------
    >>> import numpy as np
    >>> res = chance_socp(np.eye(2), np.eye(2), np.array([1.0, -1.0]), C=1.0, kappa=0.5)
    >>> res.success
    True
    """
    import cvxpy as cp

    K_bar, beta, y, C, kappa, lam, V = _check(K_bar, beta, y, C, kappa)
    n = y.size
    Fb = V * np.sqrt(lam)  # beta = Fb Fb^T
    a, v = cp.Variable(n), cp.Variable(n)
    obj = 0.5 * cp.quad_form(cp.multiply(y, a), cp.psd_wrap(K_bar)) + 0.5 * kappa * cp.norm(Fb.T @ v) - cp.sum(a)
    prob = cp.Problem(cp.Minimize(obj), [a >= 0, a <= C, y @ a == 0, cp.square(a) <= v])
    prob.solve(solver=solver)
    if a.value is None:
        raise RuntimeError(f"chance_socp: {solver} returned status {prob.status!r} and no solution")
    al = np.clip(a.value, 0.0, C)
    ok = prob.status == "optimal"
    msg = f"{solver}: {prob.status}"
    if not ok:
        msg = warn_not_converged("chance_socp", "the solver's accuracy (solver_opts)", msg)
    return SolverResult(x=al, alpha=al, objective=chance_objective(al, K_bar, beta, y, kappa), success=ok, nit=0,
                        message=msg, trace=Trace(), solver_status=prob.status)


def project_orthant_ellipsoid(v: np.ndarray, lam: float, V: np.ndarray, r: Any, max_iter: int = 500,
                              tol: float = 1e-12) -> Any:
    r"""Euclidean projection onto :math:`\{\zeta \ge 0,\ \zeta^\top\beta^{-1}\zeta \le r^2\}`
    (:math:`\beta = V\mathrm{diag}(\lambda)V^\top`) by Dykstra's alternating projections, the ellipsoid
    step exact (one-dimensional root in the multiplier); the result is finally scaled into the ellipsoid."""

    def p_ell(w):
        z = V.T @ w
        if np.sum(z**2 / lam) <= r**2:
            return w
        lo, hi = 0.0, 1.0
        f = lambda mu: np.sum(lam * z**2 / (lam + mu) ** 2) - r**2  # noqa: E731
        while f(hi) > 0:
            hi *= 4
        for _ in range(100):
            mid = 0.5 * (lo + hi)
            lo, hi = (mid, hi) if f(mid) > 0 else (lo, mid)
            if hi - lo <= 1e-14 * hi:
                break
        return V @ (lam / (lam + hi) * z)

    x = np.maximum(v, 0.0)
    p = np.zeros_like(v)
    q = np.zeros_like(v)
    xk = v.copy()
    for _ in range(max_iter):
        yk = p_ell(xk + p)
        p = xk + p - yk
        x_new = np.maximum(yk + q, 0.0)
        q = yk + q - x_new
        done = np.linalg.norm(x_new - xk) <= tol * max(1.0, float(np.linalg.norm(x_new)))
        xk = x_new
        if done:
            break
    x = xk
    s = math.sqrt(max(float(np.sum((V.T @ x) ** 2 / lam)), 0.0))
    return x * min(1.0, r / s) if s > 0 else x


def chance_fss(K_bar: np.ndarray, beta: Any, y: np.ndarray, C: float, kappa: float, *, tol: float = 1e-4,
               max_iter: int = 20_000, schedule: str = "adaptive", check_every: int = 20,
               callback: Callable[..., Any] | None = None, verbose: bool = False) -> Any:
    r"""FSS (bental2012 §5.2) on the saddle-point form (23) of the chance-constrained SVM (22).

    .. math::

        \min_{\zeta\ge0,\ \zeta^\top\beta^{-1}\zeta\le\kappa^2/4}\ \max_{\alpha\in S_n}\
        -\tfrac12\alpha^\top Y\bar KY\alpha + e^\top\alpha - \sum_i\zeta_i\alpha_i^2

    (bental2012 Theorem 5). Needs :math:`\beta` elementwise nonnegative and positive definite.
    :math:`G_x = -\alpha\circ\alpha`, :math:`G_y = Y\bar KY\alpha + 2\zeta\circ\alpha - e`,
    :math:`L_{xy} = 2C`, :math:`L_{yy} = \lambda_{\max}(\bar K) + \kappa\sqrt{\max_i\beta_{ii}}`,
    :math:`\theta = \lambda_{\min}(\bar K)`, :math:`\Omega_X = \kappa^2\lambda_{\max}(\beta)/8`, :math:`\Omega_Y = 1/2`.
    The certificate is the SVM-duality bound of :func:`ussvm_saddle_problem` with kernel
    :math:`\bar K + 2\,\mathrm{diag}(\zeta)` minus :math:`G(\alpha)`; ``tol`` is relative to :math:`|G|`.

    Examples
    --------
    >>> import numpy as np
    >>> res = chance_fss(np.eye(4) + 1.0, np.eye(4) + 0.5, np.array([1.0, -1, 1, -1]), C=1.0, kappa=0.5, tol=1e-6)
    >>> res.success
    True
    """
    K_bar, beta, y, C, kappa, lam, V = _check(K_bar, beta, y, C, kappa)
    n = y.size
    ev = np.linalg.eigvalsh(K_bar)
    theta = max(float(ev[0]), 0.0)
    r = kappa / 2
    Q = K_bar * np.outer(y, y)

    def operator(z, a):
        return -(a * a), Q @ a + 2 * z * a - 1.0

    def lower(a):
        return chance_objective(a, K_bar, beta, y, kappa)

    def gap(z, a):
        Kx = K_bar + 2 * np.diag(z)

        def upper(ah):
            uh = y * ah
            Ku = Kx @ uh
            return 0.5 * float(uh @ Ku) + svm_set_linear_max(1.0 - y * Ku, y, C)

        U = min(upper(a), upper(svm_dual(Kx, y, C, tol=1e-6).alpha))
        return max(U - lower(a), 0.0)

    prob = SaddlePointProblem(
        operator=operator, project_x=lambda w: project_orthant_ellipsoid(w, lam, V, r),
        project_y=lambda w: project_svm_set(w, y, C), x_omega=np.zeros(n),
        Omega_X=max(kappa**2 * lam[-1] / 8, 1e-300), Omega_Y=0.5, L_xy=2 * C if kappa > 0 else 0.0,
        L_yy=float(ev[-1]) + kappa * math.sqrt(float(np.max(np.diag(beta)))), theta=theta, gap=gap, lower=lower)
    R0 = 2 * C * math.sqrt(n)
    if theta > 0:
        R0 = min(R0, 2 * math.sqrt(2 * gap(np.zeros(n), np.zeros(n)) / theta))
    res = fss_saddle(prob, np.zeros(n), R0, tol=tol, relative=True, max_iter=max_iter, schedule=schedule,
                     check_every=check_every, callback=callback, verbose=verbose)
    alpha = np.clip(res.y, 0.0, C)
    return SolverResult(x=alpha, alpha=alpha, zeta=res.x, objective=lower(alpha), success=res.success,
                        nit=res.nit, message=res.message, status=res.status, trace=res.trace, gap=res.gap,
                        stages=res.stages, theta=theta)
