"""The Fixed Step-size per Stage (FSS) saddle-point algorithm of bental2012 §5.2, for any problem.

General (not one paper's): bental2012 uses it for USSVM_MN and for its chance-constrained SVM, and any
convex-concave problem given as a :class:`SaddlePointProblem` can use it.

FSS solves :math:`\\min_{x\\in X}\\max_{y\\in Y}\\phi(x, y)` for :math:`\\phi` affine in
:math:`x` (A.3), strongly concave in :math:`y` with modulus :math:`\\theta` (A.1) and with
Lipschitz gradient (A.2). It runs Mirror-Prox (Nemirovski 2004) in stages; stage
:math:`s` uses the fixed step :math:`\\tau_s = 1/\\mathcal L_s` of (16b), the prox-function
(16d) centred at :math:`\\bar y_s`, :math:`N_s` steps (16e) of the extragradient recurrence
(17), returns the average (18) of the leading points and halves :math:`R_s`.

This implementation uses Euclidean distance-generating functions on both blocks,
:math:`\\omega_X = \\tfrac12\\|x\\|_2^2` and :math:`\\omega_{\\mathcal Y} = \\tfrac12\\|y\\|_2^2`
(the choice of bental2012 §5.3), so every prox step (17) is a Euclidean projection
(Proposition 3, eq. (21)); the problem supplies the two projections.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, Callable, Optional

import numpy as np

from .result import SolverResult, Trace, warn_not_converged
from .validation import check_positive

__all__ = ["SaddlePointProblem", "fss_stage_constants", "fss_saddle"]


#: Relative tolerance on the float constants a resumed run must share with the run that wrote the state. They
#: come from eigenvalues and from a certificate that solves an SVM dual iteratively, and another CPU rounds those
#: differently: Fig. 5's N = 500 problem gave L_xy and R0 2.6e-11 apart (relative) on two machines. A different
#: problem or option moves them by far more.
_RESUME_RTOL = 1e-9


def _check_resume(resume, identity, ybar0):
    """Refuse a ``resume`` state that another run (other problem, start or options) wrote."""
    if not isinstance(resume, dict) or resume.get("version") != 1:
        raise ValueError("resume must be a state dict given to fss_saddle's checkpoint (version 1)")
    theirs = resume.get("identity", {})

    def same(a, b):
        if isinstance(a, float) and isinstance(b, (int, float)) and not isinstance(b, bool):
            return math.isclose(a, b, rel_tol=_RESUME_RTOL)
        return a == b
    differ = sorted(k for k, v in identity.items() if k not in theirs or not same(v, theirs[k]))
    if differ:
        raise ValueError(f"resume state belongs to another run: {', '.join(differ)} differ")
    y0_then = np.asarray(resume.get("y0"), dtype=float)
    if y0_then.shape != ybar0.shape or not np.allclose(
            y0_then, ybar0, rtol=_RESUME_RTOL, atol=_RESUME_RTOL * float(np.max(np.abs(ybar0), initial=1e-300))):
        raise ValueError("resume state belongs to another run: the start y0 differs")


@dataclass
class SaddlePointProblem:
    """A saddle-point problem :math:`\\min_{x\\in X}\\max_{y\\in Y}\\phi(x,y)` in the form FSS needs (bental2012 §5.1).

    Attributes
    ----------
    operator : callable ``(x, y) -> (g_x, g_y)``
        The monotone operator :math:`G = (\\partial\\phi/\\partial x, -\\partial\\phi/\\partial y)`.
    project_x, project_y : callable ``v -> u``
        Euclidean projections onto :math:`X` and :math:`Y`.
    x_omega : array
        The minimiser of :math:`\\omega_X = \\tfrac12\\|x\\|^2` on :math:`X`.
    Omega_X, Omega_Y : float
        :math:`\\max_X \\omega_X - \\min_X \\omega_X` and the same on the unit ball of :math:`\\mathcal Y`.
    L_xy, L_yy : float
        Partial Lipschitz constants of :math:`G` (eq. (15)).
    theta : float
        Strong concavity modulus of :math:`\\phi(x,\\cdot)` (A.1); 0 if unknown/absent.
    gap : callable ``(x, y) -> float``, optional
        An upper bound on :math:`\\varepsilon_{sad}(x, y) = \\bar\\phi(x) - \\underline\\phi(y)`.
    lower : callable ``y -> float``, optional
        :math:`\\underline\\phi(y) = \\min_X \\phi(\\cdot, y)` (reported in the trace).
    """

    operator: Callable
    project_x: Callable
    project_y: Callable
    x_omega: np.ndarray
    Omega_X: float
    Omega_Y: float
    L_xy: float
    L_yy: float
    theta: float = 0.0
    gap: Optional[Callable] = None
    lower: Optional[Callable] = None


def fss_stage_constants(problem: Any, R: float) -> dict[str, Any]:
    """The stage constants (16 b, c, e) for radius ``R``: a dict with ``calL, tau, alpha, beta, N, step_x, step_y``.

    ``step_x = Omega_X tau / alpha`` and ``step_y = Omega_Y R^2 tau / beta`` are the
    gradient steps of the equivalent projections (21); ``N`` is ``inf`` when theta = 0.
    """
    c = math.sqrt(problem.Omega_X * problem.Omega_Y)
    a_part = problem.L_xy * c * R
    b_part = problem.L_yy * problem.Omega_Y * R**2
    calL = 2 * a_part + b_part
    if calL <= 0:
        raise ValueError("the Lipschitz constants L_xy, L_yy are both zero: G is constant")
    tau = 1.0 / calL
    alpha = a_part / calL
    beta = 1.0 - alpha
    step_x = problem.Omega_X * tau / alpha if alpha > 0 else 1.0 / calL
    step_y = problem.Omega_Y * R**2 * tau / beta
    num = 64 * problem.L_xy * c / R + 32 * problem.L_yy * problem.Omega_Y
    N = math.ceil(num / problem.theta) if problem.theta > 0 else math.inf
    return dict(calL=calL, tau=tau, alpha=alpha, beta=beta, N=max(int(N), 1) if np.isfinite(N) else N,
                step_x=step_x, step_y=step_y)


def fss_saddle(problem: SaddlePointProblem, y0: np.ndarray, R0: float, *, tol: float = 1e-6,
               max_iter: int = 100_000, max_stages: int = 60, schedule: str = "theory", check_every: int = 50,
               min_stage_iter: int = 10, relative: bool = False, step: str = "fixed", step_grow: float = 1.5,
               step_max: float = 1e3, x_cert: np.ndarray | None = None, recenter_x: bool = False,
               checkpoint: Callable[..., Any] | None = None, checkpoint_every: float = 600.0,
               resume: dict[str, Any] | None = None, callback: Callable[..., Any] | None = None,
               verbose: bool = False) -> SolverResult:
    r"""Solve :math:`\min_{x\in X}\max_{y\in Y}\phi(x,y)` by FSS (bental2012 §5.2).

    .. math::

        w_{t,s} = \mathrm{Prox}_{z_{t,s}}(\tau_s G(z_{t,s})),\quad
        z_{t+1,s} = \mathrm{Prox}_{z_{t,s}}(\tau_s G(w_{t,s})),\quad
        (x^s, y^s) = \frac1{N_s}\sum_{t=1}^{N_s} w_{t,s}

    (eqs. (17)-(18)), stage constants (16 a-e), :math:`\bar y_{s+1} = y^s`,
    :math:`R_{s+1} = R_s/2`; each stage starts at :math:`z_{1,s} = (x_\omega, \bar y_s)`.

    Parameters
    ----------
    problem : SaddlePointProblem
    y0 : array
        :math:`\bar y_0 \in Y`.
    R0 : float > 0
        Must satisfy :math:`\|\bar y_0 - y_*\| \le R_0/2` (condition :math:`(I_0)`).
    tol : float
        Stop when the certificate ``problem.gap(x^s, y^s) <= tol`` (times
        ``|problem.lower(y^s)|`` when ``relative``). Without ``problem.gap`` the run stops
        at ``max_iter``/``max_stages``.
    max_iter : int
        Cap on the total number of steps :math:`M_s = \sum_s N_s`.
    max_stages : int
        Cap on the number of stages.
    schedule : {"theory", "adaptive"}
        ``"theory"``: :math:`N_s` of (16e) (needs :math:`\theta > 0`). ``"adaptive"``: a
        stage also ends as soon as the certified gap of its running average has fallen
        to a quarter of the gap it started from (the per-stage reduction (19) guarantees
        when :math:`\theta > 0`), checked every ``check_every`` steps after
        ``min_stage_iter``; capped by (16e) when :math:`\theta > 0`. With :math:`\theta = 0`
        this is the only way a stage ends (Mirror-Prox restarted on measured progress).
    check_every, min_stage_iter : int
        Certificate schedule of the adaptive rule.
    relative : bool
        Make ``tol`` relative to :math:`|\underline\phi(y^s)|` (needs ``problem.lower``).
    step : {"fixed", "backtracking"}
        ``"fixed"``: the paper's step :math:`\tau_s` of (16b) at every step. ``"backtracking"``
        (not in the paper): Mirror-Prox's local step rule (Nemirovski 2004): the
        steps are :math:`\gamma_t\tau_s` (block ratio of (16c) kept) with :math:`\gamma_t`
        multiplied by ``step_grow`` before each step and halved (never below 1) until
        :math:`\langle G(w)-G(z), w-z_+\rangle \le \tfrac12\|w-z\|^2+\tfrac12\|z_+-w\|^2`
        in the metric of the steps; the average (18) is then weighted by :math:`\gamma_t`.
        The Mirror-Prox bound :math:`\varepsilon_{sad} \le \Omega/\sum_t\gamma_t \le \Omega/N_s`
        keeps (19) for the (16e) stage length; ``problem.gap`` stays the certificate.
    step_grow : float >= 1
        Growth factor of :math:`\gamma_t` for ``step="backtracking"``.
    step_max : float >= 1
        Cap on :math:`\gamma_t`.
    x_cert : array, optional
        A point of X at which the start :math:`\bar y_0` is certified (``gap(x_cert, y0)``; default
        :math:`x_\omega`), e.g. the worst case at :math:`\bar y_0`. Every stage still starts at
        :math:`z_{1,s} = (x_\omega, \bar y_s)`; if the start is already certified, no step is taken.
    recenter_x : bool
        Not in the paper: stage :math:`s` uses :math:`\omega_X^s(x) = \tfrac12\|x - x^{s-1}\|^2`, centred at the
        previous stage's average (stage 0 at ``x_cert`` if given), and starts there, as the paper does for
        :math:`y`. Each stage's Mirror-Prox bound only needs :math:`\Omega_X \ge \max_X\omega_X^s`; the
        caller must pass an ``Omega_X`` valid for every centre in X (e.g. :math:`\tfrac12\mathrm{diam}(X)^2`).
        The prox steps (21) are the same projections.
    checkpoint : callable, optional
        ``checkpoint(state)`` with a dict (arrays and JSON-able values) that describes the run completely:
        inside a stage every ``checkpoint_every`` seconds, and at the end of every stage. The caller stores it;
        passed back as ``resume``, it continues an interrupted run (a run of hours split over processes).
    checkpoint_every : float >= 0
        Seconds between two ``checkpoint`` calls inside a stage (0: after every step).
    resume : dict, optional
        A ``state`` given to ``checkpoint`` by a run of the same problem with the same ``y0``, ``R0``, ``tol``
        and options (``max_iter`` and ``max_stages`` may differ). The run goes on from there and takes the same
        steps as a run never interrupted; ``trace`` holds the records of all segments, its ``time`` counts
        computation only. A state of another run raises ``ValueError``. On another machine the constants
        (:math:`L_{xy}`, :math:`R_0`, ...) may differ in the last bits; they are accepted to within
        ``1e-9`` relative and the resumed run uses this machine's.
    callback : callable, optional
        ``callback(stage_info_dict)`` after every stage; return True to stop.
    verbose : bool
        Print one line per stage.

    Returns
    -------
    SolverResult
        ``x``, ``y`` (the last averaged iterates), ``gap`` (their certificate),
        ``nit`` (:math:`M_s`), ``stages`` and ``trace`` with one record per stage:
        ``stage, M (= M_s), N (= N_s), R, gap (= eps_sad certificate), objective
        (= lower(y^s) if given), time``.

    Examples
    --------
    A toy problem :math:`\min_{0\le x\le 1}\max_{0 \le y \le 2} x y - y^2` (saddle value 0):

    >>> import numpy as np
    >>> prob = SaddlePointProblem(
    ...     operator=lambda x, y: (y.copy(), -(x - 2 * y)),
    ...     project_x=lambda v: np.clip(v, 0, 1), project_y=lambda v: np.clip(v, 0, 2),
    ...     x_omega=np.zeros(1), Omega_X=0.5, Omega_Y=0.5, L_xy=1.0, L_yy=2.0, theta=2.0,
    ...     gap=lambda x, y: float(max(x[0] ** 2 / 4, 0) - (0 * y[0] - y[0] ** 2)))
    >>> res = fss_saddle(prob, np.array([1.0]), R0=4.0, tol=1e-8)
    >>> bool(res.success and res.gap <= 1e-8)
    True
    """
    R0 = check_positive(R0, "R0")
    if schedule not in ("theory", "adaptive"):
        raise ValueError(f"schedule must be 'theory' or 'adaptive', got {schedule!r}")
    if schedule == "theory" and not problem.theta > 0:
        raise ValueError("schedule='theory' needs theta > 0 (A.1); use schedule='adaptive' "
                         "or make phi strongly concave (e.g. a ridge)")
    if step not in ("fixed", "backtracking"):
        raise ValueError(f"step must be 'fixed' or 'backtracking', got {step!r}")
    if not (np.isfinite(step_grow) and step_grow >= 1):
        raise ValueError(f"step_grow must be a finite number >= 1, got {step_grow!r}")
    if int(max_iter) < 1:
        raise ValueError(f"max_iter must be a positive integer, got {max_iter!r}")
    if not (np.isfinite(checkpoint_every) and checkpoint_every >= 0):
        raise ValueError(f"checkpoint_every must be a finite number >= 0, got {checkpoint_every!r}")
    trace = Trace()
    x_om = np.asarray(problem.x_omega, dtype=float)
    ybar = problem.project_y(np.asarray(y0, dtype=float))
    ybar0 = ybar.copy()  # the start, kept in every checkpoint to recognise the run
    # what a resumed run must share with the run that wrote the state (max_iter, max_stages may grow)
    identity = dict(R0=R0, tol=tol, schedule=schedule, check_every=int(check_every),
                    min_stage_iter=int(min_stage_iter), relative=bool(relative), step=step,
                    step_grow=float(step_grow), step_max=float(step_max), recenter_x=bool(recenter_x),
                    L_xy=float(problem.L_xy), L_yy=float(problem.L_yy), theta=float(problem.theta),
                    Omega_X=float(problem.Omega_X), Omega_Y=float(problem.Omega_Y))
    if resume is not None:
        _check_resume(resume, identity, ybar0)
    R = R0
    M = 0
    gap_fn = problem.gap

    def small(g, yv):
        if gap_fn is None or not np.isfinite(g):
            return False
        if relative and problem.lower is not None:
            return g <= tol * abs(problem.lower(yv))
        return g <= tol
    inner = None
    if resume is None:
        x_s, y_s = (x_om.copy() if x_cert is None else np.asarray(x_cert, dtype=float).copy()), ybar.copy()
        gap_prev = gap_fn(x_s, y_s) if gap_fn is not None else np.inf
        trace.record(objective=problem.lower(y_s) if problem.lower else np.nan, gap=gap_prev,
                     stage=-1, M=0, N=0, R=R)
        converged = small(gap_prev, y_s)
        x_centre = x_s.copy() if recenter_x else x_om
        stage = 0
    else:
        outer = resume["outer"]
        stage, M, R, gap_prev = int(outer["stage"]), int(outer["M"]), float(outer["R"]), float(outer["gap_prev"])
        ybar, x_centre = np.array(resume["ybar"], dtype=float), np.array(resume["x_centre"], dtype=float)
        x_s, y_s = np.array(resume["x_s"], dtype=float), np.array(resume["y_s"], dtype=float)
        trace.resume(resume["trace"], outer["elapsed"])
        converged = small(gap_prev, y_s)
        inner = resume.get("inner")
    stopped = False
    last_save = time.perf_counter()

    def state(inner_state):
        outer_state = dict(stage=stage, M=M, R=R, gap_prev=float(gap_prev),
                           elapsed=trace.elapsed())
        return dict(version=1, identity=identity, outer=outer_state, ybar=ybar.copy(), x_centre=x_centre.copy(),
                    x_s=x_s.copy(), y_s=y_s.copy(), y0=ybar0,
                    trace={k: list(v) for k, v in trace.columns.items()}, inner=inner_state)

    while not converged and not stopped and stage < max_stages and M < max_iter:
        k = fss_stage_constants(problem, R)
        N_cap = min(k["N"], max_iter - M)
        sx, sy = k["step_x"], k["step_y"]
        target = max(gap_prev / 4, problem.theta * R**2 / 32) if np.isfinite(gap_prev) else -np.inf
        gap_s = np.nan
        if inner is None:
            x, y = x_centre.copy(), ybar.copy()
            sum_x, sum_y = np.zeros_like(x), np.zeros_like(y)
            t = 0
            gamma = 1.0  # step multiplier: always 1 for step="fixed"
            wsum = 0.0
        else:  # resumed inside this stage
            x, y = np.array(inner["x"], dtype=float), np.array(inner["y"], dtype=float)
            sum_x, sum_y = np.array(inner["sum_x"], dtype=float), np.array(inner["sum_y"], dtype=float)
            t, gamma, wsum = int(inner["t"]), float(inner["gamma"]), float(inner["wsum"])
            inner = None
        while t < N_cap:
            gx, gy = problem.operator(x, y)
            if step == "fixed":
                wx, wy = problem.project_x(x - sx * gx), problem.project_y(y - sy * gy)
                hx, hy = problem.operator(wx, wy)
                x, y = problem.project_x(x - sx * hx), problem.project_y(y - sy * hy)
            else:
                # Mirror-Prox with the local step rule of Nemirovski (2004): accept the multiplier
                # gamma when <G(w) - G(z), w - z+> <= (|w - z|^2 + |z+ - w|^2) / 2 in the metric of
                # the steps (gamma sx, gamma sy); otherwise halve gamma and redo the step from z.
                gamma = min(gamma * step_grow, step_max)  # capped: on a face where G is nearly
                # constant the local test holds for any gamma, and huge steps only cost projections
                while True:
                    ax, ay = gamma * sx, gamma * sy
                    wx, wy = problem.project_x(x - ax * gx), problem.project_y(y - ay * gy)
                    hx, hy = problem.operator(wx, wy)
                    zx, zy = problem.project_x(x - ax * hx), problem.project_y(y - ay * hy)
                    lhs = float((hx - gx) @ (wx - zx) + (hy - gy) @ (wy - zy))
                    rhs = 0.5 * (float((wx - x) @ (wx - x) + (zx - wx) @ (zx - wx)) / ax
                                 + float((wy - y) @ (wy - y) + (zy - wy) @ (zy - wy)) / ay)
                    if lhs <= rhs or gamma <= 1.0:
                        break
                    gamma = max(gamma / 2, 1.0)
                x, y = zx, zy
            sum_x += gamma * wx
            sum_y += gamma * wy
            wsum += gamma
            t += 1
            if (schedule == "adaptive" and gap_fn is not None and t >= min_stage_iter
                    and t % check_every == 0 and t < N_cap):
                gap_s = gap_fn(sum_x / wsum, sum_y / wsum)
                if gap_s <= target or small(gap_s, sum_y / wsum):
                    break
                gap_s = np.nan
            if checkpoint is not None and t < N_cap and time.perf_counter() - last_save >= checkpoint_every:
                checkpoint(state(dict(t=t, gamma=gamma, wsum=wsum, x=x.copy(), y=y.copy(),
                                      sum_x=sum_x.copy(), sum_y=sum_y.copy())))
                last_save = time.perf_counter()
        M += t
        x_s, y_s = sum_x / wsum, sum_y / wsum
        if np.isnan(gap_s):
            gap_s = gap_fn(x_s, y_s) if gap_fn is not None else np.nan
        info = dict(stage=stage, M=M, N=t, R=R, gap=gap_s, mean_gamma=wsum / t)
        trace.record(objective=problem.lower(y_s) if problem.lower else np.nan, gap=gap_s,
                     stage=stage, M=M, N=t, R=R, mean_gamma=wsum / t)
        if verbose:
            print(f"FSS stage {stage:3d}  N_s={t:7d}  M_s={M:8d}  R_s={R:.3e}  eps_sad<={gap_s:.3e}  "
                  f"mean step multiplier {wsum / t:.3g}")
        if callback is not None and callback(info):
            stopped = True
        converged = small(gap_s, y_s)
        gap_prev = gap_s if np.isfinite(gap_s) else gap_prev
        ybar = y_s
        if recenter_x:
            x_centre = x_s
        R = R / 2
        stage += 1
        if checkpoint is not None:
            checkpoint(state(None))
            last_save = time.perf_counter()
    if converged:
        message = f"certified eps_sad <= tol after {stage} stages"
    elif stopped:
        message = "stopped by callback"
    else:
        knob = "max_iter" if M >= max_iter else "max_stages"
        if relative and problem.lower is not None:
            bound = f"tol * |lower(y)| = {tol * abs(problem.lower(y_s)):.3g}"
        else:
            bound = f"tol {tol:.3g}"
        message = warn_not_converged("fss_saddle", knob, f"eps_sad certificate {gap_prev:.3g} > {bound}")
    return SolverResult(x=x_s, y=y_s, success=converged, nit=M, message=message,
                        objective=problem.lower(y_s) if problem.lower else np.nan, trace=trace,
                        gap=float(gap_prev), stages=stage)
