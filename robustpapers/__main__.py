"""Command line: ``python -m robustpapers {list,run,book}``.

Examples
--------
``python -m robustpapers list``
``python -m robustpapers run bental2012_prediction_rules -p seed 3 -p scale quick``
``python -m robustpapers book``
``python -m robustpapers reproduce ginodi2010_dual``  (paper scale, one notebook)
"""
from __future__ import annotations

import argparse
import sys


def main(argv=None):
    from .reproduce import pipeline

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
    args = parser.parse_args(argv)
    try:
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
