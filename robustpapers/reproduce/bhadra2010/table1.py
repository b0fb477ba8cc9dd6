"""bhadra2010 Table 1: cross-validation accuracy of the six RSVM classifiers and the nominal SVM (bhadra2010 §5.1.1).

Judged on the paper-scale records of ``table1_task`` (20 synthetic data sets of 2 x 100 points, 3 noise
models, 5 stratified folds, the paper's grid C in {0.1, 1, 5, 10, 50, 100} x eps in {0.05, ..., 0.45},
5 QN starts; 300 tasks). Every comparison is paired over the 20 data sets x 5 folds (100 pairs per noise
model). The grid point of a classifier on a held-out fold is chosen on the other four folds of the same data
set (lowest mean error of the metric at hand; ties go to the first grid point, C then eps ascending), so no
hyper-parameter is chosen on the fold that scores it. The paper's own protocol (the best grid point per data
set on the mean over all five folds, which chooses on the scoring folds) gives the table's cells; they are
quoted in each claim's note.

Claims, per noise model:

* each robust classifier (both families, RSVM and RSVM^(g), each solver) against the SVM on RobustErr
  ("in terms of RobustErr, SVM performs very badly"; QP "intermediate", QN "follows closely");
* each family's SOCP against the SVM on MajErr and NomErr ("either RSVM_SOCP or RSVM^(g)_SOCP perform best
  in terms of all the error measures");
* the SVM's RobustErr accuracy against the paper's 5-25 % (a target, ±10 points);
* within each family, QN follows the SOCP closely (RobustErr accuracy difference inside ±2 points, twice the
  paper's largest gap) and QP is "intermediate" (below the SOCP);

and under Gaussian noise, RSVM^(g) against RSVM for the SOCP and QN solvers ("RSVM^(g) is found to
perform better than RSVM when the uncertainty is Gaussian"), on RobustErr, where the paper's table shows
the difference (93.70 vs 84.10).
"""
from __future__ import annotations

import numpy as np

from .. import ledger
from . import _common
from ._common import ALGORITHM, NOISE_NAME, NOISES, PAPER, label

LABEL = "bhadra2010 Table 1"
EXPERIMENT = "table1"
VERSION = 3
#: The paper-scale sweep (3.5 CPU hours by the one-task estimate, 14 measured) is computed piecewise.
LONG = True

#: The classifiers in the paper's column order.
ORDER = ("RSVMg_QP", "RSVMg_SOCP", "RSVMg_QN", "RSVM_QP", "RSVM_SOCP", "RSVM_QN", "SVM")
METRICS = ("ME", "RE", "NE")
METRIC_NAME = {"ME": "MajErr", "RE": "RobustErr", "NE": "NomErr"}

#: bhadra2010 Table 1 (accuracy %, ME / RE / NE), rows in :data:`ORDER` (the extracted table lost its row labels;
#: read in the header's order, as the book's Deviations say).
PAPER_TABLE1 = {
    "uniform": [(94.60, 52.60, 80.30), (96.15, 93.30, 95.94), (95.55, 92.85, 95.50), (95.30, 74.20, 83.20),
                (96.60, 95.20, 95.60), (95.60, 94.60, 95.60), (87.70, 18.65, 58.79)],
    "gaussian": [(95.45, 55.15, 74.27), (96.35, 93.70, 95.18), (95.95, 92.70, 94.92), (94.50, 64.30, 80.45),
                 (95.60, 84.10, 94.80), (95.70, 84.10, 94.65), (71.95, 24.75, 52.69)],
    "beta0.5": [(95.20, 47.45, 79.22), (96.15, 91.45, 95.91), (95.60, 91.35, 95.48), (95.35, 75.50, 85.35),
                (96.20, 94.30, 96.20), (95.95, 93.85, 95.95), (86.75, 5.20, 57.25)],
}

#: Tolerance of the target claim on the SVM's RobustErr accuracy (points of accuracy).
SVM_RE_TOL = 10.0
#: Margin of "QN follows the SOCP closely" (points of accuracy): twice the paper's largest QN-SOCP gap (1.0).
CLOSE_MARGIN = 2.0


def paper_value(noise, clf, metric):
    """The paper's Table 1 cell (accuracy, %)."""
    return PAPER_TABLE1[noise][ORDER.index(clf)][METRICS.index(metric)]


def _settings():
    from .experiments import PAPER_SCALE

    quick = dict(PAPER_SCALE, n_data_table=1, n_per_class=20, n_samples=50, n_starts_table=2, n_folds=3, Cs=[10.0],
                 epss=[0.1, 0.3])
    return {"quick": quick, "paper": PAPER_SCALE}


#: The sizes of each scale: "paper" is bhadra2010 §5.1.1's (20 data sets of 2 x 100 points, 100 sampled kernels,
#: 5 folds, C in {0.1, 1, 5, 10, 50, 100} x eps in {0.05, ..., 0.45}; 5 QN starts, see the page's Deviations).
SETTINGS = _settings()


def tasks(scale="paper", seed=0):
    """The ``table1_task`` parameters at ``scale`` (300 at paper scale: data sets x noises x folds)."""
    from .experiments import sweep_tasks

    if scale not in SETTINGS:
        raise ValueError(f"scale must be one of {sorted(SETTINGS)}, got {scale!r}")
    return sweep_tasks("table1", SETTINGS[scale], seed)[1]


def _task():
    from .experiments import table1_task

    return table1_task


def __getattr__(name):  # TASK without importing the experiments at module import (the ledger reads records only)
    if name == "TASK":
        return _task()
    raise AttributeError(name)


def records(root=None, scale="paper", seed=0):
    """The records of ``table1_task`` at ``scale`` (300 at paper scale when complete)."""
    if scale not in SETTINGS:
        raise ValueError(f"scale must be one of {sorted(SETTINGS)}, got {scale!r}")
    S = SETTINGS[scale]
    return _common.records(EXPERIMENT, root, where=dict(n_per_class=S["n_per_class"], n_samples=S["n_samples"],
                                                        seed=seed, n_folds=S["n_folds"], n_starts=S["n_starts_table"]))


def _grid(rec, clf):
    p = rec["params"]
    eps = [0.0] if clf == "SVM" else p["epss"]
    return [(float(C), float(e)) for C in p["Cs"] for e in eps]


def arrays(recs):
    """The records as arrays: per noise, ``err[metric][clf]`` of shape (data sets, folds, grid points) in %,
    ``conv[clf]`` (QN only: the best start converged) and the data set ids; NaN where a task is missing."""
    if not recs:
        return {}
    datasets = sorted({r["params"]["dataset"] for r in recs})
    n_folds = recs[0]["params"]["n_folds"]
    out = {}
    for noise in NOISES:
        sub = [r for r in recs if r["params"]["noise"] == noise]
        err = {m: {c: np.full((len(datasets), n_folds, len(_grid(recs[0], c))), np.nan) for c in ORDER}
               for m in METRICS}
        conv = {c: np.zeros((len(datasets), n_folds, len(_grid(recs[0], c))), bool) for c in ORDER if "QN" in c}
        for r in sub:
            d, k, res = datasets.index(r["params"]["dataset"]), r["params"]["fold"], r["result"]
            for c in ORDER:
                for g, (C, e) in enumerate(_grid(r, c)):
                    for m in METRICS:
                        err[m][c][d, k, g] = res[f"{m}|{c}|{C}|{e}"]
                    if c in conv:
                        conv[c][d, k, g] = bool(res[f"conv|{c}|{C}|{e}"])
        out[noise] = {"err": err, "conv": conv, "datasets": datasets, "n_tasks": len(sub)}
    return out


def nested(err, conv=None):
    """Held-out error of each (data set, fold) at the grid point chosen on the other folds of the data set.

    Parameters
    ----------
    err : ndarray, shape (data sets, folds, grid points)
    conv : ndarray of bool, same shape, optional
        Whether each fit met its certificate.

    Returns
    -------
    held_out : ndarray, shape (data sets, folds)
    certified : ndarray of bool, shape (data sets, folds)
        Whether the fit at the chosen grid point on the held-out fold met its certificate.
    """
    err = np.asarray(err, dtype=float)
    if err.ndim != 3 or err.shape[1] < 2:
        raise ValueError(f"err must have shape (data sets, folds >= 2, grid points), got {err.shape}")
    n_data, n_folds, _ = err.shape
    rows = np.arange(n_data)
    held, ok = np.empty((n_data, n_folds)), np.ones((n_data, n_folds), bool)
    for k in range(n_folds):
        others = np.delete(err, k, axis=1)
        # rounded so that equal means tie exactly; argmin takes the first grid point among ties
        score = np.round(np.nanmean(others, axis=1), 9)
        score = np.where(np.isnan(score), np.inf, score)
        g = np.argmin(score, axis=1)
        held[:, k] = err[rows, k, g]
        if conv is not None:
            ok[:, k] = np.asarray(conv)[rows, k, g]
    return held, ok


def paper_protocol(err):
    """The paper's cell: per data set the lowest fold-mean error over the grid, 100 minus its mean over data sets."""
    return float(100 - np.nanmean(np.nanmin(np.nanmean(err, axis=1), axis=1)))


def _pair(A, noise, metric, better, worse, margin=None):
    """Paired accuracy differences ``better - worse`` (= error of worse - error of better) over data sets x folds,
    with certificates and run counts; judged by :func:`ledger.paired`, or by :func:`ledger.equivalent` with
    ``margin``."""
    eb, ob = nested(A["err"][metric][better], A["conv"].get(better))
    ew, ow = nested(A["err"][metric][worse], A["conv"].get(worse))
    ok = ob & ow
    if margin is None:
        out = ledger.paired((ew - eb).ravel(), certified=ok.ravel())
    else:
        out = ledger.equivalent((ew - eb).ravel(), margin, certified=ok.ravel())
    out["n_runs"] = int(2 * ok.size)
    out["n_certified"] = int(ob.sum() + ow.sum())
    out["rule"] += ("; pairs = data sets x folds; each fold's grid point chosen on the other four folds "
                    "(lowest mean error, ties to the first grid point)")
    return out, int((~ok).sum())


def _qn_note(A, clfs):
    notes = []
    for c in clfs:
        if c in A["conv"]:
            conv = A["conv"][c]
            notes.append(f"{int((~conv).sum())} of {conv.size} {label(c)} fits over the grid did not converge "
                         "within DFP's cap (the records' conv flags)")
    return "; ".join(notes)


def for_page(scale="quick", seed=0, n_jobs=1, root=None):
    """The records the page shows at ``scale`` (computed first unless ``scale="paper"``): :func:`records`."""
    return _common.compute_or_read((EXPERIMENT,), SETTINGS, records, scale, seed, n_jobs, root)


def claims(records):
    """The claims of Table 1 (see the module docstring)."""
    A_all = arrays(records)
    out = []
    base = dict(paper=PAPER, where="Table 1", artefact=LABEL)
    n_expected = 100  # 20 data sets x 5 folds per noise model
    for noise in NOISES:
        A = A_all.get(noise)
        name = NOISE_NAME[noise]
        missing = n_expected - (A["n_tasks"] if A else 0)
        # each robust classifier against the SVM: RobustErr (all six), MajErr and NomErr (the SOCPs)
        comps = [(c, "RE") for c in ORDER[:-1]] + [(c, m) for c in ("RSVM_SOCP", "RSVMg_SOCP") for m in ("ME", "NE")]
        for clf, metric in comps:
            cid = f"t1-{metric.lower()}-{clf.lower().replace('_', '-')}-vs-svm-{noise}"
            stmt = (f"{label(clf)} has a higher {METRIC_NAME[metric]} cross-validation accuracy than the nominal SVM "
                    f"under {name} noise")
            pv = f"{paper_value(noise, clf, metric):.2f} vs {paper_value(noise, 'SVM', metric):.2f}"
            if A is None or missing:
                out.append(ledger.Claim(id=cid, statement=stmt, condition=f"{name} noise, {METRIC_NAME[metric]}",
                                        paper_value=pv, algorithm=f"{ALGORITHM[clf]}; SVM: {ALGORITHM['SVM']}",
                                        **base, **_common.not_run(missing, n_expected)))
                continue
            res, n_bad = _pair(A, noise, metric, clf, "SVM")
            ours = (f"{paper_protocol(A['err'][metric][clf]):.2f} vs "
                    f"{paper_protocol(A['err'][metric]['SVM']):.2f}")
            note = (f"Our value: mean paired accuracy difference ({label(clf)} minus SVM, points) over "
                    f"{len(A['datasets'])} data sets x 5 folds. The paper's protocol (best grid point per data set "
                    f"on all five folds, averaged over data sets) gives {ours} here against the paper's {pv}.")
            if "QN" in clf:
                note += (f" Pairs dropped because the chosen QN fit did not converge: {n_bad}; "
                         + _qn_note(A, [clf]) + ".")
            else:
                note += " The records store no SOCP or LIBSVM status: those runs count as certified."
            out.append(ledger.Claim(id=cid, statement=stmt, condition=f"{name} noise, {METRIC_NAME[metric]}",
                                    paper_value=pv, algorithm=f"{ALGORITHM[clf]}; SVM: {ALGORITHM['SVM']}",
                                    note=note, **base, **res))
        # the SVM's RobustErr accuracy: a target
        cid = f"t1-svm-re-level-{noise}"
        stmt = f"the nominal SVM's RobustErr cross-validation accuracy is very low under {name} noise"
        goal = paper_value(noise, "SVM", "RE")
        if A is None or missing:
            out.append(ledger.Claim(id=cid, statement=stmt, condition=f"{name} noise, RobustErr", paper_value=goal,
                                    algorithm=ALGORITHM["SVM"], **base, **_common.not_run(missing, n_expected)))
        else:
            e = A["err"]["RE"]["SVM"]
            res = ledger.target(paper_protocol(e), goal, SVM_RE_TOL, kind="abs", n_runs=int(np.isfinite(e).sum()))
            res["rule"] += " (±10 points of accuracy; the paper's protocol: best grid point per data set)"
            at10 = 100 - float(np.nanmean(e[:, :, list(_grid(records[0], "SVM")).index((10.0, 0.0))]))
            out.append(ledger.Claim(
                id=cid, statement=stmt, condition=f"{name} noise, RobustErr", paper_value=goal,
                algorithm=ALGORITHM["SVM"], **base, **res,
                note=(f"Our value: the paper's protocol (best grid point per data set, averaged over data sets). "
                      f"With C fixed at 10 (the C of the paper's figures) the SVM's RobustErr accuracy is "
                      f"{at10:.2f}. The records store no LIBSVM status: those runs count as certified.")))
    # within each family: QN follows the SOCP closely (RobustErr), QP is intermediate (below the SOCP)
    for noise in NOISES:
        A, name = A_all.get(noise), NOISE_NAME[noise]
        for fam in ("RSVM", "RSVMg"):
            socp, qn, qp = f"{fam}_SOCP", f"{fam}_QN", f"{fam}_QP"
            specs = [
                (f"t1-re-{fam.lower()}-qn-close-to-socp-{noise}", qn, socp, CLOSE_MARGIN,
                 f"{label(qn)} follows {label(socp)} closely in RobustErr accuracy under {name} noise",
                 f"{paper_value(noise, qn, 'RE'):.2f} vs {paper_value(noise, socp, 'RE'):.2f}"),
                (f"t1-re-{fam.lower()}-qp-below-socp-{noise}", socp, qp, None,
                 f"{label(qp)} is intermediate: a lower RobustErr accuracy than {label(socp)} under {name} noise",
                 f"{paper_value(noise, qp, 'RE'):.2f} vs {paper_value(noise, socp, 'RE'):.2f}"),
            ]
            for cid, a, b, margin, stmt, pv in specs:
                algo = f"{ALGORITHM[a]}; {ALGORITHM[b]}"
                cond = f"{name} noise, RobustErr"
                if A is None or A["n_tasks"] < n_expected:
                    out.append(ledger.Claim(id=cid, statement=stmt, condition=cond, paper_value=pv, algorithm=algo,
                                            **base, **_common.not_run(n_expected - (A["n_tasks"] if A else 0),
                                                                     n_expected)))
                    continue
                res, n_bad = _pair(A, noise, "RE", a, b, margin=margin)
                ours = f"{paper_protocol(A['err']['RE'][a]):.2f} vs {paper_protocol(A['err']['RE'][b]):.2f}"
                note = (f"Our value: mean paired accuracy difference ({label(a)} minus {label(b)}, points) over data "
                        f"sets x folds. The paper's protocol gives {ours} here against the paper's {pv}.")
                if margin is not None:
                    note += (f" The margin ±{margin:g} is twice the paper's largest QN-SOCP gap in Table 1; the paper "
                             "explains QN's lag by local optima (see the §3 claims).")
                note += (f" Pairs dropped because the chosen QN fit did not converge: {n_bad}; "
                         + _qn_note(A, [qn]) + ".") if "QN" in a + b else \
                    " The records store no SOCP or LIBSVM status: those runs count as certified."
                out.append(ledger.Claim(id=cid, statement=stmt, condition=cond, paper_value=pv, algorithm=algo,
                                        note=note, **base, **res))
    # RSVM^(g) against RSVM under Gaussian noise, per solver
    A = A_all.get("gaussian")
    for solver in ("SOCP", "QN"):
        g, fs = f"RSVMg_{solver}", f"RSVM_{solver}"
        cid = f"t1-g-beats-fs-gaussian-re-{solver.lower()}"
        stmt = (f"under Gaussian noise RSVM(g) is better than RSVM: {label(g)} has a higher RobustErr accuracy "
                f"than {label(fs)}")
        pv = f"{paper_value('gaussian', g, 'RE'):.2f} vs {paper_value('gaussian', fs, 'RE'):.2f}"
        algo = f"{ALGORITHM[g]}; {ALGORITHM[fs]}"
        if A is None or A["n_tasks"] < n_expected:
            out.append(ledger.Claim(id=cid, statement=stmt, condition="Gaussian noise, RobustErr", paper_value=pv,
                                    algorithm=algo, **base,
                                    **_common.not_run(n_expected - (A["n_tasks"] if A else 0), n_expected)))
            continue
        res, n_bad = _pair(A, "gaussian", "RE", g, fs)
        ours = f"{paper_protocol(A['err']['RE'][g]):.2f} vs {paper_protocol(A['err']['RE'][fs]):.2f}"
        note = (f"Our value: mean paired accuracy difference ({label(g)} minus {label(fs)}, points) over data sets x "
                f"folds. The paper's protocol gives {ours} here against the paper's {pv}. Judged on RobustErr, where "
                "the paper's table shows the difference (its MajErr and NomErr cells differ by under 1 point, and "
                "its QP pair goes the other way).")
        if solver == "QN":
            note += (f" Pairs dropped because a chosen QN fit did not converge: {n_bad}; "
                     + _qn_note(A, [g, fs]) + ".")
        else:
            note += " The records store no SOCP status: those runs count as certified."
        out.append(ledger.Claim(id=cid, statement=stmt, condition="Gaussian noise, RobustErr", paper_value=pv,
                                algorithm=algo, note=note, **base, **res))
    return out


def _mean_ci(x):
    """Mean and 95 % t half-width of the finite entries of ``x``."""
    from scipy import stats

    x = np.asarray(x, float).ravel()
    x = x[np.isfinite(x)]
    if x.size < 2:
        return (float(x.mean()) if x.size else float("nan")), float("nan")
    return float(x.mean()), float(stats.t.ppf(0.975, x.size - 1) * x.std(ddof=1) / np.sqrt(x.size))


def numbers(records):
    """What the page shows of Table 1.

    Returns a dict: ``table`` (rows noise x metric, columns the classifiers in the paper's order; each cell
    "paper / ours ± h": ours the mean held-out accuracy over data sets x folds, each fold's grid point chosen
    on the other folds, h the half-width of its 95 % t-interval; QN pairs whose chosen fit did not converge
    left out), ``paper_protocol`` (the same cells by the paper's protocol, best grid point per data set on all
    folds), ``diff`` (per noise and classifier, the paired RobustErr accuracy difference to the SVM: mean and
    95 % interval), ``diff_table`` (the same as "mean [low, high]", classifiers x noise models), ``qn`` (QN
    fits that did not converge, per classifier and noise, and in all), ``n_datasets``, ``n_folds`` and
    ``n_tasks``.
    """
    import pandas as pd

    A_all = arrays(records)
    if not A_all:
        return {"table": pd.DataFrame(), "paper_protocol": pd.DataFrame(), "diff": pd.DataFrame(),
                "diff_table": pd.DataFrame(),
                "qn": pd.DataFrame(), "qn_total": (0, 0), "n_datasets": 0, "n_folds": 0, "n_tasks": 0}
    rows, prot, diffs, qn = [], [], [], []
    for noise in NOISES:
        A = A_all[noise]
        for metric in METRICS:
            row = {"noise": NOISE_NAME[noise], "metric": METRIC_NAME[metric]}
            prow = dict(row)
            for c in ORDER:
                held, ok = nested(A["err"][metric][c], A["conv"].get(c))
                m, h = _mean_ci(np.where(ok, 100 - held, np.nan))
                row[label(c)] = f"{paper_value(noise, c, metric):.2f} / {m:.2f} ± {h:.2f}"
                prow[label(c)] = f"{paper_value(noise, c, metric):.2f} / {paper_protocol(A['err'][metric][c]):.2f}"
            rows.append(row)
            prot.append(prow)
        for c in ORDER[:-1]:
            res, n_bad = _pair(A, noise, "RE", c, "SVM")
            lo, hi = res["interval"] if res.get("interval") else (np.nan, np.nan)
            diffs.append({"noise": NOISE_NAME[noise], "classifier": label(c), "mean": res["our_value"],
                          "low": lo, "high": hi, "pairs": int(A["err"]["RE"][c][..., 0].size - n_bad),
                          "verdict": res["verdict"]})
        for c in ORDER:
            if c in A["conv"]:
                conv = A["conv"][c]
                qn.append({"noise": NOISE_NAME[noise], "classifier": label(c), "fits": int(conv.size),
                           "not converged": int((~conv).sum())})
    qn = pd.DataFrame(qn)
    datasets = A_all[NOISES[0]]["datasets"]
    diffs = pd.DataFrame(diffs)
    # rows the classifiers, columns the noise models: "mean [low, high]"
    cells = diffs.assign(cell=[f"{m:.2f} [{a:+.2f}, {b:+.2f}]" for m, a, b in zip(diffs["mean"], diffs.low, diffs.high)])
    return {"table": pd.DataFrame(rows).set_index(["noise", "metric"]),
            "paper_protocol": pd.DataFrame(prot).set_index(["noise", "metric"]),
            "diff": diffs, "diff_table": cells.pivot(index="classifier", columns="noise", values="cell"), "qn": qn,
            "qn_total": (int(qn["not converged"].sum()), int(qn["fits"].sum())),
            "n_datasets": len(datasets), "n_folds": int(records[0]["params"]["n_folds"]),
            "n_tasks": sum(A["n_tasks"] for A in A_all.values())}


def by_C(records):
    """The ablation of the tuned C (from the Table 1 records, nothing recomputed).

    Returns a dict: ``levels`` (rows noise x classifier, columns C: RobustErr accuracy by the paper's protocol
    with C held at that value, eps still chosen per data set) and ``fixed`` (per noise, C held at 10, the
    C of the paper's figures: each SOCP's paired RobustErr accuracy difference to the SVM over data sets x
    folds, eps chosen on the other folds; mean, 95 % interval, and the held-out accuracies) with ``fixed_table``,
    the same as the page shows it (the interval as text, rounded).
    """
    import pandas as pd

    A_all = arrays(records)
    if not A_all:
        return {"levels": pd.DataFrame(), "fixed": pd.DataFrame(), "fixed_table": pd.DataFrame()}
    Cs = [float(C) for C in records[0]["params"]["Cs"]]
    n_eps = len(records[0]["params"]["epss"])
    levels, fixed = [], []
    for noise in NOISES:
        A = A_all[noise]
        for c in ("SVM", "RSVM_SOCP", "RSVMg_SOCP"):
            e = A["err"]["RE"][c]
            row = {"noise": NOISE_NAME[noise], "classifier": label(c)}
            for i, C in enumerate(Cs):
                sl = slice(i, i + 1) if c == "SVM" else slice(i * n_eps, (i + 1) * n_eps)
                row[f"C = {C:g}"] = paper_protocol(e[:, :, sl])
            levels.append(row)
        if 10.0 in Cs:
            i = Cs.index(10.0)
            svm, _ = nested(A["err"]["RE"]["SVM"][:, :, i:i + 1])
            for c in ("RSVM_SOCP", "RSVMg_SOCP"):
                held, _ = nested(A["err"]["RE"][c][:, :, i * n_eps:(i + 1) * n_eps])
                res = ledger.paired((svm - held).ravel())
                fixed.append({"noise": NOISE_NAME[noise], "classifier": label(c), "RSVM accuracy": 100 - held.mean(),
                              "SVM accuracy": 100 - svm.mean(), "difference": res["our_value"],
                              "low": res["interval"][0], "high": res["interval"][1]})
    fixed = pd.DataFrame(fixed)
    shown = (fixed.assign(interval=[f"[{a:+.1f}, {b:+.1f}]" for a, b in zip(fixed.low, fixed.high)])
             .set_index(["noise", "classifier"])[["RSVM accuracy", "SVM accuracy", "difference", "interval"]].round(1)
             if len(fixed) else pd.DataFrame())
    return {"levels": pd.DataFrame(levels).set_index(["noise", "classifier"]), "fixed": fixed, "fixed_table": shown}
