"""Missing values (shivaswamy2006 section 6): EM moments, conditional moments (42)-(43), the padded
covariances of (44) and the prediction procedure of section 6.1."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core import SolverResult, Trace, check_nonnegative, check_positive, warn_not_converged

__all__ = ["check_missing_array", "em_gaussian", "conditional_moments", "class_moments",
           "impute_by_fit", "delete_entries"]


def check_missing_array(X: np.ndarray, name: str = "X") -> Any:
    """Float 2-D array where NaN marks a missing entry; inf, empty rows and all-missing rows refused."""
    try:
        X = np.asarray(X, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a numeric array: {exc}") from None
    if X.ndim != 2:
        raise ValueError(f"{name} must be 2-dimensional, got shape {X.shape}")
    if X.shape[0] == 0 or X.shape[1] == 0:
        raise ValueError(f"{name} must have at least one row and one column, got shape {X.shape}")
    if np.any(np.isinf(X)):
        raise ValueError(f"{name} contains inf (only NaN may mark a missing value)")
    allmiss = np.all(np.isnan(X), axis=1)
    if np.any(allmiss):
        raise ValueError(f"{name} has {int(allmiss.sum())} row(s) with every feature missing "
                         f"(first: row {int(np.argmax(allmiss))}); drop them")
    return X


def _cond(x, mean, cov):
    """Conditional mean of the missing part and the conditional covariance block, eqs. (42)-(43)."""
    m = np.isnan(x)
    a = ~m
    xbar = x.copy()
    if not m.any():
        return xbar, m, np.zeros((0, 0))
    Saa = cov[np.ix_(a, a)]
    Sma = cov[np.ix_(m, a)]
    if a.any():
        K = np.linalg.solve(Saa, Sma.T).T  # Sigma_ma Sigma_aa^{-1}
        xbar[m] = mean[m] + K @ (x[a] - mean[a])
        Smm = cov[np.ix_(m, m)] - K @ Sma.T
    else:
        xbar[m] = mean[m]
        Smm = cov[np.ix_(m, m)].copy()
    return xbar, m, (Smm + Smm.T) / 2


def conditional_moments(X: np.ndarray, mean: np.ndarray, cov: np.ndarray, *, factors: bool = True
) -> tuple[Any, ...]:
    r"""Impute missing entries by their conditional mean and give the padded conditional covariance,
    shivaswamy2006 eqs. (42), (43) and the :math:`\Sigma_i` of (44).

    .. math::

        \mathbf E[x_m] = \mu_m + \Sigma_{ma}\Sigma_{aa}^{-1}(x_a - \mu_a),\qquad
        \mathrm{Cov}[x_m] = \Sigma_{mm} - \Sigma_{ma}\Sigma_{aa}^{-1}\Sigma_{am},\qquad
        \Sigma_i = \begin{bmatrix} 0 & 0 \\ 0 & \mathrm{Cov}[x_m]\end{bmatrix}.

    Parameters
    ----------
    X : ndarray (n, d)
        Patterns, NaN for missing.
    mean : ndarray (d,)
    cov : ndarray (d, d)
        Gaussian model of the class (e.g. from :func:`em_gaussian`).
    factors : bool
        Return low-rank factors :math:`L_i` of shape :math:`(d, |m_i|)` with :math:`\Sigma_i = L_i L_i^\top` (nonzero
        only on the missing coordinates); otherwise the full (n, d, d) padded matrices.

    Returns
    -------
    Xbar : ndarray (n, d)
    covs : list of (d, r_i) arrays (None for complete rows), or ndarray (n, d, d)

    Examples
    --------
    >>> import numpy as np
    >>> Xb, S = conditional_moments(np.array([[1.0, np.nan]]), np.zeros(2), np.array([[1.0, 0.5], [0.5, 1.0]]),
    ...                             factors=False)
    >>> Xb.tolist(), S[0].tolist()
    ([[1.0, 0.5]], [[0.0, 0.0], [0.0, 0.75]])
    """
    X = check_missing_array(X)
    d = X.shape[1]
    mean = np.asarray(mean, dtype=float)
    cov = np.asarray(cov, dtype=float)
    if mean.shape != (d,) or cov.shape != (d, d):
        raise ValueError(f"mean/cov must have shapes ({d},)/({d}, {d}), got {mean.shape}/{cov.shape}")
    Xbar = np.empty_like(X)
    out: Any = [] if factors else np.zeros((X.shape[0], d, d))
    for i, x in enumerate(X):
        Xbar[i], m, Smm = _cond(x, mean, cov)
        if factors:
            if not m.any():
                out.append(None)
                continue
            ev, V = np.linalg.eigh(Smm)
            keep = ev > 1e-12 * max(1.0, ev[-1])
            L = np.zeros((d, int(keep.sum())))
            L[m] = V[:, keep] * np.sqrt(ev[keep])
            out.append(L)
        elif m.any():
            out[i][np.ix_(m, m)] = Smm
    return Xbar, out


def em_gaussian(X: np.ndarray, *, max_iter: int = 1000, tol: float = 1e-4, reg: float = 1e-6,
                verbose: bool = False) -> SolverResult:
    r"""Mean and covariance of a Gaussian from data with missing entries by EM (Dempster et al. 1977),
    as used in shivaswamy2006 section 6.1.

    E-step: each row's missing part is replaced by its conditional mean (42) and its conditional
    covariance (43) is added to the second moment; M-step:

    .. math::

        \mu \leftarrow \frac1n\sum_i \hat x_i,\qquad
        \Sigma \leftarrow \frac1n\sum_i \big(\hat x_i \hat x_i^\top + C_i\big) - \mu\mu^\top
        + \rho\,\bar\sigma^2 I,

    where :math:`\rho` = ``reg`` (relative to the mean variance :math:`\bar\sigma^2`) keeps
    :math:`\Sigma_{aa}` invertible (constant or collinear features). Stops when the largest change
    of :math:`\mu` and :math:`\Sigma` is below ``tol`` times their scale.

    Parameters
    ----------
    X : ndarray (n, d)
        NaN marks a missing entry; every feature must be observed in at least 2 rows.
    max_iter : int
    tol : float
    reg : float
        Relative ridge (>= 0).
    verbose : bool

    Returns
    -------
    SolverResult
        ``mean``, ``cov``, ``nit``, ``success``; ``trace`` records the change per iteration (as ``gap``).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.multivariate_normal([1.0, -1.0], [[1.0, 0.8], [0.8, 1.0]], size=2000)
    >>> X[rng.uniform(size=2000) < 0.3, 1] = np.nan
    >>> res = em_gaussian(X)
    >>> bool(np.allclose(res.mean, [1.0, -1.0], atol=0.1))
    True
    """
    X = check_missing_array(X)
    max_iter = int(check_positive(max_iter, "max_iter"))
    tol = check_positive(tol, "tol")
    reg = check_nonnegative(reg, "reg")
    n, d = X.shape
    M = np.isnan(X)
    nobs = (~M).sum(axis=0)
    if n < 2 or np.any(nobs < 2):
        bad = int(np.argmin(nobs))
        raise ValueError(f"too few rows for EM: {n} sample(s); feature {bad} observed in {int(nobs[bad])} "
                         "row(s) (each feature needs at least 2 observed values)")
    mean = np.nanmean(X, axis=0)
    var = np.nanvar(X, axis=0)
    complete = ~M.any(axis=1)
    if complete.sum() > d:
        cov = np.cov(X[complete].T, bias=True).reshape(d, d)
    else:
        cov = np.diag(var)
    ridge = reg * max(float(np.mean(var)), 1e-12)
    cov = cov + ridge * np.eye(d)
    trace = Trace()
    # rows grouped by their number k of missing entries; conditioning in precision form,
    # E[x_m | x_a] = mu_m - (Lam_mm)^{-1} Lam_ma (x_a - mu_a), Cov = (Lam_mm)^{-1}  (= (42), (43))
    counts = M.sum(axis=1)
    groups = []
    for k in np.unique(counts[counts > 0]):
        rows = np.flatnonzero(counts == k)
        idx = np.nonzero(M[rows])[1].reshape(len(rows), k)
        groups.append((rows, idx))
    X0 = np.where(M, 0.0, X)
    converged = False
    it = 0
    change = np.inf
    for it in range(1, max_iter + 1):
        Lam = np.linalg.inv(cov)
        Xc = np.where(M, 0.0, X - mean)
        R = Xc @ Lam
        Xhat = X0 + np.where(M, mean, 0.0)
        S = np.zeros((d, d))
        for rows, idx in groups:
            P = Lam[idx[:, :, None], idx[:, None, :]]
            Cmm = np.linalg.inv(P)
            rm = np.take_along_axis(R[rows], idx, axis=1)
            Xhat[rows[:, None], idx] = mean[idx] - np.einsum("gij,gj->gi", Cmm, rm)
            np.add.at(S, (idx[:, :, None], idx[:, None, :]), Cmm)
        new_mean = Xhat.mean(axis=0)
        new_cov = (Xhat.T @ Xhat + S) / n - np.outer(new_mean, new_mean)
        new_cov = (new_cov + new_cov.T) / 2 + ridge * np.eye(d)
        scale = max(1.0, float(np.max(np.abs(cov))))
        change = max(float(np.max(np.abs(new_mean - mean))), float(np.max(np.abs(new_cov - cov)))) / scale
        mean, cov = new_mean, new_cov
        trace.record(gap=change)
        if verbose:
            print(f"EM iteration {it}: change {change:.3e}")
        if change < tol:
            converged = True
            break
    if not converged:
        warn_not_converged("em_gaussian", "max_iter", f"last change {change:.3g} > tol {tol:g}")
    return SolverResult(x=mean, mean=mean, cov=cov, success=converged, nit=it, trace=trace,
                        message="converged" if converged else "max_iter reached")


def class_moments(X: np.ndarray, y: np.ndarray, **em_options: Any) -> dict[Any, Any]:
    """EM mean and covariance of each class (labels -1 and +1) of data with NaN, shivaswamy2006 section 6.1.

    Parameters
    ----------
    X : ndarray (n, d)
    y : ndarray (n,) in {-1, +1}
    **em_options
        Passed to :func:`em_gaussian`.

    Returns
    -------
    dict
        ``{+1.0: (mean, cov), -1.0: (mean, cov)}``.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 1.0], [1.0, np.nan], [2.0, 3.0], [5.0, 5.0], [6.0, np.nan], [7.0, 8.0]])
    >>> sorted(class_moments(X, np.array([1, 1, 1, -1, -1, -1.0])))
    [-1.0, 1.0]
    """
    X = check_missing_array(X)
    y = np.asarray(y, dtype=float)
    out = {}
    for c in (-1.0, 1.0):
        rows = y == c
        try:
            res = em_gaussian(X[rows], **em_options)
        except ValueError as exc:
            raise ValueError(f"class {c:+g}: {exc}") from None
        out[c] = (res.mean, res.cov)
    return out


def impute_by_fit(w: np.ndarray, b: float, X: np.ndarray, moments: dict[str, Any]) -> tuple[Any, ...]:
    r"""The prediction procedure of shivaswamy2006 section 6.1 (steps 1-3): impute each incomplete pattern
    under each class and keep the imputation farther from the hyperplane in its own metric,

    .. math:: d_\pm = (w^\top x_\pm + b)\,(w^\top \Sigma_\pm w)^{-1/2},\qquad
              \text{use } x_+ \text{ if } |d_+| > |d_-| \text{ else } x_-.

    Parameters
    ----------
    w : ndarray (d,)
    b : float
    X : ndarray (n, d) with NaN
    moments : dict
        ``{+1: (mean, cov), -1: (mean, cov)}`` (from :func:`class_moments`).

    Returns
    -------
    Xbar : ndarray (n, d)
        The chosen imputation (complete rows unchanged).
    factors : list
        Factor of the chosen padded covariance (None for complete rows).
    chosen : ndarray (n,)
        Class whose model was used (0 for complete rows).

    Examples
    --------
    >>> import numpy as np
    >>> mom = {1.0: (np.array([1.0, 3.0]), np.eye(2)), -1.0: (-np.ones(2), np.eye(2))}
    >>> Xb, F, c = impute_by_fit(np.array([0.0, 1.0]), 0.0, np.array([[0.5, np.nan]]), mom)
    >>> Xb.tolist(), c.tolist()
    ([[0.5, 3.0]], [1.0])
    """
    X = check_missing_array(X)
    w = np.asarray(w, dtype=float)
    Xp, Fp = conditional_moments(X, *moments[1.0])
    Xm, Fm = conditional_moments(X, *moments[-1.0])
    incomplete = np.isnan(X).any(axis=1)

    def dist(Xc, F):
        s = np.array([np.linalg.norm(L.T @ w) if L is not None else 0.0 for L in F])
        return np.abs(Xc @ w + b) / np.maximum(s, 1e-300)

    pick_pos = dist(Xp, Fp) > dist(Xm, Fm)
    Xbar = np.where(pick_pos[:, None], Xp, Xm)
    factors = [(Fp[i] if pick_pos[i] else Fm[i]) if incomplete[i] else None for i in range(len(X))]
    chosen = np.where(incomplete, np.where(pick_pos, 1.0, -1.0), 0.0)
    return Xbar, factors, chosen


def delete_entries(X: np.ndarray, row_fraction: Any, feature_fraction: Any,
                   random_state: int | np.random.Generator | None = None, *, n_delete: Any = None) -> Any:
    """Mark entries missing (NaN): in a random ``row_fraction`` of the rows, delete a random
    ``feature_fraction`` of the features (or exactly ``n_delete`` features), as in shivaswamy2006 section 8.

    Examples
    --------
    >>> import numpy as np
    >>> Xm = delete_entries(np.zeros((4, 4)), 0.5, 0.5, random_state=0)
    >>> int(np.isnan(Xm).sum())
    4
    """
    rng = np.random.default_rng(random_state)
    X = np.array(X, dtype=float, copy=True)
    n, d = X.shape
    if not 0 <= row_fraction <= 1 or not 0 <= feature_fraction <= 1:
        raise ValueError("row_fraction and feature_fraction must lie in [0, 1]")
    k = int(round(feature_fraction * d)) if n_delete is None else int(n_delete)
    if k >= d:
        raise ValueError(f"deleting {k} of {d} features would leave a row with every feature missing")
    rows = rng.permutation(n)[: int(round(row_fraction * n))]
    for i in rows:
        X[i, rng.permutation(d)[:k]] = np.nan
    return X
