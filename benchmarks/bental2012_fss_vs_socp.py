"""Benchmark (bental2012 §7.5): USSVM_MN (FSS) vs USSVM_SOCP (cvxpy + Clarabel), side by side in one run.

Same D_U(1, N, L) data set, C = 10, kappa = 1 (the paper's Fig. 6 setting). Reports wall time, the robust
objective F(alpha) each reaches, the solver status / FSS certificate, and the peak resident memory of the
process after each solve. Writes ``results/bental2012/benchmarks/fss_vs_socp.json``.

Rows: cvxpy+Clarabel on the problem as generated and on its exact rescaling (``scale="auto"``), and
USSVM_MN with the paper's fixed step, with Mirror-Prox backtracking, and with backtracking from the
nominal SVM (warm start), with the fixed / backtracking step from the radius ``R0="probe"`` (with and without
the KKT-polished certificate), and from the alternating start ``y0="alternate"`` with the x prox-centre recentred
per stage (``recenter_x=True``; fixed and backtracking steps); for each FSS run the per-stage trace, the set-up
time (eigenvalues, start, first certificate) and the time at which it first came within 1e-3 relative of the best
SOCP objective. Run with OMP_NUM_THREADS=1 on a shared machine.

``--big-N 1500 --big-L 50 --big-only`` runs the fast USSVM_MN alone at n = 3000, L = 50 (float32 stack) to
``--tol`` and writes ``fss_big.json``; it also runs the paper's FSS alone (start 0, fixed step, same
certificate) for ``--big-paper-max-iter`` steps, to show how far FSS's own iterations get.

Usage: OMP_NUM_THREADS=1 python benchmarks/bental2012_fss_vs_socp.py [--N 250] [--L 10] [--fss-max-iter 20000]
       [--big-N 0] [--big-L 50] [--big-rank 0]
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import time
import warnings
from pathlib import Path

import numpy as np

from robustpapers.bental2012 import make_uncertain_dataset, ussvm_fss, ussvm_socp
from robustpapers.reproduce.engine import benchmark_path


def peak_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def run_fss(ds, C, kappa, tol, max_iter, dtype=np.float64, F_ref=None, **kw):
    """One USSVM_MN run; with ``F_ref`` also the time at which the stage averages first came within
    1e-3 relative of ``F_ref`` (set-up included; stage granularity)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t0 = time.perf_counter()
        res = ussvm_fss(ds.K_bar, ds.K_stack, ds.y, C, kappa, tol=tol, max_iter=max_iter, dtype=dtype,
                        eig="exact" if ds.y.size <= 1200 else "power", **kw)
        wall = time.perf_counter() - t0
    tr = res.trace
    setup = wall - float(tr["time"][-1])
    out = dict(time=wall, setup_time=setup, options={k: str(v) for k, v in kw.items()}, objective=res.objective, gap=res.gap, certified=bool(res.success), nit=int(res.nit),
               stages=int(res.stages), operator_calls=int(res.operator_calls), peak_rss_mb=peak_mb(),
               theta=float(res.theta), L_yy=float(res.constants["L_yy"]), L_xy=float(res.constants["L_xy"]),
               R0=float(res.constants["R0"]), mean_step_multiplier=float(np.nanmean(tr["mean_gamma"][1:]))
               if "mean_gamma" in tr.columns and len(tr["time"]) > 1 else 1.0,
               stage_M=tr["M"].astype(int).tolist(), stage_objective=tr["objective"].tolist(),
               stage_gap=tr["gap"].tolist(), stage_time=(setup + tr["time"]).tolist())
    if F_ref is not None:
        hit = [t for t, F in zip(out["stage_time"], out["stage_objective"]) if F >= F_ref - 1e-3 * abs(F_ref)]
        out["time_to_1e-3"] = hit[0] if hit else None
    return out
FAST = dict(y0="alternate", recenter_x=True, step="backtracking", polish=True)  # the fastest certified variant


def run_big(args):
    """FSS alone at a large n (float32 stack): time, steps, time per step against the memory-bandwidth
    bound (each step reads the stack twice), and peak resident memory."""
    t0 = time.perf_counter()
    # --big-rank 0: full-rank Z^l (n x n), the paper's construction; k > 0: Z^l with k columns (cheaper)
    rank = None if args.big_rank == 0 else min(2 * args.big_N, args.big_rank)
    ds = make_uncertain_dataset("uniform", args.big_N, args.big_L, random_state=args.seed,
                                rank=rank, dtype=np.float32)
    t_gen = time.perf_counter() - t0
    stack = ds.K_stack
    stack.sum()  # warm
    t0 = time.perf_counter()
    for _ in range(3):
        stack.sum()
    t_read = (time.perf_counter() - t0) / 3  # one streaming read of the stack
    # the hot path alone: one FSS step = two operator calls (each one pass over the stack) + two projections
    from robustpapers.bental2012.ussvm import _USSVMOperator
    from robustpapers.core.projection import project_positive_lp_ball
    from robustpapers.core import project_svm_set
    op = _USSVMOperator(ds.K_bar, stack, ds.y, args.kappa)
    x, yv = np.full(args.big_L, 1 / np.sqrt(args.big_L)), np.full(ds.y.size, 1e-3)
    t0 = time.perf_counter()
    for _ in range(5):
        for _ in range(2):
            gx, gy = op(x, yv)
            x, yv = project_positive_lp_ball(x - 1e-3 * gx), project_svm_set(yv - 1e-9 * gy, ds.y, args.C)
    t_step = (time.perf_counter() - t0) / 5
    # LIBSVM tolerance 1e-10 inside the certificate: at this n the polish needs LIBSVM's active set to be right
    r = run_fss(ds, args.C, args.kappa, args.tol, args.big_max_iter, dtype=np.float32, **dict(FAST, svm_tol=1e-10))
    # the paper's algorithm alone (start 0, fixed step (16b), same certificate), capped: how far FSS's own
    # iterations get in about the time budget
    paper = None
    if args.big_paper_max_iter:
        paper = run_fss(ds, args.C, args.kappa, args.tol, args.big_paper_max_iter, dtype=np.float32,
                        step="fixed", polish=True, svm_tol=1e-10)
        paper = {k: paper[k] for k in ("time", "setup_time", "objective", "gap", "certified", "nit", "stages",
                                       "stage_M", "stage_gap", "stage_time", "R0", "theta")}
    return dict(paper_fss=paper, n=2 * args.big_N, L=args.big_L, dtype="float32", kernel_bytes=int(stack.nbytes),
                Z_rank=2 * args.big_N if rank is None else rank,
                load_avg_1min=os.getloadavg()[0],
                generate_time=t_gen, stack_read_time=t_read, bandwidth_bound_per_step=2 * t_read,
                time_per_step_total=r["time"] / max(r["nit"], 1), time_per_step=t_step, **r)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--N", type=int, default=250, help="points per class (n = 2N)")
    ap.add_argument("--L", type=int, default=10)
    ap.add_argument("--C", type=float, default=10.0)
    ap.add_argument("--kappa", type=float, default=1.0)
    ap.add_argument("--tol", type=float, default=1e-3)
    ap.add_argument("--fss-max-iter", type=int, default=20000)
    ap.add_argument("--big-N", type=int, default=0, help="also run FSS alone at this N (0: skip)")
    ap.add_argument("--big-L", type=int, default=50)
    ap.add_argument("--big-rank", type=int, default=0, help="columns of Z^l in the big run (0: n, the paper's)")
    ap.add_argument("--big-max-iter", type=int, default=3000)
    ap.add_argument("--big-only", action="store_true", help="skip the side-by-side run")
    ap.add_argument("--big-paper-max-iter", type=int, default=1000,
                    help="steps of the paper's FSS (start 0, fixed step) in the big run (0: skip)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=str(benchmark_path("bental2012", "fss_vs_socp")))
    args = ap.parse_args()
    if args.big_only:
        big = run_big(args)
        out = Path(args.out).with_name("fss_big.json")
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(dict(setting=dict(vars(args)), omp_num_threads=os.environ.get("OMP_NUM_THREADS"),
                                       machine=dict(cpus=os.cpu_count(), python=platform.python_version(),
                                                    platform=platform.platform(), numpy=np.__version__),
                                       big=big), indent=1, default=float))
        return

    ds = make_uncertain_dataset("uniform", args.N, args.L, random_state=args.seed)
    rows = []
    for scale in (None, "auto"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t0 = time.perf_counter()
            socp = ussvm_socp(ds.K_bar, ds.K_stack, ds.y, args.C, args.kappa, scale=scale)
            t_socp = time.perf_counter() - t0
        rows.append(dict(method="USSVM_SOCP (cvxpy+Clarabel)" + (" rescaled" if scale else ""), n=2 * args.N,
                         L=args.L, time=t_socp, objective=socp.objective, status=socp.solver_status,
                         peak_rss_mb=peak_mb(), alpha_norm=float(np.linalg.norm(socp.alpha))))
    F_socp = max(r["objective"] for r in rows)
    # every row but the "unpolished" one uses the KKT-polished certificate (polish=True)
    variants = [("USSVM_MN (FSS) paper step", dict(step="fixed", polish=True)),
                ("USSVM_MN (FSS) backtracking", dict(step="backtracking", polish=True)),
                ("USSVM_MN (FSS) backtracking, SVM warm start", dict(step="backtracking", y0="svm", polish=True)),
                ("USSVM_MN (FSS) paper step, R0 probe", dict(step="fixed", R0="probe", polish=True)),
                ("USSVM_MN (FSS) backtracking, R0 probe", dict(step="backtracking", R0="probe", polish=True)),
                ("USSVM_MN (FSS) backtracking, R0 probe, unpolished certificate",
                 dict(step="backtracking", R0="probe", polish=False)),
                ("USSVM_MN (FSS) alternate start, recentred x, paper step",
                 dict(y0="alternate", recenter_x=True, step="fixed", polish=True)),
                ("USSVM_MN (FSS) alternate start, recentred x, backtracking", dict(FAST))]
    for name, kw in variants:
        fss = run_fss(ds, args.C, args.kappa, args.tol, args.fss_max_iter, F_ref=F_socp, **kw)
        rows.append(dict(method=name, n=2 * args.N, L=args.L, status="certified" if fss["certified"]
                         else "max_iter", **fss))
    F_ref = max(r["objective"] for r in rows)
    for r in rows:
        r["rel_gap_to_best"] = (F_ref - r["objective"]) / abs(F_ref)
    fss = rows[-1]  # the fast variant
    t_socp = rows[1]["time"]  # the rescaled SOCP (the faster of the two)
    speedup = t_socp / fss["time"]
    big = run_big(args) if args.big_N else None
    out = dict(setting=dict(vars(args)), omp_num_threads=os.environ.get("OMP_NUM_THREADS"), rows=rows, speedup_socp_over_fss=speedup, big=big,
               load_avg_1min=os.getloadavg()[0],
               machine=dict(cpus=os.cpu_count(), python=platform.python_version(), platform=platform.platform()))
    for r in rows:
        print(f"{r['method']:45s} n={r['n']:5d} L={r['L']:3d} time={r['time']:8.2f}s F={r['objective']:.6g} "
              f"rel.gap={r['rel_gap_to_best']:.2e} status={r['status']} peakRSS={r['peak_rss_mb']:.0f}MB")
    print(f"speed-up rescaled SOCP time / fast FSS certified time = {speedup:.2f}")
    if big:
        print(f"FSS alone n={big['n']} L={big['L']} float32: time={big['time']:.1f}s F={big['objective']:.6g} "
              f"certified={big['certified']} peakRSS={big['peak_rss_mb']:.0f}MB")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(out, indent=1, default=float))


if __name__ == "__main__":
    main()
