"""bental2012 Fig. 3 (§7.3): cross-validation accuracy of USSVM_SOCP, USSVM_MN, RSVM and the nominal SVM.

Judges, on the committed paper-scale tasks (D_G, D_U, D_B; N = 250 per class, L = 200, kappa = 1, R = 100,
10 data sets x 5 folds, C in the paper's grid of 8 values and, for RSVM, eps in its grid of 10):

* every classifier reaches about 90 % accuracy under NominalErr (per classifier and distribution);
* both USSVMs beat the nominal SVM and RSVM under RobustErr, per distribution, paired over the 50
  (data set, fold) pairs;
* the gap to RSVM narrows under MajorityErr (per distribution).

The paper picks C (and eps) by grid search without saying on what. Here the grid point of each (data set, fold)
is the one with the best mean accuracy over the *other four folds* of the same data set, per classifier and
error measure, so no grid point is chosen on the fold it is scored on (the book's figure takes the best grid
point on all folds, which is chosen on the test folds). USSVM_MN's numbers come from the alternating method
(0 FSS steps on every task).

At scale "quick" (one data set per distribution, N = 15 per class, L = 10, two folds, two values of C) the same
claims are judged on the small runs, which :func:`tasks` computes in seconds; with two (data set, fold) pairs per
distribution the paired rules stay inconclusive there.
"""
from __future__ import annotations

import pandas as pd

from ..ledger import Claim, paired, target
from . import _common as C
from .experiments import FIG3_SETTINGS, cv_task, fig3_tasks

__all__ = ["PAPER", "LABEL", "EXPERIMENT", "VERSION", "SETTINGS", "LONG", "tasks", "METHODS", "records",
           "accuracies", "claims", "numbers"]

PAPER = C.PAPER
LABEL = "bental2012 Fig. 3"
EXPERIMENT = "fig3_cv"
VERSION = 4
#: Figs. 3-4's sizes per scale (:data:`~.experiments.FIG3_SETTINGS`).
SETTINGS = FIG3_SETTINGS
#: The paper-size sweep (1200 tasks) is computed piecewise (``scripts/paper_scale.py bental2012 fig3``); a page
#: only reads it, and computes the small runs.
LONG = True
TASK = cv_task


def tasks(scale="paper", seed=0):
    """Figs. 3-4's tasks at ``scale`` (:func:`~.experiments.fig3_tasks`)."""
    if scale not in SETTINGS:
        raise ValueError(f"scale must be one of {list(SETTINGS)}, got {scale!r}")
    return fig3_tasks(SETTINGS[scale], seed)


DISTRIBUTIONS = {"gaussian": "D_G", "uniform": "D_U", "beta": "D_B"}
METHODS = {"socp": "USSVM_SOCP", "mn": "USSVM_MN", "rsvm": "RSVM", "svm": "Nominal-SVM"}
WHERE = {"paper": dict(N=250, L=200, fss_fast=True, rsvm_starts=100), "quick": dict(N=15, L=10)}
#: "an accuracy of 90 %" under NominalErr: within this many points of 90 (fixed beforehand).
NE_TOL = 5.0
_CACHE = {}


def records(root=None, scale="paper", seed=0):
    """The tasks of Figs. 3-4 at ``scale`` as a DataFrame (one row per distribution, data set, fold and C)."""
    return C.cached_frame(_CACHE, EXPERIMENT, WHERE, VERSION, root, scale, seed)


def long_accuracies(df):
    """One row per (method, distribution, data set, fold, C, eps): accuracies 100(1 - Err) and the certificate."""
    keys = ["distribution", "dataset_index", "fold", "C"]
    parts = []
    ok = {"socp": df.socp_status == "optimal", "mn": df.mn_success.astype(bool), "svm": pd.Series(True, df.index)}
    for m in ("socp", "mn", "svm"):
        part = df[keys].copy()
        for meas in ("NE", "ME", "RE"):
            part[meas] = 100.0 * (1.0 - df[f"{m}_{meas}"])
        parts.append(part.assign(method=m, eps=-1.0, ok=ok[m].to_numpy()))
    rs = df[keys + ["eps_grid", "rsvm_success", "rsvm_NE", "rsvm_ME", "rsvm_RE"]].explode(
        ["eps_grid", "rsvm_success", "rsvm_NE", "rsvm_ME", "rsvm_RE"])
    part = rs[keys].copy()
    for meas in ("NE", "ME", "RE"):
        part[meas] = 100.0 * (1.0 - rs[f"rsvm_{meas}"].astype(float))
    parts.append(part.assign(method="rsvm", eps=rs.eps_grid.astype(float), ok=rs.rsvm_success.astype(bool)))
    return pd.concat(parts, ignore_index=True)


def accuracies(records):
    """Per method, error measure, distribution, data set and fold: the accuracy (%) at the grid point chosen on
    the other folds of the data set, and whether that run met its certificate (DataFrame, long form)."""
    if not len(records):
        return pd.DataFrame(columns=["method", "distribution", "dataset_index", "fold", "acc", "ok", "measure"])
    long = long_accuracies(records)
    out = []
    for meas in ("NE", "ME", "RE"):
        sel = C.nested_choice(long.rename(columns={meas: "acc"}), ["method", "distribution", "dataset_index"],
                              ["C", "eps"], "fold")
        out.append(sel.reset_index().assign(measure=meas))
    return pd.concat(out, ignore_index=True)


def _pairs(acc, meas, dist, a, b):
    """Paired differences a - b of one measure on one distribution, over (data set, fold), and certificates."""
    s = acc[(acc.measure == meas) & (acc.distribution == dist)].set_index(["method", "dataset_index", "fold"])
    x, y = s.loc[a], s.loc[b]
    x, y = x.align(y, join="inner", axis=0)
    return x.acc - y.acc, x.ok & y.ok


def numbers(records):
    """The CV accuracy (%) per method, distribution and measure (grid point chosen on the other folds)."""
    acc = accuracies(records)
    table = (acc.groupby(["method", "distribution", "measure"]).acc.mean().unstack("measure") if len(acc) else
             pd.DataFrame(columns=["ME", "NE", "RE"], index=pd.MultiIndex.from_tuples([], names=["method",
                                                                                               "distribution"])))
    return {"accuracy": table, "mn_fss_steps_max": int(records.mn_nit.max()) if len(records) else None}


def claims(records):
    """Fig. 3's claims, per distribution (and, for NominalErr, per classifier)."""
    df = records
    if df.empty:
        return [Claim(PAPER, "fig3-ne-90", "Fig. 3, §7.3", "All formulations reach about 90 % accuracy under "
                      "NominalErr.", "inconclusive", artefact=LABEL, note="no record cached")]
    acc = accuracies(df)
    fast = C.uses_fast(df)
    mn_alg, mn_note = C.mn_algorithm(df.mn_nit, fast), C.mn_note(df.mn_nit, fast)
    alg = {"socp": C.SOCP, "mn": mn_alg, "rsvm": C.RSVM, "svm": C.SVM}
    nested = ("grid point per (data set, fold) chosen on the other four folds of its data set, per classifier and "
              "measure")
    n_rsvm_fail = int(sum(len(v) - sum(bool(x) for x in v) for v in df.rsvm_success))
    n_rsvm = int(sum(len(v) for v in df.rsvm_success))
    out = []
    for m, name in METHODS.items():
        for dist, tag in DISTRIBUTIONS.items():
            s = acc[(acc.method == m) & (acc.measure == "NE") & (acc.distribution == dist)]
            if s.empty:
                continue
            per_ds = s.groupby("dataset_index").acc.mean()
            res = target(float(s.acc.mean()), 90.0, NE_TOL, kind="abs", n_runs=len(s), n_certified=int(s.ok.sum()))
            res["interval"] = C.t_interval(per_ds)
            res["rule"] = (f"mean NominalErr accuracy (%) within ±{NE_TOL:g} points of the paper's 90; interval: "
                           f"95 % t-interval over the {per_ds.size} data sets; {nested}")
            note = f"range over data sets {per_ds.min():.1f}-{per_ds.max():.1f} %."
            if m in ("socp", "mn"):
                note += (" The bias of §4.2 is fitted on the effective (worst-case) kernel while rule (25) scores on "
                         "K-bar alone.")
            elif s.acc.mean() > 90.0 + NE_TOL:
                note += " At this size the synthetic data are almost separable for the nominal rule."
            if m == "mn":
                note += " " + mn_note
            out.append(Claim(PAPER, f"fig3-ne-90-{m}-{tag.lower().replace('_', '')}", "§7.3, Fig. 3",
                             f"{name} reaches an accuracy of about 90 % under NominalErr (on {tag}).",
                             artefact=LABEL, condition=tag, paper_value=90.0, algorithm=alg[m], note=note, **res))
    for m in ("socp", "mn"):
        for other in ("svm", "rsvm"):
            for dist, tag in DISTRIBUTIONS.items():
                d, ok = _pairs(acc, "RE", dist, m, other)
                if d.empty:
                    continue
                res = paired(d, certified=ok)
                res["rule"] = (f"RobustErr accuracy (points), {METHODS[m]} minus {METHODS[other]}; {res['rule']}; "
                               f"{nested}")
                note = f"{int((d > 0).sum())} of {d.size} (data set, fold) pairs ahead, {int((d == 0).sum())} tied."
                if (~ok).sum():
                    note += f" {int((~ok).sum())} pairs left out: a run at the chosen grid point not certified."
                if other == "rsvm":
                    note += f" RSVM: {n_rsvm_fail} of {n_rsvm} quasi-Newton trainings did not converge."
                if m == "mn":
                    note += " " + mn_note
                verb = "beats" if other == "rsvm" else "is more accurate than"
                out.append(Claim(PAPER, f"fig3-re-{m}-beats-{other}-{tag.lower().replace('_', '')}", "§7.3, Fig. 3",
                                 f"{METHODS[m]} {verb} {METHODS[other]} under RobustErr (on {tag}).",
                                 artefact=LABEL, condition=tag, paper_value=f"{METHODS[m]} > {METHODS[other]}",
                                 algorithm=f"{alg[m]}; {alg[other]}", note=note, **res))
    for dist, tag in DISTRIBUTIONS.items():
        d_re, ok_re = _pairs(acc, "RE", dist, "socp", "rsvm")
        d_me, ok_me = _pairs(acc, "ME", dist, "socp", "rsvm")
        if d_re.empty:
            continue
        d_re, d_me = d_re.align(d_me, join="inner")
        ok = (ok_re & ok_me).reindex(d_re.index).fillna(False)
        res = paired(d_re - d_me, certified=ok, runs_per_pair=2)
        res["rule"] = ("(USSVM_SOCP - RSVM under RobustErr) minus (USSVM_SOCP - RSVM under MajorityErr), points; "
                       f"{res['rule']}; {nested}")
        out.append(Claim(PAPER, f"fig3-me-gap-narrows-{tag.lower().replace('_', '')}", "§7.3, Fig. 3",
                         f"Under MajorityErr the gap between USSVM and RSVM narrows (on {tag}).", artefact=LABEL,
                         condition=tag, paper_value="gap(RE) > gap(ME)", algorithm=f"{C.SOCP}; {C.RSVM}",
                         note=f"mean gap under RobustErr {d_re.mean():.2f}, under MajorityErr {d_me.mean():.2f} "
                              "points.", **res))
    opt = df.socp_status == "optimal"
    rel = ((df.mn_objective - df.socp_objective).abs() / df.socp_objective.abs())
    cert = opt & df.mn_success.astype(bool)
    res = target(float(rel.max()), 1e-3, 0.0, kind="at_most", n_runs=2 * len(df), n_certified=2 * int(cert.sum()))
    res["rule"] = "largest relative |F_MN - F_SOCP| over all tasks at most 1e-3 (the gap both are run to)"
    out.append(Claim(PAPER, "fig3-mn-socp-same-optimum", "§7.3", "USSVM_SOCP and USSVM_MN solve the same problem.",
                     artefact=LABEL, paper_value="equal", algorithm=f"{C.SOCP}; {mn_alg}",
                     note=f"{len(df)} tasks; {int((~cert).sum())} with a run not certified. {mn_note}", **res))
    return out


def draw(records):
    """Fig. 3: CV accuracy 100(1 - RE) (left) and 100(1 - ME) (right) per distribution and classifier, at the grid
    point chosen on the other folds; USSVM_MN's legend names the solver that produced it."""
    import matplotlib.pyplot as plt
    import numpy as np

    from ...plotting import METHOD_COLORS

    table = numbers(records)["accuracy"] if len(records) else None
    mn = ("USSVM_MN (alternating method)" if len(records) and int(records.mn_nit.max()) == 0
          else "USSVM_MN (FSS as tuned here)")
    names = {"socp": "USSVM_SOCP (Clarabel)", "mn": mn, "rsvm": "RSVM (quasi-Newton)", "svm": "Nominal-SVM (LIBSVM)"}
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.4), sharey=True)
    dists = list(DISTRIBUTIONS)
    x = np.arange(len(dists))
    for ax, meas in zip(axes, ("RE", "ME")):
        for k, m in enumerate(METHODS):
            vals = [table.loc[(m, d), meas] if table is not None and (m, d) in table.index else np.nan for d in dists]
            ax.bar(x + (k - 1.5) * 0.2, vals, 0.2, color=METHOD_COLORS.get(m), label=names[m])
        ax.set_xticks(x, [DISTRIBUTIONS[d] for d in dists])
        ax.set_title(f"100(1 - {meas})")
        ax.set_ylim(0, 105)
    axes[0].set_ylabel("CV accuracy (%)")
    axes[0].legend(fontsize=7, loc="lower left")
    fig.tight_layout()
    return fig
