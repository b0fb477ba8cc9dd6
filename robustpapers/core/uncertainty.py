r"""Safe approximations of a chance constraint on uncertain kernel entries: gamma(mu), kappa and beta.

General (not one paper's): bhadra2010's RSVM and bental2012's RSVM baseline (bental2012 eq. (7) and
Theorem 1) both use them; ``robustpapers.bhadra2010`` re-exports every name.

For independent, zero-mean kernel noise :math:`Z_{ij}` the chance constraint
(bhadra2010 eqs. 2-3) is implied by the deterministic constraint of bhadra2010 eq. (15) /
bental2012 eq. (7),

.. math::

    \alpha^\top Y\bar K Y\alpha + \kappa\sqrt{\textstyle\sum_{ij}\beta_{ij}\alpha_i^2\alpha_j^2} \le t,

with

* Gaussian entries :math:`Z_{ij}\sim N(0,\sigma_{ij}^2)` (bhadra2010 Lemma 1, Theorem 1):
  :math:`\kappa=-\Phi^{-1}(\epsilon)`, :math:`\beta_{ij}=\sigma_{ij}^2`;
* finite support :math:`a_{ij}\le Z_{ij}\le b_{ij}` (bhadra2010 Theorems 2-3, bental2012 Theorem 1):
  :math:`\kappa=\sqrt{2\log(1/\epsilon)}`, :math:`\beta_{ij}=(l_{ij}\gamma_{ij})^2` with
  :math:`l=(b-a)/2`, :math:`c=(b+a)/2`, :math:`\mu=-c/l` and :math:`\gamma(\mu)` of bhadra2010 eq. (9).
"""
from __future__ import annotations

from typing import Any

import numpy as np
from scipy.special import ndtri

from .validation import check_finite_array, check_nonnegative

__all__ = [
    "finite_support_gamma", "gamma_inequality", "gamma_certificate",
    "check_eps", "kappa_gaussian", "kappa_finite_support", "kappa_from_eps",
    "beta_from_sigma", "beta_from_support", "beta_from_kernel_support",
]

_LOG2 = np.log(2.0)
#: Relative safety margin added to gamma^2 (conservative rounding; far below any modelling error).
_ROUND_UP = 1e-12


def _log_cosh_mu_sinh(z, mu):
    r"""Stable :math:`\log(\cosh z + \mu\sinh z)` for :math:`|\mu|\le 1` (broadcasting)."""
    z, mu = np.broadcast_arrays(np.asarray(z, float), np.asarray(mu, float))
    out = np.empty(z.shape)
    small = np.abs(z) <= 1.0
    zs, ms = z[small], mu[small]
    out[small] = np.log1p(2.0 * np.sinh(zs / 2) ** 2 + ms * np.sinh(zs))
    zl, ml = z[~small], mu[~small]
    with np.errstate(divide="ignore"):
        out[~small] = np.logaddexp(np.log1p(ml) + zl, np.log1p(-ml) - zl) - _LOG2
    return out


def gamma_inequality(s: Any, mu: Any, z: np.ndarray) -> Any:
    r"""The function of bhadra2010 eq. (9) whose non-negativity for all ``z`` defines gamma.

    .. math::

        g_s(z;\mu) = \tfrac{s^2 z^2}{2} + \mu z - \log(\cosh z + \mu\sinh z)

    (broadcasting over ``s``, ``mu`` and ``z``).
    """
    s, mu, z = np.broadcast_arrays(np.asarray(s, float), np.asarray(mu, float), np.asarray(z, float))
    return 0.5 * s**2 * z**2 + mu * z - _log_cosh_mu_sinh(z, mu)


def _ratio(z, mu):
    """h(z) = 2 (log(cosh z + mu sinh z) - mu z) / z^2, whose supremum over z is gamma(mu)^2."""
    return 2.0 * (_log_cosh_mu_sinh(z, mu) - mu * z) / z**2


def _zmax(mu):
    return 8.0 + 4.0 * np.arctanh(np.minimum(np.abs(mu), 1 - 1e-15))


def _gamma_sq_unique(mu, n_grid=161, n_refine=50, chunk=2048):
    """sup_z h(z; mu) for a 1-D array of distinct |mu| < 1: grid search, then golden section."""
    out = np.empty(mu.size)
    t = np.geomspace(1e-8, 1.0, n_grid)
    gr = (np.sqrt(5.0) - 1) / 2
    for start in range(0, mu.size, chunk):
        m = mu[start:start + chunk, None]
        zm = _zmax(m)
        best = 1.0 - m[:, 0] ** 2  # the limit z -> 0
        for sign in (1.0, -1.0):
            z = sign * zm * t[None, :]
            h = _ratio(z, m)
            k = np.argmax(h, axis=1)
            rows = np.arange(m.shape[0])
            lo = z[rows, np.maximum(k - 1, 0)]
            hi = z[rows, np.minimum(k + 1, n_grid - 1)]
            mm = m[:, 0]
            # golden-section search for the maximum of h on [lo, hi]
            x1 = hi - gr * (hi - lo)
            x2 = lo + gr * (hi - lo)
            f1, f2 = _ratio(x1, mm), _ratio(x2, mm)
            for _ in range(n_refine):
                left = f1 >= f2
                hi = np.where(left, x2, hi)
                lo = np.where(left, lo, x1)
                x2n = np.where(left, x1, lo + gr * (hi - lo))
                x1n = np.where(left, hi - gr * (hi - lo), x2)
                f2n = np.where(left, f1, np.nan)
                f1n = np.where(left, np.nan, f2)
                x1, x2 = x1n, x2n
                need1, need2 = np.isnan(f1n), np.isnan(f2n)
                f1n[need1] = _ratio(x1[need1], mm[need1])
                f2n[need2] = _ratio(x2[need2], mm[need2])
                f1, f2 = f1n, f2n
            best = np.maximum.reduce([best, h[rows, k], f1, f2])
        out[start:start + chunk] = best
    return out


def finite_support_gamma(mu: float | np.ndarray) -> float | np.ndarray:
    r"""gamma(mu) of bhadra2010 eq. (9) (bental2012 Theorem 1), computed numerically.

    .. math::

        \gamma(\mu) = \min\Bigl\{ s \ge 0 \;:\; \tfrac{s^2 z^2}{2} + \mu z
        - \log(\cosh z + \mu \sinh z) \ge 0 \;\;\forall z\in\mathbb R \Bigr\}
        = \sqrt{\sup_{z\neq 0} \frac{2(\log(\cosh z + \mu\sinh z) - \mu z)}{z^2}}.

    The supremum is found by a grid search over :math:`z` on both half-lines
    (log-spaced, out to :math:`8 + 4\,\mathrm{artanh}|\mu|`, beyond which the
    ratio decays like :math:`2|z|^{-1}`), refined by golden-section search, and
    compared with the limit :math:`1-\mu^2` at :math:`z\to 0`, so that :math:`\gamma^2` is at least the ratio at
    every point of the search grid; it is then rounded up by a relative :math:`10^{-12}`. The computation is
    vectorised over the distinct values of ``mu``; :math:`\gamma(\pm1)=0`
    (a zero-mean variable supported on one side of 0 is 0).
    :func:`gamma_certificate` checks the inequality on an independent fine grid (20001 points); it agrees
    with the closed form :math:`\gamma^2=\mu/\operatorname{artanh}\mu` to about :math:`10^{-15}`.

    Parameters
    ----------
    mu : array_like
        Values in [-1, 1] (:math:`\mu = -c/l`; zero mean forces :math:`|\mu|\le1`).

    Returns
    -------
    gamma : ndarray of the shape of ``mu`` (a float for a scalar input)

    Examples
    --------
    >>> from robustpapers.bhadra2010 import finite_support_gamma
    >>> round(float(finite_support_gamma(0.0)), 6)
    1.0
    >>> bool(finite_support_gamma(0.5) < 1.0)
    True
    """
    mu_arr = check_finite_array(mu, "mu")
    if np.any(np.abs(mu_arr) > 1.0):
        raise ValueError("mu must lie in [-1, 1] (zero-mean noise with a <= 0 <= b)")
    a = np.abs(mu_arr).ravel()
    uniq, inv = np.unique(a, return_inverse=True)
    g2 = np.zeros(uniq.size)
    inner = uniq < 1.0
    if np.any(inner):
        g2[inner] = _gamma_sq_unique(uniq[inner])
    # round up by a relative 1e-12 so that rounding never makes the certificate negative
    out = np.sqrt(np.maximum(g2, 0.0) * (1.0 + _ROUND_UP))[inv].reshape(mu_arr.shape)
    return float(out) if out.ndim == 0 else out


def gamma_certificate(mu: Any, gamma: Any = None, z: np.ndarray | None = None) -> Any:
    r"""Smallest value of the eq. (9) function over a fine ``z`` grid, per ``mu``.

    Non-negative (up to rounding) iff ``gamma`` certifies the inequality on the grid.
    The default grid has 20001 points, log-spaced in :math:`|z|\in[10^{-5}, 60]` on both sides.
    """
    mu = np.atleast_1d(check_finite_array(mu, "mu"))
    gamma = np.atleast_1d(np.asarray(finite_support_gamma(mu) if gamma is None else gamma, float))
    if z is None:
        t = np.geomspace(1e-5, 60.0, 10000)
        z = np.concatenate([-t[::-1], [0.0], t])
    z = np.asarray(z, float)
    vals = gamma_inequality(gamma.ravel()[:, None], mu.ravel()[:, None], z[None, :])
    return vals.min(axis=1).reshape(mu.shape)


def check_eps(eps: float) -> Any:
    """Validate the chance-constraint level: a real number with 0 < eps < 0.5 (bhadra2010 eq. 3).

    Strings ("0.1") and booleans are refused rather than converted.
    """
    arr = np.asarray(eps) if not isinstance(eps, (str, bytes)) else None
    if arr is None or arr.ndim != 0 or arr.dtype.kind not in "iuf":
        raise ValueError(f"eps must be a real number in (0, 0.5), got {eps!r}")
    eps = float(arr)
    if not (0.0 < eps < 0.5):
        raise ValueError(f"eps must lie in (0, 0.5), got {eps!r}")
    return eps


def kappa_gaussian(eps: float) -> Any:
    r"""kappa = :math:`-\Phi^{-1}(\epsilon)` for Gaussian noise (bhadra2010 Theorem 1, eq. 7).

    >>> round(kappa_gaussian(0.05), 4)
    1.6449
    """
    return float(-ndtri(check_eps(eps)))


def kappa_finite_support(eps: float) -> Any:
    r"""kappa = :math:`\sqrt{2\log(1/\epsilon)}` for finite-support noise (bhadra2010 Theorem 3).

    >>> round(kappa_finite_support(0.05), 4)
    2.4477
    """
    return float(np.sqrt(2.0 * np.log(1.0 / check_eps(eps))))


def kappa_from_eps(eps: float, noise: str) -> float:
    """kappa for ``noise`` = 'gaussian' or 'finite_support'."""
    if noise == "gaussian":
        return kappa_gaussian(eps)
    if noise == "finite_support":
        return kappa_finite_support(eps)
    raise ValueError(f"noise must be 'gaussian' or 'finite_support', got {noise!r}")


def beta_from_sigma(sigma: float) -> Any:
    r"""beta = :math:`\sigma\circ\sigma` for Gaussian noise of standard deviations ``sigma`` (bhadra2010 Theorem 1).

    >>> beta_from_sigma([[1.0, 2.0], [2.0, 1.0]]).tolist()
    [[1.0, 4.0], [4.0, 1.0]]
    """
    sigma = check_finite_array(sigma, "sigma")
    if np.any(sigma < 0):
        raise ValueError("sigma must be non-negative (standard deviations)")
    return sigma**2


def beta_from_support(a: Any, b: Any) -> Any:
    r"""beta = :math:`(l\gamma(\mu))^2` for zero-mean noise supported on [a, b] (bhadra2010 Theorem 3).

    .. math::

        l = \tfrac{b-a}{2},\quad c = \tfrac{b+a}{2},\quad \mu = -\tfrac{c}{l},
        \quad \beta_{ij} = (l_{ij}\,\gamma(\mu_{ij}))^2 .

    Zero mean is possible only if :math:`a \le 0 \le b`; ``a >= b`` is rejected.

    >>> bool(abs(beta_from_support(-1.0, 1.0) - 1.0) < 1e-9)
    True
    """
    a = check_finite_array(a, "a")
    b = check_finite_array(b, "b")
    if a.shape != b.shape:
        raise ValueError(f"a and b must have the same shape, got {a.shape} and {b.shape}")
    if np.any(a >= b):
        raise ValueError("the support must satisfy a < b entrywise (a >= b found)")
    if np.any(a > 0) or np.any(b < 0):
        raise ValueError("zero-mean noise needs a <= 0 <= b entrywise (a > 0 or b < 0 found)")
    l = (b - a) / 2
    c = (b + a) / 2
    mu = np.clip(-c / l, -1.0, 1.0)
    out = (l * finite_support_gamma(mu)) ** 2
    return float(out) if np.ndim(out) == 0 else out


def beta_from_kernel_support(K_bar: np.ndarray, a: np.ndarray, b: np.ndarray, spread_tol: float = 1e-12
) -> np.ndarray:
    r"""beta of a kernel matrix known through its mean and element-wise support (bhadra2010 Theorem 3, bental2012 §7.1.2).

    The noise :math:`Z_{ij} = K_{ij} - \overline K_{ij}` lies in
    :math:`[a_{ij} - \overline K_{ij},\ b_{ij} - \overline K_{ij}] \ni 0`, so by :func:`beta_from_support`

    .. math::

        \beta_{ij} = \bigl(l_{ij}\,\gamma(\mu_{ij})\bigr)^2,\quad l_{ij} = \tfrac{b_{ij} - a_{ij}}{2},\quad
        \mu_{ij} = -\frac{c_{ij}}{l_{ij}},\quad c_{ij} = \tfrac{a_{ij} + b_{ij}}{2} - \overline K_{ij} .

    Entries without spread (:math:`b_{ij} - a_{ij} \le` ``spread_tol`` :math:`\max(1, |\overline K_{ij}|)`)
    are certain: :math:`\beta_{ij} = 0`. The result is symmetrised.

    Parameters
    ----------
    K_bar, a, b : arrays (n, n)
        Mean kernel and element-wise min / max over a kernel set (:math:`a \le \overline K \le b`).
    spread_tol : float
        Relative spread below which an entry counts as certain.

    Returns
    -------
    beta : array (n, n), non-negative and symmetric

    Examples
    --------
    >>> import numpy as np
    >>> K = np.stack([np.eye(2), np.eye(2) + 0.2 * (1 - np.eye(2))])
    >>> beta = beta_from_kernel_support(K.mean(0), K.min(0), K.max(0))
    >>> bool(beta[0, 0] == 0 and beta[0, 1] > 0 and beta[0, 1] == beta[1, 0])
    True
    """
    K_bar = check_finite_array(K_bar, "K_bar", ndim=2)
    a = check_finite_array(a, "a", ndim=2)
    b = check_finite_array(b, "b", ndim=2)
    if not (K_bar.shape == a.shape == b.shape) or K_bar.shape[0] != K_bar.shape[1]:
        raise ValueError(f"K_bar, a and b must be square of one shape, got {K_bar.shape}, {a.shape}, {b.shape}")
    spread_tol = check_nonnegative(spread_tol, "spread_tol")
    tol = 1e-9 * max(1.0, float(np.abs(K_bar).max(initial=0.0)))
    if np.any(a > K_bar + tol) or np.any(b < K_bar - tol):
        raise ValueError("the support must contain the mean kernel: a <= K_bar <= b element-wise")
    za = np.minimum(a - K_bar, 0.0)
    zb = np.maximum(b - K_bar, 0.0)
    spread = zb - za > spread_tol * np.maximum(1.0, np.abs(K_bar))
    beta = np.zeros_like(K_bar)
    if spread.any():
        beta[spread] = beta_from_support(za[spread], zb[spread])
    return (beta + beta.T) / 2
