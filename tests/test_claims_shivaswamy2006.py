"""The claims of shivaswamy2006, judged on the committed records: well formed, and spot-checked by hand.

Each spot check recomputes one number from the raw JSON records (read here with ``json``, not through
the artefact modules) and compares it with the ledger.
"""
import glob
import json
import math
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from robustpapers.reproduce import ledger
from robustpapers.reproduce.shivaswamy2006 import ARTEFACTS

RESULTS = Path(__file__).resolve().parents[1] / "results" / "shivaswamy2006"


@pytest.fixture(scope="module")
def claims():
    return {c.id: c for c in ledger.all_claims("shivaswamy2006", root=RESULTS.parent)}


def raw(experiment, func, version, **where):
    """The records of one experiment whose params match ``where`` (independent of the modules)."""
    out = []
    for path in sorted(glob.glob(str(RESULTS / experiment / "*.json"))):
        rec = json.loads(Path(path).read_text())
        prov = rec["provenance"]
        if prov["func"].endswith(":" + func) and prov["version"] == version and all(
                rec["params"].get(k) == v for k, v in where.items()):
            out.append(rec)
    return sorted(out, key=lambda r: r["params"].get("rep", 0))


def t_interval(d):
    d = np.asarray(d, float)
    half = stats.t.ppf(0.975, d.size - 1) * d.std(ddof=1) / math.sqrt(d.size)
    return d.mean() - half, d.mean() + half


# --------------------------------------------------------------------------------------------- form
def test_every_artefact_module_has_the_contract():
    import importlib

    for name in ARTEFACTS:
        mod = importlib.import_module(f"robustpapers.reproduce.shivaswamy2006.{name}")
        assert mod.LABEL.startswith("shivaswamy2006 ") and callable(mod.records) and callable(mod.claims)
        assert mod.__doc__ and len(mod.__doc__) > 80, f"{name} must say what it judges"


def test_claims_are_well_formed(claims):
    assert len(claims) > 100
    labels = set()
    for c in claims.values():
        assert c.paper == "shivaswamy2006"
        assert c.verdict in ledger.VERDICTS
        assert 0 <= c.n_certified <= c.n_runs
        assert c.statement and c.where and c.artefact.startswith("shivaswamy2006 ")
        labels.add(c.artefact)
        if c.interval is not None:
            lo, hi = c.interval
            assert lo <= c.our_value <= hi, c.id
        if c.verdict in ("reproduced", "contradicted") and c.rule.startswith("mean paired"):
            assert c.n_certified >= ledger.MIN_SPLITS, f"{c.id}: a decided comparison needs 10 certified pairs"
        if c.verdict == "not testable here":
            assert c.note, f"{c.id}: an untestable claim must say why"
        else:
            assert c.algorithm, f"{c.id}: name the algorithm behind the number"
    assert len(labels) == len(ARTEFACTS)


def test_every_condition_has_its_own_claim(claims):
    for ds in ("heart", "ionosphere", "sonar"):
        for pct in (50, 90):
            for m in ("actual", "expected", "worst-case", "clean", "validated-actual"):
                assert f"fig5-7-{m}-{ds}-{pct}" in claims
    etas = [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]
    for ds in ("toy", "boston"):
        for m in ("ctm-robustness", "ctm-worst-case", "sr-expected-residual", "sr-worst-case", "ctm-plain",
                  "sr-plain"):
            for eta in etas:
                assert f"fig9-{ds}-{m}-eta{eta:g}" in claims


def test_missing_records_give_inconclusive_claims(tmp_path):
    """With an empty cache no comparison is decided and nothing crashes."""
    cs = ledger.all_claims("shivaswamy2006", root=tmp_path)
    for c in cs:
        if c.id != "sec3-gaussian-radius":
            assert c.verdict in ("inconclusive", "not testable here"), c.id


# ---------------------------------------------------------------------------------------- Figs. 5-7
def test_fig5_7_worst_case_heart_recomputed(claims):
    recs = raw("uci_missing_paper", "uci_missing_task", 2, dataset="heart", row_fraction=0.5, C=1.0)
    assert len(recs) == 10
    d = [r["result"]["nominal_worst_case"][-1] - r["result"]["robust_worst_case"][-1] for r in recs]
    c = claims["fig5-7-worst-case-heart-50"]
    assert c.our_value == pytest.approx(np.mean(d), abs=1e-12)
    assert c.interval == pytest.approx(t_interval(d), abs=1e-12)
    assert c.n_runs == 20 and c.verdict == ("reproduced" if t_interval(d)[0] > 0 else c.verdict)


def test_fig5_7_actual_ionosphere_90_recomputed(claims):
    recs = raw("uci_missing_paper", "uci_missing_task", 2, dataset="ionosphere", row_fraction=0.9, C=1.0)
    d = np.array([r["result"]["nominal_actual"][-1] - r["result"]["robust_actual"][-1] for r in recs])
    lo, hi = t_interval(d)
    c = claims["fig5-7-actual-ionosphere-90"]
    assert c.our_value == pytest.approx(d.mean(), abs=1e-12)
    expected = "reproduced" if lo > 0 else "contradicted" if hi < 0 else "inconclusive"
    assert c.verdict == expected


def test_fig5_7_validated_recomputed(claims):
    """The claims with hyper-parameters chosen on the training data, recomputed from the raw records."""
    for ds in ("heart", "ionosphere", "sonar"):
        for rate, pct in ((0.5, 50), (0.9, 90)):
            recs = raw("uci_validated", "uci_validated_task", 1, dataset=ds, row_fraction=rate, cv_folds=3)
            assert len(recs) == 10
            d = np.array([r["result"]["nominal_actual"] - r["result"]["robust_actual"] for r in recs])
            c = claims[f"fig5-7-validated-actual-{ds}-{pct}"]
            assert c.our_value == pytest.approx(d.mean(), abs=1e-12)
            lo, hi = t_interval(d)
            assert c.verdict == ("reproduced" if lo > 0 else "contradicted" if hi < 0 else "inconclusive")
            # hyper-parameters come from the training split: every chosen value is on the grid
            for r in recs:
                assert r["result"]["gamma_robust"] in r["params"]["gammas"]
                assert r["result"]["C_robust"] in r["params"]["Cs"] and r["result"]["C_nominal"] in r["params"]["Cs"]
            e = np.array([r["result"]["clean"] - r["result"]["robust_actual"] for r in recs])
            lo, hi = t_interval(e)
            c = claims[f"fig5-7-clean-{ds}-{pct}"]
            assert c.verdict == ("reproduced" if lo > -0.02 else "contradicted" if hi < -0.02 else "inconclusive")


def test_guarantee_recomputed(claims):
    for ds in ("heart", "ionosphere", "sonar"):
        recs = raw("uci_validated", "uci_validated_task", 1, dataset=ds, cv_folds=3)
        assert len(recs) == 20
        d = [0.2 - r["result"]["guarantee"]["2"]["violation"] for r in recs]
        c = claims[f"fig5-7-guarantee-{ds}"]
        assert c.our_value == pytest.approx(np.mean(d), abs=1e-12)
        lo, hi = t_interval(d)
        assert c.verdict == ("reproduced" if lo > 0 else "contradicted" if hi < 0 else "inconclusive")


def test_validated_task_uses_the_figures_split():
    """With C fixed at 1 the validated task's nominal classifier is the one of Figs. 5-7 on the same split: the
    same test error as the committed uci_missing_task record (an independent code path for the split)."""
    from robustpapers.reproduce.shivaswamy2006.fig5_7_validated import uci_validated_task

    rec = raw("uci_missing_paper", "uci_missing_task", 2, dataset="heart", row_fraction=0.5, rep=3, C=1.0)[0]
    out = uci_validated_task("heart", 3, 0.5, gammas=[1.0], Cs=[1.0], cv_folds=2, check_gammas=[2.0])
    assert out["C_nominal"] == 1.0
    assert out["nominal_actual"] == pytest.approx(rec["result"]["nominal_actual"][0], abs=1e-12)
    # the §6.1 rule is what the figures score: the same error by both routes
    assert out["nominal_rule61"] == pytest.approx(out["nominal_actual"], abs=1e-12)
    g = out["guarantee"]["2"]
    assert g["bound"] == pytest.approx(0.2) and 0.0 <= g["violation"] <= 1.0
    tails = [g["z_tail"][k] for k in ("1", "2", "3")]
    assert tails == sorted(tails, reverse=True)


# ---------------------------------------------------------------------------------------- Figs. 3-4
def test_fig4_worst_case_recomputed(claims):
    recs = raw("ocr_paper", "ocr_task", 1, n_train=None, n_test=None, em_reg=0.1)
    assert len(recs) == 10
    d = [r["result"]["nominal_worst_case"][-1] - r["result"]["robust_worst_case"][-1] for r in recs]
    c = claims["fig4-worst-case"]
    assert c.our_value == pytest.approx(np.mean(d), abs=1e-12)
    assert c.interval == pytest.approx(t_interval(d), abs=1e-12)


def test_fig3_example_counts_recomputed(claims):
    recs = raw("ocr_paper", "ocr_task", 1, n_train=None, n_test=None, em_reg=0.1)
    threes = sum(e["digit"] == "3" for r in recs for e in r["result"]["examples"])
    eights = sum(e["digit"] == "8" for r in recs for e in r["result"]["examples"])
    c = claims["fig3-examples"]
    assert c.our_value == min(threes, eights)
    assert c.verdict == ("reproduced" if min(threes, eights) >= 5 else "not reproduced")


# ------------------------------------------------------------------------------------------- Fig. 8
def test_fig8_recomputed(claims):
    recs = raw("ball_shell_paper", "ball_shell_task", 2, cv_folds=5, n_per_class=100)
    assert len(recs) == 10
    d = [r["result"]["linear_nominal"] - r["result"]["kernel_nominal"] for r in recs]
    assert claims["fig8-kernel-beats-linear-nominal"].our_value == pytest.approx(np.mean(d), abs=1e-12)
    least = [r["result"]["kernel_nominal"] - np.mean(r["result"]["kernel_robust"]) for r in recs]
    c = claims["fig8-robust-kernel-least"]
    assert c.our_value == pytest.approx(np.mean(least), abs=1e-12)
    assert c.interval == pytest.approx(t_interval(least), abs=1e-12)


# ------------------------------------------------------------------------------------------- Fig. 9
def test_fig9_plain_error_recomputed(claims):
    recs = raw("regression_paper", "regression_missing_task", 1, dataset="boston", D=1.0, W=10.0)
    assert len(recs) == 10
    d = [r["result"]["nominal_residual"] - r["result"]["ctm_residual"][0] for r in recs]  # eta = 0.05
    c = claims["fig9-boston-ctm-plain-eta0.05"]
    assert c.our_value == pytest.approx(np.mean(d), abs=1e-12)
    assert c.interval == pytest.approx(t_interval(d), abs=1e-12)


def test_fig9_sr_worst_case_toy_recomputed(claims):
    recs = raw("regression_paper", "regression_missing_task", 1, dataset="toy", D=1.0, W=10.0)
    j = recs[0]["result"]["etas"].index(0.9)
    d = [r["result"]["nominal_sr_worst_case"][j] - r["result"]["sr_worst_case"][j] for r in recs]
    c = claims["fig9-toy-sr-worst-case-eta0.9"]
    assert c.our_value == pytest.approx(np.mean(d), abs=1e-12)
    lo, hi = t_interval(d)
    assert c.verdict == ("reproduced" if lo > 0 else "contradicted" if hi < 0 else "inconclusive")


def test_fig9_judged_on_both_recomputed(claims):
    """'Outperforms imputation' holds only where the formulation wins on its own measures and the plain error."""
    recs = raw("regression_paper", "regression_missing_task", 1, dataset="toy", D=1.0, W=10.0)
    j = recs[0]["result"]["etas"].index(0.5)

    def verdict(d):
        lo, hi = t_interval(d)
        return "reproduced" if lo > 0 else "contradicted" if hi < 0 else "inconclusive"

    for form, keys in (("ctm", ("robustness", "worst_case")), ("sr", ("expected_residual", "worst_case"))):
        parts = [verdict([r["result"][f"nominal_{form}_{k}"][j] - r["result"][f"{form}_{k}"][j] for r in recs])
                 for k in keys]
        plain = [r["result"]["nominal_residual"] - r["result"][f"{form}_residual"][j] for r in recs]
        parts.append(verdict(plain))
        want = ("reproduced" if all(p == "reproduced" for p in parts) else "contradicted" if "contradicted" in parts
                else "partly" if "reproduced" in parts else "inconclusive")
        c = claims[f"fig9-toy-{form}-both-eta0.5"]
        assert c.verdict == want
        assert c.our_value == pytest.approx(np.mean(plain), abs=1e-12)


# ------------------------------------------------------------------------------------------ Fig. 10
def test_fig10_recomputed(claims):
    for form in ("ctm", "sr"):
        recs = raw("quadratic_paper", "quadratic_regression_task", 1, formulation=form)
        assert len(recs) == 10
        d = [r["result"]["linear"] - r["result"]["kernel"] for r in recs]
        c = claims[f"fig10-{form}"]
        assert c.our_value == pytest.approx(np.mean(d), abs=1e-12)
        assert c.interval == pytest.approx(t_interval(d), abs=1e-12)


# -------------------------------------------------------------------------------- §4.3, §3, §5, §7.1
def test_theorem3_recomputed(claims):
    from robustpapers.shivaswamy2006 import calafiore_campi_n

    recs = raw("constraint_sampling", "constraint_sampling_task", 1, beta=1e-3, n=8, d=2)
    assert len(recs) == 3
    for r in recs:
        eps = r["params"]["epsilon"]
        c = claims[f"thm3-eps{eps:g}"]
        assert c.our_value == r["result"]["max_violation"]
        assert r["result"]["N"] == calafiore_campi_n(eps, 1e-3, 2 + 1 + 8)
        assert c.verdict == ("reproduced" if r["result"]["max_violation"] <= eps else "not reproduced")


def test_radius_claim_recomputed(claims):
    k = np.linspace(0.5, 0.999, 500)
    ratio = stats.norm.ppf(k) / np.sqrt(k / (1 - k))
    c = claims["sec3-gaussian-radius"]
    assert c.our_value == pytest.approx(ratio.max(), rel=1e-9)
    assert c.verdict == "reproduced" and ratio.max() < 1


def test_fig1_recomputed(claims):
    """The three scenarios from the stored hyperplane and ellipsoids; the cut ellipsoid's expected error by the
    area of a disk's segment (the ellipse is an affine image of the disk), not by the library's Beta formula."""
    recs = raw("fig1", "fig1_task", 1)
    assert len(recs) == 1
    r = recs[0]["result"]
    w, b, S, g = np.array(r["w"]), r["b"], np.array(r["Sigma"]), r["gamma"]
    s = math.sqrt(w @ S @ w)
    h = [(w @ np.array(c) + b) / (g * s) for c in r["centres"]]  # signed distance in units of the radius
    assert h[0] >= 1 and h[1] <= -1 and -1 < h[2] < 1
    seg = (math.acos(h[2]) - h[2] * math.sqrt(1 - h[2] ** 2)) / math.pi  # share of the unit disk beyond h
    c = claims["fig1-scenarios"]
    assert c.our_value == pytest.approx(seg, abs=1e-9)
    assert abs(r["expected_mc"][2] - seg) <= 3 * math.sqrt(seg * (1 - seg) / r["n_samples"])
    assert c.verdict == "reproduced" and r["success"]


def test_fig2_recomputed(claims):
    """Cut ellipsoids from the stored data and hyperplanes by (18): y f(x̄) - γ sqrt(wᵀΣw) < 0."""
    recs = raw("fig2", "fig2_task", 1)
    assert len(recs) == 1
    r = recs[0]["result"]
    X, y, g = np.array(r["X"]), np.array(r["y"]), r["gamma"]
    cuts = {}
    for who in ("nominal", "robust"):
        w, b = np.array(r[who]["w"]), r[who]["b"]
        cuts[who] = sum(y[i] * (X[i] @ w + b) - g * math.sqrt(w @ np.array(S) @ w) < 0
                        for i, S in enumerate(r["Sigma"]) if S is not None)
    w, b, xi = np.array(r["robust"]["w"]), r["robust"]["b"], np.array(r["robust"]["xi"])
    for i, S in enumerate(r["Sigma"]):  # (17) for the robust solution
        if S is not None:
            assert y[i] * (X[i] @ w + b) - g * math.sqrt(w @ np.array(S) @ w) >= 1 - xi[i] - 1e-6
    c = claims["fig2-robust-hyperplane"]
    assert c.our_value == cuts["robust"]
    assert c.verdict == ("reproduced" if cuts["robust"] < cuts["nominal"] else "not reproduced")


def test_dual47_recomputed_against_an_independent_primal(claims):
    """The task's data regenerated here and the W-form (44) solved by a plain cvxpy model with SCS (not the
    library's Clarabel model): its optimum must equal the stored primal and dual optima."""
    import cvxpy as cp

    recs = raw("dual47", "dual47_task", 1)
    assert len(recs) == 1
    p, r = recs[0]["params"], recs[0]["result"]
    rng = np.random.default_rng([p["seed"], 47])
    n = p["n"]
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    X = rng.standard_normal((n, 2)) + y[:, None]
    S = []
    for _ in range(n):
        if rng.uniform() < p["frac"]:
            A = rng.standard_normal((2, int(rng.integers(1, 3)))) * 0.4
            S.append(A @ A.T)
        else:
            S.append(None)
    assert r["ellipsoid"] == [s is not None for s in S]
    w, b, xi = cp.Variable(2), cp.Variable(), cp.Variable(n, nonneg=True)
    cons = [cp.norm(w) <= r["W"]]
    for i in range(n):
        lhs = y[i] * (X[i] @ w + b) - 1 + xi[i]
        if S[i] is None:
            cons.append(lhs >= 0)
        else:
            ev, V = np.linalg.eigh(S[i])
            half = V @ np.diag(np.sqrt(np.clip(ev, 0, None))) @ V.T
            cons.append(lhs >= p["gamma"] * cp.norm(half @ w))
    prob = cp.Problem(cp.Minimize(cp.sum(xi)), cons)
    prob.solve(solver="SCS", eps=1e-9, max_iters=200000)
    assert prob.value == pytest.approx(r["primal_objective"], abs=1e-4)
    assert r["dual_objective"] == pytest.approx(r["primal_objective"], abs=1e-6)
    c = claims["sec7-1-duality"]
    assert c.our_value == pytest.approx(abs(r["primal_objective"] - r["dual_objective"]), abs=1e-15)
    assert c.verdict == "reproduced"
    # KKT readings from the stored arrays
    lam, m = np.array(r["lam"]), np.array(r["margin_wc"])
    free = (lam > 1e-4) & (lam < 1 - 1e-4)
    assert free.any() and np.all(np.abs(m[free] - 1) <= 1e-5)
    assert np.all(lam[m < 1 - 1e-4] >= 1 - 1e-5)
    assert claims["sec7-1-kkt"].verdict == "reproduced" and claims["sec7-1-kkt"].our_value == r["point_error"]


def test_table1_recomputed(claims):
    recs = raw("table1", "table1_task", 1, n=40)
    assert len(recs) == 1
    r = recs[0]["result"]
    objs = [x["objective"] for x in r["sampled"]]
    assert all(a <= b + 1e-7 for a, b in zip(objs, objs[1:])) and objs[-1] <= r["sdp"]["objective"] + 1e-6
    c = claims["table1-invariance-sdp"]
    assert c.our_value == pytest.approx(r["sdp"]["objective"] - objs[-1], abs=1e-12)
    assert c.verdict == ("reproduced" if c.our_value <= 1e-3 * max(1, r["sdp"]["objective"])
                         and r["trajectory_min"] >= -1e-6 else "not reproduced")
    c = claims["table1-knowledge-qp"]
    assert c.our_value == pytest.approx(abs(r["polyhedral"]["objective"] - r["hull"]["objective"]), abs=1e-12)


@pytest.mark.parametrize("ridge", [0.01, 1.0])
def test_ocr_other_ridges_recomputed(claims, ridge):
    recs = raw("ocr_ridge", "ocr_task", 1, em_reg=ridge, n_train=None)
    assert len(recs) == 10
    for m in ("actual", "worst_case"):
        d = [x["result"][f"nominal_{m}"][0] - x["result"][f"robust_{m}"][0] for x in recs]
        c = claims[f"fig4-ridge{ridge:g}-{m.replace('_', '-')}"]
        assert c.our_value == pytest.approx(np.mean(d), abs=1e-12)
        lo, hi = t_interval(d)
        assert c.interval[0] == pytest.approx(lo, abs=1e-9) and c.interval[1] == pytest.approx(hi, abs=1e-9)
        assert c.verdict == ("reproduced" if lo > 0 else "contradicted" if hi < 0 else "inconclusive")


def test_fig8_numbers_recomputed():
    from robustpapers.reproduce.shivaswamy2006 import fig8

    recs = raw("ball_shell_paper", "ball_shell_task", 2)
    n = fig8.numbers(fig8.records())
    assert n["n_splits"] == len(recs) == 10
    assert n["kernel_nominal"] == pytest.approx(np.mean([x["result"]["kernel_nominal"] for x in recs]), abs=1e-12)
    lin = np.mean([x["result"]["linear_robust"] for x in recs], axis=0)
    assert np.allclose(n["table"]["linear robust"], lin, atol=1e-12)


def test_theorems_4_and_5_recomputed(claims):
    recs = raw("theorems_regression", "theorem4_5_task", 1, eta=0.3, n_draws=4000)
    assert len(recs) == 1
    r = recs[0]["result"]
    c = claims["thm4-violation"]
    assert c.our_value == max(max(r["p_sr"]), max(r["p_ctm"]))
    assert c.verdict == ("reproduced" if c.our_value <= 0.3 else "not reproduced")
    c = claims["thm5-ellipsoid"]
    assert c.our_value == max(r["thm5_ratio"]) and c.verdict == ("reproduced" if c.our_value <= 1 else "not reproduced")
    assert r["n_incomplete"] == len(r["p_sr"]) == len(r["thm5_ratio"]) == 75


def test_losses34_recomputed(claims):
    """The claim counts the fits whose stored status is optimal; the l2 fit without the uncertainty term is
    ordinary least squares (||w|| <= W inactive), recomputed here by numpy's lstsq on the same split."""
    from robustpapers.reproduce.shivaswamy2006 import sec5_3

    recs = raw("losses34", "losses34_task", 1)
    assert len(recs) == 1
    rows = recs[0]["result"]["rows"]
    assert sorted({r["loss"] for r in rows}) == ["epsilon", "huber", "l1", "l2"] and len(rows) == 8
    c = claims["sec5-3-convex-losses"]
    n_opt = sum(r["solver_status"] == "optimal" for r in rows)
    assert c.our_value == n_opt
    assert c.verdict == ("reproduced" if n_opt == 8 else "not reproduced")
    Xtr, _, Xte, _, ytr, yte = sec5_3.toy_split(recs[0]["params"]["seed"])
    assert recs[0]["result"]["n_test"] == len(yte)
    coef = np.linalg.lstsq(np.c_[Xtr, np.ones(len(ytr))], ytr, rcond=None)[0]
    assert np.linalg.norm(coef[:-1]) < recs[0]["params"]["W"]
    l2 = next(r for r in rows if r["loss"] == "l2" and r["D"] == 0.0)
    assert l2["plain"] == pytest.approx(np.mean(np.abs(Xte @ coef[:-1] + coef[-1] - yte)), abs=1e-5)
