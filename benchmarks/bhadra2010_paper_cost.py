"""What the bhadra2010 page costs at ``scale="paper"``: one task of each sweep timed, side by side in one run.

Each sweep of ``notebooks/bhadra2010_rsvm.md`` at paper scale is many tasks of the same size (20 data
sets of 2 x 100 points, 100 sampled kernels; the page's "paper" settings). This script runs one
representative task of each at those sizes and reports its CPU time (one BLAS thread; the machine's
other load inflates wall time, not much the CPU time) and that time multiplied by the sweep's number of
tasks. Tasks of a sweep differ in kappa, eps, noise or fold, so the product is an estimate: the task
chosen is a middle one (kappa = 1.25 of 0..2.5, eps = 0.3 for Fig. 3, uniform noise, fold 0).

Usage: OMP_NUM_THREADS=1 python benchmarks/bhadra2010_paper_cost.py
Writes results/bhadra2010/benchmarks/paper_cost.json.
"""
from __future__ import annotations

import argparse
import json
import platform
import time
import warnings
from pathlib import Path

from robustpapers.reproduce.bhadra2010.experiments import (CLASSIFIERS, PAPER_SCALE, bound_task, qn_starts_task,
                                                 robustness_task, table1_task)
from robustpapers.reproduce.engine import benchmark_path

ALL = list(CLASSIFIERS)
SIZE = dict(n_per_class=100, n_samples=100, seed=0)
#: (sweep, task function, representative parameters, number of tasks at paper scale)
SWEEPS = [
    ("fig1", robustness_task, dict(dataset=0, noise="uniform", kappa=1.25, C=10.0, n_starts=100, methods=ALL,
                                   iid=False, qn_max_iter=PAPER_SCALE["qn_max_iter"]), 20 * 3 * 11),
    ("fig2", robustness_task, dict(dataset=0, noise="uniform", kappa=1.25, C=10.0, n_starts=100,
                                   methods=["RSVM_QP", "RSVMg_QP", "SVM"], iid=True), 20 * 3 * 11),
    ("fig3", bound_task, dict(dataset=0, noise="uniform", eps=0.3, C=10.0, n_eval=1000, n_starts=5,
                              methods=ALL[:6]), 20 * 4 * 11),
    ("qn_starts", qn_starts_task, dict(dataset=0, noise="beta0.5", eps=0.1, C=10.0, n_starts=100), 20),
    ("table1", table1_task, dict(dataset=0, noise="uniform", fold=0, n_folds=5, Cs=[0.1, 1.0, 5.0, 10.0, 50.0, 100.0],
                                 epss=[0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45], n_starts=5, methods=ALL,
                                 qn_max_iter=PAPER_SCALE["qn_max_iter"]),
     20 * 3 * 5),
]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--only", nargs="+", default=None,
                   help="time only these sweeps (the other rows of an existing --out file are kept)")
    p.add_argument("--out", default=str(benchmark_path("bhadra2010", "paper_cost")))
    args = p.parse_args(argv)
    rows = []
    for name, func, params, n_tasks in SWEEPS:
        if args.only and name not in args.only:
            continue
        c, w = time.process_time(), time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            func(**params, **SIZE)
        cpu, wall = time.process_time() - c, time.perf_counter() - w
        rows.append(dict(sweep=name, task=func.__name__, task_cpu_s=round(cpu, 1), task_wall_s=round(wall, 1),
                         n_tasks=n_tasks, sweep_cpu_h_est=round(cpu * n_tasks / 3600, 1)))
        print(rows[-1], flush=True)
    if args.only and Path(args.out).exists():  # keep the rows of the sweeps not timed now, in SWEEPS order
        with open(args.out) as fh:
            kept = {r["sweep"]: r for r in json.load(fh)["rows"] if r["sweep"] not in args.only}
        new = {r["sweep"]: r for r in rows}
        rows = [new.get(name) or kept[name] for name, *_ in SWEEPS if name in new or name in kept]
    total = round(sum(r["sweep_cpu_h_est"] for r in rows), 1)
    out = dict(rows=rows, summary=dict(total_cpu_h_est=total),
               machine=dict(python=platform.python_version(), machine=platform.machine()),
               date=time.strftime("%Y-%m-%d", time.gmtime()))
    path = args.out
    with open(path, "w") as fh:
        json.dump(out, fh, indent=1)
    print(out["summary"], "->", path)


if __name__ == "__main__":
    main()
