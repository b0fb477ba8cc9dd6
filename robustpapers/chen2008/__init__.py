"""chen2008: training SVMs with indefinite kernels (Chen & Ye, ICML 2008)."""
from .siqclp import indefinite_svm, most_violated_kernel, siqclp_objective
from .master import solve_master

__all__ = ["indefinite_svm", "most_violated_kernel", "siqclp_objective", "solve_master"]
