"""Resolution-aware protein-structure classification data: a synthetic C-alpha analog of the SCOP
set of bental2012 §7.1.2 / bhadra2010 §5.2, the substructure kernel of bental2012 App. C, resolution perturbations,
kernel sets (K_1..K_L, K_bar, a, b) and the multi-instance set kernel; a PDB/mmCIF reader."""
from .generator import (
    BOND_LENGTH, SEGMENT_GEOMETRY, StructureDataset, make_structure_families, random_rotation, trace_from_angles,
)
from .io import read_structure, read_structures
from .kernel import check_structure, pds_matrix, substructure_kernel, substructure_kernel_matrix, substructures
from .kernel_sets import (
    KernelSet, build_kernel_set, check_resolutions, multi_instance_kernel, perturb_structure, perturb_structures,
)

__all__ = [
    "BOND_LENGTH", "SEGMENT_GEOMETRY", "StructureDataset", "make_structure_families", "random_rotation",
    "trace_from_angles", "read_structure", "read_structures", "check_structure", "pds_matrix",
    "substructure_kernel", "substructure_kernel_matrix", "substructures", "KernelSet", "build_kernel_set",
    "check_resolutions", "multi_instance_kernel", "perturb_structure", "perturb_structures",
]
