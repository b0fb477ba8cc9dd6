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

def _middle(vals):
    """The middle of the tied best validation values (written out again, independently of _common)."""
    best = max(vals)
    tied = [i for i, v in enumerate(vals) if v == best]
    return tied[(len(tied) - 1) // 2]


def _interval(d):
    from scipy.stats import t

    d = np.asarray(d, float)
    half = t.ppf(0.975, d.size - 1) * d.std(ddof=1) / np.sqrt(d.size)
    return d.mean(), (d.mean() - half, d.mean() + half)


def _judge_equivalent(d, margin=1.0):
    if len(d) < 10:
        return "inconclusive"
    _, (lo, hi) = _interval(d)
    return "reproduced" if -margin <= lo and hi <= margin else "contradicted" if hi < -margin or lo > margin \
        else "inconclusive"


def _judge_paired(d, direction=1):
    if len(d) < 10:
        return "inconclusive"
    _, (lo, hi) = _interval(np.asarray(d) * direction)
    return "reproduced" if lo > 0 else "contradicted" if hi < 0 else "inconclusive"


def test_middle_of_ties():
    from robustpapers.reproduce.ginodi2010._common import middle_of_ties

    assert middle_of_ties([0.5, 0.9, 0.9, 0.9, 0.7]) == 2
    assert middle_of_ties([0.9, 0.9, 0.1, 0.2]) == 0          # even count: the lower middle
    assert middle_of_ties([0.9, 0.1, 0.9, 0.9]) == 2          # non-contiguous ties: the middle tied index
    assert middle_of_ties([0.1, 0.3, 0.2]) == 1
    with pytest.raises(ValueError, match="non-empty"):
        middle_of_ties([])


T22 = dict(log2_sigmas=FULL_SIGMAS, log4_Cs=FULL_CS, eta0s=[0.01, 0.1, 1.0, 10.0], sgd_epochs=100)


@pytest.mark.parametrize("problem", ["toy_a", "toy_b", "ionosphere", "diabetes", "splice_1v2", "digits_3v5",
                                     "digits_5v8", "digits_7v9"])
def test_table2_2_recomputed(claims, problem):
    recs = raw("table_2_2_splits", problem=problem, **T22)
    c = claims[f"table2_2-{problem}"]
    if not recs:
        assert c.verdict == "inconclusive" and c.n_runs == 0
        return
    diffs = []
    for r in recs:
        x = r["result"]
        gi, si = _middle(x["guru_val_path"]), _middle(x["svm_val_path"])
        assert (gi, si) == (x["guru_index"], x["svm_index"])          # selection on validation, ties to the middle
        assert x["guru_test"] == x["guru_test_path"][gi] and x["svm_test"] == x["svm_test_path"][si]
        ok = (x["guru_grad_path"][gi] < 1e-5 or x["guru_constant_path"][gi]) and x["svm_converged_path"][si]
        if ok:
            diffs.append(100 * (x["guru_test"] - x["svm_test"]))
    assert c.n_runs == 2 * len(recs) and c.n_certified == 2 * len(diffs)
    if len(diffs) >= 2:
        mean, iv = _interval(diffs)
        assert c.our_value == pytest.approx(mean) and c.interval == pytest.approx(iv)
    expected = _judge_paired(diffs) if problem == "ionosphere" else _judge_equivalent(diffs)
    assert c.verdict == expected


@pytest.mark.parametrize("problem", ["toy_a", "ionosphere", "digits_5v8"])
def test_table2_2_sgd_recomputed(claims, problem):
    recs = raw("table_2_2_splits", problem=problem, **T22)
    c = claims[f"table2_2-sgd-{problem}"]
    fr = []
    for r in recs:
        x = r["result"]
        gi = x["guru_index"]
        if not ((x["guru_grad_path"][gi] < 1e-5 or x["guru_constant_path"][gi]) and x["svm_converged_path"][x["svm_index"]]):
            continue
        G, Gs, G0 = x["sgd_objective"][-1], x["lbfgs_objective"], x["objective_at_zero"]
        assert G >= Gs - 1e-6 * max(1.0, Gs)                          # the certified optimum is a lower bound
        assert x["sgd_objective"][0] == pytest.approx(G0)             # SGD starts at w = 0, b = 0
        fr.append((G - Gs) / max(G0 - Gs, 0.1 * max(1.0, abs(Gs))))  # floored where the start is next to G*
    if fr:
        assert c.our_value == pytest.approx(max(fr))
        assert c.verdict == ("reproduced" if max(fr) <= 1e-2 else "not reproduced")


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


T41 = dict(log2_sigmas=list(range(-10, 11)), log4_Cs=FULL_CS, eta0s=[0.01, 0.1, 1.0, 10.0], epochs=100)


def _eigen_path(params):
    """The certified KEN-GURU path (table_4_1_eigen) of one Table 4.1 split, or None."""
    keys = ("problem", "kernel", "standardize", "seed", "log2_sigmas")
    hits = raw("table_4_1_eigen", **{k: params[k] for k in keys})
    return hits[0]["result"] if hits else None


@pytest.mark.parametrize("problem", ["ionosphere", "diabetes", "splice_1v2", "digits_3v5", "digits_5v8", "digits_7v9"])
def test_table4_1_recomputed(claims, problem):
    c = claims[f"table4_1-{problem}"]                                 # every row of the thesis's table is judged
    recs = raw("table_4_1_certified", problem=problem, **T41)
    if not recs:
        assert c.verdict == "inconclusive" and c.n_runs == 0
        return
    diffs = []
    for r in recs:
        x = r["result"]
        gi, si = _middle(x["guru_val_path"]), _middle(x["svm_val_path"])
        assert (gi, si) == (x["guru_index"], x["svm_index"])
        assert x["guru_test"] == x["guru_test_path"][gi] and x["svm_test"] == x["svm_test_path"][si]
        e = _eigen_path(r["params"])
        if e is None:                                                 # the first records' beta path
            test, grad = x["guru_test"], x["guru_grad_path"][gi]
        else:                                                         # the certified path: its own selection
            ei = _middle(e["guru_val_path"])
            test, grad = e["guru_test_path"][ei], e["guru_grad_path"][ei]
            # the eigen-coordinate optimum is never above the beta-coordinate run at the same sigma
            assert all(ge <= gb + 1e-9 * max(1.0, gb) for ge, gb in zip(e["guru_objective_path"],
                                                                         x["guru_objective_path"])
                       if np.isfinite(ge) and ge > 0 and ge < 0.999 * x["objective_at_zero"])
        if grad <= 1e-6:
            diffs.append(100 * (test - x["svm_test"]))
    assert c.n_runs == len(recs) and c.n_certified == len(diffs)
    if len(diffs) >= 2:
        mean, iv = _interval(diffs)
        assert c.our_value == pytest.approx(mean) and c.interval == pytest.approx(iv)
    assert c.verdict == (_judge_paired(diffs) if problem == "ionosphere" else _judge_equivalent(diffs))


def test_table4_1_digit_beta_runs_fail_their_certificate():
    """The first records' beta-coordinate optima of the digit pairs mostly miss the 1e-6 certificate, and the
    certified path shows why: their objective is above the optimum (not a threshold too strict)."""
    from robustpapers.reproduce.ginodi2010 import table4_1

    n = table4_1.numbers(table4_1.records())
    beta_ok, excess = 0, []
    digits = [r for r in raw("table_4_1_certified", **T41) if r["params"]["problem"].startswith("digits")]
    for r in digits:
        x = r["result"]
        bi = x["guru_index"]
        beta_ok += x["guru_grad_path"][bi] <= 1e-6
        e = _eigen_path(r["params"])
        if e is not None:
            opt = e["guru_objective_path"][bi]
            assert e["guru_grad_path"][bi] <= 1e-6
            excess.append((x["guru_objective_path"][bi] - opt) / opt)
    assert n["digit_beta_certified"] == beta_ok and n["digit_splits"] == len(digits)
    if excess:
        assert min(excess) >= -1e-9 and n["digit_beta_excess_max"] == pytest.approx(max(excess))
        assert max(excess) > 1e-2                                     # the capped runs stopped above the optimum


@pytest.mark.parametrize("problem", ["ionosphere", "digits_5v8"])
def test_table4_1_sgd_recomputed(claims, problem):
    c = claims[f"table4_1-sgd-{problem}"]
    fr = []
    for r in raw("table_4_1_certified", problem=problem, **T41):
        x = r["result"]
        bi = x["guru_index"]
        e = _eigen_path(r["params"])
        opt, grad = ((x["guru_objective_path"][bi], x["guru_grad_path"][bi]) if e is None else
                     (e["guru_objective_path"][bi], e["guru_grad_path"][bi]))
        if grad <= 1e-6:
            fr.append((x["sgd_objective"][-1] - opt) / max(x["objective_at_zero"] - opt, 0.1 * max(1.0, abs(opt))))
    if fr:
        assert c.our_value == pytest.approx(max(fr)) and c.n_certified == len(fr)
        assert c.verdict == ("reproduced" if max(fr) <= 1e-2 else "not reproduced")


def test_fig4_1_not_certified(claims):
    recs = raw("radial", seed=0, n=500, epochs=100)
    c = claims["fig4_1-local-global"]
    assert c.n_runs == len(recs) == 5 and c.n_certified == 0 and c.verdict == "inconclusive"
    small = min(recs, key=lambda r: r["params"]["log2_sigma"])["result"]["train_acc"]
    assert c.our_value == pytest.approx(small)


# Table 5.2, Fig. 5.2 -------------------------------------------------------------------------------------

T52 = dict(log2_sigmas=FULL_SIGMAS, log4_Cs=FULL_CS, eta0=0.1, epochs=100)
PAPER_T52 = {"toy3": (98.67, 98.0, 98.67), "toy4": (96.0, 96.0, 96.0), "digits_358": (94.67, 94.57, 94.857),
             "digits_0to9": (92.78, 92.7, 92.85), "splice3": (89.08, 89.08, 89.5), "wine": (92.31, 91.03, 92.31)}


@pytest.mark.parametrize("problem", list(PAPER_T52))
@pytest.mark.parametrize("base", ["cs", "ovo"])
def test_table5_2_against_the_svms(claims, problem, base):
    c = claims[f"table5_2-{'svm' if base == 'cs' else 'ovo'}-{problem}"]
    recs = raw("table_5_2_splits", problem=problem, **T52)
    if not recs:
        assert c.verdict == "inconclusive"
        return
    diffs = []
    for r in recs:
        x = r["result"]
        assert _middle(x["guru_val_path"]) == x["guru_index"] and _middle(x[f"{base}_val_path"]) == x[f"{base}_index"]
        if x["guru_grad_path"][x["guru_index"]] <= 1e-5 and x[f"{base}_converged_path"][x[f"{base}_index"]]:
            diffs.append(100 * (x["guru_test"] - x[f"{base}_test"]))
    assert c.n_certified == 2 * len(diffs) and c.n_runs == 2 * len(recs)
    full, _, svm = PAPER_T52[problem]
    assert c.verdict == (_judge_paired(diffs, -1) if svm > full else _judge_equivalent(diffs))


def test_fig5_2_phases(claims):
    recs = sorted((r for r in raw("fig_5_2", problem="toy3", log2_sigma=0, eta0=0.1, epochs=20, record_every=20)
                   if r["params"]["seed"] < 10), key=lambda r: r["params"]["seed"])
    early, late = [], []
    for r in recs:
        full, s2 = np.array(r["result"]["full_objective"]), np.array(r["result"]["s2_objective"])
        early.append(np.mean((full - s2)[1:len(full) // 10 + 1]))
        late.append(s2[-1] - full[-1])
    for cid, vals in (("fig5_2-descent", early), ("fig5_2-convergence", late)):
        c = claims[cid]
        assert c.n_runs == len(recs)
        assert c.our_value == pytest.approx(np.mean(vals))
        assert c.verdict == _judge_paired(vals)


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


# the artefact modules' numbers() and draw() -------------------------------------------------------------

@pytest.mark.parametrize("name", ["fig2_5", "fig2_7", "fig2_6", "fig3_1", "fig4_1", "fig5_2", "alg1", "table4_1"])
def test_paper_scale_pages_are_cached(name):
    """Every task a page executed at paper scale reads is cached (the page never computes at paper scale)."""
    import importlib

    from robustpapers.reproduce import artefact

    mod = importlib.import_module(f"robustpapers.reproduce.ginodi2010.{name}")
    recs = mod.records()
    if name == "table4_1":                                            # long: the certified paths of the cached splits
        assert all(r["certified_path"] is not None for r in recs if r is not None)
    else:
        assert artefact.missing(recs) == 0


@pytest.mark.parametrize("fig, problems", [("fig2_5", ["toy_a", "toy_b"]),
                                           ("fig2_7", ["digits_3v5", "digits_5v8", "digits_7v9"])])
def test_noise_curves_recomputed(fig, problems):
    import importlib

    mod = importlib.import_module(f"robustpapers.reproduce.ginodi2010.{fig}")
    nb = mod.numbers(mod.records())
    for p in problems:
        recs = raw("noise", log2_sigmas=FULL_SIGMAS, log4_Cs=FULL_CS, problem=p)
        g = 100 * np.mean([r["result"]["guru_test"] for r in recs], axis=0)
        s = 100 * np.mean([r["result"]["svm_test"] for r in recs], axis=0)
        x, g2, s2, n = nb["curves"][p]
        assert n == len(recs) and np.allclose(g, g2) and np.allclose(s, s2)
        assert list(x) == recs[0]["params"]["noise_levels"]
        assert nb["degrades"][p] == bool(g[-1] < g[0] and s[-1] < s[0])
        assert nb["degrades"][p]                                      # noise hurts both methods on every panel


def test_fig2_6_and_fig3_1_numbers():
    from robustpapers.reproduce.ginodi2010 import fig2_6, fig3_1

    r = raw("adversary_digits", problem="digits_3v5", seed=0)[0]["result"]
    nb = fig2_6.numbers(fig2_6.records())
    assert nb["share_3_as_5"] == pytest.approx(np.mean(np.array(r["pos_noisy_score"]) < 0))
    w = np.array(r["w_hat"])
    disp = np.array(r["pos_noisy"]) - np.array(r["pos"])[:, None, :]
    assert np.allclose(np.abs(disp @ w), np.linalg.norm(disp, axis=2))     # the moves are along w-hat
    assert nb["deviation"] < 1e-9
    n31 = fig3_1.numbers(fig3_1.records())
    recs = raw("norm_vs_sigma", log2_sigmas=FULL_SIGMAS)
    assert n31["max_grad"] == pytest.approx(max(max(r["result"]["grad_norm"]) for r in recs)) and n31["max_grad"] < 1e-6
    for r in recs:
        nrm = np.array(r["result"]["norm"])
        assert n31[r["params"]["problem"]]["small"] == nrm[0]
        assert n31[r["params"]["problem"]]["decreasing"] == bool(np.all(np.diff(nrm[np.array(FULL_SIGMAS) >= 0]) < 0))


def test_fig4_1_fig5_2_alg1_numbers():
    from robustpapers.reproduce.ginodi2010 import alg1, fig4_1, fig5_2

    recs = raw("radial", seed=0, n=500, epochs=100)
    nb = fig4_1.numbers(fig4_1.records())
    first = recs[0]["result"]
    assert nb["majority"] == pytest.approx(max(first["n_pos"], first["n_neg"]) / (first["n_pos"] + first["n_neg"]))
    assert nb["small"] == min(recs, key=lambda r: r["params"]["log2_sigma"])["result"]["train_acc"]
    r = raw("fig_5_2", problem="toy3", seed=0, epochs=20)[0]["result"]
    n52 = fig5_2.numbers(fig5_2.records())
    assert n52["full_gap"] == pytest.approx((r["full_objective"][-1] - r["optimum"]) / r["optimum"])
    assert n52["above_optimum"] and len(n52["runs"]) == 10           # L-BFGS is the lower bound of every SGD run
    last = raw("sgd_vs_lbfgs", max_epochs=300, average=False)[0]["result"]
    a1 = alg1.numbers(alg1.records())
    assert a1["gap_last"] == last["final_rel_gap"] and a1["below_optimum"] <= 1e-9 and a1["grad_norm"] < 1e-5


def test_sgd_claim_shared_by_both_tables(claims):
    """Tables 2.2 and 4.1 make their SGD claims with one helper: same rule text, same fields."""
    a, b = claims["table2_2-sgd-ionosphere"], claims["table4_1-sgd-ionosphere"]
    assert a.rule == b.rule and "at most 0.01" in a.rule
    assert "G(w_SGD)" in a.note and "G(α_SGD)" in b.note


def test_gap_fraction_floor():
    """The fraction of the initial suboptimality is the plain one while the start is far from the optimum,
    the gap relative to 0.1 max(1, |G*|) below that floor (continuous at it), and invariant to scaling G
    where |G*| >= 1."""
    from robustpapers.reproduce.ginodi2010._common import gap_fraction, start_near_optimum
    assert gap_fraction(30.0, 20.0, 220.0) == pytest.approx(10.0 / 200.0)        # far: plain fraction
    assert gap_fraction(201.0, 200.0, 200.002) == pytest.approx(1.0 / 20.0)      # near: against 0.1 G*
    assert gap_fraction(1e-4, 0.0, 1e-3) == pytest.approx(1e-4 / 0.1)            # G* ≈ 0: against 0.1
    assert not start_near_optimum(20.0, 220.0) and start_near_optimum(200.0, 200.002)
    edge = 200.0 + 20.0                                                           # G(0) − G* = 0.1 G*
    assert gap_fraction(201.0, 200.0, edge * (1 + 1e-12)) == pytest.approx(gap_fraction(201.0, 200.0, edge))
    for G, Gs, G0 in [(30.0, 20.0, 220.0), (201.0, 200.0, 200.002), (5.0, 2.0, 2.1)]:
        assert gap_fraction(7 * G, 7 * Gs, 7 * G0) == pytest.approx(gap_fraction(G, Gs, G0))


def test_table2_2_toy_a_start_next_to_optimum(claims):
    """On toy (a) the splits whose optimum lies next to w = 0 (large σ) are measured against the floor; the
    run still counts as far from the optimum only when its gap is large relative to G* itself, and then it
    also classifies differently from the certified optimum."""
    c = claims["table2_2-sgd-toy_a"]
    near = []
    for r in raw("table_2_2_splits", problem="toy_a", **T22):
        x = r["result"]
        G, Gs, G0 = x["sgd_objective"][-1], x["lbfgs_objective"], x["objective_at_zero"]
        if G0 - Gs < 0.1 * max(1.0, abs(Gs)):
            near.append((G - Gs) / (0.1 * max(1.0, abs(Gs))))
            if (G - Gs) / max(1.0, abs(Gs)) > 1e-3:                   # far from G* on the objective's own scale
                assert x["sgd_agreement"] < 0.9
    if near:
        assert f"On {len(near)} of them the start is within" in c.note
        assert c.our_value >= max(near) and c.our_value < 1e6          # no longer the collapsed 4.6e8
    from robustpapers.reproduce.ginodi2010 import table2_2
    sgd = table2_2.numbers(table2_2.records())["sgd"].set_index("problem")
    assert sgd.loc["Toy (a)", "start next to the optimum (splits)"] == len(near)
