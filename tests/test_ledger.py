"""The claims ledger: the decision rules on constructed evidence, and every paper's claims on the committed records."""
import math

import numpy as np
import pytest

from robustpapers.reproduce import VERDICTS, Claim, all_claims, ledger_table, summary_table
from robustpapers.reproduce.ledger import (
    COMPARISON, PAPERS, SOURCES, artefact_modules, combine, equivalent, noninferior, paired, target,
)

RNG = np.random.default_rng(0)
WIN = 2.0 + 0.5 * RNG.standard_normal(10)     # a clear win: mean 2 points, small spread
LOSS = -WIN                                    # a clear loss
TIE = np.array([1.0, -1.0] * 5) + 0.01 * RNG.standard_normal(10)


def test_paired_clear_win_loss_and_tie():
    assert paired(WIN)["verdict"] == "reproduced"
    assert paired(LOSS)["verdict"] == "contradicted"
    assert paired(TIE)["verdict"] == "inconclusive"
    # the paper's direction can be "lower is better" (an error): the same numbers then flip
    assert paired(WIN, direction=-1)["verdict"] == "contradicted"
    assert paired(LOSS, direction=-1)["verdict"] == "reproduced"


def test_paired_interval_is_the_student_t_interval():
    from scipy import stats

    res = paired(WIN)
    lo, hi = stats.t.interval(0.95, WIN.size - 1, loc=WIN.mean(), scale=stats.sem(WIN))
    assert res["interval"] == pytest.approx((lo, hi), rel=1e-12)
    assert res["our_value"] == pytest.approx(WIN.mean())


def test_uncertified_runs_are_not_evidence():
    """A clear win on runs that did not meet their certificate is not a verdict."""
    cert = np.array([True] * 4 + [False] * 6)
    res = paired(WIN, certified=cert)
    assert res["verdict"] == "inconclusive"
    assert (res["n_runs"], res["n_certified"]) == (10, 4)
    assert res["our_value"] == pytest.approx(WIN[:4].mean())   # only certified pairs enter the mean
    # with enough certified pairs the uncertified ones are left out, and counted
    big = np.concatenate([WIN, WIN])
    res = paired(big, certified=np.r_[np.ones(12, bool), np.zeros(8, bool)])
    assert res["verdict"] == "reproduced" and res["n_certified"] == 12


def test_fewer_splits_than_the_rule_asks_is_inconclusive():
    assert paired(WIN[:5])["verdict"] == "inconclusive"
    assert paired(WIN[:5], min_pairs=5)["verdict"] == "reproduced"


def test_equivalence_and_noninferiority():
    small = 0.1 * TIE
    assert equivalent(small, margin=1.0)["verdict"] == "reproduced"
    assert equivalent(WIN, margin=1.0)["verdict"] == "contradicted"
    assert equivalent(TIE, margin=0.5)["verdict"] == "inconclusive"
    assert noninferior(small, margin=1.0)["verdict"] == "reproduced"
    assert noninferior(WIN, margin=1.0)["verdict"] == "reproduced"
    assert noninferior(LOSS, margin=1.0)["verdict"] == "contradicted"
    assert noninferior(WIN, margin=1.0, certified=np.zeros(10, bool))["verdict"] == "inconclusive"


def test_numeric_targets():
    assert target(140, 150, 0.1, kind="rel")["verdict"] == "reproduced"
    assert target(400, 150, 0.5, kind="rel")["verdict"] == "not reproduced"
    assert target(-2.0, -1.5, 0, kind="at_most")["verdict"] == "reproduced"
    assert target(3.0, 2.0, 0, kind="at_least")["verdict"] == "reproduced"
    assert target(None, 1.0, 0.1)["verdict"] == "inconclusive"
    assert target(1.0, 1.0, 0.1, n_runs=1, n_certified=0)["verdict"] == "inconclusive"
    with pytest.raises(ValueError, match="kind"):
        target(1.0, 1.0, 0.1, kind="approx")


def test_combine():
    assert combine(["reproduced"] * 3) == "reproduced"
    assert combine(["reproduced", "inconclusive"]) == "partly"
    assert combine(["contradicted", "inconclusive"]) == "contradicted"
    assert combine(["reproduced", "contradicted"]) == "contradicted"   # "all" is false if one part is
    assert combine(["reproduced", "not reproduced"]) == "partly"
    assert combine(["not reproduced", "inconclusive"]) == "not reproduced"
    assert combine(["inconclusive", "inconclusive"]) == "inconclusive"
    assert combine([]) == "not testable here"


def test_claim_rejects_what_is_not_a_claim():
    with pytest.raises(ValueError, match="verdict"):
        Claim("chen2008", "x", "Table 1", "s", "probably", "chen2008 Table 1")
    with pytest.raises(ValueError, match="paper"):
        Claim("002", "x", "Table 1", "s", "reproduced", "chen2008 Table 1")
    with pytest.raises(ValueError, match="n_certified"):
        Claim("chen2008", "x", "Table 1", "s", "reproduced", "chen2008 Table 1", n_runs=2, n_certified=3)


def test_artefact_modules_declare_the_contract():
    for mod in artefact_modules():
        for name in ("PAPER", "LABEL", "records", "claims"):
            assert hasattr(mod, name), f"{mod.__name__} lacks {name}"
        assert mod.PAPER in SOURCES
        # a paper's artefact is named after the paper ("chen2008 Table 1"); the comparison's after its model
        assert mod.LABEL.startswith(mod.PAPER) or mod.PAPER == COMPARISON


def test_all_claims_on_the_committed_records():
    claims = all_claims()
    assert claims, "no claims at all"
    assert {c.verdict for c in claims} <= set(VERDICTS)
    ids = [(c.paper, c.id) for c in claims]
    assert len(ids) == len(set(ids))
    for c in claims:
        assert c.statement and c.where and (c.artefact.startswith(c.paper) or c.paper == COMPARISON), c
        if c.interval is not None and isinstance(c.our_value, float) and math.isfinite(c.our_value):
            assert c.interval[0] - 1e-12 <= c.our_value <= c.interval[1] + 1e-12, c
        # a claim resting on runs of which none certified cannot be reproduced
        if c.n_runs and c.n_certified == 0:
            assert c.verdict != "reproduced", c
    table = summary_table(claims)
    assert int(table["total"].sum()) == len(claims)
    assert len(ledger_table(claims)) == len(claims)
