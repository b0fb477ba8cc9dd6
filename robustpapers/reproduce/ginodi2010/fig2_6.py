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

from .. import artefact
from ..ledger import combine, target
from ._common import PAPER, join, make
from .experiments import adversary_digits_task

LABEL = "ginodi2010 Fig. 2.6"
EXPERIMENT = "adversary_digits"
VERSION = 1
TASK = adversary_digits_task
ALGORITHM = "guru_lbfgs (L-BFGS on (2.22) with a bias, σ = 4) on MNIST 3 vs 5; draws x + σ ŵ ε"
#: The same draws at both scales: three digits of each class, 25 samples each, σ = 2^2.
SETTINGS = {s: dict(problem="digits_3v5", log2_sigma=2, n_digits=3, n_samples=25) for s in ("quick", "paper")}


def tasks(scale="paper", seed=0):
    """The one task (the split and the draws use ``seed``)."""
    return [dict(SETTINGS[scale], seed=seed)]


def records(root=None, scale="paper", seed=0):
    """The recorded draws (a list of one record, or [None] where not cached)."""
    return artefact.load(__name__, root, scale, seed)


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


def numbers(records):
    """``deviation`` (largest relative deviation of a displacement from ŵ), ``share_across`` (share of all
    noisy samples on the other class's side) and ``share_3_as_5`` (share of the noisy 3s scored as 5s)."""
    if not records or records[0] is None:
        return {}
    dev, share = geometry(records[0])
    pos = np.asarray(records[0]["result"]["pos_noisy_score"], float)
    return dict(deviation=dev, share_across=share, share_3_as_5=float(np.mean(pos < 0)))


def draw(records):
    """Fig. 2.6: three 3s (top) and three 5s (bottom), each beside a tile of its 25 noisy draws."""
    import matplotlib.pyplot as plt

    r = records[0]["result"]
    fig, axes = plt.subplots(2, 6, figsize=(11, 4))
    for k, key in enumerate(["pos", "neg"]):
        orig, nz = np.asarray(r[key], float), np.asarray(r[key + "_noisy"], float)
        for j in range(3):
            axes[k, 2 * j].imshow(orig[j].reshape(16, 16), cmap="gray_r")
            axes[k, 2 * j].set_title("original")
            tile = nz[j, :25].reshape(5, 5, 16, 16).transpose(0, 2, 1, 3).reshape(80, 80)
            axes[k, 2 * j + 1].imshow(tile, cmap="gray_r")
            axes[k, 2 * j + 1].set_title("25 noisy samples")
    for a in axes.ravel():
        a.set_xticks([])
        a.set_yticks([])
        a.grid(False)
    return fig


def claims(records):
    records = [r for r in records if r is not None]
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
