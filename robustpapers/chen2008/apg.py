"""A certified first-order solver for chen2008's Indefinite SVM: accelerated projected gradient with a
Frank-Wolfe certificate (APG-FW).

Not in chen2008: the paper solves its problem (6) by the exchange method (Algorithm 1,
:func:`~robustpapers.chen2008.indefinite_svm`). This module solves the *same* problem through its dual
function, which is concave and smooth, and certifies every answer with a duality gap that costs one sort.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
from scipy.linalg.lapack import dlasd4 as _dlasd4

from ..core import SolverResult, Trace, check_positive, project_svm_set, svm_bias, warn_not_converged
from .siqclp import _validate

__all__ = ["indefinite_svm_apg", "dual_value", "frank_wolfe_gap"]


def _negative_pairs(w0, z, sigma):
    """Negative eigenpairs of ``diag(w0) + sigma z z'`` (``w0`` ascending): eigenvalues and eigenvectors in the
    eigenbasis of K0, from the secular equation (LAPACK ``dlasd4``), or from ``eigh`` when ``z`` needs deflation.

    By interlacing (sigma >= 0) the negative eigenvalues are among the ``k`` smallest, ``k`` = #negative w0.
    """
    k = int(np.count_nonzero(w0 < 0))
    n = w0.size
    if k == 0:
        return np.empty(0), np.empty((n, 0))
    nz = float(np.linalg.norm(z))
    if nz > 0:
        wmax = float(max(abs(w0[0]), abs(w0[-1])))
        shift = wmax - float(w0[0])
        d2 = w0 + shift
        d = np.sqrt(d2)
        zn = z / nz
        r = sigma * nz * nz
        eps = np.finfo(float).eps
        scale = max(float(d2[-1]), r)
        if r * float(np.min(np.abs(zn))) > 64 * eps * scale and float(np.min(np.diff(d2))) > 64 * eps * scale:
            lam = np.empty(k)
            W = np.empty((n, k))
            ok = True
            for i in range(k):
                delta, sig, work, info = _dlasd4(i, d, zn, r)
                if info != 0:
                    ok = False
                    break
                lam[i] = sig * sig - shift
                col = zn / (delta * work)
                W[:, i] = col / np.linalg.norm(col)
            if ok:
                neg = lam < 0
                return lam[neg], W[:, neg]
    lam, W = np.linalg.eigh(np.diag(w0) + sigma * np.outer(z, z))
    neg = lam < 0
    return lam[neg], W[:, neg]


def _oracle(alpha, y, w0, V0, rho, exact=False):
    r"""``f(alpha)`` and its gradient (see :func:`dual_value`). ``exact``: one dense ``eigh`` instead of the
    secular equation (used for the final certificate)."""
    v = y * alpha
    z = V0.T @ v
    sigma = 1.0 / (4.0 * rho)
    zz = float(z @ z)
    if exact:
        lam, W = np.linalg.eigh(np.diag(w0) + sigma * np.outer(z, z))
        neg = lam < 0
        lam, W = lam[neg], W[:, neg]
    else:
        lam, W = _negative_pairs(w0, z, sigma)
    f = float(alpha.sum() - 0.5 * (w0 * z) @ z - 0.25 * sigma * zz * zz + rho * (lam @ lam))
    q = w0 * z + sigma * zz * z              # V0' M v,  M = K0 + sigma v v'
    if lam.size:
        q -= W @ (lam * (W.T @ z))           # minus V0' M_- v: q = V0' K* v
    grad = 1.0 - y * (V0 @ q)
    return f, grad


def dual_value(K0: Any, y: np.ndarray, alpha: np.ndarray, rho: float) -> tuple[Any, ...]:
    r"""The concave function maximised by the Indefinite SVM, :math:`f(\alpha)=\min_{K\succeq0}S(\alpha,K)`.

    With :math:`v = Y\alpha`, :math:`M = K_0 + vv^\top/(4\rho)` and the minimiser
    :math:`K^* = M_+` of chen2008 eq. (9),

    .. math::

        f(\alpha) = e^\top\alpha - \tfrac12 v^\top K_0 v - \frac{\|v\|^4}{16\rho}
                    + \rho \sum_{\lambda_i(M) < 0} \lambda_i(M)^2 ,
        \qquad \nabla f(\alpha) = e - Y K^*(\alpha) Y\alpha

    (the gradient by Danskin's theorem: the minimiser is unique).

    Returns
    -------
    (float, array)
        :math:`f(\alpha)` and :math:`\nabla f(\alpha)`.

    Examples
    --------
    >>> import numpy as np
    >>> from robustpapers.chen2008 import most_violated_kernel, siqclp_objective
    >>> K0 = np.array([[1.0, 2.0], [2.0, 1.0]]); y = np.array([1.0, -1.0]); a = np.array([0.3, 0.3])
    >>> f, g = dual_value(K0, y, a, rho=1.0)
    >>> bool(np.isclose(f, siqclp_objective(a, most_violated_kernel(K0, y, a, 1.0), K0, y, 1.0)))
    True
    """
    K0, y, _, rho = _validate(K0, y, 1.0, rho)
    w0, V0 = np.linalg.eigh(K0)
    return _oracle(np.asarray(alpha, float), y, w0, V0, rho, exact=True)


def frank_wolfe_gap(grad: np.ndarray, alpha: np.ndarray, y: np.ndarray, C: float) -> Any:
    r"""The Frank-Wolfe gap over the SVM set :math:`\mathcal A = \{0\le\alpha\le C,\ y^\top\alpha=0\}`.

    .. math::

        G(\alpha) = \max_{s\in\mathcal A} \nabla f(\alpha)^\top (s - \alpha)
                  = \min_{\mu} \sum_i C\max\bigl(0,\ g_i - \mu y_i\bigr) - g^\top\alpha ,

    the linear program over a box and one hyperplane in its dual form (a convex piecewise-linear function
    of one multiplier, minimised over its sorted breakpoints :math:`\mu = y_i g_i`). For a concave
    :math:`f`, :math:`f^* - f(\alpha) \le G(\alpha)`.

    Examples
    --------
    >>> import numpy as np
    >>> float(frank_wolfe_gap(np.array([1.0, 1.0]), np.array([0.0, 0.0]), np.array([1.0, -1.0]), 1.0))
    2.0
    """
    g = np.asarray(grad, float)
    bp = np.sort(y * g)
    # D(mu) = C * sum_i max(0, y_i (y_i g_i - mu)): for y_i = +1 a decreasing hinge, for -1 an increasing one
    a_pos = np.sort((y * g)[y > 0])
    a_neg = np.sort((y * g)[y < 0])
    # sum over positives of max(0, a - mu) and over negatives of max(0, mu - a), at every breakpoint
    cpos = np.concatenate([np.cumsum(a_pos[::-1])[::-1], [0.0]])      # suffix sums
    cneg = np.concatenate([[0.0], np.cumsum(a_neg)])                   # prefix sums
    ip = np.searchsorted(a_pos, bp, side="right")
    ineg = np.searchsorted(a_neg, bp, side="right")
    d = (cpos[ip] - bp * (a_pos.size - ip)) + (bp * ineg - cneg[ineg])
    return C * float(np.min(d)) - float(g @ alpha)


def indefinite_svm_apg(K0: np.ndarray, y: np.ndarray, C: float, rho: float, tol: float = 1e-5,
                       max_iter: int = 20000, *, alpha0: np.ndarray | None = None, rel_tol: float = 0.0,
                       callback: Callable[..., Any] | None = None) -> SolverResult:
    r"""Train an SVM on an indefinite kernel by accelerated projected gradient with a Frank-Wolfe certificate
    (APG-FW; not the paper's algorithm).

    Solves the Indefinite SVM of chen2008 eq. (2), the same problem as Algorithm 1
    (:func:`~robustpapers.chen2008.indefinite_svm`), in its dual form: by eqs. (8)-(9) the inner minimum over
    PSD kernels has the closed form :math:`K^*(\alpha)` and

    .. math::

        f^* = \max_{\alpha\in\mathcal A} f(\alpha),\qquad f(\alpha) = \min_{K\succeq0} S(\alpha, K),
        \qquad \mathcal A = \{\alpha: y^\top\alpha = 0,\ 0\le\alpha\le C\},

    where :math:`f` is concave (a minimum of concave functions of :math:`\alpha`) and smooth with
    :math:`\nabla f(\alpha) = e - YK^*(\alpha)Y\alpha` (Danskin; :func:`dual_value`). Each iteration is one
    step of FISTA with backtracking on the Lipschitz estimate and gradient restarts (O'Donoghue & Candes),

    .. math::

        \alpha_{k+1} = P_{\mathcal A}\bigl(x_k + \nabla f(x_k)/L_k\bigr),

    :math:`P_{\mathcal A}` the exact projection (:func:`~robustpapers.core.project_svm_set`). The negative
    eigenpairs of :math:`K_0 + Y\alpha\alpha^\top Y/(4\rho)` come from one eigendecomposition of
    :math:`K_0`, made once, and the secular equation of the rank-one update, so an iteration costs
    :math:`O(n^2)` plus :math:`O(nk)` for :math:`k` negative eigenvalues (Algorithm 1 solves a master
    problem per iteration).

    **Certificate.** :math:`l = \max_k f(\alpha_k) \le f^*` is a lower bound and
    :math:`u = f(\alpha_k) + G(\alpha_k) \ge f^*` an upper bound, :math:`G` the Frank-Wolfe gap
    (:func:`frank_wolfe_gap`, closed form by sorting). The run stops at the first iterate with
    :math:`G(\alpha_k) \le \max(\text{tol}, \text{rel\_tol}\cdot|f(\alpha_k)|)` -- the same test as
    Algorithm 1's :math:`u^+ - l^- \le` tol (eqs. (11), (13)) -- once a dense eigendecomposition at
    :math:`\alpha_k` confirms it, so the certificate does not rest on the secular-equation eigenvectors.

    Parameters
    ----------
    K0 : array (n, n)
        Symmetric, possibly indefinite, training kernel.
    y : array (n,)
        Labels in {-1, +1}.
    C : float > 0
    rho : float > 0
        Weight of :math:`\|K - K_0\|_F^2` in eq. (2).
    tol : float > 0
        Absolute tolerance on the certified gap :math:`u - l` (Algorithm 1's ``tol``).
    max_iter : int
        Maximal number of gradient steps.
    alpha0 : array (n,), optional
        Start (projected onto :math:`\mathcal A`), e.g. the solution at a neighbouring ``rho``; default 0.
    rel_tol : float >= 0
        Relative tolerance: the run also stops when :math:`u - l \le` ``rel_tol`` :math:`|l|`.
    callback : callable, optional
        ``callback(k, alpha, upper, lower)`` after each step.

    Returns
    -------
    SolverResult
        ``alpha`` (the certified iterate, or the best one if none is), ``objective`` (:math:`l = f(\alpha)`),
        ``upper`` (:math:`u = l + G(\alpha)`),
        ``gap`` (:math:`u - l`, certified), ``K`` (:math:`K^*(\alpha)`), ``b`` (bias from the KKT conditions
        on ``K``), ``n_oracle`` (evaluations of :math:`f`), ``success`` (the certified gap met the tolerance),
        ``nit``, ``message`` and ``trace`` (objective, gap, upper, L per step).

    Warns
    -----
    ConvergenceWarning
        When ``max_iter`` steps do not close the gap (increase ``max_iter``).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(12, 2)); y = np.where(X[:, 0] > 0, 1.0, -1.0)
    >>> E = rng.normal(size=(12, 12)); K0 = X @ X.T + 0.5 * (E + E.T) / 2
    >>> res = indefinite_svm_apg(K0, y, C=1.0, rho=1.0, tol=1e-6)
    >>> bool(res.success and res.gap <= 1e-6)
    True
    """
    from .siqclp import most_violated_kernel

    K0, y, C, rho = _validate(K0, y, C, rho)
    tol = check_positive(tol, "tol")
    if rel_tol < 0:
        raise ValueError(f"rel_tol must be >= 0, got {rel_tol!r}")
    if isinstance(max_iter, bool) or not isinstance(max_iter, (int, np.integer)) or max_iter < 1:
        raise ValueError(f"max_iter must be a positive integer, got {max_iter!r}")
    n = y.size
    w0, V0 = np.linalg.eigh(K0)
    alpha = project_svm_set(np.zeros(n) if alpha0 is None else np.asarray(alpha0, float), y, C)
    if alpha0 is not None and alpha.shape != (n,):
        raise ValueError(f"alpha0 must have shape ({n},), got {np.shape(alpha0)}")
    f, g = _oracle(alpha, y, w0, V0, rho)
    n_oracle = 1
    best_f, best_alpha = f, alpha
    best_u = f + frank_wolfe_gap(g, alpha, y, C)
    trace = Trace()
    trace.record(objective=best_f, gap=best_u - best_f, upper=best_u, L=np.nan)
    L = max(1.0, float(np.max(np.abs(w0))))
    x, fx, gx, t = alpha, f, g, 1.0
    converged = False
    k = 0

    def _target(lo):
        return max(tol, rel_tol * abs(lo))

    for k in range(1, max_iter + 1):
        while True:  # backtracking on L by the gradient's change along the step (function values lose
            # the last digits to the large constant rho * sum(lambda_-^2) near the optimum)
            a_new = project_svm_set(x + gx / L, y, C)
            d = a_new - x
            f_new, g_new = _oracle(a_new, y, w0, V0, rho)
            n_oracle += 1
            if (gx - g_new) @ d <= L * (d @ d):
                break
            L *= 2.0
        gap_new = frank_wolfe_gap(g_new, a_new, y, C)
        if f_new > best_f:
            best_f, best_alpha = f_new, a_new
        best_u = min(best_u, f_new + gap_new)
        trace.record(objective=best_f, gap=best_u - best_f, upper=best_u, L=L)
        if callback is not None:
            callback(k, a_new, best_u, best_f)
        if gap_new <= _target(f_new):
            # verify with a dense eigendecomposition (not the secular eigenvectors) before stopping
            f_c, g_c = _oracle(a_new, y, w0, V0, rho, exact=True)
            gap_c = frank_wolfe_gap(g_c, a_new, y, C)
            if gap_c <= _target(f_c):
                best_alpha, converged = a_new, True
                break
        if (x - a_new) @ (a_new - alpha) > 0 and t > 1.0:  # gradient restart: momentum points against the step
            t, x, fx, gx = 1.0, alpha, f, g
            continue
        t_new = 0.5 * (1.0 + np.sqrt(1.0 + 4.0 * t * t))
        x = a_new + ((t - 1.0) / t_new) * (a_new - alpha)
        x = project_svm_set(x, y, C)
        t = t_new
        alpha, f, g = a_new, f_new, g_new
        fx, gx = _oracle(x, y, w0, V0, rho)
        n_oracle += 1
        L *= 0.95  # let the Lipschitz estimate shrink again
    if not converged:  # the certificate of the best iterate, from a dense eigendecomposition
        f_c, g_c = _oracle(best_alpha, y, w0, V0, rho, exact=True)
        gap_c = frank_wolfe_gap(g_c, best_alpha, y, C)
    upper = f_c + gap_c
    gap = gap_c
    success = bool(gap <= _target(f_c))
    if not success:
        warn_not_converged("indefinite_svm_apg", "max_iter (or loosen tol)",
                           f"certified gap u - l = {gap:.3g} > {_target(f_c):.3g} after {k} steps")
    K = most_violated_kernel(K0, y, best_alpha, rho)
    b = svm_bias(K, y, best_alpha, C)
    return SolverResult(x=best_alpha, success=success, nit=k,
                        message="certified gap closed" if success else "max_iter reached",
                        objective=f_c, trace=trace, alpha=best_alpha, b=b, K=K, upper=upper, gap=gap,
                        n_oracle=n_oracle)
