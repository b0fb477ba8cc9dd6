r"""Resolution perturbations, kernel sets and the multi-instance set kernel (bental2012 §4.3, §7.7; bhadra2010 §5.2).

bental2012 §7.7: "for each atom :math:`p_{i_a}` of :math:`P_i` generate structure :math:`P^l_i` with
coordinates :math:`p^l_{i_a} = p_{i_a} + u`, :math:`u \sim U(-r_i/2, r_i/2)`" (each coordinate
independently). bental2012 §4.3: the :math:`l`-th draw :math:`O^l = \{z^l_1,\dots,z^l_m\}` of every
structure gives :math:`\mathbf K_l(x_i, x_j) = K(z^l_i, z^l_j)`; bental2012 §7.1.2:

.. math::

    \overline{\mathbf K} = \frac1L\sum_{l=1}^L \mathbf K_l,\qquad
    a_{ij} = \min_l (\mathbf K_l)_{ij},\qquad b_{ij} = \max_l (\mathbf K_l)_{ij}.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ..core import check_finite_array
from .generator import _rng
from .kernel import _check_params, _check_structures, check_structure, substructure_kernel_matrix

__all__ = ["perturb_structure", "perturb_structures", "KernelSet", "build_kernel_set",
           "multi_instance_kernel", "check_resolutions"]


def check_resolutions(r: Any, n: int, name: str = "resolutions") -> Any:
    """Validate resolutions: ``n`` finite values >= 0 (a scalar is broadcast).

    Examples
    --------
    >>> check_resolutions(2.0, 3)
    array([2., 2., 2.])
    """
    r = check_finite_array(r, name=name)
    if r.ndim == 0:
        r = np.full(n, float(r))
    if r.ndim != 1 or r.size != n:
        raise ValueError(f"{name} must be a scalar or have {n} entries, got shape {r.shape}")
    if np.any(r < 0):
        raise ValueError(f"{name} must be >= 0, got min {r.min():g}")
    return r


def perturb_structure(X: np.ndarray, r: float, size: int | None = None,
                      random_state: int | np.random.Generator | None = None) -> np.ndarray:
    r"""Draw structures from the resolution box of ``X`` (bental2012 §7.7).

    .. math::

        p^l_{a} = p_{a} + u_{a}^l,\qquad u^l_{a} \sim U(-r/2, r/2)^3 \text{ i.i.d.}

    Parameters
    ----------
    X : array (n, 3)
        Nominal C-alpha coordinates.
    r : float >= 0
        Resolution (Angstrom); each coordinate moves by at most ``r/2``.
    size : int, optional
        Number of draws; ``None`` returns one array.
    random_state : int, Generator or None

    Returns
    -------
    array (n, 3) or (size, n, 3)

    Examples
    --------
    >>> import numpy as np
    >>> X = np.zeros((4, 3))
    >>> Z = perturb_structure(X, 2.0, size=5, random_state=0)
    >>> Z.shape, bool(np.abs(Z).max() <= 1.0)
    ((5, 4, 3), True)
    """
    X = check_structure(X)
    r = float(check_resolutions(r, 1, "r")[0])
    rng = _rng(random_state)
    shape = X.shape if size is None else (int(size),) + X.shape
    return X + rng.uniform(-r / 2, r / 2, size=shape)


def perturb_structures(coords: np.ndarray, resolutions: Any, L: int,
                       random_state: int | np.random.Generator | None = None) -> list[Any]:
    r"""``L`` independent resolution draws of every structure (bental2012 §4.3, §7.7).

    Returns
    -------
    list of length L of lists of arrays: ``draws[l][i]`` is :math:`P^l_i`.

    Examples
    --------
    >>> import numpy as np
    >>> draws = perturb_structures([np.zeros((3, 3)), np.ones((4, 3))], [1.0, 2.0], L=2, random_state=0)
    >>> len(draws), [d.shape for d in draws[0]]
    (2, [(3, 3), (4, 3)])
    """
    Xs = _check_structures(coords, "coords", None)
    r = check_resolutions(resolutions, len(Xs))
    if isinstance(L, bool) or not isinstance(L, (int, np.integer)) or L < 1:
        raise ValueError(f"L (number of perturbed copies) must be an integer >= 1, got {L!r}")
    rng = _rng(random_state)
    per = [perturb_structure(X, ri, size=L, random_state=rng) for X, ri in zip(Xs, r)]
    return [[per[i][l] for i in range(len(Xs))] for l in range(L)]


@dataclass
class KernelSet:
    r"""Kernel matrices from resolution draws (bental2012 §4.3, §7.1.2, §7.7).

    Attributes
    ----------
    K_nominal : array (n, n)
        Kernel on the unperturbed (nominal) structures.
    K_draws : array (L, n, n)
        :math:`\mathbf K_l`, the kernel on the :math:`l`-th draw of every structure.
    K_bar : array (n, n)
        :math:`\frac1L\sum_l \mathbf K_l`.
    a, b : arrays (n, n)
        Element-wise min and max over the draws (the support of bhadra2010's finite-support model).
    draws : list or None
        The perturbed coordinates ``draws[l][i]`` (if kept).
    """

    K_nominal: np.ndarray
    K_draws: np.ndarray
    K_bar: np.ndarray
    a: np.ndarray
    b: np.ndarray
    draws: list | None = None

    def subset(self, rows: Any, cols: Any = None) -> Any:
        """The kernel set restricted to ``rows`` x ``cols`` (default ``cols = rows``), e.g. a
        one-vs-one problem's training block or its test-vs-train block.

        Examples
        --------
        >>> import numpy as np
        >>> K = np.arange(9.0).reshape(3, 3); ks = KernelSet(K, K[None], K, K, K)
        >>> ks.subset([0, 2]).K_bar
        array([[0., 2.],
               [6., 8.]])
        """
        rows = np.asarray(rows)
        cols = rows if cols is None else np.asarray(cols)
        ix = np.ix_(rows, cols)
        draws = None
        if self.draws is not None and cols is rows:
            draws = [[d[i] for i in rows] for d in self.draws]
        return KernelSet(K_nominal=self.K_nominal[ix], K_draws=self.K_draws[:, rows][:, :, cols],
                         K_bar=self.K_bar[ix], a=self.a[ix], b=self.b[ix], draws=draws)


def build_kernel_set(coords: Sequence[Any], resolutions: np.ndarray, L: int = 50, *, l: int = 4,
                     sigma: float = 4.0, sigma_norm: Any = None, normalize: bool = True,
                     method: str = "fourier", tol: float = 1e-10,
                     random_state: int | np.random.Generator | None = None, n_jobs: int = 1,
                     keep_draws: bool = False) -> KernelSet:
    r"""Build :math:`\mathbf K_1..\mathbf K_L`, :math:`\overline{\mathbf K}`, :math:`a`, :math:`b` and the nominal kernel.

    .. math::

        (\mathbf K_l)_{ij} = K(P^l_i, P^l_j),\quad
        \overline{\mathbf K} = \tfrac1L \textstyle\sum_l \mathbf K_l,\quad
        a_{ij} = \min_l (\mathbf K_l)_{ij},\quad b_{ij} = \max_l (\mathbf K_l)_{ij}

    (bental2012 §4.3 and §7.1.2), :math:`K` the substructure kernel of bental2012 App. C and
    :math:`P^l_i` the :math:`l`-th resolution draw of structure :math:`i` (bental2012 §7.7).

    Parameters
    ----------
    coords : sequence of arrays (n_i, 3)
    resolutions : array (n,) or float
        Resolutions :math:`r_i >= 0` (Angstrom).
    L : int
        Number of draws (bental2012 §7.7: 50).
    l, sigma, sigma_norm, normalize, method, tol : see :func:`substructure_kernel_matrix`.
    random_state : int, Generator or None
    n_jobs : int
        processes over structure pairs (rows of the matrix, in chunks), run by :func:`robustpapers.core.parallel_map`.
    keep_draws : bool
        Keep the perturbed coordinates in the result.

    Returns
    -------
    KernelSet

    Examples
    --------
    >>> import numpy as np
    >>> from robustpapers.structures import make_structure_families, build_kernel_set
    >>> data = make_structure_families(n_families=2, n_members=2, length=8, random_state=0)
    >>> ks = build_kernel_set(data.coords, data.resolution, L=3, l=3, random_state=0)
    >>> ks.K_draws.shape, bool(np.all(ks.a <= ks.K_bar + 1e-12) and np.all(ks.K_bar <= ks.b + 1e-12))
    ((3, 4, 4), True)
    """
    l, sigma, sigma_norm, method, tol, n_jobs = _check_params(l, sigma, sigma_norm, method, tol, n_jobs)
    Xs = _check_structures(coords, "coords", l)
    draws = perturb_structures(Xs, resolutions, L, random_state=random_state)
    kw = dict(l=l, sigma=sigma, sigma_norm=sigma_norm, normalize=normalize, method=method, tol=tol,
              n_jobs=n_jobs)
    K_nom = substructure_kernel_matrix(Xs, **kw)
    K_draws = np.stack([substructure_kernel_matrix(d, **kw) for d in draws])
    return KernelSet(K_nominal=K_nom, K_draws=K_draws, K_bar=K_draws.mean(axis=0), a=K_draws.min(axis=0),
                     b=K_draws.max(axis=0), draws=draws if keep_draws else None)


def multi_instance_kernel(bags: Sequence[Any], *, l: int = 4, sigma: float = 4.0, sigma_norm: Any = None,
                          normalize: bool = True, method: str = "fourier", tol: float = 1e-10,
                          n_jobs: int = 1, return_support: bool = False) -> np.ndarray | tuple[Any, ...]:
    r"""Normalised multi-instance set kernel over perturbed copies (Gärtner et al. 2002; bhadra2010 §5.2).

    .. math::

        K_{multi}(P_i, P_j) = \frac{\sum_{p\in Q_i, p'\in Q_j} K(p, p')}
            {\sqrt{\sum_{p, p'\in Q_i} K(p, p')\;\sum_{p, p'\in Q_j} K(p, p')}}

    with :math:`Q_i = \{P^1_i,\dots,P^L_i\}` the perturbed copies of structure :math:`i`.

    Parameters
    ----------
    bags : sequence of sequences of arrays (n_i, 3)
        ``bags[i]`` is :math:`Q_i` (e.g. ``[draws[l][i] for l in range(L)]``).
    l, sigma, sigma_norm, normalize, method, tol, n_jobs : see :func:`substructure_kernel_matrix`
        (``normalize`` applies to the base kernel :math:`K`).
    return_support : bool
        Also return :math:`a_{ij} = \min_{p\in Q_i,p'\in Q_j} K(p,p')` and the max
        :math:`b_{ij}` over all pairs of copies (bental2012 §7.7 / bhadra2010 §5.2's definition).

    Returns
    -------
    K_multi : array (n, n)
        (with ``a, b`` if ``return_support``)

    Notes
    -----
    The base kernel is evaluated between all :math:`(\sum_i |Q_i|)^2/2` pairs of copies and
    held in memory: :math:`L^2` times the cost of one kernel matrix.

    Examples
    --------
    >>> import numpy as np
    >>> from robustpapers.structures import make_structure_families, perturb_structures
    >>> data = make_structure_families(n_families=2, n_members=1, length=8, random_state=0)
    >>> draws = perturb_structures(data.coords, data.resolution, L=2, random_state=0)
    >>> bags = [[d[i] for d in draws] for i in range(2)]
    >>> K = multi_instance_kernel(bags, l=3)
    >>> bool(np.allclose(np.diag(K), 1.0))
    True
    """
    try:
        bags = [list(b) for b in bags]
    except TypeError:
        raise ValueError("bags must be a sequence of sequences of (n_i, 3) arrays") from None
    if not bags or any(len(b) == 0 for b in bags):
        raise ValueError("bags must be non-empty sequences of structures")
    sizes = [len(b) for b in bags]
    flat = [X for b in bags for X in b]
    K = substructure_kernel_matrix(flat, l=l, sigma=sigma, sigma_norm=sigma_norm, normalize=normalize,
                                   method=method, tol=tol, n_jobs=n_jobs)
    edges = np.concatenate([[0], np.cumsum(sizes)])
    S = np.add.reduceat(np.add.reduceat(K, edges[:-1], axis=0), edges[:-1], axis=1)
    d = np.sqrt(np.diag(S))
    K_multi = S / np.outer(d, d)
    if not return_support:
        return K_multi
    a = np.minimum.reduceat(np.minimum.reduceat(K, edges[:-1], axis=0), edges[:-1], axis=1)
    b = np.maximum.reduceat(np.maximum.reduceat(K, edges[:-1], axis=0), edges[:-1], axis=1)
    return K_multi, a, b
