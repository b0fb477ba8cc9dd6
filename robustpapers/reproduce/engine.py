"""Experiment runner: a sweep is a list of independent tasks, run with joblib or Dask, cached on disk.

:func:`run_sweep` caches one JSON record per task; :func:`parallel_map` is the same execution
backend (joblib workers or a Dask cluster) without the cache, for work whose outputs are arrays
consumed at once (e.g. blocks of a kernel matrix).

A task is a dict of JSON-serialisable parameters; the task function is a
module-level callable ``func(**params) -> dict`` returning JSON-serialisable
values. Each result is stored as
``results/<paperkey>/<experiment>/<key>.json`` with its provenance, where the
key hashes the function's name, the experiment version and the parameters.
A stored result is reused only if its stored parameters, function and
version equal the requested ones exactly; anything else recomputes.
"""
from __future__ import annotations

import datetime as _dt
import hashlib
import itertools
import json
import os
import platform
import subprocess
import threading
import time
from pathlib import Path

import numpy as np

from ..core.parallel import parallel_map
from ..core.seeding import canonical as _canonical, derive_seed

__all__ = ["grid", "derive_seed", "task_name", "parallel_map", "results_root", "task_key", "run_sweep", "cached_sweep", "load_cached",
           "TaskCheckpoint", "task_checkpoint",
           "provenance_summary",
           "benchmark_path", "load_benchmark"]


def grid(**axes):
    """Cartesian product of the given axes as a list of parameter dicts (in a stable order)."""
    names = list(axes)
    for name, values in axes.items():
        if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
            raise ValueError(f"grid axis {name!r} must be a list of values, got {values!r}")
    return [dict(zip(names, combo)) for combo in itertools.product(*(list(axes[n]) for n in names))]


def _repo_root():
    here = Path.cwd().resolve()
    for d in (here, *here.parents):
        if (d / "_toc.yml").exists() and (d / "robustpapers").is_dir():
            return d
    return None


def results_root():
    """Where results are cached: ``$ROBUSTPAPERS_RESULTS``, else ``<repo>/results``, else ``./results``."""
    env = os.environ.get("ROBUSTPAPERS_RESULTS")
    if env:
        return Path(env)
    root = _repo_root()
    return (root / "results") if root is not None else Path("results")


def benchmark_path(paperkey, name):
    """Where the measurements of ``benchmarks/<paperkey>_*.py`` live: ``<repo>/results/<paperkey>/benchmarks/<name>.json``.

    Benchmarks are committed measurements, not sweep results: their place never follows
    ``$ROBUSTPAPERS_RESULTS``, so a notebook run with an empty cache still reads them.
    """
    root = _repo_root() or Path(__file__).resolve().parents[2]
    return root / "results" / paperkey / "benchmarks" / f"{name}.json"


def load_benchmark(paperkey, name):
    """The stored measurements of one benchmark (a dict), or ``ValueError`` naming the script to run."""
    path = benchmark_path(paperkey, name)
    if not path.exists():
        raise ValueError(f"no benchmark results at {path}: run benchmarks/{paperkey}_*.py first")
    return json.loads(path.read_text())


def task_name(name):
    """Decorator: cache a task function's records under ``name`` ("module:qualname") instead of its own.

    A task function that moves to another module keeps the name it had, so its cached records still
    match (the cache key hashes the name, see :func:`task_key`).

    Examples
    --------
    >>> @task_name("robustpapers.demo:square")
    ... def square(x):
    ...     return {"y": x * x}
    >>> _func_name(square)
    'robustpapers.demo:square'
    """
    if not isinstance(name, str) or ":" not in name:
        raise ValueError(f"a task name is 'module:qualname', got {name!r}")

    def mark(func):
        func.__robustpapers_task__ = name
        return func

    return mark


def _func_name(func):
    return getattr(func, "__robustpapers_task__", None) or f"{func.__module__}:{func.__qualname__}"


def task_key(func, params, version):
    """Hash identifying a task: function name, experiment version and canonical parameters."""
    payload = json.dumps({"func": _func_name(func), "version": version, "params": _canonical(params)}, sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()[:20]


def _read_git_commit():
    """HEAD of the checkout the package was imported from, with "+dirty" if its tracked files under
    ``robustpapers/`` differ from it; "unknown" outside a git checkout."""
    pkg = Path(__file__).resolve().parents[1]
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=pkg, capture_output=True, text=True, timeout=10)
        commit = head.stdout.strip()
        if head.returncode != 0 or not commit:
            return "unknown"
        status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", str(pkg)],
                                cwd=pkg, capture_output=True, text=True, timeout=30)
        return commit + ("+dirty" if status.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def _git_commit():
    """The commit whose code this process runs, as read when this module was imported: a sweep that runs for
    hours stamps its records with the code it imported, not with a commit made while it ran."""
    return _IMPORT_COMMIT


def _run_one(func, params):
    t0 = time.perf_counter()
    result = func(**params)
    wall = time.perf_counter() - t0
    if not isinstance(result, dict):
        raise ValueError(f"task function {_func_name(func)} must return a dict, got {type(result).__name__}")
    return _canonical(result), wall


def _path(root, paperkey, experiment, key):
    return Path(root) / paperkey / experiment / f"{key}.json"


class TaskCheckpoint:
    """The state a long sweep task keeps between processes, next to the record it will become.

    A task function that can resume (e.g. through :func:`robustpapers.bental2012.ussvm_fss`'s ``checkpoint``
    and ``resume``) asks :func:`task_checkpoint` for its store, loads the state a killed run left with ``load``
    and keeps its own with ``save`` as it goes. The file, ``results/<paperkey>/<experiment>/<key>.checkpoint``
    (JSON), is removed once the task's record is written; committed meanwhile, it lets another session or
    machine go on.
    ``commits`` lists the code versions of the processes that worked on it, oldest first.
    """

    def __init__(self, path):
        self.path = Path(path)
        self.commits = [_git_commit()]

    def load(self):
        """The saved state, or None; adds this process's commit to ``commits`` after those that wrote it."""
        if not self.path.exists():
            return None
        stored = json.loads(self.path.read_text())
        self.commits = list(stored["commits"])
        if self.commits[-1] != _git_commit():
            self.commits.append(_git_commit())
        return stored["state"]

    def save(self, state):
        """Write ``state`` (a dict of JSON-able values and arrays; floats round-trip exactly) atomically."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".checkpoint-tmp")
        tmp.write_text(json.dumps({"commits": self.commits, "state": _canonical(state)}))
        os.replace(tmp, self.path)


_RUNNING = threading.local()  # per thread: a Dask worker may run several tasks at once


def task_checkpoint():
    """The :class:`TaskCheckpoint` of the sweep task running in this thread (None outside a cached
    :func:`run_sweep` task: nothing is then kept)."""
    return getattr(_RUNNING, "checkpoint", None)


def load_cached(func, params, paperkey, experiment, version, root=None):
    """The cached record for one task, or None. A record whose stored identity differs is ignored."""
    root = results_root() if root is None else Path(root)
    path = _path(root, paperkey, experiment, task_key(func, params, version))
    if not path.exists():
        return None
    rec = json.loads(path.read_text())
    prov = rec.get("provenance", {})
    if rec.get("params") != _canonical(params) or prov.get("func") != _func_name(func) or prov.get("version") != version:
        return None
    return rec


def run_sweep(func, tasks, *, paperkey, experiment, version=1, n_jobs=1, scheduler=None,
              cache=True, root=None, progress=None):
    """Run ``func(**params)`` for every task, reusing cached results; return a DataFrame.

    Parameters
    ----------
    func : callable
        Module-level function (picklable), ``func(**params) -> dict``.
    tasks : list of dict
        Parameters of each task (e.g. from :func:`grid`); include the task's seed.
    paperkey, experiment : str
        Where results go: ``results/<paperkey>/<experiment>/``.
    version : int or str
        Bump it when the task function changes meaning: old records are then not reused.
    n_jobs : int
        joblib workers (ignored when ``scheduler`` is given).
    scheduler : str or distributed.Client, optional
        A Dask scheduler address (``"tcp://..."``) or client: tasks then run on that cluster.
        Defaults to ``$ROBUSTPAPERS_SCHEDULER`` when set (how ``make reproduce`` sends notebooks' sweeps to Dask).
    cache : bool
        Read and write the cache (False computes everything and writes nothing).
    root : path, optional
        Cache root (default :func:`results_root`).
    progress : bool, optional
        tqdm progress bar (default: on when more than 20 tasks are computed).

    Returns
    -------
    pandas.DataFrame
        One row per task: its parameters, its result fields, ``wall_time`` and ``cached``.
    """
    import pandas as pd

    if not callable(func):
        raise ValueError("func must be callable")
    tasks = [dict(t) for t in tasks]
    for t in tasks:
        _canonical(t)  # raises ValueError on non-serialisable parameters
    root = results_root() if root is None else Path(root)
    if scheduler is None:
        scheduler = os.environ.get("ROBUSTPAPERS_SCHEDULER") or None
    records = [load_cached(func, t, paperkey, experiment, version, root) if cache else None for t in tasks]
    todo = [i for i, r in enumerate(records) if r is None]
    if todo:
        show = progress if progress is not None else len(todo) > 20
        ckpts = [_path(root, paperkey, experiment, task_key(func, tasks[i], version)).with_suffix(".checkpoint")
                 if cache else None for i in todo]
        outputs = _execute(func, [tasks[i] for i in todo], n_jobs, scheduler, show, f"{paperkey}/{experiment}",
                           ckpts)
        base = {
            "func": _func_name(func), "version": version, "package_version": _package_version(),
            "git_commit": _git_commit(), "python": platform.python_version(),
        }
        for i, (result, wall) in zip(todo, outputs):
            rec = {
                "params": _canonical(tasks[i]), "result": result,
                "provenance": {**base, "seed": tasks[i].get("seed"), "wall_time": wall,
                               "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")},
            }
            records[i] = dict(rec, _fresh=True)
            if cache:
                path = _path(root, paperkey, experiment, task_key(func, tasks[i], version))
                path.parent.mkdir(parents=True, exist_ok=True)
                tmp = path.with_suffix(".tmp")
                tmp.write_text(json.dumps(rec, indent=1, sort_keys=True))
                os.replace(tmp, path)
                path.with_suffix(".checkpoint").unlink(missing_ok=True)  # the record supersedes it
    return _frame(records)


def _frame(records):
    """The DataFrame of :func:`run_sweep`: one row per record, parameters then result fields."""
    import pandas as pd

    rows = []
    for rec in records:
        row = dict(rec["params"])
        for k, v in rec["result"].items():
            row[k if k not in row else f"result_{k}"] = v
        row["wall_time"] = rec["provenance"]["wall_time"]
        row["cached"] = not rec.get("_fresh", False)
        rows.append(row)
    return pd.DataFrame(rows)


def cached_sweep(func, tasks, *, paperkey, experiment, version=1, root=None):
    """The cached part of a sweep, computing nothing: for pages that show a long sweep once it is complete.

    Parameters
    ----------
    func, tasks, paperkey, experiment, version, root
        As for :func:`run_sweep`.

    Returns
    -------
    frame : pandas.DataFrame
        The rows :func:`run_sweep` would return for the tasks already cached (in task order).
    n_missing : int
        How many tasks are not cached yet.

    Examples
    --------
    >>> import tempfile
    >>> def square(x):
    ...     return {"y": x * x}
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = run_sweep(square, grid(x=[3]), paperkey="demo", experiment="sq", root=d)
    ...     frame, missing = cached_sweep(square, grid(x=[2, 3]), paperkey="demo", experiment="sq", root=d)
    >>> frame.y.tolist(), missing
    ([9], 1)
    """
    root = results_root() if root is None else Path(root)
    records = [load_cached(func, dict(t), paperkey, experiment, version, root) for t in tasks]
    return _frame([r for r in records if r is not None]), sum(r is None for r in records)


def _run_task(item):
    func, params, checkpoint_path = item
    _RUNNING.checkpoint = None if checkpoint_path is None else TaskCheckpoint(checkpoint_path)
    try:
        return _run_one(func, params)
    finally:
        _RUNNING.checkpoint = None


def _execute(func, tasks, n_jobs, scheduler, show, label, checkpoint_paths):
    return parallel_map(_run_task, list(zip([func] * len(tasks), tasks, checkpoint_paths)), n_jobs=n_jobs,
                        scheduler=scheduler, progress=show, label=label)


def _package_version():
    from .. import __version__

    return __version__


def provenance_summary(paperkey, experiment=None, root=None):
    """DataFrame of the provenance of every cached record under ``results/<paperkey>[/<experiment>]``."""
    import pandas as pd

    root = results_root() if root is None else Path(root)
    base = root / paperkey if experiment is None else root / paperkey / experiment
    rows = []
    for path in sorted(base.rglob("*.json")) if base.exists() else []:
        rec = json.loads(path.read_text())
        rows.append({"experiment": path.parent.name, **rec.get("provenance", {})})
    return pd.DataFrame(rows)


_IMPORT_COMMIT = _read_git_commit()
