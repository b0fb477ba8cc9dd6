"""shivaswamy2006 §4.3: Theorem 3, the violation probability of the sampled problem (23).

With N sampled constraints per ellipsoid (N of Theorem 3 for ε, β = 10⁻³ and d = 11 decision variables),
the solution of the sampled problem violates each pattern's robust constraint with probability at most
ε, except with probability β. Judged per ε on one draw each: every pattern's violation probability,
estimated from 20,000 fresh uniform points of its ellipsoid, must be at most ε. One draw checks one
instance of the guarantee, not the probability 1 − β with which it holds.

Records: ``results/shivaswamy2006/constraint_sampling`` (``constraint_sampling_task``, version 1).
"""
from __future__ import annotations

from .. import ledger
from ..engine import grid
from ._shared import CERT_NOTE, PAPER
from .experiments import constraint_sampling_task

LABEL = "shivaswamy2006 §4.3"
EXPERIMENT = "constraint_sampling"
VERSION = 1
TASK = constraint_sampling_task
EPSILONS = (0.2, 0.1, 0.05)
#: The same three draws at either scale (a few seconds each).
SETTINGS = {"quick": dict(epsilons=EPSILONS), "paper": dict(epsilons=EPSILONS)}
ALGORITHM = "vertex_svm on calafiore_campi_n(ε, β, 11) uniform samples per ellipsoid (sample_ellipsoid), Clarabel via cvxpy"


def tasks(scale="paper", seed=0):
    """One task per ε: 8 patterns in 2-D, β = 10⁻³, 20,000 fresh points per pattern."""
    return grid(epsilon=list(SETTINGS[scale]["epsilons"]), beta=[1e-3], n=[8], d=[2], gamma=[1.0], n_fresh=[20000],
                seed=[seed])


def records(root=None, scale="paper", seed=0):
    """The cached record of each ε (None where it is not cached), as a dict ``epsilon -> record``."""
    from ..artefact import load

    recs = load(__import__(__name__, fromlist=["_"]), root, scale, seed)
    return {t["epsilon"]: r for t, r in zip(tasks(scale, seed), recs)}


def numbers(records):
    """Per ε: N, the largest and the mean violation probability over the patterns, and both objectives (a
    DataFrame of the cached draws)."""
    import pandas as pd

    rows = [dict(epsilon=eps, beta=r["params"]["beta"], **{k: r["result"][k] for k in
                 ("N", "max_violation", "mean_violation", "objective_sampled", "objective_socp")})
            for eps, r in records.items() if r is not None]
    return pd.DataFrame(rows)


def claims(records):
    """One claim per ε."""
    out = []
    for eps in EPSILONS:
        r = records.get(eps)
        common = dict(paper=PAPER, id=f"thm3-eps{eps:g}", where="Theorem 3 (§4.3)", artefact=LABEL,
                      condition=f"ε = {eps:g}, β = 0.001, 8 patterns in 2-D",
                      statement=("With N ≥ 2[dε⁻¹log ε⁻¹ + ε⁻¹log β⁻¹ + d] sampled constraints the solution "
                                 "violates the robust constraint with probability at most ε (w.p. ≥ 1 − β)."),
                      paper_value=eps, algorithm=ALGORITHM)
        if r is None:
            out.append(ledger.Claim(**common, **ledger.not_run(1, 1)))
            continue
        res = r["result"]
        v = ledger.target(res["max_violation"], eps, 0.0, kind="at_most", n_runs=1)
        out.append(ledger.Claim(
            **common, **v,
            note=(f"N = {res['N']} points per ellipsoid; largest violation probability over the 8 patterns "
                  f"{res['max_violation']:.4f} (mean {res['mean_violation']:.4f}), from 20,000 fresh points each; "
                  f"one draw, so the probability 1 − β is not estimated. Sampled objective "
                  f"{res['objective_sampled']:.4f} ≤ SOCP objective {res['objective_socp']:.4f}. {CERT_NOTE}")))
    return out
