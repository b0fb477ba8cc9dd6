"""scikit-learn estimator contract for RSVMClassifier (a precomputed-kernel, pairwise estimator)."""
from sklearn.utils.estimator_checks import parametrize_with_checks

from robustpapers.bhadra2010 import RSVMClassifier

#: method="socp" needs a PSD mean kernel (003 Theorem 6) and rejects others with a ValueError; these
#: checks feed pairwise estimators kernels that are not PSD (negative or low-precision inputs).
SOCP_EXEMPT = {
    "check_positive_only_tag_during_fit": "SOCP requires a PSD kernel; the check's kernel is not PSD",
    "check_estimators_dtypes": "SOCP requires a PSD kernel; the float32/int kernels of the check are not PSD",
}


def _expected(est):
    return SOCP_EXEMPT if est.method == "socp" else {}


@parametrize_with_checks([RSVMClassifier(method="qp"), RSVMClassifier(method="socp", noise="gaussian")],
                         expected_failed_checks=_expected)
def test_sklearn_compatible(estimator, check):
    check(estimator)
