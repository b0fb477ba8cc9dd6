"""shivaswamy2006 Fig. 10: linear against kernelised robust regression (CTM and SR) on a quadratic target.

Judges "the kernelized version of the robust formulation does a better job than the linear version
when the underlying function is non-linear" per formulation, paired over the 10 runs, on the test
error of the paper's Fig. 10 (the mean absolute residual on the imputed test patterns).

Records: ``results/shivaswamy2006/quadratic_paper`` (``quadratic_regression_task``, version 1).
"""
from __future__ import annotations

import numpy as np

from .. import ledger
from ._shared import CERT_NOTE, PAPER, fmt_interval, select

LABEL = "shivaswamy2006 Fig. 10"
EXPERIMENT = "quadratic_paper"
FUNC = "robustpapers.shivaswamy2006.experiments:quadratic_regression_task"
VERSION = 1
#: The formulations and the fraction of incomplete training patterns of each (§8.2).
FORMULATIONS = {"ctm": 0.5, "sr": 0.2}
REPS = 10

ALGORITHM = ("linear: RobustMissingSVR (W = 10); kernelised: KernelRobustMissingSVR (Gaussian kernel 0.1, "
             "spherical Σ^k, W = 100); η = 0.5, ε = 0.1, D = 1; Clarabel via cvxpy; EM imputation")


def records(root=None, scale="paper", seed=0):
    """The paper-scale records, as a dict ``formulation -> list of records sorted by run``."""
    if scale != "paper":
        raise ValueError(f"the claims rest on the paper-scale records only, got scale={scale!r}")
    out = {}
    for form, frac in FORMULATIONS.items():
        recs = select(EXPERIMENT, FUNC, VERSION, where={"formulation": form, "row_fraction": frac, "seed": seed},
                      root=root)
        out[form] = sorted(recs, key=lambda r: r["params"]["rep"])
    return out


def paired_differences(recs):
    """Linear minus kernelised test error per run (positive: the kernelised regressor better)."""
    return np.array([r["result"]["linear"] - r["result"]["kernel"] for r in recs], dtype=float)


def claims(records):
    """One claim per formulation."""
    out = []
    for form, frac in FORMULATIONS.items():
        recs = records.get(form, [])
        d = paired_differences(recs)
        res = ledger.paired(d, direction=1, runs_per_pair=2)
        missing = f" Only {len(recs)} of the {REPS} runs are cached." if len(recs) < REPS else ""
        lin = np.mean([r["result"]["linear"] for r in recs]) if recs else float("nan")
        ker = np.mean([r["result"]["kernel"] for r in recs]) if recs else float("nan")
        out.append(ledger.Claim(
            paper=PAPER, id=f"fig10-{form}", where="Fig. 10",
            condition=f"{form.upper()}, quadratic toy, {int(round(100 * frac))} % of training patterns incomplete",
            statement=("The kernelised robust regressor does a better job than the linear one when the target "
                       "is non-linear."),
            artefact=LABEL, paper_value="kernelised < linear", algorithm=ALGORITHM,
            note=(f"Linear minus kernelised mean absolute test residual (standardised target units), paired "
                  f"over {len(recs)} runs: {fmt_interval(res)} (means {lin:.3f} and {ker:.3f}); kernelised "
                  f"lower in {int(np.sum(d > 0))} runs.{missing} {CERT_NOTE}"),
            **res))
    return out
