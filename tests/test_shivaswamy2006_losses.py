"""shivaswamy2006 eq. (34): close-to-mean robust regression with the losses of (24), checked against
independent formulations (the SOCP (35), least squares, a linear program, and the reduced penalty form
minimised by scipy)."""
import numpy as np
import pytest
from scipy import optimize

from robustpapers.shivaswamy2006 import loss_value, robust_regression, robust_svr_ctm


def _data(seed=0, n=40, d=3):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = X @ np.array([1.0, -2.0, 0.5]) + 0.3 + 0.3 * rng.standard_normal(n)
    y[:3] += 6.0  # a few outliers, so that l1 / Huber differ from l2
    F = [rng.standard_normal((d, 2)) * 0.5 if i % 3 == 0 else None for i in range(n)]
    return X, y, F


def _reduced(X, y, F, loss, D, eta, sigma=1.0, epsilon=0.1):
    """(34) with theta_i eliminated (theta_i = ||L_i^T w|| / sqrt(eta) at the optimum), as a function of (w, b)."""
    def f(v):
        w, b = v[:-1], v[-1]
        pen = sum(np.sqrt(np.sum((L.T @ w) ** 2) + 1e-16) for L in F if L is not None) / np.sqrt(eta)
        return float(np.sum(loss_value(X @ w + b - y, loss, epsilon, sigma)) + D * pen)
    return f


def test_epsilon_loss_is_the_socp_35():
    X, y, F = _data(1)
    a = robust_regression(X, y, factors=F, loss="epsilon", eta=0.4, W=5.0, D=0.7, epsilon=0.2)
    b = robust_svr_ctm(X, y, factors=F, eta=0.4, W=5.0, D=0.7, epsilon=0.2)
    assert a.success and b.success
    assert abs(a.objective - b.objective) < 1e-6 * max(1.0, abs(b.objective))
    assert np.allclose(a.theta, b.theta, atol=1e-5)


def test_l2_without_uncertainty_penalty_is_least_squares():
    X, y, F = _data(2)
    res = robust_regression(X, y, factors=F, loss="l2", D=0.0, W=100.0)
    coef, *_ = np.linalg.lstsq(np.c_[X, np.ones(len(y))], y, rcond=None)
    assert np.allclose(np.r_[res.w, res.b], coef, atol=1e-6)


def test_l1_without_uncertainty_penalty_is_the_median_regression_lp():
    X, y, F = _data(3)
    n, d = X.shape
    # min sum(u + v) s.t. X w + b - y = u - v, u, v >= 0 (W inactive)
    c = np.r_[np.zeros(d + 1), np.ones(2 * n)]
    A = np.c_[X, np.ones(n), -np.eye(n), np.eye(n)]
    lp = optimize.linprog(c, A_eq=A, b_eq=y, bounds=[(None, None)] * (d + 1) + [(0, None)] * (2 * n),
                          method="highs")
    res = robust_regression(X, y, factors=F, loss="l1", D=0.0, W=100.0)
    assert lp.status == 0 and abs(res.objective - lp.fun) < 1e-6 * max(1.0, lp.fun)


@pytest.mark.parametrize("loss", ["l2", "huber", "l1"])
def test_matches_the_reduced_penalty_form(loss):
    X, y, F = _data(4)
    eta, D = 0.5, 2.0
    res = robust_regression(X, y, factors=F, loss=loss, eta=eta, D=D, W=100.0, sigma=0.5)
    assert res.success and np.linalg.norm(res.w) < 100.0 - 1e-3  # ||w|| <= W inactive
    f = _reduced(X, y, F, loss, D, eta, sigma=0.5)
    # the solver's objective is the reduced objective at its (w, b) ...
    assert abs(f(np.r_[res.w, res.b]) - res.objective) < 1e-5 * max(1.0, res.objective)
    # ... and no local search from it (or from least squares) finds a lower value
    x0 = np.linalg.lstsq(np.c_[X, np.ones(len(y))], y, rcond=None)[0]
    for start in (x0, np.r_[res.w, res.b]):
        best = optimize.minimize(f, start, method="Powell", options=dict(xtol=1e-9, ftol=1e-12, maxiter=20000))
        assert res.objective <= best.fun + 1e-5 * max(1.0, best.fun)
    # (34d) is tight at the optimum: theta_i = ||Sigma_i^{1/2} w|| / sqrt(eta)
    for i, L in enumerate(F):
        if L is not None:
            assert abs(res.theta[i] - np.linalg.norm(L.T @ res.w) / np.sqrt(eta)) < 1e-5
    # the loss it reports is the loss (24) of its residuals
    assert abs(res.loss - np.sum(loss_value(X @ res.w + res.b - y, loss, sigma=0.5))) < 1e-9


def test_uncertainty_penalty_shrinks_w_along_the_uncertain_directions():
    X, y, F = _data(5)
    nom = robust_regression(X, y, factors=F, loss="huber", D=0.0)
    rob = robust_regression(X, y, factors=F, loss="huber", D=5.0)
    spread = lambda w: sum(np.linalg.norm(L.T @ w) for L in F if L is not None)
    assert spread(rob.w) < spread(nom.w)


def test_huber_loss_is_convex_and_continuous():
    e = np.linspace(-3, 3, 601)
    c = loss_value(e, "huber", sigma=0.7)
    assert np.all(np.diff(c, 2) >= -1e-12)  # convex
    assert abs(loss_value(0.7, "huber", sigma=0.7) - loss_value(0.7 + 1e-9, "huber", sigma=0.7)) < 1e-8


def test_bad_inputs():
    X, y, F = _data(6)
    with pytest.raises(ValueError, match="loss"):
        robust_regression(X, y, loss="cauchy")
    with pytest.raises(ValueError, match="sigma"):
        robust_regression(X, y, loss="huber", sigma=0.0)
    with pytest.raises(ValueError, match="eta"):
        robust_regression(X, y, factors=F, eta=1.5)
    with pytest.raises(ValueError, match="loss"):
        loss_value([1.0], "l3")


# ----------------------------------------------------------------- Table 1: knowledge-based (polyhedral) sets
def test_polyhedral_svm_equals_the_convex_hull_of_its_vertices():
    """A polytope given by inequalities (polyhedral_svm, LP duality) and by its vertices (vertex_svm) is the same
    set, so the two quadratic programs of Table 1 must have the same optimum."""
    import itertools

    from robustpapers.shivaswamy2006 import polyhedral_svm, vertex_svm

    rng = np.random.default_rng(7)
    n, d = 10, 3
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    centres = rng.standard_normal((n, d)) + 1.2 * y[:, None]
    half = rng.uniform(0.1, 0.6, (n, d))
    A = [np.r_[np.eye(d), -np.eye(d)]] * n
    c = [np.r_[m + h, -(m - h)] for m, h in zip(centres, half)]
    V = [np.array([m + np.array(s) * h for s in itertools.product((-1, 1), repeat=d)]) for m, h in zip(centres, half)]
    p = polyhedral_svm(A, c, y, C=2.0)
    v = vertex_svm(V, y, C=2.0)
    assert p.success and v.success
    assert abs(p.objective - v.objective) < 1e-6 * max(1.0, v.objective)
    assert np.allclose(p.w, v.w, atol=1e-5) and abs(p.b - v.b) < 1e-5
    # the multipliers certify (21) on each polytope: -c^T u + y b bounds the worst margin over the vertices from
    # below (weak duality) and is itself at least 1 - xi
    for i in range(n):
        worst = np.min(y[i] * (V[i] @ p.w + p.b))
        cert = -c[i] @ p.u[i] + y[i] * p.b
        assert cert <= worst + 1e-6 and cert >= 1 - p.xi[i] - 1e-6
        assert np.allclose(A[i].T @ p.u[i] + y[i] * p.w, 0, atol=1e-6)


def test_polyhedral_svm_bad_inputs():
    from robustpapers.shivaswamy2006 import polyhedral_svm

    A = [np.eye(2)] * 2
    with pytest.raises(ValueError, match="one polyhedron per label"):
        polyhedral_svm(A, [np.ones(2)], np.array([1.0, -1.0]))
    with pytest.raises(ValueError, match="c\\[1\\]"):
        polyhedral_svm(A, [np.ones(2), np.ones(3)], np.array([1.0, -1.0]))


# ------------------------------------------------------------ Table 1: invariances (polynomial trajectories)
def _trajectories(seed=3, n=16, r=2):
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    T = 0.4 * rng.standard_normal((n, r + 1, 2))
    T[:, 0] += 1.0 * y[:, None]
    return T, y


def _min_poly(coef, tau):
    """The exact minimum over |t| <= tau of a polynomial (coefficients lowest degree first), by its stationary
    points (numpy's roots of the derivative), independent of the SDP."""
    p = np.polynomial.Polynomial(coef)
    ts = [-tau, tau] + [t.real for t in p.deriv().roots() if abs(t.imag) < 1e-12 and abs(t.real) <= tau]
    return min(p(t) for t in ts)


@pytest.mark.parametrize("r", [2, 3])
def test_invariance_svm_meets_the_constraint_on_the_whole_trajectory_and_bounds_the_sampled_problem(r):
    """The SDP's solution satisfies (21) at every theta (exact minimum of each p_i), and the sampled QPs
    (vertex_svm on grids of theta, a relaxation) rise to its optimum as the grid is refined."""
    from robustpapers.shivaswamy2006 import invariance_svm, vertex_svm

    T, y = _trajectories(r=r)
    tau = 0.8
    res = invariance_svm(T, y, C=1.0, tau=tau)
    assert res.success
    for i in range(len(y)):
        coef = [y[i] * (T[i, k] @ res.w) for k in range(r + 1)]
        coef[0] += y[i] * res.b - 1 + res.xi[i]
        assert _min_poly(coef, tau) >= -1e-6
    prev = -np.inf
    for m in (3, 17, 257):
        th = np.linspace(-tau, tau, m)
        V = [sum(th[:, None] ** k * T[i, k] for k in range(r + 1)) for i in range(len(y))]
        obj = vertex_svm(V, y, C=1.0).objective
        assert prev - 1e-7 <= obj <= res.objective + 1e-6
        prev = obj
    assert res.objective - prev <= 1e-3 * max(1.0, res.objective)


def test_invariance_svm_segments_and_points_are_the_vertex_problem():
    """r = 1 (segments): (21) on a segment is (21) at its end points; r = 0: plain points. Both are vertex_svm."""
    from robustpapers.shivaswamy2006 import invariance_svm, vertex_svm

    T, y = _trajectories(r=1)
    tau = 0.5
    seg = invariance_svm(T, y, C=2.0, tau=tau)
    ends = vertex_svm([np.array([T[i, 0] - tau * T[i, 1], T[i, 0] + tau * T[i, 1]]) for i in range(len(y))], y, C=2.0)
    assert abs(seg.objective - ends.objective) <= 1e-6 * max(1.0, ends.objective)
    assert np.allclose(seg.w, ends.w, atol=1e-5)
    pts = invariance_svm(T[:, :1], y, C=2.0)
    ref = vertex_svm([T[i, :1] for i in range(len(y))], y, C=2.0)
    assert abs(pts.objective - ref.objective) <= 1e-6 * max(1.0, ref.objective)


def test_invariance_svm_bad_inputs():
    from robustpapers.shivaswamy2006 import invariance_svm

    T, y = _trajectories(n=4)
    with pytest.raises(ValueError, match="one trajectory per label"):
        invariance_svm(T[:3], y)
    with pytest.raises(ValueError, match="tau"):
        invariance_svm(T, y, tau=0.0)
    with pytest.raises(ValueError, match="T"):
        invariance_svm(T[:, 0], y)
