r"""A seeded generator of C-alpha structure families: the offline analog of bental2012 §7.1.2's SCOP data.

A C-alpha trace is built residue by residue from virtual bond length
:math:`b = 3.8` Angstrom, virtual bond angles :math:`\theta_i` and virtual torsions
:math:`\tau_i` (the natural-extension-reference-frame construction). Secondary
structure is imitated by segment types with their typical C-alpha geometry: helix
(:math:`\theta\approx 91^\circ`, :math:`\tau\approx 50^\circ`), strand
(:math:`\theta\approx 120^\circ`, :math:`\tau\approx -170^\circ`) and loop (random).

Hierarchy (SCOP-like): ``n_groups`` fold groups each have a segment plan; a family's
template is its group's plan with some segments redrawn (``family_divergence``), so
families of one group are similar (hard one-vs-one problems) and families of
different groups are not (easy ones). A member is its family's template with angle
noise (a family-specific deformation scale), insertions/deletions, small coordinate
noise and a random rigid motion; it carries a resolution :math:`r` drawn uniformly
from ``resolution_range``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from sklearn.utils import check_random_state

from ..core import check_nonnegative
from ..core.seeding import check_random_state as _generator

__all__ = ["StructureDataset", "make_structure_families", "trace_from_angles", "random_rotation",
           "BOND_LENGTH", "SEGMENT_GEOMETRY"]


def _rng(random_state):
    """A ``Generator``: a Generator as is; otherwise one seeded by a draw of sklearn's ``RandomState``.

    The legacy route (an int seeds a ``RandomState`` first) keeps the draws of every seed as they were.
    """
    if isinstance(random_state, np.random.Generator):
        return random_state
    return _generator(check_random_state(random_state))


#: Consecutive C-alpha distance (Angstrom).
BOND_LENGTH = 3.8

#: (mean theta, sd theta, mean tau, sd tau) in degrees per segment type; loops are uniform.
SEGMENT_GEOMETRY = {
    "H": (91.0, 3.0, 50.0, 6.0),
    "E": (120.0, 5.0, -170.0, 10.0),
}

_SEG_LEN = {"H": (5, 10), "E": (3, 6), "L": (2, 4)}


@dataclass
class StructureDataset:
    """Structures of a labelled data set: the analog of bental2012 §7.1.2's :math:`D=\\{(P_i, y_i, r_i)\\}`.

    Attributes
    ----------
    coords : list of arrays (n_i, 3)
        Nominal C-alpha coordinates (Angstrom).
    resolution : array (n,)
        Resolution :math:`r_i` (Angstrom).
    y : array (n,) of int
        Family index 0..K-1.
    family_names : list of str
        Name of each family (``"g<group>.f<family>"``).
    group : array (K,) of int
        Fold group of each family.
    deformation : array (K,)
        Angle-noise scale (degrees) of each family.
    templates : list of arrays
        Each family's template trace.
    """

    coords: list
    resolution: np.ndarray
    y: np.ndarray
    family_names: list
    group: np.ndarray
    deformation: np.ndarray
    templates: list = field(default_factory=list)

    def __len__(self):
        return len(self.coords)

    def pair(self, f1: Any, f2: Any) -> Any:
        """Indices and +-1 labels of the one-vs-one problem family ``f1`` (+1) vs ``f2`` (-1) (bental2012 §7.7).

        Examples
        --------
        >>> data = make_structure_families(n_families=3, n_members=2, length=8, random_state=0)
        >>> data.pair(0, 2)
        (array([0, 1, 4, 5]), array([ 1,  1, -1, -1]))
        """
        self._check_family(f1)
        self._check_family(f2)
        if f1 == f2:
            raise ValueError(f"a one-vs-one problem needs two different families, got {f1} twice")
        idx = np.flatnonzero((self.y == f1) | (self.y == f2))
        return idx, np.where(self.y[idx] == f1, 1, -1)

    def one_vs_rest(self, f: Any, n_negative: Any = None,
                    random_state: int | np.random.Generator | None = None) -> Any:
        """Indices and +-1 labels of family ``f`` (+1) against ``n_negative`` structures drawn from the
        other families (-1; default as many as the family has, the balanced protocol of bhadra2010 §5.2).

        Examples
        --------
        >>> data = make_structure_families(n_families=3, n_members=2, length=8, random_state=0)
        >>> idx, y = data.one_vs_rest(1, random_state=0)
        >>> int((y == 1).sum()), int((y == -1).sum()), bool(set(data.y[idx[y == -1]]) <= {0, 2})
        (2, 2, True)
        """
        self._check_family(f)
        pos = np.flatnonzero(self.y == f)
        others = np.flatnonzero(self.y != f)
        k = pos.size if n_negative is None else int(n_negative)
        if not 1 <= k <= others.size:
            raise ValueError(f"n_negative must be in [1, {others.size}], got {n_negative!r}")
        rng = check_random_state(random_state)
        neg = np.sort(rng.choice(others, size=k, replace=False))
        idx = np.concatenate([pos, neg])
        return idx, np.where(self.y[idx] == f, 1, -1)

    def _check_family(self, f):
        if isinstance(f, bool) or not isinstance(f, (int, np.integer)) or not 0 <= f < len(self.family_names):
            raise ValueError(f"family must be an index in [0, {len(self.family_names)}), got {f!r}")


def random_rotation(rng: int | np.random.Generator | None) -> Any:
    """A uniformly distributed rotation matrix (QR of a Gaussian matrix, det +1)."""
    Q, R = np.linalg.qr(rng.normal(size=(3, 3)))
    Q = Q * np.sign(np.diag(R))
    if np.linalg.det(Q) < 0:
        Q[:, 0] = -Q[:, 0]
    return Q


def trace_from_angles(theta: float, tau: Any, bond: Any = BOND_LENGTH) -> Any:
    r"""C-alpha coordinates from virtual bond angles and torsions (degrees).

    Residue :math:`i\ge 3` is placed at distance ``bond`` from residue :math:`i-1`, with
    angle :math:`\theta_i = \angle(i-2, i-1, i)` and torsion :math:`\tau_i` about the
    bond :math:`(i-2, i-1)`; the first three residues fix the frame (``tau[:3]`` and
    ``theta[:2]`` are unused).

    Examples
    --------
    >>> import numpy as np
    >>> X = trace_from_angles(np.full(6, 91.0), np.full(6, 50.0))
    >>> np.round(np.linalg.norm(np.diff(X, axis=0), axis=1), 6)
    array([3.8, 3.8, 3.8, 3.8, 3.8])
    """
    theta = np.radians(np.asarray(theta, float))
    tau = np.radians(np.asarray(tau, float))
    n = theta.size
    X = np.zeros((n, 3))
    if n > 1:
        X[1] = [bond, 0.0, 0.0]
    if n > 2:
        t = theta[2]
        X[2] = X[1] + bond * np.array([-np.cos(t), np.sin(t), 0.0])
    for i in range(3, n):
        a, b, c = X[i - 3], X[i - 2], X[i - 1]
        bc = c - b
        bc /= np.linalg.norm(bc)
        nrm = np.cross(b - a, bc)
        nrm /= np.linalg.norm(nrm)
        m = np.cross(nrm, bc)
        t, p = theta[i], tau[i]
        d2 = bond * np.array([-np.cos(t), np.sin(t) * np.cos(p), np.sin(t) * np.sin(p)])
        X[i] = c + d2[0] * bc + d2[1] * m + d2[2] * nrm
    return X


def _draw_segments(rng, length):
    """A segment plan [(type, length), ...] covering ``length`` residues."""
    plan, total, prev = [], 0, "L"
    while total < length:
        kind = rng.choice(["H", "E"]) if prev == "L" else "L"
        lo, hi = _SEG_LEN[kind]
        k = int(rng.integers(lo, hi + 1))
        plan.append((kind, k))
        total += k
        prev = kind
    return plan


def _angles_from_plan(plan, rng, length):
    theta, tau = [], []
    for kind, k in plan:
        if kind == "L":
            theta.append(rng.uniform(85.0, 135.0, size=k))
            tau.append(rng.uniform(-180.0, 180.0, size=k))
        else:
            mt, st, mp, sp = SEGMENT_GEOMETRY[kind]
            theta.append(mt + st * rng.standard_normal(k))
            tau.append(mp + sp * rng.standard_normal(k))
    return np.concatenate(theta)[:length], np.concatenate(tau)[:length]


def _clash_free(X, min_dist=3.6):
    n = X.shape[0]
    D = np.linalg.norm(X[:, None] - X[None], axis=-1)
    iu = np.triu_indices(n, k=2)
    return bool(np.all(D[iu] >= min_dist))


def _check_int(value, name, low):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    return int(value)


def make_structure_families(n_families: int = 15, n_members: int = 10, length: int = 16, *, n_groups: int = 4,
                            family_divergence: float = 0.5,
                            deformation_range: tuple[float, float] = (2.0, 12.0), indel_rate: float = 1.0,
                            coord_noise: float = 0.2, resolution_range: tuple[float, float] = (1.5, 3.0),
                            random_state: int | np.random.Generator | None = None) -> StructureDataset:
    r"""Generate ``n_families`` families of ``n_members`` C-alpha traces (bental2012 §7.1.2 analog).

    Each member is :math:`P = R\,\mathrm{trace}(\theta + \delta_\theta, \tau + \delta_\tau) + t`
    after insertions/deletions, with :math:`(\theta, \tau)` its family's template angles,
    :math:`\delta \sim N(0, s_f^2)` (degrees, :math:`s_f` the family's deformation drawn
    from ``deformation_range``), :math:`R` a uniform random rotation and :math:`t` a
    random translation; its resolution is :math:`r \sim U(\text{resolution\_range})`.
    The default 15 x 10 matches the paper's SCOP set (15 superfamilies x 10 domains).

    Parameters
    ----------
    n_families, n_members : int
        Number of families (classes) and members per family.
    length : int
        Template length (residues); members differ by their insertions/deletions.
    n_groups : int
        Fold groups shared by families (families in one group are similar).
    family_divergence : float in [0, 1]
        Probability that a segment of the group plan is redrawn in a family template.
    deformation_range : (float, float)
        Range of the family-specific angle-noise scale (degrees).
    indel_rate : float
        Mean number of insertions plus deletions per member (Poisson).
    coord_noise : float
        Standard deviation (Angstrom) of isotropic noise added to member coordinates.
    resolution_range : (float, float)
        Range of the uniform resolution draw (Angstrom), 0 <= low <= high.
    random_state : int, Generator or None

    Returns
    -------
    StructureDataset

    Examples
    --------
    >>> data = make_structure_families(n_families=3, n_members=2, length=10, random_state=0)
    >>> len(data), sorted(set(data.y.tolist()))
    (6, [0, 1, 2])
    >>> bool(((data.resolution >= 1.5) & (data.resolution <= 3.0)).all())
    True
    """
    n_families = _check_int(n_families, "n_families", 1)
    n_members = _check_int(n_members, "n_members", 1)
    length = _check_int(length, "length", 4)
    n_groups = _check_int(n_groups, "n_groups", 1)
    family_divergence = check_nonnegative(family_divergence, "family_divergence")
    if family_divergence > 1:
        raise ValueError(f"family_divergence must be in [0, 1], got {family_divergence!r}")
    lo_d, hi_d = (check_nonnegative(v, "deformation_range") for v in deformation_range)
    if lo_d > hi_d:
        raise ValueError(f"deformation_range must be (low, high) with low <= high, got {deformation_range!r}")
    indel_rate = check_nonnegative(indel_rate, "indel_rate")
    coord_noise = check_nonnegative(coord_noise, "coord_noise")
    lo_r, hi_r = (check_nonnegative(v, "resolution_range") for v in resolution_range)
    if lo_r > hi_r:
        raise ValueError(f"resolution_range must be (low, high) with low <= high, got {resolution_range!r}")
    rng = _rng(random_state)

    group_plans = [_draw_segments(rng, length) for _ in range(n_groups)]
    group = np.array([f % n_groups for f in range(n_families)])
    deformation = rng.uniform(lo_d, hi_d, size=n_families)
    templates, t_angles, names = [], [], []
    for f in range(n_families):
        for _ in range(200):
            plan = []
            for kind, k in group_plans[group[f]]:
                if rng.random() < family_divergence:
                    kind = {"H": "E", "E": "H", "L": "L"}[kind] if rng.random() < 0.5 else kind
                    k = max(2, k + int(rng.integers(-2, 3)))
                plan.append((kind, k))
            if sum(k for _, k in plan) < length:
                plan.append(("L", length - sum(k for _, k in plan)))
            theta, tau = _angles_from_plan(plan, rng, length)
            X = trace_from_angles(theta, tau)
            if _clash_free(X):
                break
        templates.append(X)
        t_angles.append((theta, tau))
        names.append(f"g{group[f]}.f{f}")

    coords, res, y = [], [], []
    for f in range(n_families):
        theta0, tau0 = t_angles[f]
        for _ in range(n_members):
            for _attempt in range(200):
                theta = theta0 + deformation[f] * rng.standard_normal(theta0.size)
                tau = tau0 + deformation[f] * rng.standard_normal(tau0.size)
                n_ind = int(rng.poisson(indel_rate))
                for _k in range(n_ind):
                    pos = int(rng.integers(3, theta.size))
                    if rng.random() < 0.5 and theta.size > max(4, length - 3):
                        theta, tau = np.delete(theta, pos), np.delete(tau, pos)
                    else:
                        theta = np.insert(theta, pos, rng.uniform(85.0, 135.0))
                        tau = np.insert(tau, pos, rng.uniform(-180.0, 180.0))
                X = trace_from_angles(theta, tau)
                X = X + coord_noise * rng.standard_normal(X.shape)
                if _clash_free(X, 3.2):
                    break
            X = (X - X.mean(axis=0)) @ random_rotation(rng).T + rng.uniform(-20.0, 20.0, size=3)
            coords.append(X)
            res.append(rng.uniform(lo_r, hi_r))
            y.append(f)
    return StructureDataset(coords=coords, resolution=np.array(res), y=np.array(y), family_names=names,
                            group=group, deformation=deformation, templates=templates)
