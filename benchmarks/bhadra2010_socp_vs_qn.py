"""Wall time of RSVM_SOCP (cvxpy/Clarabel) vs RSVM_QN (DFP, random starts) on 003 §5.1 data.

Both solve eq. (15) with the same beta: the PSD part of the finite-support beta (the paper's SOCP
approximation), so their objectives are comparable (QN's best start should reach the SOCP value).
QN's time is measured for ``--n-starts`` starts; the per-start time and its extrapolation to the
paper's 100 starts are reported (starts are independent: ``--n-jobs`` runs them in parallel).
With ``--parallel-jobs k`` the same starts are also run on k workers (``rsvm(..., n_jobs=k)``, through the
runner's ``parallel_map``) in the same run: wall time side by side, speed-up, and the check that the parallel
run returns exactly the serial one's per-start objectives. The same starts are also run with DFP's earlier line
search (``qn_line_search="wolfe"``: scipy's strong-Wolfe search on the penalty as a black box) beside the default
exact search on the penalty's one-dimensional restriction: CPU time of both, their ratio, and the check that
they reach the same objective. And the same starts are run one after the other (``qn_batch=1``) beside the
default batches of starts run side by side: CPU time of both, their ratio, and the check that they reach the same
objective.

Usage: python benchmarks/bhadra2010_socp_vs_qn.py [--sizes 200 500] [--n-starts 2] [--n-jobs 1] [--parallel-jobs 2]
Writes results/bhadra2010/benchmarks/socp_vs_qn.json.
"""
from __future__ import annotations

import argparse
import json
import platform
import time
import warnings
from pathlib import Path

import numpy as np

from robustpapers.bhadra2010 import kappa_finite_support, rsvm
from robustpapers.reproduce.bhadra2010.experiments import _betas, prepare_dataset
from robustpapers.reproduce.engine import benchmark_path


def _timed_qn(K, y, beta, kappa, n_starts, seed, n_jobs, line_search="exact", batch=None):
    """RSVM_QN (C = 10, the PSD part of beta) from ``n_starts`` seeded starts on ``n_jobs`` workers;
    (result, wall seconds, CPU seconds of this process)."""
    t0, c0 = time.perf_counter(), time.process_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = rsvm(K, y, 10.0, beta, kappa, method="qn", beta_approx="psd", n_starts=n_starts,
                   random_state=seed, n_jobs=n_jobs, qn_line_search=line_search, qn_batch=batch)
    return res, time.perf_counter() - t0, time.process_time() - c0


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", type=int, nargs="+", default=[200, 500])
    p.add_argument("--n-starts", type=int, default=2)
    p.add_argument("--n-jobs", type=int, default=1)
    p.add_argument("--parallel-jobs", type=int, default=None,
                   help="also time the same QN starts on this many workers")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=str(benchmark_path("bhadra2010", "socp_vs_qn")))
    args = p.parse_args(argv)
    rows = []
    for n in args.sizes:
        prep = prepare_dataset(0, "uniform", n // 2, 30, args.seed)
        K, y = prep["K"], prep["y"]
        beta_fs, _ = _betas(prep, np.arange(y.size), False)
        kappa = kappa_finite_support(0.1)
        t0 = time.perf_counter()
        soc = rsvm(K, y, 10.0, beta_fs, kappa, method="socp", beta_approx="psd")
        t_socp = time.perf_counter() - t0
        qn, t_qn, c_qn = _timed_qn(K, y, beta_fs, kappa, args.n_starts, args.seed, args.n_jobs)
        row = {"n": int(y.size), "socp_s": t_socp, "qn_s": t_qn, "qn_starts": args.n_starts, "qn_n_jobs": args.n_jobs,
               "qn_per_start_s": t_qn / args.n_starts, "qn_100_starts_est_s": 100 * t_qn / args.n_starts / args.n_jobs,
               "socp_objective": soc.objective, "qn_objective": qn.objective,
               "qn_rel_gap": (soc.objective - qn.objective) / abs(soc.objective), "qn_iterations": int(qn.nit), "qn_converged": bool(qn.success)}
        if args.n_jobs == 1:
            qnw, t_w, c_w = _timed_qn(K, y, beta_fs, kappa, args.n_starts, args.seed, 1, line_search="wolfe")
            row.update(qn_cpu_s=c_qn, qn_wolfe_s=t_w, qn_wolfe_cpu_s=c_w, qn_wolfe_objective=qnw.objective,
                       qn_wolfe_iterations=int(qnw.nit), line_search_cpu_speedup=c_w / c_qn,
                       line_search_rel_diff=abs(qnw.objective - qn.objective) / abs(qnw.objective))
            print(f"        QN with scipy's Wolfe search {t_w:7.2f} s (CPU {c_w:.2f} s vs {c_qn:.2f} s: "
                  f"{c_w / c_qn:.2f}x), objectives differ by {row['line_search_rel_diff']:.1e}", flush=True)
            qn1, t_1, c_1 = _timed_qn(K, y, beta_fs, kappa, args.n_starts, args.seed, 1, batch=1)
            row.update(qn_one_by_one_s=t_1, qn_one_by_one_cpu_s=c_1, batch_cpu_speedup=c_1 / c_qn,
                       batch_rel_diff=float(np.max(np.abs(qn1.start_objectives - qn.start_objectives)
                                                   / np.abs(qn.start_objectives))))
            print(f"        QN one start after the other {t_1:7.2f} s (CPU {c_1:.2f} s vs {c_qn:.2f} s batched: "
                  f"{c_1 / c_qn:.2f}x), per-start objectives differ by {row['batch_rel_diff']:.1e}", flush=True)
        if args.parallel_jobs:
            qnp, t_par, _ = _timed_qn(K, y, beta_fs, kappa, args.n_starts, args.seed, args.parallel_jobs)
            same = bool(np.array_equal(qnp.start_objectives, qn.start_objectives))
            if not same:
                raise RuntimeError("parallel QN starts differ from the serial ones")
            row.update(qn_parallel_jobs=args.parallel_jobs, qn_parallel_s=t_par, qn_parallel_speedup=t_qn / t_par,
                       qn_parallel_same_objectives=same)
            print(f"        QN on {args.parallel_jobs} workers {t_par:7.2f} s (speed-up {t_qn / t_par:.2f}x, "
                  f"same per-start objectives: {same})", flush=True)
        rows.append(row)
        print(f"n={row['n']:4d}  SOCP {t_socp:7.2f} s   QN {t_qn:7.2f} s for {args.n_starts} starts "
              f"({row['qn_per_start_s']:.2f} s/start, ~{row['qn_100_starts_est_s']:.0f} s for 100)   "
              f"rel. gap {row['qn_rel_gap']:.1e}", flush=True)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"rows": rows, "machine": platform.platform(), "python": platform.python_version(),
                               "date": time.strftime("%Y-%m-%d", time.gmtime())}, indent=1))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
