"""ginodi2010 Fig. 5.2: a typical run of M-GURU and M-GURU-S² on Toy-3, objective (5.13) against updates.

The thesis: "The S² variant appears to have an advantage in the descent phase. In the convergence
phase, however, M-GURU takes the lead." Two parts, each a target on the one recorded run (the thesis
shows one typical run), combined by :func:`~robustpapers.reproduce.ledger.combine`:

* descent phase: over the first tenth of the recorded updates, M-GURU's objective minus M-GURU-S²'s,
  averaged over the recorded points, is positive (S² lower);
* convergence phase: at the last recorded update M-GURU's objective is below M-GURU-S²'s.

The curves are compared with each other; the L-BFGS optimum (``optimum``) only scales the gaps. No
solver certificate is involved (the claim is about the SGD trajectories themselves).
"""
from __future__ import annotations

import numpy as np

from ..ledger import combine, target
from ._common import PAPER, join, make, records_of

LABEL = "ginodi2010 Fig. 5.2"
EXPERIMENT = "fig_5_2"
ALGORITHM = ("m_guru(variant='full') (Algorithm 3) and m_guru(variant='s2') (Algorithm 4), SGD on Toy-3, σ = 1, "
             "η0 = 0.1, 20 epochs; optimum by m_guru_lbfgs")


def records(root=None, scale="paper", seed=0):
    """The recorded Toy-3 run(s) of the page (the same at both scales)."""
    return records_of(EXPERIMENT, root, where={"problem": "toy3", "seed": seed})


def phases(rec):
    """(mean of M-GURU − S² over the first tenth of the recorded updates, final M-GURU − S²), objectives."""
    r = rec["result"]
    full, s2 = np.asarray(r["full_objective"], float), np.asarray(r["s2_objective"], float)
    n = len(full)
    early = slice(1, max(2, n // 10 + 1))          # skip the common starting point w = 0
    return float(np.mean(full[early] - s2[early])), float(full[-1] - s2[-1])


def claims(records):
    if not records:
        return [make(LABEL, id="fig5_2-phases", where="Fig. 5.2", statement="M-GURU-S² descends faster early; "
                     "M-GURU converges better.", verdict="inconclusive", algorithm=ALGORITHM,
                     note="no record of the run")]
    early, final = phases(records[0])
    a = target(early, 0.0, 0.0, kind="at_least")
    b = target(-final, 0.0, 0.0, kind="at_least")
    r = records[0]["result"]
    return [make(LABEL, id="fig5_2-phases", where="Fig. 5.2", condition="Toy-3",
                 statement="M-GURU-S² has the advantage in the descent phase; in the convergence phase M-GURU "
                           "takes the lead.",
                 verdict=combine([a["verdict"], b["verdict"]]), paper_value="early: S² < M-GURU; late: M-GURU < S²",
                 our_value=early, n_runs=2, n_certified=2, algorithm=ALGORITHM,
                 rule="two parts, each 'at least 0': mean (M-GURU − S²) objective over the first tenth of the "
                      "recorded updates; final (S² − M-GURU) objective; combined",
                 note=join(f"Value: mean M-GURU − S² objective over the first tenth of the updates ({early:+.3g}; "
                           f"descent part {a['verdict']}); at the end M-GURU − S² = {final:+.3g} (convergence part "
                           f"{b['verdict']}); optimum {r['optimum']:.6g}.",
                           "One run, as the thesis shows one typical run."))]
