r"""The dual of GURU (ginodi2010 chapter 3): problem (3.17), norm recovery (3.20)/(3.23), strong duality (3.22)."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
from scipy.optimize import minimize
from scipy.special import ndtr, ndtri

from ..core import SolverResult, Trace, check_finite_array, warn_not_converged
from .guru import _check_iter, _check_Xy
from .loss import _check_sigma, _loss_from_margins, smooth_hinge, smooth_hinge_conjugate

__all__ = ["guru_dual", "dual_objective", "dual_constraint", "dual_from_primal", "recover_w",
           "norm_from_alpha_320", "norm_from_alpha_323", "perspective_fit"]


def dual_objective(alpha: np.ndarray) -> Any:
    r"""Dual objective of (3.17): :math:`\|\alpha\|_1 = \sum_m \alpha_m`."""
    return float(np.sum(alpha))


def dual_constraint(alpha: np.ndarray, X: np.ndarray, y: np.ndarray, sigma: float) -> Any:
    r"""Slack of the norm constraint of (3.17).

    .. math::

        c(\alpha) = \sigma\sum_m \varphi(\Phi^{-1}(\alpha_m)) - \Big\|\sum_m \alpha_m y_m x_m\Big\|
        \;\ge\; 0 \quad\text{(feasible)}.
    """
    alpha = check_finite_array(alpha, "alpha", ndim=1)
    X, y = _check_Xy(X, y)
    sigma = _check_sigma(sigma)
    return float(sigma * np.sum(smooth_hinge_conjugate(alpha)) - np.linalg.norm(X.T @ (alpha * y)))


def dual_from_primal(w: np.ndarray, X: np.ndarray, y: np.ndarray, sigma: float) -> Any:
    r"""Dual point of a primal :math:`w` by the KKT relation (3.21): :math:`\alpha_m = \Phi(z_m)`.

    .. math::

        \alpha_m = \Phi\!\Big(\frac{1 - y_m w^\top x_m}{\sigma\|w\|}\Big)
        \quad\Longleftrightarrow\quad \Phi^{-1}(\alpha_m) = \frac{1 - y_m w^\top x_m}{\sigma\|w\|}.

    At the primal optimum this :math:`\alpha` is dual optimal, the constraint of (3.17) is tight
    and :math:`\sum_m\alpha_m` equals the primal value (3.22).
    """
    w = check_finite_array(w, "w", ndim=1)
    X, y = _check_Xy(X, y)
    sigma = _check_sigma(sigma)
    nw = float(np.linalg.norm(w))
    if nw == 0:
        raise ValueError("w must be nonzero to define the dual point (3.21)")
    return ndtr((1.0 - y * (X @ w)) / (sigma * nw))


def norm_from_alpha_320(alpha: np.ndarray, w_hat: Any, X: np.ndarray, y: np.ndarray, sigma: float) -> Any:
    r"""Norm of the optimal classifier from (3.20), one value per sample.

    .. math::

        \|w^*\| = \frac{1}{\sigma\,\Phi^{-1}(\alpha_m^*) + y_m \hat w^{*\top} x_m}\quad\text{for every } m,

    with :math:`\hat w^* = w^*/\|w^*\|`. The thesis prints (3.20) without the factor :math:`\sigma`;
    it follows from (3.21), :math:`(1 - y_m w^\top x_m)/(\sigma\|w\|) = \Phi^{-1}(\alpha_m)`.
    """
    return 1.0 / (sigma * ndtri(np.asarray(alpha, float)) + y * (X @ w_hat))


def norm_from_alpha_323(alpha: np.ndarray, sigma: float) -> Any:
    r"""Norm of the optimal classifier from strong duality (3.23).

    .. math::

        \|w^*\| = \frac{\|\alpha^*\|_1}{\sigma\sum_m f(\Phi^{-1}(\alpha_m^*))}

    (again with the :math:`\sigma` that the thesis's (3.23) omits). Ill-conditioned when some
    :math:`\alpha_m` round to 1 (:math:`f(\Phi^{-1}(\alpha_m))` is then unknown): ``alpha`` is
    clipped to :math:`[10^{-300}, 1 - 2^{-53}]`; prefer (3.20) in that regime.
    """
    alpha = np.clip(np.asarray(alpha, float), 1e-300, 1.0 - 2.0**-53)
    return float(alpha.sum() / (sigma * np.sum(smooth_hinge(ndtri(alpha)))))


def recover_w(alpha: np.ndarray, X: np.ndarray, y: np.ndarray, sigma: float, norm: str = "3.20") -> Any:
    r"""Primal classifier from a dual :math:`\alpha`: direction (3.4), norm (3.23) or (3.20).

    .. math::

        \hat w = \frac{\sum_m \alpha_m y_m x_m}{\|\sum_m \alpha_m y_m x_m\|},\qquad
        w = \|w\|\,\hat w .

    ``norm="3.20"`` uses the median over samples with :math:`0.05 < \alpha_m < 0.95` of (3.20)
    (where :math:`\Phi^{-1}` is well conditioned).
    """
    alpha = check_finite_array(alpha, "alpha", ndim=1)
    v = X.T @ (alpha * y)
    w_hat = v / np.linalg.norm(v)
    if norm == "3.23":
        nw = norm_from_alpha_323(alpha, sigma)
    elif norm == "3.20":
        mask = (alpha > 0.05) & (alpha < 0.95)
        if not mask.any():
            raise ValueError("no alpha in (0.05, 0.95): use norm='3.23'")
        nw = float(np.median(norm_from_alpha_320(alpha[mask], w_hat, X[mask], y[mask], sigma)))
    else:
        raise ValueError(f"norm must be '3.20' or '3.23', got {norm!r}")
    return nw * w_hat


def guru_dual(X: np.ndarray, y: np.ndarray, sigma: float, *, tol: float = 1e-10, max_iter: int = 500,
              alpha0: Any = None, callback: Callable[..., Any] | None = None, verbose: int = 0,
              random_state: int | np.random.Generator | None = None) -> SolverResult:
    r"""Solve the dual of GURU (ginodi2010 eq. (3.17)) with SLSQP.

    .. math::

        \max_{0\le\alpha\le1}\; \sum_m \alpha_m
        \quad\text{s.t.}\quad
        \Big\|\sum_m \alpha_m y_m x_m\Big\| \le \sigma \sum_m \varphi\big(\Phi^{-1}(\alpha_m)\big)

    (the thesis's :math:`\frac1{\sqrt{2\pi}}\exp(-\mathrm{erf}_{inv}^2(\alpha)/2)` is
    :math:`\varphi(\Phi^{-1}(\alpha))`; :math:`\alpha \le 1` comes from the domain of :math:`f^*`,
    Lemma 6). The constraint function is concave with gradient
    :math:`-\sigma\Phi^{-1}(\alpha_m) - y_m x_m^\top v/\|v\|`, :math:`v = \sum_m\alpha_m y_m x_m`.
    The bounds are kept at :math:`[10^{-12}, 1 - 10^{-12}]` where :math:`\Phi^{-1}` is finite.
    A small-scale solver (dense SLSQP) meant to check strong duality (3.22) and the norm
    recovery, not to train.

    Returns
    -------
    SolverResult
        ``alpha``, ``objective`` (:math:`\sum\alpha`), ``slack`` (constraint slack), ``w`` (the
        primal point recovered by the direction (3.4) and the norm (3.20), or (3.23) when no
        :math:`\alpha_m` lies in (0.05, 0.95)), ``norm_rule`` (which of the two).

    Examples
    --------
    >>> import numpy as np
    >>> from robustpapers.ginodi2010 import guru_dual, guru_lbfgs
    >>> X = np.array([[1.0, 2.0], [2.0, 1.0], [-1.0, -2.0], [-2.0, -0.5], [0.5, -1.0]])
    >>> y = np.array([1.0, 1.0, -1.0, -1.0, 1.0])
    >>> d, p = guru_dual(X, y, sigma=1.0), guru_lbfgs(X, y, sigma=1.0)
    >>> bool(abs(d.objective - p.objective) < 1e-5 * p.objective)
    True
    """
    X, y = _check_Xy(X, y)
    sigma = _check_sigma(sigma)
    max_iter = _check_iter(max_iter, tol)
    M = X.shape[0]
    eps = 1e-12
    A = X * y[:, None]
    trace = Trace()

    def cons(a):
        return sigma * np.sum(smooth_hinge_conjugate(a)) - np.linalg.norm(A.T @ a)

    def cons_jac(a):
        v = A.T @ a
        nv = np.linalg.norm(v)
        g = -sigma * ndtri(np.clip(a, eps, 1 - eps))
        return g - (A @ v) / nv if nv > 0 else g

    # SLSQP sees objective and constraint divided by M: unscaled, its line search fails
    # ("positive directional derivative") on some problems with M = 100.
    sc = 1.0 / M

    def cb(a):
        trace.record(objective=a.sum(), gap=cons(a))
        if callback is not None:
            callback(a)

    a0 = np.full(M, 0.5) if alpha0 is None else np.clip(check_finite_array(alpha0, "alpha0", 1), eps, 1 - eps)
    res = minimize(lambda a: (-sc * a.sum(), np.full(M, -sc)), a0, jac=True, method="SLSQP",
                   bounds=[(eps, 1 - eps)] * M,
                   constraints=[dict(type="ineq", fun=lambda a: sc * cons(a), jac=lambda a: sc * cons_jac(a))],
                   callback=cb, options=dict(maxiter=max_iter, ftol=tol * sc, disp=bool(verbose)))
    alpha = res.x
    slack = float(cons(alpha))
    success = bool(res.success)
    msg = str(res.message)
    if not success:
        # status 9: iteration limit; otherwise SLSQP's line search gave up at this accuracy.
        msg = warn_not_converged("guru_dual", "max_iter" if res.status == 9 else "tol", msg)
    # (3.20) needs some alpha away from 0 and 1; at large sigma every alpha nears 1 and (3.23) is the rule left.
    norm_rule = "3.20" if np.any((alpha > 0.05) & (alpha < 0.95)) else "3.23"
    w = recover_w(alpha, X, y, sigma, norm=norm_rule)
    return SolverResult(alpha.copy(), success=success, nit=res.nit, message=msg, objective=float(alpha.sum()),
                        trace=trace, alpha=alpha, slack=slack, w=w, norm_rule=norm_rule,
                        primal_at_w=float(np.sum(_loss_from_margins(1 - y * (X @ w), sigma * np.linalg.norm(w)))))


def _perspective_losses(loss):
    from scipy.special import expit

    from .loss import log_loss2, log_loss2_conjugate, quadratic_hinge, quadratic_hinge_conjugate

    if loss == "gaussian":
        return smooth_hinge, ndtr, smooth_hinge_conjugate
    if loss == "log":
        return log_loss2, (lambda z: expit(np.asarray(z, float) * np.log(2.0))), log_loss2_conjugate
    if loss == "quadratic":
        return quadratic_hinge, (lambda z: np.clip((np.asarray(z, float) + 4.0) / 8.0, 0.0, 1.0)), \
            quadratic_hinge_conjugate
    raise ValueError(f"loss must be 'gaussian', 'log' or 'quadratic', got {loss!r}")


def perspective_fit(X: np.ndarray, y: np.ndarray, loss: str = "log", sigma: float = 1.0, *, tol: float = 1e-10,
                    max_iter: int = 5000) -> tuple[Any, ...]:
    r"""The general framework (ginodi2010 eqs. (3.31)-(3.32)): primal of a perspective loss and its dual point.

    Minimises, by L-BFGS,

    .. math::

        \min_w \sum_m \sigma\|w\|\,\tilde f\Big(\frac{1 - y_m w^\top x_m}{\sigma\|w\|}\Big)
        \qquad (3.31;\ \sigma = 1 \text{ in the thesis})

    for :math:`\tilde f` = the Gaussian smooth hinge (2.15), the log loss :math:`\log_2(1 + 2^z)`
    (Lemma 8) or the quadratic loss (3.28) (Lemma 9), and returns the dual point
    :math:`\alpha_m = \tilde f'(z_m)` of (3.32)

    .. math::

        \max_{\alpha\ge0}\sum_m\alpha_m\quad\text{s.t.}\quad
        \Big\|\sum_m\alpha_m y_m x_m\Big\| \le \sigma\sum_m \tilde f^*(\alpha_m),

    with :math:`\tilde f^*` the concave conjugate (:math:`\varphi(\Phi^{-1})`, :math:`H_2`, :math:`4\alpha(1-\alpha)`).
    At the optimum the constraint is tight and :math:`\sum_m\alpha_m` equals the primal value.

    Returns
    -------
    SolverResult with ``w``, ``objective``, ``alpha``, ``dual_value`` (:math:`\sum\alpha`),
    ``slack`` (constraint slack), ``grad_norm``.
    """
    X, y = _check_Xy(X, y)
    sigma = _check_sigma(sigma)
    f, fp, fc = _perspective_losses(loss)
    M, d = X.shape

    def parts(w):
        r = sigma * np.linalg.norm(w)
        z = (1.0 - y * (X @ w)) / r
        return r, z

    def fun(w):
        r, z = parts(w)
        a = fp(z)
        val = r * np.sum(f(z))
        g = -X.T @ (y * a) + sigma * (w / np.linalg.norm(w)) * np.sum(f(z) - z * a)
        return val / M, g / M

    w0 = X.T @ y / M
    trace = Trace()
    res = minimize(fun, w0, jac=True, method="L-BFGS-B", options=dict(maxiter=max_iter, gtol=tol, ftol=1e-15),
                   callback=lambda intermediate_result: trace.record(objective=intermediate_result.fun * M))
    w = res.x
    val, g = fun(w)
    r, z = parts(w)
    alpha = fp(z)
    slack = float(sigma * np.sum(fc(alpha)) - np.linalg.norm(X.T @ (alpha * y)))
    gnorm = float(np.max(np.abs(g)))
    success = bool(gnorm <= 100 * tol)
    msg = str(res.message) if success else warn_not_converged("perspective_fit", "max_iter", f"gradient {gnorm:.1e}")
    return SolverResult(w.copy(), success=success, nit=res.nit, message=msg, objective=val * M, trace=trace, w=w,
                        alpha=alpha, dual_value=float(alpha.sum()), slack=slack, grad_norm=gnorm)
