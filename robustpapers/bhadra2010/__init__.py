"""bhadra2010: chance-constrained SVM for uncertain kernel entries (RSVM; Bhadra et al., ICML 2010)."""
from ..core.uncertainty import (
    beta_from_kernel_support, beta_from_sigma, beta_from_support, check_eps, finite_support_gamma, gamma_certificate,
    gamma_inequality, kappa_finite_support, kappa_from_eps, kappa_gaussian,
)
from .solvers import (
    principal_rank_one, qn_penalty, rank_one_factor, robust_bias, rsvm, rsvm_constraint_value, rsvm_many,
    rsvm_decision_function, rsvm_kkt_residual, rsvm_objective,
)

__all__ = [
    "beta_from_sigma", "beta_from_support", "beta_from_kernel_support", "check_eps", "finite_support_gamma", "gamma_certificate",
    "gamma_inequality", "kappa_finite_support", "kappa_from_eps", "kappa_gaussian",
    "principal_rank_one", "qn_penalty", "rank_one_factor", "robust_bias", "rsvm", "rsvm_many",
    "rsvm_constraint_value", "rsvm_decision_function", "rsvm_kkt_residual", "rsvm_objective",
]
from .data import (
    NOISES, SyntheticKernelData, make_mixture, make_synthetic_kernel_data, sample_kernels, sample_kernels_support, sample_noise,
    support_and_moments,
)
from .estimators import RSVMClassifier

__all__ += [
    "NOISES", "SyntheticKernelData", "make_mixture", "make_synthetic_kernel_data", "sample_kernels", "sample_kernels_support",
    "sample_noise", "support_and_moments", "RSVMClassifier",
]
