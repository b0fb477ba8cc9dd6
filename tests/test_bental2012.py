"""Property tests of the bental2012 chapter: closed forms, certificates, agreement with cvxpy."""
import copy
import json
import warnings

import cvxpy as cp
import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from robustpapers.bental2012 import (
    D_B, D_G, D_U, SaddlePointProblem, evaluate_prediction_rules, fss_saddle, make_uncertain_dataset,
    project_restricted_lp_ball, project_svm_set_ball, robust_bias, robust_objective, rsvm_support_from_kernels,
    sampled_decisions, svm_set_linear_max, ussvm_fss, ussvm_socp, worst_case_eta,
)
from robustpapers.core import is_psd, svm_dual, svm_bias


def _instance(seed, n=30, L=4, d=50, noise=0.3):
    """A small well-conditioned instance: K̄ = XXᵀ/d (+ tiny ridge), K_l = K̄ + Z_l Z_lᵀ."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = np.where(X[:, 0] + 0.5 * rng.standard_normal(n) > 0, 1.0, -1.0)
    y[:2] = [1.0, -1.0]
    Kb = X @ X.T / d
    Ks = np.stack([Kb + (Z := noise * rng.standard_normal((n, n)) / np.sqrt(n)) @ Z.T for _ in range(L)])
    return Kb, Ks, y


# --- the inner minimisation in closed form -------------------------------------------------------

@pytest.mark.parametrize("p", [1.5, 2.0, 3.0])
def test_closed_form_eta_equals_cvxpy_inner_solution(p):
    rng = np.random.default_rng(1)
    a = rng.uniform(0.1, 2.0, size=6)
    kappa = 0.7
    eta = cp.Variable(6)
    prob = cp.Problem(cp.Maximize(a @ eta), [eta >= 0, cp.pnorm(eta, p) <= kappa])
    prob.solve(solver="CLARABEL")
    ours = worst_case_eta(a, kappa, p)
    q = p / (p - 1)
    assert np.allclose(ours, eta.value, atol=1e-4)
    assert a @ ours == pytest.approx(kappa * np.linalg.norm(a, q), rel=1e-12)
    assert np.linalg.norm(ours, p) == pytest.approx(kappa, rel=1e-12)


def test_eta_p1_puts_the_mass_on_the_largest_forms():
    a = np.array([1.0, 3.0, 2.0, 3.0])
    eta = worst_case_eta(a, 2.0, p=1)
    assert eta.sum() == pytest.approx(2.0)
    assert np.all(eta[[0, 2]] == 0) and eta @ a == pytest.approx(2.0 * a.max())


def test_robust_objective_is_the_worst_case_over_sampled_kernels():
    Kb, Ks, y = _instance(2)
    rng = np.random.default_rng(0)
    alpha = rng.uniform(0, 1, y.size)
    F = robust_objective(alpha, Kb, Ks, y, kappa=0.8)
    u = alpha * y
    for _ in range(50):  # any eta of the set gives an objective >= F (F is the minimum over E(kappa))
        eta = np.abs(rng.standard_normal(Ks.shape[0]))
        eta *= 0.8 / np.linalg.norm(eta)
        K = Kb + np.tensordot(eta, Ks, 1)
        assert alpha.sum() - 0.5 * u @ K @ u >= F - 1e-10


# --- SOCP (13) and FSS agree ----------------------------------------------------------------------

@pytest.mark.parametrize("p", [2.0, 3.0])
def test_fss_objective_equals_socp_objective(p):
    Kb, Ks, y = _instance(3)
    socp = ussvm_socp(Kb, Ks, y, C=1.0, kappa=0.5, p=p)
    fss = ussvm_fss(Kb, Ks, y, C=1.0, kappa=0.5, p=p, tol=1e-6)
    assert socp.success and fss.success
    assert fss.objective == pytest.approx(socp.objective, rel=1e-5)
    # the certificate brackets the optimum: F(alpha_fss) <= F* <= F(alpha_fss) + eps_sad
    assert fss.objective - 1e-7 <= socp.objective <= fss.objective + fss.gap + 1e-7
    # strong concavity (modulus theta) bounds the distance to the unique maximiser by the certificate
    assert np.linalg.norm(fss.alpha - socp.alpha) <= np.sqrt(2 * fss.gap / fss.theta) + 1e-4


def test_socp_value_is_minus_robust_objective():
    Kb, Ks, y = _instance(4)
    res = ussvm_socp(Kb, Ks, y, C=2.0, kappa=1.0)
    assert res.socp_value == pytest.approx(res.objective, rel=1e-6)


def test_kappa_zero_reproduces_the_plain_svm():
    Kb, Ks, y = _instance(5)
    Kb = Kb + 0.1 * np.eye(y.size)  # positive definite: the SVM's alpha is unique
    svm = svm_dual(Kb, y, C=1.0, tol=1e-10)
    for res in (ussvm_fss(Kb, Ks, y, 1.0, 0.0, tol=1e-8, bias="free"),
                ussvm_socp(Kb, Ks, y, 1.0, 0.0, bias="free")):
        assert np.allclose(res.alpha, svm.alpha, atol=1e-3)
        assert res.objective == pytest.approx(svm.objective, rel=1e-6)
        f_ours = Kb @ (res.alpha * y) + res.b
        f_svm = Kb @ (svm.alpha * y) + svm.b
        assert np.array_equal(np.sign(f_ours), np.sign(f_svm))
        assert np.allclose(f_ours, f_svm, atol=5e-3)


def test_bias_rule_of_section_4_2():
    Kb, Ks, y = _instance(6)
    res = ussvm_socp(Kb, Ks, y, C=1.0, kappa=0.5)
    K_eff = Kb + np.tensordot(res.eta, Ks, 1)
    sv = res.alpha > 1e-6
    assert res.b == pytest.approx(np.mean((y - K_eff @ (res.alpha * y))[sv]), abs=1e-10)


def test_bias_does_not_depend_on_an_inactive_box():
    """D_G(1, 15, 3): alpha* is orders of magnitude below C = 1, so C = 500 (the largest C of 000 §7.3) has
    the same alpha*. The §4.2 bias must be the same too; before the fallback of core.support_vectors every
    alpha_i was below 1e-6 * C at C = 500, the support set was empty and the bias came out 0."""
    ds = make_uncertain_dataset("gaussian", 15, 3, random_state=0)
    small, big = (ussvm_socp(ds.K_bar, ds.K_stack, ds.y, C, 1.0, scale="auto") for C in (1.0, 500.0))
    assert small.alpha.max() < 1e-6 * 500.0  # every entry below the C-relative threshold at C = 500
    np.testing.assert_allclose(big.alpha, small.alpha, rtol=1e-4, atol=1e-6 * small.alpha.max())
    assert big.b == pytest.approx(small.b, abs=1e-3 * abs(small.b))
    assert abs(small.b) > 1e-3
    svm = svm_dual(ds.K_bar, ds.y, 500.0)  # LIBSVM's free-SV bias at the same C: every alpha is free
    assert robust_bias(ds.K_bar, ds.y, svm.alpha, 500.0) == pytest.approx(svm.b, abs=1e-2 * abs(svm.b))


def test_bias_floor_is_validated_before_the_solve():
    ds = make_uncertain_dataset("gaussian", 15, 3, random_state=0)
    for bad in (-0.1, 1.0, np.nan):
        with pytest.raises(ValueError, match="bias_floor"):
            ussvm_fss(ds.K_bar, ds.K_stack, ds.y, 1.0, 1.0, bias_floor=bad)

# --- FSS theory (Proposition 2) --------------------------------------------------------------------

@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_fss_theory_schedule_meets_the_stage_bound_19():
    Kb, Ks, y = _instance(7, n=20, L=3)
    Kb = Kb + 1.0 * np.eye(20)  # theta = lambda_min(K̄) >= 1 keeps N_s small
    res = ussvm_fss(Kb, Ks, y, 1.0, 0.5, schedule="theory", R0="paper", restrict_x=False, tol=0.0,
                    max_stages=4, max_iter=10**6)
    tr = res.trace
    theta, R0 = res.constants["theta"], res.constants["R0"]
    stages = tr["stage"][1:].astype(int)
    gaps = tr["gap"][1:]
    assert np.all(gaps <= theta * R0**2 * 2.0 ** (-2 * stages - 5) + 1e-12)  # eq. (19)
    assert np.all(np.diff(gaps) < 0)  # eps_sad of the averaged iterates decreases across stages


def test_fss_adaptive_gap_decreases_across_stages():
    Kb, Ks, y = _instance(8)
    res = ussvm_fss(Kb, Ks, y, 1.0, 0.5, tol=1e-5)
    gaps = res.trace["gap"][1:]
    assert res.success and np.all(np.diff(gaps) < 0)


def test_generic_fss_on_a_toy_saddle_problem():
    # min_{0<=x<=1} max_{0<=y<=2} x y - y^2 + y: saddle at x* = 1, y* = 1, value 1
    prob = SaddlePointProblem(
        operator=lambda x, y: (y.copy(), -(x - 2 * y + 1)),
        project_x=lambda v: np.clip(v, 0, 1), project_y=lambda v: np.clip(v, 0, 2),
        x_omega=np.zeros(1), Omega_X=0.5, Omega_Y=0.5, L_xy=1.0, L_yy=2.0, theta=2.0,
        gap=lambda x, y: float(max((x[0] + 1) ** 2 / 4 if x[0] + 1 <= 4 else 2 * (x[0] + 1) - 4, 0)
                               - (-y[0] ** 2 + y[0])),
        lower=lambda y: float(-y[0] ** 2 + y[0]))
    res = fss_saddle(prob, np.array([0.0]), R0=4.0, tol=1e-9)
    assert res.success and res.gap <= 1e-9
    assert res.y[0] == pytest.approx(0.5, abs=1e-4) and res.objective == pytest.approx(0.25, abs=1e-8)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("step", ["fixed", "backtracking"])
def test_fss_resumed_from_a_checkpoint_takes_the_same_steps(step):
    """A run resumed from any checkpoint (inside a stage or between two) ends on the very iterates and
    certificates of the run never interrupted; a state of another run is refused."""
    Kb, Ks, y = _instance(8)
    kw = dict(tol=1e-9, max_iter=1500, step=step)
    states = []
    full = ussvm_fss(Kb, Ks, y, 1.0, 0.5, checkpoint=lambda s: states.append(copy.deepcopy(s)),
                     checkpoint_every=0, **kw)
    inside = [s for s in states if s["inner"] is not None]
    between = [s for s in states if s["inner"] is None]
    assert len(between) == full.stages and len(inside) > 100
    for state in (inside[7], inside[len(inside) // 2], between[1], between[-2]):
        res = ussvm_fss(Kb, Ks, y, 1.0, 0.5, resume=json.loads(json.dumps(_jsonable(state))), **kw)
        assert np.array_equal(res.alpha, full.alpha) and np.array_equal(res.eta_avg, full.eta_avg)
        assert res.nit == full.nit and res.stages == full.stages
        for col in ("gap", "objective", "M", "N", "R"):
            assert np.array_equal(res.trace[col], full.trace[col]), col
        assert np.all(np.diff(res.trace["time"]) >= 0)  # time goes on from the segment before
    # a longer budget continues the run past the old cap
    longer = ussvm_fss(Kb, Ks, y, 1.0, 0.5, resume=between[-1], **dict(kw, max_iter=2000))
    assert longer.nit >= full.nit
    for other, match in [(dict(C=2.0), "L_xy"), (dict(tol=1e-8), "tol"), (dict(step_grow=2.0), "step_grow")]:
        args = dict(dict(C=1.0, kappa=0.5, **kw), **other)
        with pytest.raises(ValueError, match=match):
            ussvm_fss(Kb, Ks, y, resume=between[0], **args)
    # another CPU rounds the constants (eigenvalues, the SVM-dual certificate behind R0) differently: a state
    # whose constants differ in the last bits still resumes, one of another problem does not
    for rel, ok in [(3e-11, True), (1e-6, False)]:
        state = copy.deepcopy(between[-2])
        state["identity"] = {k: v * (1 + rel) if isinstance(v, float) and k in ("L_xy", "R0", "theta") else v
                             for k, v in state["identity"].items()}
        if ok:
            res = ussvm_fss(Kb, Ks, y, 1.0, 0.5, resume=state, **kw)
            assert res.nit == full.nit and np.allclose(res.alpha, full.alpha)
        else:
            with pytest.raises(ValueError, match="L_xy, R0, theta differ"):
                ussvm_fss(Kb, Ks, y, 1.0, 0.5, resume=state, **kw)
    with pytest.raises(ValueError, match="start y0 differs"):
        ussvm_fss(Kb, Ks, y, 1.0, 0.5, resume=between[0], y0=np.full(y.size, 0.1), R0=float(full.constants["R0"]),
                  **kw)
    with pytest.raises(ValueError, match="state dict"):
        ussvm_fss(Kb, Ks, y, 1.0, 0.5, resume={"stage": 3}, **kw)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_fig5_task_killed_midway_resumes_to_the_uninterrupted_record(tmp_path, monkeypatch):
    """convergence_task under run_sweep: killed after its third checkpoint, the next sweep goes on from the
    file and stores the per-stage trace an uninterrupted run computes."""
    from robustpapers.reproduce.bental2012.experiments import convergence_task
    from robustpapers.reproduce.engine import TaskCheckpoint, run_sweep

    task = dict(N=8, L=3, C=1.0, kappa=1.0, seed=0, tol=1e-7, max_iter=4000, step="backtracking")
    plain = run_sweep(convergence_task, [task], paperkey="b", experiment="f5", cache=False).iloc[0]
    assert plain.commits is None and len(plain.M) > 4

    class Killed(Exception):
        pass
    saves = []
    save = TaskCheckpoint.save

    def dying_save(self, state):
        save(self, state)
        saves.append(state["outer"]["stage"])
        if len(saves) == 3:
            raise Killed
    monkeypatch.setattr(TaskCheckpoint, "save", dying_save)
    with pytest.raises(Killed):
        run_sweep(convergence_task, [task], paperkey="b", experiment="f5", root=tmp_path)
    monkeypatch.setattr(TaskCheckpoint, "save", save)
    assert len(list((tmp_path / "b" / "f5").glob("*.checkpoint"))) == 1
    resumed = run_sweep(convergence_task, [task], paperkey="b", experiment="f5", root=tmp_path).iloc[0]
    for col in ("stage", "M", "N_s", "gap", "R", "objective", "success", "s_star"):
        assert resumed[col] == plain[col], col
    assert len(resumed.commits) == 1 and not list((tmp_path / "b" / "f5").glob("*.checkpoint"))


def _jsonable(obj):
    if isinstance(obj, dict):
        return {k: _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    return obj.item() if isinstance(obj, np.generic) else obj


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_theta_zero_handling():
    rng = np.random.default_rng(9)
    n = 12
    X = rng.standard_normal((n, 3))  # linear kernel with d = 3 < n: lambda_min(K̄) = 0
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    Kb = X @ X.T
    Ks = np.stack([Kb + np.outer(v, v) for v in rng.standard_normal((3, n))])  # singular K_l as well
    with pytest.raises(ValueError, match="theta"):
        ussvm_fss(Kb, Ks, y, 1.0, 0.5, schedule="theory", restrict_x=False)
    socp = ussvm_socp(Kb, Ks, y, 1.0, 0.5)
    adaptive = ussvm_fss(Kb, Ks, y, 1.0, 0.5, tol=2e-3, max_iter=20000)
    assert adaptive.theta == 0.0 and adaptive.success
    assert adaptive.objective <= socp.objective + 1e-9  # F(alpha) never exceeds the optimum
    assert socp.objective - adaptive.objective <= adaptive.gap + 1e-7  # ... and the certificate bounds the rest
    # a ridge makes theta > 0; the original objective at its solution is within ridge C^2 n / 2 (+ gap)
    ridge = 1e-2
    r = ussvm_fss(Kb, Ks, y, 1.0, 0.5, ridge=ridge, restrict_x=False, tol=2e-3, max_iter=20000)
    assert r.theta >= ridge and r.success
    assert socp.objective - r.objective <= ridge * n / 2 + r.gap + 1e-7


def test_float32_kernels_give_the_same_solution():
    Kb, Ks, y = _instance(10)
    a = ussvm_fss(Kb, Ks, y, 1.0, 0.5, tol=1e-6)
    b = ussvm_fss(Kb, Ks.astype(np.float32), y, 1.0, 0.5, tol=1e-5, dtype=np.float32)
    assert b.objective == pytest.approx(a.objective, rel=1e-4)


# --- projections and the certificate's LP ------------------------------------------------------------

@pytest.mark.parametrize("p", [1.0, 2.0, 3.0, np.inf])
def test_restricted_ball_projection_matches_cvxpy(p):
    rng = np.random.default_rng(11)
    for _ in range(5):
        v = rng.standard_normal(5) * 0.6
        x = cp.Variable(5)
        cons = [x >= 0, cp.sum(x) >= 1, (cp.pnorm(x, p) if np.isfinite(p) else cp.norm(x, "inf")) <= 1]
        cp.Problem(cp.Minimize(cp.sum_squares(x - v)), cons).solve(solver="CLARABEL")
        assert np.allclose(project_restricted_lp_ball(v, p), x.value, atol=1e-5)


def test_svm_ball_projection_kkt():
    rng = np.random.default_rng(12)
    y = np.array([1.0, -1, 1, -1, 1, -1])
    c = np.array([0.2, 0.1, 0.0, 0.3, 0.2, 0.0])  # in S_n (y'c = 0)
    for _ in range(5):
        v = 2 * rng.standard_normal(6)
        a = project_svm_set_ball(v, y, 1.0, c, 0.3)
        z = cp.Variable(6)
        cons = [z >= 0, z <= 1, y @ z == 0, cp.norm(z - c) <= 0.3]
        cp.Problem(cp.Minimize(cp.sum_squares(z - v)), cons).solve(solver="CLARABEL")
        assert np.allclose(a, z.value, atol=1e-4)
        assert abs(a @ y) < 1e-10 and np.all((a >= 0) & (a <= 1)) and np.linalg.norm(a - c) <= 0.3 + 1e-9


def test_svm_set_linear_max_matches_lp():
    rng = np.random.default_rng(13)
    y = np.where(rng.random(15) > 0.4, 1.0, -1.0)
    y[:2] = [1, -1]
    for _ in range(5):
        g = rng.standard_normal(15)
        a = cp.Variable(15)
        prob = cp.Problem(cp.Maximize(g @ a), [a >= 0, a <= 2.0, y @ a == 0])
        prob.solve(solver="CLARABEL")
        assert svm_set_linear_max(g, y, 2.0) == pytest.approx(prob.value, abs=1e-6)


# --- data generators (§7.1) and prediction rules (§6) ---------------------------------------------

@pytest.mark.parametrize("family", [D_G, D_U, D_B])
def test_generators_shapes_labels_psd(family):
    sets = family(2, 6, 3, random_state=0)
    assert len(sets) == 2
    for ds in sets:
        n = 12
        assert ds.X.shape[0] == n and 2 <= ds.X.shape[1] <= 100
        assert ds.K_bar.shape == (n, n) and ds.K_stack.shape == (3, n, n)
        assert sorted(set(ds.y.tolist())) == [-1.0, 1.0] and ds.y.sum() == 0
        assert np.allclose(ds.K_bar, ds.X @ ds.X.T)
        assert is_psd(ds.K_bar) and all(is_psd(K) for K in ds.K_stack)
        assert np.all(np.linalg.eigvalsh(ds.K_stack - ds.K_bar) >= -1e-6 * np.abs(ds.K_bar).max())


def test_generators_are_seeded():
    a, b = D_U(1, 5, 2, random_state=3)[0], D_U(1, 5, 2, random_state=3)[0]
    assert np.array_equal(a.K_stack, b.K_stack)


def test_rsvm_support_bounds():
    ds = make_uncertain_dataset("gaussian", 5, 4, random_state=1)
    K_bar, lo, hi = rsvm_support_from_kernels(ds.K_stack)
    assert np.all(lo <= K_bar + 1e-12) and np.all(K_bar <= hi + 1e-12)
    assert np.allclose(K_bar, ds.K_stack.mean(0))


def test_prediction_rules():
    Kb, Ks, y = _instance(14, n=40)
    tr, te = np.arange(30), np.arange(30, 40)
    res = ussvm_socp(Kb[np.ix_(tr, tr)], Ks[:, tr][:, :, tr], y[tr], 1.0, 0.5)
    stack = np.concatenate([Kb[None], Ks])[:, te][:, :, tr]
    f, F, eta = sampled_decisions(stack, y[tr], res.alpha, res.b, 0.5, R=20, random_state=0)
    assert F.shape == (20, 10) and np.all(np.linalg.norm(eta, axis=1) <= 0.5 + 1e-12) and np.all(eta >= 0)
    f0, F0, _ = sampled_decisions(stack, y[tr], res.alpha, res.b, 0.0, R=5, random_state=0)
    assert np.allclose(F0, f0[None])  # kappa = 0: every draw is the nominal rule
    err = evaluate_prediction_rules(stack, y[te], y[tr], res.alpha, res.b, 0.5, R=20, random_state=0)
    assert err["RE"] >= err["ME"] - 1e-12


# --- bad input ------------------------------------------------------------------------------------

@pytest.mark.parametrize("solver", [ussvm_fss, ussvm_socp])
def test_bad_inputs(solver):
    Kb, Ks, y = _instance(15, n=10, L=2)
    with pytest.raises(ValueError, match="different shapes"):
        solver(Kb, [Ks[0], Ks[1][:5, :5]], y, 1.0, 0.5)
    with pytest.raises(ValueError, match="K_list"):
        solver(Kb, Ks[:, :5, :5], y, 1.0, 0.5)
    bad = Kb.copy()
    bad[0, 0] = -5.0
    with pytest.raises(ValueError, match="positive semidefinite"):
        solver(bad, Ks, y, 1.0, 0.5)
    with pytest.raises(ValueError, match="kappa"):
        solver(Kb, Ks, y, 1.0, -0.1)
    with pytest.raises(ValueError, match="p must be"):
        solver(Kb, Ks, y, 1.0, 0.5, p=0.5)
    with pytest.raises(ValueError, match="y must take values"):
        solver(Kb, Ks, np.where(y > 0, 1.0, 0.0), 1.0, 0.5)
    with pytest.raises(ValueError, match="C must be"):
        solver(Kb, Ks, y, 0.0, 0.5)


# --- §5.4: FSS on the chance-constrained minimax (23) against the SOCP (22) -------------------------

def test_fss_on_23_equals_socp_22():
    from robustpapers.bental2012 import chance_fss, chance_socp

    rng = np.random.default_rng(16)
    n = 15
    X = rng.standard_normal((n, 30))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    y[:2] = [1.0, -1.0]
    Kb = X @ X.T / 30 + 0.05 * np.eye(n)
    B = rng.uniform(0, 0.3, (n, 4))
    beta = B @ B.T + 0.05 * np.eye(n)  # nonnegative entries, positive definite
    socp = chance_socp(Kb, beta, y, 1.0, 1.0)
    fss = chance_fss(Kb, beta, y, 1.0, 1.0, tol=1e-6)
    assert socp.success and fss.success
    assert fss.objective == pytest.approx(socp.objective, rel=1e-5)
    assert fss.objective - 1e-7 <= socp.objective <= fss.objective + fss.gap + 1e-7
    # zeta stays feasible: zeta >= 0 and zeta' beta^-1 zeta <= kappa^2 / 4
    z = fss.zeta
    assert np.all(z >= 0) and z @ np.linalg.solve(beta, z) <= 0.25 * (1 + 1e-9)
    with pytest.raises(ValueError, match="nonnegative"):
        chance_fss(Kb, beta - 1.0, y, 1.0, 1.0)


# --- speed options: backtracking steps, equivalent rescaling ---------------------------------------

def test_rescaling_is_an_exact_equivalence():
    """F(a; K, C) = F(c a; K/c, cC) / c, and the SOCP on the rescaled problem maps back to the same alpha."""
    from robustpapers.bental2012 import rescale_ussvm
    Kb, Ks, y = _instance(11, n=24, L=3)
    Kb, Ks = 250.0 * Kb, 250.0 * Ks  # badly scaled on purpose
    rng = np.random.default_rng(0)
    c = 250.0
    Kb_c, Ks_c, C_c = rescale_ussvm(Kb, Ks, 1.0, c)
    assert C_c == 250.0
    for _ in range(5):
        a = rng.uniform(0, 1, y.size)
        assert robust_objective(c * a, Kb_c, Ks_c, y, 0.7) / c == pytest.approx(
            robust_objective(a, Kb, Ks, y, 0.7), rel=1e-12)
    plain = ussvm_socp(Kb, Ks, y, 1.0, 0.7)
    scaled = ussvm_socp(Kb, Ks, y, 1.0, 0.7, scale="auto")
    assert scaled.scale != 1.0
    assert scaled.objective == pytest.approx(plain.objective, rel=1e-5)
    assert np.allclose(scaled.alpha, plain.alpha, atol=1e-4)
    # FSS is scale-equivariant (every constant of (16) and every step of (17) moves with the map):
    # on the rescaled problem the same steps return c * alpha, objective c * F
    kw = dict(schedule="theory", R0="paper", tol=0.0, max_iter=300)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        f1 = ussvm_fss(Kb, Ks, y, 1.0, 0.7, **kw)
        f2 = ussvm_fss(Kb_c, Ks_c, y, C_c, 0.7, **kw)
    assert f2.objective / c == pytest.approx(f1.objective, rel=1e-8)
    assert np.allclose(f2.alpha / c, f1.alpha, rtol=1e-7, atol=1e-12)
    with pytest.raises(ValueError, match="scale"):
        rescale_ussvm(Kb, Ks, 1.0, -1.0)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_backtracking_fss_reaches_the_socp_objective(seed):
    """Random instances: the backtracking step certifies eps_sad <= 1e-4 |F| and F is within 1e-3 of SOCP's."""
    Kb, Ks, y = _instance(20 + seed, n=40, L=5)
    socp = ussvm_socp(Kb, Ks, y, C=1.0, kappa=0.8)
    fix = ussvm_fss(Kb, Ks, y, 1.0, 0.8, tol=1e-4)
    bt = ussvm_fss(Kb, Ks, y, 1.0, 0.8, tol=1e-4, step="backtracking")
    assert bt.success and fix.success
    assert abs(bt.objective - socp.objective) <= 1e-3 * abs(socp.objective)
    # the certificate is valid: F(alpha) <= F* <= F(alpha) + eps_sad
    assert bt.objective - 1e-8 <= socp.objective <= bt.objective + bt.gap + 1e-8
    assert bt.trace["mean_gamma"][-1] >= 1.0


def test_backtracking_certificate_is_valid_on_paper_data():
    """D_U(1, 20, 3), C = 10, kappa = 1 (the §7.5 setting, tiny): the backtracking run's certificate
    brackets the SOCP optimum, F(alpha) <= F* <= F(alpha) + eps_sad, and its weights are >= 1."""
    ds = make_uncertain_dataset("uniform", 20, 3, random_state=5)
    socp = ussvm_socp(ds.K_bar, ds.K_stack, ds.y, 10.0, 1.0, scale="auto")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        bt = ussvm_fss(ds.K_bar, ds.K_stack, ds.y, 10.0, 1.0, tol=1e-4, step="backtracking", max_iter=1500)
    assert socp.success
    slack = 1e-7 * abs(socp.objective)
    assert bt.objective - slack <= socp.objective <= bt.objective + bt.gap + slack
    assert np.all(bt.trace["mean_gamma"][1:] >= 1.0)


def test_step_option_is_validated():
    Kb, Ks, y = _instance(3, n=10, L=2)
    with pytest.raises(ValueError, match="step"):
        ussvm_fss(Kb, Ks, y, 1.0, 0.5, step="bogus")
    with pytest.raises(ValueError, match="step_grow"):
        ussvm_fss(Kb, Ks, y, 1.0, 0.5, step="backtracking", step_grow=0.5)


@pytest.mark.parametrize("seed", [0, 1])
def test_probe_radius_keeps_the_certificate_valid(seed):
    """R0="probe" is a guess, not a bound, but the certificate is the full problem's: whatever the
    radius, F(alpha) <= F* <= F(alpha) + eps_sad."""
    Kb, Ks, y = _instance(40 + seed, n=40, L=5)
    socp = ussvm_socp(Kb, Ks, y, C=1.0, kappa=0.8)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        res = ussvm_fss(Kb, Ks, y, 1.0, 0.8, tol=1e-4, R0="probe", step="backtracking", max_iter=200)
        auto = ussvm_fss(Kb, Ks, y, 1.0, 0.8, tol=1e-4, R0="auto", max_iter=20)
        # a radius far too small (theta overridden by 1e6): the ball misses y_*, nothing false is certified
        tiny = ussvm_fss(Kb, Ks, y, 1.0, 0.8, tol=1e-6, R0="probe", theta=1e6, max_iter=100)
    assert res.constants["R0"] < auto.constants["R0"]
    for r in (res, tiny):
        assert r.objective - 1e-8 <= socp.objective <= r.objective + r.gap + 1e-8


# --- FSS as printed on Fig. 5's first problem; the generator's two readings -------------------------------------

def test_printed_fss_stage_lengths_are_those_of_16e():
    """convergence_task(variant="printed") runs R0 = 2C sqrt(n) and the stage lengths (16e): on D_U(1, 50, 5) with
    C = 1 the first three are 333,902 / 471,710 / 747,325 steps and s* = 3 (eq. (20))."""
    import warnings
    from types import SimpleNamespace

    from robustpapers.core.fss import fss_stage_constants
    from robustpapers.reproduce.bental2012.experiments import s_star
    from robustpapers.reproduce.engine import derive_seed

    ds = make_uncertain_dataset("uniform", 50, 5, random_state=derive_seed(0, "conv", 50, 5))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = ussvm_fss(ds.K_bar, ds.K_stack, ds.y, 1.0, 1.0, tol=1e-8, max_iter=1, schedule="theory", R0="paper",
                      y0="zeros", restrict_y=False)
    c = r.constants
    assert c["R0"] == pytest.approx(2 * 1.0 * np.sqrt(100))
    prob = SimpleNamespace(**{k: c[k] for k in ("L_xy", "L_yy", "Omega_X", "Omega_Y", "theta")})
    assert [fss_stage_constants(prob, c["R0"] / 2**s)["N"] for s in range(3)] == [333_902, 471_710, 747_325]
    assert s_star(c) == 3


def test_convergence_task_refuses_a_printed_run_with_other_rules():
    from robustpapers.reproduce.bental2012.experiments import convergence_task

    with pytest.raises(ValueError, match="printed"):
        convergence_task(N=5, L=2, C=1.0, kappa=1.0, seed=0, tol=1e-3, max_iter=10, schedule="adaptive",
                         variant="printed")
    with pytest.raises(ValueError, match="variant"):
        convergence_task(N=5, L=2, C=1.0, kappa=1.0, seed=0, tol=1e-3, max_iter=10, variant="paper")


def test_mixture_readings_share_their_draws():
    """diagonal='std' reads Sigma's diagonal U(0, 5) as standard deviations: same centres, labels and normal draws,
    each deviation from its centre scaled by sqrt(s) instead of 1 (s the drawn entry)."""
    from robustpapers.bental2012.data import make_mixture_data

    Xv, yv = make_mixture_data(200, random_state=5, d=3)
    Xs, ys = make_mixture_data(200, random_state=5, d=3, diagonal="std")
    assert np.array_equal(yv, ys)
    assert np.array_equal(make_mixture_data(200, random_state=5, d=3)[0], Xv)  # the default is unchanged
    assert np.var(Xs) > np.var(Xv)
    with pytest.raises(ValueError, match="diagonal"):
        make_mixture_data(5, random_state=0, diagonal="sd")


def test_effective_kernel_reads_a_float32_stack_in_place():
    """bental2012 §4.2's K-bar + sum_l eta_l K_l on a float32 stack: the float64 sum's value to float32 accuracy,
    without the float64 copy of the stack that a float64 eta would make NumPy allocate (traced allocations stay
    below the stack's own size); (L, m, n) test stacks too."""
    import tracemalloc

    from robustpapers.bental2012.robust import effective_kernel

    rng = np.random.default_rng(0)
    L, n = 20, 200
    Z = rng.standard_normal((L, n, 5))
    K64 = np.einsum("lik,ljk->lij", Z, Z)
    K32 = K64.astype(np.float32)
    Kb, eta = K64.mean(axis=0), rng.random(L)
    exact = Kb + np.tensordot(eta, K32.astype(float), axes=(0, 0))
    tracemalloc.start()
    got = effective_kernel(Kb, K32, eta)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert got.dtype == np.float64 and np.allclose(got, exact, rtol=1e-6, atol=1e-5 * np.abs(exact).max())
    assert peak < K32.nbytes  # a float64 copy of the stack alone would be 2 * K32.nbytes
    test = K32[:, :50, :]  # (L, m, n), not contiguous: still the same value
    assert np.allclose(effective_kernel(Kb[:50], test, eta), exact[:50], rtol=1e-6, atol=1e-5 * np.abs(exact).max())
    assert np.allclose(effective_kernel(Kb, K64, eta), Kb + np.tensordot(eta, K64, axes=(0, 0)))
