"""The plain SVM wrapper: agreement with an independent cvxpy dual, bias and decision function."""
import cvxpy as cp
import numpy as np
import pytest

from robustpapers.core import decision_function, linear_kernel, rbf_kernel, svm_bias, svm_dual, svm_dual_objective


def _blobs(rng, n=60, d=3, sep=1.5):
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    X = rng.normal(size=(n, d)) + sep * y[:, None]
    return X, y


def _cvxpy_dual(K, y, C):
    n = y.size
    a = cp.Variable(n)
    L = np.linalg.cholesky(K + 1e-10 * np.eye(n))
    obj = cp.Maximize(cp.sum(a) - 0.5 * cp.sum_squares(L.T @ cp.multiply(y, a)))
    cp.Problem(obj, [a >= 0, a <= C, y @ a == 0]).solve(solver=cp.CLARABEL)
    return a.value


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
def test_dual_objective_matches_cvxpy(rng, kernel):
    X, y = _blobs(rng)
    K = linear_kernel(X) if kernel == "linear" else rbf_kernel(X, gamma=0.5)
    C = 1.0
    sol = svm_dual(K, y, C, tol=1e-10)
    ref = _cvxpy_dual(K, y, C)
    assert abs(sol.objective - svm_dual_objective(K, y, ref)) < 1e-5 * max(1, abs(sol.objective))
    assert abs(sol.alpha @ y) < 1e-8
    assert sol.alpha.min() >= 0 and sol.alpha.max() <= C + 1e-12


def test_bias_and_decision_function(rng):
    X, y = _blobs(rng, sep=0.7)
    K = rbf_kernel(X, gamma=0.3)
    sol = svm_dual(K, y, 2.0, tol=1e-10)
    assert abs(svm_bias(K, y, sol.alpha, 2.0) - sol.b) < 1e-4
    f = decision_function(K, y, sol.alpha, sol.b)
    # KKT: free support vectors sit on the margin.
    free = (sol.alpha > 1e-6) & (sol.alpha < 2.0 - 1e-6)
    assert free.any() and np.allclose(y[free] * f[free], 1.0, atol=1e-3)


def test_bad_input(rng):
    X, y = _blobs(rng, n=10)
    K = linear_kernel(X)
    with pytest.raises(ValueError, match="C must be > 0"):
        svm_dual(K, y, -1.0)
    with pytest.raises(ValueError, match="rows"):
        svm_dual(K[:5], y, 1.0)
    with pytest.raises(ValueError, match="NaN"):
        svm_dual(np.where(np.eye(10) > 0, np.nan, K), y, 1.0)
    with pytest.raises(ValueError, match="symmetric"):
        svm_dual(K + np.triu(np.ones_like(K), 1), y, 1.0)
    with pytest.raises(ValueError, match="values in"):
        svm_dual(K, np.arange(10), 1.0)


def test_support_vectors_threshold_and_fallback():
    from robustpapers.core import support_vectors

    a = np.array([0.0, 1e-9, 3e-3, 1.0])
    np.testing.assert_array_equal(support_vectors(a, C=1.0), [False, False, True, True])
    # alpha << C: nothing passes rtol * C, the threshold becomes relative to the largest entry
    np.testing.assert_array_equal(support_vectors(1e-5 * a, C=100.0), [False, False, True, True])
    assert not support_vectors(np.zeros(3), C=1.0).any()
    # floor: entries at most floor * max alpha are not support vectors (an approximate solver's zeros)
    np.testing.assert_array_equal(support_vectors([4e-5, 0.02, 0.1], C=0.1, floor=1e-3), [False, True, True])
    with pytest.raises(ValueError, match="floor"):
        support_vectors(a, C=1.0, floor=1.0)
