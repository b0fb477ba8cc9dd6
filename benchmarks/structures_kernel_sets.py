"""Benchmark: kernel sets of the structure analog (issue: 150 structures x L = 50 in <= 2 minutes).

Measures, side by side in one run,
1. the full kernel set of 000 §7.7 (nominal kernel + L perturbed kernels, K_bar, a, b) for
   15 x 10 = 150 structures and L = 50 at the quick-scale length, with ``build_kernel_set``;
2. the cost of one kernel evaluation (000 App. C) against the structure length, for the exact
   n^4 evaluation and the Fourier-factorised one, and from it the projected cost of the
   paper-scale setting (150 real SCOP domains of ~150 residues, L = 50).

Run: ``PYTHONPATH=. python benchmarks/structures_kernel_sets.py [--length 12] [--L 50] [--n-jobs 1]``.
Writes ``results/structures/benchmarks/kernel_sets.json`` and prints a table.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path

import numpy as np

from robustpapers.structures import build_kernel_set, make_structure_families
from robustpapers.reproduce.engine import benchmark_path
from robustpapers.structures.kernel import _Engine


def per_pair_seconds(length, method, n_pairs, l, sigma, seed=0, budget=20.0):
    """Median wall time of one kernel evaluation K(P, Q) between two members of the analog."""
    data = make_structure_families(n_families=2, n_members=n_pairs, length=length, random_state=seed)
    eng = _Engine(data.coords, l, sigma, sigma, method, 1e-10)
    times = []
    t_start = time.perf_counter()
    for k in range(n_pairs):
        t0 = time.perf_counter()
        eng.pair(k, n_pairs + k)
        times.append(time.perf_counter() - t0)
        if time.perf_counter() - t_start > budget:
            break
    return float(np.median(times)), (int(eng.R) if method == "fourier" else None)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--length", type=int, default=10, help="template length of the quick-scale analog")
    ap.add_argument("--L", type=int, default=50)
    ap.add_argument("--n-families", type=int, default=15)
    ap.add_argument("--n-members", type=int, default=10)
    ap.add_argument("--n-jobs", type=int, default=1)
    ap.add_argument("--l", type=int, default=4)
    ap.add_argument("--sigma", type=float, default=4.0)
    ap.add_argument("--paper-length", type=int, default=150, help="typical SCOP domain length for the projection")
    ap.add_argument("--out", default=str(benchmark_path("structures", "kernel_sets")))
    args = ap.parse_args(argv)

    data = make_structure_families(n_families=args.n_families, n_members=args.n_members, length=args.length,
                                   random_state=0)
    n = len(data)
    t0 = time.perf_counter()
    ks = build_kernel_set(data.coords, data.resolution, L=args.L, l=args.l, sigma=args.sigma, random_state=1,
                          n_jobs=args.n_jobs)
    wall = time.perf_counter() - t0
    n_evals = (args.L + 1) * n * (n + 1) // 2
    kernel_set = dict(n_structures=n, L=args.L, length=args.length, mean_length=float(np.mean([len(X) for X in data.coords])),
                      n_jobs=args.n_jobs, wall_s=wall, n_kernel_evaluations=n_evals,
                      per_evaluation_ms=1e3 * wall / n_evals, target_s=120.0, meets_target=bool(wall <= 120.0),
                      K_bar_shape=list(ks.K_bar.shape))

    rows = []
    for length in (8, 12, 16, 24, 32, 48, 64, 96):
        for method in ("exact", "fourier"):
            if method == "exact" and length > 48:
                continue
            n_pairs = 8 if length <= 32 else 3
            t, R = per_pair_seconds(length, method, n_pairs, args.l, args.sigma)
            rows.append(dict(length=length, method=method, per_pair_ms=1e3 * t, fourier_terms=R))
    # projection to the paper's setting: fit log t = c + k log n on the Fourier rows with n >= 24
    fr = [(r["length"], r["per_pair_ms"]) for r in rows if r["method"] == "fourier" and r["length"] >= 24]
    k, c = np.polyfit(np.log([x for x, _ in fr]), np.log([t for _, t in fr]), 1)
    per_pair_paper_ms = float(np.exp(c + k * np.log(args.paper_length)))
    pairs_paper = (50 + 1) * 150 * 151 // 2
    projection = dict(structures=150, L=50, length=args.paper_length, fitted_exponent=float(k),
                      per_pair_ms=per_pair_paper_ms, kernel_evaluations=pairs_paper,
                      core_hours=per_pair_paper_ms * pairs_paper / 3.6e6)

    out = dict(kernel_set=kernel_set, per_pair=rows, paper_projection=projection,
               machine=dict(cpu_count=os.cpu_count(), python=platform.python_version(),
                            load_avg_1min=os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
                            note="shared 2-core machine; timings with n_jobs as stated"),
               date=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(out, indent=1))

    print(f"kernel set: {n} structures x L={args.L} (length ~{kernel_set['mean_length']:.1f}), n_jobs={args.n_jobs}: "
          f"{wall:.1f} s for {n_evals} kernel evaluations ({kernel_set['per_evaluation_ms']:.3f} ms each); "
          f"target 120 s: {'met' if kernel_set['meets_target'] else 'NOT met'}")
    print(f"{'length':>6} {'method':>8} {'ms/pair':>10} {'terms':>6}")
    for r in rows:
        print(f"{r['length']:>6} {r['method']:>8} {r['per_pair_ms']:>10.3f} {r['fourier_terms'] or '':>6}")
    print(f"paper scale (150 x L=50, ~{args.paper_length} residues): ~{per_pair_paper_ms:.1f} ms/pair "
          f"(fitted n^{k:.2f}) x {pairs_paper} evaluations = {projection['core_hours']:.1f} core-hours")


if __name__ == "__main__":
    main()
