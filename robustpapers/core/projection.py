"""Euclidean projections: the SVM dual feasible set (alone and cut by a ball), the simplex, the positive part of an lp ball."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from .validation import check_binary_labels, check_finite_array, check_positive

__all__ = ["project_svm_set", "project_svm_set_ball", "project_simplex", "project_positive_lp_ball",
           "project_restricted_lp_ball"]


def _balance(v, y, C, lam):
    """g(lam) = sum_i y_i clip(v_i - lam y_i, 0, C) for an array of multipliers."""
    lam = np.atleast_1d(lam)
    a = np.clip(v[None, :] - lam[:, None] * y[None, :], 0.0, C)
    return a @ y


def project_svm_set(v: np.ndarray, y: np.ndarray, C: float) -> np.ndarray:
    r"""Project ``v`` onto the SVM dual feasible set.

    Solves

    .. math::

        \min_{a} \tfrac12 \|a - v\|_2^2 \quad\text{s.t.}\quad
        0 \le a_i \le C,\; \textstyle\sum_i y_i a_i = 0,

    exactly. By the KKT conditions the solution is
    :math:`a_i(\lambda) = \operatorname{clip}(v_i - \lambda y_i, 0, C)`, where
    the multiplier :math:`\lambda` is the root of the non-increasing, piecewise
    linear function :math:`g(\lambda) = \sum_i y_i a_i(\lambda)`. The root is
    located by bisection over the :math:`2n` sorted breakpoints
    :math:`\{y_i v_i,\, y_i (v_i - C)\}` and then found exactly by linear
    interpolation on the bracketing segment, so the result is exact up to
    rounding (bental2012, App. B, grid-searches :math:`\lambda`; this is the
    exact replacement). Cost: :math:`O(n \log n)`.

    Parameters
    ----------
    v : array of shape (n,)
        Point to project.
    y : array of shape (n,)
        Labels in {-1, +1}.
    C : float
        Box bound, > 0.

    Returns
    -------
    a : ndarray of shape (n,)
        The projection.

    Examples
    --------
    >>> import numpy as np
    >>> from robustpapers.core import project_svm_set
    >>> a = project_svm_set(np.array([2.0, 0.5, -1.0]), np.array([1, -1, -1]), C=1.0)
    >>> bool(abs(a @ np.array([1, -1, -1])) < 1e-12)
    True
    """
    v = check_finite_array(v, name="v", ndim=1)
    y = check_binary_labels(y, require_both=False)
    if v.shape != y.shape:
        raise ValueError(f"v and y must have the same shape, got {v.shape} and {y.shape}")
    C = check_positive(C, "C")
    bp = np.unique(np.concatenate([y * v, y * (v - C)]))
    # g(bp[0]) = C n_+ >= 0 and g(bp[-1]) = -C n_- <= 0: bisect on the index.
    lo, hi = 0, bp.size - 1
    g_lo, g_hi = _balance(v, y, C, bp[lo])[0], _balance(v, y, C, bp[hi])[0]
    while hi - lo > 1:
        mid = (lo + hi) // 2
        g_mid = _balance(v, y, C, bp[mid])[0]
        if g_mid >= 0:
            lo, g_lo = mid, g_mid
        else:
            hi, g_hi = mid, g_mid
    if g_lo == 0 or hi == lo:
        lam = bp[lo]
    elif g_hi == 0:
        lam = bp[hi]
    else:
        lam = bp[lo] + g_lo * (bp[hi] - bp[lo]) / (g_lo - g_hi)
    return np.clip(v - lam * y, 0.0, C)


def project_svm_set_ball(v: np.ndarray, y: np.ndarray, C: float, center: Any, radius: float,
                         max_bisect: int = 60) -> Any:
    r"""Euclidean projection onto :math:`S_n \cap \{\|a - c\|_2 \le r\}` (c in :math:`S_n`).

    The solution is :math:`a(\mu) = P_{S_n}((v + \mu c)/(1 + \mu))` with the smallest
    :math:`\mu \ge 0` giving :math:`\|a(\mu) - c\| \le r` (the distance is non-increasing in
    :math:`\mu`); :math:`\mu` is found by bisection, each step one exact :func:`robustpapers.core.project_svm_set`.

    Examples
    --------
    >>> import numpy as np
    >>> a = project_svm_set_ball(np.array([5.0, 5.0]), np.array([1.0, -1.0]), 10.0, np.zeros(2), 1.0)
    >>> bool(np.linalg.norm(a) <= 1 + 1e-9)
    True
    """
    a = project_svm_set(v, y, C)
    if np.linalg.norm(a - center) <= radius:
        return a
    lo, hi = 0.0, 1.0
    while np.linalg.norm(project_svm_set((v + hi * center) / (1 + hi), y, C) - center) > radius:
        hi *= 4.0
        if hi > 1e30:
            break
    for _ in range(max_bisect):
        mid = 0.5 * (lo + hi)
        if np.linalg.norm(project_svm_set((v + mid * center) / (1 + mid), y, C) - center) > radius:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-10 * hi:
            break
    return project_svm_set((v + hi * center) / (1 + hi), y, C)


def project_simplex(v: np.ndarray) -> Any:
    r"""Euclidean projection onto the unit simplex :math:`\{x \ge 0, e^\top x = 1\}` (sort-based, exact)."""
    v = np.asarray(v, dtype=float)
    s = np.sort(v)[::-1]
    css = np.cumsum(s) - 1.0
    k = np.flatnonzero(s - css / np.arange(1, s.size + 1) > 0)[-1]
    return np.maximum(v - css[k] / (k + 1), 0.0)


def project_restricted_lp_ball(v: np.ndarray, p: float = 2) -> Any:
    r"""Euclidean projection onto :math:`X' = \{x \ge 0,\ \|x\|_p \le 1,\ e^\top x \ge 1\}`.

    If the projection on :math:`\{x\ge 0, \|x\|_p\le 1\}` satisfies :math:`e^\top x \ge 1` it is
    the answer; otherwise the half-space is active and, since the unit simplex lies inside
    every unit p-ball (:math:`\|x\|_p \le \|x\|_1`), the answer is the projection on the simplex.

    Examples
    --------
    >>> import numpy as np
    >>> project_restricted_lp_ball(np.array([0.2, 0.1]))
    array([0.55, 0.45])
    """
    x = project_positive_lp_ball(v, p)
    if x.size == 0 or x.sum() >= 1.0:
        return x
    return project_simplex(v)


def project_positive_lp_ball(v: np.ndarray, p: float = 2) -> Any:
    r"""Euclidean projection onto :math:`X = \{x \ge 0,\ \|x\|_p \le 1\}` (the x-step (21a) of FSS).

    Closed form for p = 2 (clip, then rescale: bental2012 §5.3), p = 1 (projection on the simplex
    when :math:`\|v_+\|_1 > 1`) and p = inf (clip to [0, 1]); for other p the KKT system
    :math:`x_l + \mu p x_l^{p-1} = v_l` is solved by bisection on :math:`\mu` with a
    vectorised Newton solve per coordinate (Brent's method on :math:`\mu`).

    Examples
    --------
    >>> import numpy as np
    >>> project_positive_lp_ball(np.array([3.0, 4.0, -1.0]))
    array([0.6, 0.8, 0. ])
    """
    v = np.asarray(v, dtype=float)
    vp = np.maximum(v, 0.0)
    if vp.size == 0:
        return vp
    if np.isinf(p):
        return np.minimum(vp, 1.0)
    if p == 2:
        nrm = math.sqrt(float(vp @ vp))
        return vp / nrm if nrm > 1.0 else vp
    if p == 1:
        if vp.sum() <= 1.0:
            return vp
        return project_simplex(vp)
    if np.sum(vp**p) <= 1.0:
        return vp

    from scipy.optimize import brentq

    state = {"x": vp.copy()}

    def solve(mu):
        # x_l + mu p x_l^(p-1) = v_l, vectorised Newton (monotone in x_l), warm-started
        x = np.clip(state["x"], 0.0, vp)
        for _ in range(100):
            xs = np.maximum(x, 1e-300)
            h = x + mu * p * xs ** (p - 1) - vp
            dh = 1.0 + mu * p * (p - 1) * xs ** (p - 2)
            x_new = np.clip(x - h / dh, 0.0, vp)
            if np.max(np.abs(x_new - x)) <= 1e-15 * max(1.0, float(vp.max())):
                x = x_new
                break
            x = x_new
        state["x"] = x
        return x

    hi = 1.0
    while np.sum(solve(hi) ** p) > 1.0:
        hi *= 4.0
    mu = brentq(lambda m: float(np.sum(solve(m) ** p)) - 1.0, 0.0, hi, xtol=1e-15, rtol=1e-13)
    return solve(mu)
