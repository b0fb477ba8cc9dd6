"""ginodi2010: Gaussian robust classification (Ginodi, MSc thesis, Hebrew University 2010).

The robust expected hinge loss (2.16), GURU (Algorithm 1) and a certifying L-BFGS solver,
the dual (3.17) with norm recovery (3.20)/(3.23), KEN-GURU (Algorithm 2), M-GURU and
M-GURU-S^2 (Algorithms 3-4) and ASVC (Algorithm 5).
"""
from .loss import (
    diagonal_adversary, dual_norm_weight, robust_hinge_loss_diagonal, guru_gradient, guru_objective, log_loss2, log_loss2_conjugate, quadratic_hinge,
    quadratic_hinge_conjugate, robust_hinge_grad, robust_hinge_loss, smooth_hinge, smooth_hinge_conjugate,
    smooth_hinge_prime,
)
from .guru import GURUClassifier, guru_lbfgs, guru_sgd

__all__ = [
    "diagonal_adversary", "robust_hinge_loss_diagonal", "dual_norm_weight", "guru_gradient", "guru_objective", "log_loss2", "log_loss2_conjugate",
    "quadratic_hinge", "quadratic_hinge_conjugate", "robust_hinge_grad", "robust_hinge_loss",
    "smooth_hinge", "smooth_hinge_conjugate", "smooth_hinge_prime",
    "GURUClassifier", "guru_lbfgs", "guru_sgd",
]
from .dual import (
    dual_constraint, dual_from_primal, dual_objective, guru_dual, norm_from_alpha_320, norm_from_alpha_323,
    perspective_fit, recover_w,
)

__all__ += ["dual_constraint", "dual_from_primal", "dual_objective", "guru_dual", "norm_from_alpha_320",
            "norm_from_alpha_323", "perspective_fit", "recover_w"]
from .kernel import KernelGURUClassifier, ken_guru, kernel_guru_eigen, kernel_guru_lbfgs, kernel_guru_objective
from .multiclass import MultiGURUClassifier, m_guru, m_guru_lbfgs, multi_guru_objective, multi_robust_loss
from .asvc import (
    ASVC, asvc, asvc_cone, asvc_lower_bound, asvc_objective, multiclass_asvc, multiclass_asvc_alternate,
    multiclass_asvc_objective, multiclass_worst_displacement,
)

__all__ += ["KernelGURUClassifier", "ken_guru", "kernel_guru_eigen", "kernel_guru_lbfgs", "kernel_guru_objective", "MultiGURUClassifier", "m_guru",
            "m_guru_lbfgs", "multi_guru_objective", "multi_robust_loss", "ASVC", "asvc", "asvc_cone",
            "asvc_lower_bound", "asvc_objective", "multiclass_asvc", "multiclass_asvc_objective", "multiclass_asvc_alternate",
            "multiclass_worst_displacement"]
from .data import toy_gaussian, toy_multiclass, toy_narrow_outliers, toy_radial

__all__ += ["toy_gaussian", "toy_multiclass", "toy_narrow_outliers", "toy_radial"]
