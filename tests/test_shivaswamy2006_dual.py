"""The dual (47) of the W-form (44) against the primal, and the KKT insights of 004 section 7.1."""
import numpy as np
import pytest

from robustpapers.shivaswamy2006 import robust_svm_dual, robust_svm_w, worst_case_points


def _problem(seed=0, n=40, d=3, sep=1.0, frac=0.6, rank=2):
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    X = rng.standard_normal((n, d)) + sep * y[:, None] / np.sqrt(d)
    S = []
    for _ in range(n):
        if rng.uniform() < frac:
            A = rng.standard_normal((d, rank)) * 0.3
            S.append(A @ A.T)
        else:
            S.append(None)
    return X, y, S


@pytest.mark.parametrize("W", [0.5, 1.0])
def test_dual_47_strong_duality_and_recovered_w(W):
    X, y, S = _problem(0)
    g = 1.5
    p = robust_svm_w(X, y, S, gamma=g, W=W)
    d = robust_svm_dual(X, y, S, gamma=g, W=W)
    assert d.success and p.success
    # primal (44) and dual (47) objectives agree (strong duality of the SOCP pair)
    assert d.objective == pytest.approx(p.objective, rel=1e-6, abs=1e-7)
    # (49): w recovered from the dual variables alone is the primal optimum; b is the multiplier of (47b)
    np.testing.assert_allclose(d.w, p.w, atol=1e-4)
    assert d.b == pytest.approx(p.b, abs=1e-4)
    # delta > 0 for this non-separable data, so ||w|| = W (48f); the two deltas are the same multiplier
    assert d.delta > 1e-3
    assert np.linalg.norm(p.w) == pytest.approx(W, rel=1e-6)
    assert d.delta == pytest.approx(p.delta, rel=1e-5)
    # (48b), (48c): sum lambda y = 0 and 0 <= lambda <= 1, the same multipliers as the primal's
    assert abs(d.lam @ y) < 1e-6
    np.testing.assert_allclose(d.lam, p.dual, atol=1e-3)


def test_dual_kkt_insights_worst_case_points_and_touching_ellipsoids():
    X, y, S = _problem(1, n=50)
    g, W = 1.5, 0.8
    p = robust_svm_w(X, y, S, gamma=g, W=W)
    d = robust_svm_dual(X, y, S, gamma=g, W=W)
    wc = worst_case_points(p.w, X, y, S, g)
    has_u = np.array([u is not None for u in d.u])
    assert has_u.sum() >= 10
    # insight 3: u_i is the unit vector along -y_i Sigma_i^{1/2} w, so the point the dual picks from the
    # ellipsoid is the worst-case point of Lemma 2 (and w, by (49), a combination of worst-case points)
    np.testing.assert_allclose(d.points[has_u], wc[has_u], atol=2e-4)
    for i in np.flatnonzero(has_u):
        assert np.linalg.norm(d.u[i]) == pytest.approx(1.0, abs=1e-4)
    np.testing.assert_allclose(d.w, (W / d.delta) * (d.lam * y) @ wc, atol=2e-4)
    # which ellipsoids touch the margin: 0 < lambda < 1 -> worst-case point exactly on y f = 1 (48c, 48e);
    # lambda = 0 -> on or beyond the margin; a crossing ellipsoid (y f(x_wc) < 1, xi > 0) has lambda = 1
    m = y * (wc @ p.w + p.b)
    free = (d.lam > 1e-4) & (d.lam < 1 - 1e-4)
    zero = d.lam < 1e-6
    assert free.sum() >= 1 and zero.sum() >= 1
    np.testing.assert_allclose(m[free], 1.0, atol=1e-5)
    assert np.all(m[zero] >= 1 - 1e-6)
    crossing = m < 1 - 1e-4
    assert crossing.sum() >= 1
    np.testing.assert_allclose(d.lam[crossing], 1.0, atol=1e-5)
    np.testing.assert_allclose(p.xi[crossing], 1 - m[crossing], atol=1e-5)
    # beta_i xi_i = 0 with beta = 1 - lambda
    assert np.all((1 - d.lam) * p.xi < 1e-5)


def test_dual_gamma_zero_is_the_svm_dual_and_inactive_ball():
    X, y, S = _problem(2, n=30)
    # insight 1: gamma = 0 drops every u_i; the dual is the (W-form) SVM dual, same optimum as the primal
    d0 = robust_svm_dual(X, y, S, gamma=0.0, W=0.7)
    p0 = robust_svm_w(X, y, None, gamma=0.0, W=0.7)
    assert all(u is None for u in d0.u)
    assert d0.objective == pytest.approx(p0.objective, rel=1e-6)
    np.testing.assert_allclose(d0.w, p0.w, atol=1e-4)
    # separable data and a loose bound: delta = 0, the objective (0 = sum xi) still matches, w is undetermined
    Xs = np.array([[2.0, 0.0], [3.0, 1.0], [-2.0, 0.0], [-3.0, -1.0]])
    ys = np.array([1.0, 1.0, -1.0, -1.0])
    ds = robust_svm_dual(Xs, ys, None, W=10.0)
    assert ds.objective == pytest.approx(0.0, abs=1e-7)
    assert ds.delta < 1e-7 and np.all(np.isnan(ds.w))


def test_dual_bad_inputs():
    X, y, S = _problem(3, n=10)
    with pytest.raises(ValueError, match="W"):
        robust_svm_dual(X, y, S, gamma=1.0, W=0.0)
    with pytest.raises(ValueError, match="gamma"):
        robust_svm_dual(X, y, S, gamma=-1.0, W=1.0)
    with pytest.raises(ValueError, match="Sigmas"):
        robust_svm_dual(X, y, S[:5], gamma=1.0, W=1.0)
    with pytest.raises(ValueError, match="rows"):
        robust_svm_dual(X, y[:5], None, W=1.0)
    bad = [None] * 10
    bad[0] = -np.eye(3)
    with pytest.raises(ValueError, match="Sigmas"):
        robust_svm_dual(X, y, bad, gamma=1.0, W=1.0)
