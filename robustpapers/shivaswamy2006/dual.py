"""The dual (47) of the W-form (44) and the quantities of its KKT conditions (48)-(49), shivaswamy2006 section 7.1."""
from __future__ import annotations

import cvxpy as cp
import numpy as np

from ..core import SolverResult, check_positive
from ._validate import _check_factors, _check_gamma, _check_Xy, _stack_factors
from .classification import _solve

__all__ = ["robust_svm_dual"]


def robust_svm_dual(X: np.ndarray, y: np.ndarray, Sigmas: np.ndarray | None = None, gamma: float = 0.0,
                    W: float = 1.0, *, factors: np.ndarray | None = None, tol: float = 1e-8,
                    max_iter: int = 200, verbose: bool = False, lambda_tol: float = 1e-6) -> SolverResult:
    r"""The dual (47) of the robust W-form classifier (44), shivaswamy2006 section 7.1 and Appendix A.

    .. math::

        \max_{\lambda,\delta,u}\ \sum_i \lambda_i - W\delta\quad\text{s.t.}\quad
        \sum_i\lambda_i y_i = 0,\ \
        \Big\|\sum_i \lambda_i y_i(\bar x_i + \gamma_i\Sigma_i^{1/2}u_i)\Big\| \le \delta,\ \
        \|u_i\|\le 1,\ 0\le\lambda_i\le 1,\ \delta\ge 0,

    (:math:`\beta_i = 1-\lambda_i` eliminated by (47d); rows with :math:`\Sigma_i = 0` or
    :math:`\gamma_i = 0` carry no :math:`u_i`: the complete patterns :math:`1..c` of (47c)). The
    products :math:`\lambda_i u_i` make (47c) bilinear as printed; with :math:`v_i = \lambda_i u_i`
    and :math:`\|v_i\|\le\lambda_i` (a perspective, exact for :math:`\lambda_i \ge 0`) it is the SOCP
    solved here, and :math:`u_i = v_i/\lambda_i` is recovered where :math:`\lambda_i > 0`. With
    :math:`\Sigma_i = L_iL_i^\top`, :math:`\Sigma_i^{1/2}u_i` is :math:`L_i u_i`, :math:`u_i\in\mathbb R^{r_i}`.

    From the solution, by (49), :math:`w = (W/\delta)\sum_i\lambda_i y_i(\bar x_i + \gamma_i L_i u_i)`
    (NaN when :math:`\delta = 0`: the bound :math:`\|w\|\le W` is then inactive and (49) does not
    determine :math:`w`), and the bias :math:`b` is the multiplier of (47b). By the KKT conditions (48) the chosen point
    :math:`\bar x_i + \gamma_i L_i u_i` of each ellipsoid with :math:`\lambda_i > 0` is its worst-case
    point (Lemma 2, :func:`worst_case_points`); ellipsoids with :math:`0<\lambda_i<1` touch the margin
    :math:`y(\langle w,x\rangle+b) = 1`; those with :math:`\lambda_i = 0` lie beyond it.

    Parameters
    ----------
    X, y, Sigmas, gamma, factors
        As in :func:`robust_svm_w`.
    W : float
        The bound :math:`\|w\|\le W` of (44).
    tol, max_iter, verbose
        Clarabel tolerances, iteration limit and log.
    lambda_tol : float
        :math:`u_i` is reported only where :math:`\lambda_i >` ``lambda_tol`` (undefined at 0).

    Returns
    -------
    SolverResult
        ``lam`` (:math:`\lambda`), ``delta``, ``u`` (list: :math:`u_i` or None), ``points``
        (:math:`\bar x_i + \gamma_i L_i u_i`, :math:`\bar x_i` where :math:`u_i` is None), ``w`` (49),
        ``b``, ``objective`` (47a), ``solver_status``, ``success``.

    Examples
    --------
    >>> import numpy as np
    >>> from robustpapers.shivaswamy2006 import robust_svm_w
    >>> X = np.array([[1.0, 0.2], [2.0, 1.0], [-1.0, 0.0], [-2.0, -1.0], [0.2, 0.1], [-0.1, 0.3]])
    >>> y = np.array([1.0, 1.0, -1.0, -1.0, -1.0, 1.0])
    >>> d = robust_svm_dual(X, y, [0.1 * np.eye(2)] * 6, gamma=1.0, W=1.0)
    >>> p = robust_svm_w(X, y, [0.1 * np.eye(2)] * 6, gamma=1.0, W=1.0)
    >>> bool(abs(d.objective - p.objective) < 1e-6 and np.allclose(d.w, p.w, atol=1e-3))
    True
    """
    X, y = _check_Xy(X, y)
    n, d = X.shape
    W = check_positive(W, "W")
    lambda_tol = check_positive(lambda_tol, "lambda_tol")
    g = _check_gamma(gamma, n)
    F = _check_factors(Sigmas, factors, n, d)
    rows = [i for i in range(n) if F[i].shape[1] > 0 and g[i] > 0]
    lam = cp.Variable(n)
    delta = cp.Variable(nonneg=True)
    s = X.T @ cp.multiply(lam, y)
    cons = [cp.sum(cp.multiply(lam, y)) == 0, lam >= 0, lam <= 1]
    V = None
    if rows:
        A, r = _stack_factors(F, rows)
        V = cp.Variable((r, len(rows)))
        scale = (g * y)[rows]
        s = s + A.T @ cp.vec(V @ np.diag(scale), order="F")
        cons.append(cp.SOC(lam[rows], V, axis=0))
        pad = np.array([[j >= F[i].shape[1] for i in rows] for j in range(r)], dtype=float)
        if pad.any():
            cons.append(cp.multiply(pad, V) == 0)
    cons.append(cp.SOC(delta, s))
    prob = cp.Problem(cp.Maximize(cp.sum(lam) - W * delta), cons)
    ok, status, nit, solve_time = _solve(prob, "robust_svm_dual", tol, max_iter, verbose)
    lv = np.clip(np.asarray(lam.value, dtype=float), 0.0, 1.0)
    dv = float(delta.value)
    u = [None] * n
    points = X.copy()
    if rows:
        Vv = np.asarray(V.value, dtype=float)
        for k, i in enumerate(rows):
            if lv[i] > lambda_tol:
                u[i] = Vv[: F[i].shape[1], k] / lv[i]
                points[i] = X[i] + g[i] * F[i] @ u[i]
    sv = np.asarray(s.value, dtype=float)
    # delta = 0 means ||w|| <= W is inactive (separable at this W): (49) then leaves w undetermined
    w = (W / dv) * sv if dv > 1e-8 * max(1.0, float(np.sum(lv))) else np.full(d, np.nan)
    eq = cons[0].dual_value
    b = float(eq) if eq is not None else np.nan
    return SolverResult(x=np.r_[w, b], lam=lv, delta=dv, u=u, points=points, w=w, b=b,
                        objective=float(np.sum(lv) - W * dv), success=ok, status=0 if ok else 1,
                        solver_status=status, nit=nit, message=f"Clarabel: {status}", solve_time=solve_time)
