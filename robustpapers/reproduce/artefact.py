"""What every artefact module of :mod:`robustpapers.reproduce` shares: running its tasks and reading its records.

An artefact module (``robustpapers/reproduce/<paper>/<artefact>.py``, one per figure or table of a paper)
declares in one place::

    PAPER = "chen2008"            # the paper's key
    LABEL = "chen2008 Table 1"    # the figure or table, as the book numbers it
    EXPERIMENT = "table1"         # its folder in results/<paper>/
    VERSION = 3                   # bump when the task function changes meaning
    SETTINGS = {"quick": {...}, "paper": {...}}
    def tasks(scale="paper", seed=0): ...      # the task parameters (list of dicts)
    def <name>_task(**params): ...             # the task function, module level; TASK names it
    def records(root=None, scale="paper", seed=0): return load(<this module>, root, scale, seed)
    def claims(records): ...                   # list of ledger.Claim
    def numbers(records): ...                  # the values the page glues (dict)
    def draw(records): ...                     # a matplotlib Figure (figures only)

The page calls :func:`run` (or :func:`load`) and then ``numbers`` / ``draw`` / ``claims``; no analysis
lives in the notebook.
"""
from __future__ import annotations

import sys

from .engine import load_cached, run_sweep

__all__ = ["load", "run", "for_page", "missing", "scan"]


def _module(mod):
    return sys.modules[mod] if isinstance(mod, str) else mod


def load(mod, root=None, scale="paper", seed=0):
    """The cached record of each task of ``mod`` at ``scale`` (None where a task is not cached), in task order."""
    mod = _module(mod)
    return [load_cached(mod.TASK, t, mod.PAPER, mod.EXPERIMENT, mod.VERSION, root) for t in mod.tasks(scale, seed)]


def run(mod, scale="quick", seed=0, n_jobs=1, root=None, progress=False):
    """Compute (or read from the cache) every task of ``mod`` at ``scale``; return the records in task order."""
    mod = _module(mod)
    run_sweep(mod.TASK, mod.tasks(scale, seed), paperkey=mod.PAPER, experiment=mod.EXPERIMENT,
              version=mod.VERSION, n_jobs=n_jobs, root=root, progress=progress)
    return load(mod, root, scale, seed)


def missing(records):
    """How many of ``records`` are not cached (None)."""
    return sum(r is None for r in records)


def scan(paper, experiment, root=None, where=None):
    """Every record in ``results/<paper>/<experiment>/`` (sorted by file name) whose parameters match ``where``.

    For claims read from records of task functions that have not become an artefact module yet:
    ``where`` is a dict of parameter values (a record matches when each given parameter equals it).
    A corrupt record (not JSON, or without a record's keys) raises ``ValueError`` naming its file.
    """
    from pathlib import Path

    from .engine import read_record, results_root

    base = (results_root() if root is None else Path(root)) / paper / experiment
    out = []
    for path in sorted(base.glob("*.json")) if base.exists() else []:
        rec = read_record(path)  # a corrupt record raises ValueError naming its file
        if where is None or all(rec.get("params", {}).get(k) == v for k, v in where.items()):
            out.append(rec)
    return out


def for_page(mod, scale, seed=0, n_jobs=1, root=None):
    """The records a page shows: computed (or read from the cache) at ``scale``, except that a module marked
    ``LONG = True`` is only read from the cache at paper scale (its sweep is computed piecewise by
    ``scripts/paper_scale.py``; the page shows what is cached and says how much is missing)."""
    mod = _module(mod)
    if scale != "quick" and getattr(mod, "LONG", False):
        return load(mod, root, scale, seed)
    return run(mod, scale, seed, n_jobs=n_jobs, root=root)
