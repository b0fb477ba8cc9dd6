r"""Synthetic data of bhadra2010 §5.1 and kernel-noise samplers (Gaussian and finite support).

bhadra2010 §5.1: two classes of 100 points from a Gaussian mixture, a linear kernel, and
:math:`n_s=100` noisy kernels :math:`K^s_{ij}=K_{ij}+Z^s_{ij}` with :math:`Z^s_{ij}` drawn from
(a) N(0, 1), (b) U[-0.5, 0.5], (c) a centred Beta(0.5, 0.5), multiplied by a random
:math:`l_{ij}=l_{ji}` ("we chose :math:`l_{ij}=0.25K_{ij}`"). Where bhadra2010 is silent we follow the
D_U/D_G/D_B construction of bental2012 §7.1.1 (dimension, mixture of four Gaussians, labels of the
centres by a random hyperplane), and :math:`l_{ij}\sim U(0, 0.25|K_{ij}|)`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core import check_finite_array, linear_kernel
from ..core.seeding import check_random_state

__all__ = ["NOISES", "sample_noise", "sample_kernels", "sample_kernels_support", "make_mixture", "SyntheticKernelData",
           "make_synthetic_kernel_data", "support_and_moments"]

#: Noise families: standardised draws (Gaussian N(0,1); the others centred, on [-1/2, 1/2] before scaling).
NOISES = ("gaussian", "uniform", "beta0.5", "beta5")


def sample_noise(kind: Any, size: Any, rng: int | np.random.Generator | None) -> Any:
    r"""Standardised zero-mean noise of bhadra2010 §5.1 / §5.1.3.

    ``"gaussian"``: N(0, 1); ``"uniform"``: U[-1/2, 1/2]; ``"beta0.5"``, ``"beta5"``: Beta(p, p) - 1/2
    for p = 0.5, 5 (support [-1/2, 1/2], mean 0). Multiplying by :math:`l` gives support
    :math:`[-l/2, l/2]` (or standard deviation :math:`l` for the Gaussian).
    """
    rng = check_random_state(rng)
    if kind == "gaussian":
        return rng.standard_normal(size)
    if kind == "uniform":
        return rng.uniform(-0.5, 0.5, size)
    if kind == "beta0.5":
        return rng.beta(0.5, 0.5, size) - 0.5
    if kind == "beta5":
        return rng.beta(5.0, 5.0, size) - 0.5
    raise ValueError(f"noise kind must be one of {NOISES}, got {kind!r}")


def sample_kernels(K_bar: np.ndarray, scale: np.ndarray, kind: Any, n_samples: int,
                   random_state: int | np.random.Generator | None = None, symmetric: bool = False
) -> np.ndarray:
    r"""Draw ``n_samples`` kernels :math:`K^s = \bar K + l\circ Z^s` with independent entries :math:`Z^s_{ij}`.

    Parameters
    ----------
    K_bar : array (m, n)
        Mean kernel (training block, or test-versus-training block).
    scale : array (m, n) or float
        :math:`l_{ij}` (standard deviation for Gaussian noise, support width for the others).
    kind : one of :data:`NOISES`
    n_samples : int
    symmetric : bool
        If True, draw :math:`Z_{ij}=Z_{ji}` (needs a square ``K_bar``). bhadra2010 Theorems 1-3 assume all
        entries independent, which is the default.

    Returns
    -------
    ndarray (n_samples, m, n)

    Examples
    --------
    >>> import numpy as np
    >>> Ks = sample_kernels(np.eye(2), 0.1, "uniform", 3, random_state=0)
    >>> Ks.shape, bool(np.all(np.abs(Ks - np.eye(2)) <= 0.05))
    ((3, 2, 2), True)
    """
    K_bar = check_finite_array(K_bar, "K_bar", ndim=2)
    scale = np.broadcast_to(check_finite_array(scale, "scale"), K_bar.shape)
    if np.any(scale < 0):
        raise ValueError("scale must be non-negative")
    n_samples = int(n_samples)
    if n_samples < 1:
        raise ValueError(f"n_samples must be >= 1, got {n_samples}")
    rng = check_random_state(random_state)
    Z = sample_noise(kind, (n_samples,) + K_bar.shape, rng)
    if symmetric:
        if K_bar.shape[0] != K_bar.shape[1]:
            raise ValueError("symmetric noise needs a square K_bar")
        Z = np.triu(Z) + np.swapaxes(np.triu(Z, 1), 1, 2)
    return K_bar[None] + scale[None] * Z


#: Concentration p of the Beta(p, p) behind each bounded noise family.
_BETA_P = {"uniform": 1.0, "beta0.5": 0.5, "beta5": 5.0}


def sample_kernels_support(K_bar: np.ndarray, a: np.ndarray, b: np.ndarray, kind: str, n_samples: int,
                           random_state: int | np.random.Generator | None = None) -> np.ndarray:
    r"""Draw kernels :math:`K^s = \bar K + Z^s` with independent zero-mean :math:`Z^s_{ij} \in [a_{ij}, b_{ij}]`.

    The bounded families of bhadra2010 §5.1 are Beta(p, p) laws (uniform: p = 1; ``"beta0.5"``, ``"beta5"``)
    scaled into the support. For an asymmetric support a symmetric Beta would not have mean zero, so the
    draw is :math:`Z = a + (b-a)B` with :math:`B \sim \mathrm{Beta}(2pm, 2p(1-m))`, :math:`m = -a/(b-a)`:
    the same total concentration 2p, mean exactly zero, and Beta(p, p) when :math:`a = -b`.

    Parameters
    ----------
    K_bar : array (m, n)
    a, b : arrays broadcastable to (m, n) with a < 0 < b
    kind : {"uniform", "beta0.5", "beta5"}
    n_samples : int

    Returns
    -------
    ndarray (n_samples, m, n)

    Examples
    --------
    >>> import numpy as np
    >>> Ks = sample_kernels_support(np.zeros((2, 2)), -0.1, 0.3, "beta5", 4, random_state=0)
    >>> bool(Ks.min() >= -0.1 and Ks.max() <= 0.3)
    True
    """
    K_bar = check_finite_array(K_bar, "K_bar", ndim=2)
    a = np.broadcast_to(check_finite_array(a, "a"), K_bar.shape)
    b = np.broadcast_to(check_finite_array(b, "b"), K_bar.shape)
    if np.any(a >= b):
        raise ValueError("the support must satisfy a < b entrywise (a >= b found)")
    if np.any(a >= 0) or np.any(b <= 0):
        raise ValueError("zero-mean noise with a non-degenerate law needs a < 0 < b entrywise")
    if kind not in _BETA_P:
        raise ValueError(f"kind must be one of {sorted(_BETA_P)} for bounded noise, got {kind!r}")
    n_samples = int(n_samples)
    if n_samples < 1:
        raise ValueError(f"n_samples must be >= 1, got {n_samples}")
    rng = check_random_state(random_state)
    p = _BETA_P[kind]
    m = -a / (b - a)
    B = rng.beta(2 * p * m, 2 * p * (1 - m), size=(n_samples,) + K_bar.shape)
    return K_bar[None] + a[None] + (b - a)[None] * B


def make_mixture(n_per_class: Any, random_state: int | np.random.Generator | None = None, d: Any = None,
                 n_components: int = 4, d_max: int = 100) -> tuple[Any, ...]:
    r"""Two-class Gaussian mixture of bental2012 §7.1.1 (used for bhadra2010 §5.1).

    :math:`d\sim U\{2..d_{max}\}` (unless given; bental2012 uses :math:`d_{max}=100`); ``n_components`` Gaussians with means
    :math:`\mu_j\sim U(-5,5)` and diagonal covariances with entries :math:`\sim U(0,5)`; each centre is
    labelled :math:`\mathrm{sign}(w^\top\mu)` for a random unit :math:`w` (redrawn until both labels occur);
    ``n_per_class`` points are drawn from the positive and from the negative components.

    Returns
    -------
    X : (2 n_per_class, d), y : (2 n_per_class,) in {-1, +1}
    """
    rng = check_random_state(random_state)
    if d is None:
        d = int(rng.integers(2, int(d_max) + 1))
    means = rng.uniform(-5, 5, (n_components, d))
    var = rng.uniform(0, 5, (n_components, d))
    for _ in range(1000):
        w = rng.standard_normal(d)
        w /= np.linalg.norm(w)
        lab = np.sign(means @ w)
        if np.any(lab > 0) and np.any(lab < 0):
            break
    else:  # pragma: no cover - practically impossible
        raise RuntimeError("could not label the mixture centres with both classes")
    X, y = [], []
    for cls in (1.0, -1.0):
        comps = np.flatnonzero(lab == cls)
        which = rng.choice(comps, size=n_per_class)
        X.append(means[which] + np.sqrt(var[which]) * rng.standard_normal((n_per_class, d)))
        y.append(np.full(n_per_class, cls))
    return np.vstack(X), np.concatenate(y)


@dataclass
class SyntheticKernelData:
    """A data set of bhadra2010 §5.1: labels, nominal kernel, per-entry noise scale and the noise family."""

    y: np.ndarray
    K: np.ndarray       # nominal kernel K_ij (from the original points)
    scale: np.ndarray   # l_ij (symmetric)
    noise: str


def make_synthetic_kernel_data(n_per_class: int = 100, noise: str = "uniform", scale_factor: float = 0.25,
                               random_state: int | np.random.Generator | None = None, d: Any = None,
                               d_max: int = 100) -> Any:
    r"""bhadra2010 §5.1 data: mixture points, linear kernel :math:`K`, scale :math:`l_{ij}=l_{ji}\sim U(0, f|K_{ij}|)`.

    The uncertainty description (:func:`support_and_moments`) is then estimated from kernels sampled by
    :func:`sample_kernels` with this ``scale`` and ``noise``.
    """
    rng = check_random_state(random_state)
    X, y = make_mixture(n_per_class, rng, d=d, d_max=d_max)
    K = linear_kernel(X)
    U = rng.uniform(0, 1, K.shape)
    U = np.triu(U) + np.triu(U, 1).T
    return SyntheticKernelData(y=y, K=K, scale=scale_factor * np.abs(K) * U, noise=noise)


def support_and_moments(K_samples: Any, K_bar: np.ndarray | None = None) -> Any:
    r"""Estimates of bhadra2010 §5.1 from sampled square kernels: mean :math:`\bar K`, support of :math:`Z=K-\bar K`
    (:math:`a=\min_s K^s-\bar K`, :math:`b=\max_s K^s-\bar K`) and standard deviation :math:`\sigma`.

    The samples of entries (i, j) and (j, i) are pooled, so that every estimate is symmetric and
    :math:`a \le 0 \le b` holds by construction (the mean lies between the minimum and the maximum).

    If the true mean ``K_bar`` is given (bhadra2010 §5.1: the kernel of the original points, of which the
    samples are noisy versions), it is used as the centre instead of the sample mean; :math:`a` and
    :math:`b` are then clipped at 0 so that zero mean stays possible.

    Returns a dict ``{"K_bar", "a", "b", "sigma"}``.
    """
    Ks = check_finite_array(K_samples, "K_samples", ndim=3)
    if Ks.shape[1] != Ks.shape[2]:
        raise ValueError(f"K_samples must hold square kernels, got shape {Ks.shape}")
    P = np.concatenate([Ks, np.swapaxes(Ks, 1, 2)], axis=0)
    if K_bar is None:
        K_bar = P.mean(axis=0)
        K_bar = (K_bar + K_bar.T) / 2
    else:
        K_bar = check_finite_array(K_bar, "K_bar", ndim=2)
    a = np.minimum(P.min(axis=0) - K_bar, 0.0)
    b = np.maximum(P.max(axis=0) - K_bar, 0.0)
    return {"K_bar": K_bar, "a": a, "b": b, "sigma": np.sqrt(np.mean((P - K_bar[None]) ** 2, axis=0))}
