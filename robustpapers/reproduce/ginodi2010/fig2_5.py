"""ginodi2010 Fig. 2.5: resistance to noise added to the validation and test sets of the two toys.

The thesis (§2.5): "the resistance of GURU slightly outperforms that of SVM" (50 repetitions). Each
repetition redraws the toy and the noise, trains GURU and the SVM on the clean training set, selects σ
and C on the noisy validation set and scores on the noisy test set, at every noise level. The claim
is judged per toy by :func:`~robustpapers.reproduce.ledger.paired` over the repetitions, on the
statistic the chapter's page shows: GURU − SVM test accuracy (points) averaged over the noise levels
(the clean level included).

The records store no solver certificate: GURU is guru_lbfgs along the σ path (gradient tolerance 1e-7,
at most 3000 iterations; the same path on split 0 certifies every non-constant solution in Table 2.2)
and the SVM is LIBSVM; both are counted as certified, as the ledger does for runs whose status is not
stored.
"""
from __future__ import annotations

import numpy as np

from ..ledger import paired
from ._common import PAPER, PAPER_LOG2_SIGMAS, PAPER_LOG4_CS, join, make, paper_name, records_of

LABEL = "ginodi2010 Fig. 2.5"
EXPERIMENT = "noise"
PROBLEMS = ("toy_a", "toy_b")
NAMES = {"toy_a": "toy (a)", "toy_b": "toy (b)", "digits_3v5": "digits 3 vs 5 (MNIST for USPS)",
         "digits_5v8": "digits 5 vs 8 (MNIST for USPS)", "digits_7v9": "digits 7 vs 9 (MNIST for USPS)"}
ALGORITHM = ("GURU: guru_lbfgs (L-BFGS on (2.22) with a bias, σ chosen on the noisy validation set) vs "
             "linear SVM: scikit-learn SVC(kernel='linear') (C chosen on the noisy validation set)")
NO_CERT = ("The records store no certificate; L-BFGS (GURU) and LIBSVM (SVM) runs are counted as certified.")


def records(root=None, scale="paper", seed=0):
    """The paper-scale noise repetitions (full σ and C grids) of the toys."""
    if scale != "paper":
        raise ValueError(f"the ledger judges the paper-scale records only, got scale={scale!r}")
    return records_of(EXPERIMENT, root, where={"log2_sigmas": PAPER_LOG2_SIGMAS, "log4_Cs": PAPER_LOG4_CS},
                      keep=lambda p: p["problem"] in PROBLEMS)


def advantages(recs, problem):
    """GURU − SVM test accuracy (points) averaged over the noise levels, one value per repetition (seed order)."""
    rows = sorted((r for r in recs if r["params"]["problem"] == problem), key=lambda r: r["params"]["seed"])
    return [float(100 * np.mean(np.subtract(r["result"]["guru_test"], r["result"]["svm_test"]))) for r in rows]


def noise_claims(recs, label, where, problems, statement, paper_value, extra_note=""):
    out = []
    prefix = where.lower().replace("fig. ", "fig").replace(".", "_")
    for p in problems:
        adv = advantages(recs, p)
        if not adv:
            out.append(make(label, id=f"{prefix}-{p}", where=where,
                            condition=NAMES[p], statement=statement.format(paper_name(NAMES[p])),
                            verdict="inconclusive",
                            paper_value=paper_value, algorithm=ALGORITHM, note="no paper-scale records"))
            continue
        rule = paired(adv, direction=1, runs_per_pair=2)
        levels = next(r for r in recs if r["params"]["problem"] == p)["params"]["noise_levels"]
        out.append(make(label, id=f"{prefix}-{p}", where=where,
                        condition=NAMES[p], statement=statement.format(paper_name(NAMES[p])), paper_value=paper_value,
                        algorithm=ALGORITHM,
                        note=join(f"Value: GURU − SVM test accuracy in points, averaged over the noise levels "
                                  f"{levels}; paired over {len(adv)} repetitions.", extra_note, NO_CERT), **rule))
    return out


def claims(records):
    """One claim per toy."""
    return noise_claims(records, LABEL, "Fig. 2.5", PROBLEMS,
                        "On {} GURU resists noise added to the validation and test sets slightly better than "
                        "the SVM.", "GURU > SVM (slightly)",
                        "The toy and the noise are redrawn in every repetition.")
