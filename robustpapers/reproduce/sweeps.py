"""Compute a chapter's paper-scale sweep piecewise, one task at a time, each cached as soon as it ends.

A chapter whose sweeps are too long for one sitting defines them once, in
``robustpapers.reproduce.<paperkey>.experiments.paper_scale_tasks(experiment, seed, datasets)`` (chen2008: Table 1
needs about ten CPU hours; bhadra2010: Table 1 a few, see its page). Its page reads the same records, so a sweep can be
computed a data set at a time, over several sessions or on several machines sharing ``results/``; tasks
already cached are skipped. Re-execute the pages afterwards (``python -m robustpapers run <page>``; the script
names them when it has computed something: they glue how much of the sweep is cached) and commit them with the
records they read.

Usage: python scripts/paper_scale.py chen2008 table1_certified [--datasets sonar heart] [--seed 0] [--reverse]
       python scripts/paper_scale.py chen2008 table1 [--datasets sonar heart]   (Table 1 as first computed)
       python scripts/paper_scale.py bhadra2010 table1 --datasets 0 1
       python scripts/paper_scale.py bental2012 fig2 [--datasets uniform beta] [--reverse | --shard 0/2]   (1950 folds)
       python scripts/paper_scale.py bental2012 fig3 [--datasets beta] [--shard 1/2]   (Figs. 3-4: 1200 tasks)
       python scripts/paper_scale.py bental2012 fig5 [--reverse]
       python scripts/paper_scale.py bhadra2010 table2_proteins --datasets 0   (Table 2: a family at a time)
       python scripts/paper_scale.py bental2012 table2_proteins --datasets 0 1 [--reverse]   (problems 0..104)
       python scripts/paper_scale.py bental2012 table2_proteins_mn [--reverse]   (USSVM_MN's rows, bias floor)
       python scripts/paper_scale.py bental2012 table2_traces [--shard 0/2]   (Table 2, longer traces: 10 problems)

A task that checkpoints (bental2012's Fig. 5 runs, hours each) and is killed leaves
``results/<paperkey>/<experiment>/<key>.checkpoint``; commit it, and the next run of the same command, here or
elsewhere, goes on from it.

Two workers can share one data set: start the second with ``--reverse``; each skips the tasks the other
has cached by the time it reaches them, so they meet in the middle (at most one task is computed twice).
Or, to go through the tasks in their order together, give K workers ``--shard 0/K`` .. ``--shard K-1/K``: worker i
takes tasks i, i + K, i + 2K, ... (bental2012's Fig. 2 comes a data set and a fold at a time, so K workers
finish the first block of 39 folds, one sample of every curve, together).
"""
from __future__ import annotations

import argparse
import importlib
import time
from pathlib import Path

from .engine import run_sweep

__all__ = ["main", "paper_scale_sweep"]


def paper_scale_sweep(paperkey, experiment, seed=0, datasets=None):
    """The paper-scale tasks of one sweep: ``(func, tasks, cache experiment, version)``, what :func:`run_sweep` takes.

    A sweep is either one of the chapter's ``experiments.PAPER_SCALE_SWEEPS`` (``paper_scale_tasks``), or the
    paper-scale tasks of an artefact module of ``robustpapers.reproduce.<paperkey>`` whose cache folder
    (``EXPERIMENT``) is ``experiment`` (e.g. ``chen2008 table1_certified``). ``datasets`` keeps the tasks of
    those data sets (an unknown one is a ``ValueError``).
    """
    experiments = importlib.import_module(f"robustpapers.reproduce.{paperkey}.experiments")
    known = getattr(experiments, "PAPER_SCALE_SWEEPS", ())
    if experiment in known or not hasattr(experiments, "PAPER_SCALE_SWEEPS"):
        return experiments.paper_scale_tasks(experiment, seed=seed, datasets=datasets)
    from .ledger import artefact_modules

    mods = [m for m in artefact_modules(paperkey) if getattr(m, "EXPERIMENT", None) == experiment
            and hasattr(m, "tasks") and hasattr(m, "TASK")]
    if not mods:
        names = sorted(set(known) | {m.EXPERIMENT for m in artefact_modules(paperkey) if hasattr(m, "TASK")})
        raise ValueError(f"unknown {paperkey} paper-scale sweep {experiment!r}; known: {', '.join(names)}")
    mod = mods[0]
    tasks = mod.tasks("paper", seed)
    if datasets is not None:
        # names from the command line are strings; some sweeps number their data sets (bhadra2010's 0..19)
        wanted = {str(d) for d in datasets}
        unknown = sorted(wanted - {str(t.get("dataset")) for t in tasks})
        if unknown:
            raise ValueError(f"datasets {unknown} are not in the {experiment} sweep")
        tasks = [t for t in tasks if str(t.get("dataset")) in wanted]
    return mod.TASK, tasks, mod.EXPERIMENT, mod.VERSION


def main(argv=None):
    p = argparse.ArgumentParser(prog="python scripts/paper_scale.py", description=__doc__.splitlines()[0])
    p.add_argument("paperkey", choices=["bental2012", "bhadra2010", "chen2008"])
    p.add_argument("experiment", help="a sweep of the chapter: one of its experiments module's PAPER_SCALE_SWEEPS "
                                      "(e.g. table1)")
    p.add_argument("--datasets", nargs="+", default=None, help="only these data sets, in this order")
    p.add_argument("--seed", type=int, default=0, help="the page's seed parameter")
    p.add_argument("--reverse", action="store_true", help="take the tasks in reverse order (a second worker)")
    p.add_argument("--shard", default=None, metavar="I/K", help="only tasks I, I + K, I + 2K, ... (worker I of K)")
    args = p.parse_args(argv)
    shard = _shard(args.shard) if args.shard is not None else None
    func, tasks, exp, version = paper_scale_sweep(args.paperkey, args.experiment, args.seed, args.datasets)
    # bhadra2010's Table 2 goes a family at a time, bental2012's Figs. 2-3 a distribution at a time; bental2012's
    # proteins come in the order given already
    key = next((k for k in ("dataset", "family", "distribution") if tasks and k in tasks[0]), None)
    if args.datasets and key is not None:
        order = [type(tasks[0][key])(d) for d in args.datasets]
        tasks.sort(key=lambda t: order.index(t[key]))
    if args.reverse:
        tasks.reverse()
    if shard is not None:
        tasks = tasks[shard[0]::shard[1]]
    computed = 0
    for t in tasks:
        t0 = time.perf_counter()
        df = run_sweep(func, [t], paperkey=args.paperkey, experiment=exp, version=version, progress=False)
        shown = ("dataset", "family", "distribution", "dataset_index", "rep", "noise", "fold", "kappa", "eps", "seed",
                 "xi", "rho", "prune", "master_start", "N", "L", "C", "method", "step", "f1", "f2")
        cached = bool(df.cached.iloc[0])
        print(exp, {k: t[k] for k in shown if k in t},
              "cached" if cached else f"computed in {time.perf_counter() - t0:.0f} s", flush=True)
        computed += not cached
    if computed:
        print(f"{computed} new record(s): re-run and commit with them " + ", ".join(_pages(args.paperkey, args.experiment)))


def _shard(text):
    """``"I/K"`` -> (I, K) with 0 <= I < K; anything else is a ValueError naming the option."""
    try:
        i, k = (int(v) for v in text.split("/"))
    except ValueError:
        i, k = -1, 0
    if not 0 <= i < k:
        raise ValueError(f"--shard must be I/K with integers 0 <= I < K, got {text!r}")
    return i, k


def _pages(paperkey, experiment):
    """The chapter's pages that read the sweep (they name its folder, or import an artefact module whose folder it
    is: they show how much of it is cached), and the reproduction log."""
    import re

    from .ledger import artefact_modules
    from .pipeline import repo_root

    root = repo_root() / "notebooks"
    mods = {m.__name__.rsplit(".", 1)[1] for m in artefact_modules(paperkey) if getattr(m, "EXPERIMENT", None) == experiment}
    imports = re.compile(rf"from robustpapers\.reproduce\.{paperkey} import (\([^)]*\)|[^\n]*)")

    def reads(text):
        named = {n for imp in imports.findall(text) for n in re.findall(r"\w+", imp)}
        return f'"{experiment}"' in text or bool(mods & named)

    pages = [f.stem for f in sorted(root.glob(f"{paperkey}_*.md")) if reads(f.read_text())]
    return pages + ["appendix_reproduction_log"]
