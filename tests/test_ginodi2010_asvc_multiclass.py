"""Multiclass ASVC by alternation (ginodi2010 appendix A.4 with Algorithm 5's scheme): property tests."""
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from robustpapers.ginodi2010 import (
    asvc_objective, multiclass_asvc, multiclass_asvc_alternate, multiclass_asvc_objective,
    multiclass_worst_displacement, toy_multiclass,
)


def test_worst_displacement_attains_the_closed_form_a8():
    # (A.7) = (A.8): the loss of the displaced point, without robustness term, equals the robust loss,
    # and no random displacement of norm delta does worse (Theorem 2.1 of appendix A, per class)
    rng = np.random.default_rng(0)
    X, y = toy_multiclass(12, n_classes=4, random_state=0)
    W, delta = rng.normal(size=(4, 2)), 0.4
    D, c_hat = multiclass_worst_displacement(W, X, y, delta)
    np.testing.assert_allclose(np.linalg.norm(D, axis=1)[c_hat != y], delta, rtol=1e-12)
    for m in range(len(y)):
        robust = multiclass_asvc_objective(W, X[m:m + 1], y[m:m + 1], delta, 1.0) - 0.5 * np.sum(W * W)
        at_worst = multiclass_asvc_objective(W, X[m:m + 1] + D[m], y[m:m + 1], 0.0, 1.0) - 0.5 * np.sum(W * W)
        assert at_worst == pytest.approx(robust, rel=1e-12, abs=1e-12)
        for _ in range(20):
            u = rng.normal(size=2)
            other = multiclass_asvc_objective(W, X[m:m + 1] + delta * u / np.linalg.norm(u), y[m:m + 1], 0.0, 1.0)
            assert other - 0.5 * np.sum(W * W) <= robust + 1e-12


@pytest.mark.parametrize("K", [3, 4])
def test_alternation_fixed_point_is_the_cone_optimum_and_svm_steps_bound_it_below(K):
    X, y = toy_multiclass(30 * K, n_classes=K, random_state=2)
    for delta in (0.0, 0.1):
        cone = multiclass_asvc(X, y, delta, C=1.0)
        alt = multiclass_asvc_alternate(X, y, delta, C=1.0, random_state=0)
        assert alt.success
        # a fixed point W* != 0 satisfies the subgradient condition of (A.8): it is the optimum
        assert alt.objective == pytest.approx(cone.objective, rel=1e-6)
        # step (a) minimises a lower bound of (A.8): never above the optimum (up to LIBLINEAR's tolerance)
        assert max(alt.trace["svm_value"]) <= cone.objective * (1 + 1e-6)
        if delta == 0.0:      # no adversary: one Crammer-Singer SVM, confirmed by a second step
            assert alt.nit == 2
    # a large radius: the alternation need not converge (not a descent method), it is never below the
    # optimum and its SVM steps still bound the optimum from below
    cone = multiclass_asvc(X, y, 1.0, C=1.0)
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        alt = multiclass_asvc_alternate(X, y, 1.0, C=1.0, max_iter=15, random_state=0)
    assert alt.objective >= cone.objective * (1 - 1e-6)
    assert max(alt.trace["svm_value"]) <= cone.objective * (1 + 1e-6)


def test_two_classes_reduce_to_the_binary_robust_svm():
    cp = pytest.importorskip("cvxpy")
    X, y = toy_multiclass(60, n_classes=2, random_state=3)
    ypm = np.where(y == 1, 1.0, -1.0)
    C, delta = 1.0, 0.3
    # (A.8) with K = 2 and W = (-w/2, w/2) is half of (A.2)/(A.5) with C' = 2C and no bias
    w = np.random.default_rng(3).normal(size=2)
    assert multiclass_asvc_objective(np.vstack([-w / 2, w / 2]), X, y, delta, C) == pytest.approx(
        0.5 * asvc_objective(w, 0.0, X, ypm, delta, 2 * C), rel=1e-12)
    alt = multiclass_asvc_alternate(X, y, delta, C, random_state=0)
    assert alt.success
    np.testing.assert_allclose(alt.W.sum(axis=0), 0.0, atol=1e-12)
    v = cp.Variable(2)
    prob = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(v) + 2 * C * cp.sum(cp.pos(1 - cp.multiply(ypm, X @ v)
                                                                                   + delta * cp.norm(v)))))
    prob.solve(solver="CLARABEL")
    np.testing.assert_allclose(alt.W[1] - alt.W[0], v.value, rtol=1e-4, atol=1e-5)
    assert alt.objective == pytest.approx(0.5 * prob.value, rel=1e-6)


def test_multiclass_asvc_alternate_bad_inputs():
    X, y = toy_multiclass(30, n_classes=3, random_state=4)
    with pytest.raises(ValueError, match="delta"):
        multiclass_asvc_alternate(X, y, -0.1)
    with pytest.raises(ValueError, match="every class"):
        multiclass_asvc_alternate(X, np.where(y == 1, 2, y), 0.1)
    with pytest.raises(ValueError, match="class indices"):
        multiclass_asvc_alternate(X, y + 0.5, 0.1)
    Xn = X.copy()
    Xn[0, 0] = np.inf
    with pytest.raises(ValueError, match="X"):
        multiclass_asvc_alternate(Xn, y, 0.1)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        assert multiclass_asvc_alternate(X, y, 0.0, random_state=0).success
