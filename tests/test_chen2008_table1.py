"""chen2008 Table 1, certified (robustpapers.reproduce.chen2008.table1): regime, task, claims, committed records."""
import numpy as np
import pytest

from robustpapers.chen2008 import perturbed_gaussian_kernel, spectrum_stats
from robustpapers.reproduce import ledger
from robustpapers.reproduce.chen2008 import table1 as T
from robustpapers.reproduce.chen2008.experiments import load_binary


def test_stored_regime_reproduces_its_spectrum_match():
    """Sonar's xi and g give the stored mean lambda_min / lambda_max (seeds 0-2) and the stored score."""
    X, _ = load_binary("sonar")
    reg = T.REGIME["sonar"]
    stats = [spectrum_stats(perturbed_gaussian_kernel(X, reg["g"] / X.shape[1], reg["xi"], random_state=s))
             for s in (0, 1, 2)]
    lmin = np.mean([s["lambda_min"] for s in stats])
    lmax = np.mean([s["lambda_max"] for s in stats])
    assert lmin == pytest.approx(reg["lambda_min"], rel=1e-3)
    assert lmax == pytest.approx(reg["lambda_max"], rel=1e-3)
    pt = T.PAPER_TABLE["sonar"]
    score = np.log(lmin / pt["lambda_min"]) ** 2 + np.log(lmax / pt["lambda_max"]) ** 2
    assert score == pytest.approx(reg["score"], rel=0.05, abs=1e-4)


def test_tasks_cover_every_data_set_and_refuse_a_bad_scale():
    paper = T.tasks("paper")
    assert len(paper) == 60 and {t["dataset"] for t in paper} == set(T.PAPER_TABLE)
    assert all(t["tol"] == 1e-5 and t["rho_grid"] == list(T.RHO_GRID) and t["C"] == 1.0 for t in paper)
    assert len(T.tasks("quick")) == 12
    with pytest.raises(ValueError, match="scale"):
        T.tasks("huge")


def _rec(ds, seed, apg, base, gap=1e-6, stored_flag=True):
    res = dict(n=208, n_neg=57, n_pos=151, lambda_min=-1.36, lambda_max=18.4, ratio=13.5, acc_apg=apg,
               acc_alg1=apg, apg_gap=gap, apg_certified=stored_flag, alg1_gap=1.0, alg1_certified=False,
               apg_time=0.1, alg1_time=1.0, cv_runs=12, cv_certified=12, rho=1.0, cv_acc={"1.0": 0.7})
    res.update({f"acc_{b}": base for b in T.BASELINES})
    return {"params": dict(dataset=ds, seed=seed, tol=1e-5), "result": res}


def _claims(ds, apg, base, **kw):
    rng = np.random.default_rng(0)
    recs = [_rec(ds, s, apg + 0.005 * rng.standard_normal(), base, **kw) for s in range(10)]
    return {c.id: c for c in T.claims(recs)}


def test_claims_on_constructed_records_win_loss_tie_and_uncertified():
    win = _claims("sonar", 0.85, 0.75)
    assert win["table1-better-flip-sonar"].verdict == "reproduced"
    assert win["table1-better-all-sonar"].verdict == "reproduced"
    loss = _claims("sonar", 0.65, 0.75)
    assert loss["table1-better-denoise-sonar"].verdict == "contradicted"
    tie = _claims("sonar", 0.75, 0.75)
    assert tie["table1-better-svm-sonar"].verdict == "inconclusive"
    # a stored flag that says certified does not count: the flag is recomputed from the stored gap
    unc = _claims("sonar", 0.85, 0.75, gap=1e-3, stored_flag=True)
    c = unc["table1-better-shift-sonar"]
    assert c.verdict == "inconclusive" and c.n_certified == 0 and "did not meet" in c.note
    # "comparable to the best": non-inferiority with a 1-point margin
    assert _claims("wisconsin", 0.95, 0.95)["table1-comparable-all-wisconsin"].verdict == "reproduced"
    assert _claims("wisconsin", 0.90, 0.95)["table1-comparable-flip-wisconsin"].verdict == "contradicted"
    # the eigenvalue columns: a target within 25 % of the paper's value
    assert win["table1-lambdamin-sonar"].verdict == "reproduced"
    assert win["table1-nneg-sonar"].verdict == "reproduced"


def test_certified_flag_is_recomputed_from_the_stored_gap():
    assert T.certified(_rec("heart", 0, 0.8, 0.7, gap=9e-6)) is True
    assert T.certified(_rec("heart", 0, 0.8, 0.7, gap=2e-5, stored_flag=True)) is False


def test_claims_and_numbers_on_the_committed_records():
    recs = T.records()
    claims = T.claims(recs)
    assert len(claims) == 6 * 4 + 6 * 5 and len({c.id for c in claims}) == len(claims)
    assert all(c.paper == "chen2008" and c.verdict in ledger.VERDICTS for c in claims)
    for rec in recs:
        if rec is not None:
            assert rec["result"]["apg_certified"] == T.certified(rec)
            assert rec["result"]["alg1_certified"] == T.certified(rec, "alg1")
    nums = T.numbers(recs)
    assert nums["n_records"] + nums["n_missing"] == 60
    if nums["n_records"]:  # APG-FW and Algorithm 1 bound the same optimum: their bounds must interleave
        cert = nums["certification"]
        assert (cert["bounds agree"] == cert["splits"]).all()


def test_quick_task_certifies_its_runs():
    r = T.table1_certified_task("heart", 10.0, 0.5, 0, [1.0, 10.0], 1e-5, 20, 5000, max_n=50)
    assert r["apg_certified"] and r["cv_certified"] == r["cv_runs"] == 6
    assert r["apg_gap"] <= 1e-5 and r["apg_lower"] <= r["alg1_upper"] + 1e-9
