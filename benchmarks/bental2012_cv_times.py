"""Benchmark (bental2012 Fig. 4, §7.3): training times of USSVM_SOCP, USSVM_MN, RSVM and the nominal SVM,
side by side in one run, on one training fold of the Fig. 3 protocol at a size closer to the paper's.

One D_U(1, N, L) data set (000 §7.1.1), the training part of fold 0 of a stratified 5-fold split (the paper
has 200 training points per class: N = 250), kappa = 1, one C. Rows:

* nominal SVM (LIBSVM through scikit-learn) on K_bar;
* USSVM_SOCP: cvxpy + Clarabel on the exactly rescaled problem (``ussvm_socp(scale="auto")``);
* USSVM_MN: ``ussvm_fss(step="backtracking", R0="probe")`` to the 1e-3 relative certificate (as in Fig. 3);
* USSVM_MN (alternating start): the same from ``y0="alternate"`` (our option, not used by the Fig. 3 sweep);
* RSVM: ``rsvm_on_kernel_set(method="qn")`` (support information of §7.1.2, DFP quasi-Newton) with 20 random
  starts (run side by side in one batch, as ``rsvm`` does with the paper's 100, so the time per start is that of
  a batch); the time of the paper's 100 starts is extrapolated linearly from the measured time per start
  (the starts are independent), the set-up (mean kernel, support, beta) counted once;
* RSVM_SOCP: the convex restriction of (7) with the PSD part of beta (003 §5.1) by cvxpy + Clarabel, as a
  converged RSVM reference.

Wall-clock and CPU times are both recorded (CPU time is the robust one on a shared machine, with one thread).

Every row reports wall time and the objective it reaches (F(alpha) of (12) for the USSVMs, (7) for RSVM).
Writes ``results/bental2012/benchmarks/cv_times.json`` (``robustpapers.reproduce.engine.benchmark_path``).

Usage: OMP_NUM_THREADS=1 python benchmarks/bental2012_cv_times.py [--N 250] [--L 50] [--C 100] [--eps 0.1]
       [--rsvm-starts 20]
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import time
import warnings

import numpy as np
from sklearn.model_selection import StratifiedKFold

from robustpapers.bental2012 import (
    make_uncertain_dataset, robust_bias, robust_objective, rsvm_beta_from_kernels, ussvm_fss, ussvm_socp,
)
from robustpapers.core import svm_dual
from robustpapers.reproduce.bental2012.rsvm_baseline import rsvm_on_kernel_set
from robustpapers.reproduce.engine import benchmark_path, derive_seed


class Timer:
    """Wall-clock and CPU time of a block (CPU time is robust to other jobs on a shared machine when the
    process runs one thread: OMP_NUM_THREADS=1)."""

    def __enter__(self):
        self.w, self.c = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc):
        self.wall, self.cpu = time.perf_counter() - self.w, time.process_time() - self.c


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--N", type=int, default=250,
                    help="points per class (250: the paper's 200 training points per class in a fold)")
    ap.add_argument("--L", type=int, default=50, help="number of kernels K_l")
    ap.add_argument("--C", type=float, default=100.0)
    ap.add_argument("--kappa", type=float, default=1.0)
    ap.add_argument("--eps", type=float, default=0.1, help="RSVM's chance-constraint level")
    ap.add_argument("--rsvm-starts", type=int, default=20, help="RSVM random starts actually run")
    ap.add_argument("--fss-max-iter", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    ds = make_uncertain_dataset("uniform", args.N, args.L,
                                random_state=derive_seed(args.seed, "cv_times", args.N, args.L))
    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=derive_seed(args.seed, "cv_times_folds"))
    train, _ = next(folds.split(ds.X, ds.y))
    Kb, Ks = ds.kernels(train, train)
    y = ds.y[train]
    C, kappa = args.C, args.kappa
    rows = []
    warnings.simplefilter("ignore")

    with Timer() as t:
        sol = svm_dual(Kb, y, C)
        robust_bias(Kb, y, sol.alpha, C)
    rows.append(dict(method="Nominal-SVM", time=t.wall, cpu_time=t.cpu,
                     objective=robust_objective(sol.alpha, Kb, Ks, y, kappa), status="libsvm"))
    print(rows[-1]["method"], f"{rows[-1]['time']:.2f} s", flush=True)

    with Timer() as t:
        res = ussvm_socp(Kb, Ks, y, C, kappa, scale="auto")
    rows.append(dict(method="USSVM_SOCP", time=t.wall, cpu_time=t.cpu, objective=float(res.objective),
                     status=str(res.solver_status)))
    print(rows[-1]["method"], f"{rows[-1]['time']:.2f} s", rows[-1]["status"], flush=True)

    for method, start in (("USSVM_MN", {}), ("USSVM_MN (alternating start)", {"y0": "alternate"})):
        with Timer() as t:
            res = ussvm_fss(Kb, Ks, y, C, kappa, tol=1e-3, max_iter=args.fss_max_iter, step="backtracking",
                            R0="probe", **start)
        rows.append(dict(method=method, time=t.wall, cpu_time=t.cpu, objective=float(res.objective),
                         status="certified" if res.success else "max_iter", gap=float(res.gap), nit=int(res.nit)))
        print(rows[-1]["method"], f"{rows[-1]['time']:.2f} s", rows[-1]["status"], flush=True)

    with Timer() as tp:
        prepared = rsvm_beta_from_kernels(Ks)
    with Timer() as t:
        res = rsvm_on_kernel_set(Ks, y, C, args.eps, method="qn", n_starts=args.rsvm_starts,
                                 random_state=derive_seed(args.seed, "cv_times_rsvm"), prepared=prepared)
    per_start, per_start_cpu = t.wall / args.rsvm_starts, t.cpu / args.rsvm_starts
    rows.append(dict(method="RSVM", time=tp.wall + t.wall, cpu_time=tp.cpu + t.cpu, objective=float(res.objective),
                     status="converged" if res.success else "max_iter", n_starts=args.rsvm_starts,
                     prep_time=tp.wall, time_per_start=per_start, time_100_starts_est=tp.wall + 100 * per_start,
                     cpu_100_starts_est=tp.cpu + 100 * per_start_cpu))
    print(rows[-1]["method"], f"{rows[-1]['time']:.2f} s", f"per start {per_start:.2f} s", rows[-1]["status"],
          flush=True)
    # the convex restriction of (7) (PSD part of beta, 003 §5.1) by cvxpy + Clarabel: a converged RSVM reference
    with Timer() as t:
        res = rsvm_on_kernel_set(Ks, y, C, args.eps, method="socp", beta_approx="psd", prepared=prepared)
    rows.append(dict(method="RSVM_SOCP (PSD part of beta)", time=tp.wall + t.wall, cpu_time=tp.cpu + t.cpu,
                     objective=float(res.objective), status="optimal" if res.success else "inaccurate"))
    print(rows[-1]["method"], f"{rows[-1]['time']:.2f} s", rows[-1]["status"], flush=True)

    out = dict(setting=dict(vars(args), n_train=int(train.size), d=int(ds.X.shape[1])),
               omp_num_threads=os.environ.get("OMP_NUM_THREADS"), rows=rows,
               machine=dict(cpus=os.cpu_count(), python=platform.python_version(), platform=platform.platform()))
    path = benchmark_path("bental2012", "cv_times")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=1))
    print(f"{'method':<30} {'wall (s)':>10} {'CPU (s)':>10}  objective")
    for r in rows:
        print(f"{r['method']:<30} {r['time']:>10.2f} {r['cpu_time']:>10.2f}  {r['objective']:.6e}  {r['status']}")
    print("wrote", path)


if __name__ == "__main__":
    main()
