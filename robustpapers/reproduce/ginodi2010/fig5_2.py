"""ginodi2010 Fig. 5.2: M-GURU and M-GURU-S² on Toy-3, objective (5.13) against updates, over ten runs.

The thesis: "The S² variant appears to have an advantage in the descent phase. In the convergence
phase, however, M-GURU takes the lead." It shows one typical run; here ten runs (seeds 0-9: each draws
Toy-3 afresh and its own SGD order) are judged as two claims, each paired over the runs by
:func:`~robustpapers.reproduce.ledger.paired` (the rule fixed when the claim was first written: the
descent phase is the first tenth of the recorded updates, the start w = 0 excluded):

* descent phase: M-GURU's objective minus M-GURU-S²'s, averaged over the recorded points of the first
  tenth of the updates, is positive (S² lower);
* convergence phase: M-GURU-S²'s objective minus M-GURU's at the last recorded update is positive.

The curves are compared with each other; the L-BFGS optimum (``optimum``) only scales the gaps. No
solver certificate is involved (the claims are about the SGD trajectories themselves).
"""
from __future__ import annotations

import numpy as np

from ..ledger import paired
from ._common import PAPER, join, make, records_of

LABEL = "ginodi2010 Fig. 5.2"
EXPERIMENT = "fig_5_2"
ALGORITHM = ("m_guru(variant='full') (Algorithm 3) and m_guru(variant='s2') (Algorithm 4), SGD on Toy-3, σ = 1, "
             "η0 = 0.1, 20 epochs; optimum by m_guru_lbfgs")
#: The runs judged: Toy-3 drawn with these seeds (seed 0 is the run the page draws).
SEEDS = tuple(range(10))


def records(root=None, scale="paper", seed=0):
    """The recorded Toy-3 runs (20 epochs, σ = 1, η0 = 0.1), seeds ``seed .. seed + 9``, in seed order."""
    want = [seed + k for k in SEEDS]
    recs = records_of(EXPERIMENT, root, where={"problem": "toy3", "log2_sigma": 0, "eta0": 0.1, "epochs": 20,
                                               "record_every": 20}, keep=lambda p: p["seed"] in want)
    return sorted(recs, key=lambda r: r["params"]["seed"])


def phases(rec):
    """(mean of M-GURU − S² over the first tenth of the recorded updates, final M-GURU − S²), objectives."""
    r = rec["result"]
    full, s2 = np.asarray(r["full_objective"], float), np.asarray(r["s2_objective"], float)
    n = len(full)
    early = slice(1, max(2, n // 10 + 1))          # skip the common starting point w = 0
    return float(np.mean(full[early] - s2[early])), float(full[-1] - s2[-1])


def claims(records):
    ph = [phases(r) for r in records]
    early = [e for e, _ in ph]
    late = [-f for _, f in ph]
    opt = [r["result"]["optimum"] for r in records]
    out = []
    for cid, stmt, vals, pv, what in (
            ("fig5_2-descent", "In the descent phase M-GURU-S² descends faster than M-GURU (its objective is lower).",
             early, "S² below M-GURU early", "mean over the first tenth of the recorded updates of M-GURU − S² "
             "objective (positive: S² ahead)"),
            ("fig5_2-convergence", "In the convergence phase M-GURU takes the lead (its objective is lower).",
             late, "M-GURU below S² late", "S² − M-GURU objective at the last recorded update (positive: M-GURU "
             "ahead)")):
        if not records:
            out.append(make(LABEL, id=cid, where="Fig. 5.2", condition="Toy-3", statement=stmt,
                            verdict="inconclusive", paper_value=pv, algorithm=ALGORITHM, note="no record of the runs"))
            continue
        rule = paired(vals, direction=1, min_pairs=len(SEEDS))
        out.append(make(LABEL, id=cid, where="Fig. 5.2", condition="Toy-3", statement=stmt, paper_value=pv,
                        algorithm=ALGORITHM,
                        note=join(f"Value: {what}, mean over {len(vals)} runs with its 95 % interval; the optimum of "
                                  f"(5.13) is {min(opt):.4g}–{max(opt):.4g}.",
                                  "The thesis shows one typical run." if len(vals) > 1 else ""), **rule))
    return out


def numbers(records):
    """Per run: the descent-phase and final differences (objective units)."""
    import pandas as pd

    return pd.DataFrame([{"seed": r["params"]["seed"], "early M-GURU − S²": e, "final M-GURU − S²": f,
                          "optimum": r["result"]["optimum"]} for r, (e, f) in zip(records, map(phases, records))])
