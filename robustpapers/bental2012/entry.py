"""The one entry point for the robust SVM (12) of bental2012: ``ussvm``, whose default returns a certified optimum.

Three solvers answer the same problem: the alternating method (not in the paper: LIBSVM on the effective kernel,
the closed-form worst case, and a small master problem over the solutions found so far), FSS (USSVM_MN,
bental2012 §5.3, :func:`robustpapers.bental2012.ussvm_fss`) and the conic program (USSVM_SOCP, eq. (13),
:func:`robustpapers.bental2012.ussvm_socp`). Every answer carries the same saddle-point duality certificate.
"""
from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, replace
from typing import Any, Optional, Sequence

import numpy as np
from numpy.typing import ArrayLike
from scipy.optimize import minimize
from sklearn.svm import SVC
from threadpoolctl import ThreadpoolController

from ..core import PSD_TOL, SolverResult, Trace, check_binary_labels, check_nonnegative, check_positive, check_psd
from ..core.result import ConvergenceWarning
from .robust import dual_exponent, robust_bias, worst_case_eta
from .ussvm import FSSOptions, _kkt_polish, svm_set_linear_max, ussvm_fss

__all__ = ["ussvm", "USSVMOptions", "METHODS"]

#: The values of ``ussvm(method=...)``.
METHODS = ("auto", "alternating", "fss", "socp")


@dataclass(frozen=True)
class USSVMOptions:
    r"""The expert knobs of :func:`ussvm`, grouped so its signature stays short.

    Attributes
    ----------
    dtype : None, float32 or float64
        Storage of the kernel stack. None keeps the caller's array (no copy when it is a C-contiguous float32 or
        float64 (L, n, n) array); float32 halves memory and memory traffic (a float64 stack is then copied once).
        The effective kernel is accumulated in the stack's precision and added to :math:`\bar K` in float64.
    svm_tol : float > 0
        LIBSVM's tolerance for the SVM on the effective kernel (alternating method and certificate).
    polish : bool
        Also bound the value with LIBSVM's solution refined by one KKT solve on its free set (tighter certificate,
        see :func:`robustpapers.bental2012.ussvm_saddle_problem`).
    master : bool
        Alternating method: choose the next :math:`\eta` at the best convex combination of all SVM solutions
        found so far (a small concave problem over the simplex, solved by SLSQP) instead of at the last one.
        Without it the method is the plain alternation, which can cycle (p = 1).
    max_columns : int >= 2
        Alternating method: number of SVM solutions kept in the master problem.
    check_psd : {"auto", True, False}
        Check that the kernels are positive semidefinite (shifted Cholesky, tolerance ``psd_tol`` relative to the
        largest eigenvalue). True: :math:`\bar K` and every :math:`K_l`. "auto": every :math:`K_l` when
        :math:`Ln^3 \le` ``psd_check_flops``, otherwise :math:`\bar K` and the effective kernel at which the
        certificate's upper bound is taken (the one kernel the certificate relies on). False: none.
    psd_tol : float >= 0
        Tolerance of that check; None: 1e-8 (1e-6 for a float32 stack, whose storage error is about 1e-7).
    psd_check_flops : float
        See ``check_psd``.
    fallback : tuple of {"fss", "socp"}
        ``method="auto"``: what to try, in order, when the alternating method stops uncertified.
    fss : FSSOptions or None
        Options of the FSS run (``method="fss"``, or the fallback; None: :class:`FSSOptions` defaults for
        ``method="fss"``, and for the fallback the fast variant started at the best alternating solution).
    fss_max_iter : int
        FSS steps of the fallback.
    socp : dict or None
        Keywords of :func:`robustpapers.bental2012.ussvm_socp` (default ``scale="auto"``).
    socp_max_n : int
        ``method="auto"`` falls back to the SOCP only up to this many points (its memory and time grow fast).
    bias_floor : float in [0, 1) or None
        Bias: entries :math:`\alpha_i \le` ``bias_floor`` :math:`\max_j\alpha_j` are not support vectors; None: ``tol``.
    blas_threads : int or None
        BLAS threads (``threadpoolctl``); None leaves BLAS alone.
    verbose : bool
        Print one line per round.

    Examples
    --------
    >>> from dataclasses import replace
    >>> replace(USSVMOptions(), dtype="float32").dtype
    'float32'
    """

    dtype: Any = None
    svm_tol: float = 1e-9
    polish: bool = True
    master: bool = True
    max_columns: int = 30
    check_psd: Any = "auto"
    psd_tol: Optional[float] = None
    psd_check_flops: float = 2e10
    fallback: tuple = ("fss", "socp")
    fss: Optional[FSSOptions] = None
    fss_max_iter: int = 2_000
    socp: Optional[dict] = None
    socp_max_n: int = 1000
    bias_floor: Optional[float] = None
    blas_threads: Optional[int] = 1
    verbose: bool = False


_CONTROLLER: list[Any] = []


def _blas_limits(limits):
    """``threadpoolctl``'s limit context, with the library scan (0.2 s) done once per process."""
    if not _CONTROLLER:
        _CONTROLLER.append(ThreadpoolController())
    return _CONTROLLER[0].limit(limits=limits)


def _options(options):
    if options is None:
        return USSVMOptions()
    if isinstance(options, FSSOptions):  # ussvm(method="fss", options=FSSOptions(...))
        return USSVMOptions(fss=options)
    if not isinstance(options, USSVMOptions):
        raise ValueError(f"options must be a USSVMOptions, an FSSOptions or None, got {type(options).__name__}")
    return options


def _psd_or_raise(K, name, tol):
    """Raise ValueError unless K is PSD up to ``tol`` (core.check_psd: a shifted Cholesky, eigenvalues if it fails)."""
    check_psd(K, name, tol=tol)


def _check(K_bar, K_list, y, C, kappa, p, dtype):
    """Validate the data of (12) without copying a stack that is already C-contiguous in the wanted dtype."""
    y = check_binary_labels(y)
    n = y.size
    C = check_positive(C, "C")
    kappa = check_nonnegative(kappa, "kappa")
    q = dual_exponent(p)
    K_bar = np.asarray(K_bar, dtype=float)
    if K_bar.shape != (n, n):
        raise ValueError(f"K_bar must have shape ({n}, {n}) to match y, got {K_bar.shape}")
    if not np.all(np.isfinite(K_bar)):
        raise ValueError("K_bar contains NaN or inf")
    if isinstance(K_list, np.ndarray):
        K_stack = K_list
    else:
        K_list = list(K_list)
        shapes = {np.shape(K) for K in K_list}
        if len(shapes) > 1:
            raise ValueError(f"the kernels K_list have different shapes: {sorted(shapes)}")
        K_stack = np.stack([np.asarray(K) for K in K_list]) if K_list else np.zeros((0, n, n))
    if K_stack.ndim != 3 or K_stack.shape[1:] != (n, n):
        raise ValueError(f"K_list must hold kernels of shape ({n}, {n}) (as an (L, n, n) stack), "
                         f"got shape {K_stack.shape}")
    want = np.dtype(dtype) if dtype is not None else (
        K_stack.dtype if K_stack.dtype in (np.float32, np.float64) else np.dtype(float))
    if want not in (np.float32, np.float64):
        raise ValueError(f"options.dtype must be float32 or float64, got {want}")
    K_stack = np.ascontiguousarray(K_stack, dtype=want)
    for l in range(K_stack.shape[0]):  # kernel by kernel: no temporary the size of the stack
        if not np.isfinite(K_stack[l]).all():
            raise ValueError(f"K_list[{l}] contains NaN or inf")
    scale = max(1.0, float(np.max(np.abs(K_bar), initial=0.0)))
    if np.max(np.abs(K_bar - K_bar.T), initial=0.0) > 1e-8 * scale:
        raise ValueError("K_bar must be symmetric (tolerance 1e-08 relative)")
    return K_bar, K_stack, y, C, kappa, q


def _svm(K, y, C, tol):
    """LIBSVM's dual solution on the precomputed kernel K (the caller has checked K)."""
    clf = SVC(kernel="precomputed", C=C, tol=tol, max_iter=-1).fit(K, y)
    alpha = np.zeros(y.size)
    alpha[clf.support_] = np.abs(clf.dual_coef_[0])
    return np.clip(alpha, 0.0, C)


def _upper(Kx, y, C, alpha, polish):
    r"""The SVM duality bound :math:`\tfrac12\hat u^\top K_x\hat u + \max_{S_n}(e - YK_x\hat u)^\top\alpha \ge
    \max_{S_n}\phi(x, \cdot)` at :math:`\hat u = Y\alpha` (and at the KKT-polished :math:`\alpha`): valid at any
    :math:`\alpha` when :math:`K_x` is PSD."""
    def at(a):
        u = y * a
        Ku = Kx @ u
        return 0.5 * float(u @ Ku) + svm_set_linear_max(1.0 - y * Ku, y, C)
    U = at(alpha)
    if polish:
        U = min(U, at(_kkt_polish(Kx, y, C, alpha)))
    return U


class _Stack:
    """The (L, n, n) stack read in place: effective kernel and quadratic forms, one pass each."""

    def __init__(self, K_bar, K_stack):
        self.K_bar, self.K = K_bar, K_stack
        self.L, self.n = K_stack.shape[0], K_stack.shape[1]
        self.flat_l = K_stack.reshape(self.L, self.n * self.n)  # views, no copy
        self.flat_rows = K_stack.reshape(self.L * self.n, self.n)
        self.passes = 0

    def effective(self, eta):
        r""":math:`\bar K + \sum_l\eta_l K_l` in float64; the sum is a gemv in the stack's precision, so a float32
        stack is never converted to float64 (that copy was twice the stack)."""
        Kx = self.K_bar.copy()
        if self.L:
            self.passes += 1
            Kx += (np.asarray(eta, dtype=self.K.dtype) @ self.flat_l).reshape(self.n, self.n)
        return Kx

    def forms(self, u):
        """V[l] = K_l u, shape (L, n), in float64."""
        if not self.L:
            return np.zeros((0, self.n))
        self.passes += 1
        return (self.flat_rows @ u.astype(self.K.dtype)).reshape(self.L, self.n).astype(float)


def _objective(alpha, y, Kbu, V, kappa, q):
    """F(alpha) of (12) from K̄u and V = (K_l u)_l, u = y * alpha; and a = (u^T K_l u)_l."""
    u = y * alpha
    a = np.maximum(V @ u, 0.0) if V.shape[0] else np.zeros(0)
    nrm = float(np.linalg.norm(a, ord=q)) if a.size else 0.0
    return float(alpha.sum() - 0.5 * float(u @ Kbu) - 0.5 * kappa * nrm), a


def _master(c, G0, G, kappa, p, q, lam0, scale):
    r"""max over the simplex of :math:`f(\lambda) = c^\top\lambda - \tfrac12\lambda^\top G_0\lambda
    - \tfrac\kappa2\|(\lambda^\top G_l\lambda)_l\|_q` (F on the convex hull of the columns); returns
    (lambda, eta) with eta the worst case there (for p = 1 from the multipliers of the epigraph constraints,
    since the worst case is then not unique)."""
    m, L = c.size, G.shape[0]

    def a_of(lam):
        return np.maximum(np.einsum("i,lij,j->l", lam, G, lam), 0.0)

    cons = [{"type": "eq", "fun": lambda z: np.array([z[:m].sum() - 1.0]),
             "jac": lambda z: np.concatenate([np.ones(m), np.zeros(z.size - m)])[None, :]}]
    opts = dict(maxiter=200, ftol=1e-14)
    if np.isinf(q):  # p = 1: epigraph max_l a_l <= t
        def f(z):
            lam, t = z[:m], z[m]
            g = np.concatenate([-(c - G0 @ lam), [0.5 * kappa]]) / scale
            return -(c @ lam - 0.5 * lam @ G0 @ lam - 0.5 * kappa * t) / scale, g
        cons.append({"type": "ineq", "fun": lambda z: z[m] - np.einsum("i,lij,j->l", z[:m], G, z[:m]),
                     "jac": lambda z: np.hstack([-2.0 * (G @ z[:m]), np.ones((L, 1))])})
        z0 = np.concatenate([lam0, [float(np.max(a_of(lam0)))]])
        res = minimize(f, z0, jac=True, method="SLSQP", bounds=[(0, 1)] * m + [(0, None)], constraints=cons,
                       options=opts)
        lam = np.clip(res.x[:m], 0, None)
        lam /= lam.sum()
        return lam, _eta_p1(lam, c, G0, G, kappa, a_of(lam))

    def f(lam):
        a = a_of(lam)
        nrm = float(np.linalg.norm(a, ord=q)) if a.size else 0.0
        w = worst_case_eta(a, 1.0, p) if a.size else np.zeros(0)
        g = c - G0 @ lam - kappa * (np.einsum("l,lij,j->i", w, G, lam) if a.size else 0.0)
        return -(c @ lam - 0.5 * lam @ G0 @ lam - 0.5 * kappa * nrm) / scale, -g / scale
    res = minimize(f, lam0, jac=True, method="SLSQP", bounds=[(0, 1)] * m, constraints=cons, options=opts)
    lam = np.clip(res.x, 0, None)
    lam /= lam.sum()
    return lam, worst_case_eta(a_of(lam), kappa, p) if L else np.zeros(0)


def _eta_p1(lam, c, G0, G, kappa, a, rel=1e-6):
    r"""p = 1: the worst case :math:`\eta` at the master's optimum :math:`\lambda` is not unique (the largest
    :math:`a_l` tie there), and the one to take is the master's dual solution: :math:`\eta \ge 0` on the tied
    kernels, :math:`e^\top\eta = \kappa`, with :math:`c_j - ((G_0 + \sum_l\eta_l G_l)\lambda)_j = \nu` on the
    support of :math:`\lambda` (stationarity). Solved as a non-negative least-squares problem; SLSQP's multipliers
    of the tied constraints are not reliable (they are not unique)."""
    from scipy.optimize import nnls

    top = np.flatnonzero(a >= (1.0 - rel) * a.max())
    sup = np.flatnonzero(lam > 1e-9)
    if top.size == 1 or sup.size == 0:
        return worst_case_eta(a, kappa, 1.0)
    r = c[sup] - (G0 @ lam)[sup]
    M = np.stack([(G[l] @ lam)[sup] for l in top], axis=1)  # (|sup|, |top|), coefficient of eta_l
    w = max(1.0, float(np.abs(M).max()) * kappa)  # weight of the row e^T eta = kappa
    A = np.vstack([np.hstack([M, np.ones((sup.size, 1)), -np.ones((sup.size, 1))]),
                   np.concatenate([np.full(top.size, w / kappa), [0.0, 0.0]])[None, :]])
    rhs = np.concatenate([r, [w]])
    z, _ = nnls(A, rhs)
    eta = np.zeros(a.size)
    eta[top] = z[:top.size]
    s = eta.sum()
    return kappa * eta / s if s > 0 else worst_case_eta(a, kappa, 1.0)


class _Certificate:
    """The running saddle-point certificate: the best upper bound U (SVM duality at some eta) and the best
    lower bound F(alpha); OPT of (12) lies in [F, U]."""

    def __init__(self):
        self.U, self.K_U, self.eta_U = np.inf, None, None

    def offer_upper(self, U, Kx, eta):
        if U < self.U:
            self.U, self.K_U, self.eta_U = U, Kx, eta


def _alternating(S, y, C, kappa, p, q, tol, max_iter, o, cert, trace, eta0=None):
    r"""The alternating method; returns (alpha, F, nit). See :func:`ussvm`."""
    n, L = y.size, S.L
    if eta0 is None:
        eta = kappa * np.ones(L) / L ** (1.0 / p) if (L and kappa > 0) else np.zeros(L)
    else:
        eta = np.asarray(eta0, dtype=float)
    A, KbU, VU = [], [], []  # columns: alpha_j, K̄ u_j, (K_l u_j)_l
    best = (-np.inf, None)
    lam = None
    nit = 0
    for it in range(max_iter):
        nit = it + 1
        Kx = S.effective(eta)
        alpha = _svm(Kx, y, C, o.svm_tol)
        cert.offer_upper(_upper(Kx, y, C, alpha, o.polish), Kx, eta)
        del Kx
        u = y * alpha
        A.append(alpha)
        KbU.append(S.K_bar @ u)
        VU.append(S.forms(u))
        F, a = _objective(alpha, y, KbU[-1], VU[-1], kappa, q)
        if F > best[0]:
            best = (F, alpha)
        eta_next = worst_case_eta(a, kappa, p) if L else np.zeros(0)
        if o.master and len(A) > 1 and L and kappa > 0:
            Um = np.array([y * al for al in A])  # (m, n)
            c = np.array([al.sum() for al in A])
            G0 = Um @ np.array(KbU).T
            G0 = 0.5 * (G0 + G0.T)
            G = np.einsum("in,jln->lij", Um, np.array(VU))  # G[l, i, j] = u_i^T K_l u_j
            G = 0.5 * (G + G.transpose(0, 2, 1))
            lam0 = np.zeros(len(A))
            if lam is not None:
                lam0[:lam.size] = lam
            lam0[-1] += 0.5
            lam0 /= lam0.sum()
            lam, eta_m = _master(c, G0, G, kappa, p, q, lam0, max(abs(best[0]), 1e-300))
            abar = np.clip(lam @ np.array(A), 0.0, C)
            ub = y * abar
            Fm, _ = _objective(abar, y, lam @ np.array(KbU), np.einsum("j,jln->ln", lam, np.array(VU)), kappa, q)
            if Fm > best[0]:
                best = (Fm, abar)
            eta_next = eta_m
            keep = np.argsort(lam)[::-1][:o.max_columns - 1]  # the heaviest columns survive
            keep = np.sort(keep)
            A = [A[j] for j in keep]
            KbU = [KbU[j] for j in keep]
            VU = [VU[j] for j in keep]
            lam = lam[keep] / lam[keep].sum()
            del ub
        F = best[0]
        gap = max(cert.U - F, 0.0)
        trace.record(objective=F, gap=gap, method="alternating", upper=cert.U)
        if o.verbose:
            print(f"alternating {nit}: F = {F:.10g}, U = {cert.U:.10g}, relative gap {gap / max(abs(F), 1e-300):.2e}")
        if gap <= tol * abs(F) or L == 0 or kappa == 0:
            break
        eta = eta_next
    return best[1], best[0], nit


def ussvm(K_bar: ArrayLike, K_list: ArrayLike | Sequence[ArrayLike], y: ArrayLike, C: float, kappa: float,
          p: float = 2, method: str = "auto", *, tol: float = 1e-6, max_iter: int | None = None, bias: str = "paper",
          options: USSVMOptions | FSSOptions | None = None) -> SolverResult:
    r"""The robust SVM (12) of bental2012, solved to a certified optimum.

    .. math::

        \max_{\alpha\in S_n}\ \min_{\eta \ge 0,\ \|\eta\|_p\le\kappa}\
        \phi(\eta, \alpha) = e^\top\alpha - \tfrac12\alpha^\top Y\Big(\bar K + \sum_{l=1}^L \eta_l K_l\Big)Y\alpha,
        \qquad S_n = \{0 \le \alpha \le C,\ y^\top\alpha = 0\}

    (bental2012 eq. (12): the SVM (2) against the worst kernel of the set :math:`\mathcal E(\kappa)` of (11));
    the inner minimum is :math:`F(\alpha) = e^\top\alpha - \tfrac12\alpha^\top Y\bar KY\alpha - \tfrac\kappa2\|a(\alpha)\|_q`,
    :math:`a_l = \alpha^\top YK_lY\alpha`, :math:`q = p/(p-1)` (§4.2).

    Every method ends with the saddle-point duality certificate: an upper bound
    :math:`U = \tfrac12\hat u^\top K_\eta\hat u + \max_{S_n}(e - YK_\eta\hat u)^\top\alpha \ge \max_{S_n}\phi(\eta,
    \cdot) \ge \mathrm{OPT}` at some :math:`\eta` (:math:`K_\eta = \bar K + \sum_l\eta_lK_l`,
    :math:`\hat u = Y\hat\alpha`
    from LIBSVM on :math:`K_\eta`, also KKT-polished) and the lower bound :math:`F(\alpha) \le \mathrm{OPT}`;
    ``success`` means :math:`U - F(\alpha) \le \mathrm{tol}\,|F(\alpha)|`.

    Methods:

    - ``"alternating"`` (not in the paper): repeat LIBSVM on :math:`K_\eta` (the SVM (2) at fixed :math:`\eta`),
      then :math:`\eta` = the closed-form worst case (§4.2) at the best convex combination of the SVM solutions
      found so far (a master problem in as many variables as solutions; ``options.master``). Each round reads the
      stack twice (effective kernel, quadratic forms) and gives both bounds of the certificate. It is Kelley's
      cutting-plane method on the convex function :math:`\eta \mapsto \max_{S_n}\phi(\eta, \cdot)`, so its
      upper bounds decrease to OPT; the plain alternation (``master=False``) cycles for p = 1.
    - ``"fss"``: :func:`ussvm_fss`, the paper's USSVM_MN (§5.3) with ``options.fss`` (an :class:`FSSOptions`).
    - ``"socp"``: :func:`ussvm_socp`, the paper's USSVM_SOCP (eq. (13)), cvxpy + Clarabel, then the certificate.
    - ``"auto"`` (default): the alternating method; if it stops uncertified, FSS started at its best solution,
      then the SOCP (``options.fallback``; the SOCP only for :math:`n \le` ``options.socp_max_n``). If none
      certifies, a :class:`ConvergenceWarning` names the knob to change. The upper bound at a fallback's answer is
      taken at the worst case :math:`\eta` there; for p = 1 that :math:`\eta` is not unique (ties split evenly), so
      the certificate of a fallback answer can stay loose for p = 1 even when the answer is optimal.

    Parameters
    ----------
    K_bar : array (n, n), PSD
        The nominal kernel :math:`\bar K`.
    K_list : array (L, n, n) or sequence of (n, n) PSD arrays
        The uncertainty kernels :math:`K_l` of (10)-(11). An (L, n, n) array in float32 or float64 is read in place.
    y : array (n,) of +-1
    C : float > 0
    kappa : float >= 0
    p : float >= 1 or inf
    method : {"auto", "alternating", "fss", "socp"}
    tol : float > 0
        Relative certified gap: :math:`U - F(\alpha) \le \mathrm{tol}\,|F(\alpha)|`.
    max_iter : int or None
        Rounds of the alternating method (None: 50) or FSS steps (None: 20,000; ``options.fss_max_iter`` in
        the fallback).
    bias : {"paper", "free"}
        Bias rule (:func:`robust_bias`) on :math:`K_\eta` at the worst case :math:`\eta` of the returned :math:`\alpha`.
    options : USSVMOptions, FSSOptions or None
        Expert knobs (:class:`USSVMOptions`; an :class:`FSSOptions` is read as ``USSVMOptions(fss=...)``).

    Returns
    -------
    SolverResult
        ``alpha``, ``b``, ``eta`` (worst case at ``alpha``), ``objective`` = :math:`F(\alpha)`, ``upper`` = U,
        ``gap`` = U - F (absolute), ``rel_gap``, ``success``, ``nit`` (rounds, FSS steps or conic iterations of
        the method that answered), ``method`` (that method), ``methods_tried``, ``times`` (seconds per method),
        ``stack_passes``, ``message`` and ``trace`` (per round: objective, gap, method, upper).

    Raises
    ------
    ValueError
        For data that do not define (12): shapes, labels, C <= 0, kappa < 0, p < 1, non-finite or non-PSD kernels.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 1.0], [1.0, 0.0], [3.0, 1.0], [4.0, 0.5]]); y = np.array([-1, -1, 1, 1])
    >>> K = X @ X.T + np.eye(4)
    >>> res = ussvm(K, np.stack([K, 2 * K]), y, C=1.0, kappa=0.5)
    >>> res.success, res.method, bool(res.gap <= 1e-6 * abs(res.objective))
    (True, 'alternating', True)
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    if isinstance(tol, bool) or not (isinstance(tol, (int, float, np.floating)) and np.isfinite(tol) and tol > 0):
        raise ValueError(f"tol must be a finite number > 0, got {tol!r}")
    if max_iter is not None and (isinstance(max_iter, bool) or not isinstance(max_iter, (int, np.integer))
                                 or max_iter < 1):
        raise ValueError(f"max_iter must be None or an integer >= 1, got {max_iter!r}")
    if bias not in ("paper", "free"):
        raise ValueError(f"bias must be 'paper' or 'free', got {bias!r}")
    o = _options(options)
    unknown = [m for m in o.fallback if m not in ("fss", "socp")]
    if unknown:
        raise ValueError(f"options.fallback may hold 'fss' and 'socp' only, got {unknown}")
    if o.check_psd not in ("auto", True, False):
        raise ValueError(f"options.check_psd must be 'auto', True or False, got {o.check_psd!r}")
    K_bar, K_stack, y, C, kappa, q = _check(K_bar, K_list, y, C, kappa, p, o.dtype)
    p = float(p)
    n, L = y.size, K_stack.shape[0]
    psd_tol = o.psd_tol if o.psd_tol is not None else (1e-6 if K_stack.dtype == np.float32 else PSD_TOL)
    floor = tol if o.bias_floor is None else o.bias_floor
    if not (np.isfinite(floor) and 0 <= floor < 1):
        raise ValueError(f"options.bias_floor (None: tol) must be in [0, 1), got {floor!r}")
    check_all = o.check_psd is True or (o.check_psd == "auto" and L * float(n) ** 3 <= o.psd_check_flops)
    t_start = time.perf_counter()
    trace = Trace()
    cert = _Certificate()
    S = _Stack(K_bar, K_stack)
    times, tried = {}, []
    alpha, F, nit, answered, extra = None, -np.inf, 0, None, {}

    def certified(F_):
        return cert.U - F_ <= tol * abs(F_)

    with _blas_limits(o.blas_threads):
        if o.check_psd is not False:
            _psd_or_raise(K_bar, "K_bar", psd_tol)
            if check_all:
                for l in range(L):
                    _psd_or_raise(K_stack[l], f"K_list[{l}]", psd_tol)
        if method in ("auto", "alternating"):
            t0 = time.perf_counter()
            tried.append("alternating")
            alpha, F, nit = _alternating(S, y, C, kappa, p, q, tol, max_iter or 50, o, cert, trace)
            answered = "alternating"
            times["alternating"] = time.perf_counter() - t0
        todo = {"fss": ["fss"], "socp": ["socp"], "alternating": []}.get(method)
        if method == "auto":
            todo = [] if certified(F) else list(o.fallback)
        for m in todo:
            t0 = time.perf_counter()
            tried.append(m)
            if m == "fss":
                if method == "fss":
                    fo, fmax = (o.fss or FSSOptions()), (max_iter or 20_000)
                else:  # fallback: the fast variant, started at the best alternating solution
                    fo = o.fss or replace(FSSOptions(), step="backtracking", polish=True, svm_tol=o.svm_tol)
                    fo = replace(fo, y0=alpha)
                    fmax = o.fss_max_iter
                if o.dtype is not None:
                    fo = replace(fo, dtype=o.dtype)
                with warnings.catch_warnings():  # the certificate below decides, and warns once
                    warnings.simplefilter("ignore", ConvergenceWarning)
                    r = ussvm_fss(K_bar, K_stack, y, C, kappa, p, tol=tol, max_iter=fmax, bias=bias, options=fo)
                U_fss = float(r.gap) + float(r.objective)  # its certificate is U - F
                if U_fss < cert.U:
                    cert.U, cert.K_U, cert.eta_U = U_fss, None, None  # a bound from the same SVM duality
                extra["fss_result"] = r
                cand, nit_m = r.alpha, int(r.nit)
            else:
                if method == "auto" and n > o.socp_max_n:
                    tried.pop()
                    continue
                from .socp import ussvm_socp
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", ConvergenceWarning)
                    r = ussvm_socp(K_bar, K_stack.astype(float, copy=False), y, C, kappa, p, bias=bias,
                                   **({"scale": "auto"} | dict(o.socp or {})))
                extra["socp_result"] = r
                cand, nit_m = r.alpha, int(r.nit)
            V = S.forms(y * cand)
            F_c, a_c = _objective(cand, y, K_bar @ (y * cand), V, kappa, q)
            # the certificate's upper bound at the worst case of the candidate
            eta_c = worst_case_eta(a_c, kappa, p) if L else np.zeros(0)
            Kx = S.effective(eta_c)
            cert.offer_upper(_upper(Kx, y, C, _svm(Kx, y, C, o.svm_tol), o.polish), Kx, eta_c)
            del Kx
            times[m] = time.perf_counter() - t0
            if method != "auto" or F_c > F:
                alpha, F, nit, answered = cand, F_c, nit_m, m
            trace.record(objective=F, gap=max(cert.U - F, 0.0), method=m, upper=cert.U)
            if certified(F):
                break
        # the kernel the certificate relies on must be PSD (it is when K̄ and every K_l are)
        if o.check_psd is not False and not check_all and cert.K_U is not None:
            _psd_or_raise(cert.K_U, "the effective kernel K_bar + sum_l eta_l K_l of the certificate", psd_tol)
        cert.K_U = None
        u = y * alpha
        V = S.forms(u)
        F, a = _objective(alpha, y, K_bar @ u, V, kappa, q)
        eta = worst_case_eta(a, kappa, p) if L else np.zeros(0)
        b = robust_bias(S.effective(eta), y, alpha, C, rule=bias, floor=floor)
    gap = max(cert.U - F, 0.0)
    rel = gap / max(abs(F), 1e-300)
    success = gap <= tol * abs(F)
    if success:
        message = f"{answered}: certified, relative gap {rel:.2e} <= tol = {tol:g}"
    else:
        knob = {"alternating": "max_iter (rounds of the alternating method)",
                "fss": "max_iter (FSS steps) or options.fss",
                "socp": "options.socp (the conic solver's accuracy)"}[method] if method != "auto" else (
            "max_iter (rounds), options.fss_max_iter or options.fallback")
        message = (f"ussvm(method={method!r}) stopped before converging: relative gap {rel:.2e} > tol = {tol:g} "
                   f"after {', '.join(tried)}; increase {knob}")
        warnings.warn(message, ConvergenceWarning, stacklevel=2)
    return SolverResult(x=alpha, alpha=alpha, b=b, eta=eta, objective=F, upper=cert.U, gap=gap, rel_gap=rel,
                        success=success, nit=nit, message=message, status=0 if success else 1, trace=trace,
                        method=answered, methods_tried=tried, times=times, stack_passes=S.passes,
                        time=time.perf_counter() - t_start, **extra)

