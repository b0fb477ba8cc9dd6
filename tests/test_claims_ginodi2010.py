"""ginodi2010 in the claims ledger: the claims are well formed, and numbers recomputed from the raw records agree."""
import json
from pathlib import Path

import numpy as np
import pytest

from robustpapers.reproduce.engine import results_root
from robustpapers.reproduce.ledger import VERDICTS, all_claims

RAW = results_root() / "ginodi2010"
FULL_SIGMAS, FULL_CS = list(range(-20, 21)), list(range(-15, 16))


@pytest.fixture(scope="module")
def claims():
    return {c.id: c for c in all_claims("ginodi2010")}


def raw(experiment, **where):
    out = []
    for path in sorted((RAW / experiment).glob("*.json")):
        rec = json.loads(path.read_text())
        if all(rec["params"].get(k) == v for k, v in where.items()):
            out.append(rec)
    return out


def test_well_formed(claims):
    assert len(claims) >= 50
    for c in claims.values():
        assert c.paper == "ginodi2010" and c.verdict in VERDICTS and c.artefact.startswith("ginodi2010 ")
        assert 0 <= c.n_certified <= c.n_runs and c.where and c.statement and c.algorithm
        if c.interval is not None and c.our_value is not None:
            assert c.interval[0] - 1e-12 <= c.our_value <= c.interval[1] + 1e-12, c.id
        if c.verdict == "reproduced" and c.n_runs:
            assert c.n_certified == c.n_runs or c.interval is not None, c.id


def test_every_artefact_has_claims(claims):
    from robustpapers.reproduce.ledger import artefact_modules

    labels = {c.artefact for c in claims.values()}
    assert {m.LABEL for m in artefact_modules("ginodi2010")} == labels


# Table 2.2 -----------------------------------------------------------------------------------------------

def test_table2_2_one_split_is_inconclusive(claims):
    recs = raw("table_2_2", log2_sigmas=FULL_SIGMAS, log4_Cs=FULL_CS)
    assert {r["params"]["seed"] for r in recs} == {0}              # the records hold one split
    rows = [c for c in claims.values() if c.id.startswith("table2_2-") and c.id != "table2_2-overall"]
    assert len(rows) == 8 and all(c.verdict == "inconclusive" and "one split" in c.note for c in rows)


def test_table2_2_ionosphere_difference(claims):
    r = raw("table_2_2", log2_sigmas=FULL_SIGMAS, log4_Cs=FULL_CS, problem="ionosphere")[0]["result"]
    assert r["guru_max_grad_nonconstant"] < 1e-5 and r["svm_all_converged"]
    assert claims["table2_2-ionosphere"].our_value == pytest.approx(100 * (r["guru_test"] - r["svm_test"]))
    assert claims["table2_2-ionosphere"].paper_value == pytest.approx(82.24 - 79.61)


def test_table2_2_uncertified_svm_paths_are_counted(claims):
    recs = raw("table_2_2", log2_sigmas=FULL_SIGMAS, log4_Cs=FULL_CS)
    bad = {r["params"]["problem"] for r in recs if not r["result"]["svm_all_converged"]}
    assert bad                                                     # LIBSVM hit its cap somewhere on some path
    for p in bad:
        assert claims[f"table2_2-{p}"].n_certified == 0 and "not certified" in claims[f"table2_2-{p}"].note


# Figs. 2.5 and 2.7 ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("fig, problem, n", [("fig2_5", "toy_a", 50), ("fig2_5", "toy_b", 50),
                                             ("fig2_7", "digits_3v5", 10), ("fig2_7", "digits_5v8", 10),
                                             ("fig2_7", "digits_7v9", 10)])
def test_noise_paired_mean(claims, fig, problem, n):
    recs = raw("noise", log2_sigmas=FULL_SIGMAS, log4_Cs=FULL_CS, problem=problem)
    adv = [100 * np.mean(np.array(r["result"]["guru_test"]) - np.array(r["result"]["svm_test"])) for r in recs]
    c = claims[f"{fig}-{problem}"]
    assert len(adv) == n and c.n_runs == 2 * n
    assert c.our_value == pytest.approx(np.mean(adv))
    from scipy.stats import t

    half = t.ppf(0.975, n - 1) * np.std(adv, ddof=1) / np.sqrt(n)
    assert c.interval == pytest.approx((np.mean(adv) - half, np.mean(adv) + half))
    lo, hi = c.interval
    assert c.verdict == ("reproduced" if lo > 0 else "contradicted" if hi < 0 else "inconclusive")


# Fig. 2.6, Algorithm 1, Fig. 3.1 -------------------------------------------------------------------------

def test_fig2_6_share_across(claims):
    r = raw("adversary_digits", problem="digits_3v5", seed=0)[0]["result"]
    across = (np.sum(np.array(r["pos_noisy_score"]) < 0) + np.sum(np.array(r["neg_noisy_score"]) > 0))
    total = np.size(r["pos_noisy_score"]) + np.size(r["neg_noisy_score"])
    assert claims["fig2_6-adversary"].our_value == pytest.approx(across / total)
    assert claims["fig2_6-adversary"].verdict == "reproduced"


def test_alg1_last_iterate_gap(claims):
    r = raw("sgd_vs_lbfgs", max_epochs=300, average=False)[0]["result"]
    assert claims["alg1-converges"].our_value == pytest.approx((min(r["sgd_objective"][-1:]) - r["optimum"])
                                                                / r["optimum"], rel=1e-6)
    assert claims["alg1-converges"].verdict == ("reproduced" if r["final_rel_gap"] <= 1e-2 else "not reproduced")


@pytest.mark.parametrize("problem", ["toy_a", "toy_b"])
def test_fig3_1_slope(claims, problem):
    r = raw("norm_vs_sigma", problem=problem, log2_sigmas=FULL_SIGMAS)[0]
    ls, nrm = np.array(r["params"]["log2_sigmas"], float), np.array(r["result"]["norm"])
    big = ls >= 3
    s = np.polyfit(ls[big] * np.log(2), np.log(nrm[big]), 1)[0]
    assert claims[f"fig3_1-{problem}"].our_value == pytest.approx(s)
    assert claims[f"fig3_1-{problem}"].verdict == ("reproduced" if abs(s + 1) <= 0.1 else "not reproduced")


# chapter 3 -----------------------------------------------------------------------------------------------

def test_strong_duality_gap(claims):
    recs = [r for r in raw("duality", seed=0) if -4 <= r["params"]["log2_sigma"] <= 5]
    gap = max(abs(r["result"]["primal"] - r["result"]["dual"]) / r["result"]["primal"] for r in recs)
    assert claims["sec3-strong-duality"].our_value == pytest.approx(gap)
    assert claims["sec3-strong-duality"].n_runs == len(recs) == 40
    werr = max(r["result"]["w_rel_err_dual"] for r in recs)
    assert claims["sec3-norm-from-dual"].our_value == pytest.approx(werr)


def test_theory_checks_reproduce(claims):
    for cid in ["sec2-prop1-thm2_1", "sec2-thm3_1", "sec2-thm3_2", "sec2-thm3_3", "sec3-conjugates",
                "sec3-general-framework", "eq5_16-two-classes", "alg2-linear-kernel-is-guru", "appb-diagonal"]:
        assert claims[cid].verdict == "reproduced", cid
    assert claims["sec2-thm3_3"].our_value < 1e-9                   # max gap to the hinge is σφ(0)


# Algorithm 2, Table 4.1, Fig. 4.1 ------------------------------------------------------------------------

def test_alg2_benchmark(claims):
    b = json.loads((RAW / "benchmarks" / "ken_guru_norm.json").read_text())
    top = max(b["rows"], key=lambda r: r["M"])
    assert claims["alg2-o1-norm"].our_value == pytest.approx(top["speedup"])
    assert claims["alg2-o1-norm"].n_runs == len(b["rows"])


def test_table4_1_rows_and_certificates(claims):
    rows = [c for c in claims.values() if c.id.startswith("table4_1-")]
    assert len(rows) == 6                                          # all six rows of the thesis's table
    for p in ("diabetes", "splice_1v2"):
        c = claims[f"table4_1-{p}"]
        assert c.verdict == "inconclusive" and c.n_runs == 0 and "missing" in c.note
    recs = raw("table_4_1", epochs=100, eta0s=[0.01, 0.1, 1.0, 10.0])
    assert len(recs) == 4
    for r in recs:
        c = claims[f"table4_1-{r['params']['problem']}"]
        uncertified = r["result"]["ken_guru_rel_gap"] > 1e-3
        assert c.n_certified == (1 if uncertified else 2) and c.verdict == "inconclusive"
        if uncertified:
            assert c.our_value is None and "not certified" in c.note
    r58 = next(r for r in recs if r["params"]["problem"] == "digits_5v8")["result"]
    assert r58["ken_guru_rel_gap"] > 1e5                           # objective ≈ 20 against an optimum of 6.6e-5


def test_fig4_1_not_certified(claims):
    recs = raw("radial", seed=0, n=500, epochs=100)
    c = claims["fig4_1-local-global"]
    assert c.n_runs == len(recs) == 5 and c.n_certified == 0 and c.verdict == "inconclusive"
    small = min(recs, key=lambda r: r["params"]["log2_sigma"])["result"]["train_acc"]
    assert c.our_value == pytest.approx(small)


# Table 5.2, Fig. 5.2 -------------------------------------------------------------------------------------

def test_table5_2_certificates(claims):
    recs = [r for r in raw("table_5_2", epochs=100, log2_sigmas=FULL_SIGMAS) if r["params"].get("sizes") is None]
    assert len(recs) == 6
    for r in recs:
        p, x = r["params"]["problem"], r["result"]
        assert x["lbfgs_grad_norm"] < 1e-5
        c = claims[f"table5_2-svm-{p}"]
        assert c.n_certified == 1 + int(x["full_rel_gap"] <= 1e-3) and c.verdict == "inconclusive"
        c = claims[f"table5_2-s2-{p}"]
        assert c.n_certified == int(x["full_rel_gap"] <= 1e-3) + int(x["s2_rel_gap"] <= 1e-3)
        assert f"{100 * (x['full_test'] - x['s2_test']):+.2f}" in c.note


def test_fig5_2_phases(claims):
    r = raw("fig_5_2", problem="toy3", seed=0)[0]["result"]
    full, s2 = np.array(r["full_objective"]), np.array(r["s2_objective"])
    early = np.mean((full - s2)[1:len(full) // 10 + 1])
    assert claims["fig5_2-phases"].our_value == pytest.approx(early)
    parts = [early >= 0, full[-1] <= s2[-1]]
    assert claims["fig5_2-phases"].verdict == ("reproduced" if all(parts) else "partly" if any(parts)
                                               else "not reproduced")


# appendix A ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("experiment, problem, key", [("asvc", "toy_a", "asvc_converged"),
                                                      ("asvc", "ionosphere", "asvc_converged"),
                                                      ("multiclass_asvc", "toy3", "alt_converged"),
                                                      ("multiclass_asvc", "wine", "alt_converged")])
def test_appa_convergence_share(claims, experiment, problem, key):
    deltas = [round(0.1 * k, 3) for k in range(16)]
    recs = [r for r in raw(experiment, problem=problem, seed=0) if r["params"]["delta"] in deltas]
    share = np.mean([r["result"][key] for r in recs])
    c = claims[f"appa-{experiment}-converges-{problem}"]
    assert len(recs) == 16 and c.our_value == pytest.approx(share)
    assert c.verdict == ("reproduced" if share >= 1 else "not reproduced")
