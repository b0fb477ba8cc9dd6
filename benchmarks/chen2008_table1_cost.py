"""What one paper-scale split of chen2008 Table 1 costs, per data set, side by side in one run.

At ``scale="paper"`` the notebook's ``table1_task`` chooses the Gaussian width by 3-fold CV, then rho by
3-fold CV of the Indefinite SVM over {0.1, 1, 10, 100} (each fold run to a gap of 1e-3 or 1,000
iterations), then trains the five methods (the Indefinite SVM to a gap of 1e-5 or 1,000 iterations).
This script times (CPU time of the process, one BLAS thread) the width CV and one CV fold per rho on
split 0 of each data set; a fold that has not converged within ``--cap`` iterations is extrapolated
linearly to the 1,000-iteration limit of the notebook (an overestimate where the fold would have
converged sooner; the measured part, ``fold_cpu_s * nit / 1000``, is a lower bound). The estimate of
one split is the width CV plus three folds per rho, *without* the final training of the five methods;
the table is 10 splits of 6 data sets. It also times the tasks of split 0 of the paper-scale xi
sweep (``xi_sweep_task``, rho = 10 fixed, full data, gap 1e-5 or 1,000 iterations), every xi on both
data sets; the sweep is these 14 tasks x 10 splits. ``--xi-only`` re-measures only those rows and keeps
the Table 1 rows of the existing JSON.

Usage: OMP_NUM_THREADS=1 python benchmarks/chen2008_table1_cost.py [--cap-small 1000] [--cap-large 40] [--xi-only]
"""
from __future__ import annotations

import argparse
import json
import platform
import time
import warnings

import numpy as np
from sklearn.model_selection import StratifiedKFold

from robustpapers.core import ConvergenceWarning
from robustpapers.chen2008 import indefinite_svm
from robustpapers.reproduce.chen2008.experiments import GAMMA_GRID, TABLE1_DATASETS, _split_kernel, xi_sweep_task
from robustpapers.reproduce.engine import benchmark_path

RHO_GRID = [0.1, 1.0, 10.0, 100.0]
CV_TOL, CV_MAX_ITER = 1e-3, 1000
XIS = [0.0, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0]  # the notebook's paper-scale xi sweep


def split_cost(dataset, cap, seed=0):
    """CPU seconds of the width CV and of one rho-CV fold per rho (extrapolated past ``cap``)."""
    c = time.process_time()
    K0, y, tr, te, gamma = _split_kernel(dataset, 0.1, seed, GAMMA_GRID)
    row = dict(dataset=dataset, n_train=int(tr.size), cap=cap, gamma_cv_cpu_s=round(time.process_time() - c, 3))
    Ktr, ytr = K0[np.ix_(tr, tr)], y[tr]
    f_tr, _ = next(StratifiedKFold(3, shuffle=True, random_state=seed).split(Ktr, ytr))
    Kf, yf = Ktr[np.ix_(f_tr, f_tr)], ytr[f_tr]
    est = 0.0
    for rho in RHO_GRID:
        c = time.process_time()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            r = indefinite_svm(Kf, yf, 1.0, rho, tol=CV_TOL, max_iter=min(cap, CV_MAX_ITER))
        cpu = time.process_time() - c
        fold = cpu if (r.success or r.nit >= CV_MAX_ITER) else cpu / r.nit * CV_MAX_ITER
        row[f"rho{rho:g}_nit"] = int(r.nit)
        row[f"rho{rho:g}_converged"] = bool(r.success)
        row[f"rho{rho:g}_fold_cpu_s"] = round(fold, 3)
        est += 3 * fold
    row["split_cpu_s_est"] = round(row["gamma_cv_cpu_s"] + est, 1)
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cap-small", type=int, default=1000, help="iterations measured on Sonar, Heart, Ionosphere")
    ap.add_argument("--cap-large", type=int, default=40, help="iterations measured on the larger sets")
    ap.add_argument("--xi-only", action="store_true", help="re-measure the xi-sweep rows only")
    args = ap.parse_args()
    path = benchmark_path("chen2008", "table1_cost")
    if args.xi_only:
        old = json.loads(path.read_text())
        rows, args.cap_small, args.cap_large = old["rows"], old["args"]["cap_small"], old["args"]["cap_large"]
    else:
        rows = []
        for ds in TABLE1_DATASETS:
            cap = args.cap_small if ds in ("sonar", "heart", "ionosphere") else args.cap_large
            rows.append(split_cost(ds, cap))
            print(" | ".join(f"{k}={v}" for k, v in rows[-1].items()), flush=True)
    per_split = sum(r["split_cpu_s_est"] for r in rows)
    xi_rows = []
    for ds in ("heart", "sonar"):  # the paper-scale xi sweep's data sets
        for xi in XIS:
            c = time.process_time()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                r = xi_sweep_task(ds, xi, 0, GAMMA_GRID, 10.0, 1e-5, 1000)
            xi_rows.append(dict(dataset=ds, xi=xi, cpu_s=round(time.process_time() - c, 2), siqclp_nit=r["siqclp_nit"]))
            print(xi_rows[-1], flush=True)
    summary = dict(all_datasets_one_split_cpu_s=round(per_split, 1), table1_10_splits_cpu_h=round(10 * per_split / 3600, 2),
                   sonar_10_splits_cpu_min=round(10 * rows[0]["split_cpu_s_est"] / 60, 1),
                   xi_sweep_cpu_min_est=round(10 * sum(r["cpu_s"] for r in xi_rows) / 60, 1))
    out = dict(rows=rows, xi_rows=xi_rows, summary=summary, machine=dict(python=platform.python_version(), machine=platform.machine(),
                                                        note="shared 2-core machine, 1 BLAS thread, CPU time"),
               args=vars(args))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=1))
    print(summary)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
