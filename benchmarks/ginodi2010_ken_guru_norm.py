"""KEN-GURU: time per update with the O(1) norm update (4.13) vs the naive O(M^2) norm, against M.

Runs one epoch (M updates) of `robustpapers.ginodi2010.ken_guru` on an RBF Gram matrix of random
data for each M, with both norm updates side by side, checks that both runs give the same
coefficients, prints a table and writes it to results/ginodi2010/benchmarks/ken_guru_norm.json.

    PYTHONPATH=. python benchmarks/ginodi2010_ken_guru_norm.py [--sizes 250 500 1000 2000] [--repeats 3]
"""
import argparse
import json
import platform
import time
import warnings
from pathlib import Path

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from robustpapers.core import rbf_kernel
from robustpapers.ginodi2010 import ken_guru
from robustpapers.reproduce.engine import benchmark_path


def time_epoch(K, y, norm_update, repeats):
    best, res = np.inf, None
    for _ in range(repeats):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            t0 = time.perf_counter()
            res = ken_guru(K, y, 1.0, eta0=1.0, norm_update=norm_update, max_iter=1, tol=1e-12, random_state=0)
            best = min(best, time.perf_counter() - t0)
    return best / len(y), res


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", type=int, nargs="+", default=[250, 500, 1000, 2000])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", default=str(benchmark_path("ginodi2010", "ken_guru_norm")))
    args = ap.parse_args(argv)
    rng = np.random.default_rng(0)
    rows = []
    for M in args.sizes:
        X = rng.normal(size=(M, 10))
        y = np.sign(X[:, 0] + 0.5 * rng.normal(size=M))
        K = rbf_kernel(X, gamma=0.1)
        t_o1, r_o1 = time_epoch(K, y, "o1", args.repeats)
        t_naive, r_naive = time_epoch(K, y, "naive", max(1, args.repeats if M <= 1000 else 1))
        same = float(np.max(np.abs(r_o1.alpha - r_naive.alpha)) / max(1e-300, np.max(np.abs(r_naive.alpha))))
        rows.append(dict(M=M, us_per_update_o1=t_o1 * 1e6, us_per_update_naive=t_naive * 1e6,
                         speedup=t_naive / t_o1, max_rel_alpha_diff=same))
        print(f"M={M:5d}  O(1): {t_o1 * 1e6:8.1f} us/update   naive: {t_naive * 1e6:9.1f} us/update   "
              f"speed-up {t_naive / t_o1:6.1f}x   max rel. alpha difference {same:.1e}", flush=True)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"benchmark": "ken_guru_norm",
                               "description": "KEN-GURU (ginodi2010 Algorithm 2): microseconds per update with the "
                                              "O(1) norm update (4.13) vs the naive O(M^2) norm, one epoch per size.", "machine": platform.processor() or platform.machine(),
                               "python": platform.python_version(), "kernel": "rbf gamma=0.1, d=10",
                               "updates_per_measure": "one epoch (M updates), best of repeats", "rows": rows},
                              indent=1))
    print(f"written {out}")


if __name__ == "__main__":
    main()
