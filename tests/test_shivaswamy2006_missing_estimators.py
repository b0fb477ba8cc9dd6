"""Behaviour of the shivaswamy2006 estimators on data with NaN (their scikit-learn contract is in test_estimators.py)."""
import numpy as np
import pytest

from robustpapers.shivaswamy2006 import (
    KernelRobustMissingSVC, KernelRobustMissingSVR, RobustMissingMulticlassSVC, RobustMissingSVC, RobustMissingSVR,
    delete_entries, impute_by_fit, robust_svm,
)


def _missing_data(seed=0, n=80, d=4):
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 1, 0)
    X = rng.standard_normal((n, d)) + 1.2 * (2 * y[:, None] - 1)
    return delete_entries(X, 0.5, 0.5, random_state=seed), y, X


def test_classifier_fit_is_problem_44_on_em_imputation():
    Xm, y, _ = _missing_data(1)
    clf = RobustMissingSVC(gamma=1.5, C=0.5).fit(Xm, y)
    # rebuild (44) by hand from the fitted moments and compare
    from robustpapers.shivaswamy2006 import conditional_moments
    ys = np.where(y == 1, 1.0, -1.0)
    Xb, F = np.empty_like(Xm), [None] * len(y)
    for k, c in enumerate((-1.0, 1.0)):
        rows = np.flatnonzero(ys == c)
        Xb[rows], Fc = conditional_moments(Xm[rows], clf.means_[k], clf.covariances_[k])
        for j, i in enumerate(rows):
            F[i] = Fc[j]
    full = np.array([np.zeros((4, 4)) if L is None else L @ L.T for L in F])
    ref = robust_svm(Xb, ys, full, gamma=1.5, C=0.5)
    np.testing.assert_allclose(clf.coef_[0], ref.w, atol=1e-6)
    # the robust worst-case margin of every incomplete training row with zero slack is >= 1
    wc_margin = ys * (Xb @ ref.w + ref.b) - 1.5 * np.sqrt(np.einsum("i,nij,j->n", ref.w, full, ref.w))
    assert np.all(wc_margin[ref.xi < 1e-7] >= 1 - 1e-6)


def test_classifier_w_form_and_predict_rule():
    Xm, y, X = _missing_data(2)
    clf = RobustMissingSVC(gamma=1.0, W=1.0).fit(Xm, y)
    assert np.linalg.norm(clf.coef_) <= 1.0 + 1e-6
    # complete rows are classified by sign(w'x + b); incomplete by the section 6.1 rule
    f = clf.decision_function(Xm)
    full = ~np.isnan(Xm).any(1)
    np.testing.assert_allclose(f[full], X[full] @ clf.coef_[0] + clf.intercept_[0])
    assert clf.score(Xm, y) > 0.8


def test_regressor_formulations_and_errors():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((60, 3))
    y = X @ np.array([1.0, 2.0, -1.0]) + 0.5
    Xm = delete_entries(X, 0.5, 1 / 3, random_state=3)
    nominal = RobustMissingSVR(formulation="ctm", eta=0.5, epsilon=0.05, W=5.0, D=0.0).fit(Xm, y)
    assert nominal.score(X, y) > 0.9
    _, F = nominal.impute(Xm)

    def spread(w):  # sum_i ||Sigma_i^{1/2} w||, the quantity CTM's theta bounds
        return sum(np.linalg.norm(L.T @ w) for L in F if L is not None)

    for form in ("ctm", "sr"):
        reg = RobustMissingSVR(formulation=form, eta=0.5, epsilon=0.05, W=5.0).fit(Xm, y)
        assert reg.score(X, y) > 0.5
        # robustness: the fitted function varies less over the imputation ellipsoids than the nominal one
        assert spread(reg.coef_) < spread(nominal.coef_)
    with pytest.raises(ValueError, match="formulation"):
        RobustMissingSVR(formulation="lms").fit(Xm, y)
    with pytest.raises(ValueError, match="NaN"):
        RobustMissingSVR().fit(Xm, np.r_[np.nan, y[1:]])
    bad = Xm.copy()
    bad[0] = np.nan
    with pytest.raises(ValueError, match="every feature missing"):
        RobustMissingSVR().fit(bad, y)
    with pytest.raises(ValueError, match="every feature missing"):
        RobustMissingSVC().fit(bad, (y > 0.5).astype(int))


def test_kernel_estimators_spherical_uncertainty():
    rng = np.random.default_rng(4)
    X = rng.standard_normal((50, 3))
    y = X[:, 0] ** 2 - X[:, 1]
    Xm = delete_entries(X, 0.4, 1 / 3, random_state=4)
    inc = np.isnan(Xm).any(1)
    reg = KernelRobustMissingSVR("ctm", eta=0.5, W=50.0, kernel_gamma=0.5, sigma=0.3).fit(Xm, y)
    # spherical Sigma^k = sigma^2 I: every incomplete pattern's theta is sigma ||alpha|| / sqrt(eta)
    np.testing.assert_allclose(reg.result_.theta[inc], 0.3 * np.linalg.norm(reg.alpha_) / np.sqrt(0.5), rtol=1e-4)
    assert np.all(reg.result_.theta[~inc] == 0)
    # the kernelised classifier at gamma = 0 is the SVM on the kernel features of the imputation
    yc = (np.linalg.norm(X, axis=1) > 1.5).astype(int)
    clf = KernelRobustMissingSVC(gamma=0.0, C=5.0, kernel_gamma=0.5).fit(Xm, yc)
    ref = robust_svm(clf.K_fit_, np.where(yc == 1, 1.0, -1.0), None, gamma=0.0, C=5.0)
    np.testing.assert_allclose(clf.alpha_, ref.w, atol=1e-5)
    assert clf.score(X, yc) > 0.8


def test_multiclass_prediction_rule_reduces_to_section_6_1():
    Xm, y, X = _missing_data(5)
    mc = RobustMissingMulticlassSVC(gamma=1.0, C=1.0).fit(Xm, y)
    w = mc.coef_[1] - mc.coef_[0]
    b = mc.intercept_[1] - mc.intercept_[0]
    moments = {-1.0: (mc.means_[0], mc.covariances_[0]), 1.0: (mc.means_[1], mc.covariances_[1])}
    Xb, _, _ = impute_by_fit(w, b, Xm, moments)
    np.testing.assert_array_equal(mc.predict(Xm), np.where(Xb @ w + b > 0, 1, 0))
    assert mc.score(Xm, y) > 0.8


def test_kernel_regressor_knn_covariance_in_kernel_space():
    """004 section 7.2: Sigma^k_i estimated from the kernel features of x_i's k nearest neighbours."""
    import cvxpy as cp
    from sklearn.neighbors import NearestNeighbors

    from robustpapers.core import rbf_kernel

    rng = np.random.default_rng(6)
    X = rng.standard_normal((40, 3))
    y = X[:, 0] ** 2 - X[:, 1]
    Xm = delete_entries(X, 0.4, 1 / 3, random_state=6)
    inc = np.isnan(Xm).any(1)
    k, eta, eps, W, D, q = 6, 0.5, 0.1, 30.0, 0.5, 0.5
    reg = KernelRobustMissingSVR("ctm", eta=eta, epsilon=eps, W=W, D=D, kernel_gamma=q, covariance="knn",
                                 n_neighbors=k).fit(Xm, y)
    # Sigma^k_i recomputed independently: biased covariance of K~(x_j) over the k nearest imputed patterns
    K = rbf_kernel(reg.X_fit_, reg.X_fit_, gamma=q)
    np.testing.assert_allclose(reg.K_fit_, K)
    nbrs = NearestNeighbors(n_neighbors=k).fit(reg.X_fit_).kneighbors(reg.X_fit_, return_distance=False)
    Sk = {i: np.cov(K[nbrs[i]].T, bias=True) for i in np.flatnonzero(inc)}
    # CTM at the optimum: theta_i = sqrt(alpha' Sigma^k_i alpha / eta) (tight: theta only costs), 0 when complete
    a = reg.alpha_
    for i, S in Sk.items():
        assert reg.result_.theta[i] == pytest.approx(np.sqrt(a @ S @ a / eta), rel=1e-4, abs=1e-6)
    assert np.all(reg.result_.theta[~inc] == 0)
    # and its objective is that of an independent cvxpy formulation with the full matrices Sigma^k_i
    al, b = cp.Variable(len(y)), cp.Variable()
    f = K @ al + b

    def root(S):  # symmetric square root of the full n x n matrix
        ev, V = np.linalg.eigh(S)
        return (V * np.sqrt(np.clip(ev, 0, None))) @ V.T

    pen = sum(cp.norm(root(S) @ al) for S in Sk.values()) / np.sqrt(eta)
    prob = cp.Problem(cp.Minimize(cp.sum(cp.pos(cp.abs(f - y) - eps)) + D * pen), [cp.norm(al) <= W])
    prob.solve(solver="CLARABEL")
    assert reg.result_.objective == pytest.approx(prob.value, rel=1e-4)
    # the kNN covariance differs from the spherical one and so does the fit
    sph = KernelRobustMissingSVR("ctm", eta=eta, epsilon=eps, W=W, D=D, kernel_gamma=q).fit(Xm, y)
    assert np.linalg.norm(sph.alpha_ - reg.alpha_) > 1e-3
    # SR with the kNN covariance: sqrt(alpha' Sigma^k alpha + e_i^2) <= (eps + xi_i) sqrt(eta) on incomplete rows
    sr = KernelRobustMissingSVR("sr", eta=eta, epsilon=eps, W=W, kernel_gamma=q, covariance="knn",
                                n_neighbors=k).fit(Xm, y)
    e = sr.K_fit_ @ sr.alpha_ + sr.intercept_ - y
    for i, S in Sk.items():
        assert np.sqrt(sr.alpha_ @ S @ sr.alpha_ + e[i] ** 2) <= (eps + sr.result_.xi[i]) * np.sqrt(eta) + 1e-6
    assert sr.score(X, y) > 0.5
    with pytest.raises(ValueError, match="covariance"):
        KernelRobustMissingSVR(covariance="full").fit(Xm, y)
    with pytest.raises(ValueError, match="n_neighbors"):
        KernelRobustMissingSVR(covariance="knn", n_neighbors=1).fit(Xm, y)
