"""chen2008 §5 (eq. (27)): how far the learned proxy kernel moves from :math:`K_0` as rho varies.

§5 reads the restricted master problem as multiple kernel learning "while penalizing kernels with a large
deviation from :math:`K_0`", the penalty weighted by rho. So at the optimum of (6) the proxy kernel
:math:`K^* = (K_0 + Y\\alpha\\alpha^\\top Y/(4\\rho))_+` should move less from :math:`K_0` as rho grows. Not a
figure of the paper: each split of Sonar (:math:`0.1\\hat E`, as in Fig. 1) is solved by Algorithm 1 with
pruning at several rho, and the relative distance :math:`\\|K^* - K_0\\|_F / \\|K_0\\|_F` is recorded together
with the parts of it: the distance of :math:`K_0` to the PSD cone, :math:`\\|(K_0)_-\\|_F`, which is the least
any PSD proxy must move.
"""
from __future__ import annotations

import time
import warnings

import numpy as np

from ...chen2008 import indefinite_svm
from ...core import ConvergenceWarning
from .. import artefact
from ..engine import task_name
from ..ledger import Claim, combine, paired
from .experiments import GAMMA_GRID, _split_kernel

__all__ = ["PAPER", "LABEL", "EXPERIMENT", "VERSION", "SETTINGS", "TASK", "proxy_task", "tasks", "records",
           "claims", "numbers", "draw"]

PAPER = "chen2008"
LABEL = "chen2008 §5, proxy kernel"
EXPERIMENT = "proxy"
VERSION = 1
ALGORITHM = "Algorithm 1 with pruning"
SETTINGS = {
    "quick": dict(dataset="sonar", xi=0.1, rhos=[30.0, 100.0, 300.0], splits=2, tol=1e-5, max_iter=300, max_n=120),
    "paper": dict(dataset="sonar", xi=0.1, rhos=[10.0, 30.0, 100.0, 300.0, 1000.0], splits=10, tol=1e-5,
                  max_iter=3000, max_n=None),
}


@task_name("robustpapers.reproduce.chen2008.proxy:proxy_task")
def proxy_task(dataset, xi, rho, seed, tol, max_iter, gamma_grid, C=1.0, max_n=None):
    """One split: Algorithm 1 at ``rho``; the distance of its proxy kernel from :math:`K_0` and from the PSD cone."""
    K0, y, tr, _, gamma = _split_kernel(dataset, xi, seed, list(gamma_grid), max_n)
    Ktr, ytr = K0[np.ix_(tr, tr)], y[tr]
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        res = indefinite_svm(Ktr, ytr, C, rho, tol=tol, prune=True, max_iter=max_iter)
    w = np.linalg.eigvalsh(Ktr)
    norm0 = float(np.linalg.norm(Ktr))
    return dict(distance=float(np.linalg.norm(res.K - Ktr)) / norm0,
                psd_distance=float(np.sqrt(np.sum(np.minimum(w, 0) ** 2))) / norm0,
                gap=float(np.min(res.upper) - res.objective), success=bool(res.success), nit=int(res.nit),
                objective=float(res.objective), n_support=int(np.sum(res.alpha > 1e-8)), gamma=gamma,
                wall=time.perf_counter() - t0)


TASK = proxy_task


def tasks(scale="paper", seed=0):
    """One task per (rho, split)."""
    s = SETTINGS[scale]
    return [dict(dataset=s["dataset"], xi=s["xi"], rho=rho, seed=seed + k, tol=s["tol"], max_iter=s["max_iter"],
                 gamma_grid=list(GAMMA_GRID), max_n=s["max_n"])
            for rho in s["rhos"] for k in range(s["splits"])]


def records(root=None, scale="paper", seed=0):
    """The cached records of :func:`tasks` (None where not cached)."""
    return artefact.load(__name__, root, scale, seed)


def _frame(records):
    import pandas as pd

    return pd.DataFrame([{**r["params"], **r["result"]} for r in records if r is not None])


def numbers(records):
    """Per rho: mean distance (and spread) of the proxy kernel from K0, and how many runs certified."""
    f = _frame(records)
    if f.empty:
        return {"table": f, "missing": artefact.missing(records)}
    g = f.groupby("rho")
    table = g.agg(distance=("distance", "mean"), distance_sd=("distance", "std"),
                  psd_distance=("psd_distance", "mean"), iterations=("nit", "median"),
                  certified=("success", "sum"), runs=("success", "size"))
    return {"table": table, "missing": artefact.missing(records)}


def claims(records):
    """The deviation of the proxy kernel from K0 decreases as rho grows (each consecutive pair of rho, paired
    over the splits whose two runs both certified)."""
    f = _frame(records)
    statement = "The larger rho, the closer the learned proxy kernel stays to K0 (eq. (27) penalises deviation)."
    if f.empty or artefact.missing(records):
        return [Claim(PAPER, "proxy-deviation-falls-with-rho", "§5, eq. (27)", statement, "inconclusive", LABEL,
                      note=f"{artefact.missing(records)} of {len(records)} runs not cached")]
    rhos = sorted(f.rho.unique())
    parts, notes, n_runs, n_cert = [], [], 0, 0
    for lo, hi in zip(rhos[:-1], rhos[1:]):
        a = f[f.rho == lo].set_index("seed")
        b = f[f.rho == hi].set_index("seed").loc[a.index]
        res = paired((a.distance - b.distance).to_numpy(), certified=(a.success & b.success).to_numpy(),
                     runs_per_pair=2)
        parts.append(res["verdict"])
        n_runs += res["n_runs"]
        n_cert += res["n_certified"]
        iv = res["interval"]
        notes.append(f"rho {lo:g} vs {hi:g}: {res['our_value']:.4f}" +
                     (f" [{iv[0]:.4f}, {iv[1]:.4f}]" if iv else "") + f" ({res['verdict']})")
    return [Claim(PAPER, "proxy-deviation-falls-with-rho", "§5, eq. (27)", statement, combine(parts), LABEL,
                  condition="Sonar, 0.1 E", paper_value="decreasing in rho", our_value=None, n_runs=n_runs,
                  n_certified=n_cert, algorithm=ALGORITHM,
                  rule="for each consecutive pair of rho, the mean paired decrease of ||K*-K0||_F/||K0||_F over "
                       "certified splits, 95 % t-interval above 0 (10 pairs); all pairs must reproduce",
                  note="; ".join(notes))]


def draw(records):
    """How much further than its positive part the proxy kernel moves from K0, against rho, one line per split:
    ``distance / psd_distance - 1`` (0 would be the projection of K0 onto the PSD cone itself)."""
    import matplotlib.pyplot as plt

    f = _frame(records)
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    if not f.empty:
        for _, g in f.groupby("seed"):
            g = g.sort_values("rho")
            ax.plot(g.rho, g.distance / g.psd_distance - 1, color="#d62728", alpha=0.5, marker=".")
        ax.set_xscale("log")
        ax.set_yscale("log")
    ax.set_xlabel(r"$\rho$")
    ax.set_ylabel(r"$\|K^*-K_0\|_F\,/\,\|(K_0)_-\|_F - 1$")
    fig.tight_layout()
    return fig
