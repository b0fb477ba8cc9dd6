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


def test_classifier_on_kernel_stacks():
    import numpy as np

    from robustpapers.bental2012 import ussvm_socp

    rng = np.random.default_rng(0)
    n, m, d, L = 30, 10, 40, 3
    X = rng.standard_normal((n + m, d))
    y = np.where(X[:, 0] + 0.3 * rng.standard_normal(n + m) > 0, "pos", "neg")
    Kb = X @ X.T / d
    Ks = [Kb + (Z := 0.2 * rng.standard_normal((n + m, n + m)) / np.sqrt(n + m)) @ Z.T for _ in range(L)]
    stack = np.stack([Kb, *Ks])
    tr, te = np.arange(n), np.arange(n, n + m)
    S_tr, S_te = stack[:, tr][:, :, tr], stack[:, te][:, :, tr]
    socp = USSVMClassifier(C=1.0, kappa=0.5, solver="socp").fit(S_tr, y[tr])
    fss = USSVMClassifier(C=1.0, kappa=0.5, solver="fss", tol=1e-6).fit(S_tr, y[tr])
    # the estimator is a thin wrapper: same alpha as the solver on the +-1 encoded labels
    ref = ussvm_socp(S_tr[0], S_tr[1:], np.where(y[tr] == "pos", 1.0, -1.0), 1.0, 0.5)
    assert np.allclose(socp.alpha_, ref.alpha, atol=1e-6) and socp.n_kernels_ == L
    assert fss.result_.objective == pytest.approx(socp.result_.objective, rel=1e-5)
    assert set(socp.predict(S_te)) <= {"neg", "pos"}
    assert np.allclose(socp.decision_function(S_te), socp.decision_function(S_te[0]))  # nominal rule uses K̄ only
    errs = socp.prediction_errors(S_te, y[te], R=20, random_state=0)
    assert errs["RE"] >= errs["ME"] - 1e-12
    with pytest.raises(ValueError, match="features"):
        socp.predict(S_te[:, :, :-1])
    with pytest.raises(ValueError, match="square"):
        USSVMClassifier(solver="socp").fit(S_tr[:, :, :-1], y[tr])
    with pytest.raises(ValueError, match="solver"):
        USSVMClassifier(solver="ipm").fit(S_tr, y[tr])
