"""Benchmark (bental2012 §1, §7.3, §7.5): FSS as printed, FSS as tuned here and the alternating method, each against
USSVM_SOCP (cvxpy + Clarabel) on the same small problems, side by side in one process.

The paper's speed claims ("USSVM_MN ... 10 times faster", "much more effective than a quadratic conic program")
are about its FSS. This measures the printed algorithm -- fixed step (16b), stage lengths (16e), R0 = 2C sqrt(n),
start 0, x restarted at its prox-centre (``convergence_task(variant="printed")``'s options) -- beside the two other
solvers the book runs under the label USSVM_MN, on Fig. 5's problem family D_U(1, N, L), C = 1, kappa = 1 (the
data of ``convergence_task``, so N = 50, L = 5 is Fig. 5's first problem), at small N only: each solver is run to
the 1e-3 relative duality gap the book's USSVM_MN runs use, FSS capped at ``--max-iter`` steps (a capped run is
reported uncertified, with its gap). Times are CPU seconds of this process (``time.process_time``, one BLAS
thread) and wall seconds; the machine is shared. Writes ``results/bental2012/benchmarks/fss_printed_vs_socp.json``.

Usage: OMP_NUM_THREADS=1 python benchmarks/bental2012_printed_vs_socp.py [--N 10 25 50] [--L 5] [--max-iter 20000]
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import time
import warnings

from robustpapers.bental2012 import make_uncertain_dataset, ussvm, ussvm_fss, ussvm_socp
from robustpapers.reproduce.engine import benchmark_path, derive_seed

#: FSS as printed: the options of ``convergence_task(variant="printed")``.
PRINTED = dict(schedule="theory", step="fixed", R0="paper", y0="zeros", restrict_y=False, recenter_x=False,
               restrict_x=True)
TOL = 1e-3


def timed(fn):
    """Run ``fn()``; its result, CPU seconds and wall seconds."""
    c0, w0 = time.process_time(), time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = fn()
    return res, time.process_time() - c0, time.perf_counter() - w0


def row(res, cpu, wall, F_socp):
    gap = getattr(res, "gap", None)
    return dict(cpu=cpu, time=wall, objective=float(res.objective), certified=bool(res.success),
                nit=int(getattr(res, "nit", 0) or 0), stages=int(getattr(res, "stages", 0) or 0),
                rel_gap=None if gap is None else float(gap) / abs(float(res.objective)),
                rel_diff_to_socp=abs(float(res.objective) - F_socp) / abs(F_socp),
                method=str(getattr(res, "method", "")))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--N", type=int, nargs="+", default=[10, 25, 50], help="points per class")
    ap.add_argument("--L", type=int, default=5)
    ap.add_argument("--C", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-iter", type=int, default=20_000, help="cap on FSS steps")
    ap.add_argument("--out", default=str(benchmark_path("bental2012", "fss_printed_vs_socp")))
    args = ap.parse_args(argv)
    problems = []
    for N in args.N:
        ds = make_uncertain_dataset("uniform", N, args.L, random_state=derive_seed(args.seed, "conv", N, args.L))
        Kb, Ks, y = ds.K_bar, ds.K_stack, ds.y
        socp, c_s, w_s = timed(lambda: ussvm_socp(Kb, Ks, y, args.C, 1.0, scale="auto"))
        F = float(socp.objective)
        rows = {"USSVM_SOCP (cvxpy + Clarabel)": dict(cpu=c_s, time=w_s, objective=F, status=str(socp.message),
                                                     certified=bool(socp.success))}
        runs = {"FSS as printed": lambda: ussvm_fss(Kb, Ks, y, args.C, 1.0, tol=TOL, max_iter=args.max_iter,
                                                      **PRINTED),
                "FSS as tuned here (backtracking)": lambda: ussvm_fss(Kb, Ks, y, args.C, 1.0, tol=TOL,
                                                                      max_iter=args.max_iter, step="backtracking"),
                "alternating method (ussvm default)": lambda: ussvm(Kb, Ks, y, args.C, 1.0, tol=TOL)}
        for name, fn in runs.items():
            res, c, w = timed(fn)
            rows[name] = row(res, c, w, F)
            print(f"N = {N}: {name}: {c:.2f} s CPU, certified {res.success}, {rows[name]['nit']} steps", flush=True)
        print(f"N = {N}: SOCP {c_s:.2f} s CPU ({socp.message})", flush=True)
        problems.append(dict(N=N, n=int(y.size), L=args.L, C=args.C, kappa=1.0, data="D_U", rows=rows))
        out = dict(setting=dict(tol=TOL, max_iter=args.max_iter, seed=args.seed, printed_options=PRINTED),
                   problems=problems,
                   machine=dict(platform=platform.platform(), cpus=os.cpu_count(),
                                load_avg_1min=os.getloadavg()[0], omp_num_threads=os.environ.get("OMP_NUM_THREADS")))
        with open(args.out, "w") as fh:  # after each problem, so a stopped run keeps what it measured
            json.dump(out, fh, indent=1)
        print("wrote", args.out, flush=True)


if __name__ == "__main__":
    main()
