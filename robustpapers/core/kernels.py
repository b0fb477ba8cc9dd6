"""Kernels and positive-semidefinite helpers."""
from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.metrics import pairwise

from .validation import check_finite_array, check_kernel

__all__ = [
    "linear_kernel", "rbf_kernel", "polynomial_kernel", "make_kernel",
    "PSD_TOL", "psd_tolerance", "min_eigenvalue", "is_psd", "check_psd",
    "psd_clip", "psd_flip", "psd_shift",
]

#: Relative tolerance of the PSD check: lambda_min >= -PSD_TOL * max(1, |lambda_max|) (float64 input;
#: see :func:`psd_tolerance` for lower precisions).
PSD_TOL = 1e-8

#: A matrix stored in a floating dtype of epsilon eps (np.finfo(dtype).eps) is checked with a relative tolerance of at
#: least PSD_EPS_FACTOR * eps (float32: 1.2e-5): a Gram matrix rounded to float32 has negative
#: eigenvalues of relative size ~eps (a linear kernel on Sonar: -1.9e-8, already below -PSD_TOL).
PSD_EPS_FACTOR = 100.0


def psd_tolerance(dtype: Any = np.float64, tol: float = PSD_TOL) -> Any:
    r"""Relative tolerance of the PSD check for a matrix stored in ``dtype``: :math:`\max(\mathrm{tol}, 100\,\epsilon)`.

    :math:`\epsilon` is ``np.finfo(dtype).eps`` of a floating ``dtype`` (float64: the tolerance stays
    ``tol``; float32: 1.2e-5); integer and other dtypes are exact, the tolerance is ``tol``.

    >>> import numpy as np
    >>> psd_tolerance(np.float64), psd_tolerance(np.float32) > 1e-5
    (1e-08, True)
    """
    dtype = np.dtype(dtype)
    if np.issubdtype(dtype, np.floating):
        return max(float(tol), PSD_EPS_FACTOR * float(np.finfo(dtype).eps))
    return float(tol)


def _dtype_of(K):
    return K.dtype if isinstance(K, np.ndarray) else np.asarray(K).dtype


def _float32_valued(K: np.ndarray) -> bool:
    """True when every entry of a float64 ``K`` is a float32 number: data rounded to float32 and converted back.

    Such a matrix carries float32 rounding although its dtype says float64 (a float32 kernel that a caller or a
    validation step converted), so the PSD test gives it :func:`psd_tolerance` of float32. Only evaluated when
    the float64 test has failed (one pass over ``K``).
    """
    return K.dtype == np.float64 and K.size > 0 and bool(np.array_equal(K.astype(np.float32), K))


def linear_kernel(X: np.ndarray, Y: np.ndarray | None = None) -> Any:
    """Linear kernel :math:`K_{ij} = x_i^\\top y_j`."""
    return pairwise.linear_kernel(check_finite_array(X, "X", 2), None if Y is None else check_finite_array(Y, "Y", 2))


def rbf_kernel(X: np.ndarray, Y: np.ndarray | None = None, gamma: Any = None) -> Any:
    """Gaussian kernel :math:`K_{ij} = \\exp(-\\gamma \\|x_i - y_j\\|^2)` (default gamma = 1/d)."""
    return pairwise.rbf_kernel(check_finite_array(X, "X", 2), None if Y is None else check_finite_array(Y, "Y", 2), gamma=gamma)


def polynomial_kernel(X: np.ndarray, Y: np.ndarray | None = None, degree: int = 3, gamma: Any = None,
                      coef0: float = 1.0) -> Any:
    """Polynomial kernel :math:`K_{ij} = (\\gamma x_i^\\top y_j + c_0)^{d}`."""
    return pairwise.polynomial_kernel(check_finite_array(X, "X", 2), None if Y is None else check_finite_array(Y, "Y", 2),
                                      degree=degree, gamma=gamma, coef0=coef0)


_KERNELS = {"linear": linear_kernel, "rbf": rbf_kernel, "poly": polynomial_kernel, "polynomial": polynomial_kernel}


def make_kernel(name: Any, **params: Any) -> Any:
    """Return the kernel function called ``name`` ('linear', 'rbf', 'poly') with ``params`` bound."""
    if name not in _KERNELS:
        raise ValueError(f"unknown kernel {name!r}; choose one of {sorted(_KERNELS)}")
    fn = _KERNELS[name]
    return lambda X, Y=None: fn(X, Y, **params)


def _eigh_sym(K, name):
    K = check_kernel(K, name=name, symmetric=True)
    return np.linalg.eigh((K + K.T) / 2)


def min_eigenvalue(K: np.ndarray) -> Any:
    """Smallest eigenvalue of the symmetric part of ``K``."""
    K = check_kernel(K, symmetric=True)
    return float(np.linalg.eigvalsh((K + K.T) / 2)[0])


def is_psd(K: np.ndarray, tol: float = PSD_TOL) -> Any:
    """True if ``K`` is symmetric with :math:`\\lambda_{\\min} \\ge -\\mathrm{tol}\\,\\max(1, |\\lambda_{\\max}|)`.

    ``tol`` is widened to :func:`psd_tolerance` of ``K``'s dtype (float32: 1.2e-5), or of float32 when a float64
    ``K`` holds float32 numbers only (a converted float32 kernel), as in :func:`check_psd`.
    """
    tol0 = tol
    tol = psd_tolerance(_dtype_of(K), tol)
    K = check_kernel(K, symmetric=True, sym_tol=psd_tolerance(_dtype_of(K), 1e-8))
    ev = np.linalg.eigvalsh((K + K.T) / 2)
    if ev[0] < -tol * max(1.0, abs(ev[-1])) and _float32_valued(K):
        tol = psd_tolerance(np.float32, tol0)
    return bool(ev[0] >= -tol * max(1.0, abs(ev[-1])))


def check_psd(K: np.ndarray, name: str = "K", tol: float = PSD_TOL) -> Any:
    """Validate that ``K`` is a finite symmetric PSD matrix; return it as a float64 array.

    The test is :math:`\\lambda_{\\min} \\ge -\\mathrm{tol}\\,\\max(1, |\\lambda_{\\max}|)` with ``tol``
    widened to :func:`psd_tolerance` of ``K``'s dtype (a float32 kernel: 1.2e-5). A float64 ``K`` whose entries
    are all float32 numbers (a float32 kernel converted to float64, as ``validate_data(dtype=float)`` does) carries
    float32 rounding and gets float32's tolerance: its smallest eigenvalue is then about
    :math:`-\\sqrt n\\,\\epsilon_{32}\\max_{ij}|K_{ij}|`, not a sign of an indefinite kernel. The error names
    :func:`psd_clip` (a kernel that is PSD up to rounding) and :func:`psd_flip` / :func:`psd_shift`
    (an indefinite similarity).
    """
    dtype = _dtype_of(K)
    tol0 = tol
    tol = psd_tolerance(dtype, tol)
    K = check_kernel(K, name=name, symmetric=True, sym_tol=psd_tolerance(dtype, 1e-8))
    if K.size and _shifted_cholesky_passes(K, tol):
        return K
    ev = np.linalg.eigvalsh((K + K.T) / 2) if K.size else np.zeros(1)
    if ev[0] < -tol * max(1.0, abs(ev[-1])) and _float32_valued(K):
        tol = psd_tolerance(np.float32, tol0)
    if ev[0] < -tol * max(1.0, abs(ev[-1])):
        raise ValueError(
            f"{name} is not positive semidefinite: smallest eigenvalue {ev[0]:.3g} "
            f"< -{tol:g} * max(1, |largest| = {abs(ev[-1]):.3g}); if it is PSD up to rounding, repair it "
            f"with robustpapers.core.psd_clip (the nearest PSD matrix); an indefinite similarity can be made "
            f"PSD with psd_flip or psd_shift"
        )
    return K


def _shifted_cholesky_passes(K: np.ndarray, tol: float) -> bool:
    r"""A sufficient test for :func:`check_psd`'s criterion, about ten times cheaper than the eigenvalues.

    A Rayleigh quotient :math:`r = v^\top K v` (a few power steps) is at most :math:`\lambda_{\max}`, so a
    Cholesky factor of :math:`K + \mathrm{tol}\max(1, r)\,I` proves
    :math:`\lambda_{\min} > -\mathrm{tol}\max(1, \lambda_{\max})`. When it fails the caller decides on the
    eigenvalues, so the answer is the eigenvalue test's in every case.
    """
    n = K.shape[0]
    v = np.full(n, 1.0 / np.sqrt(n))
    for _ in range(10):
        w = K @ v
        nw = float(np.linalg.norm(w))
        if nw == 0.0:
            break
        v = w / nw
    r = float(v @ (K @ v))
    A = (K + K.T) / 2
    A[np.diag_indices(n)] += tol * max(1.0, r)
    try:
        np.linalg.cholesky(A)
    except np.linalg.LinAlgError:
        return False
    return True


def psd_clip(K: np.ndarray) -> Any:
    """Denoise: set the negative eigenvalues of ``K`` to zero (nearest PSD matrix in Frobenius norm)."""
    w, V = _eigh_sym(K, "K")
    return (V * np.maximum(w, 0.0)) @ V.T


def psd_flip(K: np.ndarray) -> Any:
    """Flip: replace each eigenvalue by its absolute value."""
    w, V = _eigh_sym(K, "K")
    return (V * np.abs(w)) @ V.T


def psd_shift(K: np.ndarray) -> Any:
    """Shift: add :math:`|\\lambda_{\\min}| I` when :math:`\\lambda_{\\min} < 0` (unchanged otherwise)."""
    K = check_kernel(K, name="K", symmetric=True)
    lam = float(np.linalg.eigvalsh((K + K.T) / 2)[0])
    return K + max(0.0, -lam) * np.eye(K.shape[0])
