"""Shared core: validation, the SVM-set projection, the plain SVM, kernels, PSD helpers,
the solver result type, prediction-rule error metrics, shared random draws, the safe approximations of a
chance constraint on uncertain kernel entries (gamma, kappa, beta), and the generic FSS
saddle-point solver with the projections it uses (simplex, positive part of an lp ball, SVM set cut by a ball)."""
from .kernels import (
    PSD_TOL, check_psd, is_psd, linear_kernel, make_kernel, min_eigenvalue,
    polynomial_kernel, psd_clip, psd_flip, psd_shift, psd_tolerance, rbf_kernel,
)
from .parallel import parallel_map
from .metrics import majority_error, nominal_error, prediction_errors, robust_error, sign_labels
from .fss import SaddlePointProblem, fss_saddle, fss_stage_constants
from .kernel_stack import KernelStack
from .params import InvalidParameterError, Interval, ParamsMixin, StrOptions, validate_parameter_rules
from .projection import (
    project_positive_lp_ball, project_restricted_lp_ball, project_simplex, project_svm_set, project_svm_set_ball,
)
from .result import ConvergenceWarning, SolverResult, Trace, warn_not_converged
from .sampling import sample_positive_lp_ball
from .uncertainty import (
    beta_from_kernel_support, beta_from_sigma, beta_from_support, check_eps, finite_support_gamma, gamma_certificate,
    gamma_inequality, kappa_finite_support, kappa_from_eps, kappa_gaussian,
)
from .svm import SVMSolution, decision_function, support_vectors, svm_bias, svm_dual, svm_dual_objective
from .validation import (
    check_binary_labels, check_finite_array, check_kernel, check_nonnegative, check_positive,
)

__all__ = [
    "PSD_TOL", "check_psd", "is_psd", "linear_kernel", "make_kernel", "min_eigenvalue",
    "polynomial_kernel", "psd_clip", "psd_flip", "psd_shift", "psd_tolerance", "rbf_kernel",
    "majority_error", "nominal_error", "prediction_errors", "robust_error", "sign_labels",
    "SaddlePointProblem", "fss_saddle", "fss_stage_constants", "KernelStack",
    "InvalidParameterError", "Interval", "ParamsMixin", "StrOptions", "validate_parameter_rules",
    "project_positive_lp_ball", "project_restricted_lp_ball", "project_simplex", "project_svm_set", "project_svm_set_ball",
    "ConvergenceWarning", "SolverResult", "Trace", "warn_not_converged",
    "sample_positive_lp_ball", "SVMSolution", "decision_function", "support_vectors", "svm_bias", "svm_dual",
    "svm_dual_objective", "check_binary_labels", "check_finite_array", "check_kernel",
    "check_nonnegative", "check_positive", "parallel_map",
    "beta_from_kernel_support", "beta_from_sigma", "beta_from_support", "check_eps", "finite_support_gamma",
    "gamma_certificate", "gamma_inequality", "kappa_finite_support", "kappa_from_eps", "kappa_gaussian",
]
