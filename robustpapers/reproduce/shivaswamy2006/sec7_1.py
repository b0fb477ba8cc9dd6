"""shivaswamy2006 §7.1: the dual (47) of the missing-value classifier (44), w recovered by (49), and the KKT readings.

The paper derives these without an experiment. One task solves, on synthetic 2-D data of two overlapping
classes where 60 % of the patterns carry an uncertainty ellipsoid (a random covariance of rank 1 or 2, as a
padded covariance of a pattern with missing entries would be), the primal (44) (``robust_svm_w``) and,
as a problem of its own, the dual (47) (``robust_svm_dual``, in the perspective variables vᵢ = λᵢuᵢ), with
γ = 1.5 and W = ‖w*‖ of the C-form at C = 1 so that ‖w‖ ≤ W binds. It stores what the readings of §7.1 are
judged on: the duality gap, the largest difference between the primal w and the w of (49), between the
primal b and the multiplier of (47b), between the points the dual picks from the ellipsoids and Lemma 2's
worst-case points of the primal solution, and the margins of those points per group of λᵢ.

Records: ``results/shivaswamy2006/dual47`` (``dual47_task``, version 1).
"""
from __future__ import annotations

import numpy as np

from .. import ledger
from ..engine import grid
from ._shared import PAPER

LABEL = "shivaswamy2006 §7.1"
EXPERIMENT = "dual47"
VERSION = 1
SETTINGS = {"quick": dict(n=60), "paper": dict(n=60)}
#: Tolerances of the readings, fixed before looking (Clarabel's default accuracy is about 1e-8).
TOL = {"gap": 1e-6, "w": 1e-4, "b": 1e-4, "norm": 1e-6, "points": 1e-3, "touch": 1e-5, "beyond": 1e-6, "bound": 1e-5}
ALGORITHM = "robust_svm_w (44) and robust_svm_dual (47), Clarabel via cvxpy; worst_case_points (Lemma 2)"
#: λ groups: beyond the margin (0), touching it (0, 1), at the bound (1).
GROUPS = ("0 (beyond the margin)", "(0, 1) (touching)", "1 (bound)")


def dual47_task(n=60, gamma=1.5, frac=0.6, seed=0):
    """Primal (44) and dual (47) on the same data, and the quantities of §7.1's readings (module docstring)."""
    from ...shivaswamy2006 import robust_svm, robust_svm_dual, robust_svm_w, worst_case_points

    rng = np.random.default_rng([seed, 47])
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    X = rng.standard_normal((n, 2)) + y[:, None]
    S = []
    for _ in range(n):
        if rng.uniform() < frac:
            A = rng.standard_normal((2, int(rng.integers(1, 3)))) * 0.4
            S.append(A @ A.T)
        else:
            S.append(None)
    W = float(np.linalg.norm(robust_svm(X, y, S, gamma=gamma, C=1.0).w))
    primal = robust_svm_w(X, y, S, gamma=gamma, W=W)
    dual = robust_svm_dual(X, y, S, gamma=gamma, W=W)
    wc = worst_case_points(primal.w, X, y, S, gamma)
    margin = y * (wc @ primal.w + primal.b)  # y_i f at the worst-case point of each ellipsoid
    has_u = np.array([u is not None for u in dual.u])  # u_i defined: an ellipsoid and lambda_i > 0
    return {"W": W, "primal_objective": float(primal.objective), "dual_objective": float(dual.objective),
            "w_primal": primal.w.tolist(), "w_dual": dual.w.tolist(), "b_primal": float(primal.b),
            "b_dual": float(dual.b), "delta": float(dual.delta), "lam": dual.lam.tolist(),
            "margin_wc": margin.tolist(), "ellipsoid": [s is not None for s in S],
            "point_error": float(np.max(np.abs(dual.points[has_u] - wc[has_u]))) if has_u.any() else 0.0,
            "n_points": int(has_u.sum()), "primal_success": bool(primal.success),
            "dual_success": bool(dual.success)}


TASK = dual47_task


def tasks(scale="paper", seed=0):
    """One task."""
    return grid(n=[SETTINGS[scale]["n"]], gamma=[1.5], frac=[0.6], seed=[seed])


def records(root=None, scale="paper", seed=0):
    """The task's record (a one-element list; None where it is not cached)."""
    from ..artefact import load

    return load(__import__(__name__, fromlist=["_"]), root, scale, seed)


def _groups(r):
    lam = np.array(r["lam"])
    return {GROUPS[0]: lam < 1e-6, GROUPS[1]: (lam > 1e-4) & (lam < 1 - 1e-4), GROUPS[2]: lam > 1 - 1e-4}


def numbers(records):
    """The checks of the readings (a dict of values) and the margins per group of λ (a DataFrame, ``"groups"``)."""
    import pandas as pd

    if not records or records[0] is None:
        return {}
    r = records[0]["result"]
    gr = _groups(r)
    m = np.array(r["margin_wc"])
    ell = np.array(r["ellipsoid"])
    lam = np.array(r["lam"])
    crossing = m < 1 - 1e-4
    table = pd.DataFrame({
        "λ": list(gr), "patterns": [int(g.sum()) for g in gr.values()],
        "with ellipsoid": [int((g & ell).sum()) for g in gr.values()],
        "min y f(x_wc)": [float(m[g].min()) if g.any() else np.nan for g in gr.values()],
        "max y f(x_wc)": [float(m[g].max()) if g.any() else np.nan for g in gr.values()]})
    free, zero = gr[GROUPS[1]], gr[GROUPS[0]]
    return {
        "primal": r["primal_objective"], "dual": r["dual_objective"],
        "gap": abs(r["primal_objective"] - r["dual_objective"]),
        "w_error": float(np.max(np.abs(np.array(r["w_dual"]) - np.array(r["w_primal"])))),
        "b_error": abs(r["b_dual"] - r["b_primal"]), "delta": r["delta"],
        "norm_error": abs(float(np.linalg.norm(r["w_primal"])) - r["W"]), "point_error": r["point_error"],
        "touch_error": float(np.max(np.abs(m[free] - 1))) if free.any() else np.nan,
        "beyond_error": float(max(0.0, np.max(1 - m[zero]))) if zero.any() else 0.0,
        "bound_error": float(max(0.0, np.max(1 - lam[crossing]))) if crossing.any() else 0.0,
        "n_touch": int(free.sum()), "n_touch_ellipsoid": int((free & ell).sum()), "n_zero": int(zero.sum()),
        "n_one": int(gr[GROUPS[2]].sum()), "n_cross": int(crossing.sum()), "groups": table}


def claims(records):
    """Strong duality with (49), and the KKT readings of (48)."""
    common = dict(paper=PAPER, artefact=LABEL, condition="synthetic 2-D data, γ = 1.5, ‖w‖ ≤ W binding",
                  paper_value="derived (no experiment)", algorithm=ALGORITHM)
    duality = dict(id="sec7-1-duality", where="§7.1, (47), (49)",
                   statement=("The primal (44) and the dual (47) share their optimum, and w is recovered from the "
                              "dual variables by (49)."))
    kkt = dict(id="sec7-1-kkt", where="§7.1, (48)",
               statement=("The dual picks each ellipsoid's worst-case point; ellipsoids with 0 < λᵢ < 1 touch the "
                          "margin and those crossing it have λᵢ = 1."))
    n = numbers(records)
    if not n:
        return [ledger.Claim(**common, **duality, **ledger.not_run(1, 1)),
                ledger.Claim(**common, **kkt, **ledger.not_run(1, 1))]
    r = records[0]["result"]
    cert = int(r["primal_success"]) + int(r["dual_success"])
    scale = max(1.0, abs(n["primal"]))

    def verdict(parts):
        return "inconclusive" if cert < 2 else ("reproduced" if all(parts) else "not reproduced")

    p1 = [n["gap"] <= TOL["gap"] * scale, n["w_error"] <= TOL["w"], n["b_error"] <= TOL["b"], n["delta"] > 0,
          n["norm_error"] <= TOL["norm"]]
    p2 = [n["point_error"] <= TOL["points"], n["n_touch"] > 0, n["touch_error"] <= TOL["touch"],
          n["beyond_error"] <= TOL["beyond"], n["bound_error"] <= TOL["bound"]]
    tol = ", ".join(f"{k} {v:g}" for k, v in TOL.items())
    return [
        ledger.Claim(**common, **duality, verdict=verdict(p1), our_value=float(n["gap"]), interval=None, n_runs=2,
                     n_certified=cert, rule=f"every reading within its tolerance fixed beforehand ({tol})",
                     note=(f"Primal optimum {n['primal']:.6f}, dual optimum {n['dual']:.6f}: gap {n['gap']:.1e} "
                           f"(our value); w by (49) within {n['w_error']:.1e} of the primal w, b (the multiplier "
                           f"of (47b)) within {n['b_error']:.1e}; δ = {n['delta']:.3f} > 0 and ‖w‖ − W = "
                           f"{n['norm_error']:.1e}. Both solver statuses are stored (certified: {cert} of 2).")),
        ledger.Claim(**common, **kkt, verdict=verdict(p2), our_value=float(n["point_error"]), interval=None,
                     n_runs=2, n_certified=cert, rule=f"every reading within its tolerance fixed beforehand ({tol})",
                     note=(f"The dual's points agree with Lemma 2's worst-case points within {n['point_error']:.1e} "
                           f"(our value; {r['n_points']} ellipsoids with λ > 0); {n['n_touch']} patterns with "
                           f"0 < λ < 1 ({n['n_touch_ellipsoid']} with an ellipsoid) touch the margin within "
                           f"{n['touch_error']:.1e}; the {n['n_zero']} with λ = 0 lie beyond it (shortfall "
                           f"{n['beyond_error']:.1e}); all {n['n_cross']} that cross it are among the {n['n_one']} "
                           f"with λ = 1 (shortfall {n['bound_error']:.1e}).")),
    ]
