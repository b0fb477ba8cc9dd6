"""chen2008's artefact modules: their claims on the committed records, recomputed independently, and a quick run."""
import json
from pathlib import Path

import numpy as np
import pytest

from robustpapers.reproduce import artefact
from robustpapers.reproduce.chen2008 import fig1, fig2, fig3, proxy, rho_sweep, table1_first, xi_sweep
from robustpapers.reproduce.chen2008.experiments import best_gaps, first_below

ROOT = Path(__file__).resolve().parents[1]


def _by_id(claims):
    return {c.id: c for c in claims}


def test_fig1_counts_recomputed_from_the_raw_traces():
    recs = fig1.records()
    assert artefact.missing(recs) == 0, "the paper-size runs of Figs. 1-3 are committed"
    claims = _by_id(fig1.claims(recs))
    for prune, rec in zip((False, True), recs):
        r = rec["result"]
        # the stopping gap uses the best upper bound so far, including the initial bound S(alpha_0, (K0)_+)
        ub = [min(r["upper"][: i + 1]) for i in range(len(r["upper"]))]
        gaps = [u - (-np.inf if lo is None else lo) for u, lo in zip(ub, r["lower"])]
        it5 = next(i for i in range(1, len(gaps)) if gaps[i] <= 1e-5)
        tag = "pruning" if prune else "no-pruning"
        assert claims[f"fig1-iterations-1e-5-{tag}"].our_value == it5
        assert r["success"] and claims[f"fig1-monotone-{tag}"].verdict == "reproduced"
    ratio = claims["fig1-similar-rate"].our_value
    assert ratio == pytest.approx(claims["fig1-iterations-1e-5-pruning"].our_value /
                                  claims["fig1-iterations-1e-5-no-pruning"].our_value)
    # "about" is within 50 % of the paper's count: a count twice the paper's is not reproduced
    assert (claims["fig1-similar-rate"].verdict == "reproduced") == (abs(ratio - 1) <= 0.5)


def test_the_best_upper_bound_never_rises():
    for rec in fig1.records() + rho_sweep.records():
        r = rec["result"]
        g = best_gaps(r["upper"], r["lower"])
        u = np.minimum.accumulate(np.asarray(r["upper"], float))
        assert np.all(np.diff(u) <= 0)
        assert np.all(np.diff(g[1:]) <= 1e-12 * max(1.0, abs(u[0]))), "the stopping gap never widens"
    assert first_below(np.array([np.inf, 1.0, 1e-3, 1e-6]), 1e-5) == 3
    assert first_below(np.array([np.inf, 1.0]), 1e-5) is None


def test_fig2_and_fig3_claims_from_the_raw_traces():
    recs = fig1.records()
    nk = np.asarray(recs[1]["result"]["n_kernels"])[1:]
    c2 = _by_id(fig2.claims(recs))
    assert c2["fig2-pruning-small-set"].our_value == nk.max()
    assert (c2["fig2-pruning-small-set"].verdict == "reproduced") == (nk.max() <= fig2.SMALL)
    acc = 100 * np.asarray(recs[1]["result"]["accuracy"])[1:71]
    c3 = _by_id(fig3.claims(recs))
    assert c3["fig3-stable-after-40"].our_value == pytest.approx(np.ptp(acc[40:]))
    assert c3["fig3-final-accuracy"].our_value == pytest.approx(100 * recs[1]["result"]["final_accuracy"])


def test_first_table1_certification_counted_from_the_stored_gaps():
    n = table1_first.numbers(table1_first.records())
    raw = [json.loads(p.read_text()) for p in (ROOT / "results/chen2008/table1").glob("*.json")]
    paper = [r for r in raw if r["params"]["max_n"] is None and r["params"]["tol"] == 1e-5]
    assert n["n_runs"] == len(paper) == 60
    assert n["n_certified"] == sum(r["result"]["siqclp_gap"] <= 1e-5 for r in paper)
    assert table1_first.claims(table1_first.records()) == []  # no verdict rests on uncertified runs


def test_xi_sweep_counts_certified_runs():
    table = xi_sweep.numbers(xi_sweep.records())["table"]
    assert len(table) == 14
    assert set(table["Algorithm 1 certified"]) <= {f"{k} of 10" for k in range(11)}


def test_quick_scale_runs_and_is_judged(tmp_path):
    """The page's quick scale: Figs. 1-3 computed from nothing in seconds, every claim well formed."""
    recs = artefact.run(fig1, "quick", root=tmp_path)
    assert artefact.missing(recs) == 0
    claims = fig1.claims(recs) + fig2.claims(recs) + fig3.claims(recs)
    ids = {c.id for c in claims}
    assert {"fig1-monotone-pruning", "fig1-monotone-no-pruning", "fig2-pruning-small-set",
            "fig3-final-accuracy"} <= ids
    assert _by_id(claims)["fig1-monotone-pruning"].verdict == "reproduced"
    fig = fig1.draw(recs)
    assert len(fig.axes) == 4


def test_proxy_task_measures_the_distance_it_claims(tmp_path):
    t = dict(proxy.tasks("quick")[0], max_n=60)
    r = proxy.proxy_task(**t)
    assert r["success"] and r["gap"] <= t["tol"]
    # no PSD matrix is closer to K0 than its positive part
    assert r["distance"] >= r["psd_distance"] - 1e-12


def test_proxy_claims_on_constructed_records():
    """A distance that falls with rho on every split is reproduced; uncertified runs are not evidence."""
    def rec(rho, seed, d, ok=True):
        return {"params": {"rho": rho, "seed": seed}, "result": {"distance": d, "psd_distance": 0.1, "success": ok,
                                                                "nit": 5}}
    rng = np.random.default_rng(0)
    falling = [rec(rho, s, 0.1 + 1.0 / rho + 1e-4 * rng.random()) for rho in (10, 100) for s in range(10)]
    assert proxy.claims(falling)[0].verdict == "reproduced"
    unsure = [rec(rho, s, 0.1 + 1.0 / rho, ok=s < 3) for rho in (10, 100) for s in range(10)]
    c = proxy.claims(unsure)[0]
    assert c.verdict == "inconclusive" and c.n_certified < c.n_runs


def test_theorem_5_1_master_problem_equals_the_mkl_value():
    from robustpapers.reproduce.chen2008 import sec5

    r = sec5.records(scale="quick")
    n = sec5.numbers(r)
    assert r["converged"] and abs(r["theta_sum"] - 1) < 1e-8 and r["theta_min"] >= 0
    assert n["rel_diff"] <= sec5.TOL
    assert sec5.claims(r)[0].verdict == "reproduced"
    # a wrong MKL value would not pass
    assert sec5.claims(dict(r, mkl=r["t"] * 1.01))[0].verdict == "not reproduced"


def test_non_psd_claim_is_a_rank_correlation_over_complete_data_sets():
    from scipy.stats import spearmanr

    from robustpapers.reproduce.chen2008 import sec6_3

    recs = sec6_3.records()
    f = sec6_3.numbers(recs)
    c = sec6_3.claims(recs)[0]
    if len(f) >= 3:
        assert c.our_value == pytest.approx(spearmanr(f.ratio, f.advantage)[0], abs=1e-3)
    # constructed: advantage falling with the ratio over six data sets is reproduced
    fake = []
    for k, ds in enumerate(["sonar", "ionosphere", "wisconsin", "heart", "mnist35", "pima"]):
        for s in range(10):
            fake.append({"params": {"dataset": ds}, "result": {"ratio": 10.0 ** k, "acc_apg": 0.9 - 0.01 * k,
                                                               **{f"acc_{b}": 0.85 for b in ("denoise", "flip",
                                                                                             "shift", "svm")}}})
    assert sec6_3.claims(fake)[0].verdict == "reproduced"
