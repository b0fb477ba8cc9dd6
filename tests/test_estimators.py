"""scikit-learn's estimator contract, checked over every estimator of the library in one test.

Documented exemptions (``expected_failed``):
- ``USSVMClassifier`` (every solver) and ``RSVMClassifier(method="socp")`` / ``method="qp"`` need a PSD kernel
  (bental2012 eq. (12), bhadra2010 Theorems 4-6) and refuse others with a ValueError:
  ``check_positive_only_tag_during_fit`` centres the kernel matrix (no longer PSD, rejected by design).
  ``check_estimators_dtypes`` is run in a form that states what these estimators promise: the float32 kernel
  and its float64 copy (PSD up to float32 rounding, lambda_min = -1.4e-8 relative) are fitted and predicted; the
  kernel truncated to integers is indefinite (lambda_min = -2 against lambda_max = 216) and is refused with a
  ValueError that names psd_clip.
The defaults of the estimators whose default changed so that it converges quickly (``USSVMClassifier()``: the
certified alternating method; ``IndefiniteSVC()``: APG-FW; ``MultiGURUClassifier()``: L-BFGS;
``KernelGURUClassifier()``: L-BFGS in eigen-coordinates; ``ASVC()``: the cone program) are checked as they are,
with no loosened tolerance.
Iterative estimators run with loose tolerances so that the checks stay fast; a ConvergenceWarning on the
checks' tiny data sets is not what is tested here and is silenced.
"""
import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.estimator_checks import (
    _enforce_estimator_tags_X, _enforce_estimator_tags_y, parametrize_with_checks,
)

from robustpapers.bental2012 import USSVMClassifier
from robustpapers.bhadra2010 import RSVMClassifier
from robustpapers.chen2008 import IndefiniteSVC
from robustpapers.ginodi2010 import ASVC, GURUClassifier, KernelGURUClassifier, MultiGURUClassifier
from robustpapers.shivaswamy2006 import (
    KernelRobustMissingSVC, KernelRobustMissingSVR, RobustMissingMulticlassSVC, RobustMissingSVC, RobustMissingSVR,
)

ESTIMATORS = [
    # bental2012 (a 2-D input is a kernel stack with L = 0: the checks exercise the full path)
    USSVMClassifier(),
    USSVMClassifier(C=1.0, kappa=1.0, solver="socp"),
    USSVMClassifier(C=1.0, kappa=1.0, solver="fss", tol=1e-3, max_iter=300),
    # bhadra2010
    RSVMClassifier(method="qp"),
    RSVMClassifier(method="socp", noise="gaussian"),
    RSVMClassifier(method="qn", n_starts=1, random_state=0),
    # chen2008
    IndefiniteSVC(method="denoise"),
    IndefiniteSVC(method="svm"),
    IndefiniteSVC(),
    IndefiniteSVC(method="siqclp", solver="algorithm1", tol=1e-2, max_iter=30),
    IndefiniteSVC(method="siqclp", solver="algorithm1", tol=1e-2, max_iter=8, max_kernels=3, slack_tol=1e-3),
    # ginodi2010
    GURUClassifier(sigma=1.0, solver="lbfgs"),
    GURUClassifier(sigma=1.0, solver="sgd", max_iter=20, random_state=0),
    KernelGURUClassifier(),
    KernelGURUClassifier(sigma=1.0, kernel="rbf", solver="sgd", max_iter=10, random_state=0),
    MultiGURUClassifier(),
    MultiGURUClassifier(sigma=1.0, variant="s2", max_iter=20, random_state=0),
    ASVC(),
    ASVC(delta=0.1, solver="alternate", max_iter=5),
    # shivaswamy2006
    RobustMissingSVC(),
    RobustMissingSVR(),
    RobustMissingSVR(formulation="sr"),
    KernelRobustMissingSVC(),
    KernelRobustMissingSVC(covariance="knn", C=10.0),
    KernelRobustMissingSVR(W=100.0, kernel_gamma=0.5),
    KernelRobustMissingSVR(),
    KernelRobustMissingSVR("sr", W=100.0, kernel_gamma=0.5),
    KernelRobustMissingSVR(covariance="knn", W=100.0, kernel_gamma=0.5),
    RobustMissingMulticlassSVC(),
]

_NEEDS_PSD = {
    "check_positive_only_tag_during_fit": "a centred kernel matrix is not PSD (rejected with ValueError)",
}


def needs_psd(estimator):
    return isinstance(estimator, USSVMClassifier) or (
        isinstance(estimator, RSVMClassifier) and estimator.method in ("socp", "qp"))


def expected_failed(estimator):
    return _NEEDS_PSD if needs_psd(estimator) else {}


def check_estimators_dtypes_psd(estimator_orig):
    """scikit-learn's check_estimators_dtypes (same data) for an estimator that needs a PSD kernel.

    The float32 kernel and its float64 copy fit and predict; the integer-truncated kernel is indefinite and
    is refused with a ValueError naming psd_clip.
    """
    rnd = np.random.RandomState(0)
    X32 = _enforce_estimator_tags_X(estimator_orig, 3 * rnd.uniform(size=(20, 5)).astype(np.float32))
    y = _enforce_estimator_tags_y(estimator_orig, np.array([1, 2] * 10, dtype=np.int64))
    assert np.linalg.eigvalsh(X32.astype(float))[0] < 0  # the float32 rounding is visible in the spectrum
    for X in (X32, X32.astype(np.float64)):
        est = clone(estimator_orig).fit(X, y)
        assert est.predict(X).shape == (20,) and np.isfinite(est.decision_function(X)).all()
    for X in (X32.astype(np.int64), X32.astype(np.int32)):
        ev = np.linalg.eigvalsh(X.astype(float))
        assert ev[0] < -1e-3 * ev[-1]  # truncation, not rounding: genuinely indefinite
        with pytest.raises(ValueError, match="not positive semidefinite.*psd_clip"):
            clone(estimator_orig).fit(X, y)


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=expected_failed)
def test_sklearn_estimator_contract(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        if needs_psd(estimator) and getattr(check, "func", check).__name__ == "check_estimators_dtypes":
            check_estimators_dtypes_psd(estimator)
        else:
            check(estimator)
