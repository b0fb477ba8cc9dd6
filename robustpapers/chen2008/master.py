"""The restricted master problem (chen2008 eq. (7)) by a primal-dual interior-point method.

Why an interior-point method on the QCLP form (7) rather than cvxpy or the MKL form (27)?
cvxpy rebuilds and re-canonicalises a problem with ``p`` dense ``n x n`` quadratic forms at
every exchange iteration (hundreds of ms at n = 166, seconds at n = 1000); the MKL form (27)
is a min over the simplex of a function whose every evaluation is a full SVM solve, and
first-order MKL solvers (SimpleMKL, SILP) need many such solves to reach 1e-8 accuracy.
The QCLP has only n + 1 variables, so a dense Newton step costs one ``(n+2) x (n+2)``
solve plus ``p n^2`` flops; 20-40 steps reach a duality gap of 1e-10, and the multipliers of
the quadratic constraints are exactly the MKL weights theta of eq. (27) (Theorem 5.1).
"""
from __future__ import annotations

import numpy as np
from scipy.linalg import lu_factor, lu_solve

__all__ = ["solve_master"]


def _central_alpha(y, C):
    """A strictly interior point of the SVM set {0 <= a <= C, y'a = 0}."""
    npos, nneg = np.sum(y > 0), np.sum(y < 0)
    a = np.where(y > 0, nneg, npos).astype(float)
    return 0.5 * C * a / max(npos, nneg)


def solve_master(Q, c, y, C, alpha0=None, tol=1e-10, max_iter=200):
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
    ``nit``, ``converged``, ``gap``.
    """
    p, n, _ = Q.shape
    ac = _central_alpha(y, C)
    alpha = ac.copy() if alpha0 is None else 0.99 * np.clip(alpha0, 0.0, C) + 0.01 * ac
    alpha = np.clip(alpha, 1e-3 * C, (1 - 1e-3) * C)
    e = np.ones(n)
    m = p + 2 * n
    Qa = Q @ alpha
    S = alpha.sum() - 0.5 * np.einsum("pn,n->p", Qa, alpha) + c
    scale = max(1.0, float(np.max(np.abs(S))))
    delta = max(1.0, 1e-2 * scale)
    t = float(S.min()) - delta
    s = S - t
    lam = np.full(p, 1.0 / p)
    mu0 = float(lam @ s) / p
    lam_lo = mu0 / alpha
    lam_hi = mu0 / (C - alpha)
    nu = 0.0
    KKT = np.zeros((n + 2, n + 2))
    KKT[:n, n + 1] = KKT[n + 1, :n] = y
    converged = False
    it = 0
    for it in range(1, max_iter + 1):
        Qa = Q @ alpha
        S = alpha.sum() - 0.5 * np.einsum("pn,n->p", Qa, alpha) + c
        a = Qa - e
        r_da = a.T @ lam - lam_lo + lam_hi + nu * y
        r_dt = lam.sum() - 1.0
        r_p = t - S + s
        r_eq = float(y @ alpha)
        gap = float(lam @ s + lam_lo @ alpha + lam_hi @ (C - alpha))
        mu = gap / m
        sc = tol * max(1.0, abs(t))
        feas = 1e-8 * max(1.0, abs(t))
        resid_ok = (np.max(np.abs(r_p), initial=0.0) <= feas and abs(r_dt) <= 1e-8
                    and np.max(np.abs(r_da)) <= feas and abs(r_eq) <= 1e-8 * max(1.0, C))
        if gap <= sc and resid_ok:
            converged = True
            break
        if gap <= 1e-15 * max(1.0, abs(t)):  # numerical floor
            converged = bool(np.max(np.abs(r_p), initial=0.0) <= 1e-6 * max(1.0, abs(t)) and abs(r_dt) <= 1e-6)
            break
        d = lam / s
        H = KKT[: n + 1, : n + 1]
        H[:n, :n] = np.tensordot(lam, Q, axes=1) + (a.T * d) @ a
        H[np.arange(n), np.arange(n)] += lam_lo / alpha + lam_hi / (C - alpha)
        H[:n, n] = H[n, :n] = a.T @ d
        H[n, n] = d.sum()
        try:
            lu = lu_factor(KKT, check_finite=False)
        except (ValueError, np.linalg.LinAlgError):
            break

        def direction(sigma_mu, corr_q=0.0, corr_lo=0.0, corr_hi=0.0):
            r_c = lam * s - sigma_mu + corr_q
            r_lo = lam_lo * alpha - sigma_mu + corr_lo
            r_hi = lam_hi * (C - alpha) - sigma_mu + corr_hi
            h = d * r_p - r_c / s
            rhs = np.empty(n + 2)
            rhs[:n] = -r_da - a.T @ h - r_lo / alpha + r_hi / (C - alpha)
            rhs[n] = -r_dt - h.sum()
            rhs[n + 1] = -r_eq
            sol = lu_solve(lu, rhs, check_finite=False)
            da, dt, dnu = sol[:n], sol[n], sol[n + 1]
            dlam = d * (a @ da + dt) + h
            ds = (-r_c - s * dlam) / lam
            dlo = (-r_lo - lam_lo * da) / alpha
            dhi = (-r_hi + lam_hi * da) / (C - alpha)
            return da, dt, dnu, dlam, ds, dlo, dhi

        def max_step(da, dlam, ds, dlo, dhi, frac):
            st = 1.0
            for v, dv in ((s, ds), (lam, dlam), (lam_lo, dlo), (lam_hi, dhi), (alpha, da), (C - alpha, -da)):
                neg = dv < 0
                if np.any(neg):
                    st = min(st, frac * float(np.min(-v[neg] / dv[neg])))
            return st

        # predictor (affine scaling) to choose the centering parameter
        da, dt, dnu, dlam, ds, dlo, dhi = direction(0.0)
        st = max_step(da, dlam, ds, dlo, dhi, 1.0)
        gap_aff = float((lam + st * dlam) @ (s + st * ds) + (lam_lo + st * dlo) @ (alpha + st * da)
                        + (lam_hi + st * dhi) @ (C - alpha - st * da))
        sigma = min(1.0, (gap_aff / gap) ** 3)
        # corrector with Mehrotra's second-order term
        da, dt, dnu, dlam, ds, dlo, dhi = direction(sigma * mu, ds * dlam, da * dlo, -da * dhi)
        st = max_step(da, dlam, ds, dlo, dhi, 0.99)
        alpha = alpha + st * da
        t = t + st * dt
        nu = nu + st * dnu
        lam = lam + st * dlam
        s = s + st * ds
        lam_lo = lam_lo + st * dlo
        lam_hi = lam_hi + st * dhi
    Qa = Q @ alpha
    S = alpha.sum() - 0.5 * np.einsum("pn,n->p", Qa, alpha) + c
    t_feas = float(S.min())  # t is feasible for (7) at alpha (up to y'alpha = 0)
    gap = float(lam @ s + lam_lo @ alpha + lam_hi @ (C - alpha))
    return dict(alpha=alpha, t=t_feas, upper=float(max(t, t_feas) + max(gap, 0.0)),
                theta=lam / max(lam.sum(), 1e-300), slack=S - t_feas, nit=it,
                converged=converged, gap=gap)
