"""Benchmark (bental2012 §7.5 setting): the default ``ussvm`` call against cvxpy + Clarabel and FSS, and its sweep.

Not a timed test. Two parts, each printed as a table and written to
``results/bental2012/benchmarks/ussvm_default.json``:

* ``compare``: one D_G(1, 250, 10) data set (n = 500, L = 10, C = 10, kappa = 1, p = 2, float64), side by side in
  one process: ``ussvm(...)`` (method "auto"), ``ussvm_socp`` (USSVM_SOCP, cvxpy + Clarabel on the rescaled
  problem) and ``ussvm_fss`` with its defaults (FSS, USSVM_MN as tuned here). Objective F(alpha) of each, relative
  difference to the SOCP's, certified gap, wall time, speed ratio.
* ``sweep``: n = 250 ... 3000 (N = n / 2 points per class), L = 10 and 50, float32 stack (Z^l of rank 100, so that
  generating the data does not dominate), one subprocess per point;
  the solve's wall time, the process's peak resident memory during the solve (VmHWM, reset after the data are
  generated) against the stack's size, rounds and passes over the stack, the time of one pass over the stack, and
  FSS alone on the same data (``ussvm_fss(eig="power")``, capped at ``--fss-steps`` steps): its set-up time,
  time per FSS iteration against two passes over the stack, and the relative gap it reached.

Run on one core: OMP_NUM_THREADS=1 python benchmarks/bental2012_ussvm_default.py [--part compare|sweep|both]
[--sizes 250,500,1000,2000,3000] [--Ls 10,50] [--max-n-L 3000x50].
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np

RANK = 100
OUT = Path(__file__).resolve().parents[1] / "results" / "bental2012" / "benchmarks" / "ussvm_default.json"


def machine():
    cpu = "unknown"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = None
    try:
        for line in open("/proc/meminfo"):
            if line.startswith("MemTotal"):
                mem = round(int(line.split()[1]) / 2**20, 1)
    except OSError:
        pass
    return dict(cpu=cpu, cpus=os.cpu_count(), mem_total_gb=mem, platform=platform.platform(),
                python=platform.python_version(), numpy=np.__version__,
                omp_num_threads=os.environ.get("OMP_NUM_THREADS"), load_avg_1min=os.getloadavg()[0])


def _status(key):
    for line in open("/proc/self/status"):
        if line.startswith(key):
            return int(line.split()[1]) * 1024
    return None


def _reset_peak():
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass


def compare(args):
    from robustpapers.bental2012 import make_uncertain_dataset, ussvm, ussvm_fss, ussvm_socp

    ds = make_uncertain_dataset("gaussian", 250, 10, random_state=args.seed)
    C, kappa = 10.0, 1.0
    rows = {}
    t0, c0 = time.perf_counter(), time.process_time()
    r = ussvm(ds.K_bar, ds.K_stack, ds.y, C, kappa)
    rows["ussvm (default, method='auto')"] = dict(time=time.perf_counter() - t0, cpu=time.process_time() - c0,
                                                  objective=r.objective,
                                                  rel_gap=r.rel_gap, certified=bool(r.success), method=r.method,
                                                  nit=int(r.nit))
    t0, c0 = time.perf_counter(), time.process_time()
    s = ussvm_socp(ds.K_bar, ds.K_stack, ds.y, C, kappa, scale="auto")
    rows["ussvm_socp (cvxpy + Clarabel)"] = dict(time=time.perf_counter() - t0, cpu=time.process_time() - c0,
                                                 objective=s.objective,
                                                 rel_gap=None, certified=None, method="socp", nit=int(s.nit),
                                                 status=s.solver_status)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t0, c0 = time.perf_counter(), time.process_time()
        f = ussvm_fss(ds.K_bar, ds.K_stack, ds.y, C, kappa)
    rows["ussvm_fss (FSS, its defaults)"] = dict(time=time.perf_counter() - t0, cpu=time.process_time() - c0,
                                                 objective=f.objective,
                                                 rel_gap=float(f.gap) / abs(f.objective), certified=bool(f.success),
                                                 method="fss", nit=int(f.nit))
    F_ref = s.objective
    for row in rows.values():
        row["rel_diff_to_socp"] = (row["objective"] - F_ref) / abs(F_ref)
    a, b = rows["ussvm_socp (cvxpy + Clarabel)"], rows["ussvm (default, method='auto')"]
    speed, speed_cpu = a["time"] / b["time"], a["cpu"] / b["cpu"]
    print(f"\nD_G(1, 250, 10): n = 500, L = 10, C = {C}, kappa = {kappa}, p = 2, float64")
    print(f"{'solver':36s} {'wall s':>8s} {'CPU s':>8s} {'F(alpha)':>14s} {'(F-F_socp)/F':>13s} {'cert. gap':>10s} {'nit':>6s}")
    for name, row in rows.items():
        g = "-" if row["rel_gap"] is None else f"{row['rel_gap']:.1e}"
        print(f"{name:36s} {row['time']:8.2f} {row['cpu']:8.2f} {row['objective']:14.9g} {row['rel_diff_to_socp']:13.1e} {g:>10s} "
              f"{row['nit']:6d}")
    print(f"speed ratio cvxpy+Clarabel / ussvm default: {speed:.0f}x (wall), {speed_cpu:.0f}x (CPU)")
    return dict(speed_ratio_cpu=speed_cpu, setting=dict(data="D_G(1, 250, 10)", n=500, L=10, C=C, kappa=kappa, p=2, dtype="float64",
                             seed=args.seed), rows=rows, speed_ratio=speed)


def fss_step_time(ds, C=10.0, kappa=1.0):
    """One FSS (Mirror-Prox) iteration of USSVM_MN as :func:`ussvm_fss` runs it: two calls of its operator (one
    pass over the stack each) and two projections on each block; the fastest of 7."""
    import robustpapers.bental2012  # noqa: F401
    from robustpapers.core import project_svm_set
    from robustpapers.core.projection import project_positive_lp_ball

    op = sys.modules["robustpapers.bental2012.ussvm"]._USSVMOperator(ds.K_bar, ds.K_stack, ds.y, kappa)
    L, n = ds.K_stack.shape[0], ds.y.size
    x, yv = np.full(L, 1.0 / np.sqrt(L)), np.full(n, 0.1)
    reps = []
    for _ in range(7):
        t0 = time.perf_counter()
        gx, gy = op(x, yv)
        xh, yh = project_positive_lp_ball(x - 1e-3 * gx, 2), project_svm_set(yv + 1e-3 * gy, ds.y, C)
        gx, gy = op(xh, yh)
        x, yv = project_positive_lp_ball(x - 1e-3 * gx, 2), project_svm_set(yv + 1e-3 * gy, ds.y, C)
        reps.append(time.perf_counter() - t0)
    return min(reps)


def point(n, L, seed, fss_steps, rank=None, dist="gaussian"):
    """One sweep point, in its own process (see the module docstring); prints one JSON line."""
    from robustpapers.bental2012 import make_uncertain_dataset, ussvm, ussvm_fss

    t0 = time.perf_counter()
    # Z^l with RANK columns (make_uncertain_kernels(rank=...)): generating full-rank Z^l costs L n^3 flops (minutes
    # at n = 3000, L = 50), far more than the solve; the solver reads the same (L, n, n) stack either way
    rank = min(n, RANK if rank is None else (rank or n))
    ds = make_uncertain_dataset(dist, n // 2, L, random_state=seed, dtype=np.float32, rank=rank)
    t_gen = time.perf_counter() - t0
    stack_bytes = ds.K_stack.nbytes
    flat = ds.K_stack.reshape(L * n, n)
    v = np.ones(n, dtype=np.float32)
    flat @ v
    reps = []
    for _ in range(7):  # the fastest of 7: the machine is shared, a slower one measures the neighbours
        t0 = time.perf_counter()
        flat @ v
        reps.append(time.perf_counter() - t0)
    t_pass = min(reps)
    t_step = fss_step_time(ds)
    _reset_peak()
    base = _status("VmRSS:")
    t0, c0 = time.perf_counter(), time.process_time()
    r = ussvm(ds.K_bar, ds.K_stack, ds.y, 10.0, 1.0)
    t_solve, c_solve = time.perf_counter() - t0, time.process_time() - c0
    peak = _status("VmHWM:")
    out = dict(n=n, L=L, distribution=dist, dtype="float32", Z_rank=rank, stack_bytes=stack_bytes,
               solve_extra_bytes=peak - base, generate_time=t_gen, pass_time=t_pass,
               fss_step_time=t_step, fss_step_over_two_passes=t_step / (2 * t_pass),
               time=t_solve, cpu=c_solve, times=r.times, peak_rss_bytes=peak, rss_before_bytes=base, peak_over_stack=peak / stack_bytes,
               certified=bool(r.success), rel_gap=float(r.rel_gap), method=r.method, rounds=int(r.nit),
               stack_passes=int(r.stack_passes), objective=float(r.objective))
    if fss_steps:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            stamps = []
            # the submodule (the package attribute ``ussvm`` is the entry-point function)
            ussvm_module = sys.modules["robustpapers.bental2012.ussvm"]
            op_call = ussvm_module._USSVMOperator.__call__

            def timed(self, x, yv):  # one FSS step calls the operator twice (extragradient)
                stamps.append(time.perf_counter())
                return op_call(self, x, yv)
            ussvm_module._USSVMOperator.__call__ = timed
            t0, c0 = time.perf_counter(), time.process_time()
            f = ussvm_fss(ds.K_bar, ds.K_stack, ds.y, 10.0, 1.0, max_iter=fss_steps, eig="power", check_every=10**9)
            t_fss, c_fss = time.perf_counter() - t0, time.process_time() - c0
            ussvm_module._USSVMOperator.__call__ = op_call
        steps = np.diff(np.asarray(stamps)[::2]) if len(stamps) > 4 else np.array([np.nan])
        out["fss"] = dict(time=t_fss, cpu=c_fss, setup_time=(stamps[0] - t0) if stamps else t_fss, nit=int(f.nit),
                          time_per_iteration=float(np.median(steps)),
                          operator_calls=int(f.operator_calls),
                          rel_gap=float(f.gap) / abs(float(f.objective)), certified=bool(f.success),
                          relative_error_vs_default=(float(r.objective) - float(f.objective)) / abs(float(r.objective)))
        out["fss"]["iteration_over_two_passes"] = out["fss"]["time_per_iteration"] / (2 * t_pass)
    print(json.dumps(out))


def sweep(args):
    pts = []
    big = tuple(int(v) for v in args.max_n_L.split("x"))
    for L in [int(v) for v in args.Ls.split(",")]:
        for n in [int(v) for v in args.sizes.split(",")]:
            if n * n * L > big[0] * big[0] * big[1]:
                continue
            cmd = [sys.executable, __file__, "--point", f"{n}x{L}", "--seed", str(args.seed), "--rank", str(args.rank),
                   "--dist", args.dist,
                   "--fss-steps", str(args.fss_steps if n * n * L <= args.fss_max_size else 0)]
            res = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, OMP_NUM_THREADS="1"))
            line = [ln for ln in res.stdout.splitlines() if ln.startswith("{")]
            if res.returncode or not line:
                print(res.stderr[-2000:])
                pts.append(dict(n=n, L=L, error=res.stderr[-500:]))
                continue
            pt = json.loads(line[-1])
            pts.append(pt)
            f = pt.get("fss")
            print(f"n={n:5d} L={L:3d} stack {pt['stack_bytes'] / 1e9:6.2f} GB  time {pt['time']:7.2f} s  "
                  f"peak {pt['peak_rss_bytes'] / 1e9:6.2f} GB ({pt['peak_over_stack']:.2f}x stack)  "
                  f"CPU {pt['cpu']:6.2f} s  rounds {pt['rounds']:2d}  passes {pt['stack_passes']:3d}  pass {pt['pass_time']:.3f} s  "
                  f"cert {pt['certified']} gap {pt['rel_gap']:.1e}  FSS step {pt['fss_step_time']:.4f} s "
                  f"({pt['fss_step_over_two_passes']:.2f}x two passes)"
                  + (f"  | FSS run: setup {f['setup_time']:.1f} s, {f['time_per_iteration']:.4f} s/it, "
                     f"gap {f['rel_gap']:.1e} after {f['nit']} steps"
                     if f else ""), flush=True)
    return pts


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", default="both", choices=["compare", "sweep", "both"])
    ap.add_argument("--sizes", default="250,500,1000,2000,3000")
    ap.add_argument("--Ls", default="10,50")
    ap.add_argument("--max-n-L", default="3000x50", help="largest n x L of the sweep")
    ap.add_argument("--fss-steps", type=int, default=20, help="FSS steps per sweep point (0: none)")
    ap.add_argument("--fss-max-size", type=float, default=1000 * 1000 * 50, help="FSS only up to n*n*L")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--dist", default="gaussian", choices=["gaussian", "uniform", "beta"],
                    help="entries of Z^l: D_G, D_U or D_B (section 7.1.1)")
    ap.add_argument("--rank", type=int, default=RANK, help="columns of Z^l in the sweep (0: n, the paper's)")
    ap.add_argument("--point", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args()
    if args.point:
        n, L = (int(v) for v in args.point.split("x"))
        point(n, L, args.seed, args.fss_steps, args.rank, args.dist)
        return
    out = Path(args.out)
    result = json.loads(out.read_text()) if out.exists() else {}
    result["machine"] = machine()
    print("machine:", json.dumps(result["machine"]))
    if args.part in ("compare", "both"):
        result["compare"] = compare(args)
    if args.part in ("sweep", "both"):
        old = {(p["n"], p["L"]): p for p in result.get("sweep", [])}
        for p in sweep(args):
            old[(p["n"], p["L"])] = p
        result["sweep"] = [old[k] for k in sorted(old, key=lambda k: (k[1], k[0]))]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1, default=float))
    print("wrote", out)


if __name__ == "__main__":
    main()
