r"""Precomputed kernels on uncertain data, in a form scikit-learn's model selection can split.

A robust kernel estimator is trained on more than one (n, n) matrix: bental2012's stack
:math:`\bar K, K_1, \dots, K_L`, or bhadra2010's mean kernel with a per-entry standard deviation
:math:`\sigma_{ij}` (or support :math:`[a_{ij}, b_{ij}]`). :class:`KernelStack` holds them together, indexed
by pairs of points: its ``shape`` is (rows, columns) and ``stack[rows, cols]`` takes those rows and columns of
every matrix at once. With the estimator's ``pairwise`` tag, scikit-learn's cross-validation and grid search
(``sklearn.utils.metaestimators._safe_split``) then cut out the training block ``K[train][:, train]`` of every
matrix to fit and the block ``K[test][:, train]`` to score, exactly as they do for a single precomputed kernel.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .validation import check_finite_array

__all__ = ["KernelStack"]


class KernelStack:
    r"""Kernel matrices and per-pair arrays on the same (rows, columns) pairs of points.

    Parameters
    ----------
    kernels : array of shape (L+1, m, n) or (m, n), or a sequence of (m, n) arrays
        ``kernels[0]`` is the nominal (mean) kernel :math:`\bar K`, ``kernels[1:]`` the perturbation kernels
        :math:`K_1, \dots, K_L` of bental2012 eq. (12) (none for a single kernel).
    **entries : arrays of shape (m, n) or scalars
        Per-pair descriptions of the uncertainty, split together with the kernels: ``sigma`` (bhadra2010
        Theorem 1) or ``a`` and ``b`` (Theorem 3) for :class:`~robustpapers.bhadra2010.RSVMClassifier`.
        A scalar stands for a constant matrix.

    Attributes
    ----------
    kernels : ndarray (L+1, m, n)
    entries : dict of ndarray (m, n)

    Examples
    --------
    Cross-validating a robust estimator on its uncertain inputs:

    >>> import numpy as np
    >>> from sklearn.model_selection import cross_val_score
    >>> from robustpapers.core import KernelStack
    >>> from robustpapers.bental2012 import USSVMClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(30, 2)); y = (X[:, 0] > 0).astype(int)
    >>> K0 = X @ X.T; K1 = 0.1 * np.ones((30, 30))
    >>> stack = KernelStack([K0, K1])
    >>> stack.shape, stack[np.arange(5), np.arange(3)].kernels.shape
    ((30, 30), (2, 5, 3))
    >>> scores = cross_val_score(USSVMClassifier(kappa=0.5, solver="socp"), stack, y, cv=3)
    >>> bool(scores.mean() > 0.8)
    True
    """

    def __init__(self, kernels: np.ndarray, **entries: Any) -> None:
        if isinstance(kernels, (list, tuple)):
            kernels = np.stack([check_finite_array(k, "kernels[{}]".format(i), ndim=2) for i, k in enumerate(kernels)])
        K = check_finite_array(kernels, "kernels")
        if K.ndim == 2:
            K = K[None]
        if K.ndim != 3 or K.shape[0] == 0:
            raise ValueError(f"kernels must have shape (L+1, m, n) or (m, n), got shape {np.shape(kernels)}")
        self.kernels = K
        self.entries = {}
        for name, value in entries.items():
            v = check_finite_array(value, name)
            try:
                v = np.broadcast_to(v, K.shape[1:])
            except ValueError:
                raise ValueError(f"{name} must be a scalar or of shape {K.shape[1:]} (one entry per kernel entry), "
                                 f"got shape {v.shape}") from None
            self.entries[name] = v

    @property
    def shape(self) -> tuple[int, ...]:
        """(rows, columns): the number of samples is ``shape[0]``, as for a precomputed kernel."""
        return self.kernels.shape[1:]

    @property
    def ndim(self) -> int:
        return 2

    @property
    def n_kernels(self) -> int:
        """L, the number of perturbation kernels."""
        return self.kernels.shape[0] - 1

    @property
    def nominal(self) -> np.ndarray:
        r"""The nominal (mean) kernel :math:`\bar K` = ``kernels[0]``."""
        return self.kernels[0]

    def __len__(self):
        return self.kernels.shape[1]

    def __getitem__(self, key):
        """``stack[rows, cols]`` (index arrays, slices or ``np.ix_(rows, cols)``) or ``stack[rows]`` (all columns)."""
        if not isinstance(key, tuple):
            key = (key, slice(None))
        if len(key) != 2:
            raise IndexError(f"a KernelStack is indexed by (rows, columns), got {len(key)} indices")
        rows, cols = key
        if not isinstance(rows, slice) and not isinstance(cols, slice) and np.ndim(rows) == 1 and np.ndim(cols) == 1:
            rows, cols = np.ix_(np.asarray(rows), np.asarray(cols))  # an outer product of rows and columns
        out = object.__new__(KernelStack)
        out.kernels = self.kernels[:, rows, cols]
        out.entries = {name: v[rows, cols] for name, v in self.entries.items()}
        if out.kernels.ndim != 3:
            raise IndexError("a KernelStack index must keep both axes (use index arrays or slices, not integers)")
        return out

    def __repr__(self):
        extra = "".join(f", {name}=<{v.shape[0]}x{v.shape[1]}>" for name, v in self.entries.items())
        return f"KernelStack(L={self.n_kernels}, shape={self.shape}{extra})"
