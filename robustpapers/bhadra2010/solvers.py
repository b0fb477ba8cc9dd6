r"""RSVM (003 eq. 15 = 000 eq. 7) by QP (Theorems 4-5), SOCP (Theorem 6, 000 eq. 22) and QN (eq. 17).

The deterministic counterpart of the chance-constrained SVM, written as a
maximisation after eliminating :math:`t`,

.. math::

    \max_{\alpha\in S_n}\; e^\top\alpha - \tfrac12\Bigl(\alpha^\top Y\bar K Y\alpha
    + \kappa\sqrt{\textstyle\sum_{ij}\beta_{ij}\alpha_i^2\alpha_j^2}\Bigr),
    \qquad S_n = \{0\le\alpha\le C,\ y^\top\alpha = 0\}.
"""
from __future__ import annotations

import time
import warnings

import numpy as np

from .data import check_random_state
from ..runner import parallel_map
from ..core import (
    SolverResult, Trace, check_binary_labels, check_finite_array, check_kernel, check_positive,
    is_psd, project_svm_set, psd_clip, svm_dual, warn_not_converged,
)

__all__ = [
    "rsvm", "rsvm_objective", "rsvm_constraint_value", "robust_bias", "rsvm_decision_function",
    "rank_one_factor", "principal_rank_one", "qn_penalty",
]

METHODS = ("qp", "socp", "qn")
_C2 = 0.1
_WARM_H = True


def _sqrt_term(beta, alpha):
    a2 = alpha**2
    return float(np.sqrt(max(a2 @ beta @ a2, 0.0)))


def rsvm_constraint_value(K_bar, y, beta, kappa, alpha):
    r"""Left side of the constraint of 003 eq. (15) (000 eq. 7): the smallest feasible t at ``alpha``.

    .. math::

        t(\alpha) = \alpha^\top Y\bar KY\alpha + \kappa\sqrt{\textstyle\sum_{ij}\beta_{ij}\alpha_i^2\alpha_j^2}

    Parameters
    ----------
    K_bar : array (n, n)
    y : array (n,) of +-1
    beta : array (n, n)
    kappa : float
    alpha : array (n,)

    Returns
    -------
    float

    Examples
    --------
    >>> import numpy as np
    >>> rsvm_constraint_value(np.eye(2), np.array([1.0, -1.0]), np.ones((2, 2)), 2.0, np.array([1.0, 1.0]))
    6.0
    """
    ya = y * alpha
    return float(ya @ K_bar @ ya + kappa * _sqrt_term(beta, alpha))


def rsvm_objective(K_bar, y, beta, kappa, alpha):
    r"""The objective of 003 eq. (15) / 000 eq. (7), as a maximisation, at ``alpha``.

    .. math::

        e^\top\alpha - \tfrac12\Bigl(\alpha^\top Y\bar KY\alpha + \kappa
        \sqrt{\textstyle\sum_{ij}\beta_{ij}\alpha_i^2\alpha_j^2}\Bigr)

    Examples
    --------
    >>> import numpy as np
    >>> rsvm_objective(np.eye(2), np.array([1.0, -1.0]), np.ones((2, 2)), 2.0, np.array([1.0, 1.0]))
    -1.0
    """
    return float(np.sum(alpha) - 0.5 * rsvm_constraint_value(K_bar, y, beta, kappa, alpha))


def rank_one_factor(beta, rtol=1e-8):
    r"""The vector :math:`b\ge0` with :math:`\beta = bb^\top`, or ``ValueError`` if beta is not rank one.

    A non-negative rank-one symmetric matrix has :math:`b_i=\sqrt{\beta_{ii}}` (Theorem 4);
    the factorisation is accepted if :math:`\|\beta - bb^\top\|_F \le` ``rtol`` :math:`\|\beta\|_F`.
    """
    d = np.sqrt(np.maximum(np.diag(beta), 0.0))
    err = np.linalg.norm(beta - np.outer(d, d))
    if err > rtol * max(np.linalg.norm(beta), 1e-300):
        raise ValueError(
            f"beta is not rank one (||beta - b b'||_F / ||beta||_F = {err / max(np.linalg.norm(beta), 1e-300):.3g}); "
            "method='qp' needs beta = b b' (003 Theorem 4): pass the vector b, an i.i.d. scalar, "
            "or beta_approx='principal' for the paper's principal-eigenvector approximation"
        )
    return d


def principal_rank_one(beta):
    r"""The paper's rank-one approximation (003 §5.1): :math:`\beta\approx\lambda_{\max}vv^\top`, returned as :math:`b=\sqrt{\lambda_{\max}}|v|`.

    For a non-negative symmetric beta the principal eigenvector can be taken non-negative (Perron-Frobenius).
    """
    w, V = np.linalg.eigh((beta + beta.T) / 2)
    return np.sqrt(max(w[-1], 0.0)) * np.abs(V[:, -1])


def robust_bias(K_bar, y, alpha, C, sv_tol=1e-4):
    r"""The bias rule of 003 §3 over all support vectors SV = {alpha_i > sv_tol * C}.

    .. math::

        b = \frac{1}{|SV|}\Bigl[\sum_{j\in SV} y_j - \sum_{i,j\in SV} y_i\alpha_i\bar K_{ij}\Bigr].

    Unlike the usual SVM bias (free support vectors only), all support vectors, bounded ones included,
    are averaged, on the mean kernel.

    Examples
    --------
    >>> import numpy as np
    >>> robust_bias(np.eye(2), np.array([1.0, -1.0]), np.array([0.5, 0.5]), C=1.0)
    0.0
    """
    alpha = np.asarray(alpha, float)
    if alpha.max(initial=0.0) <= 0:
        return 0.0
    sv = alpha > sv_tol * C
    ya = (y * alpha)[sv]
    f = K_bar[np.ix_(sv, sv)] @ ya
    return float(np.mean(y[sv] - f))


def rsvm_decision_function(K_test, y, alpha, b):
    r"""Decision values :math:`f_t = \sum_{j} \alpha_j y_j K_{tj} + b` (003 §3–4); ``K_test`` of shape (..., m, n).

    A stack of sampled kernels (n_s, m, n) gives the (n_s, m) decisions :math:`f^s_t` of 003 §4.

    Examples
    --------
    >>> import numpy as np
    >>> rsvm_decision_function(np.eye(2), np.array([1.0, -1.0]), np.array([1.0, 1.0]), 0.5).tolist()
    [1.5, -0.5]
    """
    return np.asarray(K_test) @ (np.asarray(alpha) * np.asarray(y)) + b


# ----------------------------------------------------------------------------- QN (eq. 17)

def qn_penalty(alpha, K_bar, y, beta, kappa, C, penalty):
    r"""Square-penalty function of 003 eq. (17) and its gradient (our reconstruction).

    .. math::

        L(\alpha) = \tfrac12\alpha^\top Y\bar KY\alpha + \tfrac{\kappa}{2}
        \sqrt{\textstyle\sum_{ij}\beta_{ij}\alpha_i^2\alpha_j^2} - e^\top\alpha
        + \tfrac P2\Bigl[(y^\top\alpha)^2 + \sum_{\alpha_i>C}(\alpha_i-C)^2 + \sum_{\alpha_i<0}\alpha_i^2\Bigr].
    """
    ya = y * alpha
    Kya = K_bar @ ya
    a2 = alpha**2
    Ba2 = beta @ a2
    s2 = float(a2 @ Ba2)
    s = np.sqrt(max(s2, 0.0))
    sy = float(y @ alpha)
    over = np.maximum(alpha - C, 0.0)
    under = np.minimum(alpha, 0.0)
    val = 0.5 * ya @ Kya + 0.5 * kappa * s - alpha.sum() + 0.5 * penalty * (sy**2 + over @ over + under @ under)
    grad = y * Kya - 1.0 + penalty * (sy * y + over + under)
    if s > 1e-300:
        grad = grad + kappa * alpha * Ba2 / s
    return float(val), grad


def _dfp_minimise(fun, x0, tol, max_iter, H0=None):
    """DFP quasi-Newton (003 §3: alpha_{t+1} = alpha_t - eta_t H_t grad L) with a strong-Wolfe line search.

    The inverse-Hessian approximation H (warm-started from the previous penalty stage) is updated by the
    Davidon-Fletcher-Powell formula
    H + ss'/(s'q) - Hqq'H/(q'Hq) (q the change of gradient) when the curvature s'q is positive,
    else reset to the identity. DFP needs accurate line searches, hence Wolfe with c2 = 0.1
    (Armijo backtracking as a fallback). Stops when the gradient's infinity norm is below ``tol``
    times max(1, |L|) or a step no longer decreases L by a relative 1e-14.
    Returns (x, f, nit, converged, H).
    """
    from scipy.optimize import line_search
    from scipy.optimize._linesearch import LineSearchWarning

    cache = {}

    def f_only(z):
        v, g_ = fun(z)
        cache["last"] = (z.copy(), v, g_)
        return v

    def g_only(z):
        last = cache.get("last")
        if last is not None and np.array_equal(last[0], z):
            return last[2]
        return fun(z)[1]

    x = x0.copy()
    f, g = fun(x)
    n = x.size
    H = np.eye(n) if H0 is None else H0.copy()
    for it in range(1, max_iter + 1):
        if np.max(np.abs(g)) <= tol * max(1.0, abs(f)):
            return x, f, it - 1, True, H
        d = -H @ g
        slope = float(g @ d)
        if slope >= 0:  # not a descent direction: restart with steepest descent
            H = np.eye(n)
            d, slope = -g, -float(g @ g)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", LineSearchWarning)
            step = line_search(f_only, g_only, x, d, gfk=g, old_fval=f, c1=1e-4, c2=_C2, maxiter=30)[0]
        if step is None:
            step = 1.0
            while step > 1e-16:
                fn_try = fun(x + step * d)[0]
                if fn_try <= f + 1e-4 * step * slope:
                    break
                step *= 0.5
            if step <= 1e-16:
                return x, f, it, False, H
        xn = x + step * d
        fn, gn = fun(xn)
        s, q = xn - x, gn - g
        sq = float(s @ q)
        if sq > 1e-14 * np.linalg.norm(s) * np.linalg.norm(q):
            Hq = H @ q
            H = H + np.outer(s, s) / sq - np.outer(Hq, Hq) / float(q @ Hq)
        else:
            H = np.eye(n)
        done = f - fn <= 1e-14 * max(1.0, abs(f))
        x, f, g = xn, fn, gn
        if done:
            return x, f, it, True, H
    return x, f, max_iter, np.max(np.abs(g)) <= tol * max(1.0, abs(f)), H


def _qn_start_packed(a):
    return _qn_one_start(*a)


def _qn_one_start(alpha0, K_bar, y, beta, kappa, C, penalties, tol, max_iter):
    alpha = alpha0
    nit, ok = 0, True
    H = None
    for i, P in enumerate(penalties):
        last = i == len(penalties) - 1
        # intermediate penalty stages only warm-start the next one: a loose tolerance suffices
        alpha, _, k, conv, H = _dfp_minimise(
            lambda a, P=P: qn_penalty(a, K_bar, y, beta, kappa, C, P), alpha,
            tol if last else max(tol, 1e-3), max_iter, H0=H if _WARM_H else None)
        nit += k
        if last:
            ok = conv
    alpha = project_svm_set(alpha, y, C)
    return alpha, rsvm_objective(K_bar, y, beta, kappa, alpha), nit, ok


# ----------------------------------------------------------------------------- SOCP (Theorem 6)

def _psd_factor(M, name):
    w, V = np.linalg.eigh((M + M.T) / 2)
    return (V * np.sqrt(np.maximum(w, 0.0))).T  # R with R'R = M (clipped at 0)


def _socp(K_bar, y, beta, kappa, C, tol, verbose):
    import cvxpy as cp

    n = y.size
    R = _psd_factor(K_bar, "K_bar")
    Bh = _psd_factor(beta, "beta")
    alpha = cp.Variable(n)
    v = cp.Variable(n)
    obj = cp.Minimize(0.5 * cp.sum_squares(R @ cp.multiply(y, alpha)) + 0.5 * kappa * cp.norm(Bh @ v, 2)
                      - cp.sum(alpha))
    cons = [cp.square(alpha) <= v, alpha >= 0, alpha <= C, y @ alpha == 0]
    prob = cp.Problem(obj, cons)
    opts = dict(tol_gap_abs=tol, tol_gap_rel=tol, tol_feas=tol)
    try:
        prob.solve(solver=cp.CLARABEL, verbose=verbose, **opts)
    except cp.error.SolverError:
        prob.solve(solver=cp.SCS, verbose=verbose, eps=tol)
    return prob, alpha.value


# ----------------------------------------------------------------------------- public entry

def _as_beta(beta, n):
    arr = check_finite_array(beta, "beta")
    if arr.ndim == 0:
        return np.full((n, n), float(arr)), "iid"
    if arr.ndim == 1:
        if arr.size != n:
            raise ValueError(f"beta as a vector (rank-one factor b) must have length {n}, got {arr.size}")
        return np.outer(arr, arr), "vector"
    if arr.shape != (n, n):
        raise ValueError(f"beta must have shape ({n}, {n}), got {arr.shape}")
    if np.max(np.abs(arr - arr.T), initial=0.0) > 1e-8 * max(1.0, np.abs(arr).max()):
        raise ValueError("beta must be symmetric")
    return (arr + arr.T) / 2, "matrix"


def rsvm(K_bar, y, C, beta, kappa, method="socp", *, beta_approx=None, n_starts=100, penalty=1e3,
         tol=1e-7, max_iter=2000, random_state=None, n_jobs=1, bias="robust", sv_tol=1e-4,
         callback=None, verbose=False):
    r"""Robust SVM for uncertain kernel entries (003 eq. 15 = 000 eq. 7).

    .. math::

        \max_{\alpha\in S_n}\; e^\top\alpha - \tfrac12\Bigl(\alpha^\top Y\bar K Y\alpha
        + \kappa\sqrt{\textstyle\sum_{ij}\beta_{ij}\alpha_i^2\alpha_j^2}\Bigr)

    Methods (003 §3):

    * ``"qp"`` (Theorems 4-5): for :math:`\beta=bb^\top` the problem is the SVM dual with kernel
      :math:`\bar K+\kappa\,\mathrm{diag}(b)` (i.i.d. noise, scalar beta :math:`=b^2`: :math:`\bar K+\kappa bI`),
      solved by :func:`robustpapers.core.svm_dual`. ``beta`` may be a matrix that is rank one, a vector ``b`` or a
      scalar; ``beta_approx="principal"`` uses the paper's :math:`\lambda_{\max}vv^\top` (§5.1).
    * ``"socp"`` (Theorem 6, 000 eq. 22): for PSD :math:`\bar K` and :math:`\beta`, the SOCP
      :math:`\min \tfrac12(\|R Y\alpha\|^2 + \kappa\|\beta^{1/2}v\|) - e^\top\alpha` s.t.
      :math:`\alpha_i^2\le v_i,\ \alpha\in S_n`, solved by cvxpy/Clarabel.
      ``beta_approx="psd"`` first replaces beta by its nearest PSD matrix in Frobenius norm (negative
      eigenvalues clipped), which is the paper's §5.1 approximation :math:`\sum_{\lambda_r>0}\lambda_r v_rv_r^\top`.
      Clipping adds a PSD matrix to beta, so the robustness term can only grow: the clipped problem is a
      convex, conservative restriction of eq. (15) (its solution still meets the chance constraint).
    * ``"qn"`` (eq. 17): the square-penalty function minimised by DFP quasi-Newton from ``n_starts``
      random starts (uniform in the box, projected on :math:`S_n`), with penalty continuation
      :math:`P_k = 10^{k}\,P\,\max(1, C\max_i\bar K_{ii})`, :math:`k=-3,\dots,0`, and a final exact projection
      onto :math:`S_n` (:func:`robustpapers.core.project_svm_set`); the best start is kept.
      Works for any non-negative symmetric beta (the problem is then non-convex).

    Parameters
    ----------
    K_bar : array (n, n)
        Mean kernel :math:`\bar K` (symmetric; PSD for ``"socp"``).
    y : array (n,)
        Labels in {-1, +1}.
    C : float > 0
    beta : float, array (n,) or array (n, n)
        Non-negative uncertainty weights (:func:`beta_from_sigma`, :func:`beta_from_support`).
    kappa : float >= 0
        :func:`kappa_gaussian` or :func:`kappa_finite_support`.
    method : {"qp", "socp", "qn"}
    beta_approx : {None, "principal", "psd"}
    n_starts, penalty, max_iter, random_state, n_jobs
        QN: number of random starts, final penalty P, DFP iterations per penalty stage, seed,
        workers for the starts (run by :func:`robustpapers.runner.parallel_map`).
    tol : float
        Solver tolerance (Clarabel gaps, DFP gradient infinity norm, LIBSVM KKT tolerance).
    bias : {"robust", "svm"}
        ``"robust"``: the rule of 003 §3 on :math:`\bar K` (:func:`robust_bias`); ``"svm"``: the KKT bias on the
        kernel actually optimised (only for ``"qp"``).
    callback : callable, optional
        QN: called as ``callback(start, objective)`` after each start.

    Returns
    -------
    SolverResult
        ``alpha``, ``b``, ``objective`` (000 eq. 7 at ``alpha``), ``t`` (the constraint's left side),
        ``beta`` (the beta actually used), ``method``; for ``"qn"`` also ``start_objectives``.

    Examples
    --------
    >>> import numpy as np
    >>> from robustpapers.bhadra2010 import rsvm
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]]); y = np.array([-1, -1, 1, 1])
    >>> res = rsvm(X @ X.T, y, C=10.0, beta=0.1, kappa=1.0, method="qp")
    >>> bool(abs(res.alpha @ y) < 1e-8)
    True
    """
    y = check_binary_labels(y)
    n = y.size
    K_bar = check_kernel(K_bar, name="K_bar", n=n, symmetric=True)
    C = check_positive(C, "C")
    kappa = check_finite_array(kappa, "kappa", ndim=0)
    kappa = float(kappa)
    if kappa < 0:
        raise ValueError(f"kappa must be >= 0, got {kappa}")
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    if beta_approx not in (None, "principal", "psd"):
        raise ValueError(f"beta_approx must be None, 'principal' or 'psd', got {beta_approx!r}")
    if bias not in ("robust", "svm"):
        raise ValueError(f"bias must be 'robust' or 'svm', got {bias!r}")
    beta_in = check_finite_array(beta, "beta")
    if np.any(beta_in < 0):
        raise ValueError("beta must be non-negative entrywise (beta_ij = sigma_ij^2 or (l_ij gamma_ij)^2)")
    B, form = _as_beta(beta_in, n)
    trace = Trace()
    t0 = time.perf_counter()
    extra = {}

    if method == "qp":
        if form == "iid":
            bvec = np.full(n, np.sqrt(float(beta_in)))
        elif form == "vector":
            bvec = beta_in.astype(float)
        elif beta_approx == "principal":
            bvec = principal_rank_one(B)
        else:
            bvec = rank_one_factor(B)
        B = np.outer(bvec, bvec)
        sol = svm_dual(K_bar + kappa * np.diag(bvec), y, C, tol=tol)
        alpha = sol.alpha
        success, nit, message = True, 1, "SVM on K_bar + kappa diag(b) (003 Theorems 4-5)"
        svm_b = sol.b
        extra["b_vector"] = bvec
    elif method == "socp":
        if beta_approx == "psd":
            B = psd_clip(B)
        elif beta_approx == "principal":
            bvec = principal_rank_one(B)
            B = np.outer(bvec, bvec)
        if not is_psd(B):
            raise ValueError("beta is not positive semidefinite; method='socp' needs PSD beta (003 Theorem 6): "
                             "use beta_approx='psd' (nearest PSD, the paper's §5.1 choice) or method='qn'")
        if not is_psd(K_bar):
            raise ValueError("K_bar is not positive semidefinite; method='socp' needs a PSD mean kernel")
        prob, alpha = _socp(K_bar, y, B, kappa, C, tol, verbose)
        success = prob.status in ("optimal",)
        if alpha is None:
            raise RuntimeError(f"SOCP solver failed with status {prob.status}")
        if not success:
            warn_not_converged("rsvm(method='socp')", "tol", f"solver status {prob.status}")
        alpha = np.clip(alpha, 0.0, C)
        nit = int(prob.solver_stats.num_iters or 0) if prob.solver_stats is not None else 0
        message = f"cvxpy {prob.solver_stats.solver_name if prob.solver_stats else ''}: {prob.status}"
        svm_b = None
    else:  # qn
        if beta_approx == "psd":
            B = psd_clip(B)
        elif beta_approx == "principal":
            bvec = principal_rank_one(B)
            B = np.outer(bvec, bvec)
        n_starts = int(n_starts)
        if n_starts < 1:
            raise ValueError(f"n_starts must be >= 1, got {n_starts}")
        penalty = check_positive(penalty, "penalty")
        rng = check_random_state(random_state)
        starts = [project_svm_set(rng.uniform(0, C, n), y, C) for _ in range(n_starts)]
        scale = max(1.0, float(np.abs(np.diag(K_bar)).max()) * C)
        penalties = [penalty * scale * 10.0**k for k in (-3, -2, -1, 0)]
        args = (K_bar, y, B, kappa, C, penalties, tol, int(max_iter))
        if n_jobs == 1:
            outs = []
            for k, a0 in enumerate(starts):
                outs.append(_qn_one_start(a0, *args))
                trace.record(objective=outs[-1][1], start=k)
                if callback is not None:
                    callback(k, outs[-1][1])
        else:
            outs = parallel_map(_qn_start_packed, [(a0, *args) for a0 in starts], n_jobs=n_jobs)
            for k, o in enumerate(outs):
                trace.record(objective=o[1], start=k)
                if callback is not None:
                    callback(k, o[1])
        objs = np.array([o[1] for o in outs])
        best = int(np.argmax(objs))
        alpha = outs[best][0]
        nit = int(sum(o[2] for o in outs))
        success = bool(outs[best][3])
        if not success:
            warn_not_converged("rsvm(method='qn')", "max_iter", "the best start's DFP run hit max_iter")
        message = f"DFP quasi-Newton, best of {n_starts} starts"
        extra["start_objectives"] = objs
        extra["best_start"] = best
        svm_b = None

    if bias == "svm":
        if method != "qp":
            raise ValueError("bias='svm' is available only for method='qp'")
        b = float(svm_b)
    else:
        b = robust_bias(K_bar, y, alpha, C, sv_tol=sv_tol)
    objective = rsvm_objective(K_bar, y, B, kappa, alpha)
    if method != "qn":
        trace.record(objective=objective)
    return SolverResult(x=alpha, alpha=alpha, b=b, objective=objective, success=success, nit=nit,
                        message=message, trace=trace, method=method, kappa=kappa, beta=B,
                        t=rsvm_constraint_value(K_bar, y, B, kappa, alpha),
                        wall_time=time.perf_counter() - t0, **extra)
