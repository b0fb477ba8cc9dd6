"""ginodi2010 Fig. 2.6: the GURU adversary's noisy digits.

The thesis: the adversary "adds noise perpendicularly to the separating hyperplane"; "some samples are
even more clear than the original, whereas others look like the opponent digit". Judged on the
recorded draws (digits 3 vs 5, σ = 4) by :func:`~robustpapers.reproduce.ledger.target` in two parts,
combined: every displacement is parallel to ŵ (largest relative deviation at most 1e-9), and a
positive share of the noisy samples falls on the other side of the hyperplane. The classifier is
guru_lbfgs's; the record stores no gradient norm (counted as certified, see the note).
"""
from __future__ import annotations

import numpy as np

from ..ledger import combine, target
from ._common import PAPER, join, make, records_of

LABEL = "ginodi2010 Fig. 2.6"
EXPERIMENT = "adversary_digits"
ALGORITHM = "guru_lbfgs (L-BFGS on (2.22) with a bias, σ = 4) on MNIST 3 vs 5; draws x + σ ŵ ε"


def records(root=None, scale="paper", seed=0):
    """The recorded draws (the same at both scales)."""
    return records_of(EXPERIMENT, root, where={"problem": "digits_3v5", "seed": seed})


def geometry(rec):
    """(largest relative deviation of a displacement from the direction ŵ, share of noisy samples across)."""
    r = rec["result"]
    w = np.asarray(r["w_hat"], float)
    dev, across, total = 0.0, 0, 0
    for key, sign in (("pos", 1.0), ("neg", -1.0)):
        disp = np.asarray(r[key + "_noisy"], float) - np.asarray(r[key], float)[:, None, :]
        norm = np.linalg.norm(disp, axis=2)
        along = np.abs(disp @ w)
        dev = max(dev, float(np.max(np.abs(norm - along) / np.maximum(norm, 1e-300))))
        score = np.asarray(r[key + "_noisy_score"], float)
        across += int(np.sum(sign * score < 0))
        total += score.size
    return dev, across / total


def claims(records):
    if not records:
        return [make(LABEL, id="fig2_6-adversary", where="Fig. 2.6", statement="The adversary moves digits along w.",
                     verdict="inconclusive", algorithm=ALGORITHM, note="no record")]
    dev, share = geometry(records[0])
    a = target(dev, 1e-9, 0.0, kind="at_most")
    b = target(share, 0.0, 0.0, kind="at_least")
    b["verdict"] = "reproduced" if share > 0 else "not reproduced"
    return [make(LABEL, id="fig2_6-adversary", where="Fig. 2.6, §2.5", condition="digits 3 vs 5",
                 statement="The GURU adversary adds noise perpendicular to the separating hyperplane, so some noisy "
                           "digits look like the opponent digit.",
                 verdict=combine([a["verdict"], b["verdict"]]), paper_value="displacement ∥ w; some samples cross",
                 our_value=share, n_runs=1, n_certified=1, algorithm=ALGORITHM,
                 rule="two parts: largest relative deviation of a displacement from ŵ at most 1e-9; share of noisy "
                      "samples on the other class's side > 0; combined",
                 note=join(f"Value: share of the noisy samples on the other side ({share:.2f}); largest deviation "
                           f"from ŵ {dev:.1e}.", "The record stores no gradient norm of the L-BFGS classifier; "
                           "counted as certified (the claim is about the adversary's geometry, which holds for "
                           "any w)."))]
