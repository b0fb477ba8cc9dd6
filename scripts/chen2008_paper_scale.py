"""Compute chen2008's paper-scale sweeps piecewise, one task at a time, each cached as soon as it ends.

The chapter's page reads these records (``paper_scale_tasks`` defines the tasks for both), so a
sweep too long for one sitting -- Table 1 at paper scale needs about ten CPU hours -- can be computed
a data set at a time, over several sessions or on several machines sharing ``results/``; tasks already
cached are skipped. Re-execute the page afterwards (``python -m robustpapers run chen2008_indefinite_svm``).

Usage: python scripts/chen2008_paper_scale.py table1 [--datasets sonar heart] [--seed 0]
       (experiments: convergence, rho_sweep, table1, xi_sweep)
"""
from __future__ import annotations

import argparse
import time

from robustpapers.chen2008.experiments import paper_scale_tasks
from robustpapers.runner import run_sweep


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("experiment", choices=["convergence", "rho_sweep", "table1", "xi_sweep"])
    p.add_argument("--datasets", nargs="+", default=None, help="only these data sets, in this order")
    p.add_argument("--seed", type=int, default=0, help="the page's seed parameter")
    args = p.parse_args(argv)
    func, tasks, exp, version = paper_scale_tasks(args.experiment, seed=args.seed, datasets=args.datasets)
    if args.datasets:
        tasks.sort(key=lambda t: args.datasets.index(t["dataset"]))
    for t in tasks:
        t0 = time.perf_counter()
        df = run_sweep(func, [t], paperkey="chen2008", experiment=exp, version=version, progress=False)
        print(exp, t["dataset"], {k: t[k] for k in ("seed", "xi", "rho", "prune") if k in t},
              "cached" if bool(df.cached.iloc[0]) else f"computed in {time.perf_counter() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
