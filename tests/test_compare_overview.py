"""The overview of the comparison: what it reads from the model modules agrees with the records, and its advice
follows from its table by the stated rule."""
import numpy as np
import pandas as pd

from robustpapers.reproduce.compare import overview
from robustpapers.reproduce.compare import input_noise as inoise
from robustpapers.reproduce.ledger import COMPARISON, all_claims, paired


def _gain_rows(model, method, results, ratio=1.0):
    return [dict(model=model, method=method, baseline="SVM", dataset=f"D{i}", condition="c", gain=0.0, low=0.0,
                 high=0.0, result=r, pairs=10, time_ratio=ratio) for i, r in enumerate(results)]


def test_gains_are_the_paired_differences_of_the_records():
    recs = inoise.records()
    g = overview.gains({inoise: recs})
    df = inoise._frame(recs)
    df = df[df["certified"].astype(bool)]
    for row in g.sample(5, random_state=0).itertuples(index=False):
        key = {v["name"]: k for k, v in inoise.METHODS.items()}[row.method]
        d = {v: k for k, v in inoise.DATASET_NAMES.items()}[row.dataset]
        z = 1.0 if row.condition == inoise.condition_name(1.0) else 0.5
        part = df[(df["dataset"] == d) & (df["noise"] == z)]
        wide = part.pivot(index="split", columns="method", values="noisy_acc")
        ref = paired(wide[key] - wide["svm"])
        assert np.isclose(row.gain, ref["our_value"]) and np.isclose(row.low, ref["interval"][0])
        assert row.result == {"reproduced": "better", "contradicted": "worse"}.get(ref["verdict"], "no separation")


def test_gains_agree_with_the_ledger():
    g = overview.gains({inoise: inoise.records()})
    claims = {c.id: c for c in all_claims(COMPARISON) if c.artefact == inoise.LABEL}
    assert len(claims) == len(g)
    word = {"reproduced": "better", "contradicted": "worse", "inconclusive": "no separation"}
    assert sorted(word[c.verdict] for c in claims.values()) == sorted(g["result"])


def test_recommendation_picks_the_method_better_most_often_then_fewer_losses_then_faster():
    table = pd.DataFrame(_gain_rows("M", "A", ["better", "better", "worse"], ratio=0.5)
                         + _gain_rows("M", "B", ["better", "better", "no separation"], ratio=9.0)
                         + _gain_rows("M", "C", ["no separation"] * 3))
    out = overview.recommendations(table).iloc[0]
    assert out["best"] == "B" and out["better in"] == 2 and out["worse in"] == 0 and out["cells"] == 3
    assert out["where"] == "D0, D1" and out["baseline enough"] == "D2"


def test_recommendation_when_nothing_beats_the_baseline():
    table = pd.DataFrame(_gain_rows("M", "A", ["no separation", "worse"]))
    out = overview.recommendations(table).iloc[0]
    assert out["best"] == "none better than the baseline" and out["baseline enough"] == "D0, D1"


def test_ranks_are_the_modules_own():
    recs = inoise.records()
    rk = overview.ranks({inoise: recs})
    ref = inoise.numbers(recs)["ranks"]
    assert dict(zip(rk["method"], rk["rank"])) == ref["ranks"] and np.allclose(rk["friedman_p"], ref["p"])
