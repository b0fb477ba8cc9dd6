"""ginodi2010 Fig. 2.7: resistance to noise added to the validation and test sets of the digit pairs.

The thesis (§2.5): "on the USPS dataset, GURU has demonstrated a significantly better resistance to
noise than SVM" (10 repetitions). Judged per digit pair as Fig. 2.5 is (see
:mod:`robustpapers.reproduce.ginodi2010.fig2_5`): the paired difference GURU − SVM, averaged over the
noise levels, over the repetitions. The digits are MNIST resampled to 16 × 16 (USPS is not available)
and the split is the same in every repetition: only the noise is redrawn.
"""
from __future__ import annotations

from ._common import PAPER, PAPER_LOG2_SIGMAS, PAPER_LOG4_CS, records_of
from .fig2_5 import noise_claims

LABEL = "ginodi2010 Fig. 2.7"
EXPERIMENT = "noise"
PROBLEMS = ("digits_3v5", "digits_5v8", "digits_7v9")


def records(root=None, scale="paper", seed=0):
    """The paper-scale noise repetitions of the three digit pairs."""
    if scale != "paper":
        raise ValueError(f"the ledger judges the paper-scale records only, got scale={scale!r}")
    return records_of(EXPERIMENT, root, where={"log2_sigmas": PAPER_LOG2_SIGMAS, "log4_Cs": PAPER_LOG4_CS},
                      keep=lambda p: p["problem"] in PROBLEMS)


def claims(records):
    """One claim per digit pair."""
    return noise_claims(records, LABEL, "Fig. 2.7", PROBLEMS,
                        "On {} GURU resists noise added to the validation and test sets significantly better "
                        "than the SVM.", "GURU > SVM (significantly)",
                        "MNIST digits resampled to 16 × 16 stand in for USPS; the split is the same in every "
                        "repetition (only the noise is redrawn).")
