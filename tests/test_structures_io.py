"""The PDB/mmCIF reader, on tiny files the test writes itself."""
import numpy as np
import pytest

gemmi = pytest.importorskip("gemmi")

from robustpapers.structures import read_structure, read_structures  # noqa: E402

CA = np.array([[11.104, 6.134, -6.504], [11.639, 6.071, -5.147], [12.001, 7.254, -4.477],
               [13.400, 8.100, -3.900]])


def _pdb_text(resolution="2.10"):
    lines = [f"REMARK   2 RESOLUTION.    {resolution} ANGSTROMS."] if resolution else []
    serial = 1
    for k, (x, y, z) in enumerate(CA):
        for name, dx in ((" N  ", -1.2), (" CA ", 0.0), (" C  ", 1.3)):
            chain = "A" if k < 3 else "B"
            lines.append(f"ATOM  {serial:5d} {name} ALA {chain}{k + 1:4d}    {x + dx:8.3f}{y:8.3f}{z:8.3f}"
                         f"  1.00 20.00           {name.strip()[0]}")
            serial += 1
    lines.append(f"HETATM{serial:5d}  O   HOH A 101      99.000  99.000  99.000  1.00 20.00           O")
    lines.append("END")
    return "\n".join(lines) + "\n"


def test_reads_ca_coordinates_and_resolution(tmp_path):
    p = tmp_path / "tiny.pdb"
    p.write_text(_pdb_text())
    X, r = read_structure(p)
    np.testing.assert_allclose(X, CA, atol=1e-3)
    assert r == pytest.approx(2.10)
    XA, _ = read_structure(p, chain="A")
    np.testing.assert_allclose(XA, CA[:3], atol=1e-3)
    XN, _ = read_structure(p, atom="N")
    np.testing.assert_allclose(XN, CA - [1.2, 0, 0], atol=1e-3)


def _cif_text(resolution="1.65"):
    rows = []
    for k, (x, y, z) in enumerate(CA):
        chain = "A" if k < 3 else "B"
        for j, (name, dx) in enumerate((("N", -1.2), ("CA", 0.0), ("C", 1.3))):
            rows.append(f"ATOM {3 * k + j + 1} {name[0]} {name} . ALA {chain} 1 {k + 1} ? {x + dx:.3f} {y:.3f} {z:.3f} "
                        f"1.00 20.00 {k + 1} ALA {chain} {name} 1")
    return "\n".join([
        "data_TINY", "#", "_entry.id TINY", "#",
        f"_refine.entry_id TINY", f"_refine.ls_d_res_high {resolution}", "#",
        "loop_", "_atom_site.group_PDB", "_atom_site.id", "_atom_site.type_symbol", "_atom_site.label_atom_id",
        "_atom_site.label_alt_id", "_atom_site.label_comp_id", "_atom_site.label_asym_id",
        "_atom_site.label_entity_id", "_atom_site.label_seq_id", "_atom_site.pdbx_PDB_ins_code",
        "_atom_site.Cartn_x", "_atom_site.Cartn_y", "_atom_site.Cartn_z", "_atom_site.occupancy",
        "_atom_site.B_iso_or_equiv", "_atom_site.auth_seq_id", "_atom_site.auth_comp_id",
        "_atom_site.auth_asym_id", "_atom_site.auth_atom_id", "_atom_site.pdbx_PDB_model_num",
        *rows, "#", ""])


def test_reads_mmcif(tmp_path):
    cif = tmp_path / "tiny.cif"
    cif.write_text(_cif_text("1.65"))
    X, r = read_structure(cif)
    np.testing.assert_allclose(X, CA, atol=1e-3)
    assert r == pytest.approx(1.65)
    XB, _ = read_structure(cif, chain="B")
    np.testing.assert_allclose(XB, CA[3:], atol=1e-3)
    p = tmp_path / "tiny.pdb"
    p.write_text(_pdb_text("2.10"))
    coords, res = read_structures([p, cif])
    assert len(coords) == 2 and np.allclose(res, [2.10, 1.65])
    np.testing.assert_allclose(coords[0], coords[1], atol=1e-3)


def test_missing_resolution_is_nan(tmp_path):
    p = tmp_path / "nmr.pdb"
    p.write_text(_pdb_text(resolution=None))
    X, r = read_structure(p)
    assert X.shape == (4, 3) and np.isnan(r)


def test_reader_errors(tmp_path):
    with pytest.raises(ValueError, match="no such structure file"):
        read_structure(tmp_path / "absent.pdb")
    p = tmp_path / "tiny.pdb"
    p.write_text(_pdb_text())
    with pytest.raises(ValueError, match="chain 'Z' not found"):
        read_structure(p, chain="Z")
    with pytest.raises(ValueError, match="model"):
        read_structure(p, model=3)
    with pytest.raises(ValueError, match="no 'CB' atoms"):
        read_structure(p, atom="CB")
