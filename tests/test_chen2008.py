"""Property tests of the chen2008 chapter: the exchange method for SVMs with indefinite kernels."""
import cvxpy as cp
import numpy as np
import pytest

from robustpapers.core import ConvergenceWarning, is_psd, svm_dual
from robustpapers.chen2008 import (
    IndefiniteSVC, indefinite_svm, most_violated_kernel, perturbed_gaussian_kernel, siqclp_objective,
    solve_master, spectrum_stats, transform_kernel,
)


def _problem(n=24, xi=0.3, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] + 0.3 * rng.normal(size=n) > 0, 1.0, -1.0)
    K0 = perturbed_gaussian_kernel(X, gamma=0.5, xi=xi, random_state=seed)
    return X, y, K0


def test_most_violated_kernel_minimises_S_against_cvxpy():
    """Eq. (9) is the minimiser over PSD matrices of S(alpha, .) (eq. (8)), as a generic SDP finds."""
    _, y, K0 = _problem(n=6)
    assert not is_psd(K0)
    rng = np.random.default_rng(1)
    alpha = rng.uniform(0, 1, y.size)
    rho = 0.7
    Kstar = most_violated_kernel(K0, y, alpha, rho)
    K = cp.Variable((6, 6), PSD=True)
    v = y * alpha
    prob = cp.Problem(cp.Minimize(rho * cp.sum_squares(K - K0) - 0.5 * v @ K @ v))
    prob.solve(solver="SCS", eps=1e-10, max_iters=200000)
    s_star = siqclp_objective(alpha, Kstar, K0, y, rho)
    s_cvx = siqclp_objective(alpha, K.value, K0, y, rho)
    assert s_star <= s_cvx + 1e-6
    assert abs(s_star - (prob.value + alpha.sum())) <= 1e-5 * max(1, abs(s_star))
    assert np.allclose(Kstar, K.value, atol=1e-4)
    assert is_psd(Kstar)


def _master_problem():
    """A restricted master problem (7) over three most violated kernels (9) of a small indefinite K0."""
    _, y, K0 = _problem(n=20)
    rho, C = 0.5, 1.0
    rng = np.random.default_rng(3)
    Ks = [most_violated_kernel(K0, y, rng.uniform(0, C, y.size), rho) for _ in range(3)]
    Q = np.stack([np.outer(y, y) * K for K in Ks])
    c = np.array([rho * np.sum((K - K0) ** 2) for K in Ks])
    return Q, c, y, C, Ks


def test_master_problem_matches_cvxpy_and_mkl_form():
    """The IPM solves the QCLP (7); its multipliers are MKL weights (Theorem 5.1, eq. (27))."""
    Q, c, y, C, Ks = _master_problem()
    ms = solve_master(Q, c, y, C)
    a, t = cp.Variable(y.size), cp.Variable()
    cons = [a >= 0, a <= C, y @ a == 0] + [
        t <= cp.sum(a) - 0.5 * cp.quad_form(a, cp.psd_wrap(Q[i])) + c[i] for i in range(3)]
    prob = cp.Problem(cp.Maximize(t), cons)
    prob.solve(solver="CLARABEL")
    assert ms["converged"]
    assert abs(ms["t"] - prob.value) <= 1e-6 * max(1, abs(prob.value))
    assert ms["t"] <= ms["upper"] + 1e-12
    theta = ms["theta"]
    assert abs(theta.sum() - 1) < 1e-8 and np.all(theta >= 0)
    # eq. (27): for the optimal theta, max_alpha sum_i theta_i S(alpha, K_i) equals the value of (7)
    Ktheta = sum(th * K for th, K in zip(theta, Ks))
    sol = svm_dual(Ktheta, y, C, tol=1e-10)
    J = sol.alpha.sum() - 0.5 * (y * sol.alpha) @ Ktheta @ (y * sol.alpha) + theta @ c
    assert abs(J - prob.value) <= 1e-4 * max(1, abs(prob.value))


def test_master_lu_fallback_solves_the_same_problem(monkeypatch):
    """When the Cholesky factorisation of the Newton matrix fails (rounding), the bordered KKT system is
    solved by LU from the same Newton matrix (rebuilt, since potrf factors it in place): forcing that
    path on every step reaches the optimum the Cholesky path reaches."""
    from robustpapers.chen2008 import master
    Q, c, y, C, _ = _master_problem()
    chol = solve_master(Q, c, y, C)
    real = master._potrf

    def failing(H, **kw):
        fac, _ = real(H, **kw)   # overwrites H as the real call does
        return fac, 1

    monkeypatch.setattr(master, "_potrf", failing)
    lu = solve_master(Q, c, y, C)
    assert chol["converged"] and chol["lu_fallbacks"] == 0
    assert lu["converged"] and lu["lu_fallbacks"] == lu["nit"] - 1
    assert abs(lu["t"] - chol["t"]) <= 1e-8 * max(1, abs(chol["t"]))
    assert np.allclose(lu["alpha"], chol["alpha"], atol=1e-6)
    assert np.allclose(lu["theta"], chol["theta"], atol=1e-6)


@pytest.mark.parametrize("prune", [False, True])
def test_bounds_are_monotone_and_ordered(prune):
    """Theorem 4.1 and Lemma 4.1: u+ non-increasing, l- non-decreasing, l- <= u+ at every iteration."""
    _, y, K0 = _problem()
    res = indefinite_svm(K0, y, C=1.0, rho=2.0, tol=1e-6, prune=prune, max_iter=500)
    assert res.success
    u, l = res.upper[1:], res.lower[1:]
    scale = max(1.0, abs(u[0]))
    assert np.all(np.diff(u) <= 1e-9 * scale)
    assert np.all(np.diff(l) >= 0)
    assert np.all(l <= u + 1e-9 * scale)
    assert u.min() - res.lower[-1] <= 1e-6
    assert res.lemma41_ok
    # the returned pair is a certificate: min_K S(alpha, K) = S(alpha, K*(alpha)) = objective
    Kc = most_violated_kernel(K0, y, res.alpha, 2.0)
    assert abs(siqclp_objective(res.alpha, Kc, K0, y, 2.0) - res.objective) <= 1e-9 * scale
    assert np.allclose(Kc, res.K)


def test_pruned_and_unpruned_reach_the_same_optimum():
    _, y, K0 = _problem(n=30, seed=2)
    a = indefinite_svm(K0, y, C=1.0, rho=1.0, tol=1e-6, prune=False, max_iter=800)
    b = indefinite_svm(K0, y, C=1.0, rho=1.0, tol=1e-6, prune=True, max_iter=800)
    assert a.success and b.success
    assert abs(a.objective - b.objective) <= 2e-6
    assert b.n_kernels.max() <= a.n_kernels.max()
    # any PSD kernel's SVM value bounds t* from above: max_alpha S(alpha, K) >= t*
    sol = svm_dual(b.K, y, 1.0, tol=1e-10)
    assert siqclp_objective(sol.alpha, b.K, K0, y, 1.0) >= b.objective - 1e-6


def test_psd_kernel_with_large_rho_is_the_plain_svm():
    """On a PSD K0, rho -> infinity pins K to K0 and eq. (2) becomes the SVM (1)."""
    rng = np.random.default_rng(4)
    X = rng.normal(size=(25, 2))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    y[:3] *= -1
    K0 = np.exp(-0.5 * ((X[:, None] - X[None]) ** 2).sum(-1))
    res = indefinite_svm(K0, y, C=1.0, rho=1e6, tol=1e-8)
    sol = svm_dual(K0, y, 1.0, tol=1e-10)
    assert res.success
    assert np.allclose(res.alpha, sol.alpha, atol=1e-4)
    assert abs(res.b - sol.b) < 1e-3
    assert np.allclose(res.K, K0, atol=1e-5)


def test_spectrum_baselines_have_the_stated_spectra():
    _, _, K0 = _problem(n=15)
    w = np.linalg.eigvalsh(K0)
    assert w[0] < 0
    den, flip, shift = (np.linalg.eigvalsh(transform_kernel(K0, m)) for m in ("denoise", "flip", "shift"))
    assert np.allclose(den, np.sort(np.maximum(w, 0)), atol=1e-10)
    assert np.allclose(flip, np.sort(np.abs(w)), atol=1e-10)
    assert np.allclose(shift, w - w[0], atol=1e-10)
    for m in ("denoise", "flip", "shift"):
        assert is_psd(transform_kernel(K0, m))
    st = spectrum_stats(K0)
    assert st["n_neg"] + st["n_pos"] == 15 and np.isclose(st["lambda_min"], w[0], rtol=1e-12, atol=0)
    assert st["ratio"] == pytest.approx(abs(w[-1] / w[0]))


def test_perturbation_is_seeded_and_symmetric():
    X = np.random.default_rng(0).normal(size=(10, 3))
    A = perturbed_gaussian_kernel(X, 1.0, 0.1, random_state=7)
    B = perturbed_gaussian_kernel(X, 1.0, 0.1, random_state=7)
    assert np.array_equal(A, B) and np.allclose(A, A.T)
    assert np.allclose(perturbed_gaussian_kernel(X, 1.0, 0.0, 7), np.exp(-((X[:, None] - X[None]) ** 2).sum(-1)))


@pytest.mark.parametrize("kwargs, match", [
    (dict(K0=np.triu(np.ones((4, 4)))), "symmetric"),
    (dict(rho=0.0), "rho"),
    (dict(rho=-1.0), "rho"),
    (dict(C=0.0), "C"),
    (dict(y=np.array([0.0, 1.0, 0.0, 1.0])), "y"),
    (dict(y=np.array([1.0, -1.0, 1.0])), "K0"),
    (dict(K0=np.ones((4, 3))), "K0"),
    (dict(K0=np.full((4, 4), np.nan)), "NaN"),
    (dict(slack_tol=-1.0), "slack_tol"),
    (dict(active_tol=-1e-6), "active_tol"),
    (dict(max_iter=True), "max_iter"),
    (dict(master_start="hot"), "master_start"),
])
def test_bad_inputs_raise(kwargs, match):
    args = dict(K0=np.eye(4), y=np.array([1.0, -1.0, 1.0, -1.0]), C=1.0, rho=1.0)
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        indefinite_svm(**args)


def test_not_converged_warns_naming_max_iter():
    _, y, K0 = _problem()
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        res = indefinite_svm(K0, y, C=1.0, rho=0.5, tol=1e-12, max_iter=2)
    assert not res.success and res.upper[-1] >= res.lower[-1]


def test_classifier_precomputed_equals_kernel_function_and_svm_matches_libsvm():
    from sklearn.svm import SVC

    X, y, _ = _problem(n=30)
    K = np.exp(-0.5 * ((X[:, None] - X[None]) ** 2).sum(-1))
    for method in ("siqclp", "denoise", "svm"):
        a = IndefiniteSVC(method=method, kernel="rbf", gamma=0.5, rho=5.0).fit(X, y)
        b = IndefiniteSVC(method=method, kernel="precomputed", rho=5.0).fit(K, y)
        assert np.allclose(a.decision_function(X[:5]), b.decision_function(K[:5]), atol=1e-3)
    ref = SVC(kernel="precomputed", C=1.0).fit(K, y)
    ours = IndefiniteSVC(method="svm", kernel="precomputed").fit(K, y)
    assert np.allclose(ours.decision_function(K), ref.decision_function(K), atol=1e-3)
    with pytest.raises(ValueError, match="method"):
        IndefiniteSVC(method="bogus").fit(X, y)


@pytest.mark.parametrize("rho", [0.0, -1.0])
def test_classifier_bad_rho_raises_before_fitting_anything(rho):
    X, y, K0 = _problem(n=20)
    clf = IndefiniteSVC(method="siqclp", kernel="precomputed", rho=rho)
    with pytest.raises(ValueError, match="rho"):
        clf.fit(K0, y)
    assert not [k for k in vars(clf) if k.endswith("_") and not k.startswith("_")]

@pytest.mark.parametrize("method", ["siqclp", "flip", "svm"])
def test_classifier_refuses_a_non_symmetric_precomputed_kernel(method):
    """002 is posed for a symmetric K0: the classifier raises (as indefinite_svm does) instead of
    symmetrising silently, and writes no fitted attribute."""
    X, y, K0 = _problem(n=20)
    K = K0.copy()
    K[0, 1] += 1.0
    clf = IndefiniteSVC(method=method, kernel="precomputed", rho=5.0)
    with pytest.raises(ValueError, match="symmetric"):
        clf.fit(K, y)
    # (validate_data's n_features_in_ aside, as for every scikit-learn estimator)
    assert not [k for k in vars(clf) if k.endswith("_") and not k.startswith("_") and k != "n_features_in_"]


def test_lemma41_runtime_check_restores_wrongly_pruned_kernels():
    """A coarse pruning threshold drops constraints that are still active; the run-time check of
    Lemma 4.1 notices the increase of u+, puts the kernels back, and the bounds stay monotone."""
    _, y, K0 = _problem(n=40, seed=0)
    res = indefinite_svm(K0, y, C=1.0, rho=1.0, tol=1e-6, active_tol=5e-2, max_iter=500)
    ref = indefinite_svm(K0, y, C=1.0, rho=1.0, tol=1e-6, prune=False, max_iter=500)
    assert res.success and res.lemma41_restores > 0 and res.lemma41_ok
    u = res.upper[1:]
    assert np.all(np.diff(u) <= 1e-8 * max(1.0, abs(u[0])))
    assert abs(res.objective - ref.objective) <= 2e-6


@pytest.mark.parametrize("seed", [0, 1])
def test_rank_one_update_gives_the_same_proxy_kernel_as_eigh(seed):
    """K* of eq. (9) from the eigendecomposition of K0 and the secular equation of the rank-one
    update (used inside indefinite_svm) equals the projection by a fresh eigendecomposition."""
    from robustpapers.chen2008.siqclp import _proxy_kernel_rank_one
    _, y, K0 = _problem(n=60, seed=seed)
    K0 = (K0 + K0.T) / 2
    w0, V0 = np.linalg.eigh(K0)
    rng = np.random.default_rng(seed)
    for rho in (0.1, 1.0, 10.0):
        alpha = rng.uniform(0, 1, y.size) * (rng.uniform(size=y.size) < 0.5)
        K = _proxy_kernel_rank_one(K0, w0, V0, y, alpha, rho)
        assert K is not None
        ref = most_violated_kernel(K0, y, alpha, rho)
        assert np.max(np.abs(K - ref)) <= 1e-12 * max(1.0, np.abs(ref).max())
    # a PSD K0: K* = K0 + vv'/(4 rho) itself; a repeated eigenvalue needs deflation: left to eigh
    Kpsd = np.eye(y.size) + 0.1 * np.ones((y.size, y.size))
    w, V = np.linalg.eigh(Kpsd)
    alpha = np.full(y.size, 0.5)
    assert np.allclose(_proxy_kernel_rank_one(Kpsd, w, V, y, alpha, 1.0), most_violated_kernel(Kpsd, y, alpha, 1.0))
    Krep = np.diag(np.r_[-1.0, -1.0, np.ones(y.size - 2)])
    w, V = np.linalg.eigh(Krep)
    assert _proxy_kernel_rank_one(Krep, w, V, y, alpha, 1.0) is None


def test_aggregation_bounds_the_localisation_set_and_keeps_lemma41():
    """max_kernels: the active constraints beyond the bound are replaced by their multiplier-weighted
    aggregate (implied by them, so u+ >= t* still); the master optimum is unchanged by the
    replacement (KKT), so u+ never increases (Lemma 4.1) and no pruned kernel has to be restored,
    and the run reaches the unbounded run's optimum."""
    _, y, K0 = _problem(n=24, seed=0)
    ref = indefinite_svm(K0, y, C=1.0, rho=2.0, tol=1e-6, prune=True, max_iter=800)
    res = indefinite_svm(K0, y, C=1.0, rho=2.0, tol=1e-6, prune=True, max_iter=800, max_kernels=3)
    assert ref.n_kernels.max() > 3  # the bound binds: more than 3 constraints are active
    assert res.success and res.n_kernels.max() <= 3 and res.n_aggregated > 0
    u, l = res.upper[1:], res.lower[1:]
    scale = max(1.0, abs(u[0]))
    assert np.all(np.diff(u) <= 1e-9 * scale) and np.all(l <= u + 1e-9 * scale)
    assert res.lemma41_ok and res.lemma41_restores == 0
    assert abs(res.objective - ref.objective) <= 2e-6
    # the returned alpha is certified: its value min_K S(alpha, K) is the lower bound
    Kc = most_violated_kernel(K0, y, res.alpha, 2.0)
    assert abs(siqclp_objective(res.alpha, Kc, K0, y, 2.0) - res.objective) <= 1e-9 * scale


@pytest.mark.parametrize("bad", [1, 0, 2.5, "20"])
def test_bad_max_kernels_raises(bad):
    with pytest.raises(ValueError, match="max_kernels"):
        indefinite_svm(np.eye(4), np.array([1.0, -1.0, 1.0, -1.0]), 1.0, 1.0, max_kernels=bad)


def test_slack_tolerance_interpolates_between_pruning_and_no_pruning():
    """slack_tol keeps near-active kernels: a huge tolerance keeps every kernel (the unpruned run,
    iterate for iterate); a moderate one keeps at least the paper's set; all reach the same optimum."""
    _, y, K0 = _problem(n=24, seed=0)
    full = indefinite_svm(K0, y, C=1.0, rho=2.0, tol=1e-6, prune=False, max_iter=800)
    keep_all = indefinite_svm(K0, y, C=1.0, rho=2.0, tol=1e-6, prune=True, max_iter=800, slack_tol=1e300)
    paper = indefinite_svm(K0, y, C=1.0, rho=2.0, tol=1e-6, prune=True, max_iter=800)
    assert np.array_equal(keep_all.n_kernels, full.n_kernels) and np.allclose(keep_all.upper, full.upper)
    mid = indefinite_svm(K0, y, C=1.0, rho=2.0, tol=1e-6, prune=True, max_iter=800, slack_tol=1e-2)
    for r in (keep_all, paper, mid):
        assert r.success and r.lemma41_ok and abs(r.objective - full.objective) <= 2e-6
    assert mid.n_kernels.max() >= paper.n_kernels.max()


@pytest.mark.parametrize("opts", [dict(max_kernels=3), dict(slack_tol=1e-2), dict(max_kernels=4, slack_tol=1e-2)])
def test_classifier_passes_max_kernels_and_slack_tol_to_the_solver(opts):
    """IndefiniteSVC(max_kernels=k, slack_tol=s) trains exactly indefinite_svm(..., max_kernels=k,
    slack_tol=s): the same alpha, bias and decision function, and with max_kernels the localisation
    set never holds more than k kernels although more than k constraints are active without it."""
    _, y, K0 = _problem(n=24, seed=0)
    kw = dict(C=1.0, rho=2.0, tol=1e-6, max_iter=800)
    res = indefinite_svm(K0, y, prune=True, **kw, **opts)
    clf = IndefiniteSVC(method="siqclp", kernel="precomputed", solver="algorithm1", **kw, **opts).fit(K0, y)
    assert np.array_equal(clf.alpha_, res.alpha) and clf.intercept_ == pytest.approx(float(res.b), abs=1e-12)
    f_ref = ((K0 + K0.T) / 2) @ (res.alpha * y) + res.b
    assert np.allclose(clf.decision_function(K0), f_ref, rtol=0, atol=1e-10)
    assert np.array_equal(clf.result_.n_kernels, res.n_kernels)
    default = IndefiniteSVC(method="siqclp", kernel="precomputed", solver="algorithm1", **kw).fit(K0, y)
    # the options change the run (so they were really passed), not the optimum of (6)
    assert not np.array_equal(default.result_.n_kernels, clf.result_.n_kernels)
    assert clf.result_.success and abs(clf.result_.objective - default.result_.objective) <= 2e-6
    if "max_kernels" in opts:
        k = opts["max_kernels"]
        unbounded = default
        assert unbounded.result_.n_kernels.max() > k  # the bound binds
        assert clf.result_.n_kernels.max() <= k and clf.result_.n_aggregated > 0


@pytest.mark.parametrize("param, bad", [("max_kernels", 1), ("max_kernels", 2.5), ("max_kernels", "20"),
                                        ("max_kernels", True), ("slack_tol", -1.0), ("slack_tol", np.nan),
                                        ("active_tol", -1.0), ("active_tol", np.nan), ("tol", 0.0),
                                        ("max_iter", 0), ("max_iter", 2.5), ("master_start", "hot"),
                                        ("master_start", None)])
@pytest.mark.parametrize("method", ["siqclp", "flip"])
def test_classifier_bad_solver_options_raise_and_fit_nothing(param, bad, method):
    X, y, _ = _problem(n=12)
    clf = IndefiniteSVC(method=method, **{param: bad})
    with pytest.raises(ValueError, match=param):
        clf.fit(X, y)
    assert not hasattr(clf, "classes_") and not hasattr(clf, "alpha_")


def test_classifier_passes_master_start_to_the_solver():
    """IndefiniteSVC(master_start=m) is indefinite_svm(..., master_start=m) (the same iterates); the start
    changes the path of upper bounds (so it was really passed), not the optimum of (6) it converges to."""
    _, y, K0 = _problem(n=24, seed=0)
    paths = {}
    for start in ("warm", "cold"):
        res = indefinite_svm(K0, y, C=1.0, rho=1.0, tol=1e-6, max_iter=800, master_start=start)
        clf = IndefiniteSVC(method="siqclp", kernel="precomputed", C=1.0, rho=1.0, tol=1e-6, max_iter=800,
                            master_start=start, solver="algorithm1").fit(K0, y)
        assert np.array_equal(clf.alpha_, res.alpha) and np.array_equal(clf.result_.upper, res.upper)
        assert res.success
        paths[start] = res
    assert abs(paths["warm"].objective - paths["cold"].objective) <= 2e-6
    assert not np.array_equal(paths["warm"].upper, paths["cold"].upper)


def test_classifier_passes_active_tol_to_the_solver():
    """IndefiniteSVC(active_tol=a) is indefinite_svm(..., active_tol=a): the same localisation sets and
    alpha; a large threshold prunes kernels that the default keeps (so it was really passed)."""
    _, y, K0 = _problem(n=24, seed=0)
    kw = dict(C=1.0, rho=2.0, tol=1e-6, max_iter=800)
    res = indefinite_svm(K0, y, prune=True, active_tol=0.2, **kw)
    clf = IndefiniteSVC(method="siqclp", kernel="precomputed", active_tol=0.2, solver="algorithm1", **kw).fit(K0, y)
    assert np.array_equal(clf.result_.n_kernels, res.n_kernels) and np.array_equal(clf.alpha_, res.alpha)
    default = indefinite_svm(K0, y, prune=True, **kw)
    assert res.n_kernels[1:].sum() < default.n_kernels[1:].sum()


def test_paper_scale_tasks_select_and_refuse():
    """paper_scale_tasks: a data-set filter keeps exactly that data set's tasks (10 splits of Table 1);
    an unknown sweep or data set is a ValueError naming it."""
    from robustpapers.reproduce.chen2008.experiments import TABLE1_DATASETS, paper_scale_tasks, table1_task

    func, tasks, exp, version = paper_scale_tasks("table1", seed=3)
    assert func is table1_task and exp == "table1" and len(tasks) == 10 * len(TABLE1_DATASETS)
    assert sorted({t["seed"] for t in tasks}) == list(range(3, 13))
    _, heart, _, _ = paper_scale_tasks("table1", seed=3, datasets=["heart"])
    assert heart == [t for t in tasks if t["dataset"] == "heart"] and len(heart) == 10
    with pytest.raises(ValueError, match="experiment"):
        paper_scale_tasks("fig9")
    with pytest.raises(ValueError, match="usps"):
        paper_scale_tasks("xi_sweep", datasets=["usps"])


def test_table1_starts_recomputes_table1_sonar_tasks_with_each_start():
    """The path study compares like with like: each of its tasks is a Table 1 task (Sonar, Heart) plus a
    master_start, every start on every split, cached apart from Table 1 (another experiment name)."""
    from robustpapers.reproduce.chen2008.experiments import paper_scale_tasks, table1_task

    func, tasks, exp, _ = paper_scale_tasks("table1_starts", seed=2)
    _, t1, t1_exp, _ = paper_scale_tasks("table1", seed=2, datasets=["sonar", "heart"])
    assert func is table1_task and exp != t1_exp
    stripped = [{k: v for k, v in t.items() if k != "master_start"} for t in tasks]
    for ds, starts in (("sonar", ("auto", "warm", "cold")), ("heart", ("auto", "warm", "cold"))):
        assert {t["master_start"] for t in tasks if t["dataset"] == ds} == set(starts)
        for start in starts:
            assert ([s for s, t in zip(stripped, tasks) if t["dataset"] == ds and t["master_start"] == start]
                    == [t for t in t1 if t["dataset"] == ds])


def test_master_problem_that_stops_short_is_solved_again_from_the_cold_start(monkeypatch):
    """A warm-started master problem (7) that fails its convergence test is re-solved from the cold start
    (counted in master_retries) so that u+ stays certified; the run reaches the same optimum of (6)."""
    import robustpapers.chen2008.siqclp as siqclp

    _, y, K0 = _problem(n=24, seed=0)
    ref = indefinite_svm(K0, y, C=1.0, rho=2.0, tol=1e-6, max_iter=800, master_start="warm")
    assert ref.master_retries == 0 and ref.master_failures == 0
    real, calls = siqclp.solve_master, []

    def flaky(Q, c, y_, C, alpha0=None, tol=1e-10):
        ms = real(Q, c, y_, C, alpha0=alpha0, tol=tol)
        calls.append(alpha0 is None)
        if alpha0 is not None and len(calls) % 3 == 0:  # every third warm start "stops short"
            ms = dict(ms, converged=False, gap=1.0)
        return ms

    monkeypatch.setattr(siqclp, "solve_master", flaky)
    res = indefinite_svm(K0, y, C=1.0, rho=2.0, tol=1e-6, max_iter=800, master_start="warm")
    assert res.master_retries == sum(calls) > 0 and res.master_failures == 0
    assert res.success and res.lemma41_ok and abs(res.objective - ref.objective) <= 2e-6


@pytest.mark.parametrize("prune", [True, False])
def test_master_start_changes_the_cost_not_the_optimum(prune, monkeypatch):
    """master_start="warm" | "cold" | "auto": the same optimum of (6), certified by the gap; "warm" starts every
    master problem from alpha_{i-1}, "cold" none, and "auto" solves the master problems 1, 26, 51, ... from both
    starts and in between uses the one whose run took fewer Newton steps at the last probe."""
    import robustpapers.chen2008.siqclp as siqclp

    _, y, K0 = _problem(n=30, seed=1)
    real, calls = siqclp.solve_master, []

    def spy(Q, c, y_, C, alpha0=None, tol=1e-10):
        ms = real(Q, c, y_, C, alpha0=alpha0, tol=tol)
        calls.append((alpha0 is None, ms["nit"]))
        return ms

    monkeypatch.setattr(siqclp, "solve_master", spy)
    runs = {}
    for start in ("warm", "cold", "auto"):
        calls.clear()
        res = indefinite_svm(K0, y, C=1.0, rho=1.0, tol=1e-6, prune=prune, max_iter=3000, master_start=start)
        assert res.success and res.lemma41_ok and res.master_failures == 0 and res.master_retries == 0
        assert res.upper[1:].min() - res.lower[-1] <= 1e-6
        runs[start] = (res, list(calls))
    ref = runs["warm"][0].objective
    for start, (res, log) in runs.items():
        assert abs(res.objective - ref) <= 2e-6, start
    n_warm = len(runs["warm"][1])
    assert runs["warm"][0].master_cold == 0 and not any(cold for cold, _ in runs["warm"][1])
    assert runs["cold"][0].master_cold == len(runs["cold"][1]) and all(cold for cold, _ in runs["cold"][1])
    # auto: replay its log -- a probe (warm, then cold) on masters 0, 25, 50, ..., one solve otherwise
    res, log = runs["auto"]
    i, k, start, n_cold = 0, 0, "warm", 0
    while i < len(log):
        if k % 25 == 0:
            (wc, wn), (cc, cn) = log[i], log[i + 1]
            assert not wc and cc, "a probe solves from the warm start, then from the cold start"
            start = "cold" if cn < wn else "warm"
            i += 2
        else:
            assert log[i][0] == (start == "cold"), f"master {k} must use the start chosen at the last probe"
            i += 1
        n_cold += start == "cold"
        k += 1
    assert res.master_cold == n_cold and k >= 26 and n_warm > 25, "at least two probes were made"


def test_width_task_without_perturbation_matches_the_clean_kernel():
    """width_task at xi = 0: LIBSVM on the 'perturbed' kernel is the plain SVM on the clean Gaussian kernel
    (same accuracy); with xi > 0 the kernel is indefinite; g_cv is a width of the grid."""
    from robustpapers.reproduce.chen2008.experiments import width_task

    grid_ = (1.0, 5.0)
    clean = width_task("sonar", 5.0, 0.0, 0, grid_, max_n=60)
    assert clean["acc_svm"] == clean["acc_clean"] and clean["g_cv"] in grid_
    noisy = width_task("sonar", 5.0, 0.1, 0, grid_, max_n=60)
    assert noisy["n_neg"] > 0 and noisy["lambda_min"] < 0
    assert noisy["acc_clean"] == clean["acc_clean"] and noisy["g_cv"] == clean["g_cv"]
