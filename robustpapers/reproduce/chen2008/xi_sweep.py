"""Not in chen2008: the five methods as the perturbation xi grows (Sonar and Heart, rho = 10, 10 splits)."""
from __future__ import annotations

from .. import artefact
from .experiments import GAMMA_GRID, xi_sweep_task

__all__ = ["PAPER", "LABEL", "EXPERIMENT", "VERSION", "SETTINGS", "TASK", "tasks", "records", "claims", "numbers"]

PAPER = "chen2008"
LABEL = "chen2008 §6.3, xi"
EXPERIMENT = "xi_sweep"
VERSION = 3
TASK = xi_sweep_task
SETTINGS = {
    "quick": dict(datasets=["sonar"], xis=[0.0, 0.05, 0.1, 0.2, 0.5], splits=1, tol=1e-3, max_iter=50, max_n=150),
    "paper": dict(datasets=["sonar", "heart"], xis=[0.0, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0], splits=10, tol=1e-5,
                  max_iter=1000, max_n=None),
}
METHODS = {"acc_denoise": "Denoise", "acc_flip": "Flip", "acc_shift": "Shift", "acc_svm": "SVM",
           "acc_siqclp": "Indefinite SVM (Algorithm 1)"}


def tasks(scale="paper", seed=0):
    """One task per (data set, xi, split)."""
    s = SETTINGS[scale]
    return [dict(dataset=ds, xi=xi, seed=seed + k, gamma_grid=list(GAMMA_GRID), rho=10.0, tol=s["tol"],
                 max_iter=s["max_iter"], max_n=s["max_n"])
            for ds in s["datasets"] for xi in s["xis"] for k in range(s["splits"])]


def records(root=None, scale="paper", seed=0):
    """The cached records of :func:`tasks` (None where not cached)."""
    return artefact.load(__name__, root, scale, seed)


def numbers(records):
    """Mean accuracy (%) per (data set, xi), the spectrum's ratio, and how many Algorithm 1 runs certified."""
    import pandas as pd

    f = pd.DataFrame([{**r["params"], **r["result"]} for r in records if r is not None])
    if f.empty:
        return {"table": f, "missing": artefact.missing(records)}
    f["certified"] = f.siqclp_gap <= f.tol
    g = f.groupby(["dataset", "xi"])
    table = 100 * g[list(METHODS)].mean()
    table = table.rename(columns=METHODS).round(1)
    table["|λmax/λmin|"] = g.ratio.mean().map(lambda v: f"{v:.3g}")
    table["Algorithm 1 certified"] = [f"{int(c)} of {int(n)}" for c, n in zip(g.certified.sum(), g.size())]
    return {"table": table, "missing": artefact.missing(records)}


def claims(records):
    """No claim of the paper rests on this sweep."""
    return []
