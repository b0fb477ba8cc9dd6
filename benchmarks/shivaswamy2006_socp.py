"""Speed of Theorem 1's SOCP (10) and of the missing-value SOCP (44) with cvxpy + Clarabel.

Side by side, for n in --sizes and d = 60:
  (10) dense    every row has a full-rank d x d covariance (cone of dimension d + 1 per row);
  (44) low-rank the padded covariance of 50% missing features in 50% of the rows, passed as its
                d x |m| factor (cone of dimension |m| + 1, only for incomplete rows);
  (44) full     the same covariances passed as full d x d matrices (factor = symmetric square root,
                cone of dimension d + 1).
Wall time includes cvxpy's canonicalisation; 'solver' is Clarabel's own (wall) time; 'cpu_s' is the
process CPU time of the whole solve, which a machine shared with other jobs inflates far less than
wall time.
Writes results/shivaswamy2006/benchmarks/socp.json (``--merge`` keeps the stored rows of the
problems and sizes not run this time, e.g. to add one slow row to an earlier full run).

    python benchmarks/shivaswamy2006_socp.py --sizes 500 2000
    python benchmarks/shivaswamy2006_socp.py --sizes 2000 --problems dense --merge
"""
import argparse
import json
import os
import platform
import time

import numpy as np

from robustpapers.reproduce.engine import benchmark_path
from robustpapers.shivaswamy2006 import class_moments, conditional_moments, delete_entries, robust_svm


def data(n, d, seed):
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    X = rng.standard_normal((n, d)) + 0.5 * y[:, None]
    return X, y, rng


PROBLEMS = ("dense", "lowrank", "full")


def run(n, d=60, seed=0, problems=PROBLEMS):
    X, y, rng = data(n, d, seed)
    rows = []
    # (10): a dense covariance per row
    A = rng.standard_normal((n, d, d)) / np.sqrt(4 * d)
    S = np.einsum("nij,nkj->nik", A, A)
    if "dense" in problems:
        t, c0 = time.perf_counter(), time.process_time()
        r = robust_svm(X, y, S, gamma=1.0, C=1.0)
        rows.append(dict(problem="(10) dense Sigma_i", n=n, d=d, cone_entries=int(n * d),
                         wall_s=time.perf_counter() - t, cpu_s=time.process_time() - c0,
                         solver_s=r.solve_time, iterations=r.nit,
                         status=r.solver_status, objective=r.objective))
    # (44): padded covariances of the EM imputation
    Xm = delete_entries(X, 0.5, 0.5, rng)
    mom = class_moments(Xm, y)
    Xb = np.empty_like(X)
    F = [None] * n
    for c in (1.0, -1.0):
        idx = np.flatnonzero(y == c)
        Xb[idx], Fc = conditional_moments(Xm[idx], *mom[c])
        for k, i in enumerate(idx):
            F[i] = Fc[k]
    if "lowrank" not in problems and "full" not in problems:
        return rows
    t, c0 = time.perf_counter(), time.process_time()
    r_low = robust_svm(Xb, y, gamma=1.0, C=1.0, factors=F)
    rows.append(dict(problem="(44) low-rank factors", n=n, d=d,
                     cone_entries=int(sum(L.shape[1] for L in F if L is not None)),
                     wall_s=time.perf_counter() - t, cpu_s=time.process_time() - c0,
                     solver_s=r_low.solve_time, iterations=r_low.nit,
                     status=r_low.solver_status, objective=r_low.objective))
    if "full" not in problems:
        return rows
    full = []
    for L in F:
        if L is None:
            full.append(None)
            continue
        Sig = L @ L.T
        ev, V = np.linalg.eigh(Sig)
        full.append((V * np.sqrt(np.clip(ev, 0, None))) @ V.T)  # d x d symmetric square root
    t, c0 = time.perf_counter(), time.process_time()
    r_full = robust_svm(Xb, y, gamma=1.0, C=1.0, factors=full)
    rows.append(dict(problem="(44) full d x d roots", n=n, d=d,
                     cone_entries=int(d * sum(L is not None for L in F)), wall_s=time.perf_counter() - t,
                     cpu_s=time.process_time() - c0, solver_s=r_full.solve_time, iterations=r_full.nit,
                     status=r_full.solver_status, objective=r_full.objective))
    assert abs(r_full.objective - r_low.objective) <= 1e-5 * max(1.0, abs(r_low.objective)), "same problem"
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[500, 2000])
    ap.add_argument("--d", type=int, default=60)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--dense-max", type=int, default=10**9, help="skip the dense (10) above this n")
    ap.add_argument("--problems", nargs="+", choices=PROBLEMS, default=list(PROBLEMS))
    ap.add_argument("--merge", action="store_true", help="keep the stored rows not measured in this run")
    args = ap.parse_args()
    load0 = os.getloadavg()[0]
    rows = []
    for n in args.sizes:
        probs = [p for p in args.problems if p != "dense" or n <= args.dense_max]
        new = run(n, args.d, args.seed, problems=probs)
        rows.extend(new)
        for r in new:
            print(f"{r['problem']:24s} n={r['n']:5d} d={r['d']} cone entries={r['cone_entries']:7d} "
                  f"wall={r['wall_s']:7.2f}s cpu={r['cpu_s']:7.2f}s solver={r['solver_s']:7.2f}s it={r['iterations']} {r['status']}",
                  flush=True)
    out = benchmark_path("shivaswamy2006", "socp")
    out.parent.mkdir(parents=True, exist_ok=True)
    skip = f"; dense (10) only for n <= {args.dense_max}" if args.dense_max < max(args.sizes) else ""
    note = (f"Measured on {platform.node() or 'the development machine'} ({platform.processor() or platform.machine()}), "
            f"shared 2-core machine (load average {load0:.1f} at the start), sizes n = {args.sizes}, d = {args.d}, "
            f"problems {args.problems}{skip}; cvxpy + Clarabel, one run each.")
    notes = [note]
    if args.merge and out.exists():
        old = json.loads(out.read_text())
        done = {(r["problem"], r["n"]) for r in rows}
        rows = [r for r in old["rows"] if (r["problem"], r["n"]) not in done] + rows
        rows.sort(key=lambda r: (r["n"], r["problem"]))
        prev = old.get("notes", [old["note"]] if "note" in old else [])
        notes = prev + [note]
    out.write_text(json.dumps({"note": " ".join(notes), "notes": notes, "rows": rows}, indent=1))
    print("wrote", out)


if __name__ == "__main__":
    main()
