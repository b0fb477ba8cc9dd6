"""Command line: ``python -m robustpapers {list,run,reproduce,book,cache}``.

Commands
--------
``list``       the notebooks and their parameters
``run``        execute one notebook (or ``--all``) into book/, replacing the page only on success
``reproduce``  recompute notebooks at paper scale (hours) and mark each one done
``book``       build the HTML book into _build/html
``cache``      inspect the results cache (``cache status``)

Examples
--------
``python -m robustpapers list``
``python -m robustpapers run bental2012_prediction_rules -p seed 3 -p scale quick``
``python -m robustpapers book``
``python -m robustpapers reproduce ginodi2010_dual``  (paper scale, one notebook)
``python -m robustpapers cache status --paper chen2008``  (which records today's code would reproduce)

Progress (page, code cell, elapsed time) is logged to stderr; ``-q`` keeps only warnings and errors,
``-v`` adds the cells' printed output and, on failure, the full tracebacks. An expected failure (bad
input, a notebook that raises, a missing optional dependency, a failed book build) ends with one
``error:`` line and a non-zero exit status: 2 for bad input, 1 otherwise.
"""
from __future__ import annotations

import argparse
import logging
import subprocess
import sys
import traceback
from pathlib import Path

#: The commands and their one-line help, in the order ``--help`` lists them.
COMMANDS = {
    "list": "list the notebooks and their parameters",
    "run": "execute one notebook (or --all) into book/ (the page is replaced only on success)",
    "reproduce": "recompute notebooks at paper scale (hours) and mark each one done",
    "book": "build the HTML book into _build/html",
    "cache": "inspect the results cache",
}


def _print_cache_status(root, paper):
    """The table of :func:`robustpapers.reproduce.engine.cache_status`, with a total per paper."""
    from .reproduce import engine

    errors = {}
    rows = engine.cache_status(root=root, paper=paper, errors=errors)
    for module, exc in sorted(errors.items()):
        logging.getLogger("robustpapers").warning("cannot import %s: %r", module, exc)
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


def _parser():
    # the verbosity options work before and after the command (`-v run x` and `run x -v`)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("-v", "--verbose", action="store_true", default=argparse.SUPPRESS,
                        help="also log the cells' output; on failure show the full tracebacks")
    common.add_argument("-q", "--quiet", action="store_true", default=argparse.SUPPRESS,
                        help="no progress lines, only warnings and errors")
    doc = __doc__.split("\n\n")
    parser = argparse.ArgumentParser(
        prog="python -m robustpapers", parents=[common], formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Run the book's notebooks and inspect the results cache; commands: " + ", ".join(COMMANDS) + ".",
        epilog="\n\n".join(doc[2:]).replace("``", ""))
    sub = parser.add_subparsers(dest="command", required=True, metavar="{" + ",".join(COMMANDS) + "}")
    sub.add_parser("list", parents=[common], help=COMMANDS["list"])
    run = sub.add_parser("run", parents=[common], help=COMMANDS["run"])
    run.add_argument("stem", nargs="?", help="notebook name, e.g. bental2012_prediction_rules")
    run.add_argument("--all", action="store_true",
                     help="every notebook; at paper scale where `make reproduce` cached it, else quick")
    run.add_argument("-p", "--parameter", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"),
                     help="a value for the notebook's parameters cell (checked against its type and range "
                          "before anything runs: scale quick|paper, seed >= 0, n_jobs >= 1 or -1)")
    run.add_argument("--out-dir", default=None, help="destination folder (default book/)")
    run.add_argument("--results-dir", default=None, help="sweep cache root (default results/)")
    rep = sub.add_parser("reproduce", parents=[common], help=COMMANDS["reproduce"])
    rep.add_argument("stems", nargs="*", help="notebooks to recompute (default: all)")
    rep.add_argument("--scheduler", default=None, help="Dask scheduler address for the sweeps")
    rep.add_argument("-n", "--n-jobs", default="-1", help="local joblib workers per sweep (>= 1, or -1: all cores)")
    sub.add_parser("book", parents=[common], help=COMMANDS["book"])
    cache = sub.add_parser("cache", parents=[common], help=COMMANDS["cache"])
    cache_sub = cache.add_subparsers(dest="cache_command", required=True)
    status = cache_sub.add_parser("status", help="per results folder: records current, stale (task function "
                                                 "changed since), unhashed (older records), not found")
    status.add_argument("--paper", default=None, help="only this paper's folders, e.g. chen2008")
    status.add_argument("--root", default=None,
                        help="results root (default $ROBUSTPAPERS_RESULTS, else the project's results/)")
    return parser


class _Handler(logging.StreamHandler):
    """A stream handler that looks up ``sys.stderr`` at every record (tests capture it)."""

    def __init__(self):
        super().__init__(sys.stderr)

    def emit(self, record):
        self.stream = sys.stderr
        super().emit(record)


def _setup_logging(verbose, quiet):
    """Progress of the ``robustpapers`` loggers on stderr; with ``verbose`` also papermill's (the cells' output).

    Returns the function that undoes it (``main`` leaves the loggers as it found them).
    """
    handler = _Handler()
    handler.setFormatter(logging.Formatter("%(message)s"))
    saved = []
    for name in ("robustpapers", "papermill") if verbose else ("robustpapers",):
        logger = logging.getLogger(name)
        saved.append((logger, logger.level))
        logger.addHandler(handler)
        logger.setLevel(logging.WARNING if quiet else logging.INFO)

    def undo():
        for logger, level in saved:
            logger.removeHandler(handler)
            logger.setLevel(level)
    return undo


def _error(exc, verbose, message=None):
    """One ``error:`` line (with ``verbose``: the notebook's traceback and Python's first)."""
    if verbose:
        tb = getattr(exc, "traceback", None)
        if isinstance(tb, list) and tb:
            print("\n".join(tb), file=sys.stderr)
        traceback.print_exception(exc, file=sys.stderr)
    print(f"error: {message or exc}", file=sys.stderr)


def _is_pipeline_error(exc):
    from .reproduce.pipeline import PipelineError

    return isinstance(exc, PipelineError)


def _run(args, pipeline, log):
    if args.all == bool(args.stem):
        raise ValueError("give a notebook name or --all (not both)")
    stems = pipeline.list_notebooks() if args.all else [args.stem]
    plan = []
    for stem in stems:  # every page's parameters are checked before the first one runs
        params = dict(args.parameter)
        if args.all and pipeline.paper_scale_cached(stem):
            params.setdefault("scale", "paper")
        plan.append((stem, pipeline.check_parameters(stem, params)))
    for i, (stem, params) in enumerate(plan, 1):
        if len(plan) > 1:
            log.info("page %d of %d: %s", i, len(plan), stem)
        page = pipeline.execute_notebook(stem, params, out_dir=args.out_dir, results_dir=args.results_dir,
                                         log_output=args.verbose)
        print(page, flush=True)


def main(argv=None):
    """Run the command line; return the exit status (0, 1 for a failure, 2 for bad input)."""
    args = _parser().parse_args(argv)
    args.verbose = getattr(args, "verbose", False)
    args.quiet = getattr(args, "quiet", False)
    undo_logging = _setup_logging(args.verbose, args.quiet)
    try:
        return _main(args)
    finally:
        undo_logging()


def _main(args):
    log = logging.getLogger("robustpapers.cli")
    try:
        from .reproduce import pipeline

        if args.command == "cache":
            _print_cache_status(args.root if args.root is None else Path(args.root), args.paper)
        elif args.command == "list":
            for stem in pipeline.list_notebooks():
                params = pipeline.notebook_parameters(stem)
                print(f"{stem}  " + " ".join(f"{k}={v!r}" for k, v in params.items()))
        elif args.command == "run":
            _run(args, pipeline, log)
        elif args.command == "reproduce":
            pipeline.reproduce(scheduler=args.scheduler, n_jobs=args.n_jobs, stems=args.stems)
        else:
            pipeline.build_book()
    except ValueError as exc:
        _error(exc, args.verbose)
        return 2
    except ModuleNotFoundError as exc:  # an optional dependency the command needs (a library-only install)
        _error(exc, args.verbose, f"module {exc.name!r} is not installed; the notebook commands need "
                                  "pip install 'robustpapers[book]'")
        return 1
    except RuntimeError as exc:
        if not _is_pipeline_error(exc):
            raise
        _error(exc, args.verbose)
        return 1
    except subprocess.CalledProcessError as exc:
        _error(exc, args.verbose, f"{Path(exc.cmd[0]).name} failed with exit status {exc.returncode} (its output "
                                  "is above)")
        return 1
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
