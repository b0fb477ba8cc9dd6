"""Random draws shared by the papers' prediction rules."""
from __future__ import annotations

import numpy as np
from sklearn.utils import check_random_state

from .validation import check_nonnegative

__all__ = ["sample_positive_lp_ball"]


def sample_positive_lp_ball(L: int, kappa: float, p: float = 2.0, size: int = 1,
                            random_state: int | np.random.Generator | None = None) -> np.ndarray:
    r"""Draw ``size`` points uniformly from :math:`\{\eta\in\mathbb R^L : \eta \ge 0, \|\eta\|_p \le \kappa\}`.

    Uses the representation of Barthe, Guédon, Mendelson and Naor (2005):
    with :math:`g_l` i.i.d. of density :math:`\propto e^{-|t|^p}` and
    :math:`W \sim \mathrm{Exp}(1)`, :math:`g / (\|g\|_p^p + W)^{1/p}` is uniform on
    the unit :math:`\ell_p` ball; taking :math:`|g|` restricts it to the positive
    orthant. This is the draw of bental2012 §6.1 (R instances of η).

    Returns
    -------
    eta : ndarray of shape (size, L)
    """
    if int(L) != L or L < 1:
        raise ValueError(f"L must be a positive integer, got {L!r}")
    kappa = check_nonnegative(kappa, "kappa")
    if not np.isfinite(p) or p < 1:
        raise ValueError(f"p must be >= 1 and finite, got {p!r}")
    rng = check_random_state(random_state)
    g = rng.gamma(1.0 / p, 1.0, size=(size, int(L))) ** (1.0 / p)
    w = rng.exponential(1.0, size=(size, 1))
    return kappa * g / (np.sum(g**p, axis=1, keepdims=True) + w) ** (1.0 / p)
