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
stored. Within a repetition σ and C are chosen on the noisy validation set with ties to the *first*
(smallest) grid value (``noise_task`` predates the middle-of-ties rule of the tables; changing it
would recompute every repetition).

The experiment is :func:`~robustpapers.reproduce.ginodi2010.experiments.noise_task` (one repetition per
task); :data:`SETTINGS` gives its grids and repetitions per scale, :func:`numbers` the curves the page
draws (mean test accuracy per noise level) and :func:`draw` the figure.
"""
from __future__ import annotations

import numpy as np

from .. import artefact
from ..engine import grid
from ..ledger import paired
from ._common import PAPER, PAPER_LOG2_SIGMAS, PAPER_LOG4_CS, join, make, paper_name
from .experiments import noise_task

LABEL = "ginodi2010 Fig. 2.5"
EXPERIMENT = "noise"
VERSION = 1
TASK = noise_task
PROBLEMS = ("toy_a", "toy_b")
#: Grids, noise levels and repetitions per scale (the thesis: 50 repetitions on the toys).
SETTINGS = {
    "quick": dict(problems=list(PROBLEMS), reps=3, log2_sigmas=list(range(-6, 7, 2)), log4_Cs=list(range(-4, 5, 2)),
                  noise_levels=[0.0, 0.5, 1.0, 1.5, 2.0, 3.0]),
    "paper": dict(problems=list(PROBLEMS), reps=50, log2_sigmas=PAPER_LOG2_SIGMAS, log4_Cs=PAPER_LOG4_CS,
                  noise_levels=[0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0]),
}
TITLES = {"toy_a": "(a) Gaussian data", "toy_b": "(b) narrow Gaussian with outliers",
          "digits_3v5": "digits 3 vs 5", "digits_5v8": "digits 5 vs 8", "digits_7v9": "digits 7 vs 9"}
NAMES = {"toy_a": "toy (a)", "toy_b": "toy (b)", "digits_3v5": "digits 3 vs 5 (MNIST for USPS)",
         "digits_5v8": "digits 5 vs 8 (MNIST for USPS)", "digits_7v9": "digits 7 vs 9 (MNIST for USPS)"}
ALGORITHM = ("GURU: guru_lbfgs (L-BFGS on (2.22) with a bias, σ chosen on the noisy validation set) vs "
             "linear SVM: scikit-learn SVC(kernel='linear') (C chosen on the noisy validation set)")
NO_CERT = ("The records store no certificate; L-BFGS (GURU) and LIBSVM (SVM) runs are counted as certified.")


def noise_tasks(settings, seed=0):
    """One task per problem and repetition (repetition seeds ``seed .. seed + reps - 1``)."""
    s = settings
    return grid(problem=s["problems"], seed=list(range(seed, seed + s["reps"])), log2_sigmas=[s["log2_sigmas"]],
                log4_Cs=[s["log4_Cs"]], noise_levels=[s["noise_levels"]])


def tasks(scale="paper", seed=0):
    """The repetitions of both toys at ``scale``."""
    return noise_tasks(SETTINGS[scale], seed)


def records(root=None, scale="paper", seed=0):
    """The cached repetitions (None where a task is not cached), in task order."""
    return artefact.load(__name__, root, scale, seed)


def curves(records, problems):
    """``{problem: (noise levels, mean GURU accuracy %, mean SVM accuracy %, repetitions)}`` over the cached
    repetitions."""
    out = {}
    for p in problems:
        rows = [r for r in records if r is not None and r["params"]["problem"] == p]
        if not rows:
            continue
        g = np.array([r["result"]["guru_test"] for r in rows], float)
        s = np.array([r["result"]["svm_test"] for r in rows], float)
        out[p] = (np.asarray(rows[0]["params"]["noise_levels"], float), 100 * g.mean(0), 100 * s.mean(0), len(rows))
    return out


def noise_numbers(records, problems):
    """``curves`` (see :func:`curves`), ``reps`` (repetitions per problem), ``degrades`` (whether both methods'
    mean accuracy is lower at the largest noise level than without noise, per problem)."""
    cv = curves(records, problems)
    return dict(curves=cv, reps={p: c[3] for p, c in cv.items()},
                degrades={p: bool(c[1][-1] < c[1][0] and c[2][-1] < c[2][0]) for p, c in cv.items()})


def numbers(records):
    """The toys' curves, repetitions and whether accuracy degrades with the noise (:func:`noise_numbers`)."""
    return noise_numbers(records, PROBLEMS)


def noise_figure(records, problems):
    """One panel per problem: mean test accuracy of GURU and the SVM against the noise magnitude."""
    import matplotlib.pyplot as plt

    from ...plotting import METHOD_COLORS

    cv = curves(records, problems)
    fig, axes = plt.subplots(1, len(problems), figsize=(5 * len(problems), 3.6), squeeze=False)
    for ax, p in zip(axes[0], problems):
        if p not in cv:
            ax.set_title(f"{TITLES[p]}: not cached")
            continue
        x, g, s, _ = cv[p]
        ax.plot(x, g, marker="o", color=METHOD_COLORS["robust"], label="GURU")
        ax.plot(x, s, marker="s", color=METHOD_COLORS["svm"], label="SVM")
        ax.set_xlabel("noise magnitude $x$ (noise $U(-x, x)$)")
        ax.set_ylabel("test accuracy (%)")
        ax.set_title(TITLES[p])
    axes[0][0].legend()
    return fig


def draw(records):
    """Fig. 2.5: the two toys."""
    return noise_figure(records, PROBLEMS)


def advantages(recs, problem):
    """GURU − SVM test accuracy (points) averaged over the noise levels, one value per repetition (seed order)."""
    rows = sorted((r for r in recs if r["params"]["problem"] == problem), key=lambda r: r["params"]["seed"])
    return [float(100 * np.mean(np.subtract(r["result"]["guru_test"], r["result"]["svm_test"]))) for r in rows]


def noise_claims(recs, label, where, problems, statement, paper_value, extra_note=""):
    """One claim per problem: GURU − SVM averaged over the noise levels, paired over the repetitions."""
    recs = [r for r in recs if r is not None]
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
