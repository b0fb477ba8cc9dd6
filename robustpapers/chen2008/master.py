"""The restricted master problem (chen2008 eq. (7)) by a primal-dual interior-point method.

Why an interior-point method on the QCLP form (7) rather than cvxpy or the MKL form (27)?
cvxpy rebuilds and re-canonicalises a problem with ``p`` dense ``n x n`` quadratic forms at
every exchange iteration (hundreds of ms at n = 166, seconds at n = 1000); the MKL form (27)
is a min over the simplex of a function whose every evaluation is a full SVM solve, and
first-order MKL solvers (SimpleMKL, SILP) need many such solves to reach 1e-8 accuracy.
The QCLP has only n + 1 variables: a Newton step costs three passes over the ``p`` matrices
``Y K_i Y`` (one BLAS call each) and one Cholesky factorisation of the positive definite
``(n+1) x (n+1)`` Newton matrix in (alpha, t), the equality y'alpha = 0 entering through its
1 x 1 Schur complement; about 10 steps reach a relative duality gap of 1e-10, and the
multipliers of the quadratic constraints are exactly the MKL weights theta of eq. (27)
(Theorem 5.1).
"""
from __future__ import annotations

from typing import Any

import numpy as np
from scipy.linalg import get_lapack_funcs, lu_factor, lu_solve

__all__ = ["solve_master"]

_potrf, _potrs = get_lapack_funcs(("potrf", "potrs"), dtype=np.float64)


def _central_alpha(y, C):
    """A strictly interior point of the SVM set {0 <= a <= C, y'a = 0}."""
    npos, nneg = np.sum(y > 0), np.sum(y < 0)
    a = np.where(y > 0, nneg, npos).astype(float)
    return 0.5 * C * a / max(npos, nneg)


def solve_master(Q: np.ndarray, c: np.ndarray, y: np.ndarray, C: float, alpha0: np.ndarray | None = None,
                 tol: float = 1e-10, max_iter: int = 200) -> dict[str, Any]:
    r"""Solve the restricted master problem (chen2008 eq. (7)).

    .. math::

        \max_{\alpha, t}\; t \quad\text{s.t.}\quad y^\top\alpha = 0,\; 0 \le \alpha \le C,\;
        t \le S_i(\alpha) = e^\top\alpha - \tfrac12 \alpha^\top Q_i \alpha + c_i,\; i = 1..p,

    with :math:`Q_i = Y K_i Y` and :math:`c_i = \rho \|K_i - K_0\|_F^2`, by an infeasible
    primal-dual interior-point method with Mehrotra's predictor-corrector choice of the
    centering parameter (slacks :math:`s_i` for the quadratic constraints, so that only
    linear ratio tests are needed). At convergence the multipliers :math:`\theta_i` of the
    quadratic constraints sum to one and are the MKL weights of eq. (27) (Theorem 5.1).

    Parameters
    ----------
    Q : array (p, n, n), PSD matrices :math:`Y K_i Y`.
    c : array (p,), constants :math:`\rho\mu_i` (eq. (26)).
    y : array (n,), labels in {-1, +1}.
    C : float > 0.
    alpha0 : array (n,), optional
        Warm start (the previous master solution); pulled 1 % towards the centre of the box.
    tol : float
        Relative accuracy: stop when the complementarity gap and the residuals are below
        ``tol * max(1, |t|)``.
    max_iter : int
        Maximal number of interior-point iterations.

    Returns
    -------
    dict with ``alpha``, ``t``, ``upper`` (= t + complementarity gap, an upper bound on the
    optimum of (7) up to the residuals), ``theta``, ``slack`` (:math:`S_i(\alpha) - t`),
    ``nit``, ``converged``, ``gap``, ``lu_fallbacks``.
    """
    p, n, _ = Q.shape
    Q = np.ascontiguousarray(Q, dtype=float)
    Q2 = Q.reshape(p * n, n)     # Q_i alpha for all i: one matrix-vector product
    Qf = Q.reshape(p, n * n)     # sum_i lam_i Q_i: one vector-matrix product
    ac = _central_alpha(y, C)
    alpha = ac.copy() if alpha0 is None else 0.99 * np.clip(alpha0, 0.0, C) + 0.01 * ac
    alpha = np.clip(alpha, 1e-3 * C, (1 - 1e-3) * C)
    e = np.ones(n)
    m = p + 2 * n
    # One buffer for the complementarity pairs, multipliers first: X = (lam, z | s, g), where
    # s are the slacks of the p quadratic constraints and g = (alpha, C - alpha) >= 0 those of
    # the 2n box constraints with multipliers z = (lam_lo, lam_hi); dX is the Newton direction
    # in the same layout. Stacking lets one NumPy call act on all pairs (products, ratio
    # tests, updates) with the same floating-point operations as separate arrays would.
    X = np.empty(2 * m)
    dX = np.empty(2 * m)
    lam, z, s, g = X[:p], X[p:m], X[m:m + p], X[m + p:]
    dlam, dz, ds, dg = dX[:p], dX[p:m], dX[m:m + p], dX[m + p:]
    Qa = (Q2 @ alpha).reshape(p, n)
    S = alpha.sum() - 0.5 * (Qa @ alpha) + c
    scale = max(1.0, float(np.max(np.abs(S))))
    delta = max(1.0, 1e-2 * scale)
    t = float(S.min()) - delta
    s[:] = S - t
    lam[:] = 1.0 / p
    mu0 = float(lam @ s) / p
    z[:n] = mu0 / alpha
    z[n:] = mu0 / (C - alpha)
    nu = 0.0
    yext = np.zeros(n + 1)
    yext[:n] = y
    H = np.empty((n + 1, n + 1), order="F")  # LAPACK's layout: potrf factors it in place, no copy
    diag = np.arange(n)
    rhs = np.empty(n + 1)
    R = np.empty(m)      # complementarity residuals (lam*s, z*g) - sigma*mu (+ Mehrotra's term)
    RV = np.empty(m)     # R * (1/s, 1/g)
    converged = False
    lu_fallbacks = 0  # Newton systems solved by LU of the bordered system instead of Cholesky
    it = 0
    for it in range(1, max_iter + 1):
        Qa = (Q2 @ alpha).reshape(p, n)
        S = alpha.sum() - 0.5 * (Qa @ alpha) + c
        a = Qa - e
        g[:n] = alpha
        np.subtract(C, alpha, out=g[n:])
        r_da = lam @ a - z[:n] + z[n:] + nu * y
        r_dt = lam.sum() - 1.0
        r_p = t - S + s
        r_eq = float(y @ alpha)
        gap = float(lam @ s + z @ g)
        mu = gap / m
        if gap <= tol * max(1.0, abs(t)):
            feas = 1e-8 * max(1.0, abs(t))
            if (np.max(np.abs(r_p), initial=0.0) <= feas and abs(r_dt) <= 1e-8
                    and np.max(np.abs(r_da)) <= feas and abs(r_eq) <= 1e-8 * max(1.0, C)):
                converged = True
                break
        if gap <= 1e-15 * max(1.0, abs(t)):  # numerical floor
            converged = bool(np.max(np.abs(r_p), initial=0.0) <= 1e-6 * max(1.0, abs(t)) and abs(r_dt) <= 1e-6)
            break
        if np.min(g) <= 0.0:
            # alpha has reached a box bound in floating point (C - alpha rounded to 0): the
            # Newton system is singular there, so stop as a failed run, without 1/0 warnings.
            break
        Vinv = 1.0 / X[m:]           # (1/s, 1/g)
        d = lam * Vinv[:p]
        zg = z * Vinv[p:]
        ad = a.T * d

        def newton_matrix():
            # the (alpha, t) block: sum_i lam_i Q_i + [a 1]' diag(lam/s) [a 1] + box
            H[:n, :n] = (lam @ Qf).reshape(n, n)
            H[:n, :n] += ad @ a
            H[diag, diag] += zg[:n] + zg[n:]
            H[:n, n] = H[n, :n] = ad.sum(axis=1)
            H[n, n] = d.sum()
            return H

        # It is positive definite (lam/s > 0, box terms > 0): Cholesky, and the equality
        # y'alpha = 0 by its 1 x 1 Schur complement (exactly the bordered KKT solve).
        lu = None
        fac, info = _potrf(newton_matrix(), lower=False, overwrite_a=True, clean=False)
        if info == 0:
            Hy = _potrs(fac, yext, lower=False)[0]
            yHy = float(yext @ Hy)
        if info != 0 or not yHy > 0:  # lost definiteness to rounding: LU of the bordered system
            KKT = np.zeros((n + 2, n + 2))
            KKT[: n + 1, : n + 1] = newton_matrix()  # H was overwritten by the factorisation
            KKT[:n, n + 1] = KKT[n + 1, :n] = y
            try:
                lu = lu_factor(KKT, check_finite=False)
            except (ValueError, np.linalg.LinAlgError):
                break
            if not np.all(np.isfinite(lu[0])) or np.min(np.abs(np.diag(lu[0]))) == 0.0:
                break
            lu_fallbacks += 1
        UV = X[:m] * X[m:]           # (lam*s, z*g)
        dr_p = d * r_p
        neg_r_da = -r_da
        neg_lam = -lam
        neg_ginv = -Vinv[p:]

        def direction(sigma_mu, corr=None):
            """Newton direction into dX; corr is Mehrotra's term (dlam*ds, dz*dg) or None."""
            np.subtract(UV, sigma_mu, out=R)
            if corr is not None:
                np.add(R, corr, out=R)
            np.multiply(R, Vinv, out=RV)
            h = dr_p - RV[:p]
            np.subtract(neg_r_da, h @ a, out=rhs[:n])
            rhs[:n] -= RV[p:p + n]
            rhs[:n] += RV[p + n:]
            rhs[n] = -r_dt - h.sum()
            if lu is None:
                x0 = _potrs(fac, rhs, lower=False)[0]
                dnu = (float(yext @ x0) + r_eq) / yHy
                sol = x0 - dnu * Hy
            else:
                sol = lu_solve(lu, np.append(rhs, -r_eq), check_finite=False)
                dnu = sol[n + 1]
            da, dt = sol[:n], float(sol[n])
            np.multiply(d, a @ da + dt, out=dlam)
            np.add(dlam, h, out=dlam)
            np.multiply(s, dlam, out=ds)
            np.add(ds, R[:p], out=ds)
            np.divide(ds, neg_lam, out=ds)
            dg[:n] = da
            np.negative(da, out=dg[n:])
            np.multiply(z, dg, out=dz)
            np.add(dz, R[p:], out=dz)
            np.multiply(dz, neg_ginv, out=dz)
            return da, dt, dnu

        def max_step(frac):
            neg = dX < 0
            if not neg.any():
                return 1.0
            return min(1.0, frac * float(np.min(X[neg] / -dX[neg])))

        # predictor (affine scaling) to choose the centering parameter
        da, dt, dnu = direction(0.0)
        st = max_step(1.0)
        Xa = X + st * dX
        gap_aff = float(Xa[:p] @ Xa[m:m + p] + Xa[p:m] @ Xa[m + p:])
        sigma = min(1.0, (gap_aff / gap) ** 3)
        # corrector with Mehrotra's second-order term
        da, dt, dnu = direction(sigma * mu, dX[:m] * dX[m:])
        st = max_step(0.99)
        alpha = alpha + st * da
        t = t + st * dt
        nu = nu + st * dnu
        X[:m + p] += st * dX[:m + p]   # lam, z, s (g follows alpha)
    Qa = (Q2 @ alpha).reshape(p, n)
    S = alpha.sum() - 0.5 * (Qa @ alpha) + c
    t_feas = float(S.min())  # t is feasible for (7) at alpha (up to y'alpha = 0)
    gap = float(lam @ s + z @ np.concatenate((alpha, C - alpha)))
    return dict(alpha=alpha, t=t_feas, upper=float(max(t, t_feas) + max(gap, 0.0)),
                theta=lam / max(lam.sum(), 1e-300), slack=S - t_feas, nit=it,
                converged=converged, gap=gap, lu_fallbacks=lu_fallbacks)
