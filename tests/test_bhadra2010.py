"""Property tests for bhadra2010 (RSVM): gamma(mu), the QP/SOCP/QN solvers, the bound and bad inputs."""
import inspect

import numpy as np
import pytest
from scipy.optimize import check_grad
from scipy.stats import norm

from robustpapers.bhadra2010 import (
    RSVMClassifier, beta_from_sigma, beta_from_support, check_eps, finite_support_gamma, gamma_certificate,
    kappa_finite_support, kappa_gaussian, make_synthetic_kernel_data, qn_penalty, rsvm,
    rsvm_decision_function, rsvm_objective, sample_kernels, sample_noise, support_and_moments,
)
from robustpapers.core import svm_dual, svm_dual_objective

MUS = np.array([-0.999, -0.9, -0.5, -0.1, 0.0, 0.05, 0.3, 0.7, 0.95, 0.99999])


def _problem(n=30, seed=0, d=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(X[:, 0] + 0.7 * rng.normal(size=n) > 0, 1.0, -1.0)
    return X @ X.T, y, rng


# ----------------------------------------------------------------------------- gamma (003 eq. 9)

def test_gamma_certifies_inequality_on_fine_grid():
    g = finite_support_gamma(MUS)
    assert np.all(gamma_certificate(MUS, g) >= 0.0)


def test_gamma_is_minimal():
    g = finite_support_gamma(MUS)
    # shrinking gamma by a relative 1e-5 breaks the inequality somewhere on the grid
    assert np.all(gamma_certificate(MUS, g * (1 - 1e-5)) < 0)


def test_gamma_at_zero_is_one_and_limits():
    # mu = 0: log cosh z <= z^2/2 with equality to second order at z = 0, so gamma = 1
    assert abs(finite_support_gamma(0.0) - 1.0) < 1e-9
    # the z -> 0 expansion gives gamma(mu)^2 >= 1 - mu^2; a one-sided support gives gamma(+-1) = 0
    assert np.all(finite_support_gamma(MUS) ** 2 >= 1 - MUS**2 - 1e-12)
    assert finite_support_gamma(1.0) == 0.0 and finite_support_gamma(-1.0) == 0.0


def test_gamma_matches_kearns_saul_closed_form():
    # independent check: the optimal sub-Gaussian proxy of a two-point variable,
    # gamma(mu)^2 = mu / artanh(mu) (Kearns & Saul 1998; Berend & Kontorovich 2013)
    mu = MUS[MUS != 0]
    assert np.allclose(finite_support_gamma(mu) ** 2, mu / np.arctanh(mu), rtol=1e-9)


def test_gamma_vectorised_shape_and_symmetry():
    M = np.linspace(-0.9, 0.9, 12).reshape(3, 4)
    G = finite_support_gamma(M)
    assert G.shape == (3, 4)
    assert np.allclose(G, finite_support_gamma(-M))


def test_kappa_and_beta():
    for eps in (0.01, 0.1, 0.3):
        assert abs(norm.cdf(-kappa_gaussian(eps)) - eps) < 1e-12
        assert abs(np.exp(-kappa_finite_support(eps) ** 2 / 2) - eps) < 1e-12
    # symmetric support [-l, l]: mu = 0, gamma = 1, beta = l^2
    assert abs(beta_from_support(-0.3, 0.3) - 0.09) < 1e-9
    assert np.allclose(beta_from_sigma(np.full((2, 2), 0.5)), 0.25)


# ----------------------------------------------------------------------------- QP: Theorems 4 and 5

def test_theorem5_iid_equals_svm_on_modified_kernel():
    K, y, rng = _problem()
    C, kappa, bsc = 1.0, 1.3, 0.4
    svm = svm_dual(K + kappa * bsc * np.eye(y.size), y, C, tol=1e-10)
    # the independent route: the SOCP of Theorem 6 with beta = b^2 e e' (rank one, PSD)
    soc = rsvm(K, y, C, np.full(K.shape, bsc**2), kappa, method="socp", tol=1e-10)
    qp = rsvm(K, y, C, bsc**2, kappa, method="qp", tol=1e-10)
    assert np.allclose(soc.alpha, svm.alpha, atol=1e-5 * C)
    assert np.allclose(qp.alpha, svm.alpha, atol=1e-9)
    assert abs(soc.objective - svm.objective) < 1e-7 * max(1, abs(svm.objective))
    Kt = rng.normal(size=(20, y.size))
    assert np.array_equal(np.sign(rsvm_decision_function(Kt, y, soc.alpha, soc.b)),
                          np.sign(rsvm_decision_function(Kt, y, qp.alpha, qp.b)))


def test_theorem4_rank_one_equals_svm_on_modified_kernel():
    K, y, rng = _problem(seed=1)
    C, kappa = 2.0, 0.9
    bvec = rng.uniform(0.05, 0.8, y.size)
    svm = svm_dual(K + kappa * np.diag(bvec), y, C, tol=1e-10)
    soc = rsvm(K, y, C, np.outer(bvec, bvec), kappa, method="socp", tol=1e-10)
    qp = rsvm(K, y, C, np.outer(bvec, bvec), kappa, method="qp", tol=1e-10)
    assert np.allclose(soc.alpha, svm.alpha, atol=1e-5 * C)
    assert np.allclose(qp.alpha, svm.alpha, atol=1e-9)
    # the identity behind Theorem 4, at any alpha: eq. (7) = SVM dual objective on K + kappa diag(b)
    a = rng.uniform(0, C, y.size)
    assert abs(rsvm_objective(K, y, np.outer(bvec, bvec), kappa, a)
               - svm_dual_objective(K + kappa * np.diag(bvec), y, a)) < 1e-10 * max(1, abs(a.sum()))


def test_kappa_zero_is_the_svm():
    K, y, rng = _problem(seed=2)
    beta = np.abs(rng.normal(size=K.shape)); beta = beta + beta.T
    svm = svm_dual(K, y, 1.0, tol=1e-10)
    soc = rsvm(K, y, 1.0, beta, 0.0, method="socp", beta_approx="psd", tol=1e-10)
    assert np.allclose(soc.alpha, svm.alpha, atol=1e-5)


# ----------------------------------------------------------------------------- SOCP vs a direct model

def test_socp_equals_direct_cvxpy_model_of_eq7():
    cp = pytest.importorskip("cvxpy")
    K, y, rng = _problem(n=25, seed=3)
    C, kappa = 1.0, 1.7
    G = np.abs(rng.normal(size=(y.size, 3))) * 0.3   # beta = G G' is PSD and non-negative
    beta = G @ G.T
    res = rsvm(K, y, C, beta, kappa, method="socp", tol=1e-10)
    # eq. (7) directly: sqrt(sum_ij beta_ij a_i^2 a_j^2) = ||G' (a o a)|| (G >= 0 keeps it DCP)
    w, V = np.linalg.eigh(K)
    L = V * np.sqrt(np.clip(w, 0, None))
    a = cp.Variable(y.size)
    obj = cp.Maximize(cp.sum(a) - 0.5 * cp.sum_squares(L.T @ cp.multiply(y, a))
                      - 0.5 * kappa * cp.norm(G.T @ cp.square(a), 2))
    prob = cp.Problem(obj, [a >= 0, a <= C, y @ a == 0])
    prob.solve(solver=cp.CLARABEL)
    assert abs(res.objective - prob.value) < 1e-6 * max(1, abs(prob.value))
    assert np.allclose(res.alpha, a.value, atol=1e-4 * C)


def test_socp_factor_keeps_the_psd_part_in_as_many_rows_as_its_numerical_rank():
    """The SOCP's factor R of a PSD matrix M (R'R = M's PSD part) has one row per eigenvalue above numpy's rank
    threshold: a linear kernel in d dimensions gives d rows, not n (the SOCP's cones shrink accordingly)."""
    from robustpapers.bhadra2010.solvers import _psd_factor
    from robustpapers.core import psd_clip

    K, y, rng = _problem(n=40, seed=2, d=3)
    B = rng.normal(size=(40, 40)); B = B + B.T
    for M in (K, B, np.zeros((40, 40))):
        R = _psd_factor(M, "M")
        assert R.shape == (max(1, np.linalg.matrix_rank(psd_clip(M))), 40)
        np.testing.assert_allclose(R.T @ R, psd_clip(M), atol=1e-9 * max(1.0, np.abs(M).max()))


# ----------------------------------------------------------------------------- QN (eq. 17)

def test_qn_penalty_gradient():
    K, y, rng = _problem(n=15, seed=4)
    beta = np.abs(rng.normal(size=K.shape)); beta = (beta + beta.T) / 2
    x0 = rng.uniform(-0.2, 1.2, y.size)
    err = check_grad(lambda a: qn_penalty(a, K, y, beta, 1.2, 1.0, 50.0)[0],
                     lambda a: qn_penalty(a, K, y, beta, 1.2, 1.0, 50.0)[1], x0)
    assert err < 1e-5 * max(1.0, np.linalg.norm(qn_penalty(x0, K, y, beta, 1.2, 1.0, 50.0)[1]))


#: QN's best start must reach the SOCP optimum to this relative tolerance (PSD beta).
QN_RTOL = 1e-4


def test_qn_best_start_close_to_socp_on_psd_beta():
    K, y, rng = _problem(n=30, seed=5)
    C, kappa = 1.0, 1.5
    G = np.abs(rng.normal(size=(y.size, 4))) * 0.3
    beta = G @ G.T
    soc = rsvm(K, y, C, beta, kappa, method="socp", tol=1e-10)
    qn = rsvm(K, y, C, beta, kappa, method="qn", n_starts=4, random_state=0)
    assert qn.start_objectives.shape == (4,)
    assert qn.objective == pytest.approx(qn.start_objectives.max())
    assert qn.objective >= soc.objective - QN_RTOL * abs(soc.objective)
    # QN returns a feasible alpha, so it cannot beat the global (SOCP) optimum beyond solver accuracy
    assert qn.objective <= soc.objective + 1e-7 * abs(soc.objective)
    assert abs(qn.alpha @ y) < 1e-9 and qn.alpha.min() >= 0 and qn.alpha.max() <= C


def test_qn_is_seeded():
    K, y, rng = _problem(n=20, seed=6)
    beta = np.abs(rng.normal(size=K.shape)) * 0.1; beta = beta + beta.T
    r1 = rsvm(K, y, 1.0, beta, 1.0, method="qn", n_starts=2, random_state=3)
    r2 = rsvm(K, y, 1.0, beta, 1.0, method="qn", n_starts=2, random_state=3)
    assert np.array_equal(r1.alpha, r2.alpha)


# ----------------------------------------------------------------------------- the chance constraint

def _eps_eff(K, y, res, sigma_or_l, kind, n_s, seed):
    Ks = sample_kernels(K, sigma_or_l, kind, n_s, random_state=seed)
    ya = y * res.alpha
    vals = np.einsum("i,sij,j->s", ya, Ks, ya)
    return float(np.mean(vals > res.t))


def test_eps_eff_gaussian_bound_holds_and_is_tight():
    K, y, rng = _problem(n=30, seed=7)
    sigma = rng.uniform(0.05, 0.3, K.shape); sigma = (sigma + sigma.T) / 2
    eps, n_s = 0.1, 4000
    res = rsvm(K, y, 1.0, beta_from_sigma(sigma), kappa_gaussian(eps), method="qp", beta_approx="principal")
    # recompute t with the true beta: Lemma 1 is then exact, P(a'YK^sYa > t) = eps
    from robustpapers.bhadra2010 import rsvm_constraint_value
    res.t = rsvm_constraint_value(K, y, beta_from_sigma(sigma), kappa_gaussian(eps), res.alpha)
    e = _eps_eff(K, y, res, sigma, "gaussian", n_s, 11)
    margin = 3 * np.sqrt(eps * (1 - eps) / n_s)   # binomial sampling error of the estimate
    assert e <= eps + margin
    assert e >= eps - margin


def test_eps_eff_finite_support_bound_holds():
    K, y, rng = _problem(n=30, seed=8)
    l = rng.uniform(0.1, 0.5, K.shape); l = (l + l.T) / 2   # U[-l/2, l/2] noise
    eps = 0.2
    beta = beta_from_support(-l / 2, l / 2)
    res = rsvm(K, y, 1.0, beta, kappa_finite_support(eps), method="socp", beta_approx="psd")
    from robustpapers.bhadra2010 import rsvm_constraint_value
    res.t = rsvm_constraint_value(K, y, beta, kappa_finite_support(eps), res.alpha)
    assert _eps_eff(K, y, res, l, "uniform", 2000, 12) <= eps


# ----------------------------------------------------------------------------- samplers, metrics

def test_noise_samplers_support_and_mean():
    rng = np.random.default_rng(0)
    for kind in ("uniform", "beta0.5", "beta5"):
        z = sample_noise(kind, 20000, rng)
        assert z.min() >= -0.5 and z.max() <= 0.5
        assert abs(z.mean()) < 4 * z.std() / np.sqrt(z.size)
    est = support_and_moments(sample_kernels(np.eye(3) + 1, 0.2, "uniform", 50, random_state=1))
    assert np.all(est["a"] <= 0) and np.all(est["b"] >= 0)
    assert np.allclose(est["K_bar"], est["K_bar"].T) and np.allclose(est["a"], est["a"].T)


def test_estimator_errors_ordering_and_synthetic_data():
    data = make_synthetic_kernel_data(12, "uniform", random_state=0, d=3)
    Ks = sample_kernels(data.K, data.scale, "uniform", 30, random_state=1)
    est = support_and_moments(Ks, data.K)
    clf = RSVMClassifier(C=1.0, eps=0.2, method="socp", beta_approx="psd").fit(
        est["K_bar"], data.y, a=est["a"], b=est["b"])
    err = clf.prediction_errors(est["K_bar"], Ks, data.y)
    assert err["RE"] >= err["ME"] and err["RE"] >= err["NE"]
    assert np.allclose(data.scale, data.scale.T) and np.all(data.scale <= 0.25 * np.abs(data.K) + 1e-12)


# ----------------------------------------------------------------------------- bad inputs

@pytest.mark.parametrize("eps", [0.0, 0.5, -0.1, 0.7, "x"])
def test_bad_eps(eps):
    with pytest.raises(ValueError, match="eps"):
        check_eps(eps)
    with pytest.raises(ValueError, match="eps"):
        kappa_finite_support(eps)


def test_bad_support():
    with pytest.raises(ValueError, match="a < b"):
        beta_from_support(np.array([0.1, -1.0]), np.array([0.1, 1.0]))
    with pytest.raises(ValueError, match="a > 0"):
        beta_from_support(np.array([0.1]), np.array([0.3]))
    with pytest.raises(ValueError, match="b < 0"):
        beta_from_support(np.array([-0.4]), np.array([-0.1]))
    with pytest.raises(ValueError, match="mu"):
        finite_support_gamma(1.5)


def test_bad_beta_and_shapes():
    K, y, rng = _problem(n=10, seed=9)
    with pytest.raises(ValueError, match="non-negative"):
        rsvm(K, y, 1.0, -np.ones(K.shape), 1.0, method="socp")
    B = np.abs(rng.normal(size=K.shape)); B = B + B.T
    B[np.diag_indices(10)] = 0.0          # zero diagonal: not PSD, not rank one
    with pytest.raises(ValueError, match="positive semidefinite"):
        rsvm(K, y, 1.0, B, 1.0, method="socp")
    with pytest.raises(ValueError, match="rank one"):
        rsvm(K, y, 1.0, B, 1.0, method="qp")
    with pytest.raises(ValueError, match="shape"):
        rsvm(K, y, 1.0, np.ones((3, 3)), 1.0, method="qn")
    with pytest.raises(ValueError, match="rows"):
        rsvm(K[:5, :5], y, 1.0, 0.1, 1.0)
    with pytest.raises(ValueError, match="method"):
        rsvm(K, y, 1.0, 0.1, 1.0, method="newton")
    with pytest.raises(ValueError, match="kappa"):
        rsvm(K, y, 1.0, 0.1, -1.0)
    with pytest.raises(ValueError, match="eps"):
        RSVMClassifier(eps=0.6).fit(K, y)



@pytest.mark.parametrize("params, fit_kw, match", [
    (dict(noise="finite_support"), dict(sigma=0.1), "takes a and b"),
    (dict(noise="gaussian"), dict(a=-0.1, b=0.1), "takes sigma"),
    (dict(noise="finite_support"), dict(a=-0.1), "both a and b"),
    (dict(noise="finite_support"), dict(b=0.1), "both a and b"),
    (dict(noise="laplace"), dict(), "noise"),
    (dict(noise="finite_support"), dict(a=0.1, b=0.2), "zero mean|a"),
    (dict(noise="finite_support"), dict(a=-0.1, b=-0.05), "zero mean|b"),
    (dict(noise="gaussian"), dict(sigma=-0.1), "sigma|negative|beta"),
])
def test_estimator_bad_uncertainty_descriptions_raise_and_write_nothing(params, fit_kw, match):
    """Each bad description of the kernel noise (003 §3) is refused with a ValueError naming it, and the
    estimator keeps no fitted attribute (validate_data's n_features_in_ aside)."""
    K, y, _ = _problem(n=12, seed=21)
    clf = RSVMClassifier(C=1.0, method="qn", n_starts=1, **params)
    with pytest.raises(ValueError, match=match):
        clf.fit(K, y, **fit_kw)
    assert not [k for k in vars(clf) if k.endswith("_") and not k.startswith("_") and k != "n_features_in_"]


def test_estimator_non_square_kernel_raises():
    K, y, _ = _problem(n=12, seed=22)
    with pytest.raises(ValueError, match="square"):
        RSVMClassifier().fit(K[:, :10], y)

def test_qn_parallel_starts_match_serial():
    K, y, rng = _problem(n=15, seed=10)
    beta = np.abs(rng.normal(size=K.shape)) * 0.1; beta = beta + beta.T
    seen = []
    r1 = rsvm(K, y, 1.0, beta, 1.0, method="qn", n_starts=3, random_state=5, n_jobs=1,
              callback=lambda k, obj: seen.append((k, obj)))
    r2 = rsvm(K, y, 1.0, beta, 1.0, method="qn", n_starts=3, random_state=5, n_jobs=2)
    assert [k for k, _ in seen] == [0, 1, 2] and np.array_equal([o for _, o in seen], r1.start_objectives)
    # two workers get batches of two and one start; a serial run one batch of three, or three of one: every
    # start's result is the same to the last bit
    one = rsvm(K, y, 1.0, beta, 1.0, method="qn", n_starts=3, random_state=5, qn_batch=1)
    for r in (r2, one):
        assert np.array_equal(r.start_alphas, r1.start_alphas) and np.array_equal(r.start_objectives, r1.start_objectives)
        assert list(r.start_status) == list(r1.start_status) and r.nit == r1.nit
    for bad in (0, 1.5, True, "2"):
        with pytest.raises(ValueError, match="qn_batch"):
            rsvm(K, y, 1.0, beta, 1.0, method="qn", n_starts=3, qn_batch=bad)


def test_estimator_without_uncertainty_is_the_svm():
    K, y, _ = _problem(n=20, seed=11)
    clf = RSVMClassifier(C=1.0, method="qp").fit(K, y)
    assert np.allclose(clf.alpha_, svm_dual(K, y, 1.0).alpha, atol=1e-8)
    assert clf.predict(K).shape == (20,)


@pytest.mark.parametrize("kind", ["uniform", "beta0.5", "beta5"])
def test_support_sampler_zero_mean_and_asymmetric_bound(kind):
    from robustpapers.bhadra2010 import rsvm_constraint_value, sample_kernels_support
    K, y, rng = _problem(n=20, seed=13)
    a = -rng.uniform(0.02, 0.3, K.shape); a = (a + a.T) / 2
    b = rng.uniform(0.02, 0.3, K.shape); b = (b + b.T) / 2      # asymmetric: mu != 0
    Z = sample_kernels_support(np.zeros((3, 3)), a[:3, :3], b[:3, :3], kind, 20000, random_state=1)
    assert np.all(Z >= a[:3, :3]) and np.all(Z <= b[:3, :3])
    assert np.all(np.abs(Z.mean(axis=0)) < 5 * Z.std(axis=0) / np.sqrt(Z.shape[0]))
    # Theorem 3 with gamma(mu), mu != 0: the chance constraint holds at any alpha
    eps = 0.1
    beta = beta_from_support(a, b)
    res = rsvm(K, y, 1.0, beta, kappa_finite_support(eps), method="qn", n_starts=1, random_state=0)
    t = rsvm_constraint_value(K, y, beta, kappa_finite_support(eps), res.alpha)
    Ks = sample_kernels_support(K, a, b, kind, 2000, random_state=2)
    ya = y * res.alpha
    assert np.mean(np.einsum("i,sij,j->s", ya, Ks, ya) > t) <= eps


def test_psd_clip_of_beta_is_conservative():
    # clipping negative eigenvalues adds a PSD matrix: the robustness term can only grow (for any alpha)
    from robustpapers.core import psd_clip
    K, y, rng = _problem(n=20, seed=14)
    B = np.abs(rng.normal(size=K.shape)); B = B + B.T
    B[np.diag_indices(20)] = 0.0
    Bc = psd_clip(B)
    for _ in range(20):
        a = rng.uniform(0, 1, 20)
        assert rsvm_objective(K, y, Bc, 1.3, a) <= rsvm_objective(K, y, B, 1.3, a) + 1e-12


def test_paper_scale_tasks_are_the_paper_settings_and_refuse_bad_requests():
    """paper_scale_tasks is sweep_tasks at PAPER_SCALE (003 §5.1 sizes: 20 data sets of 2 x 100 points, 100
    samples; Table 1: 3 noise types x 5 folds per data set); a data-set filter keeps that data set's tasks;
    unknown sweeps or data sets are ValueErrors naming them."""
    from robustpapers.reproduce.bhadra2010.experiments import (PAPER_SCALE, QN_MAX_ITER, QN_MAX_ITER_EARLY, paper_scale_tasks,
                                                     qn_convergence_task, sweep_tasks, table1_task)

    func, tasks, exp, version = paper_scale_tasks("table1", seed=1)
    assert (func, exp, version) == (table1_task, "table1", 3)
    assert tasks == sweep_tasks("table1", PAPER_SCALE, 1)[1] and len(tasks) == 20 * 3 * 5
    assert {(t["n_per_class"], t["n_samples"], t["seed"]) for t in tasks} == {(100, 100, 1)}
    # every sweep that fits QN runs it with rsvm's default cap (the QN convergence comparison keeps the earlier one)
    cap = inspect.signature(rsvm).parameters["max_iter"].default
    for sweep in ("table1", "fig3", "qn_starts", "qn_socp", "qn_socp_starts"):
        assert {t["qn_max_iter"] for t in paper_scale_tasks(sweep)[1]} == {cap}, sweep
    assert inspect.signature(qn_convergence_task).parameters["qn_max_iter"].default == QN_MAX_ITER_EARLY < cap
    assert QN_MAX_ITER == cap
    _, two, _, _ = paper_scale_tasks("table1", seed=1, datasets=["3", 4])
    assert two == [t for t in tasks if t["dataset"] in (3, 4)] and len(two) == 30
    with pytest.raises(ValueError, match="experiment"):
        sweep_tasks("fig9", PAPER_SCALE)
    with pytest.raises(ValueError, match=r"\[20\]"):
        paper_scale_tasks("fig1", datasets=[20])
    with pytest.raises(ValueError, match="indices"):
        paper_scale_tasks("fig1", datasets=["first"])
