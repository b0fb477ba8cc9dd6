"""Extensions of 004 section 4: multiclass (20), vertex sets (Table 1), Theorem 3."""
import math

import cvxpy as cp
import numpy as np
import pytest

from robustpapers.shivaswamy2006 import (
    calafiore_campi_n, robust_multiclass_svm, robust_svm, sample_ellipsoid, vertex_svm,
)


def _sqrt(S):
    ev, V = np.linalg.eigh(S)
    return (V * np.sqrt(np.clip(ev, 0, None))) @ V.T


def test_calafiore_campi_n_formula():
    for eps, beta, d in [(0.1, 0.01, 3), (0.05, 1e-3, 10), (0.5, 0.5, 1)]:
        N = calafiore_campi_n(eps, beta, d)
        bound = 2 * (d / eps * math.log(1 / eps) + math.log(1 / beta) / eps + d)
        assert N >= bound > N - 1
    # N grows linearly in the dimension (the paper's caveat for kernels)
    n1, n2 = calafiore_campi_n(0.1, 0.01, 10), calafiore_campi_n(0.1, 0.01, 20)
    assert n2 - n1 == pytest.approx(2 * 10 * (math.log(10) / 0.1 + 1), abs=1)
    for bad in [(0.0, 0.1, 2), (0.1, 1.0, 2), (0.1, 0.1, 0)]:
        with pytest.raises(ValueError):
            calafiore_campi_n(*bad)


def test_sampled_problem_violation_below_epsilon():
    """Solve (23) with Theorem 3's N samples per ellipsoid; fresh samples violate each pattern's
    constraint with probability <= epsilon (the theorem's event, probability >= 1 - beta)."""
    rng = np.random.default_rng(0)
    n, d = 8, 2
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    X = rng.standard_normal((n, d)) + 2.0 * y[:, None]
    L = [0.5 * np.eye(d)] * n
    eps, beta = 0.1, 1e-3
    N = calafiore_campi_n(eps, beta, d + 1 + n)  # theta = (w, b, xi)
    V = [sample_ellipsoid(X[i], L[i], 1.0, N, random_state=rng) for i in range(n)]
    res = vertex_svm(V, y, C=10.0)
    for i in range(n):
        fresh = sample_ellipsoid(X[i], L[i], 1.0, 20000, random_state=rng)
        viol = np.mean(y[i] * (fresh @ res.w + res.b) < 1 - res.xi[i] - 1e-9)
        assert viol <= eps
    # and the sampled solution is close to the exact ellipsoid SOCP (10) from inside
    exact = robust_svm(X, y, [Li @ Li.T for Li in L], gamma=1.0, C=10.0)
    assert res.objective <= exact.objective + 1e-6


def test_vertex_svm_on_boxes_matches_l1_robust_form():
    """Range constraints (box = convex hull of its 2^d vertices) equal the closed-form worst case
    y(w'c + b) - ||r o w||_1 >= 1 - xi."""
    rng = np.random.default_rng(1)
    n, d = 10, 2
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    Cn = rng.standard_normal((n, d)) + 1.5 * y[:, None]
    R = rng.uniform(0.1, 0.5, (n, d))
    corners = np.array([[sx, sy] for sx in (-1, 1) for sy in (-1, 1)], dtype=float)
    V = [Cn[i] + corners * R[i] for i in range(n)]
    res = vertex_svm(V, y, C=1.0)
    w, b, xi = cp.Variable(d), cp.Variable(), cp.Variable(n, nonneg=True)
    cons = [y[i] * (Cn[i] @ w + b) - cp.norm1(cp.multiply(R[i], w)) >= 1 - xi[i] for i in range(n)]
    prob = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(w) + cp.sum(xi)), cons)
    prob.solve(solver="CLARABEL")
    assert res.objective == pytest.approx(prob.value, rel=1e-6)
    np.testing.assert_allclose(res.w, w.value, atol=1e-5)


def test_multiclass_matches_independent_formulation_and_binary_case():
    rng = np.random.default_rng(2)
    n, d, k = 15, 3, 3
    y = np.arange(n) % k
    means = 2.5 * np.eye(k, d)
    X = means[y] + 0.6 * rng.standard_normal((n, d))
    S = [None if i % 3 == 0 else (lambda A: A @ A.T)(0.4 * rng.standard_normal((d, 2))) for i in range(n)]
    g, C = 1.0, 2.0
    res = robust_multiclass_svm(X, y, S, gamma=g, C=C)
    W, xi = cp.Variable((k, d)), cp.Variable(n, nonneg=True)
    cons = []
    for i in range(n):
        for c in range(k):
            if c == y[i]:
                continue
            dvec = W[y[i]] - W[c]
            rhs = 1 - xi[i] + (g * cp.norm(_sqrt(S[i]) @ dvec) if S[i] is not None else 0)
            cons.append(X[i] @ dvec >= rhs)
    prob = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(W) + C * cp.sum(xi)), cons)
    prob.solve(solver="CLARABEL")
    assert res.objective == pytest.approx(prob.value, rel=1e-6)
    np.testing.assert_allclose(res.W, W.value, atol=1e-4)
    # two classes: w_1 - w_0 = v solves the bias-free binary problem with C' = 2C (objective /2)
    yb = (np.arange(12) % 2)
    Xb = rng.standard_normal((12, 2)) + 1.5 * (2 * yb[:, None] - 1)
    Sb = [0.2 * np.eye(2)] * 12
    mc = robust_multiclass_svm(Xb, yb, Sb, gamma=1.0, C=1.0)
    v = cp.Variable(2)
    xb = cp.Variable(12, nonneg=True)
    sgn = 2.0 * yb - 1
    cons = [sgn[i] * (Xb[i] @ v) >= 1 - xb[i] + cp.norm(_sqrt(Sb[i]) @ v) for i in range(12)]
    pb = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(v) + 2.0 * cp.sum(xb)), cons)
    pb.solve(solver="CLARABEL")
    np.testing.assert_allclose(mc.W[1] - mc.W[0], v.value, atol=2e-4)
    assert mc.objective == pytest.approx(pb.value / 2, rel=1e-6)
    np.testing.assert_allclose(mc.W[1], -mc.W[0], atol=1e-5)


def test_multiclass_bad_labels():
    X = np.zeros((4, 2))
    with pytest.raises(ValueError, match="integer"):
        robust_multiclass_svm(X, np.array([0.5, 1, 0, 1]))
    with pytest.raises(ValueError, match="every class"):
        robust_multiclass_svm(X, np.array([0, 2, 0, 2]))


def test_cv_kernel_gamma_picks_least_validation_error():
    """Fig. 8 protocol: q by cross-validation on incomplete training data (ties to the smaller q)."""
    from robustpapers.shivaswamy2006 import KernelRobustMissingSVC, delete_entries
    from robustpapers.reproduce.shivaswamy2006.experiments import ball_shell_data, cv_kernel_gamma

    rng = np.random.default_rng(8)
    X, y = ball_shell_data(25, rng)
    Xm = delete_entries(X, 0.5, 0.0, rng, n_delete=3)
    grid = [1.0, 0.01, 0.1]
    q, err = cv_kernel_gamma(Xm, y, grid, n_folds=2, random_state=3)
    best = min(err)
    assert q == min(g for g, e in zip(grid, err) if e == best)
    assert all(0.0 <= e <= 1.0 for e in err)
    # the errors are those of the nominal kernelised classifier on the same stratified folds
    from sklearn.model_selection import StratifiedKFold
    folds = StratifiedKFold(2, shuffle=True, random_state=3).split(Xm, y)
    e1 = np.mean([np.mean(KernelRobustMissingSVC(gamma=0.0, kernel_gamma=1.0).fit(Xm[a], y[a]).predict(Xm[b]) != y[b])
                  for a, b in folds])
    assert err[0] == pytest.approx(e1)
