"""Kernels and positive-semidefinite helpers."""
from __future__ import annotations

import numpy as np
from sklearn.metrics import pairwise

from .validation import check_finite_array, check_kernel

__all__ = [
    "linear_kernel", "rbf_kernel", "polynomial_kernel", "make_kernel",
    "PSD_TOL", "min_eigenvalue", "is_psd", "check_psd",
    "psd_clip", "psd_flip", "psd_shift",
]

#: Relative tolerance of the PSD check: lambda_min >= -PSD_TOL * max(1, |lambda_max|).
PSD_TOL = 1e-8


def linear_kernel(X, Y=None):
    """Linear kernel :math:`K_{ij} = x_i^\\top y_j`."""
    return pairwise.linear_kernel(check_finite_array(X, "X", 2), None if Y is None else check_finite_array(Y, "Y", 2))


def rbf_kernel(X, Y=None, gamma=None):
    """Gaussian kernel :math:`K_{ij} = \\exp(-\\gamma \\|x_i - y_j\\|^2)` (default gamma = 1/d)."""
    return pairwise.rbf_kernel(check_finite_array(X, "X", 2), None if Y is None else check_finite_array(Y, "Y", 2), gamma=gamma)


def polynomial_kernel(X, Y=None, degree=3, gamma=None, coef0=1.0):
    """Polynomial kernel :math:`K_{ij} = (\\gamma x_i^\\top y_j + c_0)^{d}`."""
    return pairwise.polynomial_kernel(check_finite_array(X, "X", 2), None if Y is None else check_finite_array(Y, "Y", 2),
                                      degree=degree, gamma=gamma, coef0=coef0)


_KERNELS = {"linear": linear_kernel, "rbf": rbf_kernel, "poly": polynomial_kernel, "polynomial": polynomial_kernel}


def make_kernel(name, **params):
    """Return the kernel function called ``name`` ('linear', 'rbf', 'poly') with ``params`` bound."""
    if name not in _KERNELS:
        raise ValueError(f"unknown kernel {name!r}; choose one of {sorted(_KERNELS)}")
    fn = _KERNELS[name]
    return lambda X, Y=None: fn(X, Y, **params)


def _eigh_sym(K, name):
    K = check_kernel(K, name=name, symmetric=True)
    return np.linalg.eigh((K + K.T) / 2)


def min_eigenvalue(K):
    """Smallest eigenvalue of the symmetric part of ``K``."""
    K = check_kernel(K, symmetric=True)
    return float(np.linalg.eigvalsh((K + K.T) / 2)[0])


def is_psd(K, tol=PSD_TOL):
    """True if ``K`` is symmetric with :math:`\\lambda_{\\min} \\ge -\\mathrm{tol}\\,\\max(1, |\\lambda_{\\max}|)`."""
    K = check_kernel(K, symmetric=True)
    ev = np.linalg.eigvalsh((K + K.T) / 2)
    return bool(ev[0] >= -tol * max(1.0, abs(ev[-1])))


def check_psd(K, name="K", tol=PSD_TOL):
    """Validate that ``K`` is a finite symmetric PSD matrix (relative tolerance ``tol``); return it."""
    K = check_kernel(K, name=name, symmetric=True)
    ev = np.linalg.eigvalsh((K + K.T) / 2)
    if ev[0] < -tol * max(1.0, abs(ev[-1])):
        raise ValueError(
            f"{name} is not positive semidefinite: smallest eigenvalue {ev[0]:.3g} "
            f"< -{tol:g} * max(1, |largest| = {abs(ev[-1]):.3g})"
        )
    return K


def psd_clip(K):
    """Denoise: set the negative eigenvalues of ``K`` to zero (nearest PSD matrix in Frobenius norm)."""
    w, V = _eigh_sym(K, "K")
    return (V * np.maximum(w, 0.0)) @ V.T


def psd_flip(K):
    """Flip: replace each eigenvalue by its absolute value."""
    w, V = _eigh_sym(K, "K")
    return (V * np.abs(w)) @ V.T


def psd_shift(K):
    """Shift: add :math:`|\\lambda_{\\min}| I` when :math:`\\lambda_{\\min} < 0` (unchanged otherwise)."""
    K = check_kernel(K, name="K", symmetric=True)
    lam = float(np.linalg.eigvalsh((K + K.T) / 2)[0])
    return K + max(0.0, -lam) * np.eye(K.shape[0])
