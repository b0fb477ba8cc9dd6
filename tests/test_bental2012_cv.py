"""bental2012 Figs. 3-4: RSVM's support information from a kernel set (000 §7.1.2) and the CV task."""
import math
import warnings

import cvxpy as cp
import numpy as np
import pytest

from robustpapers.bental2012 import make_uncertain_dataset, robust_objective, rsvm_beta_from_kernels, rsvm_kappa
from robustpapers.bhadra2010 import kappa_finite_support
from robustpapers.reproduce.bental2012.experiments import cv_task
from robustpapers.reproduce.bental2012.rsvm_baseline import rsvm_on_kernel_set


def _sym(rng, n):
    A = rng.uniform(0.0, 1.0, (n, n))
    return (A + A.T) / 2


def test_symmetric_support_gives_beta_equal_to_half_range_squared():
    """For K_bar +- D the noise is supported on [-D, D] with zero centre: mu = 0, gamma(0) = 1, so
    beta = l^2 = D^2 (000 Theorem 1); entries with D = 0 are certain (beta = 0)."""
    rng = np.random.default_rng(0)
    n = 5
    K0 = _sym(rng, n) + n * np.eye(n)
    D = _sym(rng, n)
    D[0, 1] = D[1, 0] = 0.0
    K_bar, beta = rsvm_beta_from_kernels(np.stack([K0 - D, K0 + D, K0]))
    np.testing.assert_allclose(K_bar, K0, rtol=0, atol=1e-12)
    np.testing.assert_allclose(beta, D**2, rtol=1e-9, atol=1e-15)
    assert beta[0, 1] == 0.0


def test_beta_is_the_mean_centred_support_on_paper_data():
    """On D_G data: K_bar is the mean of the K_l, beta is symmetric and non-negative, and
    beta <= ((b - a)/2)^2 since gamma(mu) <= 1 (a centred support can only shrink the bound)."""
    ds = make_uncertain_dataset("gaussian", 6, 4, random_state=3)
    K_bar, beta = rsvm_beta_from_kernels(ds.K_stack)
    np.testing.assert_allclose(K_bar, ds.K_stack.mean(axis=0))
    np.testing.assert_array_equal(beta, beta.T)
    assert np.all(beta >= 0)
    half = (ds.K_stack.max(axis=0) - ds.K_stack.min(axis=0)) / 2
    assert np.all(beta <= half**2 * (1 + 1e-9) + 1e-300)
    assert np.any(beta > 0)


def test_rsvm_on_kernel_set_matches_cvxpy_for_rank_one_beta():
    """With the set {K0 - dd', K0 + dd'} (d >= 0), beta = (d^2)(d^2)' is rank one and 000 eq. (7) becomes the
    QP max e'a - a'YK0Ya/2 - kappa/2 sum_i d_i^2 a_i^2 over S_n: solved independently by cvxpy."""
    rng = np.random.default_rng(1)
    n = 10
    X = rng.standard_normal((n, 3))
    y = np.where(X[:, 0] + 0.3 * rng.standard_normal(n) > 0, 1.0, -1.0)
    y[:2] = [1.0, -1.0]
    K0 = X @ X.T + 0.1 * np.eye(n)
    d = rng.uniform(0.0, 0.6, n)
    C, eps = 2.0, 0.1
    kappa = math.sqrt(2 * math.log(1 / eps))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = rsvm_on_kernel_set(np.stack([K0 - np.outer(d, d), K0 + np.outer(d, d)]), y, C, eps, method="qn",
                                 n_starts=4, random_state=0)
    a = cp.Variable(n)
    R = np.linalg.cholesky(K0).T
    obj = cp.sum(a) - 0.5 * cp.sum_squares(R @ cp.multiply(y, a)) - 0.5 * kappa * cp.sum(cp.multiply(d**2, cp.square(a)))
    prob = cp.Problem(cp.Maximize(obj), [a >= 0, a <= C, y @ a == 0])
    prob.solve(solver=cp.CLARABEL)
    assert prob.status == "optimal"
    assert res.kappa == pytest.approx(kappa)
    assert res.objective == pytest.approx(prob.value, rel=1e-5)
    np.testing.assert_allclose(res.alpha, a.value, atol=1e-3 * C)


def test_rsvm_kappa_is_the_finite_support_kappa_and_extends_to_eps_half():
    assert rsvm_kappa(0.05) == pytest.approx(kappa_finite_support(0.05))
    assert rsvm_kappa(0.5) == pytest.approx(math.sqrt(2 * math.log(2)))


@pytest.mark.parametrize("eps", [0.0, 1.0, -0.1, 1.5, "x", None])
def test_rsvm_kappa_rejects_eps_outside_0_1(eps):
    with pytest.raises(ValueError, match="eps"):
        rsvm_kappa(eps)


@pytest.mark.parametrize("stack, match", [
    (np.eye(3), "K_stack"),
    (np.ones((2, 3, 4)), "square"),
    (np.full((2, 2, 2), np.nan), "NaN"),
])
def test_rsvm_beta_from_kernels_rejects_bad_stacks(stack, match):
    with pytest.raises(ValueError, match=match):
        rsvm_beta_from_kernels(stack)


def test_rsvm_on_kernel_set_rejects_bad_eps_and_labels():
    K = np.stack([np.eye(4), 2 * np.eye(4)])
    with pytest.raises(ValueError, match="eps"):
        rsvm_on_kernel_set(K, np.array([1, -1, 1, -1]), 1.0, 0.0)
    with pytest.raises(ValueError):
        rsvm_on_kernel_set(K, np.array([1, 2, 1, 2]), 1.0, 0.1)


def test_cv_task_solvers_agree_and_metrics_are_consistent():
    """One fold of Figs. 3-4 on a tiny D_U set: USSVM_SOCP and USSVM_MN reach the same optimum of (12)
    within MN's certificate, the nominal SVM's alpha is no better for F (SOCP maximises it), ME <= RE for
    every method, and RSVM's results are aligned with the eps grid."""
    eps_grid = [0.1, 0.5]
    out = cv_task("uniform", N=6, L=3, C=1.0, eps_grid=eps_grid, kappa=1.0, R=20, fold=0, n_folds=3,
                  dataset_index=0, seed=0, rsvm_starts=2, fss_tol=1e-4, fss_max_iter=4000)
    assert out["socp_status"] == "optimal"
    F_socp, F_mn = out["socp_objective"], out["mn_objective"]
    tol = 1e-6 * abs(F_socp)
    assert F_mn <= F_socp + tol
    if out["mn_success"]:
        assert F_socp <= F_mn + out["mn_gap"] + tol
    assert out["svm_objective"] <= F_socp + tol
    for m in ("svm", "socp", "mn"):
        assert 0 <= out[f"{m}_ME"] <= out[f"{m}_RE"] <= 1
        assert out[f"{m}_time"] > 0
    for k in ("NE", "ME", "RE", "time", "objective", "success"):
        assert len(out[f"rsvm_{k}"]) == len(eps_grid)
    assert all(me <= re for me, re in zip(out["rsvm_ME"], out["rsvm_RE"]))
    # a larger eps is a weaker chance constraint (smaller kappa): RSVM's optimum of (7) can only grow
    assert out["rsvm_objective"][1] >= out["rsvm_objective"][0] - 1e-6 * abs(out["rsvm_objective"][0])
