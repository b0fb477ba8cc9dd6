"""bental2012: robust SVM under affine kernel uncertainty — USSVM_SOCP and the FSS saddle-point algorithm (USSVM_MN).

Ben-Tal, Bhadra, Bhattacharyya, Nemirovski, *Efficient Methods for Robust Classification
Under Uncertainty in Kernel Matrices*, JMLR 13, 2012.
"""
from .data import (
    D_B, D_G, D_U, DISTRIBUTIONS, UncertainKernelData, make_mixture_data, make_uncertain_dataset,
    make_uncertain_kernels, rsvm_support_from_kernels,
)
# General algorithms that live in robustpapers.core, re-exported here for this chapter's readers.
from ..core.fss import SaddlePointProblem, fss_saddle, fss_stage_constants
from ..core.projection import (
    project_positive_lp_ball, project_restricted_lp_ball, project_simplex, project_svm_set_ball,
)
from .robust import (
    check_ussvm_problem, dual_exponent, effective_kernel, kernel_quadratic_forms, robust_bias,
    rescale_ussvm, robust_objective, worst_case_eta,
)
from .socp import ussvm_socp

__all__ = [
    "D_B", "D_G", "D_U", "DISTRIBUTIONS", "UncertainKernelData", "make_mixture_data", "make_uncertain_dataset",
    "make_uncertain_kernels", "rsvm_support_from_kernels",
    "fss_saddle", "fss_stage_constants",  # SaddlePointProblem too is importable here, documented in core only
    "check_ussvm_problem", "dual_exponent", "effective_kernel", "kernel_quadratic_forms", "robust_bias",
    "rescale_ussvm", "robust_objective", "worst_case_eta",
    "ussvm_socp",
]
from .ussvm import FSSOptions, svm_set_linear_max, ussvm_fss, ussvm_saddle_problem

__all__ += ["project_positive_lp_ball", "svm_set_linear_max", "ussvm_fss", "ussvm_saddle_problem", "FSSOptions"]
from .estimators import USSVMClassifier
from .prediction import evaluate_prediction_rules, nominal_decision, sampled_decisions

__all__ += ["USSVMClassifier", "evaluate_prediction_rules", "nominal_decision", "sampled_decisions",
            "project_restricted_lp_ball", "project_simplex", "project_svm_set_ball"]
from .chance import chance_fss, chance_objective, chance_socp, project_orthant_ellipsoid

__all__ += ["chance_fss", "chance_objective", "chance_socp", "project_orthant_ellipsoid"]
from .rsvm_baseline import rsvm_beta_from_kernels, rsvm_kappa

__all__ += ["rsvm_beta_from_kernels", "rsvm_kappa"]
# The one entry point (last: the function ``ussvm`` then shadows the submodule attribute of the same name;
# ``from robustpapers.bental2012.ussvm import ussvm_fss`` still finds the module).
from .entry import USSVMOptions, ussvm

__all__ += ["ussvm", "USSVMOptions"]
