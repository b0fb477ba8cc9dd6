"""Shared core: validation, the SVM-set projection, the plain SVM, kernels, PSD helpers,
the solver result type, prediction-rule error metrics and shared random draws."""
from .kernels import (
    PSD_TOL, check_psd, is_psd, linear_kernel, make_kernel, min_eigenvalue,
    polynomial_kernel, psd_clip, psd_flip, psd_shift, rbf_kernel,
)
from .metrics import majority_error, nominal_error, prediction_errors, robust_error, sign_labels
from .projection import project_svm_set
from .result import ConvergenceWarning, SolverResult, Trace, warn_not_converged
from .sampling import sample_positive_lp_ball
from .svm import SVMSolution, decision_function, support_vectors, svm_bias, svm_dual, svm_dual_objective
from .validation import (
    check_binary_labels, check_finite_array, check_kernel, check_nonnegative, check_positive,
)

__all__ = [
    "PSD_TOL", "check_psd", "is_psd", "linear_kernel", "make_kernel", "min_eigenvalue",
    "polynomial_kernel", "psd_clip", "psd_flip", "psd_shift", "rbf_kernel",
    "majority_error", "nominal_error", "prediction_errors", "robust_error", "sign_labels",
    "project_svm_set", "ConvergenceWarning", "SolverResult", "Trace", "warn_not_converged",
    "sample_positive_lp_ball", "SVMSolution", "decision_function", "support_vectors", "svm_bias", "svm_dual",
    "svm_dual_objective", "check_binary_labels", "check_finite_array", "check_kernel",
    "check_nonnegative", "check_positive",
]
