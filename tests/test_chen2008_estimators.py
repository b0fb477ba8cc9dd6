"""scikit-learn estimator contract for the chen2008 classifier."""
from sklearn.utils.estimator_checks import parametrize_with_checks

from robustpapers.chen2008 import IndefiniteSVC


# The exchange method is run with a loose tolerance so that the ~40 checks stay fast; its
# ConvergenceWarning is allowed (a warning never fails a check).
@parametrize_with_checks([
    IndefiniteSVC(method="denoise"),
    IndefiniteSVC(method="svm"),
    IndefiniteSVC(method="siqclp", tol=1e-2, max_iter=30),
])
def test_sklearn_compatible(estimator, check):
    check(estimator)
