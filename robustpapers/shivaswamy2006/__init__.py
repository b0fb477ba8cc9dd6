"""Shivaswamy, Bhattacharyya and Smola (2006): SOCP approaches for missing and uncertain data.

Classification (Theorem 1's SOCP (10), its W-form (3)/(44)), error measures of section 3.3,
regression (CTM (35), SR (36)), missing values by EM (section 6) and scikit-learn estimators.
"""
from .classification import gamma_chebyshev, gamma_gaussian, robust_svm, robust_svm_w, worst_case_points
from .errors import classification_errors, expected_error_mc, regression_errors
from .missing import (check_missing_array, class_moments, conditional_moments, delete_entries, em_gaussian,
                      impute_by_fit)
from .regression import loss_value, robust_regression, robust_svr_ctm, robust_svr_sr

__all__ = [
    "gamma_chebyshev", "gamma_gaussian", "robust_svm", "robust_svm_w", "worst_case_points",
    "classification_errors", "expected_error_mc", "regression_errors",
    "check_missing_array", "class_moments", "conditional_moments", "delete_entries", "em_gaussian",
    "impute_by_fit", "robust_svr_ctm", "robust_svr_sr", "robust_regression", "loss_value",
]
from .estimators import (  # noqa: E402
    KernelRobustMissingSVC, KernelRobustMissingSVR, RobustMissingMulticlassSVC, RobustMissingSVC, RobustMissingSVR,
)

__all__ += ["KernelRobustMissingSVC", "KernelRobustMissingSVR", "RobustMissingMulticlassSVC", "RobustMissingSVC",
            "RobustMissingSVR"]
from .extensions import (  # noqa: E402
    calafiore_campi_n, invariance_svm, polyhedral_svm, robust_multiclass_svm, sample_ellipsoid, vertex_svm,
)

__all__ += ["calafiore_campi_n", "invariance_svm", "polyhedral_svm", "robust_multiclass_svm", "sample_ellipsoid",
            "vertex_svm"]
from .dual import robust_svm_dual  # noqa: E402

__all__ += ["robust_svm_dual"]
