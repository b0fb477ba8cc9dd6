"""Input checks and covariance factors shared by the shivaswamy2006 solvers."""
from __future__ import annotations

import numbers

import numpy as np
from scipy import sparse

from ..core import check_finite_array, check_psd

__all__ = []


def _check_gamma(gamma, n, name="gamma"):
    """Scalar or (n,) array of non-negative radii, returned as an (n,) float array."""
    if isinstance(gamma, bool):
        raise ValueError(f"{name} must be a real number or an array, got {gamma!r}")
    g = np.asarray(gamma, dtype=float) if not isinstance(gamma, numbers.Real) else np.full(n, float(gamma))
    if g.ndim == 0:
        g = np.full(n, float(g))
    if g.shape != (n,):
        raise ValueError(f"{name} must be a scalar or of shape ({n},), got shape {g.shape}")
    if not np.all(np.isfinite(g)):
        raise ValueError(f"{name} contains NaN or inf")
    if np.any(g < 0):
        raise ValueError(f"{name} must be >= 0 (a negative radius makes (10b) non-convex), got min {g.min():g}")
    return g


def _factor_psd(S, name, tol=1e-10):
    """Low-rank factor L (d, r) with S = L L^T, dropping eigenvalues below tol * max(1, lambda_max)."""
    S = check_psd(S, name=name)
    ev, V = np.linalg.eigh((S + S.T) / 2)
    keep = ev > tol * max(1.0, abs(ev[-1]))
    return V[:, keep] * np.sqrt(ev[keep])


def _check_factors(Sigmas, factors, n, d):
    """Return a list of n factors (d, r_i) (r_i may be 0) from either covariances or factors.

    ``Sigmas``: None, an (n, d, d) array, or a length-n sequence of (d, d) arrays / None.
    ``factors``: None or a length-n sequence of (d, r_i) arrays / None with Sigma_i = L_i L_i^T.
    """
    if Sigmas is not None and factors is not None:
        raise ValueError("give either Sigmas or factors, not both")
    out = []
    if factors is not None:
        if len(factors) != n:
            raise ValueError(f"factors must have one entry per row ({n}), got {len(factors)}")
        for i, L in enumerate(factors):
            if L is None:
                out.append(np.zeros((d, 0)))
                continue
            L = check_finite_array(L, name=f"factors[{i}]")
            if L.ndim == 1:
                L = L[:, None]
            if L.ndim != 2 or L.shape[0] != d:
                raise ValueError(f"factors[{i}] must have shape ({d}, r), got {L.shape}")
            out.append(L)
        return out
    if Sigmas is None:
        return [np.zeros((d, 0)) for _ in range(n)]
    if isinstance(Sigmas, np.ndarray) and Sigmas.dtype != object:
        S = check_finite_array(Sigmas, name="Sigmas")
        if S.shape != (n, d, d):
            raise ValueError(f"Sigmas must have shape ({n}, {d}, {d}), got {S.shape}")
        return [_factor_psd(S[i], f"Sigmas[{i}]") for i in range(n)]
    if len(Sigmas) != n:
        raise ValueError(f"Sigmas must have one entry per row ({n}), got {len(Sigmas)}")
    for i, S in enumerate(Sigmas):
        if S is None:
            out.append(np.zeros((d, 0)))
            continue
        S = check_finite_array(S, name=f"Sigmas[{i}]")
        if S.shape != (d, d):
            raise ValueError(f"Sigmas[{i}] must have shape ({d}, {d}), got {S.shape}")
        out.append(_factor_psd(S, f"Sigmas[{i}]"))
    return out


def _stack_factors(factors, rows):
    """Sparse (m * r, d) matrix stacking L_i^T of the given rows, padded to r = max rank.

    Row ``k * r + j`` holds column j of L_{rows[k]}; reshaping ``A @ w`` to (r, m) in Fortran
    order puts ``L_{rows[k]}^T w`` in column k.
    """
    r = max(factors[i].shape[1] for i in rows)
    d = factors[rows[0]].shape[0]
    data, ii, jj = [], [], []
    for k, i in enumerate(rows):
        Lt = factors[i].T
        nz = np.nonzero(Lt)
        data.append(Lt[nz])
        ii.append(k * r + nz[0])
        jj.append(nz[1])
    A = sparse.csr_matrix((np.concatenate(data), (np.concatenate(ii), np.concatenate(jj))),
                          shape=(len(rows) * r, d))
    return A, r


def _check_Xy(X, y, binary=True):
    X = check_finite_array(X, name="X", ndim=2)
    if binary:
        from ..core import check_binary_labels

        y = check_binary_labels(y)
    else:
        y = check_finite_array(y, name="y", ndim=1)
    if X.shape[0] != y.shape[0]:
        raise ValueError(f"X has {X.shape[0]} rows but y has {y.shape[0]} entries")
    if X.shape[0] == 0:  # the programs would be solved trivially (objective 0) and reported optimal
        raise ValueError("X has no rows")
    return X, y
