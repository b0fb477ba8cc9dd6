"""Property tests of the ginodi2010 chapter: the loss, GURU, its dual, KEN-GURU, M-GURU, ASVC."""
import warnings

import numpy as np
import pytest
from scipy.integrate import quad
from scipy.special import ndtr, ndtri
from sklearn.exceptions import ConvergenceWarning

from robustpapers.ginodi2010 import (
    ASVC, GURUClassifier, KernelGURUClassifier, MultiGURUClassifier, asvc, asvc_objective, dual_constraint,
    dual_from_primal, guru_dual, guru_gradient, guru_lbfgs, guru_objective, guru_sgd, ken_guru,
    kernel_guru_objective, log_loss2, log_loss2_conjugate, m_guru, m_guru_lbfgs, multi_guru_objective,
    multi_robust_loss, norm_from_alpha_320, norm_from_alpha_323, quadratic_hinge, quadratic_hinge_conjugate,
    robust_hinge_grad, robust_hinge_loss, smooth_hinge, smooth_hinge_conjugate, smooth_hinge_prime,
    toy_gaussian, toy_multiclass,
)


def _data(seed, M=40, d=3, noise=0.7):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(M, d))
    y = np.sign(X @ rng.normal(size=d) + noise * rng.normal(size=M))
    y[y == 0] = 1.0
    return X, y


def _gauss_expect(func, mean, sd):
    """E[func(mean + sd N)] by adaptive quadrature."""
    return quad(lambda n: func(mean + sd * n) * np.exp(-0.5 * n * n) / np.sqrt(2 * np.pi), -np.inf, np.inf,
                epsabs=1e-13, epsrel=1e-12, limit=200)[0]


# ------------------------------------------------------------------ the loss (chapter 2)

def test_f_equals_expected_hinge_by_quadrature():
    # f(z) = E[z + N]_+ (Proposition 1 with unit variance), including far tails.
    for z in [-30.0, -12.0, -9.99, -3.0, -0.2, 0.0, 0.7, 5.0, 25.0]:
        ref = quad(lambda n: (z + n) * np.exp(-0.5 * n * n) / np.sqrt(2 * np.pi), -z, np.inf,
                   epsabs=0, epsrel=1e-13)[0]
        assert smooth_hinge(z) == pytest.approx(ref, rel=1e-11, abs=0)


def test_robust_loss_is_expected_hinge_over_worst_gaussian_cloud():
    # (2.16) = E_{n ~ N(0, sigma^2 ww'/|w|^2)} [1 - y w'(x + n)]_+ (Theorem 2.1): 1-D quadrature along w.
    rng = np.random.default_rng(0)
    X, y = _data(1, M=8)
    for sigma in [0.05, 0.5, 3.0]:
        w = rng.normal(size=3)
        loss = robust_hinge_loss(w, X, y, sigma)
        nw = np.linalg.norm(w)
        for m in range(8):
            u = 1 - y[m] * w @ X[m]
            ref = _gauss_expect(lambda v: max(v, 0.0), u, sigma * nw)
            assert loss[m] == pytest.approx(ref, rel=1e-8, abs=1e-12)


def test_worst_covariance_beats_other_trace_bounded_covariances():
    # Theorem 2.1: any Sigma with tr(Sigma) <= sigma^2 gives a smaller expected hinge (Monte Carlo-free:
    # the expectation depends on Sigma only through w'Sigma w, Lemma 2).
    rng = np.random.default_rng(1)
    X, y = _data(2, M=5)
    w, sigma = rng.normal(size=3), 0.8
    worst = robust_hinge_loss(w, X, y, sigma)
    for _ in range(20):
        A = rng.normal(size=(3, 3))
        S = A @ A.T
        S *= sigma**2 / np.trace(S)
        sd = np.sqrt(w @ S @ w)
        for m in range(5):
            val = _gauss_expect(lambda v: max(v, 0.0), 1 - y[m] * w @ X[m], sd)
            assert val <= worst[m] + 1e-10


def test_f_derivative_is_Phi_and_second_derivative_phi():
    z = np.linspace(-8, 8, 41)
    h = 1e-5
    num = (smooth_hinge(z + h) - smooth_hinge(z - h)) / (2 * h)
    np.testing.assert_allclose(num, ndtr(z), atol=1e-9)
    np.testing.assert_allclose(smooth_hinge_prime(z), ndtr(z))
    num2 = (smooth_hinge_prime(z + h) - smooth_hinge_prime(z - h)) / (2 * h)
    np.testing.assert_allclose(num2, np.exp(-z**2 / 2) / np.sqrt(2 * np.pi), atol=1e-9)


def test_conjugates_lemmas_6_8_9():
    # f*(a) = min_z f(z) - a z, computed by brute force on a fine grid, against the closed forms.
    zg = np.linspace(-40, 40, 400001)
    for a in [0.01, 0.2, 0.5, 0.77, 0.99]:
        assert smooth_hinge_conjugate(a) == pytest.approx(np.min(smooth_hinge(zg) - a * zg), abs=1e-8)
        assert smooth_hinge_conjugate(a) == pytest.approx(np.exp(-ndtri(a) ** 2 / 2) / np.sqrt(2 * np.pi))
        assert log_loss2_conjugate(a) == pytest.approx(np.min(log_loss2(zg) - a * zg), abs=1e-8)
        assert quadratic_hinge_conjugate(a) == pytest.approx(np.min(quadratic_hinge(zg) - a * zg), abs=1e-8)
    assert smooth_hinge_conjugate(1.5) == -np.inf


def test_f_upper_bounds_hinge_with_gap_at_most_phi0_and_limits():
    # Theorem 3.1: h(z) <= f(z) <= h(z) + 1/sqrt(2 pi); f - h -> 0 at both ends.
    z = np.linspace(-50, 50, 10001)
    gap = smooth_hinge(z) - np.maximum(z, 0)
    assert np.all(gap >= -1e-15 * np.maximum(1, np.abs(z)))   # rounding of z Phi(z) at large z
    inner = (z > -35) & (z < 5)                 # outside, the gap is below double precision
    assert np.all(gap[inner] > 0)
    np.testing.assert_allclose(smooth_hinge(z) - z, smooth_hinge(-z), rtol=1e-9, atol=1e-14)  # f(z) - z = f(-z)
    assert np.max(gap) == pytest.approx(1 / np.sqrt(2 * np.pi))
    assert gap[0] < 1e-300 and gap[-1] < 1e-12
    assert np.all(np.diff(smooth_hinge(z), 2) > -1e-12)  # convex


def test_loss_upper_bounds_hinge_and_tends_to_it_as_sigma_to_zero():
    X, y = _data(3)
    w = np.array([1.0, -2.0, 0.5])
    hinge = np.maximum(1 - y * (X @ w), 0)
    prev = None
    for sigma in [4.0, 1.0, 0.1, 1e-2, 1e-4]:
        loss = robust_hinge_loss(w, X, y, sigma)
        assert np.all(loss >= hinge - 1e-15)
        gap = np.max(loss - hinge)
        assert gap <= sigma * np.linalg.norm(w) / np.sqrt(2 * np.pi) + 1e-15
        if prev is not None:
            assert gap <= prev
        prev = gap
    assert prev < 1e-4


def test_loss_is_continuous_at_w_zero_and_stable_for_tiny_w():
    X, y = _data(4)
    b = 0.3
    at0 = robust_hinge_loss(np.zeros(3), X, y, 1.0, b=b)
    np.testing.assert_allclose(at0, np.maximum(1 - y * b, 0))
    for scale in [1e-8, 1e-150, 1e-310]:
        w = scale * np.array([1.0, 2.0, -1.0])
        val = robust_hinge_loss(w, X, y, 1.0, b=b)
        assert np.all(np.isfinite(val))
        np.testing.assert_allclose(val, at0, atol=1e-7)
    # very large margins: no overflow, no NaN, exact zeros/linear parts
    w = np.array([1e6, 0, 0])
    assert np.all(np.isfinite(robust_hinge_loss(w, X, y, 1e-3)))


def test_gradient_matches_finite_differences():
    X, y = _data(5)
    rng = np.random.default_rng(5)
    for fit_b in [0.0, 0.4]:
        w = rng.normal(size=3)
        g, gb = guru_gradient(w, X, y, 0.9, b=fit_b)
        eps = 1e-6
        num = np.array([(guru_objective(w + eps * e, X, y, 0.9, fit_b) - guru_objective(w - eps * e, X, y, 0.9, fit_b))
                        / (2 * eps) for e in np.eye(3)])
        np.testing.assert_allclose(g, num, rtol=1e-6, atol=1e-7)
        numb = (guru_objective(w, X, y, 0.9, fit_b + eps) - guru_objective(w, X, y, 0.9, fit_b - eps)) / (2 * eps)
        assert gb == pytest.approx(numb, rel=1e-6)
        G, Gb = robust_hinge_grad(w, X, y, 0.9, b=fit_b)
        np.testing.assert_allclose(G.sum(0), g)


def test_objective_is_convex_along_random_segments():
    # Theorem 3.2: convexity in w (midpoint inequality on random chords).
    X, y = _data(6)
    rng = np.random.default_rng(6)
    for _ in range(50):
        a, b = rng.normal(size=3) * 3, rng.normal(size=3) * 3
        mid = guru_objective((a + b) / 2, X, y, 0.5)
        assert mid <= (guru_objective(a, X, y, 0.5) + guru_objective(b, X, y, 0.5)) / 2 + 1e-10


# ------------------------------------------------------------------ GURU and the certificate

@pytest.mark.parametrize("fit_intercept", [False, True])
def test_guru_sgd_reaches_the_lbfgs_optimum(fit_intercept):
    X, y = _data(7, M=60)
    ref = guru_lbfgs(X, y, 1.0, fit_intercept=fit_intercept)
    assert ref.success and ref.grad_norm < 1e-7
    g, gb = guru_gradient(ref.w, X, y, 1.0, ref.b)
    assert np.max(np.abs(g)) < 1e-5 and (abs(gb) < 1e-5 or not fit_intercept)
    res = guru_sgd(X, y, 1.0, eta0=0.1, average=True, fit_intercept=fit_intercept, tol=1e-7, max_iter=200,
                   random_state=0)
    assert res.objective >= ref.objective - 1e-9          # L-BFGS is the lower one (certified optimum)
    assert (res.objective - ref.objective) / ref.objective < 1e-3
    assert np.linalg.norm(res.w - ref.w) < 0.1 * np.linalg.norm(ref.w)


def test_guru_lbfgs_objective_shift_is_exact():
    # the function L-BFGS minimises is G/M - 1, evaluated without cancellation (s f(u/s) = [u]_+ + s f(-|u|/s))
    from robustpapers.ginodi2010.guru import _mean_objective_minus_one
    X, y = _data(11, M=50)
    rng = np.random.default_rng(11)
    for sigma, scale, b in [(0.3, 1.0, 0.0), (2.0, 0.5, 0.4), (1.0, 3.0, -1.2), (5.0, 0.0, 0.7)]:
        w = scale * rng.normal(size=3)
        ref = guru_objective(w, X, y, sigma, b) / len(y) - 1.0
        assert _mean_objective_minus_one(w, b, X, y, sigma) == pytest.approx(ref, rel=1e-12, abs=1e-14)


def test_guru_lbfgs_certified_at_large_sigma():
    # Fig. 3.1's sweep on toy (b): warm starts along sigma = 2^9..2^15. There ||w*|| ~ 1/sigma and G/M = 1 - O(1/sigma);
    # evaluated as G/M the objective is flat to machine precision and L-BFGS used to stop at a gradient
    # of 4.6e-6 at sigma = 2^15. With the cancellation-free objective every point meets the absolute certificate.
    from robustpapers.reproduce.ginodi2010.experiments import load_binary_split
    X, y, *_ = load_binary_split("toy_b", 0)
    w0 = None
    for k in range(9, 16):
        r = guru_lbfgs(X, y, 2.0 ** k, tol=1e-9, max_iter=5000, w0=w0)
        w0 = r.w
        g, _ = guru_gradient(r.w, X, y, 2.0 ** k)
        assert r.success and r.grad_norm < 1e-7 and np.max(np.abs(g)) / len(y) == pytest.approx(r.grad_norm)
        # the optimum beats its neighbours along w (first-order optimality seen in the objective, not only the gradient)
        assert r.objective <= guru_objective(r.w * (1 + 1e-3), X, y, 2.0 ** k) and \
            r.objective <= guru_objective(r.w * (1 - 1e-3), X, y, 2.0 ** k)


def test_guru_sgd_first_step_and_determinism():
    X, y = _data(8)
    a = guru_sgd(X, y, 1.0, max_iter=3, tol=1e-12, random_state=42)
    b = guru_sgd(X, y, 1.0, max_iter=3, tol=1e-12, random_state=42)
    np.testing.assert_array_equal(a.w, b.w)
    # the first update from w = 0 is eta0 * y_i x_i (the limit of (2.26) at w -> 0); guru_sgd refuses a
    # training set of one class, so the step is taken on its own
    from robustpapers.ginodi2010.guru import _sgd_step
    first = np.random.RandomState(0).randint(len(y), size=len(y))[0]
    w = np.zeros(X.shape[1])
    _sgd_step(w, 0.0, X[first], y[first], 1.0, 0.3, False)
    np.testing.assert_allclose(w, 0.3 * y[first] * X[first])
    with pytest.raises(ValueError, match="both classes"):
        guru_sgd(X[[first]], y[[first]], 1.0, eta0=0.3, max_iter=1, tol=1e-12, random_state=0)


def test_convergence_warnings_name_the_knob():
    X, y = _data(9)
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        guru_sgd(X, y, 1.0, max_iter=1, tol=1e-12, random_state=0)
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        guru_lbfgs(X, y, 1.0, max_iter=1, tol=1e-14)
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        ken_guru(X @ X.T, y, 1.0, max_iter=1, tol=1e-12, random_state=0)
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        m_guru(X, (y > 0).astype(int), 1.0, max_iter=1, tol=1e-12, random_state=0)


# ------------------------------------------------------------------ the dual (chapter 3)

@pytest.mark.parametrize("sigma", [0.3, 1.0, 4.0])
def test_strong_duality_and_norm_recovery(sigma):
    X, y = _data(10, M=15)
    p = guru_lbfgs(X, y, sigma, tol=1e-11)
    d = guru_dual(X, y, sigma)
    assert d.success
    assert d.slack >= -1e-8                                        # feasible for (3.17)
    assert d.objective == pytest.approx(p.objective, rel=1e-7)      # (3.22)
    np.testing.assert_allclose(d.w, p.w, rtol=1e-5, atol=1e-7)      # direction (3.4) + norm (3.20)
    # the KKT dual point of the primal optimum: feasible, tight, same value
    a = dual_from_primal(p.w, X, y, sigma)
    assert a.sum() == pytest.approx(p.objective, rel=1e-7)
    assert abs(dual_constraint(a, X, y, sigma)) < 1e-6 * p.objective
    nw = np.linalg.norm(p.w)
    np.testing.assert_allclose(norm_from_alpha_320(a, p.w / nw, X, y, sigma), nw, rtol=1e-6)   # (3.20)
    assert norm_from_alpha_323(a, sigma) == pytest.approx(nw, rel=1e-6)                        # (3.23)


def test_dual_recovers_w_when_every_alpha_saturates():
    # Large sigma: every alpha is near 1, (3.20) has no well-conditioned sample and (3.23) takes over.
    X, y = _data(10, M=15)
    sigma = 32.0
    p = guru_lbfgs(X, y, sigma, tol=1e-11)
    d = guru_dual(X, y, sigma)
    assert d.success and d.norm_rule == "3.23" and d.alpha.min() > 0.95
    assert d.objective == pytest.approx(p.objective, rel=1e-7)
    np.testing.assert_allclose(d.w, p.w, rtol=1e-5, atol=1e-7)


def test_dual_converges_on_the_paper_scale_toy():
    # Toy (a), M = 100, sigma = 1/2: unscaled SLSQP stopped with a failed line search 3e-5 off the optimum.
    from robustpapers.reproduce.ginodi2010.experiments import load_binary_split

    Xtr, ytr, *_ = load_binary_split("toy_a", 0)
    X, y = Xtr[:100], ytr[:100]
    p = guru_lbfgs(X, y, 0.5, tol=1e-11)
    d = guru_dual(X, y, 0.5)
    assert d.success and d.slack > -1e-8
    assert d.objective == pytest.approx(p.objective, rel=1e-8)


def test_weak_duality_any_feasible_alpha_below_primal():
    X, y = _data(11, M=20)
    sigma = 0.8
    p = guru_lbfgs(X, y, sigma)
    rng = np.random.default_rng(11)
    for _ in range(200):
        a = rng.uniform(0, 1, size=20) * rng.uniform(0, 1)
        if dual_constraint(a, X, y, sigma) >= 0:
            assert a.sum() <= p.objective + 1e-9


# ------------------------------------------------------------------ KEN-GURU (chapter 4)

def test_ken_guru_linear_kernel_equals_guru_and_o1_norm_is_exact():
    X, y = _data(12, M=50)
    g = guru_sgd(X, y, 0.7, eta0=0.5, max_iter=8, tol=1e-12, random_state=5)
    with pytest.warns(ConvergenceWarning):
        k = ken_guru(X @ X.T, y, 0.7, eta0=0.5, max_iter=8, tol=1e-12, random_state=5, check_norm=True)
    np.testing.assert_allclose(X.T @ (k.alpha * y), g.w, rtol=1e-10, atol=1e-12)
    assert k.objective == pytest.approx(g.objective, rel=1e-12)
    assert k.norm_gap < 1e-10                                    # (4.13) vs the O(M^2) norm, every update
    assert k.nu == pytest.approx(np.linalg.norm(g.w), rel=1e-10)


def test_ken_guru_naive_and_o1_give_the_same_run_with_rbf():
    X, y = _data(13, M=40)
    from robustpapers.core import rbf_kernel
    K = rbf_kernel(X, gamma=0.5)
    kw = dict(eta0=1.0, max_iter=5, tol=1e-12, random_state=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        a = ken_guru(K, y, 0.5, norm_update="o1", check_norm=True, **kw)
        b = ken_guru(K, y, 0.5, norm_update="naive", **kw)
    np.testing.assert_allclose(a.alpha, b.alpha, rtol=1e-9, atol=1e-12)
    assert a.norm_gap < 1e-9
    assert a.objective == pytest.approx(kernel_guru_objective(a.alpha, K, y, 0.5))


def test_kernel_classifier_separates_the_radial_toy():
    from robustpapers.ginodi2010 import toy_radial
    X, y = toy_radial(150, random_state=0)
    clf = KernelGURUClassifier(sigma=0.1, kernel="poly", degree=2, solver="sgd", eta0=0.1, max_iter=60,
                               random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        clf.fit(X, y)
    assert clf.score(X, y) >= 0.95
    # the default (eigen-coordinate L-BFGS) is certified and separates it as well
    clf = KernelGURUClassifier(sigma=0.1, kernel="poly", degree=2).fit(X, y)
    assert clf.result_.success and clf.score(X, y) >= 0.95


# ------------------------------------------------------------------ M-GURU (chapter 5)

def test_multiclass_loss_with_two_classes_is_the_binary_loss():
    # (5.15)-(5.16): l_sum(x, y; w+, w-) = l_rob(x, y; w+ - w-)
    X, y = _data(14)
    rng = np.random.default_rng(14)
    W = rng.normal(size=(2, 3))
    yi = (y > 0).astype(int)
    np.testing.assert_allclose(multi_robust_loss(W, X, yi, 0.6), robust_hinge_loss(W[1] - W[0], X, y, 0.6),
                               rtol=1e-13)


def test_m_guru_two_classes_runs_guru_with_double_step():
    X, y = _data(15, M=40)
    yi = (y > 0).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        mg = m_guru(X, yi, 0.8, eta0=0.25, max_iter=6, tol=1e-12, random_state=3)
        g = guru_sgd(X, y, 0.8, eta0=0.5, max_iter=6, tol=1e-12, random_state=3)
    np.testing.assert_allclose(mg.W[1] - mg.W[0], g.w, rtol=1e-10, atol=1e-12)
    ml, gl = m_guru_lbfgs(X, yi, 0.8), guru_lbfgs(X, y, 0.8)
    assert ml.objective == pytest.approx(gl.objective, rel=1e-8)


@pytest.mark.parametrize("variant", ["full", "s2"])
def test_m_guru_variants_approach_the_lbfgs_optimum(variant):
    X, y = toy_multiclass(90, n_classes=3, random_state=0)
    ref = m_guru_lbfgs(X, y, 1.0)
    assert ref.success
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        res = m_guru(X, y, 1.0, variant=variant, eta0=0.3, max_iter=60, tol=1e-6, random_state=0)
    assert res.objective >= ref.objective - 1e-9
    assert (res.objective - ref.objective) / ref.objective < 0.05
    W0 = np.zeros_like(ref.W)
    assert res.objective < multi_guru_objective(W0, X, y, 1.0)


def test_multiclass_gradient_matches_finite_differences():
    from robustpapers.ginodi2010.multiclass import _multi_grad
    X, _ = _data(16)
    rng = np.random.default_rng(16)
    y3 = rng.integers(0, 3, size=len(X))
    W, b = rng.normal(size=(3, 3)), rng.normal(size=3)
    gW, gb = _multi_grad(W, X, y3, b, 0.7)
    eps = 1e-6
    num = np.zeros_like(W)
    for a in range(3):
        for j in range(3):
            E = np.zeros_like(W)
            E[a, j] = eps
            num[a, j] = (multi_guru_objective(W + E, X, y3, 0.7, b) - multi_guru_objective(W - E, X, y3, 0.7, b)) / (2 * eps)
    np.testing.assert_allclose(gW, num, rtol=1e-6, atol=1e-6)


# ------------------------------------------------------------------ ASVC (appendix A)

def test_asvc_fixed_point_and_robust_loss_agree_with_cvxpy():
    cp = pytest.importorskip("cvxpy")
    X, y = toy_gaussian(40, random_state=1)
    delta, C = 0.2, 1.0
    res = asvc(X, y, delta, C)
    w, b = cp.Variable(2), cp.Variable()
    prob = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(w) + C * cp.sum(cp.pos(1 - cp.multiply(y, X @ w + b)
                                                                               + delta * cp.norm(w)))))
    prob.solve(solver="CLARABEL")
    # the alternation is a heuristic: it can only be >= the convex optimum of (A.2)
    assert res.objective >= prob.value - 1e-6
    assert res.objective <= prob.value * 1.05
    assert asvc_objective(w.value, b.value, X, y, delta, C) == pytest.approx(prob.value, rel=1e-5)


# ------------------------------------------------------------------ bad input

def test_bad_inputs_raise_value_error():
    X, y = _data(17)
    w = np.ones(3)
    with pytest.raises(ValueError, match="sigma"):
        robust_hinge_loss(w, X, y, 0.0)
    with pytest.raises(ValueError, match="sigma"):
        guru_sgd(X, y, -1.0)
    Xn = X.copy()
    Xn[0, 0] = np.nan
    with pytest.raises(ValueError, match="X"):
        guru_objective(w, Xn, y, 1.0)
    with pytest.raises(ValueError, match="y"):
        robust_hinge_loss(w, X, np.arange(len(y)), 1.0)
    with pytest.raises(ValueError, match="features"):
        robust_hinge_loss(np.ones(4), X, y, 1.0)
    with pytest.raises(ValueError, match="two classes"):
        GURUClassifier(sigma=1.0).fit(X, np.arange(len(y)) % 3)
    with pytest.raises(ValueError, match="sigma"):
        GURUClassifier(sigma=0).fit(X, y)
    with pytest.raises(ValueError, match="solver"):
        GURUClassifier(solver="newton").fit(X, y)
    with pytest.raises(ValueError, match="kernel"):
        KernelGURUClassifier(kernel="sigmoid").fit(X, y)
    with pytest.raises(ValueError, match="two classes"):
        KernelGURUClassifier().fit(X, np.arange(len(y)) % 3)
    with pytest.raises(ValueError, match="variant"):
        MultiGURUClassifier(variant="s3").fit(X, y)
    with pytest.raises(ValueError, match="delta"):
        ASVC(delta=-1.0).fit(X, y)
    with pytest.raises(ValueError, match="norm_update"):
        ken_guru(X @ X.T, y, 1.0, norm_update="fast")
    with pytest.raises(ValueError, match="symmetric"):
        ken_guru(X @ X.T + np.triu(np.ones((len(y), len(y))), 1), y, 1.0)


@pytest.mark.parametrize("loss", ["gaussian", "log", "quadratic"])
def test_general_framework_strong_duality(loss):
    # (3.31)-(3.32): alpha = f~'(z) at the primal optimum is dual feasible, tight, and sum(alpha) = primal value
    from robustpapers.ginodi2010 import perspective_fit
    X, y = _data(18, M=60)
    r = perspective_fit(X, y, loss, sigma=1.0)
    assert r.success
    assert r.dual_value == pytest.approx(r.objective, rel=1e-7)
    assert abs(r.slack) < 1e-6 * r.objective
    if loss == "gaussian":
        assert r.objective == pytest.approx(guru_lbfgs(X, y, 1.0).objective, rel=1e-8)


def test_diagonal_adversary_appendix_b():
    # (B.3): among diagonal covariances with trace <= sigma^2 the worst puts everything on argmax |w_i|,
    # and the loss is (2.16) with the infinity norm; it lies between the hinge and the full-adversary loss.
    from robustpapers.ginodi2010 import diagonal_adversary, robust_hinge_loss_diagonal
    rng = np.random.default_rng(19)
    X, y = _data(19, M=6)
    w, sigma = rng.normal(size=3), 0.9
    S = diagonal_adversary(w, sigma)
    assert np.trace(S) == pytest.approx(sigma**2) and np.count_nonzero(S) == 1
    worst = robust_hinge_loss_diagonal(w, X, y, sigma)
    for m in range(6):
        u = 1 - y[m] * w @ X[m]
        ref = quad(lambda n: (u + np.sqrt(w @ S @ w) * n) * np.exp(-n * n / 2) / np.sqrt(2 * np.pi),
                   -u / np.sqrt(w @ S @ w), np.inf, epsrel=1e-12)[0]
        assert worst[m] == pytest.approx(ref, rel=1e-8)
    for _ in range(30):
        a = rng.dirichlet(np.ones(3)) * sigma**2
        assert np.all(_loss_diag(w, X, y, a) <= worst + 1e-12)
    assert np.all(worst <= robust_hinge_loss(w, X, y, sigma) + 1e-15)
    assert np.all(worst >= np.maximum(1 - y * (X @ w), 0) - 1e-15)


def _loss_diag(w, X, y, a):
    from robustpapers.ginodi2010.loss import _loss_from_margins
    return _loss_from_margins(1 - y * (X @ w), float(np.sqrt(np.sum(a * w**2))))


def test_multiclass_asvc_delta0_is_crammer_singer_and_robust_is_worse():
    from sklearn.svm import LinearSVC
    from robustpapers.ginodi2010 import multiclass_asvc, multiclass_asvc_objective
    X, y = toy_multiclass(60, n_classes=3, random_state=2)
    r0 = multiclass_asvc(X, y, 0.0, C=1.0)
    assert r0.success
    cs = LinearSVC(multi_class="crammer_singer", fit_intercept=False, C=1.0, tol=1e-8, max_iter=100000).fit(X, y)
    ref = multiclass_asvc_objective(cs.coef_, X, y, 0.0, 1.0)
    assert r0.objective <= ref + 1e-6 and r0.objective == pytest.approx(ref, rel=1e-3)
    r1 = multiclass_asvc(X, y, 0.3, C=1.0)
    assert r1.objective >= r0.objective - 1e-7
    # the robust objective at its optimum is below the robust objective of the delta = 0 solution
    assert r1.objective <= multiclass_asvc_objective(r0.W, X, y, 0.3, 1.0) + 1e-6


def test_table_2_1_splits_are_disjoint_and_sized():
    from robustpapers.reproduce.ginodi2010.experiments import BINARY_SETS, load_binary_split
    for name in ["ionosphere", "diabetes", "splice_1v2"]:
        Xtr, ytr, Xva, yva, Xte, yte = load_binary_split(name, 0)
        _, ntr, nva, nte, _ = BINARY_SETS[name]
        assert (len(ytr), len(yva)) == (ntr, nva) and (nte is None or len(yte) == nte)
        assert set(np.unique(ytr)) == {-1.0, 1.0}
        np.testing.assert_allclose(Xtr.mean(0), 0, atol=1e-10)             # standardised on the training part
        # a partition of (a subset of) the data: raw rows of the three parts are distinct draws of the data set
        parts = load_binary_split(name, 0, standardize=False)
        rows = np.vstack([parts[0], parts[2], parts[4]])
        from robustpapers.reproduce.ginodi2010.experiments import _raw
        Xall, _ = _raw(BINARY_SETS[name][0], None, None)
        assert len(rows) <= len(Xall)
        if len(rows) == len(Xall):
            np.testing.assert_array_equal(np.unique(rows, axis=0, return_counts=True)[1].sum(), len(Xall))
            np.testing.assert_array_equal(np.sort(rows, axis=0), np.sort(Xall, axis=0))
    with pytest.raises(ValueError, match="unknown problem"):
        load_binary_split("usps", 0)


def test_kernel_lbfgs_matches_linear_guru_and_bounds_ken_guru():
    from robustpapers.core import rbf_kernel
    from robustpapers.ginodi2010 import kernel_guru_lbfgs
    X, y = _data(20, M=50)
    kl = kernel_guru_lbfgs(X @ X.T, y, 0.8)
    gl = guru_lbfgs(X, y, 0.8)
    assert kl.objective == pytest.approx(gl.objective, rel=1e-7)        # the linear kernel is the linear problem
    np.testing.assert_allclose(X.T @ (kl.alpha * y), gl.w, rtol=1e-4, atol=1e-5)
    K = rbf_kernel(X, gamma=0.3)
    ref = kernel_guru_lbfgs(K, y, 0.5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        sgd = ken_guru(K, y, 0.5, eta0=1.0, max_iter=150, tol=1e-8, random_state=0)
    assert sgd.objective >= ref.objective - 1e-8
    assert (sgd.objective - ref.objective) / ref.objective < 0.05


def test_kernel_guru_eigen_certifies_the_ill_conditioned_optimum():
    """kernel_guru_eigen: the linear kernel gives guru_lbfgs's optimum; on a well-conditioned RBF kernel it agrees
    with kernel_guru_lbfgs; on a nearly singular polynomial Gram matrix it is certified in feature space while
    L-BFGS in beta, capped, stops above it; its objective is kernel_guru_objective of its alpha."""
    import warnings

    from robustpapers.core import make_kernel
    from robustpapers.ginodi2010 import guru_lbfgs, kernel_guru_eigen, kernel_guru_lbfgs, kernel_guru_objective

    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 4))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=60) > 0, 1.0, -1.0)
    lin = kernel_guru_eigen(X @ X.T, y, 0.5)
    ref = guru_lbfgs(X, y, 0.5, tol=1e-10)
    assert lin.success and lin.rank == 4
    assert lin.objective == pytest.approx(ref.objective, rel=1e-8)
    assert np.allclose(X.T @ (lin.alpha * y), ref.w, atol=1e-6)
    K = make_kernel("rbf", gamma=0.2)(X, X)
    e, b = kernel_guru_eigen(K, y, 0.5), kernel_guru_lbfgs(K, y, 0.5, tol=1e-10, max_iter=5000)
    assert e.objective == pytest.approx(b.objective, rel=1e-7)
    assert e.objective == pytest.approx(kernel_guru_objective(e.alpha, K, y, 0.5), rel=1e-9)
    # nearly collinear points: a Gram matrix with condition number ~1e8
    Z = rng.uniform(size=(80, 30)) * 0.1 + rng.uniform(size=30)
    v = Z @ rng.normal(size=30)
    yz = np.where(v > np.median(v), 1.0, -1.0)
    P = make_kernel("poly", degree=2, gamma=1.0 / 30, coef0=1.0)(Z, Z)
    e = kernel_guru_eigen(P, yz, 2.0 ** -4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        b = kernel_guru_lbfgs(P, yz, 2.0 ** -4, tol=1e-10, max_iter=200)
    assert e.success and e.grad_norm <= 1e-9
    assert e.objective <= b.objective + 1e-9 * b.objective
    with pytest.raises(ValueError, match="rank_tol"):
        kernel_guru_eigen(K, y, 0.5, rank_tol=2.0)
