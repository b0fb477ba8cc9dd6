r"""RSVM (bhadra2010 eq. 15 = bental2012 eq. 7) by QP (Theorems 4-5), SOCP (Theorem 6, bental2012 eq. 22) and QN (eq. 17).

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
from typing import Any, Callable, Sequence

import numpy as np
from joblib import effective_n_jobs

from ..core.parallel import parallel_map
from ..core.seeding import check_random_state
from ..core import (
    SolverResult, Trace, check_binary_labels, check_finite_array, check_kernel, check_positive, check_psd,
    is_psd, project_svm_set, psd_clip, support_vectors, svm_dual, warn_not_converged,
)

__all__ = [
    "rsvm", "rsvm_many", "rsvm_objective", "rsvm_constraint_value", "rsvm_kkt_residual", "robust_bias",
    "rsvm_decision_function",
    "rank_one_factor", "principal_rank_one", "qn_penalty",
]

METHODS = ("qp", "socp", "qn")
_C2 = 0.1
_WARM_H = True
_QN_BATCH = 50  # QN starts run side by side (the fastest of 10, 25, 50 and 100 on a paper-scale Fig. 1 task, n = 100)
_QN_BATCH_BYTES = 32e6  # at most this much of DFP's inverse-Hessian approximations (n x n per start) per batch


def _sqrt_term(beta, alpha):
    a2 = alpha**2
    return float(np.sqrt(max(a2 @ beta @ a2, 0.0)))


def rsvm_constraint_value(K_bar: np.ndarray, y: np.ndarray, beta: np.ndarray, kappa: float, alpha: np.ndarray
) -> float:
    r"""Left side of the constraint of bhadra2010 eq. (15) (bental2012 eq. 7): the smallest feasible t at ``alpha``.

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


def rsvm_objective(K_bar: np.ndarray, y: np.ndarray, beta: Any, kappa: float, alpha: np.ndarray) -> Any:
    r"""The objective of bhadra2010 eq. (15) / bental2012 eq. (7), as a maximisation, at ``alpha``.

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


def rsvm_kkt_residual(K_bar: np.ndarray, y: np.ndarray, beta: np.ndarray, kappa: float, C: float,
                      alpha: np.ndarray, rtol: float = 1e-3) -> float:
    r"""Stationarity of ``alpha`` for bhadra2010 eq. (15): the smallest KKT violation over the bias multiplier b.

    With :math:`f(\alpha) = \tfrac12 t(\alpha) - e^\top\alpha` (:func:`rsvm_constraint_value`) minimised over
    :math:`S_n`, a KKT point has a b with :math:`r = \nabla f(\alpha) + b\,y` satisfying :math:`r_i = 0` for free
    :math:`\alpha_i`, :math:`r_i \ge 0` at :math:`\alpha_i = 0` and :math:`r_i \le 0` at :math:`\alpha_i = C`:

    .. math::

        \rho(\alpha) = \min_b \max_i \begin{cases} |r_i| & 0 < \alpha_i < C\\ \max(0, -r_i) & \alpha_i = 0\\
        \max(0, r_i) & \alpha_i = C\end{cases}

    (:math:`\alpha_i \le` ``rtol`` :math:`\max_j\alpha_j` counts as 0, :math:`\alpha_i \ge (1-` ``rtol`` :math:`)C` as C).
    The default ``rtol = 1e-3`` absorbs the entries that the square penalty leaves at a small positive
    value where the optimum has 0 (QN's alpha is exact only up to the penalty's violation, about
    :math:`10^{-4}\max_j\alpha_j`, which moves the objective only to second order).
    Every :math:`r_i` has slope :math:`\pm1` in b, so the minimum is exact: :math:`\max(0, (I + D)/2)` with I
    (D) the largest intercept of the increasing (decreasing) pieces. The linear term has unit gradient,
    so :math:`\rho` is an absolute, kernel-scale-free measure (0 at a KKT point; at a non-convex beta,
    a KKT point may be a local optimum). At :math:`\alpha = 0` it is 1.

    Parameters
    ----------
    K_bar : array (n, n)
    y : array (n,) of +-1
    beta : array (n, n)
    kappa : float
    C : float > 0
    alpha : array (n,)
    rtol : float
        Relative threshold of the active bounds.

    Returns
    -------
    float

    Examples
    --------
    >>> import numpy as np
    >>> rsvm_kkt_residual(np.eye(2), np.array([1.0, -1.0]), np.zeros((2, 2)), 0.0, 10.0, np.array([1.0, 1.0]))
    0.0
    """
    y = check_binary_labels(y)
    n = y.size
    K_bar = check_kernel(K_bar, name="K_bar", n=n)
    C = check_positive(C, "C")
    alpha = check_finite_array(alpha, "alpha", ndim=1)
    beta = check_finite_array(beta, "beta", ndim=2)
    if alpha.size != n or beta.shape != (n, n):
        raise ValueError(f"alpha must have length {n} and beta shape ({n}, {n}); got {alpha.shape} and {beta.shape}")
    ya = y * alpha
    a2 = alpha**2
    Ba2 = beta @ a2
    sq = np.sqrt(max(float(a2 @ Ba2), 0.0))
    g = y * (K_bar @ ya) - 1.0
    if sq > 1e-300:
        g = g + kappa * alpha * Ba2 / sq
    top = float(alpha.max(initial=0.0))
    low = alpha <= rtol * top
    up = (alpha >= (1.0 - rtol) * C) & ~low
    free = ~low & ~up
    # r_i = g_i + b y_i: the increasing pieces (slope +1) and decreasing ones (slope -1), as intercepts
    inc = np.concatenate([g[free & (y > 0)], -g[free & (y < 0)], g[up & (y > 0)], -g[low & (y < 0)]])
    dec = np.concatenate([-g[free & (y > 0)], g[free & (y < 0)], -g[low & (y > 0)], g[up & (y < 0)]])
    if inc.size == 0 or dec.size == 0:
        return 0.0
    return float(max(0.0, (inc.max() + dec.max()) / 2))


def rank_one_factor(beta: Any, rtol: float = 1e-8) -> Any:
    r"""The vector :math:`b\ge0` with :math:`\beta = bb^\top`, or ``ValueError`` if beta is not rank one.

    A non-negative rank-one symmetric matrix has :math:`b_i=\sqrt{\beta_{ii}}` (Theorem 4);
    the factorisation is accepted if :math:`\|\beta - bb^\top\|_F \le` ``rtol`` :math:`\|\beta\|_F`.
    """
    d = np.sqrt(np.maximum(np.diag(beta), 0.0))
    err = np.linalg.norm(beta - np.outer(d, d))
    if err > rtol * max(float(np.linalg.norm(beta)), 1e-300):
        raise ValueError(
            f"beta is not rank one (||beta - b b'||_F / ||beta||_F = {err / max(float(np.linalg.norm(beta)), 1e-300):.3g}); "
            "method='qp' needs beta = b b' (bhadra2010 Theorem 4): pass the vector b, an i.i.d. scalar, "
            "or beta_approx='principal' for the paper's principal-eigenvector approximation"
        )
    return d


def principal_rank_one(beta: Any) -> Any:
    r"""The paper's rank-one approximation (bhadra2010 §5.1): :math:`\beta\approx\lambda_{\max}vv^\top`, returned as :math:`b=\sqrt{\lambda_{\max}}|v|`.

    For a non-negative symmetric beta the principal eigenvector can be taken non-negative (Perron-Frobenius).
    """
    w, V = np.linalg.eigh((beta + beta.T) / 2)
    return np.sqrt(max(w[-1], 0.0)) * np.abs(V[:, -1])


def robust_bias(K_bar: np.ndarray, y: np.ndarray, alpha: np.ndarray, C: float, sv_tol: float = 1e-4) -> Any:
    r"""The bias rule of bhadra2010 §3 over all support vectors SV = {alpha_i > sv_tol * C}.

    .. math::

        b = \frac{1}{|SV|}\Bigl[\sum_{j\in SV} y_j - \sum_{i,j\in SV} y_i\alpha_i\bar K_{ij}\Bigr].

    Unlike the usual SVM bias (free support vectors only), all support vectors, bounded ones included,
    are averaged, on the mean kernel. If no :math:`\alpha_i` exceeds ``sv_tol`` :math:`\cdot C` (the optimal
    alpha can be orders of magnitude below C, e.g. on bental2012's D_U data at C = 100), SV is
    :math:`\{\alpha_i > \text{sv\_tol}\cdot\max_j\alpha_j\}` instead of an empty set (whose mean is NaN;
    :func:`robustpapers.core.support_vectors`).

    Examples
    --------
    >>> import numpy as np
    >>> robust_bias(np.eye(2), np.array([1.0, -1.0]), np.array([0.5, 0.5]), C=1.0)
    0.0
    """
    alpha = np.asarray(alpha, float)
    sv = support_vectors(alpha, C, rtol=sv_tol)
    if not sv.any():
        return 0.0
    ya = (y * alpha)[sv]
    f = K_bar[np.ix_(sv, sv)] @ ya
    return float(np.mean(y[sv] - f))


def rsvm_decision_function(K_test: np.ndarray, y: np.ndarray, alpha: np.ndarray, b: Any) -> Any:
    r"""Decision values :math:`f_t = \sum_{j} \alpha_j y_j K_{tj} + b` (bhadra2010 §3–4); ``K_test`` of shape (..., m, n).

    A stack of sampled kernels (n_s, m, n) gives the (n_s, m) decisions :math:`f^s_t` of bhadra2010 §4.

    Examples
    --------
    >>> import numpy as np
    >>> rsvm_decision_function(np.eye(2), np.array([1.0, -1.0]), np.array([1.0, 1.0]), 0.5).tolist()
    [1.5, -0.5]
    """
    return np.asarray(K_test) @ (np.asarray(alpha) * np.asarray(y)) + b


# ----------------------------------------------------------------------------- QN (eq. 17)
#
# DFP runs on a batch of starts at once: every array below has one row per start still running, so that one
# NumPy call serves all of them. Each row follows its own DFP iteration exactly as a run from that start alone
# would, to the last bit: every operation acts on each row alone (a product with K_bar or beta is one
# matrix-vector product per row, not a matrix product whose rounding depends on the other rows). Rows leave
# the batch as they stop.

def _rowdot(A, B):
    """The dot product of each row of A with the same row of B (or with the vector B)."""
    return np.vecdot(A, B)


def _rowmat(M, A):
    """M a for each row a of A."""
    return np.matmul(M, A[:, :, None])[:, :, 0]


def qn_penalty(alpha: np.ndarray, K_bar: np.ndarray, y: np.ndarray, beta: Any, kappa: float, C: float,
               penalty: float) -> Any:
    r"""Square-penalty function of bhadra2010 eq. (17) and its gradient (our reconstruction).

    .. math::

        L(\alpha) = \tfrac12\alpha^\top Y\bar KY\alpha + \tfrac{\kappa}{2}
        \sqrt{\textstyle\sum_{ij}\beta_{ij}\alpha_i^2\alpha_j^2} - e^\top\alpha
        + \tfrac P2\Bigl[(y^\top\alpha)^2 + \sum_{\alpha_i>C}(\alpha_i-C)^2 + \sum_{\alpha_i<0}\alpha_i^2\Bigr].
    """
    X = np.asarray(alpha, dtype=float)[None, :]
    YA, A2 = y * X, X * X
    val, grad = _penalty_rows(X, YA, _rowmat(K_bar, YA), A2, _rowmat(beta, A2), y, np.array([float(kappa)]),
                              np.array([float(C)]), np.array([float(penalty)]))
    return float(val[0]), grad[0]


def _penalty_rows(X, YA, KYA, A2, BA2, y, kappa, C, P):
    """:func:`qn_penalty` at each row of X given the products ``KYA`` (rows K_bar (y x)) and ``BA2`` (rows
    beta x^2); ``kappa``, ``C`` and ``P`` one per row."""
    r = np.sqrt(np.maximum(_rowdot(A2, BA2), 0.0))
    yx = _rowdot(X, y)
    over, under = np.maximum(X - C[:, None], 0.0), np.minimum(X, 0.0)
    val = (0.5 * _rowdot(YA, KYA) + 0.5 * kappa * r - X.sum(axis=1)
           + 0.5 * P * (yx**2 + _rowdot(over, over) + _rowdot(under, under)))
    grad = y * KYA - 1.0 + P[:, None] * (yx[:, None] * y + over + under)
    pos = r > 1e-300
    if pos.all():
        grad += kappa[:, None] * X * BA2 / r[:, None]
    elif pos.any():
        grad[pos] += kappa[pos, None] * X[pos] * BA2[pos] / r[pos, None]
    return val, grad


class _RowPenalties:
    """What a line search of :func:`_dfp_minimise` keeps per row: the penalty's ``kappa``, ``C`` and ``P``
    (scalars broadcast to one per row), dropped with the rows that stop."""

    def __init__(self, K_bar, y, beta, kappa, C, P):
        self.K, self.y, self.beta = K_bar, y, beta
        self.P = np.array(P, dtype=float, ndmin=1)
        self.kappa, self.C = (np.broadcast_to(np.asarray(v, dtype=float), self.P.shape).copy() for v in (kappa, C))

    def keep(self, mask):
        """Drop the rows where ``mask`` is False (their runs have stopped)."""
        self.P, self.kappa, self.C = self.P[mask], self.kappa[mask], self.C[mask]


class _ExactSearch(_RowPenalties):
    r"""DFP's line search on the one-dimensional restriction :math:`\phi(s) = L(x + sd)` of the penalty (eq. 17),
    for a batch of points (rows of X) and directions at once, each with its own ``kappa``, ``C`` and penalty
    ``P``.

    Along a line every term of L is a polynomial in s once a few products are known:
    :math:`(Y(x+sd))^\top\bar K\,Y(x+sd)` is quadratic, :math:`\sum\beta_{ij}a_i^2a_j^2` with
    :math:`a = x + sd` is the quartic :math:`\sum_{p,q} s^{p+q}u_p^\top\beta u_q`
    (:math:`u_0 = x^2, u_1 = 2x\circ d, u_2 = d^2`), and the penalty is piecewise quadratic. After one product
    with :math:`\bar K` and two with beta, :math:`\phi'` and :math:`\phi''` cost O(n): a safeguarded Newton
    iteration on :math:`\phi'` (bisection inside the bracket, at most a fourfold step before one is found) stops
    at :math:`|\phi'(s)| \le c_2|\phi'(0)|`, the strong Wolfe curvature condition, starting from the Newton
    step :math:`-\phi'(0)/\phi''(0)` (the caller checks
    sufficient decrease). The products :math:`\bar KYx` and :math:`\beta x^2` at the new point follow from the
    line's (recomputed every ``refresh`` searches of a row against rounding drift), so a DFP iteration costs four
    products with an n x n matrix, two of them DFP's own.
    """

    def __init__(self, K_bar, y, beta, kappa, C, P, refresh=50, max_eval=40):
        super().__init__(K_bar, y, beta, kappa, C, P)
        self.refresh, self.max_eval = refresh, max_eval
        self.n_search = np.zeros(self.P.size, dtype=int)
        self.prod = None

    def keep(self, mask):
        super().keep(mask)
        self.n_search = self.n_search[mask]
        self.prod = [p[mask] for p in self.prod]

    def _products(self, X):
        YA, A2 = self.y * X, X * X
        return [YA, _rowmat(self.K, YA), A2, _rowmat(self.beta, A2)]

    def at(self, X, rows=None):
        """L and its gradient at the rows of X (all rows, or the batch's ``rows`` given as X's rows)."""
        prod = self._products(X)
        if rows is None:
            self.prod = prod
            rows = slice(None)
        else:
            for old, new in zip(self.prod, prod):
                old[rows] = new
        return _penalty_rows(X, *prod, self.y, self.kappa[rows], self.C[rows], self.P[rows])

    def _restriction(self, X, D):
        """The restriction of L to the lines x + s d, one per row: the arguments of :func:`_dphi` (per-row
        coefficients and arrays, O(n) per row and trial) and the products the update of :meth:`search` needs."""
        y, P = self.y, self.P
        YA, KYA, A2, BA2 = self.prod
        YD = y * D
        KYD = _rowmat(self.K, YD)
        U1, U2 = 2.0 * X * D, D * D
        BU1, BU2 = _rowmat(self.beta, U1), _rowmat(self.beta, U2)
        Aq, ydd = _rowdot(YD, KYD), _rowdot(D, y)
        q1, q2 = 2.0 * _rowdot(A2, BU1), 2.0 * _rowdot(A2, BU2) + _rowdot(U1, BU1)
        q3, q4 = 2.0 * _rowdot(U1, BU2), _rowdot(U2, BU2)
        zero = np.zeros_like(q1)
        # coefficients of (1, s, ..., s^4) in the quartic q(s) = sum beta_ij a_i^2 a_j^2, in q'(s) and in q''(s)
        poly = np.stack([np.stack([_rowdot(A2, BA2), q1, q2, q3, q4], axis=1),
                         np.stack([q1, 2.0 * q2, 3.0 * q3, 4.0 * q4, zero], axis=1),
                         np.stack([2.0 * q2, 6.0 * q3, 12.0 * q4, zero, zero], axis=1)], axis=1)
        # the rest of phi' without the box term is lin0 + s lin1 (quadratic part and (y'a)^2 penalty)
        lin0 = _rowdot(YA, KYD) - D.sum(axis=1) + P * _rowdot(X, y) * ydd
        lin1 = Aq + P * (ydd * ydd)
        return (poly, lin0, lin1, P, self.kappa, self.C, X, D, U2), (KYD, BU1, BU2)

    def search(self, X, F, G, D):
        """A step along each row of D meeting the strong Wolfe curvature condition (NaN where none was found),
        and L and its gradient at the new points (rows with a step only)."""
        m = X.shape[0]
        args, (KYD, BU1, BU2) = self._restriction(X, D)
        g0, h0 = _dphi(np.zeros(m), *args)
        step = np.full(m, np.nan)
        s = np.flatnonzero(g0 < 0)
        if s.size < m:
            args = tuple(a[s] for a in args)
        g0, h0 = g0[s], h0[s]
        # first trial: the Newton step of phi at 0 (phi is nearly quadratic; DFP's unit step is often
        # tens of times too short, which cost a fourfold expansion per trial)
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(h0 > 0, -g0 / h0, 1.0)
        lo, hi, target = np.zeros(s.size), np.full(s.size, np.inf), _C2 * -g0
        for _ in range(self.max_eval):
            if s.size == 0:
                break
            g1, h1 = _dphi(t, *args)
            acc = np.abs(g1) <= target
            if acc.any():
                step[s[acc]] = t[acc]
                go = ~acc
                s, t, g1, h1, lo, hi, target = s[go], t[go], g1[go], h1[go], lo[go], hi[go], target[go]
                if s.size == 0:
                    break
                args = tuple(a[go] for a in args)
            neg = g1 < 0
            lo, hi = np.where(neg, t, lo), np.where(neg, hi, t)
            with np.errstate(divide="ignore", invalid="ignore"):
                tn = np.where(h1 > 0, t - g1 / h1, np.inf)
                grow = np.where(tn > t, np.minimum(tn, 4.0 * t), 4.0 * t)
                inside = (lo < tn) & (tn < hi)
            t = np.where(np.isfinite(hi), np.where(inside, tn, 0.5 * (lo + hi)), grow)
        if s.size:  # still searching after max_eval trials: the last trial point if it is past a descent point
            last = lo > 0
            step[s[last]] = t[last]

        ok = np.flatnonzero(np.isfinite(step))
        FN, GN = np.full(m, np.nan), np.full_like(X, np.nan)
        if ok.size == 0:
            return step, FN, GN
        sel = slice(None) if ok.size == m else ok
        self.n_search[sel] += 1
        st = step[sel]
        XN = X[sel] + st[:, None] * D[sel]
        YA, KYA, A2, BA2 = self.prod
        KYA[sel] = KYA[sel] + st[:, None] * KYD[sel]
        BA2[sel] = BA2[sel] + st[:, None] * BU1[sel] + (st * st)[:, None] * BU2[sel]
        YA[sel], A2[sel] = self.y * XN, XN * XN
        fresh = self.n_search[sel] % self.refresh == 0
        if fresh.any():
            rows = ok[fresh]
            for p, new in zip(self.prod, self._products(XN[fresh])):
                p[rows] = new
        FN[sel], GN[sel] = _penalty_rows(XN, YA[sel], KYA[sel], A2[sel], BA2[sel], self.y, self.kappa[sel],
                                         self.C[sel], self.P[sel])
        return step, FN, GN


_POWERS = np.arange(5.0)


def _dphi(t, poly, lin0, lin1, P, kappa, C, X, D, U2):
    """phi'(t) and phi''(t) of :class:`_ExactSearch`'s restrictions, one trial step t per row (the rows of the
    arguments of :meth:`_ExactSearch._restriction`)."""
    q, dq, ddq = np.vecdot(poly, (t[:, None] ** _POWERS)[:, None, :]).T
    A = X + t[:, None] * D
    dev = A - np.minimum(np.maximum(A, 0.0), C[:, None])  # the box violation (a - C where a > C, a where a < 0)
    g1 = lin0 + t * lin1 + P * _rowdot(D, dev)
    h1 = lin1 + P * _rowdot(U2, (dev != 0).astype(float))
    pos = q > 0
    if pos.all():
        rt = np.sqrt(q)
        g1 += kappa * dq / (4.0 * rt)
        h1 += kappa * (ddq / (4.0 * rt) - dq * dq / (8.0 * rt * q))
    elif pos.any():
        qp, dqp, kp = q[pos], dq[pos], kappa[pos]
        rt = np.sqrt(qp)
        g1[pos] += kp * dqp / (4.0 * rt)
        h1[pos] += kp * (ddq[pos] / (4.0 * rt) - dqp * dqp / (8.0 * rt * qp))
    return g1, h1


class _WolfeSearch(_RowPenalties):
    """DFP's earlier line search: scipy's strong-Wolfe search (c2 = 0.1) on the penalty L as a black box,
    row by row."""

    def _fun(self, x, i):
        return qn_penalty(x, self.K, self.y, self.beta, self.kappa[i], self.C[i], self.P[i])

    def at(self, X, rows=None):
        rows = np.arange(X.shape[0]) if rows is None else rows
        vals = [self._fun(x, i) for x, i in zip(X, rows)]
        return np.array([v for v, _ in vals]), np.array([g for _, g in vals]).reshape(X.shape)

    def search(self, X, F, G, D):
        from scipy.optimize import line_search
        from scipy.optimize._linesearch import LineSearchWarning

        step, FN, GN = np.full(X.shape[0], np.nan), np.full(X.shape[0], np.nan), np.full_like(X, np.nan)
        for i in range(X.shape[0]):
            last = {}

            def f_only(z, i=i, last=last):
                v, g_ = self._fun(z, i)
                last["z"], last["g"] = z.copy(), g_
                return v

            def g_only(z, i=i, last=last):
                return last["g"] if "z" in last and np.array_equal(last["z"], z) else self._fun(z, i)[1]

            with warnings.catch_warnings():
                warnings.simplefilter("ignore", LineSearchWarning)
                s = line_search(f_only, g_only, X[i], D[i], gfk=G[i], old_fval=F[i], c1=1e-4, c2=_C2,
                                maxiter=30)[0]
            if s is not None:
                step[i] = s
                FN[i], GN[i] = self._fun(X[i] + s * D[i], i)
        return step, FN, GN


def _low_rank(W, c):
    """sum_j c_ij w_ij w_ij' for each row i (W (m, k, n), c (m, k))."""
    return np.matmul(W.transpose(0, 2, 1) * c[:, None, :], W)


class _InverseHessians:
    """DFP's inverse-Hessian approximations of a batch of runs, H_i = B_i + sum_j c_ij w_ij w_ij' with the
    rank-one terms of the last few iterations kept apart and folded into B every ``fold`` iterations: applying H
    then reads each B once, where adding two outer products to it at every iteration would rewrite it twice
    (the batch's matrices do not fit in cache: that was most of DFP's time). Every iteration takes two terms
    (zero for a row not updated), so when a row's terms are folded depends on the iteration count alone: a row
    gets the same H to the last bit whichever rows share its batch."""

    def __init__(self, B, fold=8):
        self.B = B
        m, n = B.shape[:2]
        self.W, self.c, self.k = np.zeros((m, 2 * fold, n)), np.zeros((m, 2 * fold)), 0

    def apply(self, V):
        """H_i v_i for each row v_i of V."""
        out = _rowmat(self.B, V)
        if self.k:
            W = self.W[:, :self.k]
            out += np.einsum("mkn,mk->mn", W, self.c[:, :self.k] * np.einsum("mkn,mn->mk", W, V))
        return out

    def update(self, rows, S, sq, Hq, qHq):
        """One iteration's DFP update H + ss'/(s'q) - Hqq'H/(q'Hq) of the given rows (the others keep H)."""
        k = self.k
        self.W[:, k:k + 2] = 0.0
        self.c[:, k:k + 2] = 0.0
        self.W[rows, k], self.c[rows, k] = S, 1.0 / sq
        self.W[rows, k + 1], self.c[rows, k + 1] = Hq, -1.0 / qHq
        self.k += 2
        if self.k == self.W.shape[1]:
            self.B += _low_rank(self.W, self.c)
            self.k = 0

    def reset(self, rows, h0):
        """H = h0 I for the given rows."""
        self.B[rows] = h0[:, None, None] * np.eye(self.B.shape[1])
        self.c[rows] = 0.0

    def dense(self, rows):
        """The matrices H of the given rows."""
        B = self.B[rows]
        if self.k:
            B += _low_rank(self.W[rows, :self.k], self.c[rows, :self.k])
        return B

    def keep(self, mask):
        self.B, self.W, self.c = self.B[mask], self.W[mask], self.c[mask]


def _dfp_minimise(search, X0, tol, max_iter, H0=None, h0=1.0, fscale=1.0, rel=False):
    """DFP quasi-Newton (bhadra2010 §3: alpha_{t+1} = alpha_t - eta_t H_t grad L) with a strong-Wolfe line search, from
    each row of ``X0`` (one independent run per row, run side by side).

    ``search``: :class:`_ExactSearch` (default of :func:`rsvm`) or :class:`_WolfeSearch`, one penalty per row.
    The inverse-Hessian approximation H (``H0`` (m, n, n), warm-started from the previous penalty stage, else
    ``h0`` times the identity, ``h0`` (a scalar or one per row) the inverse curvature of the problem) is updated
    by the Davidon-Fletcher-Powell formula H + ss'/(s'q) - Hqq'H/(q'Hq) (q the change of gradient) when the
    curvature s'q is positive, else reset to ``h0`` I. DFP needs accurate line searches, hence strong Wolfe with
    c2 = 0.1, and Armijo backtracking where the search fails or does not decrease L enough. A run stops when the
    gradient's infinity norm is below ``tol`` (absolute: the linear term e'alpha has unit gradient, so this is
    invariant to the scale of the kernel; ``rel=True``: times max(1, |L|), the unscaled scheme's rule) or a step
    no longer decreases L by 1e-14 relative to max(|L|, ``fscale``).
    Returns (X, F, nit, status, H), one row (entry) per start; ``status`` is ``"tol"`` (gradient test met),
    ``"stalled"`` (no further decrease: converged to working precision), ``"line_search"`` (not even Armijo
    backtracking found a decrease before the gradient test was met: a numerical floor above ``tol``) or
    ``"max_iter"``.
    """
    X = np.array(X0, dtype=float, ndmin=2)
    m, n = X.shape
    h0 = np.broadcast_to(np.asarray(h0, dtype=float), (m,)).copy()
    fscale = np.broadcast_to(np.asarray(fscale, dtype=float), (m,)).copy()
    F, G = search.at(X)
    H = _InverseHessians(h0[:, None, None] * np.eye(n) if H0 is None else np.array(H0, dtype=float))
    res_X, res_F, res_H = X.copy(), F.copy(), np.empty((m, n, n))
    res_nit, res_status = np.zeros(m, dtype=int), np.empty(m, dtype=object)
    live = np.arange(m)  # which start each current row is

    def small(G, F):
        return np.max(np.abs(G), axis=1) <= tol * (np.maximum(1.0, np.abs(F)) if rel else 1.0)

    def stop(mask, nit, status):
        """Record the rows in ``mask`` as finished and drop them from the batch."""
        nonlocal X, F, G, h0, fscale, live
        ids = live[mask]
        res_X[ids], res_F[ids], res_H[ids] = X[mask], F[mask], H.dense(mask)
        res_nit[ids], res_status[ids] = nit, np.asarray(status, dtype=object)[mask] if np.ndim(status) else status
        keep = ~mask
        X, F, G, h0, fscale, live = X[keep], F[keep], G[keep], h0[keep], fscale[keep], live[keep]
        H.keep(keep)
        search.keep(keep)

    for it in range(1, max_iter + 1):
        done = small(G, F)
        if done.any():
            stop(done, it - 1, "tol")
        if live.size == 0:
            break
        D = -H.apply(G)
        slope = _rowdot(G, D)
        bad = slope >= 0  # not a descent direction: restart with (scaled) steepest descent
        if bad.any():
            H.reset(bad, h0[bad])
            D[bad] = -h0[bad, None] * G[bad]
            slope[bad] = -h0[bad] * _rowdot(G[bad], G[bad])
        step, FN, GN = search.search(X, F, G, D)
        floor = np.zeros(live.size, dtype=bool)
        with np.errstate(invalid="ignore"):
            weak = ~(FN <= F + 1e-4 * step * slope)
        for i in np.flatnonzero(weak):  # Armijo backtracking as a fallback
            s = 1.0
            while s > 1e-16:
                fi, gi = search.at(X[i:i + 1] + s * D[i:i + 1], rows=np.array([i]))
                if fi[0] <= F[i] + 1e-4 * s * slope[i]:
                    break
                s *= 0.5
            if s <= 1e-16:
                floor[i] = True
            else:
                step[i], FN[i], GN[i] = s, fi[0], gi[0]
        moved = ~floor
        XN = X + np.where(moved, step, 0.0)[:, None] * D
        S, Q = XN - X, GN - G
        with np.errstate(invalid="ignore"):
            sq = _rowdot(S, Q)
            curved = moved & (sq > 1e-14 * np.linalg.norm(S, axis=1) * np.linalg.norm(Q, axis=1))
        Hq = H.apply(np.where(curved[:, None], Q, 0.0)) if curved.any() else np.zeros_like(Q)
        H.update(curved, S[curved], sq[curved], Hq[curved], _rowdot(Q[curved], Hq[curved]))
        reset = moved & ~curved
        if reset.any():
            H.reset(reset, h0[reset])
        with np.errstate(invalid="ignore"):
            flat = moved & (F - FN <= 1e-14 * np.maximum(fscale, np.abs(F)))
        X[moved], F[moved], G[moved] = XN[moved], FN[moved], GN[moved]
        ended = floor | flat
        if ended.any():
            stop(ended, it, np.where(floor, "line_search", "stalled"))
    if live.size:
        stop(np.ones(live.size, dtype=bool), max_iter, np.where(small(G, F), "tol", "max_iter"))
    return res_X, res_F, res_nit, res_status, res_H


def _qn_starts_packed(a):
    return _qn_starts(*a)


def _ray_scale(K_bar, y, beta, kappa, C, u):
    r"""The best multiple of a point u of S_n on its ray inside the box: :math:`s^*u`, with
    :math:`s^* = \min(e^\top u / t(u),\ C/\max_i u_i)` (t the constraint value of eq. 15, homogeneous of degree 2,
    so :math:`s\,e^\top u - \tfrac12 s^2t(u)` is maximised at :math:`e^\top u/t(u)`); ``s = C / max u`` if
    :math:`t(u)\le0`."""
    top = float(np.max(u))
    if top <= 0:
        return u
    cap = C / top
    t = rsvm_constraint_value(K_bar, y, beta, kappa, u)
    s = min(float(np.sum(u)) / t, cap) if t > 0 else cap
    return s * u


def _curvature(K_bar, y, beta, kappa, alpha):
    """Curvature of t(alpha)/2 along alpha, t(alpha)/||alpha||^2 (the Rayleigh quotient of eq. 15's
    degree-2 homogeneous term); max_i |K_ii| if that is not positive."""
    nrm2 = float(alpha @ alpha)
    lam = rsvm_constraint_value(K_bar, y, beta, kappa, alpha) / nrm2 if nrm2 > 0 else 0.0
    if not lam > 0:
        lam = float(np.max(np.abs(np.diag(K_bar)))) + kappa * float(np.sqrt(np.max(np.diag(beta))))
    return max(lam, 1e-300)


def _qn_starts(starts, K_bar, y, beta, kappa, C, penalty, tol, max_iter, scaled=True, exact=True):
    r"""DFP runs (four penalty stages each) from the rows of ``starts``, side by side, each with its own ``kappa``
    and ``C`` (scalars or one per start); returns one tuple (alpha, objective, nit, converged, status) per start,
    ``status`` its final stage's (:func:`_dfp_minimise`).

    ``scaled=True`` (the default of :func:`rsvm`): the start is moved to the best point on its ray
    (:func:`_ray_scale`), the penalties are :math:`P_k = 10^k P \lambda` and DFP's initial inverse Hessian is
    :math:`I/\lambda` with :math:`\lambda` the curvature along the start (:func:`_curvature`).
    ``scaled=False``: the previous, unscaled scheme (start as drawn, :math:`P_k = 10^k P\max(1, C\max_i\bar K_{ii})`,
    :math:`H_0 = I`, gradient tolerance relative to :math:`\max(1, |L|)`), kept for comparison: it fails when the
    optimal alpha is far smaller than C (bental2012's D_U data, C = 100).
    ``exact=True``: DFP's line search on the penalty's restriction to the line (:class:`_ExactSearch`);
    ``False``: scipy's strong-Wolfe search on the penalty as a black box (:class:`_WolfeSearch`).
    """
    starts = np.array(starts, dtype=float, ndmin=2)
    kappa, C = (np.broadcast_to(np.asarray(v, dtype=float), (len(starts),)) for v in (kappa, C))
    if scaled:
        X = np.array([_ray_scale(K_bar, y, beta, k, c, a0) for a0, k, c in zip(starts, kappa, C)])
        lam = np.array([_curvature(K_bar, y, beta, k, a) for a, k in zip(X, kappa)])
        base, h0 = penalty * lam, 1.0 / lam
        fscale = np.array([max(abs(rsvm_objective(K_bar, y, beta, k, a)), 1e-300) for a, k in zip(X, kappa)])
    else:
        X = starts.copy()
        kmax = float(np.abs(np.diag(K_bar)).max())
        base = np.array([penalty * max(1.0, kmax * c) for c in C])
        h0, fscale = 1.0, 1.0
    nit, status, H = np.zeros(len(X), dtype=int), None, None
    for k in (-3, -2, -1, 0):
        # intermediate penalty stages only warm-start the next one: a loose tolerance suffices
        tol_k, H0 = (tol if k == 0 else max(tol, 1e-3)), (H if _WARM_H else None)
        search = (_ExactSearch if exact else _WolfeSearch)(K_bar, y, beta, kappa, C, base * 10.0**k)
        X, _, its, status, H = _dfp_minimise(search, X, tol_k, max_iter, H0=H0, h0=h0, fscale=fscale,
                                             rel=not scaled)
        nit += its
    out = []
    for a, its, st, k, c in zip(X, nit, status, kappa, C):
        a = project_svm_set(a, y, float(c))
        out.append((a, rsvm_objective(K_bar, y, beta, float(k), a), int(its), st in ("tol", "stalled"), str(st)))
    return out


# ----------------------------------------------------------------------------- SOCP (Theorem 6)

def _psd_factor(M, name):
    """R with R'R = M (eigenvalues clipped at 0), one row per eigenvalue above M's numerical rank threshold
    n eps max|w| (numpy's matrix_rank): the rows dropped are rounding noise, and a low-rank mean kernel (a linear
    kernel in d dimensions has rank d) gives the SOCP a few dense rows instead of n."""
    w, V = np.linalg.eigh((M + M.T) / 2)
    keep = w > M.shape[0] * np.finfo(float).eps * np.abs(w).max()
    if not keep.any():  # M = 0 (numerically): one zero row keeps the SOCP's shapes valid
        return np.zeros((1, M.shape[0]))
    return (V[:, keep] * np.sqrt(w[keep])).T


def _alpha_scale(K_bar, y, beta, kappa, C):
    r"""A typical size sigma of the optimal alpha and the size of the objective divided by sigma.

    sigma is the largest entry of the QP surrogate's solution (Theorem 4 with :math:`b_i = \sqrt{\beta_{ii}}`,
    i.e. LIBSVM on :math:`\bar K + \kappa\,\mathrm{diag}(b)`, to a loose tolerance): it follows the optimum
    when alpha is far below C and stays at C when the box binds.
    """
    b = np.sqrt(np.maximum(np.diag(beta), 0.0))
    a = svm_dual(K_bar + kappa * np.diag(b), y, C, tol=1e-3).alpha
    sigma = float(a.max())
    if not sigma > 0:
        return float(C), 1.0
    return sigma, abs(rsvm_objective(K_bar, y, beta, kappa, a)) / sigma


def _socp(K_bar, y, beta, kappa, C, tol, verbose):
    """The SOCP of Theorem 6 solved in the variable u = alpha / sigma (:func:`_alpha_scale`).

    Eq. (15) is homogeneous of degree 2 in the kernel terms, so with alpha = sigma u it is sigma times
    the same problem with (sigma K_bar, sigma^2 beta, C / sigma): an exact rescaling that brings u (and
    v = u^2, whose constraint the solver checks to an absolute tolerance) to order one.
    """
    import cvxpy as cp

    n = y.size
    sigma, fscale = _alpha_scale(K_bar, y, beta, kappa, C)
    R = _psd_factor(sigma * K_bar, "K_bar")
    Bh = _psd_factor(sigma**2 * beta, "beta")
    C = C / sigma
    alpha = cp.Variable(n)
    v = cp.Variable(n)
    obj = cp.Minimize(0.5 * cp.sum_squares(R @ cp.multiply(y, alpha)) + 0.5 * kappa * cp.norm(Bh @ v, 2)
                      - cp.sum(alpha))
    cons = [cp.square(alpha) <= v, alpha >= 0, alpha <= C, y @ alpha == 0]
    prob = cp.Problem(obj, cons)
    # the absolute gap relative to the size of the rescaled objective (the relative gap is tol anyway)
    opts = dict(tol_gap_abs=tol * max(1.0, fscale), tol_gap_rel=tol, tol_feas=tol)
    try:
        prob.solve(solver=cp.CLARABEL, verbose=verbose, **opts)
    except cp.error.SolverError:
        prob.solve(solver=cp.SCS, verbose=verbose, eps=tol)
    return prob, (None if alpha.value is None else sigma * alpha.value)


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


def rsvm(K_bar: np.ndarray, y: np.ndarray, C: float, beta: float | np.ndarray, kappa: float,
         method: str = "socp", *, beta_approx: str | None = None, n_starts: int = 100, penalty: float = 1e5,
         tol: float = 1e-7, max_iter: int = 20000, random_state: int | np.random.Generator | None = None,
         n_jobs: int = 1, bias: str = "robust", sv_tol: float = 1e-4, qn_scaling: str = "ray",
         qn_line_search: str = "exact", qn_batch: int | None = None,
         callback: Callable[..., Any] | None = None, verbose: bool = False) -> SolverResult:
    r"""Robust SVM for uncertain kernel entries (bhadra2010 eq. 15 = bental2012 eq. 7).

    .. math::

        \max_{\alpha\in S_n}\; e^\top\alpha - \tfrac12\Bigl(\alpha^\top Y\bar K Y\alpha
        + \kappa\sqrt{\textstyle\sum_{ij}\beta_{ij}\alpha_i^2\alpha_j^2}\Bigr)

    Methods (bhadra2010 §3):

    * ``"qp"`` (Theorems 4-5): for :math:`\beta=bb^\top` the problem is the SVM dual with kernel
      :math:`\bar K+\kappa\,\mathrm{diag}(b)` (i.i.d. noise, scalar beta :math:`=b^2`: :math:`\bar K+\kappa bI`),
      solved by :func:`robustpapers.core.svm_dual`. ``beta`` may be a matrix that is rank one, a vector ``b`` or a
      scalar; ``beta_approx="principal"`` uses the paper's :math:`\lambda_{\max}vv^\top` (§5.1).
    * ``"socp"`` (Theorem 6, bental2012 eq. 22): for PSD :math:`\bar K` and :math:`\beta`, the SOCP
      :math:`\min \tfrac12(\|R Y\alpha\|^2 + \kappa\|\beta^{1/2}v\|) - e^\top\alpha` s.t.
      :math:`\alpha_i^2\le v_i,\ \alpha\in S_n`, solved by cvxpy/Clarabel in the variable
      :math:`\alpha/\sigma` (an exact rescaling; :math:`\sigma` the largest entry of the QP surrogate's solution,
      Theorem 4 with :math:`b_i = \sqrt{\beta_{ii}}`, so that the solver's absolute tolerances are meaningful
      when the optimal alpha is far below 1).
      ``beta_approx="psd"`` first replaces beta by its nearest PSD matrix in Frobenius norm (negative
      eigenvalues clipped), which is the paper's §5.1 approximation :math:`\sum_{\lambda_r>0}\lambda_r v_rv_r^\top`.
      Clipping adds a PSD matrix to beta, so the robustness term can only grow: the clipped problem is a
      convex, conservative restriction of eq. (15) (its solution still meets the chance constraint).
    * ``"qn"`` (eq. 17): the square-penalty function minimised by DFP quasi-Newton from ``n_starts``
      random starts (uniform in the box, projected on :math:`S_n`), with penalty continuation
      :math:`P_k = 10^{k}\,P\,\lambda`, :math:`k=-3,\dots,0`, and a final exact projection
      onto :math:`S_n` (:func:`robustpapers.core.project_svm_set`); the best start is kept.
      ``qn_scaling="ray"`` (default; our addition to the paper's method, which does not say how it
      scales): each start :math:`u` is first moved to the best point :math:`s^*u` of its ray inside the box
      (:math:`s^* = \min(e^\top u/t(u), C/\max_i u_i)`, exact because :math:`t` is homogeneous of degree 2),
      :math:`\lambda = t(s^*u)/\|s^*u\|^2` is the curvature along it, DFP starts from :math:`H_0 = I/\lambda`
      and stops when :math:`\|\nabla L\|_\infty \le` ``tol`` (absolute: :math:`e^\top\alpha` has unit gradient).
      ``qn_scaling=None``: the earlier unscaled scheme (start as drawn, :math:`\lambda = \max(1, C\max_i\bar K_{ii})`,
      :math:`H_0 = I`, tolerance times :math:`\max(1, |L|)`; its defaults were ``penalty=1e3`` and
      ``qn_line_search="wolfe"``), which stalls at
      ``max_iter`` far from the optimum when the optimal alpha is orders of magnitude below C (bental2012's D_U data
      with C = 100). The default final penalty :math:`P = 10^5` (times :math:`\lambda`): the objective lost by the
      final projection onto :math:`S_n` falls like :math:`1/P` (about :math:`10^{-5}` relative at :math:`P = 10^3`).
      ``qn_line_search="exact"`` (default) minimises L along each DFP direction through its one-dimensional
      restriction (a quadratic, the square root of a quartic and a piecewise-quadratic penalty, all known in
      closed form after three matrix-vector products) to the strong Wolfe curvature condition
      :math:`|\phi'(s)|\le0.1|\phi'(0)|`; ``"wolfe"`` uses scipy's strong-Wolfe search on L as a black box
      (the earlier implementation: the same DFP iteration, more evaluations per step; timed side by side by
      ``benchmarks/bhadra2010_socp_vs_qn.py``). The paper does not say which
      line search its DFP uses.
      Works for any non-negative symmetric beta (the problem is then non-convex).
      The starts run side by side in batches (``qn_batch``): every DFP iteration of a batch is a few NumPy calls
      on arrays with one row per start, and each start's inverse-Hessian approximation keeps its last few
      rank-one DFP updates apart, folding them in every eight iterations; on bhadra2010's problems (n = 100, 100 starts)
      this is about three times as fast as one start after the other, with the same iterates to the last bit.

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
        processes for the batches of starts (``qn_batch``; run by :func:`robustpapers.core.parallel_map`).
        ``max_iter`` is a cap: a start that meets ``tol`` stops there. The default 20000 (it was
        2000) lets the best start converge on the paper's Table 1 problems, where 2000 stopped it in a few fits far from a KKT point
        (``benchmarks/bhadra2010_qn_cap.py`` says which, what the larger cap changes and what it costs).
    tol : float
        Solver tolerance (Clarabel gaps, DFP gradient infinity norm, LIBSVM KKT tolerance).
    bias : {"robust", "svm"}
        ``"robust"``: the rule of bhadra2010 §3 on :math:`\bar K` (:func:`robust_bias`); ``"svm"``: the KKT bias on the
        kernel actually optimised (only for ``"qp"``).
    qn_scaling : {"ray", None}
        QN: scaling of the starts, penalties and DFP's initial matrix (see ``"qn"`` above).
    qn_line_search : {"exact", "wolfe"}
        QN: DFP's line search (see ``"qn"`` above).
    qn_batch : int, optional
        QN: how many starts run side by side, as one batch (one NumPy call acts on all of them). ``None``: 50,
        fewer where their n x n DFP matrices would pass 32 MB or where fewer give each of the ``n_jobs`` processes
        a batch; 1: one start after the other. Each start follows its own DFP iteration, and every operation acts
        on each start alone, so the results do not depend on ``qn_batch`` or ``n_jobs`` (to the last bit).
    callback : callable, optional
        QN: called as ``callback(start, objective)`` for each start, in order, once all have ended.

    Returns
    -------
    SolverResult
        ``alpha``, ``b``, ``objective`` (bental2012 eq. 7 at ``alpha``), ``t`` (the constraint's left side),
        ``beta`` (the beta actually used), ``method``, ``kkt_residual`` (:func:`rsvm_kkt_residual` at ``alpha``);
        for ``"qn"`` also ``start_objectives``, ``start_alphas`` (n_starts, n), ``start_converged``,
        ``start_status`` (why each start's last DFP stage stopped: ``"tol"``, ``"stalled"`` (no further decrease),
        ``"line_search"`` (a numerical floor above ``tol``) or ``"max_iter"``; the first two count as converged)
        and ``best_start`` (each start's end point, so that distinct local optima can be told apart and certified
        with :func:`rsvm_kkt_residual`). A best start stopped by ``max_iter`` warns naming ``max_iter``, one stopped
        by its line search names ``tol``.

    Examples
    --------
    >>> import numpy as np
    >>> from robustpapers.bhadra2010 import rsvm
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]]); y = np.array([-1, -1, 1, 1])
    >>> res = rsvm(X @ X.T, y, C=10.0, beta=0.1, kappa=1.0, method="qp")
    >>> bool(abs(res.alpha @ y) < 1e-8)
    True
    """
    return _rsvm_fits(K_bar, y, [C], beta, [kappa], method, [random_state], beta_approx=beta_approx,
                      n_starts=n_starts, penalty=penalty, tol=tol, max_iter=max_iter, n_jobs=n_jobs, bias=bias,
                      sv_tol=sv_tol, qn_scaling=qn_scaling, qn_line_search=qn_line_search, qn_batch=qn_batch,
                      callback=callback, verbose=verbose)[0]


def rsvm_many(K_bar: np.ndarray, y: np.ndarray, Cs: Any, beta: Any, kappas: Any, method: str = "qn", *,
              random_states: Sequence[Any] | None = None, beta_approx: Any = None, n_starts: int = 100,
              penalty: float = 1e5, tol: float = 1e-7, max_iter: int = 20000, n_jobs: int = 1,
              bias: str = "robust", sv_tol: float = 1e-4, qn_scaling: str = "ray",
              qn_line_search: str = "exact", qn_batch: Any = None, verbose: bool = False) -> list[Any]:
    r""":func:`rsvm` at several (C, kappa) on one kernel: a list of the results that
    ``[rsvm(K_bar, y, C, beta, kappa, method, random_state=r, ...) for C, kappa, r in zip(Cs, kappas,
    random_states)]`` returns, to the last bit.

    .. math::

        \max_{\alpha\in S_n(C_k)}\; e^\top\alpha - \tfrac12\Bigl(\alpha^\top Y\bar K Y\alpha
        + \kappa_k\sqrt{\textstyle\sum_{ij}\beta_{ij}\alpha_i^2\alpha_j^2}\Bigr),\qquad k = 1, \dots, K

    (bhadra2010 eq. 15 for each pair). For ``method="qn"`` the random starts of all the fits run side by side in shared
    batches (``qn_batch``), which is what a grid of fits with few starts each (bhadra2010 Table 1: 5 starts at
    6 x 9 values of (C, eps)) needs to be fast; each start's result does not depend on its batch, hence the
    identity above. Other methods are fitted one after the other. Each result's ``wall_time`` is, for QN, that
    of all the fits' starts together.

    Parameters
    ----------
    K_bar, y, beta, method
        As in :func:`rsvm` (``method`` defaults to ``"qn"`` here).
    Cs, kappas : sequences of float, the same length
        The pairs (C, kappa).
    random_states : sequence, optional
        One seed (or generator) per pair, for QN's starts; default None for each.

    Other Parameters
    ----------------
    beta_approx, n_starts, penalty, tol, max_iter, n_jobs, bias, sv_tol
        As in :func:`rsvm`.
    qn_scaling, qn_line_search, qn_batch, verbose
        As in :func:`rsvm`.

    Returns
    -------
    list of SolverResult

    Examples
    --------
    >>> import numpy as np
    >>> from robustpapers.bhadra2010 import rsvm, rsvm_many
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]]); y = np.array([-1, -1, 1, 1])
    >>> fits = rsvm_many(X @ X.T, y, [1.0, 10.0], 0.1, [0.5, 1.0], n_starts=3, random_states=[0, 1])
    >>> one = rsvm(X @ X.T, y, 10.0, 0.1, 1.0, method="qn", n_starts=3, random_state=1)
    >>> bool(np.array_equal(fits[1].alpha, one.alpha))
    True
    """
    Cs, kappas = list(np.atleast_1d(np.asarray(Cs, dtype=object))), list(np.atleast_1d(np.asarray(kappas, dtype=object)))
    if len(Cs) != len(kappas) or not Cs:
        raise ValueError(f"Cs and kappas must be non-empty and of the same length, got {len(Cs)} and {len(kappas)}")
    states = [None] * len(Cs) if random_states is None else list(random_states)
    if len(states) != len(Cs):
        raise ValueError(f"random_states must give one seed per (C, kappa) pair: {len(Cs)}, got {len(states)}")
    return _rsvm_fits(K_bar, y, Cs, beta, kappas, method, states, beta_approx=beta_approx, n_starts=n_starts,
                      penalty=penalty, tol=tol, max_iter=max_iter, n_jobs=n_jobs, bias=bias, sv_tol=sv_tol,
                      qn_scaling=qn_scaling, qn_line_search=qn_line_search, qn_batch=qn_batch, callback=None,
                      verbose=verbose)


def _rsvm_fits(K_bar, y, Cs, beta, kappas, method, random_states, *, beta_approx, n_starts, penalty, tol, max_iter,
               n_jobs, bias, sv_tol, qn_scaling, qn_line_search, qn_batch, callback, verbose):
    """The body of :func:`rsvm` and :func:`rsvm_many`: one result per (C, kappa, random state)."""
    y = check_binary_labels(y)
    n = y.size
    K_bar = check_kernel(K_bar, name="K_bar", n=n, symmetric=True)
    Cs = [check_positive(C, "C") for C in Cs]
    kappas = [float(check_finite_array(kappa, "kappa", ndim=0)) for kappa in kappas]
    for kappa in kappas:
        if kappa < 0:
            raise ValueError(f"kappa must be >= 0, got {kappa}")
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    if beta_approx not in (None, "principal", "psd"):
        raise ValueError(f"beta_approx must be None, 'principal' or 'psd', got {beta_approx!r}")
    if bias not in ("robust", "svm"):
        raise ValueError(f"bias must be 'robust' or 'svm', got {bias!r}")
    if bias == "svm" and method != "qp":
        raise ValueError("bias='svm' is available only for method='qp'")
    beta_in = check_finite_array(beta, "beta")
    if np.any(beta_in < 0):
        raise ValueError("beta must be non-negative entrywise (beta_ij = sigma_ij^2 or (l_ij gamma_ij)^2)")
    B, form = _as_beta(beta_in, n)

    def finish(C, kappa, alpha, success, nit, message, svm_b, trace, t0, extra):
        b = float(svm_b) if bias == "svm" else robust_bias(K_bar, y, alpha, C, sv_tol=sv_tol)
        objective = rsvm_objective(K_bar, y, B, kappa, alpha)
        extra["kkt_residual"] = rsvm_kkt_residual(K_bar, y, B, kappa, C, alpha)
        if method != "qn":
            trace.record(objective=objective)
        return SolverResult(x=alpha, alpha=alpha, b=b, objective=objective, success=success, nit=nit,
                            message=message, trace=trace, method=method, kappa=kappa, beta=B,
                            t=rsvm_constraint_value(K_bar, y, B, kappa, alpha),
                            wall_time=time.perf_counter() - t0, **extra)

    results = []
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
        for C, kappa in zip(Cs, kappas):
            t0 = time.perf_counter()
            sol = svm_dual(K_bar + kappa * np.diag(bvec), y, C, tol=tol)
            results.append(finish(C, kappa, sol.alpha, True, 1, "SVM on K_bar + kappa diag(b) (003 Theorems 4-5)",
                                  sol.b, Trace(), t0, {"b_vector": bvec}))
        return results
    if beta_approx == "psd":
        B = psd_clip(B)
    elif beta_approx == "principal":
        bvec = principal_rank_one(B)
        B = np.outer(bvec, bvec)
    if method == "socp":
        if not is_psd(B):
            raise ValueError("beta is not positive semidefinite; method='socp' needs PSD beta (bhadra2010 Theorem 6): "
                             "use beta_approx='psd' (nearest PSD, the paper's §5.1 choice) or method='qn'")
        check_psd(K_bar, "K_bar (method='socp' needs a PSD mean kernel)")  # the message names psd_clip
        for C, kappa in zip(Cs, kappas):
            t0 = time.perf_counter()
            prob, alpha = _socp(K_bar, y, B, kappa, C, tol, verbose)
            success = prob.status in ("optimal",)
            if alpha is None:
                raise RuntimeError(f"SOCP solver failed with status {prob.status}")
            if not success:
                warn_not_converged("rsvm(method='socp')", "tol", f"solver status {prob.status}")
            nit = int(prob.solver_stats.num_iters or 0) if prob.solver_stats is not None else 0
            message = f"cvxpy {prob.solver_stats.solver_name if prob.solver_stats else ''}: {prob.status}"
            results.append(finish(C, kappa, np.clip(alpha, 0.0, C), success, nit, message, None, Trace(), t0, {}))
        return results

    # qn
    n_starts = int(n_starts)
    if n_starts < 1:
        raise ValueError(f"n_starts must be >= 1, got {n_starts}")
    penalty = check_positive(penalty, "penalty")
    if qn_scaling not in ("ray", None):
        raise ValueError(f"qn_scaling must be 'ray' or None, got {qn_scaling!r}")
    if qn_line_search not in ("exact", "wolfe"):
        raise ValueError(f"qn_line_search must be 'exact' or 'wolfe', got {qn_line_search!r}")
    if qn_batch is not None and (not isinstance(qn_batch, (int, np.integer)) or isinstance(qn_batch, bool)
                                 or qn_batch < 1):
        raise ValueError(f"qn_batch must be a positive integer or None, got {qn_batch!r}")
    t0 = time.perf_counter()
    starts = []
    for C, state in zip(Cs, random_states):
        rng = check_random_state(state)
        starts += [project_svm_set(rng.uniform(0, C, n), y, C) for _ in range(n_starts)]
    starts = np.array(starts)
    row_C, row_kappa = np.repeat(Cs, n_starts), np.repeat(kappas, n_starts)
    # the starts of all fits run side by side in batches, at least one per process; a start's result does not
    # depend on which batch it is in
    total = starts.shape[0]
    workers = 1 if n_jobs == 1 else effective_n_jobs(n_jobs)
    size = int(qn_batch) if qn_batch is not None else max(1, min(_QN_BATCH, int(_QN_BATCH_BYTES // (8 * n * n)),
                                                                 -(-total // workers)))
    rest = (penalty, tol, int(max_iter), qn_scaling == "ray", qn_line_search == "exact")
    items = [(starts[i:i + size], K_bar, y, B, row_kappa[i:i + size], row_C[i:i + size], *rest)
             for i in range(0, total, size)]
    parts = ([_qn_starts_packed(it) for it in items] if n_jobs == 1 or len(items) == 1
             else parallel_map(_qn_starts_packed, items, n_jobs=n_jobs))
    every = [o for part in parts for o in part]
    for f, (C, kappa) in enumerate(zip(Cs, kappas)):
        outs = every[f * n_starts:(f + 1) * n_starts]
        trace = Trace()
        for k, o in enumerate(outs):
            trace.record(objective=o[1], start=k)
            if callback is not None:
                callback(k, o[1])
        objs = np.array([o[1] for o in outs])
        best = int(np.argmax(objs))
        success = bool(outs[best][3])
        if outs[best][4] == "max_iter":
            warn_not_converged("rsvm(method='qn')", "max_iter", "the best start's DFP run hit max_iter")
        elif not success:  # a numerical floor: more iterations would not help
            warn_not_converged("rsvm(method='qn')", "tol", "the best start's line search found no decrease "
                               f"before DFP's gradient test (infinity norm <= tol = {tol:g}) was met")
        extra = {"start_converged": np.array([bool(o[3]) for o in outs]),
                 "start_status": np.array([o[4] for o in outs]),
                 "start_alphas": np.array([o[0] for o in outs]), "start_objectives": objs, "best_start": best}
        results.append(finish(C, kappa, outs[best][0], success, int(sum(o[2] for o in outs)),
                              f"DFP quasi-Newton, best of {n_starts} starts", None, trace, t0, extra))
    return results
