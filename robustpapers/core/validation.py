"""Input validation shared by every solver and estimator.

Each check raises :class:`ValueError` with a message naming the offending
argument, so that bad input fails before anything is computed or written.
"""
from __future__ import annotations

import numbers
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

__all__ = [
    "check_binary_labels",
    "check_finite_array",
    "check_kernel",
    "check_positive",
    "check_nonnegative",
]


def check_finite_array(X: ArrayLike, name: str = "X", ndim: Any = None, dtype: Any = float) -> np.ndarray:
    """Return ``X`` as a float array, raising if it is non-finite or of the wrong rank."""
    try:
        arr = np.asarray(X, dtype=dtype)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a numeric array: {exc}") from None
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-dimensional, got shape {arr.shape}")
    if arr.size and not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or inf")
    return arr


def check_binary_labels(y: np.ndarray, name: str = "y", require_both: bool = True) -> Any:
    """Return labels as a float array of +-1.

    Labels must be finite and take values in {-1, +1}; with ``require_both``
    (training data) both classes must be present.
    """
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"{name} must be 1-dimensional, got shape {y.shape}")
    try:
        yf = y.astype(float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be numeric labels in {{-1, +1}}") from None
    if not np.all(np.isfinite(yf)):
        raise ValueError(f"{name} contains NaN or inf")
    values = set(np.unique(yf).tolist())
    if not values <= {-1.0, 1.0}:
        raise ValueError(f"{name} must take values in {{-1, +1}}, got {sorted(values)}")
    if require_both and len(values) != 2:
        raise ValueError(f"{name} must contain both classes -1 and +1, got {sorted(values)}")
    return yf


def check_kernel(K: np.ndarray, name: str = "K", n: Any = None, m: Any = None, symmetric: bool = False,
                 sym_tol: float = 1e-8) -> Any:
    """Validate a kernel matrix (finite, 2-D, optional shape and symmetry)."""
    K = check_finite_array(K, name=name, ndim=2)
    if n is not None and K.shape[0] != n:
        raise ValueError(f"{name} has {K.shape[0]} rows, expected {n}")
    cols = m if m is not None else (n if symmetric else None)
    if cols is not None and K.shape[1] != cols:
        raise ValueError(f"{name} has {K.shape[1]} columns, expected {cols}")
    if symmetric:
        if K.shape[0] != K.shape[1]:
            raise ValueError(f"{name} must be square, got shape {K.shape}")
        scale = max(1.0, float(np.max(np.abs(K)))) if K.size else 1.0
        if np.max(np.abs(K - K.T), initial=0.0) > sym_tol * scale:
            raise ValueError(f"{name} must be symmetric (tolerance {sym_tol:g} relative)")
    return K


def check_positive(value: Any, name: Any) -> Any:
    """Return ``value`` as float if it is a finite number > 0."""
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        raise ValueError(f"{name} must be a real number, got {value!r}")
    if not np.isfinite(float(value)) or value <= 0:
        raise ValueError(f"{name} must be > 0, got {value!r}")
    return float(value)


def check_nonnegative(value: Any, name: Any) -> Any:
    """Return ``value`` as float if it is a finite number >= 0."""
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        raise ValueError(f"{name} must be a real number, got {value!r}")
    if not np.isfinite(float(value)) or value < 0:
        raise ValueError(f"{name} must be >= 0, got {value!r}")
    return float(value)
