"""Synthetic data and base kernels of bental2012 §7.1.1 (D_G, D_U, D_B) and RSVM support information (§7.1.2)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core import check_finite_array, linear_kernel

__all__ = [
    "UncertainKernelData", "make_mixture_data", "make_uncertain_kernels", "make_uncertain_dataset",
    "D_G", "D_U", "D_B", "rsvm_support_from_kernels", "DISTRIBUTIONS",
]

#: The three entry distributions of Z^l (bental2012 §7.1.1): standard Gaussian, Uniform[-1, 1],
#: centred Beta(0.5, 0.5) (i.e. Beta(0.5, 0.5) - 1/2, on [-1/2, 1/2]).
DISTRIBUTIONS = ("gaussian", "uniform", "beta")


@dataclass
class UncertainKernelData:
    """One data set of D_G / D_U / D_B: points ``X`` (2N, d), labels ``y`` (+-1), the nominal linear
    kernel ``K_bar`` (2N, 2N) and the stack ``K_stack`` (L, 2N, 2N) of :math:`K_l = \\bar K + Z^l Z^{l\\top}`."""

    X: np.ndarray
    y: np.ndarray
    K_bar: np.ndarray
    K_stack: np.ndarray
    info: dict = field(default_factory=dict)

    def kernels(self, rows: Any, cols: Any) -> Any:
        """``(K_bar[rows][:, cols], K_stack[:, rows][:, :, cols])`` (train/test blocks of the kernels)."""
        rows, cols = np.asarray(rows), np.asarray(cols)
        return self.K_bar[np.ix_(rows, cols)], self.K_stack[:, rows[:, None], cols[None, :]]


def make_mixture_data(N: Any, random_state: int | np.random.Generator | None = None, d: Any = None,
                      diagonal: str = "variance") -> tuple[Any, ...]:
    r"""The two-class Gaussian-mixture data of bental2012 §7.1.1.

    :math:`d \sim \mathrm{Unif}\{2,\dots,100\}` (unless given); four Gaussians
    :math:`N(\mu_k, \Sigma_k)` with :math:`\mu_{kj} \sim U(-5, 5)` and diagonal
    :math:`\Sigma_k` with entries :math:`U(0, 5)` (variances); centre :math:`k` is labelled
    :math:`\mathrm{sign}(w^\top\mu_k)` for a random unit :math:`w`. N points are drawn from the
    positively labelled components and N from the negative ones (component chosen
    uniformly). If all four centres fall on one side, :math:`w` is redrawn (the paper needs
    both classes; a choice of ours).

    ``diagonal`` reads "each diagonal entry of the diagonal matrix :math:`\Sigma` is drawn from Uniform(0, 5)":
    ``"variance"`` (the default; :math:`\Sigma` is the covariance, so its diagonal holds variances) or
    ``"std"`` (the entries are standard deviations, variances up to 25). The same draws either way.

    Returns
    -------
    X : (2N, d), y : (2N,) with the N positive points first.

    Examples
    --------
    >>> X, y = make_mixture_data(5, random_state=0)
    >>> X.shape[0], int(y.sum())
    (10, 0)
    """
    if int(N) != N or N < 1:
        raise ValueError(f"N must be a positive integer, got {N!r}")
    if diagonal not in ("variance", "std"):
        raise ValueError(f"diagonal must be 'variance' or 'std', got {diagonal!r}")
    N = int(N)
    rng = np.random.default_rng(random_state)
    if d is None:
        d = int(rng.integers(2, 101))
    mu = rng.uniform(-5, 5, size=(4, d))
    var = rng.uniform(0, 5, size=(4, d))
    for _ in range(1000):
        w = rng.standard_normal(d)
        w /= np.linalg.norm(w)
        lab = np.sign(mu @ w)
        if np.any(lab > 0) and np.any(lab < 0):
            break
    else:  # pragma: no cover - four centres always split for some direction
        raise RuntimeError("could not split the four centres into two classes")
    X = np.empty((2 * N, d))
    for half, sign in enumerate((1.0, -1.0)):
        comps = np.flatnonzero(lab == sign)
        k = rng.choice(comps, size=N)
        sd = np.sqrt(var[k]) if diagonal == "variance" else var[k]
        X[half * N:(half + 1) * N] = mu[k] + sd * rng.standard_normal((N, d))
    y = np.concatenate([np.ones(N), -np.ones(N)])
    return X, y


def _entries(dist, rng, shape):
    if dist == "gaussian":
        return rng.standard_normal(shape)
    if dist == "uniform":
        return rng.uniform(-1.0, 1.0, shape)
    if dist == "beta":
        return rng.beta(0.5, 0.5, shape) - 0.5
    raise ValueError(f"distribution must be one of {DISTRIBUTIONS}, got {dist!r}")


def make_uncertain_kernels(K_bar: np.ndarray, L: int, distribution: str = "gaussian",
                           random_state: int | np.random.Generator | None = None, rank: Any = None,
                           dtype: Any = float) -> np.ndarray:
    r"""The L base kernels :math:`K_l = \bar K + Z^l Z^{l\top}` of bental2012 §7.1.1.

    :math:`Z^l_{ij} = l^l_{ij}\,\xi^l_{ij}` with :math:`\xi` Gaussian(0,1), Uniform[-1,1] or
    centred Beta(0.5,0.5) entries and :math:`l^l_{ij} \sim U(0, 0.05|\bar K_{ij}|)`, drawn
    afresh for every entry and every l (the paper does not say whether the scales are shared
    across l: our choice). :math:`Z^l` is n x n (``rank=None``) or its first ``rank``
    columns (n x rank, a cheaper variant for large n: our choice, used only where stated).
    Every :math:`K_l` is PSD when :math:`\bar K` is.

    Returns
    -------
    K_stack : ndarray (L, n, n) of ``dtype``
    """
    K_bar = check_finite_array(K_bar, "K_bar", ndim=2)
    n = K_bar.shape[0]
    r = n if rank is None else int(rank)
    if not 1 <= r <= n:
        raise ValueError(f"rank must be in [1, n={n}], got {rank!r}")
    if int(L) != L or L < 1:
        raise ValueError(f"L must be a positive integer, got {L!r}")
    rng = np.random.default_rng(random_state)
    out = np.empty((int(L), n, n), dtype=dtype)
    absK = np.abs(K_bar[:, :r])
    for l in range(int(L)):  # generation only (not a solver hot path)
        Z = rng.uniform(0.0, 0.05, (n, r)) * absK * _entries(distribution, rng, (n, r))
        out[l] = K_bar + Z @ Z.T
    return out


def make_uncertain_dataset(distribution: Any, N: Any, L: int,
                           random_state: int | np.random.Generator | None = None, d: Any = None,
                           rank: Any = None, dtype: Any = float) -> Any:
    """One data set of D_G / D_U / D_B(1, N, L) (bental2012 §7.1.1): mixture data, linear K̄ and L kernels."""
    rng = np.random.default_rng(random_state)
    s1, s2 = rng.integers(0, 2**32, size=2)
    X, y = make_mixture_data(N, random_state=int(s1), d=d)
    K_bar = linear_kernel(X)
    K_stack = make_uncertain_kernels(K_bar, L, distribution, random_state=int(s2), rank=rank, dtype=dtype)
    return UncertainKernelData(X=X, y=y, K_bar=K_bar, K_stack=K_stack,
                               info=dict(distribution=distribution, N=int(N), L=int(L), d=X.shape[1],
                                         rank=rank))


def _family(distribution, S, N, L, random_state, **kw):
    if int(S) != S or S < 1:
        raise ValueError(f"S must be a positive integer, got {S!r}")
    seeds = np.random.default_rng(random_state).integers(0, 2**32, size=int(S))
    return [make_uncertain_dataset(distribution, N, L, random_state=int(s), **kw) for s in seeds]


def D_G(S: np.ndarray, N: Any, L: int, random_state: int | np.random.Generator | None = None, **kw: Any
) -> Any:
    """:math:`D_G(S, N, L)`: S data sets with N points per class and L Gaussian-perturbed kernels (bental2012 §7.1.1).

    Examples
    --------
    >>> sets = D_G(2, 4, 3, random_state=0)
    >>> len(sets), sets[0].K_stack.shape
    (2, (3, 8, 8))
    """
    return _family("gaussian", S, N, L, random_state, **kw)


def D_U(S: np.ndarray, N: Any, L: int, random_state: int | np.random.Generator | None = None, **kw: Any
) -> Any:
    """:math:`D_U(S, N, L)`: as :func:`D_G` with Uniform[-1, 1] entries."""
    return _family("uniform", S, N, L, random_state, **kw)


def D_B(S: np.ndarray, N: Any, L: int, random_state: int | np.random.Generator | None = None, **kw: Any
) -> Any:
    """:math:`D_B(S, N, L)`: as :func:`D_G` with centred Beta(0.5, 0.5) entries."""
    return _family("beta", S, N, L, random_state, **kw)


def rsvm_support_from_kernels(K_stack: Any) -> tuple[Any, ...]:
    r"""RSVM's support information from a kernel set (bental2012 §7.1.2).

    .. math::

        \bar K = \frac1L\sum_l K_l,\qquad a_{ij} = \min_l (K_l)_{ij},\qquad b_{ij} = \max_l (K_l)_{ij}.

    Returns
    -------
    K_bar, a, b : ndarrays (n, n)

    Examples
    --------
    >>> import numpy as np
    >>> K_bar, a, b = rsvm_support_from_kernels(np.stack([np.eye(2), 3 * np.eye(2)]))
    >>> float(K_bar[0, 0]), float(a[0, 0]), float(b[0, 0])
    (2.0, 1.0, 3.0)
    """
    K_stack = check_finite_array(K_stack, "K_stack", ndim=3)
    if K_stack.shape[0] < 1:
        raise ValueError("K_stack must hold at least one kernel")
    return K_stack.mean(axis=0), K_stack.min(axis=0), K_stack.max(axis=0)
