"""RSVM_QN's convergence (issue 5): the instance on which the unscaled scheme stalled, scale invariance,
the KKT residual used as stationarity measure, and the bias rule when every alpha is far below C."""
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from robustpapers.bental2012.data import make_uncertain_dataset
from robustpapers.bental2012.rsvm_baseline import rsvm_beta_from_kernels, rsvm_kappa
from robustpapers.bhadra2010 import robust_bias, rsvm, rsvm_kkt_residual, rsvm_objective
from robustpapers.core import is_psd, svm_dual

#: relative agreement required between QN (best start) and the SOCP on a PSD beta
AGREE_RTOL = 1e-6
#: KKT residual (absolute: the linear term has unit gradient) required of a converged QN run
KKT_TOL = 1e-3


def _du_instance(N=50, L=20, eps=0.05, seed=0):
    """000's D_U data with RSVM's support information, built as bental2012's rsvm_baseline does."""
    ds = make_uncertain_dataset("uniform", N, L, random_state=seed)
    K_bar, beta = rsvm_beta_from_kernels(ds.K_stack)
    return K_bar, ds.y, beta, rsvm_kappa(eps)


def _feasible(alpha, y, C):
    return abs(alpha @ y) <= 1e-9 * max(1.0, alpha.sum()) and alpha.min() >= 0 and alpha.max() <= C


def test_qn_converges_where_the_unscaled_scheme_stalled():
    """D_U, n = 100, C = 100: the optimal alpha is ~1e-4, six orders below C."""
    K, y, beta, kappa = _du_instance()
    C = 100.0
    assert not is_psd(beta)  # the genuinely non-convex case
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        qn = rsvm(K, y, C, beta, kappa, method="qn", n_starts=3, random_state=0)
    assert qn.success and qn.start_converged.all()
    assert _feasible(qn.alpha, y, C)
    assert qn.kkt_residual <= KKT_TOL
    # the PSD restriction (clipped beta >= beta in the robustness term) is a feasible lower bound
    soc = rsvm(K, y, C, beta, kappa, method="socp", beta_approx="psd")
    assert qn.objective >= soc.objective
    assert np.isfinite(qn.b) and np.isfinite(soc.b)
    # the earlier unscaled scheme (its penalty 1e3, its cap 2000) stops at max_iter with a negative objective
    # (0 is feasible: alpha = 0)
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        old = rsvm(K, y, C, beta, kappa, method="qn", n_starts=1, random_state=0, qn_scaling=None, penalty=1e3,
                   qn_line_search="wolfe", max_iter=2000)
    assert old.objective < 0 < qn.objective
    assert old.kkt_residual > 100 * KKT_TOL


def test_qn_matches_socp_on_psd_beta_of_the_stalled_instance():
    """With beta PSD the SOCP solves the same problem: QN's best start reaches its optimum."""
    K, y, beta, kappa = _du_instance()
    C = 100.0
    soc = rsvm(K, y, C, beta, kappa, method="socp", beta_approx="psd")
    qn = rsvm(K, y, C, beta, kappa, method="qn", beta_approx="psd", n_starts=2, random_state=1)
    assert qn.success and _feasible(qn.alpha, y, C) and _feasible(soc.alpha, y, C)
    assert abs(qn.objective - soc.objective) <= AGREE_RTOL * abs(soc.objective)
    # both are (nearly) KKT points of the same convex problem
    assert qn.kkt_residual <= KKT_TOL and soc.kkt_residual <= KKT_TOL
    assert rsvm_kkt_residual(K, y, qn.beta, kappa, C, np.zeros(y.size)) == pytest.approx(1.0)


@pytest.mark.parametrize("c", [1e-3, 1e4])
def test_qn_is_invariant_to_the_kernel_scale(c):
    """K -> cK, beta -> c^2 beta maps the optimum alpha -> alpha / c and the objective -> objective / c."""
    rng = np.random.default_rng(7)
    X = rng.normal(size=(40, 3))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=40) > 0, 1.0, -1.0)
    K = X @ X.T
    beta = np.abs(rng.normal(size=K.shape)) * 0.05
    beta = beta + beta.T
    C, kappa = 1.0, 1.2
    ref = rsvm(K, y, C, beta, kappa, method="qn", n_starts=2, random_state=0)
    big = rsvm(c * K, y, C / c, c**2 * beta, kappa, method="qn", n_starts=2, random_state=0)
    assert ref.success and big.success
    assert big.objective * c == pytest.approx(ref.objective, rel=1e-6)
    assert big.kkt_residual <= KKT_TOL and ref.kkt_residual <= KKT_TOL


def test_kkt_residual_is_the_exact_minimum_over_the_bias():
    rng = np.random.default_rng(3)
    n, C = 12, 2.0
    X = rng.normal(size=(n, 2))
    K = X @ X.T
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    beta = np.abs(rng.normal(size=(n, n))); beta = beta + beta.T
    alpha = rng.uniform(0, C, n)
    alpha[:3] = 0.0
    alpha[3:5] = C
    rho = rsvm_kkt_residual(K, y, beta, 0.7, C, alpha)
    # brute force over b of the same piecewise-linear function
    a2 = alpha**2
    g = y * (K @ (y * alpha)) - 1 + 0.7 * alpha * (beta @ a2) / np.sqrt(a2 @ beta @ a2)
    bs = np.linspace(-3 * np.abs(g).max() - 3, 3 * np.abs(g).max() + 3, 200001)
    r = g[None, :] + bs[:, None] * y[None, :]
    viol = np.where(alpha == 0, np.maximum(0, -r), np.where(alpha == C, np.maximum(0, r), np.abs(r)))
    brute = viol.max(axis=1).min()
    assert rho <= brute + 1e-12
    assert rho >= brute - (bs[1] - bs[0])


def test_kkt_residual_vanishes_at_the_svm_optimum():
    """beta = 0, kappa = 0: eq. (15) is the SVM dual; LIBSVM's optimum is a KKT point."""
    rng = np.random.default_rng(2)
    X = rng.normal(size=(30, 2))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=30) > 0, 1.0, -1.0)
    K = X @ X.T
    sol = svm_dual(K, y, 1.0, tol=1e-10)
    zero = np.zeros_like(K)
    assert rsvm_kkt_residual(K, y, zero, 0.0, 1.0, sol.alpha) < 1e-6
    assert rsvm_kkt_residual(K, y, zero, 0.0, 1.0, 0.5 * sol.alpha) > 1e-2
    assert rsvm_objective(K, y, zero, 0.0, sol.alpha) >= rsvm_objective(K, y, zero, 0.0, 0.5 * sol.alpha)


def test_robust_bias_when_every_alpha_is_far_below_C():
    K, y, beta, kappa = _du_instance(N=15, L=10)
    alpha = rsvm(K, y, 100.0, beta, kappa, method="socp", beta_approx="psd").alpha
    assert alpha.max() < 1e-4 * 100.0  # no alpha passes the default threshold sv_tol * C
    b = robust_bias(K, y, alpha, 100.0)
    sv = alpha > 1e-4 * alpha.max()
    assert np.isfinite(b)
    assert b == pytest.approx(np.mean(y[sv] - K[np.ix_(sv, sv)] @ (y * alpha)[sv]))


def test_qn_scaling_must_be_known():
    K, y, beta, kappa = _du_instance(N=5, L=3)
    with pytest.raises(ValueError, match="qn_scaling"):
        rsvm(K, y, 1.0, beta, kappa, method="qn", n_starts=1, qn_scaling="diag")


def test_kkt_residual_bad_inputs():
    K, y, beta, kappa = _du_instance(N=5, L=3)
    with pytest.raises(ValueError, match="alpha"):
        rsvm_kkt_residual(K, y, beta, kappa, 1.0, np.zeros(3))
    with pytest.raises(ValueError, match="C"):
        rsvm_kkt_residual(K, y, beta, kappa, -1.0, np.zeros(y.size))



def test_qn_starts_find_two_certified_local_optima_on_an_indefinite_beta():
    """003 §3 restarts QN because eq. (15) is non-convex for a non-PSD beta: on the constructed four-point
    instance the starts end at two different KKT points, each a local maximum (no feasible perturbation
    improves it), and the best start keeps the better one; below the threshold kappa sqrt(b) = 5 of the
    worse point only one optimum remains."""
    from robustpapers.bhadra2010 import kappa_gaussian
    from robustpapers.reproduce.bhadra2010.experiments import local_optima_instance
    from robustpapers.core import project_svm_set

    C = 10.0
    K, y, beta = local_optima_instance(b=100.0)
    assert not is_psd(beta) and beta.min() >= 0
    kappa = kappa_gaussian(0.1)
    qn = rsvm(K, y, C, beta, kappa, method="qn", n_starts=30, random_state=0)
    objs = qn.start_objectives
    good, bad = objs >= objs.max() - 1e-4, objs <= objs.min() + 1e-4
    assert good.sum() + bad.sum() == objs.size and bad.any() and good.any()
    assert objs.max() - objs.min() > 0.3  # two distinct values, not solver noise
    assert qn.objective == objs.max()
    rng = np.random.default_rng(1)
    for k in (int(np.argmax(objs)), int(np.argmin(objs))):
        a = qn.start_alphas[k]
        assert rsvm_kkt_residual(K, y, beta, kappa, C, a) < KKT_TOL
        f = rsvm_objective(K, y, beta, kappa, a)
        for _ in range(200):  # second order: nearby feasible points are not better
            p = project_svm_set(a + 1e-2 * rng.standard_normal(4), y, C)
            assert rsvm_objective(K, y, beta, kappa, p) <= f + 1e-6
    # the d = 0 picture: the worse point rests on the pair (1, 4), the better one on (2, 3)
    assert qn.start_alphas[int(np.argmin(objs))][[1, 2]].max() < 0.05
    assert qn.start_alphas[int(np.argmax(objs))][[0, 3]].max() < 0.05
    # kappa sqrt(b) = 1.28 * 4 < 5 (b = 16): the pair (1, 4) is no longer a local maximum
    K, y, beta = local_optima_instance(b=16.0)
    qn = rsvm(K, y, C, beta, kappa, method="qn", n_starts=30, random_state=0)
    assert np.ptp(qn.start_objectives) < 1e-5 * qn.objective


@pytest.mark.parametrize("C", [0.05, 10.0])
def test_exact_line_search_meets_strong_wolfe_by_the_independent_gradient(C):
    """The 1-D restriction of eq. (17) used by the exact line search is the penalty itself: at the step it
    returns for each row of a batch (each with its own penalty P), the directional derivative computed by
    ``qn_penalty`` has shrunk by the factor c2 = 0.1, L has decreased, and the value and gradient it returns
    (from products updated along the line) are ``qn_penalty``'s (C = 0.05 puts the box penalty in play)."""
    from robustpapers.bhadra2010 import qn_penalty
    from robustpapers.bhadra2010.solvers import _C2, _ExactSearch

    K, y, beta, kappa = _du_instance(N=20, L=10)
    K = K / np.abs(K).max()
    beta = beta / beta.max()
    rng = np.random.default_rng(3)
    P = np.array([50.0, 5.0, 500.0])
    search = _ExactSearch(K, y, beta, kappa, C, P, refresh=1000)
    X = rng.uniform(0, 2 * C, (P.size, y.size))
    F, G = search.at(X)
    for _ in range(20):
        D = -(G + 0.3 * rng.standard_normal(G.shape) * np.abs(G))  # descent directions, not the gradients
        assert np.all(np.sum(G * D, axis=1) < 0)
        step, FN, GN = search.search(X, F, G, D)
        assert np.all(step > 0)
        for i, Pi in enumerate(P):
            ref_f, ref_g = qn_penalty(X[i] + step[i] * D[i], K, y, beta, kappa, C, Pi)
            assert abs(ref_g @ D[i]) <= _C2 * abs(G[i] @ D[i]) * (1 + 1e-9)
            assert ref_f < F[i]
            np.testing.assert_allclose(FN[i], ref_f, rtol=1e-10)
            np.testing.assert_allclose(GN[i], ref_g, rtol=1e-8, atol=1e-10 * np.abs(ref_g).max())
        X, F, G = X + step[:, None] * D, FN, GN  # the next search starts from the products updated along the line


def test_batched_starts_run_as_each_start_alone():
    """The starts of a batch run side by side: each ends where a run from that start alone ends, to the last
    bit (point, objective, iteration count, status), whatever the other starts do; dropping the rows that stop
    (here at different iterations) does not disturb the others, nor does splitting the batch in two."""
    from robustpapers.bhadra2010.solvers import _qn_starts

    K, y, beta, kappa = _du_instance(N=15, L=10)
    C = 1.0
    rng = np.random.default_rng(0)
    starts = rng.uniform(0, C, (6, y.size))
    args = (K, y, beta, kappa, C, 1e5, 1e-7, 20000)
    together = _qn_starts(starts, *args)
    assert len({o[2] for o in together}) > 1  # the rows stop at different iterations
    halves = _qn_starts(starts[:2], *args) + _qn_starts(starts[2:], *args)
    alone = [_qn_starts(a0[None], *args)[0] for a0 in starts]
    for mine, half, ref in zip(together, halves, alone):
        assert mine[3]  # converged
        for other in (half, ref):
            assert np.array_equal(mine[0], other[0]) and mine[1:] == other[1:]


@pytest.mark.parametrize("method", ["qn", "socp", "qp"])
def test_rsvm_many_is_rsvm_at_each_pair_to_the_last_bit(method):
    """rsvm_many at several (C, kappa) returns what rsvm returns at each, bit for bit (QN: the starts of all fits
    share batches, one of them split across two batches; C = 0.05 puts the box penalty in play)."""
    from robustpapers.bhadra2010 import rsvm_many

    K, y, beta, kappa = _du_instance(N=15, L=10)
    approx = {"qn": None, "socp": "psd", "qp": "principal"}[method]
    Cs, kappas, seeds = [1.0, 0.05, 10.0], [kappa, 0.5 * kappa, 0.0], [3, 4, 5]
    kw = dict(beta_approx=approx, n_starts=4)
    many = rsvm_many(K, y, Cs, beta, kappas, method, random_states=seeds, qn_batch=5, **kw)
    for res, C, k, seed in zip(many, Cs, kappas, seeds):
        one = rsvm(K, y, C, beta, k, method, random_state=seed, **kw)
        assert np.array_equal(res.alpha, one.alpha) and res.b == one.b and res.objective == one.objective
        assert (res.nit, res.success, res.kappa) == (one.nit, one.success, one.kappa)
        if method == "qn":
            assert np.array_equal(res.start_objectives, one.start_objectives)
            assert list(res.start_status) == list(one.start_status)


def test_rsvm_many_bad_inputs():
    from robustpapers.bhadra2010 import rsvm_many

    K, y, beta, kappa = _du_instance(N=5, L=3)
    with pytest.raises(ValueError, match="same length"):
        rsvm_many(K, y, [1.0, 2.0], beta, [kappa], n_starts=1)
    with pytest.raises(ValueError, match="same length"):
        rsvm_many(K, y, [], beta, [], n_starts=1)
    with pytest.raises(ValueError, match="random_states"):
        rsvm_many(K, y, [1.0, 2.0], beta, [kappa, kappa], random_states=[0], n_starts=1)
    with pytest.raises(ValueError, match="kappa"):
        rsvm_many(K, y, [1.0, 2.0], beta, [kappa, -1.0], n_starts=1)
    with pytest.raises(ValueError, match="C"):
        rsvm_many(K, y, [1.0, 0.0], beta, [kappa, kappa], n_starts=1)


def test_exact_and_wolfe_line_searches_reach_the_same_optimum():
    """Both line searches run the same DFP iteration; on the non-convex D_U instance they agree on eq. (15)."""
    K, y, beta, kappa = _du_instance()
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        ex = rsvm(K, y, 1.0, beta, kappa, method="qn", n_starts=2, random_state=0)
        wo = rsvm(K, y, 1.0, beta, kappa, method="qn", n_starts=2, random_state=0, qn_line_search="wolfe")
    assert abs(ex.objective - wo.objective) <= AGREE_RTOL * abs(wo.objective)
    assert ex.kkt_residual < KKT_TOL and wo.kkt_residual < KKT_TOL
    with pytest.raises(ValueError, match="qn_line_search"):
        rsvm(K, y, 1.0, beta, kappa, method="qn", n_starts=1, qn_line_search="armijo")


class _NoDecrease:
    """A penalty whose reported gradient promises descent that no step delivers: every move increases it
    (as rounding does at a numerical floor). A batch of rows, as :func:`_dfp_minimise` runs them."""

    def at(self, X, rows=None):
        return 1.0 + np.abs(X.sum(axis=1)), np.ones_like(X)

    def search(self, X, F, G, D):
        return np.full(len(X), np.nan), np.full(len(X), np.nan), np.full_like(X, np.nan)

    def keep(self, mask):
        pass


def test_qn_says_why_a_start_stopped_and_names_the_right_knob(monkeypatch):
    """A start stopped by the iteration cap warns naming max_iter; one whose line search finds no decrease
    before the gradient test is met (more iterations would not help) names tol; converged starts are
    'tol' or 'stalled' (no further decrease)."""
    from robustpapers.bhadra2010 import solvers

    K, y, beta, kappa = _du_instance(N=10, L=5)
    ok = rsvm(K, y, 1.0, beta, kappa, method="qn", n_starts=2, random_state=0)
    assert ok.success and set(ok.start_status) <= {"tol", "stalled"}
    with pytest.warns(ConvergenceWarning, match="increase max_iter"):
        capped = rsvm(K, y, 1.0, beta, kappa, method="qn", n_starts=2, random_state=0, max_iter=1)
    assert not capped.success and list(capped.start_status) == ["max_iter", "max_iter"]
    # the floor: Armijo backtracking finds no decrease along a direction the gradient calls descent
    x, f, nit, status, _ = solvers._dfp_minimise(_NoDecrease(), np.zeros((2, 3)), tol=1e-7, max_iter=50)
    assert list(status) == ["line_search"] * 2 and list(nit) == [1, 1] and list(f) == [1.0, 1.0]
    real = solvers._dfp_minimise

    def floor_in_last_stage(search, x0, tol, *args, **kw):
        x, f, nit, status, H = real(search, x0, tol, *args, **kw)
        if tol < 1e-3:
            status = np.full(status.size, "line_search", dtype=object)
        return x, f, nit, status, H

    monkeypatch.setattr(solvers, "_dfp_minimise", floor_in_last_stage)
    with pytest.warns(ConvergenceWarning, match="increase tol"):
        floor = rsvm(K, y, 1.0, beta, kappa, method="qn", n_starts=2, random_state=0)
    assert not floor.success and list(floor.start_status) == ["line_search", "line_search"]


def test_exact_search_restriction_is_the_directional_derivative_across_the_box():
    """phi'(s) of the exact line search equals qn_penalty's gradient times d at steps on both sides of the points
    where coordinates leave or re-enter the box, with coordinates starting outside, on and inside it; phi''
    matches a finite difference of phi' between two such points."""
    from robustpapers.bhadra2010 import qn_penalty
    from robustpapers.bhadra2010.solvers import _dphi, _ExactSearch

    K, y, beta, kappa = _du_instance(N=20, L=10)
    K, beta, C, P = K / np.abs(K).max(), beta / beta.max(), 1.0, 30.0
    rng = np.random.default_rng(5)
    n = y.size
    x = rng.uniform(-0.5, 1.5, n)
    x[:3] = [0.0, C, 0.5]
    d = rng.standard_normal(n)
    d[2] = 0.0
    search = _ExactSearch(K, y, beta, kappa, C, [P])
    search.at(x[None])
    args, _ = search._restriction(x[None], d[None])

    def dphi(s):
        g1, h1 = _dphi(np.array([s]), *args)
        return g1[0], h1[0]
    with np.errstate(divide="ignore"):
        cross = np.concatenate(((C - x) / d, -x / d))  # where a coordinate meets a bound of the box
    breaks = np.sort(cross[np.isfinite(cross) & (cross > 0)])
    assert breaks.size > 5
    for s in np.concatenate(([0.0, 1e-3, 3.0], breaks * (1 - 1e-7), breaks * (1 + 1e-7))):
        ref = qn_penalty(x + s * d, K, y, beta, kappa, C, P)[1] @ d
        assert dphi(s)[0] == pytest.approx(ref, rel=1e-9, abs=1e-9 * np.abs(d).sum())
    # between two crossing points phi' is smooth and phi'' its derivative
    a, b = breaks[0], breaks[1] if breaks.size > 1 else 2 * breaks[0]
    m, h = 0.5 * (a + b), 1e-6 * (b - a)
    assert dphi(m)[1] == pytest.approx((dphi(m + h)[0] - dphi(m - h)[0]) / (2 * h), rel=1e-5)
