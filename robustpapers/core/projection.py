"""Exact Euclidean projection onto the SVM dual feasible set."""
from __future__ import annotations

import numpy as np

from .validation import check_binary_labels, check_finite_array, check_positive

__all__ = ["project_svm_set"]


def _balance(v, y, C, lam):
    """g(lam) = sum_i y_i clip(v_i - lam y_i, 0, C) for an array of multipliers."""
    lam = np.atleast_1d(lam)
    a = np.clip(v[None, :] - lam[:, None] * y[None, :], 0.0, C)
    return a @ y


def project_svm_set(v, y, C):
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
