"""USSVM_MN: the robust SVM (12) solved by FSS (bental2012 §5.3)."""
from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from typing import Any, Callable, Optional, Union

import numpy as np
from threadpoolctl import threadpool_limits

from ..core import SolverResult, project_svm_set, svm_dual
from ..core.fss import SaddlePointProblem, fss_saddle
from ..core.projection import project_positive_lp_ball, project_simplex, project_svm_set_ball
from .robust import check_ussvm_problem, effective_kernel, robust_bias, robust_objective, worst_case_eta

__all__ = ["svm_set_linear_max", "ussvm_saddle_problem", "ussvm_fss", "FSSOptions"]


def svm_set_linear_max(g: Any, y: np.ndarray, C: float) -> Any:
    r""":math:`\max_{\alpha \in S_n} g^\top\alpha` for :math:`S_n = \{0 \le \alpha \le C, y^\top\alpha = 0\}`.

    By LP duality it equals :math:`\min_b C\sum_i (g_i - b y_i)_+`, a convex piecewise-linear
    function of b minimised over its breakpoints in :math:`O(n\log n)`.

    Examples
    --------
    >>> import numpy as np
    >>> svm_set_linear_max(np.array([1.0, 2.0]), np.array([1.0, -1.0]), C=1.0)
    3.0
    """
    g = np.asarray(g, dtype=float)
    P = np.sort(g[y > 0])
    Nn = np.sort(-g[y < 0])  # (N + b)_+ = (b - (-N))_+
    cand = np.concatenate([P, Nn])
    cP = np.concatenate([[0.0], np.cumsum(P[::-1])])  # sums of the k largest of P
    cN = np.concatenate([[0.0], np.cumsum(Nn)])  # sums of the k smallest of Nn
    kP = P.size - np.searchsorted(P, cand, side="right")  # #{P > b}
    kN = np.searchsorted(Nn, cand, side="left")  # #{Nn < b}
    vals = (cP[kP] - kP * cand) + (kN * cand - cN[kN])
    return float(C * max(vals.min(), 0.0))


def _kkt_polish(K, y, C, alpha, rtol=1e-8):
    r"""Refine an approximate SVM dual solution on its active set: solve the KKT equations
    :math:`(YKY)_{SS}\alpha_S + b\,y_S = e - (YKY)_{SB}\alpha_B`, :math:`y_S^\top\alpha_S = -y_B^\top\alpha_B`
    for the free set :math:`S = \{r\max_j\alpha_j < \alpha_i < (1-r)C\}` (``r = rtol``), :math:`\alpha_B` at
    their bounds. The lower threshold is relative to the largest :math:`\alpha_j`, not to C: on the paper's
    ill-scaled data :math:`\|\alpha_*\|_\infty` is many orders below C, and a threshold ``rtol * C`` would
    leave every support vector out of S (the polish then does nothing).

    Used only inside the duality bound of :func:`ussvm_saddle_problem`, which is valid at *any*
    :math:`\hat\alpha`: a wrong active set can only give a looser bound, never a wrong one. It removes the
    error of LIBSVM's stopping rule, which the bound multiplies by :math:`C n`.
    """
    amax = float(alpha.max()) if alpha.size else 0.0
    free = (alpha > rtol * amax) & (alpha < (1.0 - rtol) * C)
    m = int(free.sum())
    if m == 0:
        return alpha
    bound = ~free
    ys, yb = y[free], y[bound]
    Q_ss = (ys[:, None] * K[np.ix_(free, free)]) * ys[None, :]
    rhs_a = 1.0 - ys * (K[np.ix_(free, bound)] @ (yb * alpha[bound])) if bound.any() else np.ones(m)
    A = np.empty((m + 1, m + 1))
    A[:m, :m] = Q_ss
    A[:m, m] = ys
    A[m, :m] = ys
    A[m, m] = 0.0
    rhs = np.concatenate([rhs_a, [-float(yb @ alpha[bound])]])
    try:
        sol = np.linalg.solve(A, rhs)
    except np.linalg.LinAlgError:
        sol = np.linalg.lstsq(A, rhs, rcond=None)[0]
    if not np.all(np.isfinite(sol)):
        return alpha
    out = alpha.copy()
    out[free] = sol[:m]
    return out


class _USSVMOperator:
    """G(x, y) of (12) in FSS form; one pass over the (L, n, n) stack per call (bental2012 §5.3)."""

    def __init__(self, K_bar, K_stack, y, kappa):
        self.K_bar = np.ascontiguousarray(K_bar, dtype=K_stack.dtype)
        self.K_flat = K_stack.reshape(K_stack.shape[0] * K_stack.shape[1], K_stack.shape[2])
        self.L, self.n = K_stack.shape[0], K_stack.shape[1]
        self.y = y
        self.kappa = kappa
        self.dtype = K_stack.dtype
        self.calls = 0

    def forms(self, yv):
        """(u, K̄u, V) with u = s∘y and V[l] = K_l u."""
        u = (self.y * yv).astype(self.dtype, copy=False)
        Kbu = self.K_bar @ u
        V = (self.K_flat @ u).reshape(self.L, self.n) if self.L else np.zeros((0, self.n), self.dtype)
        return u, Kbu, V

    def __call__(self, x, yv):
        self.calls += 1
        u, Kbu, V = self.forms(yv)
        d = (V @ u).astype(float)
        gx = -0.5 * self.kappa * d
        gy = self.y * (Kbu + self.kappa * (x.astype(self.dtype) @ V)).astype(float) - 1.0
        return gx, gy


def ussvm_saddle_problem(K_bar: np.ndarray, K_stack: Any, y: np.ndarray, C: float, kappa: float, p: float = 2,
                         theta: float = 0.0, lam_max_bar: Any = None, lam_max: Any = None,
                         certificate: str = "svm", svm_tol: float = 1e-6, restrict_x: bool = False,
                         y_ball: Any = None, polish: bool = False) -> Any:
    r"""The robust SVM (12) as a :class:`SaddlePointProblem` for FSS (bental2012 §5.3).

    With :math:`x = \eta/\kappa \in X = \{x \ge 0, \|x\|_p \le 1\}` and :math:`y = \alpha \in Y = S_n`,

    .. math::

        \phi(x, y) = e^\top y - \tfrac12 y^\top Y\bar K Y y - \tfrac{\kappa}{2}\sum_l x_l\, y^\top Y K_l Y y,

    affine in x and concave in y (strongly, modulus :math:`\theta = \lambda_{\min}(\bar K)`), with
    :math:`G_x = -\tfrac\kappa2 d`, :math:`d_l = y^\top YK_lYy`, :math:`G_y = Y(\bar K + \kappa\sum_l x_l K_l)Yy - e`,
    :math:`\omega_X = \tfrac12\|x\|^2` (:math:`x_\omega = 0`, :math:`\Omega_X = \tfrac12\max(1, L^{1-2/p})`),
    :math:`\omega_{\mathcal Y} = \tfrac12\|y\|^2` (:math:`\Omega_{\mathcal Y} = \tfrac12`) and, with
    :math:`D = C\sqrt{2\min(n_+, n_-)} = \max_Y\|y\|` and :math:`\lambda_l = \lambda_{\max}(K_l)`,

    .. math::

        L_{xy} = \kappa D \|\lambda\|_2,\qquad L_{yy} = \lambda_{\max}(\bar K) + \kappa\|\lambda\|_q .

    (These follow from (15) directly; bental2012 §5.3 prints :math:`L_{xy} = 2CL_{yy}`,
    :math:`L_{yy} = \sqrt L\max_l\lambda_l`, which drop :math:`\sqrt n`, :math:`\bar K` and :math:`\kappa`.)

    The certificate ``gap(x, y)`` is :math:`U(x) - F(y) \ge \varepsilon_{sad}(x, y)`, where
    :math:`F(y) = \underline\phi(y)` is the closed form of §4.2 and :math:`U(x) \ge \bar\phi(x)`
    is the SVM duality bound :math:`\tfrac12 \hat u^\top K_x \hat u + \max_{S_n}(e - YK_x\hat u)^\top\alpha`
    at :math:`\hat u = Y\hat\alpha` (``certificate="svm"``: :math:`\hat\alpha` from LIBSVM on the effective
    kernel :math:`K_x = \bar K + \kappa\sum_l x_l K_l`, also trying :math:`\hat\alpha = y`;
    ``certificate="cheap"``: only :math:`\hat\alpha = y`, an :math:`O(Ln^2)` bound that is looser).
    With ``polish=True`` (not in the paper) the LIBSVM :math:`\hat\alpha` is also refined by one
    solve of its KKT equations on its free set (``_kkt_polish``, :math:`O(n_{\rm free}^3)`): the bound is
    valid at any :math:`\hat\alpha` and the smallest value is kept. Without it LIBSVM's stopping error
    (tolerance ``svm_tol`` on the gradient, multiplied by about :math:`Cn` in the bound) dominates the
    certificate on ill-conditioned data such as the paper's, where :math:`\|\alpha_*\|` is tiny.

    ``restrict_x=True`` replaces X by :math:`X' = X \cap \{e^\top x \ge 1\}`. This keeps the saddle
    point and :math:`\underline\phi` (for :math:`d \ge 0, d \ne 0` the maximiser of :math:`x^\top d` over
    X, :math:`d^{q-1}/\|d\|_q^{q-1}`, has :math:`e^\top x \ge \|x\|_p = 1`), and on :math:`X'` every
    :math:`\phi(x,\cdot)` is strongly concave with modulus
    :math:`\lambda_{\min}(\bar K) + \kappa\min_l\lambda_{\min}(K_l)` (pass it as ``theta``): FSS's
    assumption A.1 can then hold even when :math:`\bar K` is singular (linear kernel, d < n).

    ``y_ball=(c, r)`` replaces Y by :math:`S_n \cap \{\|y - c\| \le r\}`; when :math:`\|y_* - c\| \le r`
    is known (e.g. from strong concavity and a measured gap) the saddle point is unchanged and
    :math:`D = \|c\| + r` replaces :math:`C\sqrt n` in :math:`L_{xy}`. The certificate stays the
    one of the full problem.
    """
    L, n = K_stack.shape[0], y.size
    q = 1.0 / (1.0 - 1.0 / p) if (p > 1 and np.isfinite(p)) else (np.inf if p == 1 else 1.0)
    op = _USSVMOperator(K_bar, K_stack, y, kappa)
    if lam_max_bar is None:
        lam_max_bar = float(np.linalg.eigvalsh(K_bar)[-1])
    if lam_max is None:
        lam_max = np.array([np.linalg.eigvalsh(K_stack[l].astype(float))[-1] for l in range(L)])
    lam_max = np.asarray(lam_max, dtype=float)
    D = C * math.sqrt(2 * min(np.sum(y > 0), np.sum(y < 0)))  # = max over S_n of |y|_2
    if y_ball is not None:
        D = min(D, float(np.linalg.norm(y_ball[0])) + float(y_ball[1]))
    L_xy = kappa * D * float(np.linalg.norm(lam_max)) if L else 0.0
    L_yy = lam_max_bar + (kappa * float(np.linalg.norm(lam_max, ord=q)) if L else 0.0)
    Omega_X = 0.5 * max(1.0, L ** (1.0 - 2.0 / p)) if (L and p > 2) else 0.5

    def lower(yv):
        u, Kbu, V = op.forms(yv)
        d = np.maximum((V @ u).astype(float), 0.0)
        nrm = float(np.linalg.norm(d, ord=q)) if L else 0.0
        return float(yv.sum() - 0.5 * float(u @ Kbu) - 0.5 * kappa * nrm)

    def upper_at(Kx, ahat):
        uh = y * ahat
        Ku = Kx @ uh
        return 0.5 * float(uh @ Ku) + svm_set_linear_max(1.0 - y * Ku, y, C)

    def gap(x, yv):
        Kx = effective_kernel(K_bar, K_stack, kappa * x)
        U = upper_at(Kx, yv)
        if certificate == "svm":
            ahat = svm_dual(Kx, y, C, tol=svm_tol).alpha
            U = min(U, upper_at(Kx, ahat))
            if polish:
                U = min(U, upper_at(Kx, _kkt_polish(Kx, y, C, ahat)))
        return max(U - lower(yv), 0.0)

    prob = SaddlePointProblem(
        operator=op, project_x=lambda v: project_positive_lp_ball(v, p),
        project_y=(lambda v: project_svm_set(v, y, C)) if y_ball is None else
        (lambda v: project_svm_set_ball(v, y, C, y_ball[0], y_ball[1])), x_omega=np.zeros(L), Omega_X=Omega_X, Omega_Y=0.5,
        L_xy=L_xy, L_yy=L_yy, theta=float(theta), gap=gap, lower=lower)
    prob.kernel_operator = op
    if restrict_x and L:
        prob.x_omega = project_simplex(np.zeros(L))  # argmin of |x|^2/2 on X' (the simplex centre)
    return prob


def _lam_max_stack(K_stack, iters=60, seed=0):
    """Largest eigenvalue of every kernel of the stack: batched power iteration on all L at once
    (one pass over the stack per iteration), Rayleigh quotient, times a 1 % safety margin."""
    L, n, _ = K_stack.shape
    rng = np.random.default_rng(seed)
    V = rng.standard_normal((L, n)).astype(K_stack.dtype)
    V /= np.linalg.norm(V, axis=1, keepdims=True)
    for _ in range(iters):
        W = np.matmul(K_stack, V[:, :, None])[:, :, 0]
        V = W / np.maximum(np.linalg.norm(W, axis=1, keepdims=True), 1e-300)
    W = np.matmul(K_stack, V[:, :, None])[:, :, 0]
    return 1.01 * np.einsum("ln,ln->l", V, W).astype(float)


def _alternate_start(K_work, K_stack, y, C, kappa, p, prob, rounds):
    """The ``y0="alternate"`` start of :func:`ussvm_fss`: ``rounds`` times, LIBSVM on the effective kernel
    at the current eta, then eta = the closed-form worst case at that alpha. Returns (alpha, x = eta/kappa)."""
    L = K_stack.shape[0]
    eta = kappa * np.asarray(prob.x_omega, dtype=float)
    alpha = np.zeros(y.size)
    for _ in range(rounds):
        alpha = svm_dual(effective_kernel(K_work, K_stack, eta), y, C).alpha
        if L == 0 or kappa == 0:
            return alpha, None
        u, _, V = prob.kernel_operator.forms(alpha)  # a_l = u^T K_l u with u = y * alpha
        a = np.maximum((V @ u).astype(float), 0.0)
        eta = worst_case_eta(a, kappa, p)
    x = prob.project_x(eta / kappa)
    return alpha, x


@dataclass(frozen=True)
class FSSOptions:
    r"""The expert knobs of :func:`ussvm_fss` (USSVM_MN), grouped so the solver's signature stays short.

    The defaults are those :func:`ussvm_fss` always had. ``dataclasses.replace(options, step="backtracking")``
    changes one knob; :func:`ussvm_fss` also takes any field as a keyword.

    Attributes
    ----------
    max_stages : int
        Cap on the number of FSS stages.
    schedule : {"adaptive", "theory"}
        Stage lengths: (16e) needs :math:`\theta > 0`; see :func:`fss_saddle`. With a linear
        :math:`\bar K` and d < n, :math:`\theta = 0`: use ``"adaptive"`` or ``ridge > 0``.
    ridge : float >= 0
        Solve with :math:`\bar K + \mathrm{ridge}\,I` (so :math:`\theta \ge` ridge); this changes the
        problem (the optimal value moves by at most :math:`\mathrm{ridge}\,C^2 n/2`).
    R0 : "paper", "auto" or float
        ``"paper"``: :math:`R_0 = 2C\sqrt n` (bental2012 §5.3, valid for any :math:`\bar y_0 \in S_n`);
        ``"auto"``: also :math:`2\sqrt{2\varepsilon_{sad}(x_\omega,\bar y_0)/\theta}` when smaller
        (valid by strong concavity). ``"probe"`` (not in the paper): that radius times
        :math:`(\theta/L_{yy})^{1/4}`, the geometric mean of the distances the gap allows at the smallest
        and at the largest curvature. Not a bound on :math:`\|\bar y_0 - y_*\|` (condition
        :math:`(I_0)` may fail), but the certificate is computed on the full problem, so a radius
        that is too small can only stall :math:`\varepsilon_{sad}`, never certify a wrong answer.
        It matters because the x-steps scale like :math:`1/(L_{xy}R)` with :math:`L_{xy} \propto R`:
        a radius 100 times too large makes x move :math:`10^4` times too slowly.
    y0 : "zeros", "svm", "alternate" or array
        :math:`\bar y_0`: 0, the nominal SVM's :math:`\alpha` on :math:`\bar K` (warm start), given, or
        ``"alternate"`` (not in the paper): ``n_alternate`` rounds of LIBSVM on the effective kernel
        :math:`\bar K + \sum_l\eta_l K_l` followed by the closed-form worst case :math:`\eta(\alpha)`,
        from :math:`\eta = \kappa x_\omega`. The start is then certified at the pair
        :math:`(\eta(\bar y_0)/\kappa, \bar y_0)` (``x_cert`` of :func:`fss_saddle`), so ``R0="auto"``
        is small. FSS itself is unchanged; when this start already meets ``tol`` no FSS step is taken
        (``nit = 0``).
    n_alternate : int >= 1
        Rounds of the ``y0="alternate"`` start.
    polish : bool
        Refine LIBSVM's solution inside the certificate by one KKT solve (see :func:`ussvm_saddle_problem`);
        off by default (the experiments of Figs. 2 and 5 were run without it), on in the fast variant
        ``y0="alternate", recenter_x=True, polish=True``.
    svm_tol : float > 0
        LIBSVM's tolerance inside the certificate (:func:`ussvm_saddle_problem`); with ``polish=True`` a
        tighter one (e.g. 1e-10) gives the polish the right active set on large problems.
    recenter_x : bool
        Not in the paper: every stage starts x (and centres :math:`\omega_X`) at the previous stage's average
        (stage 0 at the ``y0="alternate"`` worst case), as FSS does for y, instead of at :math:`x_\omega`;
        :math:`\Omega_X` is doubled to :math:`\max_X\|x\|^2`, which bounds :math:`\tfrac12\|x - c\|^2` on X for
        every centre c in the positive orthant (see :func:`fss_saddle`).
    certificate : {"svm", "cheap"}
        How :math:`\varepsilon_{sad}` is bounded (see :func:`ussvm_saddle_problem`).
    dtype : None, float32 or float64
        Storage of the kernel stack in the hot path (float32 halves memory traffic).
    bias_floor : float in [0, 1) or None
        Entries :math:`\alpha_i \le` ``bias_floor`` :math:`\cdot\max_j\alpha_j` are not support vectors of the
        bias (:func:`robustpapers.core.support_vectors`); None: ``tol``. Stopped at a relative gap ``tol``, FSS
        leaves entries of a few :math:`10^{-4}\max_j\alpha_j` where the SOCP's solution has 0; counted, they
        move the bias by more than 0.01 on the protein analog (see the bental2012_proteins page and
        ``test_fss_bias_floor_gives_the_socp_bias``). 0 counts them.
    eig : {"exact", "power"}
        :math:`\lambda_{\max}(K_l)` (and :math:`\lambda_{\min}(K_l)`) by ``eigvalsh``, or
        :math:`\lambda_{\max}` only by batched power iteration (+1 %; then the :math:`K_l` add nothing to theta).
    restrict_x : bool
        Solve over :math:`X' = X\cap\{e^\top x\ge 1\}` (same saddle point; strong concavity
        :math:`\theta = \lambda_{\min}(\bar K) + \kappa\min_l\lambda_{\min}(K_l)`), see :func:`ussvm_saddle_problem`.
    restrict_y : bool
        With ``R0="auto"`` and :math:`\theta > 0`, also solve over :math:`Y' = S_n\cap\{\|y-\bar y_0\|\le R_0/2\}`
        (contains :math:`y_*` by the same bound; shrinks :math:`L_{xy}`), see :func:`ussvm_saddle_problem`.
    blas_threads : int or None
        BLAS threads in the iterations (``threadpoolctl``; 1 is fastest for the memory-bound
        matrix-vector products on a shared machine; None leaves BLAS alone).
    theta : float, optional
        Override the strong-concavity modulus (must be valid for the theory schedule).
    step, step_grow
        Step rule of :func:`fss_saddle`: the paper's fixed step (16b) or Mirror-Prox's
        backtracking on the local Lipschitz condition (Nemirovski 2004).
    check_every : int
        Steps between two evaluations of the certificate (see :func:`fss_saddle`).
    checkpoint_every : float
        Seconds between two calls of ``checkpoint`` (see :func:`fss_saddle`).
    callback, verbose
        Passed to :func:`fss_saddle`.

    Examples
    --------
    >>> from dataclasses import replace
    >>> fast = replace(FSSOptions(), y0="alternate", recenter_x=True, polish=True, svm_tol=1e-10)
    >>> fast.step, fast.y0
    ('fixed', 'alternate')
    """

    max_stages: int = 60
    schedule: str = "adaptive"
    ridge: float = 0.0
    R0: Union[str, float] = "auto"
    y0: Any = "zeros"
    certificate: str = "svm"
    check_every: int = 20
    dtype: Any = None
    eig: str = "exact"
    restrict_x: bool = True
    restrict_y: bool = True
    theta: Optional[float] = None
    blas_threads: Optional[int] = 1
    step: str = "fixed"
    step_grow: float = 1.5
    n_alternate: int = 2
    polish: bool = False
    recenter_x: bool = False
    svm_tol: float = 1e-6
    bias_floor: Optional[float] = None
    checkpoint_every: float = 600.0
    callback: Optional[Callable] = None
    verbose: bool = False


def _fss_options(options, expert):
    """``options`` (None: the defaults) with the keyword overrides ``expert``; a ValueError names a bad one."""
    if options is None:
        options = FSSOptions()
    elif not isinstance(options, FSSOptions):
        raise ValueError(f"options must be an FSSOptions or None, got {type(options).__name__}")
    unknown = sorted(set(expert) - {f.name for f in fields(FSSOptions)})
    if unknown:
        raise TypeError(f"ussvm_fss() got unexpected keyword argument(s): {', '.join(unknown)}")
    return replace(options, **expert) if expert else options


def ussvm_fss(K_bar: np.ndarray, K_list: np.ndarray, y: np.ndarray, C: float, kappa: float, p: float = 2, *,
              tol: float = 1e-4, max_iter: int = 20_000, bias: str = "paper",
              options: FSSOptions | None = None, checkpoint: Any = None, resume: Any = None, **expert: Any
) -> SolverResult:
    r"""USSVM_MN: the robust SVM (12) solved by the FSS saddle-point algorithm (bental2012 §5.3).

    .. math::

        \max_{\alpha\in S_n}\ \min_{\eta \ge 0,\ \|\eta\|_p\le\kappa}\
        e^\top\alpha - \tfrac12\alpha^\top Y\Big(\bar K + \sum_l \eta_l K_l\Big)Y\alpha

    as :math:`\min_x\max_y\phi` (see :func:`ussvm_saddle_problem`) by :func:`fss_saddle`: x-step in
    closed form (projection on the positive part of the p-ball), y-step by the exact projection
    :func:`robustpapers.core.project_svm_set` (the paper grid-searches, App. B).

    Parameters
    ----------
    K_bar, K_list, y, C, kappa, p
        As in :func:`ussvm_socp`; ``K_list`` preferably an (L, n, n) array.
    tol : float
        Stop when the certificate :math:`\varepsilon_{sad} \le \mathrm{tol}\cdot|F(y^s)|` (relative).
    max_iter : int
        Cap on the total number of FSS steps :math:`M_s`.
    bias : {"paper", "free"}
        Bias rule (:func:`robust_bias`) on the effective kernel :math:`\bar K + \sum_l\eta_l K_l`.
    options : FSSOptions, optional
        The expert knobs (stage schedule, step rule, start, radius, certificate, storage...); None: the defaults
        of :class:`FSSOptions`.
    checkpoint, resume
        Split a long run over several processes (see :func:`fss_saddle`): ``checkpoint(state)`` receives the
        state of the iterations (every ``options.checkpoint_every`` seconds); ``resume=state`` with the same
        data and arguments goes on from it.
    **expert
        Any field of :class:`FSSOptions` by name (``step="backtracking"``), overriding ``options``: the
        keywords this function took before the options were grouped keep working.

    Returns
    -------
    SolverResult
        ``alpha``, ``b``, ``eta`` (worst case at ``alpha``), ``objective`` = :math:`F(\alpha)`,
        ``gap`` (certificate), ``nit`` (:math:`M_s`), ``stages``, ``theta``, ``constants``
        (L_xy, L_yy, R_0, Omega_X, Omega_Y) and ``trace`` (per stage: stage, M, N, R, gap, time).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 1.0], [1.0, 0.0], [3.0, 1.0], [4.0, 0.5]]); y = np.array([-1, -1, 1, 1])
    >>> K = X @ X.T + np.eye(4)
    >>> res = ussvm_fss(K, np.stack([K, 2 * K]), y, C=1.0, kappa=0.5, tol=1e-6)
    >>> res.success, bool(res.gap <= 1e-6 * abs(res.objective))
    (True, True)
    """
    o = _fss_options(options, expert)
    max_stages, schedule, ridge, R0, y0, certificate = o.max_stages, o.schedule, o.ridge, o.R0, o.y0, o.certificate
    check_every, dtype, eig, restrict_x, restrict_y, theta = o.check_every, o.dtype, o.eig, o.restrict_x, o.restrict_y, o.theta
    blas_threads, step, step_grow, n_alternate, polish = o.blas_threads, o.step, o.step_grow, o.n_alternate, o.polish
    recenter_x, svm_tol, bias_floor, checkpoint_every = o.recenter_x, o.svm_tol, o.bias_floor, o.checkpoint_every
    callback, verbose = o.callback, o.verbose
    K_bar, K_stack, y, C, kappa, q, lam_min, lam_max_bar = check_ussvm_problem(
        K_bar, K_list, y, C, kappa, p, dtype=dtype)
    theta_given = theta
    if theta_given is not None and not (np.isfinite(theta_given) and theta_given >= 0):
        raise ValueError(f"theta must be a finite number >= 0, got {theta_given!r}")
    ridge = float(ridge)
    if not np.isfinite(ridge) or ridge < 0:
        raise ValueError(f"ridge must be a finite number >= 0, got {ridge!r}")
    if certificate not in ("svm", "cheap"):
        raise ValueError(f"certificate must be 'svm' or 'cheap', got {certificate!r}")
    if not (np.isfinite(svm_tol) and svm_tol > 0):
        raise ValueError(f"svm_tol must be a finite number > 0, got {svm_tol!r}")
    floor = tol if bias_floor is None else bias_floor
    if not (np.isfinite(floor) and 0 <= floor < 1):  # checked before the solve, not after it in robust_bias
        raise ValueError(f"bias_floor (None: tol) must be in [0, 1), got {floor!r}")
    if isinstance(n_alternate, bool) or not isinstance(n_alternate, (int, np.integer)) or n_alternate < 1:
        raise ValueError(f"n_alternate must be an integer >= 1, got {n_alternate!r}")
    n, L = y.size, K_stack.shape[0]
    K_work = K_bar + ridge * np.eye(n) if ridge > 0 else K_bar
    theta = lam_min + ridge
    if theta <= 1e-10 * max(1.0, lam_max_bar):
        theta = 0.0
    lam_min_l = 0.0
    if eig == "exact":
        ev = [np.linalg.eigvalsh(K_stack[l].astype(float))[[0, -1]] for l in range(L)]
        lam = np.array([e[1] for e in ev])
        lam_min_l = max(0.0, min((e[0] for e in ev), default=0.0))
    elif eig == "power":
        lam = _lam_max_stack(K_stack)
    else:
        raise ValueError(f"eig must be 'exact' or 'power', got {eig!r}")
    if restrict_x and L and kappa > 0:
        theta = theta + kappa * lam_min_l
    if theta_given is not None:
        theta = float(theta_given)
    pf = float(p)
    if L == 0 or kappa == 0:
        n_alternate = 1
    prob = ussvm_saddle_problem(K_work, K_stack, y, C, kappa, pf, theta=theta, lam_max_bar=lam_max_bar + ridge,
                                lam_max=lam, certificate=certificate, restrict_x=restrict_x, polish=polish,
                                svm_tol=svm_tol)
    x_cert = None
    if isinstance(y0, str):
        if y0 == "zeros":
            ybar0 = np.zeros(n)
        elif y0 == "svm":
            ybar0 = svm_dual(K_work, y, C).alpha
        elif y0 == "alternate":
            ybar0, x_cert = _alternate_start(K_work, K_stack, y, C, kappa, pf, prob, n_alternate)
        else:
            raise ValueError(f"y0 must be 'zeros', 'svm', 'alternate' or an array, got {y0!r}")
    else:
        ybar0 = project_svm_set(np.asarray(y0, dtype=float), y, C)
    R_paper = 2 * C * math.sqrt(n)
    ball = None
    if isinstance(R0, str):
        if R0 == "paper":
            R = R_paper
        elif R0 in ("auto", "probe"):
            R = R_paper
            if theta > 0:
                # strong concavity: theta/2 |ybar0 - y*|^2 <= SadVal - F(ybar0) <= eps_sad(x, ybar0)
                R_gap = 2 * math.sqrt(2 * prob.gap(prob.x_omega if x_cert is None else x_cert, ybar0) / theta)
                if R_gap < R or R0 == "probe":
                    R = max(min(R_gap, R), 1e-300)
                    if R0 == "probe":
                        # R_gap uses the smallest curvature theta, R_gap * sqrt(theta / L_yy) the largest:
                        # take their geometric mean. A guess, not a bound: the certificate below is the
                        # full problem's, so a ball that misses y_* can only stall the gap, never fake it.
                        R = R * min(1.0, theta / prob.L_yy) ** 0.25
                    if restrict_y:
                        ball = (ybar0.copy(), R / 2)
        else:
            raise ValueError(f"R0 must be 'paper', 'auto', 'probe' or a positive number, got {R0!r}")
    else:
        R = float(R0)
        if not R > 0:
            raise ValueError(f"R0 must be > 0, got {R0!r}")
    if ball is not None:
        prob = ussvm_saddle_problem(K_work, K_stack, y, C, kappa, pf, theta=theta, lam_max_bar=lam_max_bar + ridge,
                                    lam_max=lam, certificate=certificate, restrict_x=restrict_x, y_ball=ball,
                                    polish=polish, svm_tol=svm_tol)
    if L == 0 or kappa == 0:
        prob.L_xy = 0.0
    if recenter_x:
        prob.Omega_X = 2.0 * prob.Omega_X  # max over X of |x - c|^2 / 2 <= max |x|^2 for x, c >= 0
    with threadpool_limits(limits=blas_threads):
        res = fss_saddle(prob, ybar0, R, tol=tol, relative=True, max_iter=max_iter, max_stages=max_stages,
                         schedule=schedule, check_every=check_every, step=step, step_grow=step_grow,
                         x_cert=x_cert, recenter_x=recenter_x, checkpoint=checkpoint,
                         checkpoint_every=checkpoint_every, resume=resume, callback=callback, verbose=verbose)
    alpha = np.clip(res.y, 0.0, C)
    u = y * alpha
    a = (prob.kernel_operator.forms(alpha)[2] @ u.astype(K_stack.dtype)).astype(float) if L else np.zeros(0)
    eta = worst_case_eta(np.maximum(a, 0.0), kappa, pf) if L else np.zeros(0)
    b = robust_bias(effective_kernel(K_work, K_stack, eta), y, alpha, C, rule=bias, floor=floor)
    F_work = prob.lower(alpha)
    F = robust_objective(alpha, K_bar, K_stack.astype(float, copy=False), y, kappa, pf) if ridge > 0 else F_work
    return SolverResult(x=alpha, alpha=alpha, b=b, eta=eta, objective=F, objective_solved=F_work, success=res.success, nit=res.nit,
                        message=res.message, status=res.status, trace=res.trace, gap=res.gap,
                        stages=res.stages, theta=theta, eta_avg=kappa * res.x, operator_calls=prob.kernel_operator.calls,
                        constants=dict(y_ball_radius=None if ball is None else ball[1], L_xy=prob.L_xy, L_yy=prob.L_yy, R0=R, Omega_X=prob.Omega_X,
                                       Omega_Y=prob.Omega_Y, theta=theta))
