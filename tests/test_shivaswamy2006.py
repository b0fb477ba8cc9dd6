"""Property tests of the shivaswamy2006 solvers (seeded, small)."""
import cvxpy as cp
import numpy as np
import pytest
from scipy import stats
from sklearn.svm import SVC

from robustpapers.shivaswamy2006 import (
    class_moments, classification_errors, conditional_moments, delete_entries, em_gaussian,
    expected_error_mc, gamma_chebyshev, gamma_gaussian, impute_by_fit, regression_errors, robust_svm,
    robust_svm_w, robust_svr_ctm, robust_svr_sr, worst_case_points,
)


def _data(seed=0, n=30, d=3, sep=1.5):
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    X = rng.standard_normal((n, d)) + sep * y[:, None] * np.ones(d) / np.sqrt(d)
    return X, y, rng


def _sqrt(S):
    ev, V = np.linalg.eigh(S)
    return (V * np.sqrt(np.clip(ev, 0, None))) @ V.T


def _sigmas(rng, n, d, frac=0.6, scale=0.3, rank=None):
    out = []
    for i in range(n):
        if rng.uniform() > frac:
            out.append(None)
            continue
        r = d if rank is None else rank
        A = rng.standard_normal((d, r)) * scale
        out.append(A @ A.T)
    return out


# --- gamma (11), (12) -------------------------------------------------------------------------

def test_gamma_chebyshev_inverts_chebyshev_bound():
    kappa = np.linspace(0.01, 0.99, 25)
    g = gamma_chebyshev(kappa)
    # (7)/(13): worst-case probability 1/(1+d^2) with d = gamma equals 1 - kappa
    np.testing.assert_allclose(1.0 / (1.0 + g ** 2), 1.0 - kappa, rtol=1e-12)


def test_gaussian_radius_smaller_than_chebyshev():
    kappa = np.linspace(0.5, 0.999, 50)
    assert np.all(gamma_gaussian(kappa) < gamma_chebyshev(kappa))
    np.testing.assert_allclose(stats.norm.cdf(gamma_gaussian(kappa)), kappa, rtol=1e-12)


@pytest.mark.parametrize("kappa", [0.0, 1.0, -0.2, 1.5, np.nan])
def test_gamma_bad_kappa(kappa):
    with pytest.raises(ValueError, match="kappa"):
        gamma_chebyshev(kappa)
    with pytest.raises(ValueError, match="kappa"):
        gamma_gaussian(kappa)


def test_gamma_gaussian_refuses_nonconvex():
    with pytest.raises(ValueError, match="non-convex"):
        gamma_gaussian(0.3)


# --- SOCP (10) --------------------------------------------------------------------------------

def test_gamma_zero_is_sklearn_linear_svc():
    X, y, rng = _data(1, n=40)
    S = _sigmas(rng, 40, 3)
    C = 0.7
    res = robust_svm(X, y, S, gamma=0.0, C=C)
    svc = SVC(kernel="linear", C=C, tol=1e-10).fit(X, y)
    np.testing.assert_allclose(res.w, svc.coef_.ravel(), atol=1e-5)
    assert abs(res.b - svc.intercept_[0]) < 1e-4
    hinge = np.maximum(0, 1 - y * (X @ res.w + res.b))
    assert res.objective == pytest.approx(0.5 * res.w @ res.w + C * hinge.sum(), rel=1e-6)


def test_matches_independent_cvxpy_with_full_square_roots():
    X, y, rng = _data(2, n=24)
    S = _sigmas(rng, 24, 3, rank=2)
    g, C = 1.3, 2.0
    res = robust_svm(X, y, S, gamma=g, C=C)
    w, b, xi = cp.Variable(3), cp.Variable(), cp.Variable(24, nonneg=True)
    cons = []
    for i in range(24):
        rhs = 1 - xi[i]
        if S[i] is not None:
            rhs = rhs + g * cp.norm(_sqrt(S[i]) @ w)
        cons.append(y[i] * (X[i] @ w + b) >= rhs)
    prob = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(w) + C * cp.sum(xi)), cons)
    prob.solve(solver="SCS", eps=1e-9, max_iters=200000)
    assert res.objective == pytest.approx(prob.value, rel=1e-4)
    np.testing.assert_allclose(res.w, w.value, atol=2e-3)


def test_sigma_array_and_factors_agree():
    X, y, rng = _data(3, n=20)
    S = np.zeros((20, 3, 3))
    F = []
    for i in range(20):
        L = rng.standard_normal((3, 1)) * 0.5
        S[i] = L @ L.T
        F.append(L)
    a = robust_svm(X, y, S, gamma=1.0, C=1.0)
    b = robust_svm(X, y, gamma=1.0, C=1.0, factors=F)
    np.testing.assert_allclose(a.w, b.w, atol=1e-6)
    assert a.objective == pytest.approx(b.objective, rel=1e-7)


def test_c_form_and_w_form_agree():
    X, y, rng = _data(4, n=30, sep=1.0)
    S = _sigmas(rng, 30, 3)
    g = np.where(np.array([s is None for s in S]), 0.0, 1.5)
    rc = robust_svm(X, y, S, gamma=g, C=0.5)
    W = float(np.linalg.norm(rc.w))
    rw = robust_svm_w(X, y, S, gamma=g, W=W)
    np.testing.assert_allclose(rw.w, rc.w, atol=1e-4)
    assert rw.b == pytest.approx(rc.b, abs=1e-4)
    assert rw.objective == pytest.approx(rc.xi.sum(), rel=1e-5)
    # the W-form's multiplier recovers C: at the optimum lambda_W = lambda_C / C * ... ; (49): w = (W/delta) sum
    wc = worst_case_points(rw.w, X, y, S, g)
    np.testing.assert_allclose(rw.w, (W / rw.delta) * (rw.dual * y) @ wc, atol=1e-4)


def test_ellipsoids_with_zero_slack_on_correct_side_and_kkt():
    X, y, rng = _data(5, n=30)
    S = _sigmas(rng, 30, 3, frac=1.0)
    g, C = 1.0, 1.0
    res = robust_svm(X, y, S, gamma=g, C=C)
    wc = worst_case_points(res.w, X, y, S, g)
    m = y * (wc @ res.w + res.b)
    assert np.all(m >= 1 - res.xi - 1e-6)
    zero = res.xi < 1e-7
    assert zero.sum() >= 5
    assert np.all(m[zero] >= 1 - 1e-6)
    # points sampled inside each such ellipsoid are on the correct side (Lemma 2: wc is the minimiser)
    for i in np.flatnonzero(zero):
        L = _sqrt(S[i])
        u = rng.standard_normal((200, 3))
        u *= (rng.uniform(size=(200, 1)) ** (1 / 3)) / np.linalg.norm(u, axis=1, keepdims=True)
        pts = X[i] + g * u @ L
        assert np.all(y[i] * (pts @ res.w + res.b) >= m[i] - 1e-9)
    # KKT (analogue of (49) for the C-form): w = sum_i lambda_i y_i x_i^wc, 0 <= lambda <= C, sum lambda y = 0
    lam = res.dual
    assert np.all(lam >= -1e-7) and np.all(lam <= C + 1e-7)
    assert abs(lam @ y) < 1e-6
    np.testing.assert_allclose(res.w, (lam * y) @ wc, atol=2e-4)


def test_gaussian_chance_constraint_holds():
    """Theorem 1, normal case: with gamma = Phi^{-1}(kappa), Pr{y(<w,x>+b) >= 1 - xi} >= kappa."""
    X, y, rng = _data(6, n=20)
    S = _sigmas(rng, 20, 3, frac=1.0)
    kappa = 0.9
    res = robust_svm(X, y, S, gamma=gamma_gaussian(kappa), C=1.0)
    for i in range(20):
        pts = rng.multivariate_normal(X[i], S[i], size=20000)
        p = np.mean(y[i] * (pts @ res.w + res.b) >= 1 - res.xi[i])
        assert p >= kappa - 0.01


def test_low_rank_padded_covariance_costs_its_rank():
    X, y, rng = _data(7, n=60, d=5)
    Xm = delete_entries(X, 0.5, 0.4, random_state=1)
    mom = class_moments(Xm, y)
    rows_pos = y == 1
    Xb = np.empty_like(X)
    F = [None] * 60
    for c in (1.0, -1.0):
        idx = np.flatnonzero(y == c)
        Xb[idx], Fc = conditional_moments(Xm[idx], *mom[c])
        for k, i in enumerate(idx):
            F[i] = Fc[k]
    assert all(F[i] is None or F[i].shape[1] == np.isnan(Xm[i]).sum() for i in range(60))
    full = np.array([np.zeros((5, 5)) if L is None else L @ L.T for L in F])
    a = robust_svm(Xb, y, gamma=1.0, C=1.0, factors=F)
    b = robust_svm(Xb, y, full, gamma=1.0, C=1.0)
    np.testing.assert_allclose(a.w, b.w, atol=1e-6)
    assert rows_pos.any()


# --- error measures (section 3.3) -------------------------------------------------------------

def test_expected_error_closed_form_matches_monte_carlo():
    X, y, rng = _data(8, n=25, d=4)
    S = _sigmas(rng, 25, 4, frac=1.0, scale=0.8, rank=None)
    S[3] = np.outer([1, 0, 0, 0], [1, 0, 0, 0]) * 2.0  # rank one
    w, b, g = rng.standard_normal(4), 0.2, 1.5
    cf = classification_errors(w, b, X, y, S, g)["expected"]
    n_mc = 20000
    mc = expected_error_mc(w, b, X, y, S, g, n_samples=n_mc, random_state=0)
    assert np.max(np.abs(cf - mc)) < 4 / (2 * np.sqrt(n_mc))
    assert np.any((cf > 0.05) & (cf < 0.95))


def test_worst_case_error_cases():
    w, b = np.array([1.0, 0.0]), 0.0
    X = np.array([[3.0, 0.0], [-3.0, 0.0], [0.5, 0.0], [0.5, 0.0]])
    y = np.array([1.0, 1.0, 1.0, 1.0])
    S = [np.eye(2), np.eye(2), np.eye(2), None]
    e = classification_errors(w, b, X, y, S, 1.0)
    # Fig. 1's three scenarios: inside correct side, inside wrong side, cut; plus an exact point
    assert e["worst_case"].tolist() == [0.0, 1.0, 1.0, 0.0]
    assert e["expected"][0] == 0.0 and e["expected"][1] == 1.0 and 0 < e["expected"][2] < 0.5
    assert e["actual"].tolist() == [0.0, 1.0, 0.0, 0.0]
    assert np.all(e["actual"] <= e["worst_case"])


# --- missing values (section 6) ---------------------------------------------------------------

def test_em_recovers_known_moments():
    rng = np.random.default_rng(9)
    d = 4
    A = rng.standard_normal((d, d))
    cov = A @ A.T + np.eye(d)
    mean = rng.standard_normal(d)
    X = rng.multivariate_normal(mean, cov, size=4000)
    Xm = delete_entries(X, 0.6, 0.5, random_state=2)
    res = em_gaussian(Xm, tol=1e-8, reg=0.0)
    assert res.success
    # sampling error ~ sqrt(diag / n): compare with the complete-data estimate of the same draw
    np.testing.assert_allclose(res.mean, X.mean(0), atol=0.08)
    np.testing.assert_allclose(res.cov, np.cov(X.T, bias=True), atol=0.25)
    np.testing.assert_allclose(res.mean, mean, atol=0.15)
    np.testing.assert_allclose(res.cov, cov, atol=0.5 * np.max(np.diag(cov)) ** 0.5)
    # a naive mean imputation would shrink the variances; EM does not
    naive = np.where(np.isnan(Xm), np.nanmean(Xm, 0), Xm).var(0)
    assert np.all(np.diag(res.cov) > naive)


def test_conditional_moments_match_precision_form():
    rng = np.random.default_rng(10)
    d = 5
    A = rng.standard_normal((d, d))
    cov = A @ A.T + 0.5 * np.eye(d)
    mean = rng.standard_normal(d)
    x = rng.standard_normal(d)
    miss = np.array([False, True, False, True, True])
    xm = x.copy()
    xm[miss] = np.nan
    Xb, S = conditional_moments(xm[None], mean, cov, factors=False)
    # direct Gaussian conditioning via the precision matrix Lambda = Sigma^{-1}
    P = np.linalg.inv(cov)
    Pmm = P[np.ix_(miss, miss)]
    cmean = mean[miss] - np.linalg.solve(Pmm, P[np.ix_(miss, ~miss)] @ (x[~miss] - mean[~miss]))
    np.testing.assert_allclose(Xb[0, miss], cmean, atol=1e-10)
    np.testing.assert_allclose(Xb[0, ~miss], x[~miss])
    np.testing.assert_allclose(S[0][np.ix_(miss, miss)], np.linalg.inv(Pmm), atol=1e-10)
    assert np.all(S[0][~miss] == 0) and np.all(S[0][:, ~miss] == 0)
    _, F = conditional_moments(xm[None], mean, cov)
    np.testing.assert_allclose(F[0] @ F[0].T, S[0], atol=1e-10)


def test_impute_by_fit_picks_larger_normalised_distance():
    rng = np.random.default_rng(11)
    X, y, _ = _data(11, n=80, d=4)
    Xm = delete_entries(X, 0.5, 0.5, random_state=3)
    mom = class_moments(Xm, y)
    w, b = rng.standard_normal(4), 0.1
    Xb, F, chosen = impute_by_fit(w, b, Xm, mom)
    for c in (1.0, -1.0):
        Xc, Fc = conditional_moments(Xm, *mom[c])
        s = np.array([np.linalg.norm(L.T @ w) if L is not None else 1.0 for L in Fc])
        dc = np.abs(Xc @ w + b) / s
        if c == 1.0:
            dp = dc
        else:
            dm = dc
    inc = np.isnan(Xm).any(1)
    np.testing.assert_array_equal(chosen[inc], np.where(dp > dm, 1.0, -1.0)[inc])
    assert np.all(chosen[~inc] == 0) and np.all(Xb[~inc] == X[~inc])


# --- regression (section 5) -------------------------------------------------------------------

def test_ctm_and_sr_constraints_hold_at_optimum():
    rng = np.random.default_rng(12)
    n, d = 30, 3
    X = rng.standard_normal((n, d))
    y = X @ np.array([1.0, -2.0, 0.5]) + 0.3 + 0.1 * rng.standard_normal(n)
    S = _sigmas(rng, n, d, frac=0.5, scale=0.3)
    eta, eps, W = 0.4, 0.1, 3.0
    r = robust_svr_ctm(X, y, S, eta=eta, epsilon=eps, W=W, D=1.0)
    f = X @ r.w + r.b
    assert np.all(f - y <= eps + r.xi + 1e-6) and np.all(y - f <= eps + r.xi_star + 1e-6)
    assert np.linalg.norm(r.w) <= W + 1e-6
    for i in range(n):
        s = 0.0 if S[i] is None else np.sqrt(r.w @ S[i] @ r.w)
        assert s <= r.theta[i] * np.sqrt(eta) + 1e-6
        assert r.theta[i] == pytest.approx(s / np.sqrt(eta), abs=1e-5)  # tight: theta only costs
    r2 = robust_svr_sr(X, y, S, eta=eta, epsilon=eps, W=W)
    f2 = X @ r2.w + r2.b
    for i in range(n):
        if S[i] is None:
            assert f2[i] - y[i] <= eps + r2.xi[i] + 1e-6 and y[i] - f2[i] <= eps + r2.xi_star[i] + 1e-6
        else:
            lhs = np.sqrt(r2.w @ S[i] @ r2.w + (f2[i] - y[i]) ** 2)
            assert lhs <= (r2.xi[i] + eps) * np.sqrt(eta) + 1e-6
            # Theorem 4 (30) => (28) for every distribution: check a Gaussian one
            pts = rng.multivariate_normal(X[i], S[i], size=5000)
            assert np.mean(np.abs(pts @ r2.w + r2.b - y[i]) >= r2.xi[i] + eps) <= eta
    m = regression_errors(r.w, r.b, X, y, S, 1 / np.sqrt(eta))
    np.testing.assert_allclose(m["worst_case"], m["residual"] + m["robustness"])
    assert np.all(m["expected_residual"] <= m["worst_case"] * np.sqrt(1 + 1 / eta) + 1e-12)


def test_ctm_matches_independent_cvxpy():
    rng = np.random.default_rng(13)
    n, d = 15, 2
    X = rng.standard_normal((n, d))
    y = X @ np.array([1.0, 2.0]) + 0.2 * rng.standard_normal(n)
    S = _sigmas(rng, n, d, frac=0.7)
    r = robust_svr_ctm(X, y, S, eta=0.5, epsilon=0.05, W=2.0, D=0.5)
    w, b = cp.Variable(d), cp.Variable()
    f = X @ w + b
    pen = sum(cp.norm(_sqrt(S[i]) @ w) / np.sqrt(0.5) for i in range(n) if S[i] is not None)
    prob = cp.Problem(cp.Minimize(cp.sum(cp.pos(cp.abs(f - y) - 0.05)) + 0.5 * pen), [cp.norm(w) <= 2.0])
    prob.solve(solver="SCS", eps=1e-9, max_iters=100000)
    assert r.objective == pytest.approx(prob.value, rel=1e-4)


# --- bad inputs -------------------------------------------------------------------------------

def test_bad_inputs():
    X, y, rng = _data(14, n=10)
    with pytest.raises(ValueError, match="positive semidefinite"):
        robust_svm(X, y, [np.diag([1.0, -1.0, 1.0])] + [None] * 9, gamma=1.0)
    with pytest.raises(ValueError, match="symmetric"):
        robust_svm(X, y, [np.array([[1.0, 0.5, 0], [0, 1.0, 0], [0, 0, 1.0]])] + [None] * 9, gamma=1.0)
    with pytest.raises(ValueError, match="shape"):
        robust_svm(X, y, np.zeros((10, 2, 2)), gamma=1.0)
    with pytest.raises(ValueError, match="rows"):
        robust_svm(X, y[:-1])
    with pytest.raises(ValueError, match="NaN"):
        robust_svm(np.where(np.eye(10, 3) > 0, np.nan, X), y)
    with pytest.raises(ValueError, match="y contains NaN"):
        robust_svm(X, np.r_[np.nan, y[1:]])
    with pytest.raises(ValueError, match="gamma"):
        robust_svm(X, y, gamma=-1.0)
    with pytest.raises(ValueError, match="C"):
        robust_svm(X, y, C=0.0)
    with pytest.raises(ValueError, match="W"):
        robust_svm_w(X, y, W=-1.0)
    with pytest.raises(ValueError, match="eta"):
        robust_svr_ctm(X, y, eta=0.0)
    with pytest.raises(ValueError, match="y contains NaN"):
        robust_svr_sr(X, np.r_[np.nan, y[1:]])
    Xm = X.copy()
    Xm[0] = np.nan
    with pytest.raises(ValueError, match="every feature missing"):
        em_gaussian(Xm)
    Xm = X.copy()
    Xm[1:, 0] = np.nan
    with pytest.raises(ValueError, match="too few rows for EM"):
        em_gaussian(Xm)
    Xm = X.copy()
    Xm[y == 1, 2] = np.nan
    Xm[np.flatnonzero(y == 1)[0], 2] = 1.0
    with pytest.raises(ValueError, match=r"class \+1: too few rows"):
        class_moments(Xm, y)


def test_shared_factor_object_gives_same_solution_as_copies():
    """Rows passing one factor object share a cone (spherical K~-space covariance of eq. 51)."""
    X, y, rng = _data(15, n=20)
    L = 0.4 * np.eye(3)
    shared = [L if i % 2 else None for i in range(20)]
    copies = [L.copy() if i % 2 else None for i in range(20)]
    a = robust_svm(X, y, gamma=1.2, C=1.0, factors=shared)
    b = robust_svm(X, y, gamma=1.2, C=1.0, factors=copies)
    np.testing.assert_allclose(a.w, b.w, atol=2e-4)  # interior-point accuracy
    assert a.objective == pytest.approx(b.objective, rel=1e-6)


def test_missing_multipliers_give_nan_duals_not_an_error(monkeypatch):
    """A solver status without multipliers (cons[0].dual_value is None) must leave NaN duals, one per pattern,
    and the primal solution unchanged (it used to raise NameError on an undefined name)."""
    from robustpapers.shivaswamy2006 import classification

    rng = np.random.default_rng(3)
    X = np.r_[rng.normal(1.0, 1.0, (8, 2)), rng.normal(-1.0, 1.0, (8, 2))]
    y = np.r_[np.ones(8), -np.ones(8)]
    S = [0.2 * np.eye(2) if i % 3 == 0 else None for i in range(16)]
    ref = robust_svm(X, y, S, gamma=1.0, C=1.0)
    solve = classification._solve

    def solve_without_duals(prob, *args):
        out = solve(prob, *args)
        for c in prob.constraints:
            for v in c.dual_variables:
                v.value = None
        return out

    monkeypatch.setattr(classification, "_solve", solve_without_duals)
    for res in (robust_svm(X, y, S, gamma=1.0, C=1.0), robust_svm_w(X, y, S, gamma=1.0, W=np.linalg.norm(ref.w))):
        assert res.dual.shape == (16,) and np.all(np.isnan(res.dual))
    res = robust_svm(X, y, S, gamma=1.0, C=1.0)
    assert np.allclose(res.w, ref.w, atol=1e-6) and abs(res.b - ref.b) < 1e-6
