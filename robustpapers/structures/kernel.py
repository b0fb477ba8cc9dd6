r"""The weighted pairwise-distance substructure kernel for C-alpha traces (bental2012 App. C).

Bhattacharya, Bhattacharyya and Chandra (2007), as restated in bental2012 App. C: fix an
integer :math:`l`; the substructure :math:`N_{i_a}` of residue :math:`a` of structure
:math:`P_i` is the set of the :math:`l` residues spatially nearest to residue
:math:`a` (here: residue :math:`a` itself and its :math:`l-1` nearest neighbours),
described by the vector :math:`d_{i_a}\in\mathbb R^{m}`, :math:`m=l(l-1)/2`, of its
pairwise C-alpha distances. With :math:`\Pi(l)` the permutations of the :math:`l`
residues (acting on :math:`d` through the pairs they permute),

.. math::

    K_{pds}(N_{i_a}, N_{j_b}) = \sum_{\pi\in\Pi(l)}
        e^{-\|d_{i_a} - \pi(d_{j_b})\|^2/\sigma^2},\qquad
    K_{norm}(i_a,i_b,j_c,j_d) = e^{-(\|c_{i_a}-c_{i_b}\| - \|c_{j_c}-c_{j_d}\|)^2/\sigma^2},

.. math::

    K(P_i, P_j) = \sum_{a,b=1}^{n_i}\sum_{c,d=1}^{n_j}
        K_{pds}(N_{i_a}, N_{j_c})\, K_{pds}(N_{i_b}, N_{j_d})\, K_{norm}(i_a, i_b, j_c, j_d).

Writing :math:`A_{ac} = K_{pds}(N_{i_a}, N_{j_c})` and :math:`D^i_{ab} = \|c_{i_a}-c_{i_b}\|`,
:math:`K(P_i,P_j) = \sum_{abcd} A_{ac}A_{bd}\, g(D^i_{ab} - D^j_{cd})` with
:math:`g(t) = e^{-t^2/\sigma^2}`. Two evaluations are offered:

* ``method="exact"``: the :math:`n_i^2 n_j^2` Gaussians formed as one NumPy array
  (chunked over :math:`a` to bound memory) and contracted with :math:`A\otimes A`.
* ``method="fourier"`` (default): :math:`g` replaced by the Fourier series of its
  :math:`2P`-periodisation, :math:`g(t)\approx c_0+\sum_{k=1}^M 2c_k\cos(k\pi t/P)`,
  :math:`c_k = \tfrac{\sigma\sqrt\pi}{2P} e^{-(k\pi\sigma/2P)^2} > 0`, with :math:`P`
  and :math:`M` chosen so that :math:`|g-g_M|\le` ``tol`` on every distance difference
  that occurs. Since :math:`\cos\omega(x-y) = \cos\omega x\cos\omega y+\sin\omega x\sin\omega y`,

  .. math::

      K(P_i,P_j) \approx \sum_{k} w_k\,\mathrm{tr}\big(F^i_k A F^j_k A^\top\big),
      \qquad F^i_k\in\{\cos(\omega_k D^i), \sin(\omega_k D^i)\},

  so the exponentials are computed once per structure and each pair costs
  :math:`O(M n^3)` BLAS work instead of :math:`n^4` exponentials. The error is at most
  ``tol`` :math:`\cdot(\sum_{ac}A_{ac})^2` and, the weights being positive, the
  approximation is itself a positive-semidefinite kernel.

Both kernels are positive semidefinite: :math:`K_{pds}` sums a permutation-invariant
Gaussian kernel over a group orbit, :math:`A_{ac}A_{bd}\,g(D_{ab}-D_{cd})` is a product of
PSD kernels on residue pairs, and :math:`K` sums it over all pairs of residue pairs
(an R-convolution kernel).
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ..core import check_finite_array, check_positive
from ..core.parallel import parallel_map

__all__ = [
    "check_structure", "substructures", "substructure_kernel", "substructure_kernel_matrix",
    "pds_matrix",
]

_METHODS = ("fourier", "exact")


def check_structure(X: np.ndarray, name: str = "X", l: Any = None) -> Any:
    """Validate one C-alpha trace: a finite ``(n, 3)`` array with at least ``l`` residues.

    Raises
    ------
    ValueError
        If ``X`` is not numeric, not of shape ``(n, 3)``, contains NaN/inf, or has
        fewer residues than ``l``.

    Examples
    --------
    >>> import numpy as np
    >>> check_structure(np.zeros((2, 3)), l=3)
    Traceback (most recent call last):
    ...
    ValueError: X has 2 residues, fewer than the substructure size l=3
    """
    X = check_finite_array(X, name=name, ndim=2)
    if X.shape[1] != 3:
        raise ValueError(f"{name} must have shape (n_residues, 3), got {X.shape}")
    if l is not None and X.shape[0] < l:
        raise ValueError(f"{name} has {X.shape[0]} residues, fewer than the substructure size l={l}")
    return X


def _check_l(l):
    if isinstance(l, bool) or not isinstance(l, (int, np.integer)) or l < 2:
        raise ValueError(f"l (substructure size) must be an integer >= 2, got {l!r}")
    if l > 7:
        raise ValueError(f"l={l} sums over {math.factorial(l)} permutations; use l <= 7")
    return int(l)


def _distance_matrix(X):
    diff = X[:, None, :] - X[None, :, :]
    return np.sqrt(np.einsum("ijk,ijk->ij", diff, diff))


def _pair_index(l):
    """Pairs (u < v) of the l substructure residues and, per permutation, where each pair goes."""
    pairs = list(itertools.combinations(range(l), 2))
    pos = {p: k for k, p in enumerate(pairs)}
    perms = list(itertools.permutations(range(l)))
    idx = np.empty((len(perms), len(pairs)), dtype=np.intp)
    for q, pi in enumerate(perms):
        for k, (u, v) in enumerate(pairs):
            a, b = pi[u], pi[v]
            idx[q, k] = pos[(a, b) if a < b else (b, a)]
    return np.array(pairs, dtype=np.intp), idx


def substructures(X: np.ndarray, l: int) -> np.ndarray:
    r"""Substructure descriptors :math:`d_{i_a}` of every residue (bental2012 App. C).

    The substructure of residue :math:`a` is residue :math:`a` and its :math:`l-1`
    spatially nearest residues (ties within 1e-6 Angstrom broken by the lower residue
    index); its descriptor is the vector of the
    :math:`m = l(l-1)/2` pairwise distances among them (pairs in lexicographic order of
    the residues sorted by distance to :math:`a`; the order is immaterial to the kernel,
    which sums over all permutations).

    Parameters
    ----------
    X : array (n, 3)
        C-alpha coordinates.
    l : int
        Substructure size (>= 2, <= n).

    Returns
    -------
    d : array (n, m)

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0., 0, 0], [3.8, 0, 0], [7.6, 0, 0]])
    >>> substructures(X, 2)
    array([[3.8],
           [3.8],
           [3.8]])
    """
    l = _check_l(l)
    X = check_structure(X, l=l)
    D = _distance_matrix(X)
    return _substructures_from_D(D, l)


def _substructures_from_D(D, l):
    n = D.shape[0]
    # residue a first, then its l-1 nearest others; distances equal to 1e-6 A count as ties,
    # broken by the lower residue index (so that rigid motions, which move distances by
    # rounding errors only, do not change the substructures of chains with exact 3.8 A steps)
    key = np.round(D, 6)
    np.fill_diagonal(key, -1.0)
    nbr = np.argsort(key, axis=1, kind="stable")[:, :l]  # (n, l)
    pairs, _ = _pair_index(l)
    u, v = nbr[:, pairs[:, 0]], nbr[:, pairs[:, 1]]  # (n, m)
    return D[u, v]


@dataclass
class _Features:
    D: np.ndarray        # (n, n) distances
    sub: np.ndarray      # (n, m) substructure descriptors
    subperm: np.ndarray  # (n_perm * n, m) permuted descriptors, permutation-major
    sq: np.ndarray       # (n,) squared norms of the descriptors


def _features(X, l, perm_idx):
    D = _distance_matrix(X)
    sub = _substructures_from_D(D, l)
    subperm = np.ascontiguousarray(sub[:, perm_idx].transpose(1, 0, 2)).reshape(-1, sub.shape[1])
    return _Features(D=D, sub=sub, subperm=subperm, sq=np.einsum("am,am->a", sub, sub))


def _pds(fi, fj, sigma):
    """A_{ac} = K_pds(N_{i_a}, N_{j_c}) for all a, c: (n_i, n_j).

    ||d_a - pi(d_c)||^2 = |d_a|^2 + |d_c|^2 - 2 d_a . pi(d_c) (permutations keep norms),
    the cross terms for all permutations in one matrix product.
    """
    nj = fj.sub.shape[0]
    S = fi.sub @ fj.subperm.T  # (ni, n_perm * nj)
    S *= -2.0
    S += fi.sq[:, None]
    S = S.reshape(fi.sub.shape[0], -1, nj)
    S += fj.sq[None, None, :]
    np.maximum(S, 0.0, out=S)
    S *= -1.0 / sigma ** 2
    np.exp(S, out=S)
    return S.sum(axis=1)


def pds_matrix(P: np.ndarray, Q: np.ndarray, l: int = 4, sigma: float = 4.0) -> Any:
    r"""Matrix :math:`A_{ac} = K_{pds}(N_{P_a}, N_{Q_c})` of substructure kernels (bental2012 App. C).

    .. math::

        A_{ac} = \sum_{\pi\in\Pi(l)} e^{-\|d_{P_a} - \pi(d_{Q_c})\|^2/\sigma^2}

    Examples
    --------
    >>> import numpy as np
    >>> X = np.cumsum(np.full((5, 3), 2.2), axis=0)
    >>> A = pds_matrix(X, X, l=2, sigma=1.0)
    >>> A.shape, bool(np.allclose(A, A.T))
    ((5, 5), True)
    """
    l = _check_l(l)
    sigma = check_positive(sigma, "sigma")
    P = check_structure(P, "P", l)
    Q = check_structure(Q, "Q", l)
    _, perm_idx = _pair_index(l)
    return _pds(_features(P, l, perm_idx), _features(Q, l, perm_idx), sigma)


# ---------------------------------------------------------------------------------------
# the n^4 contraction, exact and by Fourier features


def _contract_exact(A, Di, Dj, sigma_norm, max_elems=2_000_000):
    ni, nj = Di.shape[0], Dj.shape[0]
    inv = -1.0 / sigma_norm ** 2
    Dj_flat = Dj.reshape(1, 1, nj * nj)
    chunk = max(1, max_elems // (ni * nj * nj))
    total = 0.0
    for a0 in range(0, ni, chunk):  # chunks of residues a (not a loop over residue pairs)
        a1 = min(ni, a0 + chunk)
        G = Di[a0:a1, :, None] - Dj_flat  # (ca, ni(b), nj*nj (c,d))
        np.square(G, out=G)
        G *= inv
        np.exp(G, out=G)
        G = G.reshape(a1 - a0, ni, nj, nj)  # [a, b, c, d]
        H = np.tensordot(G, A, axes=([1, 3], [0, 1]))  # H_ac = sum_{b,d} G_abcd A_bd
        total += float(np.sum(H * A[a0:a1]))
    return total


def _fourier_plan(dmax, sigma_norm, tol):
    """Half-period P and weights/frequencies of the truncated periodised Gaussian series.

    Returns (omega (M+1,), w (M+1,), bound): g(t) ~ sum_k w_k cos(omega_k t) on |t| <= dmax,
    with |error| <= bound.
    """
    s = sigma_norm
    log_t = math.log(4.0 / tol)
    # aliases g(t + 2Pm), |t| <= dmax, m != 0, are <= g(2P - dmax): make that <= tol/4
    P = 0.5 * (dmax + s * math.sqrt(log_t)) + 1e-9
    c0 = s * math.sqrt(math.pi) / (2 * P)
    # tail sum_{k>M} 2 c_k <= 2 c_{M+1} / (1 - e^{-...}) : pick M with 2 c_{M+1} <= tol/4 * (1-q)
    M = int(math.ceil(2 * P * math.sqrt(math.log(8.0 * c0 / tol + 1.0)) / (math.pi * s)))
    k = np.arange(M + 1)
    omega = k * math.pi / P
    c = c0 * np.exp(-(omega * s / 2) ** 2)
    w = np.where(k == 0, c, 2 * c)
    # rigorous bound of |g - g_M| on |t| <= dmax
    m = np.arange(1, 50)
    alias = 2 * float(np.sum(np.exp(-((2 * P * m - dmax) / s) ** 2)))
    kk = np.arange(M + 1, M + 400)
    tail = 2 * c0 * float(np.sum(np.exp(-(kk * math.pi * s / (2 * P)) ** 2)))
    return omega, w, alias + tail


def _fourier_features(D, omega):
    """Stacked [cos(omega_k D) for k=0..M, sin(omega_k D) for k=1..M]: (2M+1, n, n)."""
    arg = omega[:, None, None] * D[None]
    return np.concatenate([np.cos(arg), np.sin(arg[1:])], axis=0)


def _contract_fourier(A, Fi, Fj, w2):
    # tr(F^i_r A F^j_r A^T) = sum_{cd} F^j_r[c,d] (B_r^T A)[c,d],  B_r = F^i_r A
    R, ni, _ = Fi.shape
    nj = Fj.shape[1]
    B = (Fi.reshape(R * ni, ni) @ A).reshape(R, ni, nj)
    T = np.matmul(B.transpose(0, 2, 1), A)  # (R, nj, nj)
    return float(np.einsum("rcd,rcd,r->", Fj, T, w2))


# ---------------------------------------------------------------------------------------


def _check_method(method):
    if method not in _METHODS:
        raise ValueError(f"method must be one of {_METHODS}, got {method!r}")
    return method


def _check_structures(Xs, name, l):
    if isinstance(Xs, np.ndarray) and Xs.ndim == 2:
        raise ValueError(f"{name} must be a sequence of (n_i, 3) arrays, got one 2-D array")
    try:
        items = list(Xs)
    except TypeError:
        raise ValueError(f"{name} must be a sequence of (n_i, 3) coordinate arrays") from None
    if not items:
        raise ValueError(f"{name} is empty")
    return [check_structure(X, f"{name}[{k}]", l) for k, X in enumerate(items)]


class _Engine:
    r"""Per-structure features and the pair kernel for one parameter setting.

    For ``method="fourier"`` the features are stored padded to the longest structure
    (padded residues get zero substructure weight), so that one row ``i`` of the kernel
    matrix against a contiguous range of structures ``j`` is a few large matrix products:
    with :math:`A^{(j)} = K_{pds}` block and :math:`F^i_r`,

    .. math:: K(P_i, P_j) = \sum_r w_r \langle A^{(j)\top} F^i_r A^{(j)}, F^j_r\rangle_F .
    """

    def __init__(self, structures, l, sigma, sigma_norm, method, tol):
        self.l, self.sigma, self.sigma_norm, self.method = l, sigma, sigma_norm, method
        _, perm_idx = _pair_index(l)
        self.n_perm = perm_idx.shape[0]
        self.feats = [_features(X, l, perm_idx) for X in structures]
        self.bound = 0.0
        self.lazy = False
        if method == "fourier":
            dmax = max(float(f.D.max()) for f in self.feats)
            omega, w, self.bound = _fourier_plan(dmax, sigma_norm, tol)
            w2 = np.concatenate([w, w[1:]])
            N, m = len(self.feats), self.feats[0].sub.shape[1]
            self.nmax = nmax = max(f.D.shape[0] for f in self.feats)
            R = w2.size
            self.R, self.omega, self.w2 = R, omega, w2
            # long structures: the stored features would not fit; compute them per pair instead
            self.lazy = 16.0 * N * nmax * nmax * R > self.max_bytes
            if self.lazy:
                return
            # exponent of K_pds in one product: [d_a, |d_a|^2, 1] . [2 pi(d_c), -1, -|d_c|^2] / sigma^2
            #   = -||d_a - pi(d_c)||^2 / sigma^2 (permutations keep norms); padded rows give 0
            s2 = sigma ** 2
            self.LEFT = [np.hstack([f.sub, f.sq[:, None], np.ones((f.sub.shape[0], 1))]) for f in self.feats]
            self.SUBP = np.zeros((N, self.n_perm, nmax, m + 2))
            self.MASK = np.zeros((N, nmax))
            self.FW = np.zeros((N, nmax, R, nmax))  # FW[j, c, r, d] = w_r F^j_r[c, d]
            self.F = []
            for k, f in enumerate(self.feats):
                n = f.D.shape[0]
                self.SUBP[k, :, :n, :m] = 2.0 / s2 * f.subperm.reshape(self.n_perm, n, m)
                self.SUBP[k, :, :n, m] = -1.0 / s2
                self.SUBP[k, :, :n, m + 1] = -f.sq / s2
                self.MASK[k, :n] = 1.0
                F = _fourier_features(f.D, omega)  # (R, n, n)
                self.F.append(np.ascontiguousarray(F.transpose(1, 0, 2)).reshape(n, R * n))  # [b, (r, a)]
                self.FW[k, :n, :, :n] = (F * w2[:, None, None]).transpose(1, 0, 2)

    def pair(self, i, j):
        if self.method == "fourier":
            return float(self.row(i, j, j + 1)[0])
        fi, fj = self.feats[i], self.feats[j]
        return _contract_exact(_pds(fi, fj, self.sigma), fi.D, fj.D, self.sigma_norm)

    #: target number of doubles of the largest temporary of one block (keeps it in cache)
    block_elems = 1 << 17

    #: largest memory (bytes) for the stored, padded Fourier features
    max_bytes = 1 << 30

    def row(self, i, j0, j1):
        """K(P_i, P_j) for j in range(j0, j1), in cache-sized blocks of j."""
        if self.method == "exact":
            return np.array([self.pair(i, j) for j in range(j0, j1)])
        if self.lazy:
            fi = self.feats[i]
            Fi = _fourier_features(fi.D, self.omega)
            out = np.empty(j1 - j0)
            for k, j in enumerate(range(j0, j1)):
                Fj = Fi if j == i else _fourier_features(self.feats[j].D, self.omega)
                out[k] = _contract_fourier(_pds(fi, self.feats[j], self.sigma), Fi, Fj, self.w2)
            return out
        ni = self.feats[i].sub.shape[0]
        step = max(1, self.block_elems // (self.nmax * self.R * ni))
        return np.concatenate([self._row_block(i, a, min(j1, a + step)) for a in range(j0, j1, step)])

    def _row_block(self, i, j0, j1):
        fi = self.feats[i]
        ni, J, nmax, R = fi.sub.shape[0], j1 - j0, self.nmax, self.R
        m = fi.sub.shape[1]
        # A[a, j, c] = sum_pi exp(-||d_a - pi d_c||^2 / sigma^2), padded c masked
        S = self.LEFT[i] @ self.SUBP[j0:j1].reshape(-1, m + 2).T  # (ni, J * p * nmax) exponents
        np.minimum(S, 0.0, out=S)  # rounding
        np.exp(S, out=S)
        A = S.reshape(ni, J, self.n_perm, nmax).sum(axis=2)  # (ni, J, nmax)
        A *= self.MASK[None, j0:j1]
        At = np.ascontiguousarray(A.transpose(1, 0, 2))  # (J, ni, nmax)
        # V[j, c, (r, a)] = sum_b A[b, j, c] F^i_r[b, a]
        V = A.transpose(1, 2, 0).reshape(J * nmax, ni) @ self.F[i]
        # T[j, c, r, d] = sum_a V[j, c, r, a] A[j, a, d] = (A_j^T F^i_r A_j)[c, d]
        T = np.matmul(V.reshape(J, nmax * R, ni), At)
        return np.einsum("jx,jx->j", T.reshape(J, -1), self.FW[j0:j1].reshape(J, -1))


def _rows(engine_and_tasks):
    engine, tasks = engine_and_tasks
    return [engine.row(i, j0, j1) for i, j0, j1 in tasks]


def _run_rows(engine, tasks, n_jobs):
    if n_jobs == 1 or len(tasks) < 2:
        return _rows((engine, tasks))
    # A few chunks per process (rows differ in cost); parallel_map runs them uncached.
    n_chunks = min(len(tasks), 4 * (n_jobs if n_jobs > 0 else 8))
    chunks = [tasks[k::n_chunks] for k in range(n_chunks)]
    outs = parallel_map(_rows, [(engine, c) for c in chunks], n_jobs=n_jobs)
    res = [None] * len(tasks)
    for k, o in enumerate(outs):
        res[k::n_chunks] = o
    return res


def _check_params(l, sigma, sigma_norm, method, tol, n_jobs):
    l = _check_l(l)
    sigma = check_positive(sigma, "sigma")
    sigma_norm = sigma if sigma_norm is None else check_positive(sigma_norm, "sigma_norm")
    method = _check_method(method)
    tol = check_positive(tol, "tol")
    if tol >= 1:
        raise ValueError(f"tol must be < 1, got {tol!r}")
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, (int, np.integer)) or n_jobs == 0:
        raise ValueError(f"n_jobs must be a non-zero integer, got {n_jobs!r}")
    return l, sigma, sigma_norm, method, tol, int(n_jobs)


def substructure_kernel_matrix(X: Sequence[Any], Y: Sequence[Any] | None = None, *, l: int = 4,
                               sigma: float | np.ndarray = 4.0, sigma_norm: float | None = None,
                               normalize: bool = True, method: str = "fourier", tol: float = 1e-10,
                               n_jobs: int = 1) -> np.ndarray:
    r"""Kernel matrix of the weighted pairwise-distance substructure kernel (bental2012 App. C).

    .. math::

        K(P_i, P_j) = \sum_{a,b=1}^{n_i}\sum_{c,d=1}^{n_j}
            K_{pds}(N_{i_a}, N_{j_c})\, K_{pds}(N_{i_b}, N_{j_d})\, K_{norm}(i_a, i_b, j_c, j_d)

    and, with ``normalize=True``, the cosine-normalised
    :math:`K(P_i,P_j)/\sqrt{K(P_i,P_i)K(P_j,P_j)}` (the paper does not state its scaling).

    Parameters
    ----------
    X : sequence of arrays (n_i, 3)
        C-alpha traces (any lengths >= ``l``).
    Y : sequence of arrays (n_j, 3), optional
        Second set; default ``X`` (then the result is symmetric and only its upper
        triangle is computed).
    l : int
        Substructure size (residue plus its ``l-1`` nearest neighbours); bental2012 App. C's *l*.
    sigma : float
        Width of the Gaussian in :math:`K_{pds}` (Angstrom); bental2012 App. C's :math:`\sigma`.
    sigma_norm : float, optional
        Width of :math:`K_{norm}` (default ``sigma``, as in the paper).
    normalize : bool
        Cosine-normalise.
    method : {"fourier", "exact"}
        How the :math:`n_i^2 n_j^2` sum is evaluated (see the module docstring);
        ``"fourier"`` is exact up to ``tol * (sum A)^2`` per entry.
    tol : float
        Uniform error of the Fourier series of :math:`K_{norm}` (``method="fourier"``).
    n_jobs : int
        processes over structure pairs (rows of the matrix, in chunks), run by :func:`robustpapers.core.parallel_map`.

    Returns
    -------
    K : array (len(X), len(Y))

    Examples
    --------
    >>> import numpy as np
    >>> from robustpapers.structures import make_structure_families, substructure_kernel_matrix
    >>> data = make_structure_families(n_families=2, n_members=2, length=8, random_state=0)
    >>> K = substructure_kernel_matrix(data.coords, l=3)
    >>> K.shape, bool(np.allclose(np.diag(K), 1.0)), bool(np.allclose(K, K.T))
    ((4, 4), True, True)
    """
    l, sigma, sigma_norm, method, tol, n_jobs = _check_params(l, sigma, sigma_norm, method, tol, n_jobs)
    Xs = _check_structures(X, "X", l)
    sym = Y is None
    Ys = Xs if sym else _check_structures(Y, "Y", l)
    allS = Xs if sym else Xs + Ys
    eng = _Engine(allS, l, sigma, sigma_norm, method, tol)
    nx, ny = len(Xs), len(Ys)
    if sym:
        tasks = [(i, i, nx) for i in range(nx)]
    else:
        tasks = [(i, nx, nx + ny) for i in range(nx)]
        if normalize:
            tasks += [(k, k, k + 1) for k in range(nx + ny)]
    rows = _run_rows(eng, tasks, n_jobs)
    K = np.empty((nx, ny))
    if sym:
        for i in range(nx):
            K[i, i:] = rows[i]
            K[i:, i] = rows[i]
        diag_x = diag_y = np.diag(K).copy()
    else:
        K[:] = np.stack(rows[:nx])
        if normalize:
            selfs = np.array([r[0] for r in rows[nx:]])
            diag_x, diag_y = selfs[:nx], selfs[nx:]
    if normalize:
        K = K / np.sqrt(np.outer(diag_x, diag_y))
        if sym:
            np.fill_diagonal(K, 1.0)
    return K


def substructure_kernel(P: np.ndarray, Q: np.ndarray, *, l: int = 4, sigma: float = 4.0, sigma_norm: Any = None,
                        normalize: bool = False, method: str = "fourier", tol: float = 1e-10) -> Any:
    r"""The substructure kernel :math:`K(P, Q)` between two C-alpha traces (bental2012 App. C).

    .. math::

        K(P, Q) = \sum_{a,b}\sum_{c,d} K_{pds}(N_{P_a}, N_{Q_c})\,K_{pds}(N_{P_b}, N_{Q_d})
                  \,e^{-(\|p_a-p_b\| - \|q_c-q_d\|)^2/\sigma^2}

    Unnormalised by default (the formula of bental2012 App. C); ``normalize=True`` divides by
    :math:`\sqrt{K(P,P)K(Q,Q)}`. See :func:`substructure_kernel_matrix` for the parameters.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> P = np.cumsum(rng.normal(size=(6, 3)), axis=0); Q = P[::-1] + 1.0
    >>> a = substructure_kernel(P, Q, l=3, method="exact")
    >>> b = substructure_kernel(P, Q, l=3, method="fourier")
    >>> bool(abs(a - b) <= 1e-9 * a)
    True
    """
    l, sigma, sigma_norm, method, tol, _ = _check_params(l, sigma, sigma_norm, method, tol, 1)
    P = check_structure(P, "P", l)
    Q = check_structure(Q, "Q", l)
    eng = _Engine([P, Q], l, sigma, sigma_norm, method, tol)
    k = eng.pair(0, 1)
    if normalize:
        k /= math.sqrt(eng.pair(0, 0) * eng.pair(1, 1))
    return float(k)
