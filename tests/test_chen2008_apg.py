"""APG-FW (robustpapers.chen2008.indefinite_svm_apg): the same optimum as Algorithm 1 and as an SDP in cvxpy."""
import warnings

import cvxpy as cp
import numpy as np
import pytest
from scipy.optimize import linprog

from robustpapers.core import ConvergenceWarning
from robustpapers.chen2008 import (
    dual_value, frank_wolfe_gap, indefinite_svm, indefinite_svm_apg, most_violated_kernel, siqclp_objective,
)


def _problem(n, seed, xi=0.5):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=n) > 0, 1.0, -1.0)
    E = rng.normal(size=(n, n))
    K0 = np.exp(-0.5 * ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)) + xi * (E + E.T) / 2
    return K0, y


def _cvxpy_optimum(K0, y, C, rho):
    """min_{K PSD} [max_alpha e'a - a'YKYa/2] + rho ||K - K0||^2 (the min-max form of chen2008 eq. (2)), with the
    SVM dual value as an SDP (Lanckriet et al. 2004): a saddle point, so the same optimum as max-min."""
    n = y.size
    K = cp.Variable((n, n), PSD=True)
    t, lam = cp.Variable(), cp.Variable()
    nu, mu = cp.Variable(n, nonneg=True), cp.Variable(n, nonneg=True)
    Y = np.diag(y)
    w = np.ones(n) + nu - mu + lam * y
    M = cp.bmat([[Y @ K @ Y, cp.reshape(w, (n, 1))], [cp.reshape(w, (1, n)), cp.reshape(2 * (t - C * cp.sum(mu)), (1, 1))]])
    prob = cp.Problem(cp.Minimize(t + rho * cp.sum_squares(K - K0)), [(M + M.T) / 2 >> 0])
    prob.solve(solver="CLARABEL")
    return prob.value


def test_dual_value_is_S_at_the_proxy_kernel_and_its_gradient_is_danskins():
    K0, y = _problem(15, 0)
    rng = np.random.default_rng(1)
    a = rng.uniform(0, 1, 15)
    f, g = dual_value(K0, y, a, rho=0.7)
    K = most_violated_kernel(K0, y, a, 0.7)
    assert np.isclose(f, siqclp_objective(a, K, K0, y, 0.7), rtol=1e-12)
    assert np.allclose(g, 1.0 - y * (K @ (y * a)), atol=1e-10)
    h, d = 1e-6, rng.normal(size=15)
    fd = (dual_value(K0, y, a + h * d, 0.7)[0] - dual_value(K0, y, a - h * d, 0.7)[0]) / (2 * h)
    assert np.isclose(fd, g @ d, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_frank_wolfe_gap_is_the_linear_program(seed):
    rng = np.random.default_rng(seed)
    n, C = 9, 0.7
    y = np.where(rng.random(n) < 0.4, 1.0, -1.0)
    y[0], y[1] = 1.0, -1.0
    g, a = rng.normal(size=n), rng.uniform(0, C, n)
    lp = linprog(-g, A_eq=y[None, :], b_eq=[0.0], bounds=[(0, C)] * n, method="highs")
    assert np.isclose(frank_wolfe_gap(g, a, y, C), -lp.fun - g @ a, atol=1e-10)


@pytest.mark.parametrize("rho", [0.1, 1.0, 10.0])
def test_apg_reaches_the_optimum_of_algorithm1_and_of_cvxpy(rho):
    K0, y = _problem(10, 3)
    apg = indefinite_svm_apg(K0, y, C=1.0, rho=rho, tol=1e-7)
    assert apg.success and apg.gap <= 1e-7
    alg1 = indefinite_svm(K0, y, C=1.0, rho=rho, tol=1e-7, max_iter=3000)
    assert alg1.success
    # both certified: each one's lower bound is below the other's upper bound
    assert apg.objective <= np.min(alg1.upper[1:]) + 1e-9 and alg1.objective <= apg.upper + 1e-9
    assert np.isclose(apg.objective, _cvxpy_optimum(K0, y, 1.0, rho), rtol=1e-5, atol=1e-5)


def test_warm_start_gives_the_same_certified_optimum():
    K0, y = _problem(30, 4)
    prev = indefinite_svm_apg(K0, y, 1.0, 10.0, tol=1e-8)
    cold = indefinite_svm_apg(K0, y, 1.0, 1.0, tol=1e-8)
    warm = indefinite_svm_apg(K0, y, 1.0, 1.0, tol=1e-8, alpha0=prev.alpha)
    assert cold.success and warm.success
    assert abs(cold.objective - warm.objective) <= 1e-8


def test_apg_warns_naming_max_iter_and_reports_an_honest_gap():
    K0, y = _problem(30, 5)
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        res = indefinite_svm_apg(K0, y, 1.0, 0.1, tol=1e-12, max_iter=2)
    assert not res.success and res.gap > 1e-12 and res.upper >= res.objective
    assert res.message == "max_iter reached"


@pytest.mark.parametrize("kwargs, match", [(dict(rho=0.0), "rho"), (dict(tol=-1.0), "tol"),
                                           (dict(max_iter=0), "max_iter"), (dict(rel_tol=-1.0), "rel_tol")])
def test_apg_bad_inputs_raise(kwargs, match):
    K0, y = _problem(6, 6)
    args = dict(C=1.0, rho=1.0) | kwargs
    with pytest.raises(ValueError, match=match):
        indefinite_svm_apg(K0, y, **args)


def test_classifier_with_the_apg_solver_certifies_and_predicts_like_algorithm1():
    from robustpapers.chen2008 import IndefiniteSVC

    K0, y = _problem(30, 7)
    a = IndefiniteSVC("siqclp", "precomputed", rho=1.0, tol=1e-7, solver="apg").fit(K0, y)
    b = IndefiniteSVC("siqclp", "precomputed", rho=1.0, tol=1e-7, max_iter=3000, solver="algorithm1").fit(K0, y)
    assert a.result_.success and a.result_.gap <= 1e-7
    assert abs(a.result_.objective - b.result_.objective) <= 2e-7
    assert (a.predict(K0) == b.predict(K0)).mean() >= 0.9
    with pytest.raises(ValueError, match="solver"):
        IndefiniteSVC("siqclp", "precomputed", solver="newton").fit(K0, y)
