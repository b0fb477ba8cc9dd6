"""shivaswamy2006 §5.3: the close-to-mean regression (34) with the convex losses of (24).

The paper derives (34) for any convex loss c and runs only its ε-insensitive case. One task fits the ℓ2,
ℓ1, ε-insensitive and Huber losses of (24), each without (D = 0) and with (D = 1) the uncertainty term, on
the toy problem of §8.2 (150 points, 2 of 5 entries deleted from half of the patterns, EM moments, a 9:1
split, standardised), and scores each fit by the plain test error (mean absolute residual on the imputed
test patterns) and the robustness error (38) at radius 1/√η. The claim judged is the paper's statement that
(34) is a convex problem for each of these losses: a conic solver must certify an optimum for every fit.

Records: ``results/shivaswamy2006/losses34`` (``losses34_task``, version 1).
"""
from __future__ import annotations

import numpy as np

from .. import ledger
from ..engine import grid
from ._shared import PAPER

LABEL = "shivaswamy2006 §5.3"
EXPERIMENT = "losses34"
VERSION = 1
SETTINGS = {"quick": {}, "paper": {}}
LOSSES = ("l2", "l1", "epsilon", "huber")
ALGORITHM = ("robust_regression (34) with loss_value's losses (24), W = 10, η = 0.5, ε = 0.1, σ = 0.5; Clarabel via "
             "cvxpy; EM moments of RobustMissingSVR")


def toy_split(seed):
    """The task's split of the toy problem (§8.2): 150 points, two entries deleted in half the rows, 15 held out;
    standardised on the training part, the training inputs' EM moments imputed into both parts.

    Returns ``(Xtr, Ftr, Xte, Fte, ytr, yte)``: imputed means and covariance factors of each part, and the labels.
    """
    from ...shivaswamy2006 import RobustMissingSVR, delete_entries
    from .experiments import toy_regression_data

    rng = np.random.default_rng(seed)
    X, y = toy_regression_data(150, rng)
    X = delete_entries(X, 0.5, 0.0, rng, n_delete=2)
    perm = rng.permutation(150)
    te, tr = perm[:15], perm[15:]
    mu, sd = np.nanmean(X[tr], axis=0), np.nanstd(X[tr], axis=0)
    X = (X - mu) / sd
    y = (y - y[tr].mean()) / y[tr].std()
    em = RobustMissingSVR().fit(X[tr], y[tr])  # EM moments of the training inputs
    Xtr, Ftr = em.impute(X[tr])
    Xte, Fte = em.impute(X[te])
    return Xtr, Ftr, Xte, Fte, y[tr], y[te]


def losses34_task(eta=0.5, W=10.0, epsilon=0.1, sigma=0.5, seed=0):
    """Every loss of (24) with and without the uncertainty term on one split of the toy problem."""
    from ...shivaswamy2006 import robust_regression

    Xtr, Ftr, Xte, Fte, ytr, yte = toy_split(seed)
    rows = []
    for loss in LOSSES:
        for D in (0.0, 1.0):
            res = robust_regression(Xtr, ytr, factors=Ftr, loss=loss, eta=eta, W=W, D=D, epsilon=epsilon,
                                    sigma=sigma)
            s_te = np.array([np.linalg.norm(L.T @ res.w) if L is not None else 0.0 for L in Fte])
            rows.append({"loss": loss, "D": D, "solver_status": str(res.solver_status), "success": bool(res.success),
                         "plain": float(np.mean(np.abs(Xte @ res.w + res.b - yte))),
                         "robustness": float(np.mean(s_te / np.sqrt(eta))), "norm_w": float(np.linalg.norm(res.w))})
    return {"rows": rows, "n_test": int(len(yte))}


TASK = losses34_task


def tasks(scale="paper", seed=0):
    """One task."""
    return grid(eta=[0.5], W=[10.0], epsilon=[0.1], sigma=[0.5], seed=[seed])


def records(root=None, scale="paper", seed=0):
    """The task's record (a one-element list; None where it is not cached)."""
    from ..artefact import load

    return load(__import__(__name__, fromlist=["_"]), root, scale, seed)


def numbers(records):
    """The table of fits (a DataFrame, ``"table"``) and, over the losses, the range of the factor by which the
    uncertainty term shrinks the robustness error and of the change of the plain test error it causes."""
    import pandas as pd

    if not records or records[0] is None:
        return {}
    t = pd.DataFrame(records[0]["result"]["rows"])
    table = t.rename(columns={"loss": "loss (24)", "solver_status": "solver status", "plain": "plain test error",
                              "robustness": "robustness error (38)", "norm_w": "‖w‖"})[
        ["loss (24)", "D", "solver status", "plain test error", "robustness error (38)", "‖w‖"]]
    wide = t.pivot(index="loss", columns="D", values="robustness")
    plain = t.pivot(index="loss", columns="D", values="plain")
    shrink = wide[0.0] / wide[1.0]
    change = plain[1.0] - plain[0.0]
    return {"table": table, "shrink_min": float(shrink.min()), "shrink_max": float(shrink.max()),
            "plain_min": float(change.min()), "plain_max": float(change.max()),
            "n_test": records[0]["result"]["n_test"]}


def claims(records):
    """(34) is solvable as a convex problem for each loss of (24)."""
    common = dict(paper=PAPER, id="sec5-3-convex-losses", where="§5.3, (34) and (24)", artefact=LABEL,
                  condition="toy (§8.2), η = 0.5, D = 0 and D = 1",
                  statement=("The close-to-mean regression (34) is a convex problem for every convex loss, for "
                             "instance the ℓ2, ℓ1, ε-insensitive and Huber losses of (24)."),
                  paper_value="convex (every loss)", algorithm=ALGORITHM)
    if not records or records[0] is None:
        return [ledger.Claim(**common, **ledger.not_run(1, 1))]
    rows = records[0]["result"]["rows"]
    ok = sum(r["success"] for r in rows)
    res = ledger.target(ok, len(rows), 0.0, kind="at_least", n_runs=len(rows), n_certified=len(rows))
    return [ledger.Claim(**common, **res, note=(
        f"Our value: the fits of the {len(LOSSES)} losses × 2 values of D for which Clarabel certifies an optimum "
        f"(status 'optimal'), against all {len(rows)}. Statuses: "
        + ", ".join(f"{r['loss']} D={r['D']:g}: {r['solver_status']}" for r in rows) + "."))]
