"""scikit-learn estimator contract for the bental2012 classifier.

The checks feed 2-D data; with the ``pairwise`` tag scikit-learn turns it into a
precomputed (n, n) kernel, which USSVMClassifier treats as a kernel stack with L = 0
(the plain SVM), so the checks exercise the full fit/predict path.
"""
import warnings

import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.estimator_checks import parametrize_with_checks

from robustpapers.bental2012 import USSVMClassifier


# Checks that do not apply to precomputed PSD kernels (each documented):
EXEMPT = {
    # centres the kernel matrix (X -= X.mean()): the result is not PSD, which the model rejects by design
    "check_positive_only_tag_during_fit": "a centred kernel matrix is not PSD (rejected with ValueError)",
    # builds kernels from float32 data: rounding makes lambda_min ~ -1e-6 relative, beyond PSD_TOL
    "check_estimators_dtypes": "float32 kernels fail the PSD check at PSD_TOL = 1e-8",
}


@parametrize_with_checks(
    [USSVMClassifier(C=1.0, kappa=1.0, solver="socp"),
     USSVMClassifier(C=1.0, kappa=1.0, solver="fss", tol=1e-3, max_iter=300)],
    expected_failed_checks=lambda est: EXEMPT,
)
def test_sklearn_compatible(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        check(estimator)
