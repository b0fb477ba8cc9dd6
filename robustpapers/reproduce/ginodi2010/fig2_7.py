"""ginodi2010 Fig. 2.7: resistance to noise added to the validation and test sets of the digit pairs.

The thesis (§2.5): "on the USPS dataset, GURU has demonstrated a significantly better resistance to
noise than SVM" (10 repetitions). Judged per digit pair as Fig. 2.5 is (see
:mod:`robustpapers.reproduce.ginodi2010.fig2_5`): the paired difference GURU − SVM, averaged over the
noise levels, over the repetitions. The digits are MNIST resampled to 16 × 16 (USPS is not available)
and the split is the same in every repetition: only the noise is redrawn. The task function, the
curves and the figure are those of Fig. 2.5 (:func:`~robustpapers.reproduce.ginodi2010.experiments.noise_task`).
"""
from __future__ import annotations

from .. import artefact
from ._common import PAPER, PAPER_LOG2_SIGMAS, PAPER_LOG4_CS
from .fig2_5 import noise_claims, noise_figure, noise_numbers, noise_tasks
from .experiments import noise_task

LABEL = "ginodi2010 Fig. 2.7"
EXPERIMENT = "noise"
VERSION = 1
TASK = noise_task
PROBLEMS = ("digits_3v5", "digits_5v8", "digits_7v9")
#: Grids, noise levels and repetitions per scale (the thesis: 10 repetitions on USPS).
SETTINGS = {
    "quick": dict(problems=list(PROBLEMS), reps=3, log2_sigmas=[-4, -2, 0], log4_Cs=[-2, 0, 2],
                  noise_levels=[0.0, 0.25, 0.5, 1.0]),
    "paper": dict(problems=list(PROBLEMS), reps=10, log2_sigmas=PAPER_LOG2_SIGMAS, log4_Cs=PAPER_LOG4_CS,
                  noise_levels=[0.0, 0.125, 0.25, 0.5, 0.75, 1.0]),
}


def tasks(scale="paper", seed=0):
    """The repetitions of the three digit pairs at ``scale``."""
    return noise_tasks(SETTINGS[scale], seed)


def records(root=None, scale="paper", seed=0):
    """The cached repetitions (None where a task is not cached), in task order."""
    return artefact.load(__name__, root, scale, seed)


def claims(records):
    """One claim per digit pair."""
    return noise_claims(records, LABEL, "Fig. 2.7", PROBLEMS,
                        "On {} GURU resists noise added to the validation and test sets significantly better "
                        "than the SVM.", "GURU > SVM (significantly)",
                        "MNIST digits resampled to 16 × 16 stand in for USPS; the split is the same in every "
                        "repetition (only the noise is redrawn).")


def numbers(records):
    """The digit pairs' curves, repetitions and whether accuracy degrades with the noise."""
    return noise_numbers(records, PROBLEMS)


def draw(records):
    """Fig. 2.7: the three digit pairs."""
    return noise_figure(records, PROBLEMS)
