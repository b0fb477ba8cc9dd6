"""Not in chen2008: how many iterations Algorithm 1 needs as rho varies (Sonar, 0.1 E, with pruning).

The paper gives iteration counts (§6.2) but not its rho; this sweep shows how strongly the count depends on it.
"""
from __future__ import annotations

import numpy as np

from .. import artefact
from .experiments import GAMMA_GRID, best_gaps, convergence_task, first_below

__all__ = ["PAPER", "LABEL", "EXPERIMENT", "VERSION", "SETTINGS", "TASK", "tasks", "records", "claims", "numbers"]

PAPER = "chen2008"
LABEL = "chen2008 §6.2, rho"
EXPERIMENT = "convergence"
VERSION = 3
TASK = convergence_task
SETTINGS = {
    "quick": dict(rhos=[30.0, 100.0, 300.0], max_iter=300),
    "paper": dict(rhos=[3.0, 10.0, 30.0, 100.0, 300.0], max_iter=3000),
}


def tasks(scale="paper", seed=0):
    """One pruned run of Algorithm 1 per rho, on the split of Fig. 1."""
    s = SETTINGS[scale]
    return [dict(dataset="sonar", xi=0.1, rho=rho, prune=True, tol=1e-5, max_iter=s["max_iter"], seed=seed,
                 gamma_grid=list(GAMMA_GRID)) for rho in s["rhos"]]


def records(root=None, scale="paper", seed=0):
    """The cached records of :func:`tasks` (None where not cached)."""
    return artefact.load(__name__, root, scale, seed)


def numbers(records):
    """A table indexed by rho: iterations to a gap of 1e-2 and 1e-5, largest localisation set, accuracy, time."""
    import pandas as pd

    rows = []
    for rec in records:
        if rec is None:
            continue
        r = rec["result"]
        g = best_gaps(r["upper"], r["lower"])
        rows.append({"rho": rec["params"]["rho"], "iterations to 1e-2": first_below(g, 1e-2),
                     "iterations to 1e-5": first_below(g, 1e-5), "iterations run": int(r["nit"]),
                     "certified": bool(r["success"]), "largest set": int(np.max(r["n_kernels"])),
                     "test accuracy (%)": round(100 * r["final_accuracy"], 1), "seconds": round(r["wall"], 1)})
    table = pd.DataFrame(rows)
    if len(table):
        table = table.set_index("rho").astype({"iterations to 1e-2": "Int64", "iterations to 1e-5": "Int64"})
    return {"table": table, "missing": artefact.missing(records)}


def claims(records):
    """No claim of the paper rests on this sweep."""
    return []
