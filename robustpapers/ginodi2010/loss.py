r"""The Gaussian robust hinge loss of ginodi2010 (chapter 2) and its relatives (chapter 3).

Notation. The thesis writes "erf" for the *standard normal CDF*
:math:`\Phi(t) = (2\pi)^{-1/2}\int_{-\infty}^t e^{-s^2/2}\,ds` (ginodi2010, after eq. (2.10));
here it is called :math:`\Phi`, and :math:`\varphi = \Phi'` is the standard normal density.

* :func:`smooth_hinge` is :math:`f(z) = z\Phi(z) + \varphi(z)` (2.15), computed without
  cancellation for large negative :math:`z`;
* :func:`robust_hinge_loss` is the per-sample loss (2.16)
  :math:`\sigma\|w\| f\big((1 - y(w^\top x + b))/(\sigma\|w\|)\big)`, with its limit (the hinge)
  at the removable discontinuity :math:`w = 0`;
* :func:`guru_objective` is their sum (2.22), :func:`guru_gradient` its gradient (2.26).
"""
from __future__ import annotations

from typing import Any

import numpy as np
from scipy.special import erfcx, ndtr, ndtri

from ..core import check_finite_array, check_positive

__all__ = [
    "smooth_hinge", "smooth_hinge_prime", "smooth_hinge_conjugate",
    "robust_hinge_loss", "robust_hinge_grad", "guru_objective", "guru_gradient",
    "log_loss2", "log_loss2_conjugate", "quadratic_hinge", "quadratic_hinge_conjugate",
    "dual_norm_weight", "diagonal_adversary", "robust_hinge_loss_diagonal",
]

_SQRT2 = np.sqrt(2.0)
_SQRT_2PI = np.sqrt(2.0 * np.pi)
_SQRT_PI_2 = np.sqrt(np.pi / 2.0)
_ASYMPTOTIC_FROM = 10.0
_ASYMPTOTIC_TERMS = 20


def _phi(z):
    return np.exp(-0.5 * z * z) / _SQRT_2PI


def _one_minus_t_mills(t):
    r""":math:`1 - t R(t)` for :math:`t > 0`, :math:`R(t) = \Phi(-t)/\varphi(t)` (Mills ratio).

    Direct through ``erfcx`` below ``t = 10`` (relative error ~1e-14 there); above, the
    asymptotic series :math:`\sum_{k\ge1} (-1)^{k+1} (2k-1)!!\, t^{-2k}` with 20 terms
    (truncation error below 1e-16 relative for ``t >= 10``).
    """
    t = np.asarray(t, dtype=float)
    out = np.empty_like(t)
    small = t < _ASYMPTOTIC_FROM
    ts = t[small]
    out[small] = 1.0 - ts * _SQRT_PI_2 * erfcx(ts / _SQRT2)
    tl = t[~small]
    if tl.size:
        inv2 = 1.0 / (tl * tl)
        term = inv2.copy()
        acc = term.copy()
        for k in range(2, _ASYMPTOTIC_TERMS + 1):
            term = -term * (2 * k - 1) * inv2
            acc += term
        out[~small] = acc
    return out


def smooth_hinge(z: float | np.ndarray) -> float | np.ndarray:
    r"""The smooth hinge :math:`f(z) = z\Phi(z) + \varphi(z)` (ginodi2010 eq. (2.15)).

    .. math::

        f(z) = z\,\Phi(z) + \varphi(z) = \mathbb E\,[z + N]_+,\qquad N\sim\mathcal N(0,1),

    a smooth strictly convex upper approximation of :math:`[z]_+` (Theorem 3.1).
    For :math:`z < 0` it is evaluated as :math:`\varphi(z)\,(1 - |z| R(|z|))` with the Mills
    ratio :math:`R` (through ``scipy.special.erfcx`` or its asymptotic series), so that the
    tiny values far in the left tail keep full relative accuracy instead of cancelling.

    Parameters
    ----------
    z : array_like

    Returns
    -------
    ndarray
        :math:`f(z)`, same shape as ``z``.

    Examples
    --------
    >>> import numpy as np
    >>> from robustpapers.ginodi2010 import smooth_hinge
    >>> round(float(smooth_hinge(0.0)), 6)  # 1/sqrt(2 pi)
    0.398942
    >>> bool(smooth_hinge(-30.0) > 0)
    True
    """
    z = np.asarray(z, dtype=float)
    scalar = z.ndim == 0
    z = np.atleast_1d(z)
    out = np.empty_like(z)
    pos = z >= 0
    zp = z[pos]
    out[pos] = zp * ndtr(zp) + _phi(zp)
    t = -z[~pos]
    with np.errstate(over="ignore", invalid="ignore"):
        out[~pos] = np.where(np.isinf(t), 0.0, _phi(t) * _one_minus_t_mills(np.where(np.isinf(t), 1.0, t)))
    return float(out[0]) if scalar else out


def smooth_hinge_prime(z: np.ndarray) -> Any:
    r"""Derivative :math:`f'(z) = \Phi(z)` (ginodi2010 eq. (2.17))."""
    return ndtr(np.asarray(z, dtype=float))


def smooth_hinge_conjugate(alpha: np.ndarray) -> Any:
    r"""The concave conjugate :math:`f^*(\alpha) = \min_z f(z) - \alpha z = \varphi(\Phi^{-1}(\alpha))` (Lemma 6).

    Defined on :math:`[0, 1]` (0 at the endpoints); :math:`-\infty` outside.
    """
    a = np.asarray(alpha, dtype=float)
    with np.errstate(invalid="ignore"):
        q = ndtri(np.clip(a, 0.0, 1.0))
        val = np.where(np.isfinite(q), _phi(np.where(np.isfinite(q), q, 0.0)), 0.0)
    return np.where((a < 0) | (a > 1), -np.inf, val)


def dual_norm_weight(alpha: np.ndarray) -> Any:
    r""":math:`s(\alpha)/\sqrt{2\pi} = \varphi(\Phi^{-1}(\alpha))`, the summand of the dual constraint (3.17)/(3.24)."""
    return smooth_hinge_conjugate(alpha)


def log_loss2(z: np.ndarray) -> Any:
    r"""The base-2 log loss :math:`\tilde f_2(z) = \log_2(1 + 2^z)` (ginodi2010 Lemma 8)."""
    z = np.asarray(z, dtype=float)
    return np.logaddexp(0.0, z * np.log(2.0)) / np.log(2.0)


def log_loss2_conjugate(alpha: np.ndarray) -> Any:
    r""":math:`\tilde f_2^*(\alpha) = H_2(\alpha) = -\alpha\log_2\alpha - (1-\alpha)\log_2(1-\alpha)` (eq. (3.26))."""
    a = np.asarray(alpha, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        h = -(np.where(a > 0, a * np.log2(np.where(a > 0, a, 1.0)), 0.0)
              + np.where(a < 1, (1 - a) * np.log2(np.where(a < 1, 1 - a, 1.0)), 0.0))
    return np.where((a < 0) | (a > 1), -np.inf, h)


def quadratic_hinge(z: np.ndarray) -> Any:
    r"""The Huber-like loss :math:`\tilde f_3` of ginodi2010 eq. (3.28): 0, :math:`(z+4)^2/16`, :math:`z`."""
    z = np.asarray(z, dtype=float)
    return np.where(z < -4, 0.0, np.where(z > 4, z, (z + 4.0) ** 2 / 16.0))


def quadratic_hinge_conjugate(alpha: np.ndarray) -> Any:
    r""":math:`\tilde f_3^*(\alpha) = 4\alpha(1-\alpha)` on :math:`[0, 1]` (eq. (3.29))."""
    a = np.asarray(alpha, dtype=float)
    return np.where((a < 0) | (a > 1), -np.inf, 4.0 * a * (1.0 - a))


# --------------------------------------------------------------------------- the loss (2.16)

def _check_pm1(y, name="y"):
    y = check_finite_array(y, name, ndim=1)
    if y.size and not np.all(np.abs(y) == 1.0):
        raise ValueError(f"{name} must take values in {{-1, +1}}, got {sorted(set(np.unique(y).tolist()))[:5]}")
    return y


def _check_sigma(sigma):
    return check_positive(sigma, "sigma")


def _check_wXy(w, X, y):
    w = check_finite_array(w, "w", ndim=1)
    X = check_finite_array(X, "X", ndim=2)
    y = _check_pm1(y)
    if X.shape[1] != w.size:
        raise ValueError(f"w has {w.size} entries but X has {X.shape[1]} features")
    if X.shape[0] != y.size:
        raise ValueError(f"X has {X.shape[0]} rows but y has {y.size} labels")
    return w, X, y


def _loss_from_margins(u, s):
    """s f(u / s) elementwise for scalar s >= 0, stable; the hinge [u]_+ at s = 0."""
    u = np.asarray(u, dtype=float)
    if s == 0.0:
        return np.maximum(u, 0.0)
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        z = u / s
    out = np.empty_like(u)
    pos = u >= 0
    zp = z[pos]
    # u Phi(z) + s phi(z): no cancellation, no overflow when s is tiny.
    out[pos] = u[pos] * ndtr(zp) + s * np.where(np.isinf(zp), 0.0, _phi(np.where(np.isinf(zp), 0.0, zp)))
    out[~pos] = s * smooth_hinge(z[~pos])
    return out


def _phis(u, s):
    """Phi(z), phi(z) at z = u/s, with their s -> 0 limits (Phi -> 1[u > 0] (1/2 at u = 0), phi -> 0)."""
    if s == 0.0:
        return np.where(u > 0, 1.0, np.where(u < 0, 0.0, 0.5)), np.zeros_like(u)
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        z = u / s
    return ndtr(z), np.where(np.isinf(z), 0.0, _phi(np.where(np.isinf(z), 0.0, z)))


def robust_hinge_loss(w: np.ndarray, X: np.ndarray, y: np.ndarray, sigma: float | np.ndarray, b: float = 0.0
) -> np.ndarray:
    r"""Per-sample robust expected hinge loss (ginodi2010 eq. (2.16)).

    .. math::

        \ell^{rob}_{hinge}(x_m, y_m; w, \sigma^2)
        = \max_{\Sigma\succeq0,\ \operatorname{tr}\Sigma\le\sigma^2}
          \mathbb E_{n\sim\mathcal N(0,\Sigma)}\,[1 - y_m w^\top(x_m + n)]_+
        = \sigma\|w\|\, f\!\Big(\frac{1 - y_m w^\top x_m}{\sigma\|w\|}\Big),

    with :math:`f(z) = z\Phi(z) + \varphi(z)` (2.15) and the worst covariance
    :math:`\Sigma^* = \sigma^2 ww^\top/\|w\|^2` (Theorem 2.1). With an intercept ``b`` (not in the
    thesis, which has none) the margin is :math:`1 - y_m(w^\top x_m + b)`: the noise acts on
    :math:`x` only, so ``b`` does not enter the norm. At :math:`w = 0` the loss is defined by its
    limit, the hinge :math:`[1 - y_m b]_+` (the removable discontinuity noted after Theorem 3.3).

    Parameters
    ----------
    w : array of shape (d,)
    X : array of shape (M, d)
    y : array of shape (M,), values in {-1, +1}
    sigma : float > 0
        Standard deviation of the noise (the thesis's :math:`\sigma`, :math:`\sigma^2 = \beta`).
    b : float, default 0
        Intercept.

    Returns
    -------
    ndarray of shape (M,)

    Examples
    --------
    >>> import numpy as np
    >>> from robustpapers.ginodi2010 import robust_hinge_loss
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0]]); y = np.array([1.0, -1.0])
    >>> loss = robust_hinge_loss(np.array([2.0, -2.0]), X, y, sigma=0.1)
    >>> bool(np.all(loss >= 0))
    True
    """
    w, X, y = _check_wXy(w, X, y)
    sigma = _check_sigma(sigma)
    u = 1.0 - y * (X @ w + float(b))
    return _loss_from_margins(u, sigma * float(np.linalg.norm(w)))


def robust_hinge_grad(w: np.ndarray, X: np.ndarray, y: np.ndarray, sigma: float, b: float = 0.0
) -> tuple[Any, ...]:
    r"""Per-sample gradients of (2.16) with respect to ``w`` (ginodi2010 eq. (2.26)) and ``b``.

    .. math::

        \nabla_w \ell^{rob} = -y_m x_m\,\Phi(z_m) + \sigma\varphi(z_m)\,\frac{w}{\|w\|},\qquad
        \partial_b \ell^{rob} = -y_m\Phi(z_m),\qquad z_m = \frac{1 - y_m(w^\top x_m + b)}{\sigma\|w\|}.

    At :math:`w = 0` the limits are used (:math:`\Phi \to 1[u_m > 0]`, :math:`\varphi \to 0`).

    Returns
    -------
    G : ndarray of shape (M, d)
    gb : ndarray of shape (M,)
    """
    w, X, y = _check_wXy(w, X, y)
    sigma = _check_sigma(sigma)
    nw = float(np.linalg.norm(w))
    u = 1.0 - y * (X @ w + float(b))
    P, p = _phis(u, sigma * nw)
    G = -(y * P)[:, None] * X
    if nw > 0:
        G = G + np.outer(sigma * p, w / nw)
    return G, -y * P


def guru_objective(w: np.ndarray, X: np.ndarray, y: np.ndarray, sigma: float, b: float = 0.0) -> Any:
    r"""The GURU objective (ginodi2010 eq. (2.22)): the sum of the per-sample losses (2.16).

    .. math::

        G(w) = \sum_{m=1}^M \sigma\|w\|\, f\!\Big(\frac{1 - y_m(w^\top x_m + b)}{\sigma\|w\|}\Big).

    Examples
    --------
    >>> import numpy as np
    >>> from robustpapers.ginodi2010 import guru_objective
    >>> X = np.eye(2); y = np.array([1.0, -1.0])
    >>> guru_objective(np.zeros(2), X, y, sigma=1.0)  # at w = 0 every sample costs 1
    2.0
    """
    return float(np.sum(robust_hinge_loss(w, X, y, sigma, b)))


def guru_gradient(w: np.ndarray, X: np.ndarray, y: np.ndarray, sigma: float, b: float = 0.0) -> Any:
    r"""Gradient of :func:`guru_objective`: :math:`(\nabla_w G, \partial_b G)` (sum of (2.26))."""
    w, X, y = _check_wXy(w, X, y)
    sigma = _check_sigma(sigma)
    nw = float(np.linalg.norm(w))
    u = 1.0 - y * (X @ w + float(b))
    P, p = _phis(u, sigma * nw)
    g = -X.T @ (y * P)
    if nw > 0:
        g = g + sigma * p.sum() * (w / nw)
    return g, float(-(y * P).sum())


def diagonal_adversary(w: np.ndarray, sigma: float) -> Any:
    r"""The adversary's covariance under a diagonal constraint (ginodi2010 appendix B, (B.3)).

    .. math::

        \Sigma^* = \arg\max_{\Sigma = \operatorname{diag}(a),\ a \ge 0,\ \sum_i a_i \le \sigma^2} w^\top\Sigma w
        = \sigma^2 e_{i^*}e_{i^*}^\top,\qquad i^* = \arg\max_i w_i^2 ,

    all the noise on the axis with the largest :math:`|w_i|`.
    """
    w = check_finite_array(w, "w", ndim=1)
    sigma = _check_sigma(sigma)
    S = np.zeros((w.size, w.size))
    i = int(np.argmax(np.abs(w)))
    S[i, i] = sigma**2
    return S


def robust_hinge_loss_diagonal(w: np.ndarray, X: np.ndarray, y: np.ndarray, sigma: float, b: float = 0.0) -> Any:
    r"""Per-sample robust expected hinge loss against the diagonal adversary (appendix B).

    .. math::

        \sigma\|w\|_\infty\, f\!\Big(\frac{1 - y_m(w^\top x_m + b)}{\sigma\|w\|_\infty}\Big),

    (2.16) with :math:`\|w\|` replaced by :math:`\|w\|_\infty`, since
    :math:`w^\top\Sigma^* w = \sigma^2\max_i w_i^2` (B.2)-(B.3).

    Examples
    --------
    >>> import numpy as np
    >>> from robustpapers.ginodi2010 import robust_hinge_loss, robust_hinge_loss_diagonal
    >>> X, y, w = np.eye(2), np.array([1.0, -1.0]), np.array([1.0, -3.0])
    >>> bool(np.all(robust_hinge_loss_diagonal(w, X, y, 1.0) <= robust_hinge_loss(w, X, y, 1.0)))
    True
    """
    w, X, y = _check_wXy(w, X, y)
    sigma = _check_sigma(sigma)
    u = 1.0 - y * (X @ w + float(b))
    return _loss_from_margins(u, sigma * float(np.max(np.abs(w), initial=0.0)))
