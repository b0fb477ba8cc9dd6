"""scikit-learn estimator contract for RSVMClassifier (a precomputed-kernel, pairwise estimator)."""
from sklearn.utils.estimator_checks import parametrize_with_checks

from robustpapers.bhadra2010 import RSVMClassifier

#: Checks that do not apply to a binary classifier over a precomputed kernel.
EXPECTED_FAILED = {}


@parametrize_with_checks([RSVMClassifier(method="qp")],
                         expected_failed_checks=lambda est: EXPECTED_FAILED)
def test_sklearn_compatible(estimator, check):
    check(estimator)
