"""project_svm_set: exact Euclidean projection onto {0 <= a <= C, y'a = 0}."""
import cvxpy as cp
import numpy as np
import pytest

from robustpapers.core import project_svm_set


def _cvxpy_projection(v, y, C):
    a = cp.Variable(v.size)
    prob = cp.Problem(cp.Minimize(cp.sum_squares(a - v)), [a >= 0, a <= C, y @ a == 0])
    prob.solve(solver=cp.CLARABEL, tol_gap_abs=1e-12, tol_gap_rel=1e-12, tol_feas=1e-12)
    return a.value


@pytest.mark.parametrize("n", [2, 7, 40, 200])
@pytest.mark.parametrize("C", [0.3, 1.0, 50.0])
def test_matches_generic_qp(rng, n, C):
    for _ in range(5):
        y = rng.choice([-1.0, 1.0], size=n)
        y[0], y[1] = 1.0, -1.0
        v = rng.normal(scale=2 * C, size=n)
        a = project_svm_set(v, y, C)
        ref = _cvxpy_projection(v, y, C)
        assert np.max(np.abs(a - ref)) < 1e-6 * max(1.0, C)
        assert np.sum((a - v) ** 2) <= np.sum((ref - v) ** 2) + 1e-9


def test_kkt_conditions_to_machine_precision(rng):
    n, C = 1000, 2.0
    y = rng.choice([-1.0, 1.0], size=n)
    v = rng.normal(scale=3.0, size=n)
    a = project_svm_set(v, y, C)
    assert abs(a @ y) < 1e-10 * n
    assert a.min() >= 0 and a.max() <= C
    # a = clip(v - lam y): the multiplier is the same for every free coordinate.
    free = (a > 1e-12) & (a < C - 1e-12)
    lam = (v[free] - a[free]) * y[free]
    assert np.ptp(lam) < 1e-10
    lam = lam.mean()
    assert np.all(v[a <= 1e-12] - lam * y[a <= 1e-12] <= 1e-10)
    assert np.all(v[a >= C - 1e-12] - lam * y[a >= C - 1e-12] >= C - 1e-10)


def test_fixed_points_and_single_class(rng):
    y = np.array([1.0, -1.0, 1.0, -1.0])
    feasible = np.array([0.5, 0.25, 0.25, 0.5])
    assert np.allclose(project_svm_set(feasible, y, 1.0), feasible)
    # With one class the only feasible point is 0.
    assert np.allclose(project_svm_set(rng.normal(size=3), np.ones(3), 1.0), 0.0)


def test_bad_input():
    with pytest.raises(ValueError, match="C"):
        project_svm_set(np.ones(2), np.array([1, -1]), 0.0)
    with pytest.raises(ValueError, match="same shape"):
        project_svm_set(np.ones(3), np.array([1, -1]), 1.0)
    with pytest.raises(ValueError, match="NaN"):
        project_svm_set(np.array([np.nan, 1.0]), np.array([1, -1]), 1.0)
    with pytest.raises(ValueError, match="values in"):
        project_svm_set(np.ones(2), np.array([1, 2]), 1.0)
