"""USSVM_SOCP: the robust counterpart (12) as a conic program (bental2012 eq. (13)), solved with cvxpy."""
from __future__ import annotations

import time
from typing import Any

import numpy as np

from ..core import SolverResult, Trace, warn_not_converged
from .robust import (
    check_ussvm_problem, effective_kernel, kernel_quadratic_forms, rescale_ussvm, robust_bias, robust_objective,
    worst_case_eta,
)

__all__ = ["ussvm_socp"]


def _factor(K, tol=1e-12):
    """A factor F with F F^T = K (eigen-decomposition, negative rounding noise dropped)."""
    w, V = np.linalg.eigh((K + K.T) / 2)
    keep = w > tol * max(1.0, abs(w[-1]))
    return V[:, keep] * np.sqrt(w[keep])


def ussvm_socp(K_bar: np.ndarray, K_list: np.ndarray, y: np.ndarray, C: float, kappa: float, p: float = 2, *,
               solver: str = "CLARABEL", formulation: str = "quad_form", bias: str = "paper",
               solver_opts: dict[str, Any] | None = None, scale: Any = None, verbose: bool = False
) -> SolverResult:
    r"""USSVM_SOCP: solve the robust SVM (12) as the conic program (13) with cvxpy.

    .. math::

        \min_{\alpha \in S_n,\, a,\, t}\ \tfrac12 \kappa t + \tfrac12 \alpha^\top Y \bar K Y \alpha - e^\top\alpha
        \quad\text{s.t.}\quad \|a\|_q \le t,\quad \alpha^\top Y K_l Y \alpha \le a_l\ (l = 1..L)

    (bental2012 eq. (13), written there for p = 2 and :math:`\kappa = 1`; any :math:`p \ge 1` with
    :math:`q = p/(p-1)` is a conic program since :math:`\|\cdot\|_q` is conic-representable,
    bental2012 footnote 3). Its optimal value is :math:`-\max_{S_n} F`.

    Parameters
    ----------
    K_bar : array (n, n), PSD
    K_list : array (L, n, n) or sequence of (n, n) PSD arrays
    y : array (n,) of +-1
    C : float > 0
    kappa : float >= 0
    p : float >= 1 or inf
    solver : str
        cvxpy solver name (default Clarabel, an interior-point method).
    formulation : {"quad_form", "factor"}
        ``"quad_form"`` passes :math:`u^\top K u` to cvxpy directly (the paper's form);
        ``"factor"`` writes :math:`\|F^\top u\|_2^2` with :math:`FF^\top = K`.
    bias : {"paper", "free"}
        Bias rule (:func:`robust_bias`).
    solver_opts : dict, optional
        Extra keyword arguments for ``problem.solve``.
    scale : None, "auto" or float > 0
        Solve the equivalent problem of :func:`rescale_ussvm` (kernels / c, C * c) and map
        :math:`\alpha` back exactly (:math:`\alpha = \alpha_c / c`). ``"auto"``:
        :math:`c = \mathrm{tr}(\bar K)/n` (unit mean diagonal). The conic solver's absolute
        tolerances then act on a problem of unit scale; the answer is the same problem's.

    Returns
    -------
    SolverResult
        ``alpha``, ``b``, ``eta`` (the closed-form worst case at ``alpha``), ``objective``
        = :math:`F(\alpha)`, ``solver_status`` and ``solve_time``. A status other than
        ``"optimal"`` gives ``success=False`` and a ConvergenceWarning (``optimal_inaccurate``)
        or a RuntimeError (no solution at all): a non-optimal answer is never passed off as optimal.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 1.0], [1.0, 0.0], [3.0, 1.0], [4.0, 0.5]]); y = np.array([-1, -1, 1, 1])
    >>> K = X @ X.T + np.eye(4)
    >>> res = ussvm_socp(K, np.stack([K, 2 * K]), y, C=1.0, kappa=0.5)
    >>> res.success, bool(abs(res.alpha @ y) < 1e-6)
    (True, True)
    """
    import cvxpy as cp

    K_bar, K_stack, y, C, kappa, q, _, _ = check_ussvm_problem(K_bar, K_list, y, C, kappa, p, dtype=float)
    n, L = y.size, K_stack.shape[0]
    if formulation not in ("quad_form", "factor"):
        raise ValueError(f"formulation must be 'quad_form' or 'factor', got {formulation!r}")
    c = 1.0
    if scale is not None:
        c = float(np.trace(K_bar) / n) if isinstance(scale, str) and scale == "auto" else scale
        if isinstance(c, str) or not (np.isfinite(c) and c > 0):
            raise ValueError(f"scale must be None, 'auto' or a number > 0, got {scale!r}")
    K_bar_s, K_stack_s, C_s = rescale_ussvm(K_bar, K_stack, C, c) if c != 1.0 else (K_bar, K_stack, C)
    alpha = cp.Variable(n)
    u = cp.multiply(y, alpha)

    def quad(K):
        if formulation == "quad_form":
            return cp.quad_form(u, cp.psd_wrap(K))
        return cp.sum_squares(_factor(K).T @ u)

    objective = 0.5 * quad(K_bar_s) - cp.sum(alpha)
    cons = [alpha >= 0, alpha <= C_s, y @ alpha == 0]
    if L and kappa > 0:
        a = cp.Variable(L)
        t = cp.Variable()
        cons += [quad(K_stack_s[l]) <= a[l] for l in range(L)]
        cons += [cp.norm(a, "inf") <= t if np.isinf(q) else cp.pnorm(a, q) <= t]
        objective = objective + 0.5 * kappa * t
    prob = cp.Problem(cp.Minimize(objective), cons)
    t0 = time.perf_counter()
    prob.solve(solver=solver, verbose=verbose, **(solver_opts or {}))
    wall = time.perf_counter() - t0
    status = prob.status
    if alpha.value is None:
        raise RuntimeError(f"ussvm_socp: {solver} returned status {status!r} and no solution")
    al = np.clip(np.asarray(alpha.value, dtype=float) / c, 0.0, C)
    a_val = kernel_quadratic_forms(K_stack, al * y) if L else np.zeros(0)
    eta = worst_case_eta(a_val, kappa, p) if L else np.zeros(0)
    b = robust_bias(effective_kernel(K_bar, K_stack, eta), y, al, C, rule=bias)
    F = robust_objective(al, K_bar, K_stack, y, kappa, p)
    success = status == "optimal"
    if success:
        message = f"{solver}: optimal"
    elif status == "optimal_inaccurate":
        message = warn_not_converged("ussvm_socp", "the solver's iteration limit or accuracy (solver_opts)",
                                     f"{solver} ended 'optimal_inaccurate'")
    else:
        raise RuntimeError(f"ussvm_socp: {solver} returned status {status!r}")
    trace = Trace()
    trace.record(objective=F, gap=np.nan)
    try:
        nit = int(prob.solver_stats.num_iters or 0)
    except (AttributeError, TypeError):  # pragma: no cover - solver without statistics
        nit = 0
    return SolverResult(x=al, alpha=al, b=b, eta=eta, objective=F, success=success, nit=nit, message=message,
                        status=0 if success else 2, trace=trace, solver_status=status, solve_time=wall,
                        socp_value=float(-prob.value) / c if prob.value is not None else np.nan, scale=c)
