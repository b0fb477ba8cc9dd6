"""chen2008: training SVMs with indefinite kernels (Chen & Ye, ICML 2008)."""
from .apg import dual_value, frank_wolfe_gap, indefinite_svm_apg
from .estimators import METHODS, IndefiniteSVC
from .kernels import SPECTRUM_METHODS, perturbed_gaussian_kernel, spectrum_stats, transform_kernel
from .master import solve_master
from .siqclp import indefinite_svm, most_violated_kernel, siqclp_objective

__all__ = ["indefinite_svm", "indefinite_svm_apg", "dual_value", "frank_wolfe_gap", "most_violated_kernel", "siqclp_objective", "solve_master",
           "IndefiniteSVC", "METHODS", "SPECTRUM_METHODS", "perturbed_gaussian_kernel",
           "spectrum_stats", "transform_kernel"]
