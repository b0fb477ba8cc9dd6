"""What DFP's iteration cap does to RSVM_QN on 003 Table 1's problems: 2000 vs 20000 iterations per stage.

``rsvm(method="qn")`` caps each of its four penalty stages at ``max_iter`` DFP iterations. This script
fits both QN classifiers (RSVM_QN, RSVM^(g)_QN) on fold 0 of three §5.1 data sets (one per noise type,
2 x 100 points, 100 sampled kernels: the paper's sizes) at C in {1, 10, 100} and eps in {0.05, 0.25, 0.45},
with Table 1's 5 starts, once per cap from the same seeded starts, and reports per cap: on how many fits
the best start stopped at the cap, its KKT residual (:func:`robustpapers.bhadra2010.rsvm_kkt_residual`),
the objective gained by the larger cap, how the test errors (ME, RE, NE of 003 §4) changed, and the CPU
time (one BLAS thread; side by side in one run).

Usage: OMP_NUM_THREADS=1 python benchmarks/bhadra2010_qn_cap.py
Writes results/bhadra2010/benchmarks/qn_cap.json.
"""
from __future__ import annotations

import argparse
import json
import platform
import time
import warnings

from sklearn.exceptions import ConvergenceWarning

from robustpapers.bhadra2010 import kappa_gaussian
from robustpapers.reproduce.bhadra2010.experiments import (errors_on_samples, fit_classifier, kappa_finite_support_any,
                                                 table1_fold)
from robustpapers.reproduce.engine import benchmark_path, derive_seed

CAPS = (2000, 20000)
DATASETS = [(0, "uniform"), (1, "gaussian"), (2, "beta0.5")]
CS = [1.0, 10.0, 100.0]
EPSS = [0.05, 0.25, 0.45]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=str(benchmark_path("bhadra2010", "qn_cap")))
    args = p.parse_args(argv)
    rows = []
    for dataset, noise in DATASETS:
        f = table1_fold(dataset, noise, fold=0, n_folds=5, n_per_class=100, n_samples=100, seed=args.seed)
        for C in CS:
            for eps in EPSS:
                kfs, kg = kappa_finite_support_any(eps), kappa_gaussian(eps)
                for name in ("RSVM_QN", "RSVMg_QN"):
                    row = dict(dataset=dataset, noise=noise, C=C, eps=eps, clf=name)
                    errs = {}
                    for cap in CAPS:
                        c = time.process_time()
                        with warnings.catch_warnings():
                            warnings.simplefilter("ignore", ConvergenceWarning)
                            res = fit_classifier(name, f["K"], f["y"], f["beta_fs"], f["beta_g"], kfs, kg, C, 5,
                                                 derive_seed(args.seed, "qncap", dataset, name, C, eps), cap)
                        row[f"cpu_{cap}"] = time.process_time() - c
                        row[f"converged_{cap}"] = bool(res.success)
                        row[f"kkt_{cap}"] = float(res.kkt_residual)
                        row[f"objective_{cap}"] = float(res.objective)
                        errs[cap] = errors_on_samples(f["y_test"], f["K_test"], f["Ks_test"], res.alpha, f["y"], res.b)
                    lo, hi = CAPS
                    row["objective_gain_rel"] = (row[f"objective_{hi}"] - row[f"objective_{lo}"]) / abs(row[f"objective_{hi}"])
                    row["error_change_max"] = max(abs(errs[hi][m] - errs[lo][m]) for m in ("ME", "RE", "NE"))
                    rows.append(row)
                    print({k: (round(v, 6) if isinstance(v, float) else v) for k, v in row.items()}, flush=True)
    lo, hi = CAPS
    stopped = [r for r in rows if not r[f"converged_{lo}"]]
    summary = dict(
        n_fits=len(rows), caps=list(CAPS),
        **{f"n_stopped_{cap}": sum(not r[f"converged_{cap}"] for r in rows) for cap in CAPS},
        **{f"cpu_s_{cap}": round(sum(r[f"cpu_{cap}"] for r in rows), 1) for cap in CAPS},
        cpu_ratio=round(sum(r[f"cpu_{hi}"] for r in rows) / sum(r[f"cpu_{lo}"] for r in rows), 2),
        kkt_stopped_min=min((r[f"kkt_{lo}"] for r in stopped), default=float("nan")),
        kkt_stopped_max=max((r[f"kkt_{lo}"] for r in stopped), default=float("nan")),
        kkt_max_at_larger_cap=max(r[f"kkt_{hi}"] for r in rows),
        objective_gain_rel_max=max(r["objective_gain_rel"] for r in rows),
        objective_gain_rel_min=min(r["objective_gain_rel"] for r in rows),
        n_error_changed=sum(r["error_change_max"] > 0 for r in rows),
        error_change_max=max(r["error_change_max"] for r in rows),
    )
    out = dict(rows=rows, summary=summary, machine=dict(python=platform.python_version(), machine=platform.machine()),
               date=time.strftime("%Y-%m-%d", time.gmtime()))
    with open(args.out, "w") as fh:
        json.dump(out, fh, indent=1)
    print(summary, "->", args.out)


if __name__ == "__main__":
    main()
