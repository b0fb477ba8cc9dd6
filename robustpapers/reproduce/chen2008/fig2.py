"""chen2008 Fig. 2: the size of the localisation set per iteration, with and without pruning (§6.2).

The runs of Fig. 1 (:mod:`robustpapers.reproduce.chen2008.fig1`), trace ``n_kernels``.
"""
from __future__ import annotations

import numpy as np

from . import fig1
from ..ledger import Claim, target

__all__ = ["PAPER", "LABEL", "EXPERIMENT", "VERSION", "SETTINGS", "TASK", "tasks", "records", "claims", "numbers",
           "draw"]

PAPER, EXPERIMENT, VERSION, SETTINGS, TASK = fig1.PAPER, fig1.EXPERIMENT, fig1.VERSION, fig1.SETTINGS, fig1.TASK
LABEL = "chen2008 Fig. 2"
tasks = fig1.tasks
#: "a small constant": at most this many kernels, and no upward trend over the second half of the run.
SMALL = 50
#: "no upward trend": least-squares slope of the count over the second half, kernels per iteration.
FLAT = 0.01


def records(root=None, scale="paper", seed=0):
    """The runs of Fig. 1."""
    return fig1.records(root, scale, seed)


def numbers(records):
    """Per run: the largest and last size of the localisation set, the slope over its second half."""
    out = {}
    for prune, r in fig1.runs(records).items():
        if r is None:
            continue
        nk = np.asarray(r["n_kernels"], dtype=float)[1:]
        half = nk[nk.size // 2:]
        slope = float(np.polyfit(np.arange(half.size), half, 1)[0]) if half.size > 2 else 0.0
        adds = float(np.mean(np.diff(nk[:-1]) == 1)) if nk.size > 2 else 1.0
        out[prune] = dict(max=int(nk.max()), last=int(nk[-1]), slope_second_half=slope, share_adding_one=adds,
                          iterations=int(nk.size), success=bool(r["success"]))
    return out


def claims(records):
    """§6.2 on Fig. 2: with pruning the set stays around a small constant; without, it keeps growing."""
    nums = numbers(records)
    out = []
    if True in nums:
        n = nums[True]
        small = n["max"] <= SMALL and n["slope_second_half"] <= FLAT
        res = target(float(n["max"]), SMALL, 0, kind="at_most", n_runs=1, n_certified=int(n["success"]))
        if res["verdict"] == "reproduced" and not small:
            res["verdict"] = "not reproduced"
        res["rule"] = (f"at most {SMALL} kernels and a slope of at most {FLAT} kernel per iteration over the "
                       "second half of the run")
        out.append(Claim(PAPER, "fig2-pruning-small-set", "§6.2, Fig. 2",
                         "With pruning the number of kernels stabilises around a small constant.", artefact=LABEL,
                         condition="with pruning", paper_value="small constant", algorithm=fig1.ALGORITHM,
                         note=f"slope over the second half {n['slope_second_half']:.4f} kernel per iteration",
                         **res))
    if False in nums:
        n = nums[False]
        res = target(n["share_adding_one"], 1.0, 0.0, kind="abs", n_runs=1, n_certified=int(n["success"]))
        res["rule"] = "every iteration adds one kernel (share of iterations that do = 1)"
        out.append(Claim(PAPER, "fig2-no-pruning-grows", "§6.2, Fig. 2",
                         "Without pruning the number of kernels increases gradually.", artefact=LABEL,
                         condition="without pruning", paper_value="grows", algorithm=fig1.ALGORITHM, **res))
    return out


def draw(records):
    """Fig. 2: kernels in the localisation set per iteration."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    for prune, r in fig1.runs(records).items():
        if r is None:
            continue
        nk = np.asarray(r["n_kernels"])[1:]
        ax.plot(np.arange(1, nk.size + 1), nk, color="#d62728" if prune else "#4d4d4d",
                label="with pruning" if prune else "without pruning")
    ax.set_yscale("log")
    ax.set_xlabel("iteration")
    ax.set_ylabel("kernels in the localisation set")
    ax.legend()
    fig.tight_layout()
    return fig
