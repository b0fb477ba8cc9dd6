"""shivaswamy2006 Fig. 1 (§3.3): three uncertainty ellipsoids and one hyperplane, and their worst-case and expected errors.

§3.3 reads the errors of an uncertain test pattern off the position of its ellipsoid
E(x̄, Σ, γ) relative to the hyperplane: entirely on the correct side, worst-case and expected error 0;
entirely on the wrong side, both 1; cut by the hyperplane, worst-case error 1 and an expected error
strictly between 0 and 1 (for a uniform distribution on the ellipsoid, the wrong side's share of its
volume). One task computes a hyperplane (``robust_svm`` at γ = 0 on 2-D data), places three ellipsoids of
class +1 relative to it, and computes the three errors in closed form (``classification_errors``) and the
expected error by sampling (``expected_error_mc``), which must agree within three standard errors.

Records: ``results/shivaswamy2006/fig1`` (``fig1_task``, version 1).
"""
from __future__ import annotations

import numpy as np

from .. import ledger
from ..engine import grid
from ._shared import PAPER

LABEL = "shivaswamy2006 Fig. 1"
EXPERIMENT = "fig1"
VERSION = 1
SETTINGS = {"quick": dict(n_samples=20000), "paper": dict(n_samples=20000)}
#: Signed distances of the three centres from the hyperplane (correct side, wrong side, cut).
OFFSETS = (2.0, -2.0, 0.4)
SCENARIOS = ("entirely correct side", "entirely wrong side", "cut by the hyperplane")
ALGORITHM = ("robust_svm (γ = 0, C = 10, Clarabel via cvxpy); classification_errors (closed form); "
             "expected_error_mc (sampling)")


def fig1_task(gamma=1.5, C=10.0, n_samples=20000, seed=0):
    """The hyperplane, the three ellipsoids and their errors (see the module docstring)."""
    from ...shivaswamy2006 import classification_errors, expected_error_mc, robust_svm

    rng = np.random.default_rng(seed)
    n = 12
    y = np.r_[np.ones(n), -np.ones(n)]
    X = np.r_[rng.normal([1.6, 0.4], 0.5, (n, 2)), rng.normal([-1.6, -0.4], 0.5, (n, 2))]
    base = robust_svm(X, y, None, gamma=0.0, C=C)
    nw = float(np.linalg.norm(base.w))
    u = base.w / nw
    t = np.array([-u[1], u[0]])
    # each centre at its signed distance s from the hyperplane, spread along it so that the ellipses do not overlap
    centres = []
    for s, k in zip(OFFSETS, (1, -1, 0)):
        c = s * u + 1.5 * k * t
        centres.append(c - ((base.w @ c + base.b) / nw - s) * u)
    centres = np.array(centres)
    S = np.array([[0.6, 0.25], [0.25, 0.3]])
    e = classification_errors(base.w, base.b, centres, np.ones(3), [S] * 3, gamma)
    mc = expected_error_mc(base.w, base.b, centres, np.ones(3), [S] * 3, gamma, n_samples=n_samples,
                           random_state=seed)
    return {"w": base.w.tolist(), "b": float(base.b), "success": bool(base.success),
            "solver_status": str(base.solver_status), "centres": centres.tolist(), "Sigma": S.tolist(),
            "gamma": float(gamma), "worst_case": [float(v) for v in e["worst_case"]],
            "expected": [float(v) for v in e["expected"]], "expected_mc": [float(v) for v in mc],
            "n_samples": int(n_samples)}


TASK = fig1_task


def tasks(scale="paper", seed=0):
    """One task."""
    return grid(gamma=[1.5], C=[10.0], n_samples=[SETTINGS[scale]["n_samples"]], seed=[seed])


def records(root=None, scale="paper", seed=0):
    """The task's record (a one-element list; None where it is not cached)."""
    from ..artefact import load

    return load(__import__(__name__, fromlist=["_"]), root, scale, seed)


def numbers(records):
    """The three scenarios: worst-case error, expected error (closed form and sampled) and the sampling's standard
    error, as a DataFrame (empty when the record is not cached)."""
    import pandas as pd

    r = records[0]["result"] if records and records[0] is not None else None
    if r is None:
        return pd.DataFrame()
    p = np.array(r["expected"])
    return pd.DataFrame({"ellipsoid": SCENARIOS, "signed distance": OFFSETS, "worst-case error": r["worst_case"],
                         "expected error": p, "expected error (sampled)": r["expected_mc"],
                         "standard error": np.sqrt(p * (1 - p) / r["n_samples"])})


def _ellipse(ax, c, S, g, **kw):
    from matplotlib.patches import Ellipse

    ev, V = np.linalg.eigh(np.asarray(S))
    ang = np.degrees(np.arctan2(V[1, 1], V[0, 1]))
    ax.add_patch(Ellipse(c, 2 * g * np.sqrt(ev[1]), 2 * g * np.sqrt(ev[0]), angle=ang, **kw))


def _line(ax, w, b, lim, **kw):
    xs = np.linspace(*lim, 2)
    ax.plot(xs, -(w[0] * xs + b) / w[1], **kw)


def draw(records):
    """Fig. 1: the three ellipsoids, the hyperplane, and (shaded) uniform points of the cut ellipsoid that lie on
    the wrong side."""
    import matplotlib.pyplot as plt

    from ...plotting import METHOD_COLORS

    r = records[0]["result"]
    w, b, S, g = np.array(r["w"]), r["b"], np.array(r["Sigma"]), r["gamma"]
    fig, ax = plt.subplots(figsize=(5.5, 4.5))
    for c, lab in zip(r["centres"], SCENARIOS):
        _ellipse(ax, c, S, g, fill=False, lw=1.5, color=METHOD_COLORS["socp"])
        ax.annotate(lab, c, ha="center", va="center", fontsize=8)
    # illustration only: uniform points of the cut ellipsoid, the wrong-side ones shaded
    rng = np.random.default_rng(records[0]["params"]["seed"])
    z = rng.standard_normal((4000, 2))
    z *= np.sqrt(rng.uniform(size=(4000, 1))) / np.linalg.norm(z, axis=1, keepdims=True)
    pts = np.array(r["centres"][2]) + g * z @ np.linalg.cholesky(S).T
    wrong = pts @ w + b < 0
    ax.scatter(*pts[wrong].T, s=1, color=METHOD_COLORS["robust"], alpha=0.3)
    _line(ax, w, b, (-4, 4), color="k")
    ax.set_xlim(-4, 4)
    ax.set_ylim(-4, 4)
    ax.set_aspect("equal")
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    fig.tight_layout()
    return fig


def claims(records):
    """The three scenarios of §3.3 (one claim)."""
    common = dict(paper=PAPER, id="fig1-scenarios", where="Fig. 1 (§3.3)", artefact=LABEL,
                  condition="three ellipsoids of class +1, γ = 1.5",
                  statement=("An ellipsoid on the correct side has worst-case and expected error 0, one on the wrong "
                             "side 1, and one cut by the hyperplane worst-case error 1 and expected error strictly "
                             "between 0 and 1."),
                  paper_value="0/1/1 (worst case), 0/1/(0, 1) (expected)", algorithm=ALGORITHM)
    if not records or records[0] is None:
        return [ledger.Claim(**common, **ledger.not_run(1, 1))]
    r = records[0]["result"]
    wc, ex, mc = r["worst_case"], r["expected"], r["expected_mc"]
    se = np.sqrt(ex[2] * (1 - ex[2]) / r["n_samples"])
    # every part of the statement, and the closed form against sampling (3 standard errors)
    parts = [wc == [0.0, 1.0, 1.0], ex[0] == 0.0, ex[1] == 1.0, 0.0 < ex[2] < 1.0, abs(mc[2] - ex[2]) <= 3 * se]
    ok = all(parts)
    cert = int(r["success"])
    verdict = "reproduced" if ok and cert else ("inconclusive" if not cert else "not reproduced")
    return [ledger.Claim(
        **common, verdict=verdict, our_value=float(ex[2]), interval=None, n_runs=1, n_certified=cert,
        rule="every part of the statement holds, and the sampled expected error is within 3 standard errors",
        note=(f"Worst-case errors {wc[0]:g}, {wc[1]:g}, {wc[2]:g}; expected errors {ex[0]:g}, {ex[1]:g}, "
              f"{ex[2]:.3f} (closed form; {mc[2]:.3f} from {r['n_samples']} uniform samples, standard error "
              f"{se:.4f}). Our value is the cut ellipsoid's expected error. Solver status of the hyperplane: "
              f"{r['solver_status']}."))]
