"""The indefinite-kernel comparison: its similarity generator, its solvers' certificates, the methods at zero
perturbation against the plain SVM, and the tables and claims it builds from records."""
import math

import numpy as np
import pytest
from scipy.stats import t as student_t
from sklearn.svm import SVC

from robustpapers.chen2008 import IndefiniteSVC
from robustpapers.core import rbf_kernel, svm_dual
from robustpapers.reproduce.compare import _common
from robustpapers.reproduce.compare import indefinite_kernels as ik


@pytest.fixture(scope="module")
def small():
    X, y, tr, te = _common.split("sonar", 0, max_n=80)
    return X, y, tr, te


def test_every_method_gets_a_grid_of_the_same_size():
    for scale in ("quick", "paper"):
        sizes = {len(g) for g in ik.SETTINGS[scale]["grids"].values()}
        assert len(sizes) == 1, sizes
    assert len(ik.GRIDS["indefinite"]) == 16 and ik.SETTINGS["paper"]["n_splits"] >= 10


def test_the_perturbation_has_the_stated_moments():
    # K0 - K = xi (E + E')/2: symmetric, off-diagonal variance xi^2 / 2, diagonal variance xi^2 (chen2008 Sec. 6.1)
    X = np.random.default_rng(0).standard_normal((400, 5))
    xi = 0.5
    K0, K = ik.observed_kernel(X, f"gauss-{xi}", seed=3)
    D = K0 - K
    off = D[np.triu_indices_from(D, 1)]
    assert np.allclose(D, D.T) and np.allclose(K, rbf_kernel(X, gamma=1 / 5))
    assert abs(off.mean()) < 0.01 and abs(off.var() / (xi ** 2 / 2) - 1) < 0.03
    assert abs(np.diag(D).var() / xi ** 2 - 1) < 0.2
    assert np.linalg.eigvalsh(K0)[0] < -1.0  # indefinite, as the model says
    S, none = ik.observed_kernel(X, "sigmoid", seed=3)
    assert none is None and np.linalg.eigvalsh(S)[0] < -1e-3
    with pytest.raises(ValueError, match="condition"):
        ik.observed_kernel(X, "laplace", seed=0)
    with pytest.raises(ValueError, match="xi"):
        ik.observed_kernel(X, "gauss-big", seed=0)


def test_svm_gap_is_the_duality_gap(small):
    X, y, tr, _ = small
    K, ytr, C = rbf_kernel(X[tr], gamma=1 / X.shape[1]), y[tr], 2.0
    sol = svm_dual(K, ytr, C)
    gap, dual = ik.svm_gap(K, ytr, sol.alpha, sol.b, C)
    assert 0 <= gap <= ik.TOL * C * ytr.size and math.isclose(dual, sol.objective, rel_tol=1e-12)
    # a feasible point away from the optimum has a positive gap (weak duality)
    a = np.where(ytr > 0, 1.0 / np.sum(ytr > 0), 1.0 / np.sum(ytr < 0)) * 0.5
    assert ik.svm_gap(K, ytr, a, 0.0, C)[0] > 1e-3


def test_at_zero_perturbation_the_repaired_kernels_give_the_plain_svm(small):
    # a PSD similarity is its own clip, flip and shift: each method is then LIBSVM's SVM on the Gaussian kernel
    X, y, tr, te = small
    K0, K = ik.observed_kernel(X, "gauss-0", seed=0)
    ref = SVC(kernel="precomputed", C=1.0, tol=1e-7).fit(K[np.ix_(tr, tr)], y[tr])
    ref_acc = ref.score(K[np.ix_(te, tr)], y[te])
    for m in ik.BASELINES:
        model, ok = ik._fitter(m, K0)(tr, y[tr], {"C": 1.0})
        f = K0[np.ix_(te, tr)] @ model[1] + model[2]
        assert ok and np.allclose(f, ref.decision_function(K[np.ix_(te, tr)]), atol=1e-4)
        assert math.isclose(ik._scorer(K0)(model, te, y[te]), ref_acc)


def test_the_indefinite_svm_is_certified_and_tends_to_the_svm_as_rho_grows(small):
    # chen2008 eq. (2) with a PSD K0 and a large rho: the proxy kernel stays at K0, so the optimum is the SVM dual's
    X, y, tr, _ = small
    K = rbf_kernel(X[tr], gamma=1 / X.shape[1])
    C = 1.0
    model, ok = ik._fitter("indefinite", K)(np.arange(tr.size), y[tr], {"C": C, "rho": 1e4})
    sol = svm_dual(K, y[tr], C)
    assert ok and model[3] <= ik.TOL * C * tr.size
    v = model[1]
    dual = float(np.sum(np.abs(v)) - 0.5 * v @ K @ v)
    assert abs(dual - sol.objective) <= 1e-3 * abs(sol.objective)
    # on an indefinite similarity the certificate is the Frank-Wolfe gap the solver reports
    K0, _ = ik.observed_kernel(X, "gauss-0.5", seed=0)
    model, ok = ik._fitter("indefinite", K0)(tr, y[tr], {"C": 8.0, "rho": 1.0})
    assert ok and 0 <= model[3] <= ik.TOL * 8.0 * tr.size


def test_the_test_rule_is_chen2008s(small):
    # every method predicts with the observed rows K0(x, x_i): the same classifier as chen2008's IndefiniteSVC
    X, y, tr, te = small
    K0, _ = ik.observed_kernel(X, "gauss-0.5", seed=1)
    for m, name in (("flip", "flip"), ("shift", "shift"), ("clip", "denoise")):
        model, _ = ik._fitter(m, K0)(tr, y[tr], {"C": 2.0})
        clf = IndefiniteSVC(name, "precomputed", C=2.0).fit(K0[np.ix_(tr, tr)], y[tr])
        assert math.isclose(ik._scorer(K0)(model, te, y[te]), clf.score(K0[np.ix_(te, tr)], y[te]))


def _fake_records(base):
    """Eleven splits where the Indefinite SVM is 1 point better than clip, 0.5 worse than flip on every split and
    no different on average from shift; one uncertified Indefinite SVM fit, on split 10."""
    rng = np.random.default_rng(0)
    noise = np.round(2 * rng.standard_normal(11)) / 2  # accuracies on 200 test points: multiples of 0.5
    out = []
    for k in range(11):
        accs = {"indefinite": 70.0 + k, "clip": 69.0 + k, "flip": 70.5 + k, "shift": 70.0 + k + noise[k]}
        for m, acc in accs.items():
            out.append(dict(params=dict(dataset="heart", split=k, condition="gauss-0.5", method=m, max_n=None),
                            result=dict(base, indef_acc=acc, clean_acc=acc + 5, certified=not (m == "indefinite"
                                                                                                and k == 10))))
    return out


def test_numbers_and_claims_from_hand_made_records():
    base = dict(chosen={"C": 1.0}, val_scores=[], n_val_fits=48, n_val_certified=48, gap=0.0, seconds=0.1, n_test=200,
                lambda_min=-1.0, lambda_max=10.0, n_neg=5)
    recs = _fake_records(base) + [None]
    nums = ik.numbers(recs)
    assert nums["n_runs"] == 44 and nums["n_uncertified"] == 1 and nums["n_missing"] == 1
    vs = nums["vs_svm"]["gauss-0.5"].set_index("baseline")
    assert math.isclose(vs.loc["Clip", "diff"], 1.0) and vs.loc["Clip", "result"] == "better"
    assert math.isclose(vs.loc["Flip", "diff"], -0.5) and vs.loc["Flip", "result"] == "worse"
    assert vs.loc["Clip", "pairs"] == 10  # the uncertified split is left out
    # the table: Indefinite SVM over its ten certified splits, 70..79: mean 74.5, t-interval
    half = student_t.ppf(0.975, 9) * np.std(np.arange(10), ddof=1) / math.sqrt(10)
    assert nums["accuracy"]["indef_acc"]["gauss-0.5"].loc["Heart", "Indefinite SVM"] == \
        f"74.5 [{74.5 - half:.1f}, {74.5 + half:.1f}]"
    assert nums["accuracy"]["clean_acc"]["gauss-0.5"].loc["Heart", "Clip"].startswith("79.0")
    # the claims, recomputed from the raw records
    cl = {c.id: c for c in ik.claims(recs)}
    assert set(cl) == {f"indefinite_kernels-indefinite-vs-{m}-heart-gauss-0.5" for m in ik.BASELINES}
    for m in ik.BASELINES:
        d = np.array([r1["result"]["indef_acc"] - r2["result"]["indef_acc"] for r1 in recs[:-1] for r2 in recs[:-1]
                      if r1["params"]["method"] == "indefinite" and r2["params"]["method"] == m
                      and r1["params"]["split"] == r2["params"]["split"] and r1["result"]["certified"]])
        c = cl[f"indefinite_kernels-indefinite-vs-{m}-heart-gauss-0.5"]
        h = student_t.ppf(0.975, d.size - 1) * d.std(ddof=1) / math.sqrt(d.size) if d.std() > 0 else 0.0
        lo, hi = d.mean() - h, d.mean() + h
        assert c.paper == "compare" and c.n_certified == 2 * d.size and math.isclose(c.our_value, d.mean())
        expected = "reproduced" if lo > 0 else "contradicted" if hi < 0 else "inconclusive"
        assert c.verdict == expected, (m, c.verdict, lo, hi)
    assert cl["indefinite_kernels-indefinite-vs-clip-heart-gauss-0.5"].verdict == "reproduced"
    assert cl["indefinite_kernels-indefinite-vs-flip-heart-gauss-0.5"].verdict == "contradicted"


def test_the_quick_task_is_validated_on_the_training_part_and_certified():
    params = next(t for t in ik.tasks("quick") if t["method"] == "indefinite")
    res = ik.indefinite_kernels_task(**params)
    assert res["certified"] and res["n_val_fits"] == 3 * len(params["grid"]) == 12
    assert res["n_val_certified"] == 12 and res["chosen"] in params["grid"]
    assert res["n_train"] + res["n_test"] == 80 and 0 <= res["indef_acc"] <= 100 and 0 <= res["clean_acc"] <= 100
