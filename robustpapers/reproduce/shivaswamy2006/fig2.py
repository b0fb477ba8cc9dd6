"""shivaswamy2006 Fig. 2: the nominal and the robust hyperplane on data whose patterns carry uncertainty ellipsoids.

The paper's figure shows that the robust classifier (10) moves its hyperplane so that the ellipsoids
E(x̄ᵢ, Σᵢ, γ) stay on their side, where the nominal SVM cuts some of them. One task solves both
(``robust_svm`` at γ = 0 and γ = 1.5, C = 10) on 2-D data whose positive class is uncertain along a tilted
direction, and counts, by the worst-case point of each ellipsoid (``worst_case_points``, Lemma 2), how many
ellipsoids each hyperplane cuts; it also checks the robust constraint (17) at those points.

Records: ``results/shivaswamy2006/fig2`` (``fig2_task``, version 1).
"""
from __future__ import annotations

import numpy as np

from .. import ledger
from ..engine import grid
from ._shared import PAPER
from .fig1 import _ellipse, _line

LABEL = "shivaswamy2006 Fig. 2"
EXPERIMENT = "fig2"
VERSION = 1
SETTINGS = {"quick": {}, "paper": {}}
ALGORITHM = "robust_svm (C = 10; γ = 0 and γ = 1.5; Clarabel via cvxpy), worst_case_points"


def fig2_task(gamma=1.5, C=10.0, seed=0):
    """Both hyperplanes, the worst-case points and the counts of cut ellipsoids (see the module docstring)."""
    from ...shivaswamy2006 import robust_svm, worst_case_points

    rng = np.random.default_rng(seed + 1)
    n = 10
    y = np.r_[np.ones(n), -np.ones(n)]
    X = np.r_[rng.normal([1.0, 0.0], [0.3, 1.0], (n, 2)), rng.normal([-1.0, 0.0], [0.3, 1.0], (n, 2))]
    # the positive class is uncertain along a tilted direction; the negative class is exact
    v = np.array([np.cos(0.6), np.sin(0.6)])
    S = [0.3 * np.outer(v, v) + 0.01 * np.eye(2) if yi > 0 else None for yi in y]
    nom = robust_svm(X, y, S, gamma=0.0, C=C)
    rob = robust_svm(X, y, S, gamma=gamma, C=C)
    m_rob = y * (worst_case_points(rob.w, X, y, S, gamma) @ rob.w + rob.b)
    m_nom = y * (worst_case_points(nom.w, X, y, S, gamma) @ nom.w + nom.b)
    return {"X": X.tolist(), "y": y.tolist(), "Sigma": [None if s is None else s.tolist() for s in S],
            "gamma": float(gamma), "nominal": {"w": nom.w.tolist(), "b": float(nom.b), "success": bool(nom.success)},
            "robust": {"w": rob.w.tolist(), "b": float(rob.b), "xi": rob.xi.tolist(), "success": bool(rob.success)},
            "margin_wc_nominal": m_nom.tolist(), "margin_wc_robust": m_rob.tolist()}


TASK = fig2_task


def tasks(scale="paper", seed=0):
    """One task."""
    return grid(gamma=[1.5], C=[10.0], seed=[seed])


def records(root=None, scale="paper", seed=0):
    """The task's record (a one-element list; None where it is not cached)."""
    from ..artefact import load

    return load(__import__(__name__, fromlist=["_"]), root, scale, seed)


def numbers(records):
    """How many ellipsoids each hyperplane cuts (worst-case point on the wrong side), the largest violation of
    (17) by the robust solution, and the change of the hyperplane's offset ``|b/‖w‖|``."""
    if not records or records[0] is None:
        return {}
    r = records[0]["result"]
    has = np.array([s is not None for s in r["Sigma"]])
    m_nom, m_rob = np.array(r["margin_wc_nominal"]), np.array(r["margin_wc_robust"])
    off = [abs(r[k]["b"]) / np.linalg.norm(r[k]["w"]) for k in ("nominal", "robust")]
    return {"n_ellipsoids": int(has.sum()), "cut_nominal": int(np.sum(m_nom[has] < 0)),
            "cut_robust": int(np.sum(m_rob[has] < 0)),
            "violation_17": float(np.max(1 - np.array(r["robust"]["xi"]) - m_rob)),
            "shift": float(abs(off[1] - off[0]))}


def draw(records):
    """Fig. 2: the data, the ellipsoids of the positive class, and both hyperplanes."""
    import matplotlib.pyplot as plt

    from ...plotting import METHOD_COLORS

    r = records[0]["result"]
    X, y, g = np.array(r["X"]), np.array(r["y"]), r["gamma"]
    fig, ax = plt.subplots(figsize=(5.5, 4.5))
    for x, S in zip(X, r["Sigma"]):
        if S is not None:
            _ellipse(ax, x, S, g, fill=False, lw=0.8, color=METHOD_COLORS["socp"])
    ax.scatter(*X[y > 0].T, marker="o", facecolor="none", edgecolor="k", label="class +1 (uncertain)")
    ax.scatter(*X[y < 0].T, marker="*", color="k", label="class -1 (exact)")
    _line(ax, r["nominal"]["w"], r["nominal"]["b"], (-4, 4), color=METHOD_COLORS["nominal"],
          label="nominal SVM ($\\gamma=0$)")
    _line(ax, r["robust"]["w"], r["robust"]["b"], (-4, 4), color=METHOD_COLORS["robust"], ls="--", lw=2.5,
          label=f"robust ($\\gamma={g:g}$)")
    ax.set_xlim(-4, 4)
    ax.set_ylim(-3.5, 3.5)
    ax.set_aspect("equal")
    ax.legend(loc="lower left", fontsize=8)
    fig.tight_layout()
    return fig


def claims(records):
    """Fig. 2's statement (one claim)."""
    common = dict(paper=PAPER, id="fig2-robust-hyperplane", where="Fig. 2 (§7.1)", artefact=LABEL,
                  condition="synthetic 2-D data, γ = 1.5",
                  statement=("The robust hyperplane moves so that the uncertainty ellipsoids stay on their side, "
                             "where the nominal SVM's cuts them."),
                  paper_value="drawn", algorithm=ALGORITHM)
    n = numbers(records)
    if not n:
        return [ledger.Claim(**common, **ledger.not_run(1, 1))]
    r = records[0]["result"]
    cert = int(r["nominal"]["success"]) + int(r["robust"]["success"])
    ok = n["cut_robust"] < n["cut_nominal"] and n["violation_17"] <= 1e-6
    verdict = "inconclusive" if cert < 2 else ("reproduced" if ok else "not reproduced")
    return [ledger.Claim(
        **common, verdict=verdict, our_value=float(n["cut_robust"]), interval=None, n_runs=2, n_certified=cert,
        rule="the robust hyperplane cuts fewer ellipsoids than the nominal one, and (17) holds at every worst-case point",
        note=(f"Of the {n['n_ellipsoids']} ellipsoids, the nominal hyperplane cuts {n['cut_nominal']} and the robust "
              f"one {n['cut_robust']} (our value), judged by Lemma 2's worst-case points; the largest violation "
              f"of (17) by the robust solution is {n['violation_17']:.1e}; the offset changes by "
              f"{n['shift']:.2f}. Both solver statuses are stored (certified: {cert} of 2)."))]
