"""Benchmark (bental2012 §7.7, Tables 2-3 / Fig. 7 on the structure analog): the cost of the paper-scale run.

At the paper's sizes (15 families x 10 structures, so one-vs-one problems of 20; L = 50 draws; R = 100;
the grid C in {0.1, 1, 5, 10, 50, 100, 200, 500}, eps in {0.05, ..., 0.5}; RSVM from 100 starts) this
measures, on a few family pairs, side by side in one run: the kernel set of the pair
(:func:`robustpapers.reproduce.bental2012.experiments_proteins.pair_kernel_set`) and one LOO fold of every classifier
(:func:`robustpapers.reproduce.bental2012.experiments_proteins.loo_fold`) at a small and a large C, and projects the
single-core time of all 105 problems x 20 folds x the grid. Writes
``results/bental2012/benchmarks/proteins_cost.json``.

Usage: OMP_NUM_THREADS=1 python benchmarks/bental2012_proteins_cost.py [--pairs 0,1 2,9]
"""
from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

import numpy as np

from robustpapers.reproduce.bental2012.experiments_proteins import PROTEIN_METHODS, loo_fold, pair_kernel_set
from robustpapers.reproduce.engine import benchmark_path

PAPER = dict(n_families=15, n_members=10, length=12, L=50, l=4, sigma=4.0)
GRID_C = [0.1, 1.0, 5.0, 10.0, 50.0, 100.0, 200.0, 500.0]
GRID_EPS = [0.05 + 0.05 * k for k in range(10)]
N_PAIRS = 105


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", nargs="+", default=["0,1", "2,9"])
    ap.add_argument("--Cs", nargs="+", type=float, default=[1.0, 100.0])
    ap.add_argument("--n-starts", type=int, default=100)
    ap.add_argument("--R", type=int, default=100)
    ap.add_argument("--out", default=str(benchmark_path("bental2012", "proteins_cost")))
    args = ap.parse_args()
    rows, kernels = [], []
    for pair in args.pairs:
        f1, f2 = (int(v) for v in pair.split(","))
        t0 = time.perf_counter()
        ks, y, names = pair_kernel_set(0, f1, f2, **PAPER)
        kernels.append(dict(pair=[f1, f2], names=list(names), n=int(y.size), seconds=time.perf_counter() - t0))
        print(f"kernel set {names}: {kernels[-1]['seconds']:.1f} s", flush=True)
        for C in args.Cs:
            for method in PROTEIN_METHODS:
                t0 = time.perf_counter()
                _, _, info = loo_fold(method, ks, y, 0, C, kappa=1.0, eps=0.1 if method == "RSVM" else None,
                                      R=args.R, n_starts=args.n_starts)
                wall = time.perf_counter() - t0
                rows.append(dict(pair=[f1, f2], C=C, method=method, fold_seconds=wall,
                                 train_seconds=info["time"], **{k: info[k] for k in ("nit", "success") if k in info}))
                print(f"  C={C:g} {method:10s} {wall:7.2f} s", flush=True)
    # projection: per problem, n folds x (|C| x the C-only methods + |C| x |eps| x RSVM), at the mean fold time
    n = kernels[0]["n"]
    mean = {m: float(np.mean([r["fold_seconds"] for r in rows if r["method"] == m])) for m in PROTEIN_METHODS}
    per_fold_grid = sum(len(GRID_C) * t for m, t in mean.items() if m != "RSVM") + len(GRID_C) * len(GRID_EPS) * mean["RSVM"]
    per_problem = float(np.mean([k["seconds"] for k in kernels])) + n * per_fold_grid
    per_method_hours = {m: N_PAIRS * n * len(GRID_C) * (len(GRID_EPS) if m == "RSVM" else 1) * t / 3600
                        for m, t in mean.items()}
    out = dict(setting=dict(PAPER, R=args.R, n_starts=args.n_starts, Cs_measured=args.Cs, grid_C=GRID_C,
                            grid_eps=GRID_EPS, n_pairs=N_PAIRS),
               machine=dict(python=platform.python_version(), processor=platform.processor() or platform.machine()),
               kernels=kernels, folds=rows, mean_fold_seconds=mean,
               projected_problem_hours=per_problem / 3600, projected_total_hours=N_PAIRS * per_problem / 3600,
               projected_hours_per_method=per_method_hours)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(out, indent=1, default=float))
    print(f"projected: {out['projected_problem_hours']:.2f} h per problem, "
          f"{out['projected_total_hours']:.0f} h for all {N_PAIRS} (one core)")


if __name__ == "__main__":
    main()
