"""Robust linear regression under uncertainty: close-to-mean (35)/(45) and small-residual (36)/(46)
SOCPs of shivaswamy2006 section 5-6."""
from __future__ import annotations

from typing import Any

import cvxpy as cp
import numpy as np

from ..core import SolverResult, check_nonnegative, check_positive
from ._validate import _check_factors, _check_Xy, _stack_factors
from .classification import _solve

__all__ = ["robust_svr_ctm", "robust_svr_sr", "robust_regression", "loss_value", "LOSSES"]


def _check_eta(eta, n):
    e = np.broadcast_to(np.asarray(eta, dtype=float), (n,)) if np.ndim(eta) == 0 else np.asarray(eta, dtype=float)
    if e.shape != (n,):
        raise ValueError(f"eta must be a scalar or of shape ({n},), got shape {e.shape}")
    if not np.all(np.isfinite(e)) or np.any((e <= 0) | (e > 1)):
        raise ValueError(f"eta must lie in (0, 1], got {eta!r}")
    return np.array(e, dtype=float)


def _prep(X, y, Sigmas, factors, eta, epsilon, W):
    X, y = _check_Xy(X, y, binary=False)
    n, d = X.shape
    F = _check_factors(Sigmas, factors, n, d)
    eta = _check_eta(eta, n)
    epsilon = check_nonnegative(epsilon, "epsilon")
    W = check_positive(W, "W")
    rows = [i for i in range(n) if F[i].shape[1] > 0]
    return X, y, F, eta, epsilon, W, rows


def robust_svr_ctm(X: np.ndarray, y: np.ndarray, Sigmas: np.ndarray | None = None, eta: float | np.ndarray = 0.5,
                   epsilon: float = 0.1, W: float = 10.0, D: float = 1.0, *, factors: np.ndarray | None = None,
                   tol: float = 1e-8, max_iter: int = 200, verbose: bool = False) -> SolverResult:
    r"""Close-to-mean (CTM) robust :math:`\varepsilon`-insensitive regression, shivaswamy2006 eqs. (35) and (45).

    .. math::

        \min_{w,b,\xi,\xi^*,\theta}\ \sum_i(\xi_i + \xi_i^*) + D\sum_{i:\Sigma_i\ne 0}\theta_i
        \quad\text{s.t.}\quad \langle \bar x_i, w\rangle + b - y_i \le \varepsilon + \xi_i,\
        y_i - \langle \bar x_i, w\rangle - b \le \varepsilon + \xi_i^*,\
        \|\Sigma_i^{1/2}w\| \le \theta_i\sqrt{\eta_i},\ \|w\| \le W,\ \xi,\xi^*,\theta\ge 0.

    (35d) is Theorem 4's sufficient condition (29) for
    :math:`\Pr\{|e(f(x_i),y_i) - e(f(\bar x_i), y_i)| \ge \theta_i\} \le \eta_i` (27). Rows without
    covariance carry no :math:`\theta_i` (eq. 45).

    Parameters
    ----------
    X : ndarray (n, d)
        Means (imputed patterns).
    y : ndarray (n,)
        Targets.
    Sigmas, factors
        Covariances or factors, as in :func:`robust_svm`.
    eta : float or ndarray (n,)
        Probability levels in (0, 1].
    epsilon : float
        Insensitivity.
    W : float
        Bound on :math:`\|w\|`.
    D : float
        Weight of the deviations :math:`\theta`.
    tol, max_iter, verbose
        Clarabel settings.

    Returns
    -------
    SolverResult
        ``w``, ``b``, ``xi``, ``xi_star``, ``theta`` (per row, 0 without covariance), ``objective``.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]]); y = 2 * X[:, 0] + 1
    >>> res = robust_svr_ctm(X, y, None, epsilon=0.0, W=5.0)
    >>> round(float(res.w[0]), 4), round(res.b, 4)
    (2.0, 1.0)
    """
    X, y, F, eta, epsilon, W, rows = _prep(X, y, Sigmas, factors, eta, epsilon, W)
    D = check_nonnegative(D, "D")
    n, d = X.shape
    w, b = cp.Variable(d), cp.Variable()
    xi, xs = cp.Variable(n, nonneg=True), cp.Variable(n, nonneg=True)
    f = X @ w + b
    cons = [f - y <= epsilon + xi, y - f <= epsilon + xs, cp.norm(w, 2) <= W]
    obj = cp.sum(xi) + cp.sum(xs)
    theta = None
    if rows:
        A, r = _stack_factors(F, rows)
        theta = cp.Variable(len(rows), nonneg=True)
        cons.append(cp.SOC(cp.multiply(np.sqrt(eta[rows]), theta), cp.reshape(A @ w, (r, len(rows)), order="F"),
                           axis=0))
        obj = obj + D * cp.sum(theta)
    prob = cp.Problem(cp.Minimize(obj), cons)
    ok, status, nit, solve_time = _solve(prob, "robust_svr_ctm", tol, max_iter, verbose)
    th = np.zeros(n)
    if rows:
        th[rows] = np.maximum(theta.value, 0)
    wv = np.asarray(w.value, dtype=float)
    return SolverResult(x=np.r_[wv, float(b.value)], w=wv, b=float(b.value), xi=np.maximum(xi.value, 0),
                        xi_star=np.maximum(xs.value, 0), theta=th, objective=float(prob.value), success=ok,
                        status=0 if ok else 1, solver_status=status, nit=nit, message=f"Clarabel: {status}",
                        solve_time=solve_time,
                        formulation="ctm")


def robust_svr_sr(X: np.ndarray, y: np.ndarray, Sigmas: np.ndarray | None = None, eta: float = 0.5,
                  epsilon: float = 0.1, W: float = 10.0, *, factors: np.ndarray | None = None,
                  tol: float = 1e-8, max_iter: int = 200, verbose: bool = False) -> SolverResult:
    r"""Small-residual (SR) robust regression, shivaswamy2006 eq. (36) and its missing-value form (section 6.2).

    .. math::

        \min_{w,b,\xi,\xi^*}\ \sum_i \xi_i + \sum_{i:\Sigma_i = 0}\xi_i^*
        \quad\text{s.t.}\quad
        \sqrt{w^\top\Sigma_i w + (\langle w,\bar x_i\rangle + b - y_i)^2} \le (\xi_i + \varepsilon)\sqrt{\eta_i}
        \ \ (\Sigma_i \ne 0),

    and the plain :math:`\varepsilon`-insensitive constraints
    :math:`\pm(\langle w, x_i\rangle + b - y_i) \le \varepsilon + \xi_i^{(*)}` for rows without covariance,
    :math:`\|w\| \le W`, :math:`\xi, \xi^* \ge 0`. (36c) is Theorem 4's condition (30) for
    :math:`\Pr\{|e(f(x_i), y_i)| \ge \xi_i + \varepsilon\} \le \eta_i` (28). Pass a (zero) covariance
    factor for a row to impose (36c) on it.

    Parameters
    ----------
    X, y, Sigmas, factors, eta, epsilon, W, tol, max_iter, verbose
        As in :func:`robust_svr_ctm`.

    Returns
    -------
    SolverResult
        ``w``, ``b``, ``xi``, ``xi_star``, ``objective``.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]]); y = 2 * X[:, 0] + 1
    >>> res = robust_svr_sr(X, y, None, epsilon=0.0, W=5.0)
    >>> round(float(res.w[0]), 4), round(res.b, 4)
    (2.0, 1.0)
    """
    X, y, F, eta, epsilon, W, rows = _prep(X, y, Sigmas, factors, eta, epsilon, W)
    n, d = X.shape
    w, b = cp.Variable(d), cp.Variable()
    xi, xs = cp.Variable(n, nonneg=True), cp.Variable(n, nonneg=True)
    f = X @ w + b
    exact = np.array([i for i in range(n) if i not in set(rows)], dtype=int)
    cons = [cp.norm(w, 2) <= W]
    obj = cp.sum(xi)
    if exact.size:
        cons += [f[exact] - y[exact] <= epsilon + xi[exact], y[exact] - f[exact] <= epsilon + xs[exact]]
        obj = obj + cp.sum(xs[exact])
    if rows:
        A, r = _stack_factors(F, rows)
        resid = X[rows] @ w + b - y[rows]
        Z = cp.vstack([cp.reshape(A @ w, (r, len(rows)), order="F"), cp.reshape(resid, (1, len(rows)), order="F")])
        cons.append(cp.SOC(cp.multiply(np.sqrt(eta[rows]), xi[rows] + epsilon), Z, axis=0))
    prob = cp.Problem(cp.Minimize(obj), cons)
    ok, status, nit, solve_time = _solve(prob, "robust_svr_sr", tol, max_iter, verbose)
    wv = np.asarray(w.value, dtype=float)
    xsv = np.zeros(n)
    if exact.size:
        xsv[exact] = np.maximum(xs.value[exact], 0)
    return SolverResult(x=np.r_[wv, float(b.value)], w=wv, b=float(b.value), xi=np.maximum(xi.value, 0),
                        xi_star=xsv, objective=float(prob.value), success=ok, status=0 if ok else 1,
                        solver_status=status, nit=nit, message=f"Clarabel: {status}", solve_time=solve_time,
                        formulation="sr")


#: The losses of shivaswamy2006 eq. (24) that :func:`robust_regression` accepts.
LOSSES = ("l2", "l1", "epsilon", "huber")


def _loss_expr(e, loss, epsilon, sigma):
    """The sum over rows of the loss (24) of the residuals ``e`` (a cvxpy expression)."""
    if loss == "l2":  # (24a)
        return 0.5 * cp.sum_squares(e)
    if loss == "l1":  # (24b)
        return cp.norm1(e)
    if loss == "epsilon":  # (24c)
        return cp.sum(cp.pos(cp.abs(e) - epsilon))
    # (24d) with its two branches in Huber's order: e^2/(2 sigma) for |e| <= sigma, |e| - sigma/2 beyond;
    # cvxpy's huber(e, M) is e^2 inside and 2M|e| - M^2 outside
    return cp.sum(cp.huber(e, sigma)) / (2.0 * sigma)


def loss_value(e: Any, loss: str = "l2", epsilon: float = 0.1, sigma: float = 1.0) -> Any:
    r"""The losses of shivaswamy2006 eq. (24), elementwise, in numpy.

    .. math::

        c_{\ell_2}(e) = \tfrac12 e^2,\quad c_{\ell_1}(e) = |e|,\quad
        c_\varepsilon(e) = \max(0, |e| - \varepsilon),\quad
        c_{\mathrm{Huber}}(e) = \begin{cases}\frac{e^2}{2\sigma} & |e|\le\sigma\\ |e| - \frac\sigma2 & |e| > \sigma\end{cases}

    (the paper prints the two branches of the Huber loss (24d) the other way round, which is neither
    convex nor Huber's loss; this is Huber's).

    Examples
    --------
    >>> loss_value([0.5, 3.0], "huber", sigma=1.0).tolist()
    [0.125, 2.5]
    """
    if loss not in LOSSES:
        raise ValueError(f"loss must be one of {LOSSES}, got {loss!r}")
    e = np.abs(np.asarray(e, dtype=float))
    if loss == "l2":
        return 0.5 * e ** 2
    if loss == "l1":
        return e
    if loss == "epsilon":
        return np.maximum(0.0, e - epsilon)
    return np.where(e <= sigma, e ** 2 / (2.0 * sigma), e - sigma / 2.0)


def robust_regression(X: np.ndarray, y: np.ndarray, Sigmas: np.ndarray | None = None, loss: str = "l2",
                      eta: float | np.ndarray = 0.5, W: float = 10.0, D: float = 1.0, *, epsilon: float = 0.1,
                      sigma: float | np.ndarray = 1.0, factors: np.ndarray | None = None, tol: float = 1e-8,
                      max_iter: int = 200, verbose: bool = False) -> SolverResult:
    r"""The close-to-mean robust regression with a general convex loss, shivaswamy2006 eq. (34).

    .. math::

        \min_{w,b,\theta}\ \sum_i c(e_i) + D\sum_{i:\Sigma_i\ne0}\theta_i \quad\text{s.t.}\quad
        \|w\| \le W,\ \theta_i \ge 0,\ e_i = \langle\bar x_i, w\rangle + b - y_i,\
        \|\Sigma_i^{1/2}w\| \le \theta_i\sqrt{\eta_i},

    with :math:`c` one of the losses (24) (:func:`loss_value`). (34d) is Theorem 4's sufficient
    condition (29) for :math:`\Pr\{|e(f(x_i), y_i) - e(f(\bar x_i), y_i)| \ge \theta_i\} \le \eta_i`.
    For the :math:`\varepsilon`-insensitive loss (24c) this is the SOCP (35) (:func:`robust_svr_ctm`);
    for the :math:`\ell_2`, :math:`\ell_1` and Huber losses a convex program that cvxpy/Clarabel
    solves as an SOCP. Rows without covariance carry no :math:`\theta_i`, as in (45).

    Parameters
    ----------
    X : ndarray (n, d)
        Means (imputed patterns).
    y : ndarray (n,)
        Targets.
    Sigmas, factors
        Covariances or their factors, as in :func:`robust_svm`.
    loss : {"l2", "l1", "epsilon", "huber"}
        (24a), (24b), (24c), (24d).
    eta : float or ndarray (n,)
        Probability levels in (0, 1].
    W : float
        Bound on :math:`\|w\|`.
    D : float
        Weight of the deviations :math:`\theta` (>= 0; 0 gives the nominal regression (26)).
    epsilon : float
        Insensitivity of (24c).
    sigma : float
        Width of the quadratic part of the Huber loss (24d) (> 0).
    tol, max_iter, verbose
        Clarabel settings.

    Returns
    -------
    SolverResult
        ``w``, ``b``, ``theta`` (per row, 0 without covariance), ``residuals`` :math:`e_i`, ``loss``
        (:math:`\sum_i c(e_i)`), ``objective``, ``success``, ``solver_status``.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]]); y = 2 * X[:, 0] + 1
    >>> res = robust_regression(X, y, None, loss="huber", W=5.0)
    >>> round(float(res.w[0]), 4), round(res.b, 4)
    (2.0, 1.0)
    """
    if loss not in LOSSES:
        raise ValueError(f"loss must be one of {LOSSES}, got {loss!r}")
    X, y, F, eta, epsilon, W, rows = _prep(X, y, Sigmas, factors, eta, epsilon, W)
    D = check_nonnegative(D, "D")
    sigma = check_positive(sigma, "sigma")
    n, d = X.shape
    w, b = cp.Variable(d), cp.Variable()
    e = X @ w + b - y
    obj = _loss_expr(e, loss, epsilon, sigma)
    cons = [cp.norm(w, 2) <= W]
    theta = None
    if rows:
        A, r = _stack_factors(F, rows)
        theta = cp.Variable(len(rows), nonneg=True)
        cons.append(cp.SOC(cp.multiply(np.sqrt(eta[rows]), theta), cp.reshape(A @ w, (r, len(rows)), order="F"),
                           axis=0))
        obj = obj + D * cp.sum(theta)
    prob = cp.Problem(cp.Minimize(obj), cons)
    ok, status, nit, solve_time = _solve(prob, "robust_regression", tol, max_iter, verbose)
    th = np.zeros(n)
    if rows:
        th[rows] = np.maximum(theta.value, 0)
    wv = np.asarray(w.value, dtype=float)
    bv = float(b.value)
    res = X @ wv + bv - y
    return SolverResult(x=np.r_[wv, bv], w=wv, b=bv, theta=th, residuals=res,
                        loss=float(np.sum(loss_value(res, loss, epsilon, sigma))), objective=float(prob.value),
                        success=ok, status=0 if ok else 1, solver_status=status, nit=nit,
                        message=f"Clarabel: {status}", solve_time=solve_time, formulation=f"ctm-{loss}")
