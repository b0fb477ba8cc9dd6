"""Reading C-alpha coordinates and resolution from PDB / mmCIF files (optional extra: ``gemmi``).

The real-data path of bental2012 §7.7: :math:`P_i` are the C-alpha coordinates of a
structure (bental2012 eq. (3)) and :math:`r_i` its X-ray resolution from the PDB.
Install with ``pip install robustpapers[structures]``.
"""
from __future__ import annotations

import math
import os
from typing import Any

import numpy as np

__all__ = ["read_structure", "read_structures"]


def _gemmi():
    try:
        import gemmi
    except ImportError:  # pragma: no cover - depends on the environment
        raise ValueError("reading PDB/mmCIF files needs the optional package gemmi "
                         "(pip install 'robustpapers[structures]')") from None
    return gemmi


def read_structure(path: str, chain: str | None = None, model: int = 0, atom: str = "CA") -> tuple[Any, ...]:
    r"""C-alpha coordinates and resolution of one PDB or mmCIF file (bental2012 eq. (3), §7.7).

    .. math::

        P = \{c_i \in \mathbb R^3 \mid i = 1,\dots,s\},\qquad r = \text{resolution}

    Polymer residues of the chosen chain(s) of one model are read in file order; for
    each residue the first conformer of atom ``atom`` is taken (residues without it are
    skipped). The resolution is the file's high-resolution limit (``REMARK 2`` in PDB,
    ``_refine.ls_d_res_high`` / ``_reflns.d_resolution_high`` in mmCIF).

    Parameters
    ----------
    path : str or path-like
        A ``.pdb``, ``.ent``, ``.cif`` or ``.mmcif`` file (gzipped allowed).
    chain : str, optional
        Chain name; default all chains of the model.
    model : int
        Model index (0 = first).
    atom : str
        Atom name (default C-alpha).

    Returns
    -------
    coords : array (s, 3)
        Coordinates in Angstrom.
    resolution : float
        Resolution in Angstrom, ``nan`` when the file states none (e.g. NMR).

    Raises
    ------
    ValueError
        If the file does not exist, gemmi is missing, the model or chain is absent or no
        ``atom`` is found.

    Examples
    --------
    >>> import tempfile, os
    >>> pdb = ("REMARK   2 RESOLUTION.    1.80 ANGSTROMS.\n"
    ...        "ATOM      1  CA  GLY A   1       1.000   2.000   3.000  1.00  0.00           C\n"
    ...        "ATOM      2  CA  ALA A   2       4.800   2.000   3.000  1.00  0.00           C\n"
    ...        "END\n")
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = os.path.join(d, "x.pdb"); _ = open(p, "w").write(pdb)
    ...     X, r = read_structure(p)
    >>> X.shape, r
    ((2, 3), 1.8)
    """
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise ValueError(f"no such structure file: {path!r}")
    gemmi = _gemmi()
    try:
        st = gemmi.read_structure(path)
    except (RuntimeError, ValueError) as exc:
        raise ValueError(f"cannot read {path!r} as PDB/mmCIF: {exc}") from None
    if isinstance(model, bool) or not isinstance(model, (int, np.integer)) or not 0 <= model < len(st):
        raise ValueError(f"model must be an index in [0, {len(st)}), got {model!r}")
    st.setup_entities()
    mdl = st[int(model)]
    chains = [ch for ch in mdl if chain is None or ch.name == chain]
    if not chains:
        names = [ch.name for ch in mdl]
        raise ValueError(f"chain {chain!r} not found in {path!r} (chains: {names})")
    xyz = []
    for ch in chains:
        for res in ch.get_polymer() if len(ch.get_polymer()) else ch:
            found = res.find_atom(atom, "*")
            if found is not None:
                p = found.pos
                xyz.append((p.x, p.y, p.z))
    if not xyz:
        raise ValueError(f"no {atom!r} atoms found in {path!r}")
    r = float(st.resolution)
    if not (r > 0 and math.isfinite(r)) and st.input_format == gemmi.CoorFormat.Mmcif:
        r = _cif_resolution(gemmi, path)
    return np.array(xyz, dtype=float), (r if r > 0 and math.isfinite(r) else float("nan"))


_CIF_RESOLUTION_TAGS = ("_refine.ls_d_res_high", "_reflns.d_resolution_high", "_em_3d_reconstruction.resolution")


def _cif_resolution(gemmi, path):
    """The first numeric resolution tag of an mmCIF file (gemmi fills ``Structure.resolution``
    from ``_refine`` only when the refinement category is complete)."""
    try:
        block = gemmi.cif.read(path).sole_block()
    except (RuntimeError, ValueError):
        return float("nan")
    for tag in _CIF_RESOLUTION_TAGS:
        value = block.find_value(tag)
        if value not in (None, "?", "."):
            try:
                return float(value)
            except ValueError:
                continue
    return float("nan")


def read_structures(paths: Any, chain: Any = None, model: int = 0, atom: str = "CA") -> tuple[Any, ...]:
    r"""Read several files with :func:`read_structure` (bental2012 §7.7's :math:`\{(P_i, r_i)\}`).

    Returns
    -------
    coords : list of arrays (s_i, 3)
    resolutions : array (n,)

    Examples
    --------
    >>> import tempfile, os
    >>> line = "ATOM      1  CA  GLY A   1       0.000   0.000   0.000  1.00  0.00           C\n"
    >>> with tempfile.TemporaryDirectory() as d:
    ...     paths = [os.path.join(d, f"{k}.pdb") for k in range(2)]
    ...     for p in paths:
    ...         _ = open(p, "w").write("REMARK   2 RESOLUTION.    2.50 ANGSTROMS.\n" + line + "END\n")
    ...     coords, res = read_structures(paths)
    >>> len(coords), res.tolist()
    (2, [2.5, 2.5])
    """
    out = [read_structure(p, chain=chain, model=model, atom=atom) for p in paths]
    return [c for c, _ in out], np.array([r for _, r in out])
