"""Error measures of shivaswamy2006 section 3.3 (classification) and 5.4 (regression)."""
from __future__ import annotations

from typing import Any

import numpy as np
from scipy import stats

from ..core import check_positive
from ._validate import _check_factors, _check_gamma, _check_Xy

__all__ = ["classification_errors", "expected_error_mc", "regression_errors"]


def _parts(w, b, X, Sigmas, factors):
    X = np.asarray(X, dtype=float)
    n, d = X.shape
    w = np.asarray(w, dtype=float)
    if w.shape != (d,):
        raise ValueError(f"w must have shape ({d},), got {w.shape}")
    F = _check_factors(Sigmas, factors, n, d)
    f = X @ w + float(b)
    s = np.array([np.linalg.norm(L.T @ w) for L in F])
    r = np.array([L.shape[1] for L in F])
    return f, s, r, F


def classification_errors(w: np.ndarray, b: float, X: np.ndarray, y: np.ndarray, Sigmas: np.ndarray | None = None,
                          gamma: float | np.ndarray = 1.0, *, factors: np.ndarray | None = None
) -> dict[str, Any]:
    r"""Per-pattern actual, worst-case and expected error of a hyperplane on ellipsoids, shivaswamy2006 section 3.3.

    With :math:`f = \langle w, \bar x\rangle + b` and :math:`s = \|\Sigma^{1/2} w\|`:

    .. math::

        e_{\mathrm{act}} = [\,y f \le 0\,],\qquad
        e_{\mathrm{wc}} = [\,y f - \gamma s < 0\,] \ (\text{i.e. } y z < \gamma,\ z = f/s),\qquad
        e_{\mathrm{exp}} = \frac{\mathrm{vol}\{x \in \mathcal E(\bar x, \Sigma, \gamma): y(\langle w,x\rangle + b) < 0\}}
                               {\mathrm{vol}\,\mathcal E(\bar x, \Sigma, \gamma)}.

    The expected error is computed in closed form: the projection :math:`T` of a point uniform in the
    :math:`r`-dimensional unit ball (:math:`r = \mathrm{rank}\,\Sigma`, the ellipsoid's own dimension)
    onto a unit vector has :math:`(T+1)/2 \sim \mathrm{Beta}(\tfrac{r+1}2, \tfrac{r+1}2)`, so
    :math:`e_{\mathrm{exp}} = I_{(1 - y f/(\gamma s))/2}(\tfrac{r+1}2, \tfrac{r+1}2)` (regularised
    incomplete beta, clipped to [0, 1]). :func:`expected_error_mc` is the paper's Monte Carlo version.

    Parameters
    ----------
    w : ndarray (d,)
    b : float
    X : ndarray (n, d)
        Ellipsoid centres (imputed patterns).
    y : ndarray (n,)
        Labels in {-1, +1}.
    Sigmas, factors
        Covariances or their factors (None entries: exact points).
    gamma : float or ndarray (n,)
        Radii.

    Returns
    -------
    dict of ndarray (n,)
        ``actual``, ``worst_case``, ``expected``.

    Examples
    --------
    >>> import numpy as np
    >>> e = classification_errors(np.array([1.0]), 0.0, np.array([[0.0]]), np.array([1.0]), [np.eye(1)], 1.0)
    >>> float(e["expected"][0]), float(e["worst_case"][0])
    (0.5, 1.0)
    """
    X, y = _check_Xy(X, y, binary=False)
    g = _check_gamma(gamma, len(y))
    f, s, r, _ = _parts(w, b, X, Sigmas, factors)
    yf = y * f
    actual = (yf <= 0).astype(float)
    spread = (g * s) > 0
    worst = np.where(spread, (yf - g * s < 0), yf <= 0).astype(float)
    expected = actual.copy()
    if np.any(spread):
        a = (r[spread] + 1) / 2.0
        u = np.clip((1.0 - yf[spread] / (g[spread] * s[spread])) / 2.0, 0.0, 1.0)
        expected[spread] = stats.beta.cdf(u, a, a)
    return {"actual": actual, "worst_case": worst, "expected": expected}


def expected_error_mc(w: np.ndarray, b: Any, X: np.ndarray, y: np.ndarray, Sigmas: np.ndarray | None = None,
                      gamma: float = 1.0, *, factors: np.ndarray | None = None, n_samples: int = 2000,
                      random_state: int | np.random.Generator | None = None) -> np.ndarray:
    r"""Expected error by Monte Carlo, as in shivaswamy2006 section 3.3: the fraction of points drawn uniformly
    in :math:`\mathcal E(\bar x_i, \Sigma_i, \gamma_i)` that fall on the wrong side.

    Points are :math:`\bar x + \gamma L u` with :math:`\Sigma = L L^\top` and :math:`u` uniform in
    the unit ball of dimension :math:`\mathrm{rank}\,\Sigma` (direction Gaussian-normalised, radius
    :math:`U^{1/r}`). The standard error is at most :math:`1/(2\sqrt{n_{\mathrm{samples}}})`.

    Parameters
    ----------
    w, b, X, y, Sigmas, gamma, factors
        As in :func:`classification_errors`.
    n_samples : int
        Points per ellipsoid.
    random_state : int, Generator or None

    Returns
    -------
    ndarray (n,)

    Examples
    --------
    >>> import numpy as np
    >>> e = expected_error_mc(np.array([1.0]), 0.0, np.array([[0.0]]), np.array([1.0]), [np.eye(1)], 1.0,
    ...                       n_samples=4000, random_state=0)
    >>> bool(abs(e[0] - 0.5) < 0.05)
    True
    """
    X, y = _check_Xy(X, y, binary=False)
    n_samples = int(check_positive(n_samples, "n_samples"))
    g = _check_gamma(gamma, len(y))
    f, s, r, F = _parts(w, b, X, Sigmas, factors)
    rng = np.random.default_rng(random_state)
    w = np.asarray(w, dtype=float)
    out = (y * f <= 0).astype(float)
    for i, L in enumerate(F):
        if L.shape[1] == 0 or g[i] == 0:
            continue
        ri = L.shape[1]
        z = rng.standard_normal((n_samples, ri))
        u = z / np.linalg.norm(z, axis=1, keepdims=True) * rng.uniform(size=(n_samples, 1)) ** (1.0 / ri)
        fx = f[i] + g[i] * (u @ (L.T @ w))
        out[i] = float(np.mean(y[i] * fx < 0))
    return out


def regression_errors(w: np.ndarray, b: float, X: np.ndarray, y: np.ndarray, Sigmas: np.ndarray | None = None,
                      gamma: float = 1.0, *, factors: np.ndarray | None = None) -> dict[str, Any]:
    r"""Per-pattern regression error measures of shivaswamy2006 section 5.4.

    .. math::

        e_{\mathrm{robust}} = \gamma\|\Sigma^{1/2} w\| \ \ (38),\qquad
        e_{\mathrm{exp}} = \sqrt{w^\top\Sigma w + e(f(\bar x), y)^2}\ \ (39),\qquad
        e_{\mathrm{worst}} = |e(f(\bar x), y)| + \gamma\|\Sigma^{1/2} w\|\ \ (40),

    with :math:`e(f(\bar x), y) = \langle w, \bar x\rangle + b - y`; ``residual`` is
    :math:`|e(f(\bar x), y)|` (the test error of shivaswamy2006 Fig. 10).

    Parameters
    ----------
    w : ndarray (d,)
    b : float
    X : ndarray (n, d)
    y : ndarray (n,)
    Sigmas, gamma, factors
        As in :func:`classification_errors`.

    Returns
    -------
    dict of ndarray (n,)
        ``robustness``, ``expected_residual``, ``worst_case``, ``residual``.

    Examples
    --------
    >>> import numpy as np
    >>> e = regression_errors(np.array([3.0]), 0.0, np.array([[1.0]]), np.array([2.0]), [np.eye(1) * 4.0], 0.5)
    >>> float(e["robustness"][0]), float(e["expected_residual"][0]), float(e["worst_case"][0])
    (3.0, 6.082762530298219, 4.0)
    """
    X, y = _check_Xy(X, y, binary=False)
    g = _check_gamma(gamma, len(y))
    f, s, _, _ = _parts(w, b, X, Sigmas, factors)
    e = f - y
    return {"robustness": g * s, "expected_residual": np.sqrt(s ** 2 + e ** 2),
            "worst_case": np.abs(e) + g * s, "residual": np.abs(e)}
