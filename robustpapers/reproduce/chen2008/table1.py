"""chen2008 Table 1 with certified Indefinite SVM runs, in the kernel regime of the paper's eigenvalue columns.

Two departures from the first computation (``table1_first``), both fixed before any accuracy was seen:

* **The kernel regime.** For each data set, the perturbation size xi and the Gaussian width
  gamma = g / n_features are chosen on the spectra alone: over the grids of ``benchmarks/chen2008_regime.py``,
  the pair whose perturbed kernel of the whole set (seeds 0, 1, 2) minimises
  ``log(|lambda_min| / |paper lambda_min|)^2 + log(lambda_max / paper lambda_max)^2`` (:data:`REGIME`, with the
  match it achieved). The paper chose the width by cross-validation and calls xi "a small constant"; its
  eigenvalue columns are what it reports, so they are what we match.
* **Certified runs.** The Indefinite SVM (chen2008 eq. (2)) is solved by APG-FW
  (:func:`~robustpapers.chen2008.indefinite_svm_apg`), which certifies its answer with a Frank-Wolfe gap, to
  the paper's absolute stopping gap 1e-5; the paper's Algorithm 1 (:func:`~robustpapers.chen2008.indefinite_svm`,
  with pruning, up to 1,000 iterations) is run on the same training part at the same rho and reported with its
  gap u+ - l-. rho is chosen by 3-fold cross-validation on the training part (APG-FW, every run certified or
  counted), over :data:`RHO_GRID`.
"""
from __future__ import annotations

import time
import warnings

import numpy as np
from sklearn.model_selection import StratifiedKFold

from ...chen2008 import IndefiniteSVC, indefinite_svm, indefinite_svm_apg, perturbed_gaussian_kernel, spectrum_stats
from ...core import ConvergenceWarning
from .. import artefact, ledger
from ..engine import grid
from .experiments import TABLE1_DATASETS, _split

__all__ = ["PAPER", "LABEL", "EXPERIMENT", "VERSION", "TASK", "SETTINGS", "REGIME", "RHO_GRID", "PAPER_TABLE",
           "BASELINES", "BASELINE_NAMES", "ALGORITHMS", "tasks", "table1_certified_task", "records", "claims", "numbers", "certified"]

PAPER = "chen2008"
LABEL = "chen2008 Table 1"
EXPERIMENT = "table1_certified"
VERSION = 1
#: The paper-scale sweep is computed piecewise (scripts/paper_scale.py); the page reads it from the cache.
LONG = True

#: rho tried by the 3-fold cross-validation on the training part (the paper gives no grid).
RHO_GRID = (0.1, 1.0, 10.0, 100.0)
#: The paper's stopping gap (absolute, Sec. 6.2); a run is certified when its gap is at most this.
TOL = 1e-5
#: Tolerance of the eigenvalue-column claims: our mean within 25 % of the paper's value.
SPECTRUM_TOL = 0.25
#: Margin of "comparable to the best" (non-inferiority against every other method), in accuracy points.
MARGIN = 1.0

#: Per data set: xi and g (gamma = g / n_features) chosen on the spectra (benchmarks/chen2008_regime.py:
#: xi in 0.01..2, g in 0.01..5000 by 1-2-5 steps; mnist35, whose best coarse pair missed lambda_max by a factor
#: 2.2, refined to 9 steps of g between 20 and 50), the mean lambda_min / lambda_max over seeds 0-2 they give,
#: and the score (sum of squared log ratios to the paper's values).
REGIME = {
    "sonar": dict(xi=0.1, g=50.0, lambda_min=-1.359, lambda_max=19.22, score=0.0018),
    "ionosphere": dict(xi=1.0, g=20.0, lambda_min=-25.78, lambda_max=110.09, score=0.023),
    "wisconsin": dict(xi=0.1, g=10.0, lambda_min=-3.519, lambda_max=374.91, score=0.0017),
    "heart": dict(xi=0.5, g=10.0, lambda_min=-10.91, lambda_max=48.98, score=0.017),
    "mnist35": dict(xi=0.1, g=33.4, lambda_min=-3.739, lambda_max=69.26, score=0.031),
    "pima": dict(xi=0.15, g=1000.0, lambda_min=-4.852, lambda_max=6.835, score=0.075),
}

_COMMON = dict(rho_grid=list(RHO_GRID), tol=TOL, C=1.0)
SETTINGS = {
    # CI: every data set, 40 points, two splits, a two-point rho grid, Algorithm 1 cut at 20 iterations (seconds)
    "quick": dict(datasets=list(TABLE1_DATASETS), n_splits=2, max_n=40, alg1_max_iter=20, apg_max_iter=5000,
                  regime=REGIME, **dict(_COMMON, rho_grid=[1.0, 10.0])),
    # the paper: 10 random 4:1 splits of the full data, rho by 3-fold CV on the training part, C = 1
    "paper": dict(datasets=list(TABLE1_DATASETS), n_splits=10, max_n=None, alg1_max_iter=1000, apg_max_iter=20000,
                  regime=REGIME, **_COMMON),
}

#: The baselines of Table 1 (LIBSVM on K0 for "svm").
BASELINES = ("denoise", "flip", "shift", "svm")
#: The baselines' names in the paper's Table 1.
BASELINE_NAMES = {"denoise": "Denoise", "flip": "Flip", "shift": "Shift", "svm": "SVM"}
#: The algorithms that solve the Indefinite SVM here, by their record prefix.
ALGORITHMS = {"apg": "APG-FW", "alg1": "Algorithm 1"}
#: The paper's names of the data sets (mnist35 stands for USPS-3-5; pima is Diabetes).
NAMES = {"sonar": "Sonar", "ionosphere": "Ionosphere", "wisconsin": "Breast Cancer", "heart": "Heart",
         "mnist35": "USPS-3-5", "pima": "Diabetes"}
#: chen2008 Table 1.
PAPER_TABLE = {
    "sonar": dict(size=208, n_neg=57.41, n_pos=150.62, lambda_min=-1.36, lambda_max=18.42, ratio=13.55,
                  denoise=78.57, flip=79.52, shift=78.10, svm=72.86, indefinite=80.95),
    "ionosphere": dict(size=351, n_neg=169.62, n_pos=181.45, lambda_min=-25.50, lambda_max=94.49, ratio=3.71,
                       denoise=75.57, flip=71.43, shift=71.41, svm=68.00, indefinite=77.43),
    "wisconsin": dict(size=683, n_neg=323.21, n_pos=359.82, lambda_min=-3.51, lambda_max=390.52, ratio=111.26,
                      denoise=95.38, flip=95.62, shift=95.38, svm=89.54, indefinite=95.36),
    "heart": dict(size=270, n_neg=125.57, n_pos=144.71, lambda_min=-10.96, lambda_max=42.93, ratio=3.92,
                  denoise=71.02, flip=67.28, shift=65.42, svm=65.43, indefinite=72.22),
    "mnist35": dict(size=1200, n_neg=520.12, n_pos=680.31, lambda_min=-3.54, lambda_max=81.99, ratio=23.16,
                    denoise=96.25, flip=96.88, shift=95.63, svm=96.11, indefinite=96.81),
    "pima": dict(size=768, n_neg=381.22, n_pos=385.18, lambda_min=-3.93, lambda_max=8.13, ratio=2.06,
                 denoise=68.83, flip=64.28, shift=62.98, svm=66.23, indefinite=70.08),
}
#: §6.3: "outperforms all other algorithms" on these ...
OUTPERFORMS = ("sonar", "ionosphere", "heart", "pima")
#: ... and "comparable to the best among all other algorithms" on these.
COMPARABLE = ("wisconsin", "mnist35")


def tasks(scale="paper", seed=0):
    """One task per (data set, split): splits ``seed, ..., seed + n_splits - 1``, data sets in Table 1's order."""
    if scale not in SETTINGS:
        raise ValueError(f"scale must be one of {sorted(SETTINGS)}, got {scale!r}")
    s = SETTINGS[scale]
    out = []
    for ds in s["datasets"]:
        out += grid(dataset=[ds], g=[REGIME[ds]["g"]], xi=[REGIME[ds]["xi"]],
                    seed=[seed + k for k in range(s["n_splits"])], rho_grid=[list(s["rho_grid"])], tol=[s["tol"]],
                    alg1_max_iter=[s["alg1_max_iter"]], apg_max_iter=[s["apg_max_iter"]], C=[s["C"]],
                    max_n=[s["max_n"]])
    return out


def _accuracy(Kte, yte, alpha, ytr, b):
    """Test accuracy of sum_i y_i alpha_i K0(x, x_i) + b (the test-time rule of IndefiniteSVC)."""
    return float(np.mean(np.sign(Kte @ (alpha * ytr) + b) == yte))


def table1_certified_task(dataset, g, xi, seed, rho_grid, tol, alg1_max_iter, apg_max_iter, C=1.0, max_n=None):
    """One split of Table 1: the perturbed kernel's spectrum, the four baselines, and the Indefinite SVM by
    APG-FW (certified) and by Algorithm 1 at the rho chosen by 3-fold cross-validation on the training part.

    Returns a dict: the spectrum statistics of the perturbed kernel of the whole set (``n_neg``, ``n_pos``,
    ``lambda_min``, ``lambda_max``, ``ratio``); ``acc_<method>`` for denoise, flip, shift, svm, apg, alg1; ``rho``
    and the CV accuracy per rho (``cv_acc``); for each algorithm its ``<alg>_gap`` (certified upper bound minus
    lower bound), ``<alg>_lower``, ``<alg>_upper``, ``<alg>_nit``, ``<alg>_time`` and ``<alg>_certified``
    (gap <= tol); the CV runs (``cv_runs``), how many certified (``cv_certified``) and their largest gap.

    Examples
    --------
    >>> r = table1_certified_task("sonar", 50.0, 0.1, 0, [1.0], 1e-5, 5, 2000, max_n=40)
    >>> r["apg_certified"], sorted(k for k in r if k.startswith("acc_"))[:2]
    (True, ['acc_alg1', 'acc_apg'])
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # every gap is recorded instead
        return _task(dataset, g, xi, seed, rho_grid, tol, alg1_max_iter, apg_max_iter, C, max_n)


def _task(dataset, g, xi, seed, rho_grid, tol, alg1_max_iter, apg_max_iter, C, max_n):
    X, y, tr, te = _split(dataset, seed, max_n)
    K0 = perturbed_gaussian_kernel(X, g / X.shape[1], xi, random_state=seed)
    Ktr, ytr, Kte, yte = K0[np.ix_(tr, tr)], y[tr], K0[np.ix_(te, tr)], y[te]
    out = dict(spectrum_stats(K0), n=int(y.size), n_train=int(tr.size), gamma=g / X.shape[1])

    # rho by 3-fold CV on the training part (APG-FW; every run's certificate counted)
    cv = StratifiedKFold(3, shuffle=True, random_state=seed)
    scores = {float(r): [] for r in rho_grid}
    cv_gaps = []
    for a, b in cv.split(Ktr, ytr):
        for rho in rho_grid:
            r = indefinite_svm_apg(Ktr[np.ix_(a, a)], ytr[a], C, rho, tol=tol, max_iter=apg_max_iter)
            cv_gaps.append(float(r.gap))
            scores[float(rho)].append(_accuracy(Ktr[np.ix_(b, a)], ytr[b], r.alpha, ytr[a], r.b))
    means = [np.mean(scores[float(r)]) for r in rho_grid]
    rho = float(rho_grid[int(np.argmax(means))])
    out.update(rho=rho, cv_acc={str(k): float(np.mean(v)) for k, v in scores.items()}, cv_runs=len(cv_gaps),
               cv_certified=int(sum(gp <= tol for gp in cv_gaps)), cv_max_gap=float(max(cv_gaps)))

    t0 = time.perf_counter()
    r = indefinite_svm_apg(Ktr, ytr, C, rho, tol=tol, max_iter=apg_max_iter)
    out.update(acc_apg=_accuracy(Kte, yte, r.alpha, ytr, r.b), apg_gap=float(r.gap), apg_lower=float(r.objective),
               apg_upper=float(r.upper), apg_nit=int(r.nit), apg_time=time.perf_counter() - t0,
               apg_certified=bool(r.gap <= tol))

    t0 = time.perf_counter()
    s = indefinite_svm(Ktr, ytr, C, rho, tol=tol, max_iter=alg1_max_iter)
    upper = float(np.min(s.upper[1:]))
    out.update(acc_alg1=_accuracy(Kte, yte, s.alpha, ytr, s.b), alg1_gap=upper - float(s.objective),
               alg1_lower=float(s.objective), alg1_upper=upper, alg1_nit=int(s.nit),
               alg1_time=time.perf_counter() - t0, alg1_certified=bool(upper - float(s.objective) <= tol))

    for m in BASELINES:
        clf = IndefiniteSVC(m, "precomputed", C=C).fit(Ktr, ytr)
        out[f"acc_{m}"] = float(clf.score(Kte, yte))
    return out


TASK = table1_certified_task


def records(root=None, scale="paper", seed=0):
    """The cached record of each task (None where not cached), in task order."""
    return artefact.load(__name__, root, scale, seed)


def certified(rec, alg="apg"):
    """Whether ``alg``'s run of a record met the stopping gap: recomputed from its stored gap and tol."""
    return bool(rec["result"][f"{alg}_gap"] <= rec["params"]["tol"])


def _frame(records):
    import pandas as pd

    rows = []
    for rec in records:
        if rec is None:
            continue
        row = {**rec["params"], **{k: v for k, v in rec["result"].items() if k != "cv_acc"}}
        for alg in ALGORITHMS:
            row[f"{alg}_certified"] = certified(rec, alg)
        rows.append(row)
    return pd.DataFrame(rows)


def _by_dataset(records):
    out = {}
    for rec in records:
        if rec is not None:
            out.setdefault(rec["params"]["dataset"], []).append(rec)
    for v in out.values():
        v.sort(key=lambda r: r["params"]["seed"])
    return out


def claims(records):
    """The claims of Table 1 and §6.3, per data set.

    * The eigenvalue columns (lambda- num, lambda_min, lambda_max, |lambda_max / lambda_min|): our mean over the
      splits within :data:`SPECTRUM_TOL` (25 %) of the paper's value (``ledger.target``, relative). lambda_min and
      lambda_max were matched by the choice of xi and g (:data:`REGIME`), so those two test that choice; the
      count of negative eigenvalues and the ratio were not fitted.
    * "Outperforms all other algorithms" (Sonar, Ionosphere, Heart, Diabetes): one claim per baseline, the
      paired accuracy difference (points) Indefinite SVM (APG-FW) minus baseline over the splits whose APG-FW
      run is certified (``ledger.paired``), and one claim per data set combining them (``ledger.combine``).
    * "Comparable to the best among all other algorithms" (Breast Cancer, USPS-3-5): non-inferiority against
      every baseline with a margin of :data:`MARGIN` point (``ledger.noninferior``), and their combination.
    """
    recs = [r for r in records if r is not None]
    by = _by_dataset(recs)
    out = []
    common = dict(paper=PAPER, artefact=LABEL)
    for ds in TABLE1_DATASETS:
        group = by.get(ds, [])
        name = NAMES[ds]
        pt = PAPER_TABLE[ds]
        res = [r["result"] for r in group]
        for col, words in (("n_neg", "number of negative eigenvalues"), ("lambda_min", "smallest eigenvalue"),
                           ("lambda_max", "largest eigenvalue"), ("ratio", "|lambda_max / lambda_min|")):
            value = float(np.mean([r[col] for r in res])) if res else None
            fitted = col in ("lambda_min", "lambda_max")
            out.append(ledger.Claim(
                id=f"table1-{col.replace('_', '')}-{ds}", where="Table 1", condition=name,
                statement=f"The perturbed kernel of {name}: {words} {pt[col]:g} (mean over 10 splits).",
                paper_value=pt[col], algorithm=None,
                note=(f"xi = {REGIME[ds]['xi']:g}, g = {REGIME[ds]['g']:g} chosen to match lambda_min and lambda_max"
                      if fitted else "not fitted: follows from the xi and g chosen on lambda_min and lambda_max"),
                **common, **ledger.target(value, pt[col], SPECTRUM_TOL, kind="rel", n_runs=len(res))))
        cert = [certified(r) for r in group]
        short = (f"{len(group)} of {ledger.MIN_SPLITS} splits cached" if 0 < len(group) < ledger.MIN_SPLITS
                 else "")
        parts = []
        for base in BASELINES:
            diffs = [100 * (r["acc_apg"] - r[f"acc_{base}"]) for r in res]
            paper_diff = round(pt["indefinite"] - pt[base], 2)
            if ds in OUTPERFORMS:
                rule = ledger.paired(diffs, certified=cert) if res else ledger.not_run(10, 10)
                stmt = f"On {name} the Indefinite SVM is more accurate than {BASELINE_NAMES[base]}."
                cid = f"table1-better-{base}-{ds}"
            else:
                rule = ledger.noninferior(diffs, MARGIN, certified=cert) if res else ledger.not_run(10, 10)
                stmt = (f"On {name} the Indefinite SVM is not worse than {BASELINE_NAMES[base]} "
                        f"(by more than {MARGIN:g} point).")
                cid = f"table1-comparable-{base}-{ds}"
            parts.append(rule["verdict"])
            out.append(ledger.Claim(id=cid, where="§6.3", condition=name, statement=stmt, paper_value=paper_diff,
                                    algorithm="APG-FW", **common,
                                    **{"note": _join(short, _uncertified_note(cert)), **rule}))
        verdict = ledger.combine(parts) if res else "inconclusive"
        stmt = (f"On {name} the Indefinite SVM outperforms all other algorithms." if ds in OUTPERFORMS else
                f"On {name} the Indefinite SVM is comparable to the best among all other algorithms.")
        out.append(ledger.Claim(id=f"table1-{'better' if ds in OUTPERFORMS else 'comparable'}-all-{ds}",
                                where="§6.3", condition=name, statement=stmt, verdict=verdict,
                                paper_value=pt["indefinite"], our_value=float(100 * np.mean([r["acc_apg"] for r in res]))
                                if res else None, n_runs=len(res), n_certified=int(sum(cert)), algorithm="APG-FW",
                                rule="all four per-baseline claims (ledger.combine)",
                                note=_join(short, _uncertified_note(cert)) if res else "no split cached", **common))
    return out


def _join(*notes):
    return "; ".join(n for n in notes if n)


def _uncertified_note(cert):
    bad = len(cert) - int(sum(cert))
    return f"{bad} of {len(cert)} APG-FW runs did not meet the gap 1e-5 and are left out" if bad else ""


def numbers(records):
    """What the page shows.

    Returns a dict: ``table`` (per data set: the spectrum means and the mean test accuracy, in %, of each method,
    the Indefinite SVM by APG-FW and by Algorithm 1), ``spread`` (the standard deviations over splits of the same
    columns), ``display`` (the table with accuracies as "mean ± sd"), ``paper`` (chen2008 Table 1), ``differences`` (per data set and baseline: the mean paired
    difference APG-FW minus baseline in points, its 95 % interval and the verdict), ``certification`` (per data
    set: splits cached, APG-FW and Algorithm 1 runs certified and their largest gaps, CV runs certified, the
    rho chosen, and on how many splits the two algorithms' bounds agree: each lower bound below the other's upper
    bound, as two bounds on the same optimum must), ``regime`` (xi, g and the spectra they were chosen to match) and ``n_records`` / ``n_missing``.
    """
    import pandas as pd

    f = _frame(records)
    regime = pd.DataFrame([{"data set": NAMES[d], "xi": REGIME[d]["xi"], "g": REGIME[d]["g"],
                            "lambda_min (paper)": PAPER_TABLE[d]["lambda_min"], "lambda_min": REGIME[d]["lambda_min"],
                            "lambda_max (paper)": PAPER_TABLE[d]["lambda_max"], "lambda_max": REGIME[d]["lambda_max"],
                            "score": REGIME[d]["score"]} for d in TABLE1_DATASETS]).set_index("data set")
    paper = pd.DataFrame(PAPER_TABLE).T.rename(index=NAMES)
    out = dict(regime=regime, paper=paper, n_records=int(len(f)), n_missing=artefact.missing(records))
    if f.empty:
        empty = pd.DataFrame()
        return dict(out, table=empty, spread=empty, display=empty, differences=empty, certification=empty)
    acc_cols = {"acc_denoise": "Denoise", "acc_flip": "Flip", "acc_shift": "Shift", "acc_svm": "SVM",
                "acc_apg": "Indefinite SVM (APG-FW)", "acc_alg1": "Indefinite SVM (Algorithm 1)"}
    spec_cols = {"n": "size", "n_neg": "λ- num.", "n_pos": "λ+ num.", "lambda_min": "λmin", "lambda_max": "λmax",
                 "ratio": "|λmax/λmin|"}
    f[list(acc_cols)] = 100 * f[list(acc_cols)]
    order = [d for d in TABLE1_DATASETS if d in set(f.dataset)]
    gr = f.groupby("dataset")
    table = gr[list(spec_cols) + list(acc_cols)].mean().reindex(order).rename(columns={**spec_cols, **acc_cols})
    spread = gr[list(spec_cols) + list(acc_cols)].std(ddof=1).reindex(order).rename(columns={**spec_cols, **acc_cols})
    table.index = spread.index = [NAMES[d] for d in order]
    display = table[list(spec_cols.values())].round(2).astype(object)
    for col in acc_cols.values():
        display[col] = [f"{m:.2f} ± {sd:.2f}" for m, sd in zip(table[col], spread[col].fillna(0.0))]
    rows = []
    for ds in order:
        sub = f[f.dataset == ds]
        for base in BASELINES:
            diffs = (sub.acc_apg - sub[f"acc_{base}"]).to_numpy()
            rule = ledger.paired(diffs, certified=sub.apg_certified.to_numpy()) if ds in OUTPERFORMS else \
                ledger.noninferior(diffs, MARGIN, certified=sub.apg_certified.to_numpy())
            lo, hi = rule["interval"] if rule["interval"] is not None else (np.nan, np.nan)
            rows.append({"data set": NAMES[ds], "baseline": BASELINE_NAMES[base],
                         "claim": "better" if ds in OUTPERFORMS else f"not worse by > {MARGIN:g}",
                         "paper": round(PAPER_TABLE[ds]["indefinite"] - PAPER_TABLE[ds][base], 2),
                         "mean": rule["our_value"], "low": lo, "high": hi,
                         "certified splits": rule["n_certified"], "verdict": rule["verdict"]})
    differences = pd.DataFrame(rows)
    cert = pd.DataFrame({
        "splits": gr.size(), "APG-FW certified": gr.apg_certified.sum(), "APG-FW largest gap": gr.apg_gap.max(),
        "APG-FW mean time (s)": gr.apg_time.mean(),
        "Algorithm 1 certified": gr.alg1_certified.sum(), "Algorithm 1 largest gap": gr.alg1_gap.max(),
        "Algorithm 1 median gap": gr.alg1_gap.median(), "Algorithm 1 mean time (s)": gr.alg1_time.mean(),
        "CV runs certified": gr.cv_certified.sum(), "CV runs": gr.cv_runs.sum(),
        # both algorithms bound the same optimum of (6): each lower bound must lie below the other's upper bound
        "bounds agree": gr.apply(lambda x: int(((x.apg_lower <= x.alg1_upper + 1e-9 * x.alg1_upper.abs().clip(1))
                                                & (x.alg1_lower <= x.apg_upper + 1e-9 * x.apg_upper.abs().clip(1))).sum()),
                                 include_groups=False),
        "rho chosen": gr.rho.agg(lambda s: ", ".join(f"{k:g}×{v}" for k, v in s.value_counts().sort_index().items())),
    }).reindex(order)
    cert.index = [NAMES[d] for d in order]
    return dict(out, table=table, spread=spread, display=display, differences=differences, certification=cert)
