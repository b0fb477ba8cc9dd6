"""scikit-learn estimator contract for the ginodi2010 estimators."""
import warnings

from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.estimator_checks import parametrize_with_checks

from robustpapers.ginodi2010 import ASVC, GURUClassifier, KernelGURUClassifier, MultiGURUClassifier

ESTIMATORS = [
    GURUClassifier(sigma=1.0, solver="lbfgs"),
    GURUClassifier(sigma=1.0, solver="sgd", max_iter=20, random_state=0),
    KernelGURUClassifier(sigma=1.0, kernel="rbf", max_iter=10, random_state=0),
    MultiGURUClassifier(sigma=1.0, variant="lbfgs"),
    MultiGURUClassifier(sigma=1.0, variant="s2", max_iter=20, random_state=0),
    ASVC(delta=0.1, max_iter=5),
]


@parametrize_with_checks(ESTIMATORS)
def test_sklearn_compatible(estimator, check):
    with warnings.catch_warnings():
        # short runs on the checks' tiny data sets may stop at max_iter: that is not what is tested here
        warnings.simplefilter("ignore", ConvergenceWarning)
        check(estimator)
