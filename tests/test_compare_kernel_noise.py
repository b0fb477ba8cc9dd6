"""The kernel-noise comparison: its generator's law, its methods' certificates and their agreement with independent
formulations, and the tables and claims it builds from records."""
import math

import numpy as np
import pytest
from scipy.stats import t as student_t
from sklearn.svm import SVC

from robustpapers.bental2012 import make_uncertain_kernels, rsvm_beta_from_kernels, ussvm
from robustpapers.bhadra2010 import rsvm_kkt_residual
from robustpapers.core import is_psd, psd_clip
from robustpapers.reproduce.compare import kernel_noise as kn


@pytest.fixture(scope="module")
def problem():
    """A small (data set, split, level): 60 Sonar points, L = 4 draws at the paper's higher level."""
    y, tr, te, K, S, g = kn._problem("sonar", 0, 0.3, 60, 4)
    return y, tr, te, K, S


def test_median_heuristic_and_its_bad_input():
    X = np.random.default_rng(0).standard_normal((30, 3))
    d2 = ((X[:, None] - X[None]) ** 2).sum(-1)[np.triu_indices(30, 1)]
    assert math.isclose(kn.rbf_width(X), 1 / np.median(d2), rel_tol=1e-12)
    with pytest.raises(ValueError, match="two points"):
        kn.rbf_width(np.zeros((1, 3)))
    with pytest.raises(ValueError, match="median squared distance"):
        kn.rbf_width(np.zeros((4, 3)))
    with pytest.raises(ValueError, match="level"):
        kn.perturbed_kernels(np.eye(3), 2, 0.0)


def test_the_generator_is_bental2012s_at_the_stated_level():
    K = np.exp(-np.random.default_rng(1).random((6, 6)))
    K = K @ K.T
    # at rho = 0.05 it is make_uncertain_kernels itself; at rho the perturbation Z Z^T scales by (rho / 0.05)^2
    base = make_uncertain_kernels(K, 3, "gaussian", random_state=7)
    assert np.allclose(kn.perturbed_kernels(K, 3, 0.05, random_state=7), base, atol=1e-14)
    assert np.allclose(kn.perturbed_kernels(K, 3, 0.3, random_state=7) - K, 36 * (base - K), atol=1e-12)


def test_the_draws_have_the_stated_mean_diagonal_and_are_psd():
    # E (Z Z^T)_ii = sum_k E u_ik^2 E xi^2 = sum_k rho^2 K_ik^2 / 3 for u ~ U(0, rho |K_ik|), xi ~ N(0, 1)
    rng = np.random.default_rng(2)
    A = rng.standard_normal((8, 3))
    K = A @ A.T
    rho, L = 0.2, 4000
    S = kn.perturbed_kernels(K, L, rho, random_state=3)
    inc = np.diagonal(S - K, axis1=1, axis2=2)
    expect = rho ** 2 * (K ** 2).sum(1) / 3
    se = inc.std(0) / np.sqrt(L)
    assert np.all(np.abs(inc.mean(0) - expect) < 5 * se)
    assert all(is_psd(S[l]) for l in range(0, L, 500)) and np.allclose(S, S.transpose(0, 2, 1))


def test_the_baseline_is_the_svm_on_the_mean_kernel(problem):
    y, tr, te, K, S = problem
    (idx, u, b), ok = kn._fitter("svm", S)(tr[:, None], y[tr], {"C": 1.0})
    Kb = S[:, tr[:, None], tr[None, :]].mean(0)
    ref = SVC(kernel="precomputed", C=1.0, tol=1e-10).fit(Kb, y[tr])
    u_ref = np.zeros(tr.size)
    u_ref[ref.support_] = ref.dual_coef_[0]
    assert ok and np.allclose(np.abs(u), np.abs(u_ref), atol=1e-5) and np.allclose(np.sign(u[u != 0]), y[tr][u != 0])


def test_ussvm_at_zero_radius_is_the_baseline_and_meets_its_certificate(problem):
    y, tr, te, K, S = problem
    (_, u0, b0), ok0 = kn._fitter("svm", S)(tr[:, None], y[tr], {"C": 1.0})
    (_, u1, b1), ok1 = kn._fitter("ussvm", S)(tr[:, None], y[tr], {"C": 1.0, "kappa": 0.0})
    assert ok0 and ok1 and np.allclose(u0, u1, atol=1e-8) and abs(b0 - b1) < 1e-8
    # kappa > 0: certified, and the robust value lies below the nominal one (the set contains K_bar + 0)
    B = S[:, tr[:, None], tr[None, :]]
    res = ussvm(B.mean(0), B, y[tr], 1.0, 1.0)
    nominal = ussvm(B.mean(0), np.zeros((0, tr.size, tr.size)), y[tr], 1.0, 0.0)
    assert res.success and res.upper - res.objective <= 1e-6 * abs(res.objective)
    assert res.objective <= nominal.objective + 1e-9


def test_rsvm_uses_the_support_of_the_same_draws_and_meets_its_certificate(problem):
    y, tr, te, K, S = problem
    B = S[:, tr[:, None], tr[None, :]]
    Kb, beta = rsvm_beta_from_kernels(B)
    # beta is entrywise in (mean, min, max): a fold's beta is the block of the training part's
    sub = np.arange(0, tr.size, 2)
    _, beta_sub = rsvm_beta_from_kernels(B[:, sub[:, None], sub[None, :]])
    assert np.allclose(beta_sub, beta[np.ix_(sub, sub)])
    (idx, u, b), ok = kn._fitter("rsvm", S, (tr, beta))(tr[:, None], y[tr], {"C": 1.0, "eps": 0.1})
    assert ok and np.array_equal(idx, tr)
    # the certified SOCP answer is a KKT point of eq. (15) with the PSD beta it solved (a convex problem)
    alpha = u * y[tr]
    kappa = math.sqrt(2 * math.log(1 / 0.1))
    assert rsvm_kkt_residual(Kb, y[tr].astype(float), psd_clip(beta), kappa, 1.0, alpha) < 1e-3
    assert abs(alpha @ y[tr]) < 1e-6 and alpha.min() >= 0 and alpha.max() <= 1.0 + 1e-9


def test_every_method_gets_a_grid_of_the_same_size():
    for scale in ("quick", "paper"):
        sizes = {len(g) for g in kn.SETTINGS[scale]["grids"].values()}
        assert len(sizes) == 1, sizes
    assert len(kn.GRIDS["svm"]) == 16


def _fake(res, params):
    """Ten splits where USSVM is one point better than the SVM and RSVM alternates +-2."""
    recs = []
    for k in range(10):
        for m, acc in (("svm", 70.0 + k), ("ussvm", 71.0 + k), ("rsvm", 70.0 + k + (2 if k % 2 else -2))):
            recs.append(dict(params=dict(params, split=k, method=m),
                             result=dict(res, noisy_acc=acc, clean_acc=acc + 5, certified=not (m == "rsvm" and k == 9))))
    return recs


def test_the_quick_task_and_the_tables_and_claims_from_records():
    params = dict(kn.tasks("quick")[0], method="svm")
    res = kn.kernel_noise_task(**params)
    assert res["certified"] and res["n_val_fits"] == 3 * len(params["grid"]) == res["n_val_certified"]
    # a point that the majority of the sampled kernels misclassifies is misclassified by one of them
    assert 0 <= res["majority_err"] <= res["robust_err"] <= 100 and 0 <= res["nominal_err"] <= 100
    recs = _fake(res, params)
    nums = kn.numbers(recs)
    tab = nums["vs_svm"][0.3].set_index("method")
    assert math.isclose(tab.loc["USSVM", "diff"], 1.0) and tab.loc["USSVM", "result"] == "better"
    assert nums["n_uncertified"] == 1 and nums["n_runs"] == 30
    assert nums["accuracy"]["noisy_acc"][0.3].loc["Sonar", "SVM (mean kernel)"].startswith("74.5")
    assert nums["accuracy"]["clean_acc"][0.3].loc["Sonar", "USSVM"].startswith("80.5")
    # the claims recomputed from the raw records: certified pairs only, the t-interval of the mean difference
    claims = {c.id.split("-")[1]: c for c in kn.claims(recs)}
    assert claims["ussvm"].verdict == "reproduced"
    d = np.array([(2 if k % 2 else -2) for k in range(9)], float)  # split 9's RSVM fit is uncertified
    half = student_t.ppf(0.975, d.size - 1) * d.std(ddof=1) / math.sqrt(d.size)
    c = claims["rsvm"]
    assert c.n_certified < 2 * 10 and c.verdict == "inconclusive"
    assert math.isclose(c.our_value, d.mean()) and np.allclose(c.interval, (d.mean() - half, d.mean() + half))
