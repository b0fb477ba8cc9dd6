r"""Synthetic data sets of ginodi2010 (the thesis shows them only as figures: parameters are ours)."""
from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.utils import check_random_state

__all__ = ["toy_gaussian", "toy_narrow_outliers", "toy_radial", "toy_multiclass"]


def _n(n):
    if int(n) != n or n < 2:
        raise ValueError(f"n must be an integer >= 2, got {n!r}")
    return int(n)


def toy_gaussian(n: int, random_state: int | np.random.Generator | None = None) -> Any:
    r"""Toy (a) of Fig. 2.4: two isotropic Gaussians :math:`\mathcal N(\pm(1, 1), I)`, labels :math:`\pm1`.

    Balanced (n//2 per class, shuffled). Bayes accuracy :math:`\Phi(\sqrt2) \approx 92.1\%`
    (the thesis reports 92.5% for both methods; its parameters are not given).
    """
    n = _n(n)
    rng = check_random_state(random_state)
    y = np.where(np.arange(n) < n // 2, 1.0, -1.0)
    X = rng.normal(size=(n, 2)) + y[:, None] * np.array([1.0, 1.0])
    p = rng.permutation(n)
    return X[p], y[p]


def toy_narrow_outliers(n: int, outlier_frac: float = 0.05,
                        random_state: int | np.random.Generator | None = None) -> Any:
    r"""Toy (b) of Fig. 2.4: narrow Gaussians with outliers.

    Class :math:`\pm1` is :math:`\mathcal N((0, \pm0.5), \operatorname{diag}(4, 0.1))`; a fraction
    ``outlier_frac`` of each class is replaced by points of :math:`\mathcal N((0, \mp4), 0.25 I)`,
    far on the wrong side (still labelled with their class).
    """
    n = _n(n)
    rng = check_random_state(random_state)
    y = np.where(np.arange(n) < n // 2, 1.0, -1.0)
    X = rng.normal(size=(n, 2)) * np.sqrt([4.0, 0.1]) + y[:, None] * np.array([0.0, 0.5])
    out = rng.random_sample(n) < outlier_frac
    X[out] = rng.normal(size=(out.sum(), 2)) * 0.5 + (-y[out, None]) * np.array([0.0, 4.0])
    p = rng.permutation(n)
    return X[p], y[p]


def toy_radial(n: int, random_state: int | np.random.Generator | None = None) -> Any:
    r"""Radial toy of Fig. 4.1 (as the thesis describes it).

    Uniform points on :math:`[-7.5, 7.5]^2`; :math:`\|x\| < 2` is labelled +1,
    :math:`\|x\| > 3.5` is labelled -1, points in between are dropped; draws until ``n`` points.
    """
    n = _n(n)
    rng = check_random_state(random_state)
    Xs = []
    got = 0
    while got < n:
        P = rng.uniform(-7.5, 7.5, size=(2 * n, 2))
        r = np.linalg.norm(P, axis=1)
        P = P[(r < 2) | (r > 3.5)]
        Xs.append(P)
        got += len(P)
    X = np.vstack(Xs)[:n]
    y = np.where(np.linalg.norm(X, axis=1) < 2, 1.0, -1.0)
    return X, y


def toy_multiclass(n: int, n_classes: int = 3, spread: float = 1.0, radius: float = 3.0,
                   random_state: int | np.random.Generator | None = None) -> Any:
    r"""Toy-3 / Toy-4 of Fig. 5.3: one isotropic Gaussian per class, means on a circle of ``radius``.

    Labels 0..C-1, about n/C points each.
    """
    n = _n(n)
    rng = check_random_state(random_state)
    y = np.arange(n) % n_classes
    ang = 2 * np.pi * np.arange(n_classes) / n_classes + np.pi / 4
    means = radius * np.c_[np.cos(ang), np.sin(ang)]
    X = means[y] + spread * rng.normal(size=(n, 2))
    p = rng.permutation(n)
    return X[p], y[p]
