"""The comparison of the five papers' methods: its statistics against independent formulations, its solvers'
certificates, and the tables it builds from records."""
import math

import numpy as np
import pytest
from scipy.stats import friedmanchisquare
from sklearn.svm import SVC

from robustpapers.reproduce.compare import _common
from robustpapers.reproduce.compare import input_noise as inoise
from robustpapers.shivaswamy2006 import gamma_gaussian


def test_friedman_statistic_agrees_with_scipy():
    rng = np.random.default_rng(0)
    table = rng.random((12, 4))  # continuous scores: no ties, where both forms agree exactly
    out = _common.friedman_nemenyi(table)
    stat, p = friedmanchisquare(*table.T)
    assert math.isclose(out["chi2"], stat, rel_tol=1e-12) and math.isclose(out["p"], p, rel_tol=1e-10)


def test_nemenyi_critical_difference_matches_demsar_table():
    # Demsar (2006), Table 5(a): q_0.05 = 2.569 for k = 4 methods; CD = q sqrt(k(k+1)/(6N))
    out = _common.friedman_nemenyi(np.random.default_rng(1).random((10, 4)))
    assert math.isclose(out["cd"], 2.569 * math.sqrt(4 * 5 / 60), rel_tol=1e-3)


def test_average_ranks_share_ties():
    assert _common.average_ranks([[1.0, 1.0, 0.0], [0.0, 1.0, 2.0]]).tolist() == [2.25, 1.75, 2.0]


def test_mean_interval_is_the_t_interval():
    m, (lo, hi) = _common.mean_interval([1.0, 2.0, 3.0, 4.0])
    assert m == 2.5 and math.isclose(hi - m, 3.182446305284263 * np.std([1, 2, 3, 4], ddof=1) / 2, rel_tol=1e-9)
    assert _common.mean_interval([1.0]) == (1.0, None)


def test_validation_uses_training_part_only_and_breaks_ties_in_the_middle():
    X = np.r_[np.zeros((6, 1)) - 1, np.zeros((6, 1)) + 1]
    y = np.r_[-np.ones(6), np.ones(6)]
    seen = []

    def fit(Xf, yf, c):
        seen.append(len(yf))
        return c, True

    out = _common.validate(fit, lambda model, Xv, yv: 1.0, [1, 2, 3, 4, 5], X, y, seed=0)
    assert out["index"] == 2 and out["n_fits"] == 15 and out["n_certified"] == 15
    assert set(seen) == {8}  # two thirds of the 12 training points per fit


def test_split_is_stratified_and_standardised_on_the_training_part():
    X, y, tr, te = _common.split("heart", 3)
    assert abs(te.size / y.size - _common.TEST_SIZE) < 0.01 and not set(tr) & set(te)
    assert np.allclose(X[tr].mean(0), 0, atol=1e-12)
    assert abs(np.mean(y[tr] == 1) - np.mean(y[te] == 1)) < 0.02


@pytest.fixture(scope="module")
def small():
    X, y, tr, _ = _common.split("sonar", 0, max_n=80)
    return X[tr], y[tr]


def test_the_svm_is_the_linear_soft_margin_svm(small):
    # gamma = 0 in shivaswamy2006 eq. (10) is the soft-margin SVM: same classifier as LIBSVM's linear SVC
    X, y = small
    (w, b), ok = inoise._fitter("svm", 1.0, X.shape[1])(X, y, {"C": 1.0})
    ref = SVC(kernel="linear", C=1.0, tol=1e-8).fit(X, y)
    assert ok and np.allclose(w, ref.coef_.ravel(), atol=1e-3) and abs(b - ref.intercept_[0]) < 1e-3


def test_the_gaussian_socp_meets_its_robust_constraints(small):
    # at the optimum every point's margin, less its slack, covers gamma s ||w|| (shivaswamy2006 eq. (10b))
    X, y = small
    s, kappa = 0.5, 0.8
    (w, b), ok = inoise._fitter("socp_gauss", s, X.shape[1])(X, y, {"C": 1.0, "kappa": kappa})
    margins = y * (X @ w + b)
    g = gamma_gaussian(kappa) * s * np.linalg.norm(w)
    xi = np.maximum(0.0, 1 + g - margins)
    assert ok and np.linalg.norm(w) > 1e-3 and np.all(margins - 1 + xi >= g - 1e-6)
    # and it is the optimum of the spherical program written out directly (one cone, not the library's factors)
    import cvxpy as cp

    wv, bv, xv = cp.Variable(X.shape[1]), cp.Variable(), cp.Variable(len(y), nonneg=True)
    r = gamma_gaussian(kappa) * s
    prob = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(wv) + cp.sum(xv)),
                      [cp.multiply(y, X @ wv + bv) >= 1 - xv + r * cp.norm(wv)])
    prob.solve(solver="CLARABEL")
    assert np.allclose(w, wv.value, atol=1e-4) and abs(b - bv.value) < 1e-4


def test_every_method_gets_a_grid_of_the_same_size():
    for scale in ("quick", "paper"):
        sizes = {len(g) for g in inoise.SETTINGS[scale]["grids"].values()}
        assert len(sizes) == 1, sizes
    assert len(inoise.GRIDS["svm"]) == 16


def test_guru_meets_its_gradient_certificate(small):
    X, y = small
    (w, b), ok = inoise._fitter("guru", 1.0, X.shape[1])(X, y, {"sigma_factor": 1.0})
    assert ok and np.linalg.norm(w) > 0


def test_the_quick_task_runs_and_the_tables_hold_what_it_computed():
    params = dict(inoise.tasks("quick")[0], method="svm")
    res = inoise.input_noise_task(**params)
    assert res["certified"] and res["n_val_fits"] == 3 * len(params["grid"])
    assert res["chosen"] in params["grid"] and 0 <= res["noisy_acc"] <= 100
    fake = []
    for k in range(10):  # ten splits where GURU is one point better than the SVM on every split
        for m, acc in (("svm", 70.0 + k), ("guru", 71.0 + k)):
            fake.append(dict(params=dict(params, split=k, method=m),
                             result=dict(res, noisy_acc=acc, clean_acc=acc, certified=True)))
    nums = inoise.numbers(fake)
    row = nums["vs_svm"][1.0].iloc[0]
    assert row["method"] == "GURU" and math.isclose(row["diff"], 1.0) and row["result"] == "better"
    assert nums["n_uncertified"] == 0 and nums["n_runs"] == 20
    assert nums["accuracy"]["noisy_acc"][1.0].loc["Sonar", "SVM"].startswith("74.5")
