"""shivaswamy2006 Fig. 10: linear against kernelised robust regression (CTM and SR) on a quadratic target.

Judges "the kernelized version of the robust formulation does a better job than the linear version
when the underlying function is non-linear" per formulation, paired over the 10 runs, on the test
error of the paper's Fig. 10 (the mean absolute residual on the imputed test patterns).

Records: ``results/shivaswamy2006/quadratic_paper`` (``quadratic_regression_task``, version 1).
"""
from __future__ import annotations

import numpy as np

from .. import ledger
from ..engine import grid
from ._shared import CERT_NOTE, PAPER, fmt_interval, load_scale
from .experiments import quadratic_regression_task

LABEL = "shivaswamy2006 Fig. 10"
EXPERIMENTS = {"quick": "quadratic_quick", "paper": "quadratic_paper"}
EXPERIMENT = EXPERIMENTS["paper"]
VERSION = 1
TASK = quadratic_regression_task
SETTINGS = {"quick": dict(runs=3), "paper": dict(runs=10)}
#: The formulations and the fraction of incomplete training patterns of each (§8.2).
FORMULATIONS = {"ctm": 0.5, "sr": 0.2}
REPS = 10

ALGORITHM = ("linear: RobustMissingSVR (W = 10); kernelised: KernelRobustMissingSVR (Gaussian kernel 0.1, "
             "spherical Σ^k, W = 100); η = 0.5, ε = 0.1, D = 1; Clarabel via cvxpy; EM imputation")


def tasks(scale="paper", seed=0):
    """One task per (formulation, run)."""
    runs = list(range(SETTINGS[scale]["runs"]))
    return [t for form, frac in FORMULATIONS.items()
            for t in grid(rep=runs, formulation=[form], row_fraction=[frac], seed=[seed])]


def records(root=None, scale="paper", seed=0):
    """The cached records at ``scale``, as a dict ``formulation -> list of records sorted by run``."""
    out = {form: [] for form in FORMULATIONS}
    for r in load_scale(__import__(__name__, fromlist=["_"]), root, scale, seed):
        if r is not None:
            out[r["params"]["formulation"]].append(r)
    for form in out:
        out[form].sort(key=lambda r: r["params"]["rep"])
    return out


def numbers(records):
    """Per formulation: the mean test error of both regressors, the mean paired difference (linear minus
    kernelised; positive: the kernelised better) with its 95 % interval, the runs the kernelised one wins,
    and the verdict."""
    import pandas as pd

    rows = []
    for form, frac in FORMULATIONS.items():
        recs = records.get(form, [])
        d = paired_differences(recs)
        res = ledger.paired(d)
        iv = res["interval"] or (float("nan"), float("nan"))
        rows.append({"formulation": form.upper(), "incomplete training patterns": f"{int(round(100 * frac))} %",
                     "linear": float(np.mean([r["result"]["linear"] for r in recs])) if recs else float("nan"),
                     "kernelised": float(np.mean([r["result"]["kernel"] for r in recs])) if recs else float("nan"),
                     "linear − kernelised": res["our_value"], "low": iv[0], "high": iv[1],
                     "kernelised better in": f"{int(np.sum(d > 0))} of {len(d)} runs", "verdict": res["verdict"]})
    return pd.DataFrame(rows).set_index("formulation")


def draw(records):
    """Fig. 10: the test error of the linear and the kernelised regressor per run, CTM left, SR right."""
    import matplotlib.pyplot as plt

    from ...plotting import METHOD_COLORS

    fig, axes = plt.subplots(1, 2, figsize=(9, 3.5), sharey=True)
    for ax, form in zip(axes, FORMULATIONS):
        recs = records.get(form, [])
        runs = [r["params"]["rep"] + 1 for r in recs]
        ax.plot(runs, [r["result"]["linear"] for r in recs], marker="o", color=METHOD_COLORS["nominal"],
                label="linear")
        ax.plot(runs, [r["result"]["kernel"] for r in recs], marker="s", color=METHOD_COLORS["robust"],
                label="kernelised")
        ax.set_title(form.upper(), fontsize=9)
        ax.set_xlabel("run")
        ax.set_xticks(runs)
    axes[0].set_ylabel("test error per sample")
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    return fig


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
