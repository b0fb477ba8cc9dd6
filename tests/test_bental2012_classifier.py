"""USSVMClassifier on kernel stacks (its scikit-learn contract is checked in test_estimators.py)."""
import pytest

from robustpapers.bental2012 import USSVMClassifier


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
