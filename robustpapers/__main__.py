"""Command line: ``python -m robustpapers {list,run,book,reproduce,cache}``.

Examples
--------
``python -m robustpapers list``
``python -m robustpapers run bental2012_prediction_rules -p seed 3 -p scale quick``
``python -m robustpapers book``
``python -m robustpapers reproduce ginodi2010_dual``  (paper scale, one notebook)
``python -m robustpapers cache status --paper chen2008``  (which records today's code would reproduce)
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path


def _print_cache_status(root, paper):
    """The table of :func:`robustpapers.reproduce.engine.cache_status`, with a total per paper."""
    from .reproduce import engine

    errors = {}
    rows = engine.cache_status(root=root, paper=paper, errors=errors)
    for module, exc in sorted(errors.items()):
        print(f"warning: cannot import {module}: {exc!r}", file=sys.stderr)
    counts = ("records", "current", "stale", "unhashed", "not_found")
    heads = ("records", "current", "stale", "unhashed", "not found")
    width = max([len("folder")] + [len(f"{r['paper']}/{r['experiment']}") for r in rows] +
                [len(f"{r['paper']} (all)") for r in rows])
    print(f"{'folder':<{width}}  " + "  ".join(f"{h:>9}" for h in heads))
    for paper_key in sorted({r["paper"] for r in rows}):
        mine = [r for r in rows if r["paper"] == paper_key]
        for r in mine:
            print(f"{r['paper'] + '/' + r['experiment']:<{width}}  " + "  ".join(f"{r[c]:>9}" for c in counts))
        print(f"{paper_key + ' (all)':<{width}}  " + "  ".join(f"{sum(r[c] for r in mine):>9}" for c in counts))
    if not rows:
        print("no records")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m robustpapers", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list the notebooks and their parameters")
    run = sub.add_parser("run", help="execute one notebook into book/ (only on success)")
    run.add_argument("stem", nargs="?", help="notebook name, e.g. bental2012_prediction_rules")
    run.add_argument("--all", action="store_true",
                     help="every notebook; at paper scale where `make reproduce` cached it, else quick")
    run.add_argument("-p", "--parameter", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"))
    run.add_argument("--out-dir", default=None, help="destination folder (default book/)")
    run.add_argument("--results-dir", default=None, help="sweep cache root (default results/)")
    sub.add_parser("book", help="build the HTML book into _build/html")
    rep = sub.add_parser("reproduce", help="recompute notebooks at paper scale (hours)")
    rep.add_argument("stems", nargs="*", help="notebooks to recompute (default: all)")
    rep.add_argument("--scheduler", default=None, help="Dask scheduler address for the sweeps")
    rep.add_argument("-n", "--n-jobs", default="-1", help="local joblib workers per sweep")
    cache = sub.add_parser("cache", help="inspect the results cache")
    cache_sub = cache.add_subparsers(dest="cache_command", required=True)
    status = cache_sub.add_parser("status", help="per results folder: records current, stale (task function "
                                                 "changed since), unhashed (older records), not found")
    status.add_argument("--paper", default=None, help="only this paper's folders, e.g. chen2008")
    status.add_argument("--root", default=None,
                        help="results root (default $ROBUSTPAPERS_RESULTS, else the project's results/)")
    args = parser.parse_args(argv)
    try:
        if args.command == "cache":
            _print_cache_status(args.root if args.root is None else Path(args.root), args.paper)
            return 0
        from .reproduce import pipeline

        if args.command == "list":
            for stem in pipeline.list_notebooks():
                params = pipeline.notebook_parameters(stem)
                print(f"{stem}  " + " ".join(f"{k}={v!r}" for k, v in params.items()))
        elif args.command == "run":
            if args.all == bool(args.stem):
                raise ValueError("give a notebook name or --all (not both)")
            stems = pipeline.list_notebooks() if args.all else [args.stem]
            for stem in stems:
                params = dict(args.parameter)
                if args.all and pipeline.paper_scale_cached(stem):
                    params.setdefault("scale", "paper")
                print(pipeline.execute_notebook(stem, params, out_dir=args.out_dir,
                                                results_dir=args.results_dir), flush=True)
        elif args.command == "reproduce":
            pipeline.reproduce(scheduler=args.scheduler, n_jobs=args.n_jobs, stems=args.stems)
        else:
            pipeline.build_book()
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
