"""Indefinite kernels of chen2008 Sec. 6.1 and the spectrum baselines (Denoise, Flip, Shift)."""
from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.utils import check_random_state

from ..core import check_kernel, check_nonnegative, psd_clip, psd_flip, psd_shift, rbf_kernel

__all__ = ["perturbed_gaussian_kernel", "spectrum_stats", "transform_kernel", "SPECTRUM_METHODS"]

#: The spectrum transformations compared in chen2008 Table 1 ("svm" leaves K0 as it is).
SPECTRUM_METHODS = ("denoise", "flip", "shift", "svm")


def perturbed_gaussian_kernel(X: np.ndarray, gamma: float, xi: float,
                              random_state: int | np.random.Generator | None = None) -> Any:
    r"""Indefinite kernel of chen2008 Sec. 6.1: a Gaussian kernel plus a symmetric perturbation.

    .. math::

        K_0 = \bigl[\exp(-\gamma\|x_i - x_j\|^2)\bigr]_{ij} + \xi \hat E, \qquad
        \hat E = (E + E^\top)/2,\; E_{ij} \sim N(0, 1) \text{ i.i.d.}

    Parameters
    ----------
    X : array (n, d)
    gamma : float > 0
        Width of the Gaussian kernel.
    xi : float >= 0
        Size of the perturbation.
    random_state : int, Generator or None
        Seed of ``E``.

    Examples
    --------
    >>> import numpy as np
    >>> K = perturbed_gaussian_kernel(np.eye(4), gamma=1.0, xi=0.1, random_state=0)
    >>> bool(np.allclose(K, K.T))
    True
    """
    xi = check_nonnegative(xi, "xi")
    K = rbf_kernel(X, gamma=gamma)
    rng = np.random.default_rng(random_state) if not isinstance(random_state, np.random.RandomState) \
        else np.random.default_rng(check_random_state(random_state).randint(2 ** 31))
    E = rng.standard_normal(K.shape)
    return K + xi * (E + E.T) / 2


def spectrum_stats(K: np.ndarray) -> Any:
    """Eigenvalue statistics reported in chen2008 Table 1.

    Returns a dict: ``n_neg``, ``n_pos`` (numbers of negative / positive eigenvalues),
    ``lambda_min``, ``lambda_max`` and ``ratio`` = :math:`|\\lambda_{max}/\\lambda_{min}|`.

    Examples
    --------
    >>> spectrum_stats([[1.0, 2.0], [2.0, 1.0]])["ratio"]
    3.0
    """
    K = check_kernel(K, symmetric=True)
    w = np.linalg.eigvalsh((K + K.T) / 2)
    return dict(n_neg=int(np.sum(w < 0)), n_pos=int(np.sum(w > 0)), lambda_min=float(w[0]),
                lambda_max=float(w[-1]), ratio=float(abs(w[-1] / w[0])) if w[0] != 0 else float("inf"))


def transform_kernel(K: np.ndarray, method: str) -> Any:
    r"""The training kernel of a spectrum baseline (chen2008 Sec. 1 and Table 1).

    With :math:`K = V\,\mathrm{diag}(\lambda)\,V^\top`:

    .. math::

        \text{denoise: } V\max(\lambda, 0)V^\top,\quad
        \text{flip: } V|\lambda|V^\top,\quad
        \text{shift: } K + |\lambda_{\min}|\,I,\quad
        \text{svm: } K .

    Parameters
    ----------
    K : array (n, n), symmetric.
    method : {"denoise", "flip", "shift", "svm"}

    Examples
    --------
    >>> import numpy as np
    >>> K = np.array([[1.0, 2.0], [2.0, 1.0]])
    >>> np.round(np.linalg.eigvalsh(transform_kernel(K, "flip")), 6).tolist()
    [1.0, 3.0]
    """
    if method not in SPECTRUM_METHODS:
        raise ValueError(f"method must be one of {SPECTRUM_METHODS}, got {method!r}")
    K = check_kernel(K, symmetric=True)
    if method == "denoise":
        return psd_clip(K)
    if method == "flip":
        return psd_flip(K)
    if method == "shift":
        return psd_shift(K)
    return (K + K.T) / 2
