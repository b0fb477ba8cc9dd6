"""Experiment engine: a sweep is a list of independent tasks, run with joblib or Dask, cached on disk.

:func:`run_sweep` caches one JSON record per task; :func:`parallel_map` is the same execution
backend (joblib processes or a Dask cluster) without the cache, for work whose outputs are arrays
consumed at once (e.g. blocks of a kernel matrix).

A task is a dict of JSON-serialisable parameters; the task function is a
module-level callable ``func(**params) -> dict`` returning JSON-serialisable
values. Each result is stored as
``results/<paperkey>/<experiment>/<key>.json`` with its provenance, where the
key hashes the function's name, the experiment version and the parameters.
A stored result is reused only if its stored parameters, function and
version equal the requested ones exactly; anything else recomputes.

Each record is written, under a unique temporary name then renamed, as soon as its task ends, so an
interrupted sweep keeps every finished task and several processes can share one cache. Its provenance
holds a hash of the task function's source (:func:`source_hash`; not part of the key, so a record stays
reusable when the code changes, and :func:`cache_status` tells which records today's code would still
produce), the versions of the numerical dependencies and the commit of this project's checkout.
"""
from __future__ import annotations

import ast
import datetime as _dt
import functools
import hashlib
import importlib
import importlib.metadata
import inspect
import itertools
import json
import os
import pickle
import pkgutil
import platform
import subprocess
import tempfile
import textwrap
import threading
import time
import traceback
from pathlib import Path

import numpy as np

from ..core.parallel import parallel_map
from ..core.seeding import canonical as _canonical, derive_seed

__all__ = ["grid", "derive_seed", "task_name", "parallel_map", "results_root", "task_key", "run_sweep", "cached_sweep", "load_cached",
           "TaskCheckpoint", "task_checkpoint", "read_record", "source_hash", "dependency_versions",
           "task_functions", "cache_status", "provenance_summary",
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


#: The package folder (``robustpapers/``); this file is ``robustpapers/reproduce/engine.py``.
_PACKAGE_DIR = Path(__file__).resolve().parent.parent


def _read_git_commit():
    """HEAD of this project's checkout, with "+dirty" if its files under ``robustpapers/`` differ from it
    (untracked ones included); "unknown" unless the package is imported from that checkout.

    The checkout is the git toplevel of the package's folder, and it counts only when it is this project's
    (it holds ``_toc.yml``) and the package imported is its ``robustpapers/``: a copy installed in a
    virtual environment inside the checkout, or the project vendored in another repository, would
    otherwise be stamped with a commit whose code it does not run.
    """
    pkg = _PACKAGE_DIR
    try:
        top = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=pkg, capture_output=True, text=True,
                             timeout=10)
        if top.returncode != 0 or not top.stdout.strip():
            return "unknown"
        toplevel = Path(top.stdout.strip()).resolve()
        if not (toplevel / "_toc.yml").is_file() or (toplevel / "robustpapers").resolve() != pkg:
            return "unknown"
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=pkg, capture_output=True, text=True, timeout=10)
        commit = head.stdout.strip()
        if head.returncode != 0 or not commit:
            return "unknown"
        # untracked files count: a new module not yet committed may well be the code that ran
        status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all", "--", str(pkg)],
                                cwd=pkg, capture_output=True, text=True, timeout=30)
        return commit + ("+dirty" if status.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def _git_commit():
    """The commit whose code this process runs, as read when this module was imported: a sweep that runs for
    hours stamps its records with the code it imported, not with a commit made while it ran."""
    return _IMPORT_COMMIT


#: Recorded in every record's provenance: the numerical stack, then the conic solvers cvxpy may call
#: (only those installed).
_DEPENDENCIES = ("numpy", "scipy", "scikit-learn", "cvxpy")
_SOLVERS = ("clarabel", "ecos", "scs", "osqp")


@functools.lru_cache(maxsize=None)
def _dependency_versions():
    found = {}
    for name in _DEPENDENCIES + _SOLVERS:
        try:
            found[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            if name in _DEPENDENCIES:
                found[name] = None
    return found


def dependency_versions():
    """Installed versions of numpy, scipy, scikit-learn, cvxpy and of the conic solvers present.

    Read from the installed distributions' metadata (nothing is imported), once per process.

    Returns
    -------
    dict
        Distribution name to version string; numpy, scipy, scikit-learn and cvxpy always appear (None if
        absent), clarabel, ecos, scs and osqp only where installed.

    Examples
    --------
    >>> versions = dependency_versions()
    >>> {"numpy", "scipy", "scikit-learn", "cvxpy"} <= set(versions)
    True
    """
    return dict(_dependency_versions())


def _strip_task_name(src):
    """``src`` without the lines of its ``@task_name(...)`` decorators: the name a function keeps after a
    move is part of its identity, not of its code, so adding it does not make a record stale."""
    try:
        tree = ast.parse(src)
    except SyntaxError:
        return src
    node = tree.body[0] if tree.body else None
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return src
    drop = set()
    for deco in node.decorator_list:
        target = deco.func if isinstance(deco, ast.Call) else deco
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", None)
        if name == "task_name":
            drop.update(range(deco.lineno - 1, deco.end_lineno))
    return "".join(line for i, line in enumerate(src.splitlines(keepends=True)) if i not in drop)


def source_hash(func):
    """A hash of a task function's source code (16 hex digits), or None where it has none (a builtin).

    The sha256 of ``inspect.getsource`` (dedented, without ``@task_name(...)`` lines). Only the task
    function's own text counts: a change in a helper it calls goes unseen, so bump the experiment's
    ``version`` when a change alters results.

    Examples
    --------
    >>> def square(x):
    ...     return {"y": x * x}
    >>> len(source_hash(square))
    16
    >>> source_hash(len) is None
    True
    """
    try:
        src = inspect.getsource(func)
    except (OSError, TypeError):
        return None
    src = _strip_task_name(textwrap.dedent(src))
    return hashlib.sha256(src.encode()).hexdigest()[:16]


def _run_one(func, params):
    t0 = time.perf_counter()
    result = func(**params)
    wall = time.perf_counter() - t0
    if not isinstance(result, dict):
        raise ValueError(f"task function {_func_name(func)} must return a dict, got {type(result).__name__}")
    return _canonical(result), wall


def _path(root, paperkey, experiment, key):
    return Path(root) / paperkey / experiment / f"{key}.json"


def _write_atomic(path, text):
    """Write ``text`` to ``path`` through a temporary file of its own in the same folder, then rename it.

    The temporary name is unique (:func:`tempfile.mkstemp`), so two processes writing the same record never
    write into each other's file; the rename is atomic, so a reader sees the old file or the new one, never
    a part. A killed writer leaves at most a hidden ``.<name>.*.tmp`` file, which no reader looks at.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        os.chmod(tmp, 0o644)  # mkstemp makes it private; records are shared data
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _record_problem(rec):
    """What makes ``rec`` not a record (a string), or None."""
    if not isinstance(rec, dict):
        return f"a record is a JSON object, got {type(rec).__name__}"
    for key in ("params", "result", "provenance"):
        if not isinstance(rec.get(key), dict):
            return f"no {key!r} object" if key not in rec else f"{key!r} is not an object"
    missing = [k for k in ("func", "version", "wall_time") if k not in rec["provenance"]]
    if missing:
        return f"its provenance lacks {', '.join(map(repr, missing))}"
    return None


def read_record(path):
    """The record stored at ``path`` (a dict with ``params``, ``result`` and ``provenance``).

    Raises
    ------
    ValueError
        Naming the file, if it is not valid JSON or lacks a record's keys.
    """
    path = Path(path)
    try:
        rec = json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"corrupt record {path}: not valid JSON ({exc})") from None
    problem = _record_problem(rec)
    if problem is not None:
        raise ValueError(f"corrupt record {path}: {problem}")
    return rec


class TaskCheckpoint:
    """The state a long sweep task keeps between processes, next to the record it will become.

    A task function that can resume (e.g. through :func:`robustpapers.bental2012.ussvm_fss`'s ``checkpoint``
    and ``resume``) asks :func:`task_checkpoint` for its store, loads the state a killed run left with ``load``
    and keeps its own with ``save`` as it goes. The file, ``results/<paperkey>/<experiment>/<key>.checkpoint``
    (JSON), is removed once the task's record is written; committed meanwhile, it lets another run or
    machine go on.
    ``commits`` lists the code versions of the processes that worked on it, oldest first.
    """

    def __init__(self, path):
        self.path = Path(path)
        self.commits = [_git_commit()]

    def load(self):
        """The saved state, or None; adds this process's commit to ``commits`` after those that wrote it.

        A file that is not a checkpoint raises ``ValueError`` naming it.
        """
        if not self.path.exists():
            return None
        try:
            stored = json.loads(self.path.read_text())
            commits, state = list(stored["commits"]), stored["state"]
        except (json.JSONDecodeError, UnicodeDecodeError, KeyError, TypeError) as exc:
            raise ValueError(f"corrupt checkpoint {self.path}: {exc!r}") from None
        self.commits = commits
        if self.commits[-1] != _git_commit():
            self.commits.append(_git_commit())
        return state

    def save(self, state):
        """Write ``state`` (a dict of JSON-able values and arrays; floats round-trip exactly) atomically."""
        _write_atomic(self.path, json.dumps({"commits": self.commits, "state": _canonical(state)}))


_RUNNING = threading.local()  # per thread: one Dask process may run several tasks at once


def task_checkpoint():
    """The :class:`TaskCheckpoint` of the sweep task running in this thread (None outside a cached
    :func:`run_sweep` task: nothing is then kept)."""
    return getattr(_RUNNING, "checkpoint", None)


def load_cached(func, params, paperkey, experiment, version, root=None):
    """The cached record for one task, or None. A record whose stored identity differs is ignored.

    A stored file that is not a record raises ``ValueError`` naming it (see :func:`read_record`).
    """
    root = results_root() if root is None else Path(root)
    path = _path(root, paperkey, experiment, task_key(func, params, version))
    if not path.exists():
        return None
    rec = read_record(path)
    prov = rec["provenance"]
    if rec["params"] != _canonical(params) or prov.get("func") != _func_name(func) or prov.get("version") != version:
        return None
    return rec


def run_sweep(func, tasks, *, paperkey, experiment, version=1, n_jobs=1, scheduler=None,
              cache=True, root=None, progress=None):
    """Run ``func(**params)`` for every task, reusing cached results; return a DataFrame.

    Each task's record is written as soon as the task ends, so a sweep that fails, is interrupted or is
    killed keeps every task finished before. A task that raises does not stop the others: once they have
    ended (and their records are written) its exception is raised again, with a note naming its parameters.

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
        joblib processes (ignored when ``scheduler`` is given).
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
        One row per task, in task order: its parameters, its result fields, ``wall_time`` and ``cached``.
    """
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
    if not todo:
        return _frame(records)
    show = progress if progress is not None else len(todo) > 20
    paths = {i: _path(root, paperkey, experiment, task_key(func, tasks[i], version)) if cache else None
             for i in todo}
    items = [(i, func, tasks[i], None if paths[i] is None else paths[i].with_suffix(".checkpoint")) for i in todo]
    base = {
        "func": _func_name(func), "version": version, "source_hash": source_hash(func),
        "package_version": _package_version(), "git_commit": _git_commit(), "python": platform.python_version(),
        "versions": dependency_versions(),
    }
    failed = {}
    for i, result, wall, error in _stream(items, n_jobs, scheduler, show, f"{paperkey}/{experiment}"):
        if error is not None:
            failed[i] = error
            continue
        rec = {
            "params": _canonical(tasks[i]), "result": result,
            "provenance": {**base, "seed": tasks[i].get("seed"), "wall_time": wall,
                           "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")},
        }
        if cache:
            _write_atomic(paths[i], json.dumps(rec, indent=1, sort_keys=True))
            paths[i].with_suffix(".checkpoint").unlink(missing_ok=True)  # the record supersedes it
        records[i] = dict(rec, _fresh=True)
    if failed:
        first = min(failed)
        exc = failed[first]
        exc.add_note(f"raised by task {_func_name(func)}(**{_canonical(tasks[first])!r}) of sweep "
                     f"{paperkey}/{experiment}; {len(failed)} of {len(todo)} tasks failed, the records of the "
                     f"{len(todo) - len(failed)} others are " + ("written" if cache else "not kept (cache=False)"))
        raise exc
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



def _portable(exc):
    """``exc`` as it can travel from another process: its traceback as a note (pickling drops it), and a
    RuntimeError in its place if it does not survive pickling."""
    exc.add_note("traceback in the worker:\n" + "".join(traceback.format_exception(exc)).rstrip())
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:  # noqa: BLE001 - any failure to round-trip means: send a plain copy
        plain = RuntimeError(f"{type(exc).__name__}: {exc}")
        for note in getattr(exc, "__notes__", []):
            plain.add_note(note)
        return plain
    return exc


def _run_task(item, remote=False):
    """Run one task; return ``(index, result, wall, None)`` or ``(index, None, None, exception)``.

    Catching the task's ``Exception`` here (not ``KeyboardInterrupt``) lets the other tasks of the sweep go
    on, and their records be written, whatever one task does.
    """
    index, func, params, checkpoint_path = item
    _RUNNING.checkpoint = None if checkpoint_path is None else TaskCheckpoint(checkpoint_path)
    try:
        result, wall = _run_one(func, params)
        return index, result, wall, None
    except Exception as exc:  # noqa: BLE001 - re-raised in the parent once the other tasks are written
        return index, None, None, _portable(exc) if remote else exc
    finally:
        _RUNNING.checkpoint = None


def _run_task_remote(item):
    return _run_task(item, remote=True)


def _stream(items, n_jobs, scheduler, show, label):
    """Run the tasks ``items``; yield each one's ``(index, result, wall, error)`` as soon as it ends.

    In this process when ``n_jobs == 1``; by joblib processes (results as they arrive, in any order); or on a
    Dask cluster (futures as they complete).
    """
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, (int, np.integer)) or n_jobs == 0:
        raise ValueError(f"n_jobs must be a non-zero integer, got {n_jobs!r}")
    bar = None
    if show:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(items), desc=label)
    try:
        for out in _outcomes(items, n_jobs, scheduler):
            yield out
            if bar is not None:
                bar.update()
    finally:
        if bar is not None:
            bar.close()


def _outcomes(items, n_jobs, scheduler):
    if scheduler is not None:
        from distributed import Client, as_completed

        client = scheduler if isinstance(scheduler, Client) else Client(scheduler)
        futures = []
        try:
            futures = [client.submit(_run_task_remote, it, pure=False) for it in items]
            for future in as_completed(futures):
                yield future.result()
        finally:
            pending = [f for f in futures if not f.done()]
            if pending:  # interrupted: do not leave the cluster computing for nobody
                client.cancel(pending)
            if client is not scheduler:
                client.close()
    elif n_jobs == 1:
        for it in items:
            yield _run_task(it)
    else:
        from joblib import Parallel, delayed

        yield from Parallel(n_jobs=int(n_jobs), return_as="generator_unordered")(
            delayed(_run_task_remote)(it) for it in items)


def _package_version():
    from .. import __version__

    return __version__


def provenance_summary(paperkey, experiment=None, root=None):
    """DataFrame of the provenance of every cached record under ``results/<paperkey>[/<experiment>]``.

    The ``benchmarks`` folder holds measurements, not records, and is left out. A file that is not a
    record raises ``ValueError`` naming it.
    """
    import pandas as pd

    root = results_root() if root is None else Path(root)
    base = root / paperkey if experiment is None else root / paperkey / experiment
    rows = []
    for path in sorted(base.rglob("*.json")) if base.exists() else []:
        if experiment is None and path.relative_to(base).parts[0] == "benchmarks":
            continue
        rec = read_record(path)
        rows.append({"experiment": path.parent.name, **rec["provenance"]})
    return pd.DataFrame(rows)


def _record_folders(root, paper=None):
    """The record folders ``<root>/<paper>/<experiment>/`` (not ``benchmarks``), sorted."""
    papers = [root / paper] if paper is not None else sorted(p for p in root.iterdir() if p.is_dir())
    return [d for p in papers for d in sorted(p.iterdir())
            if d.is_dir() and d.name != "benchmarks" and any(d.glob("*.json"))]


def _import_all(package, errors):
    """Import ``package`` and every module under it; collect what fails to import in ``errors``."""
    try:
        pkg = importlib.import_module(package)
    except Exception as exc:  # noqa: BLE001 - reported, and its functions count as not found
        errors[package] = exc
        return []
    mods = [pkg]
    for info in pkgutil.walk_packages(getattr(pkg, "__path__", []), prefix=package + ".",
                                      onerror=lambda name: errors.setdefault(name, ImportError(name))):
        try:
            mods.append(importlib.import_module(info.name))
        except Exception as exc:  # noqa: BLE001
            errors[info.name] = exc
    return mods


def task_functions(papers=(), errors=None):
    """Today's task functions by their cache name (:func:`task_key`'s "module:qualname").

    The module-level functions of every module under ``robustpapers.reproduce`` and under
    ``robustpapers.<paper>`` for each of ``papers``, named as :func:`run_sweep` names them (so a function
    moved with :func:`task_name` is found under its old name).

    Parameters
    ----------
    papers : iterable of str
        Paper keys whose packages are searched too (a key with no package is skipped).
    errors : dict, optional
        Filled with ``{module: exception}`` for the modules that failed to import.

    Returns
    -------
    dict
        Name to function. A name given to a moved function takes precedence over a function still under it.
    """
    errors = {} if errors is None else errors
    packages = ["robustpapers.reproduce"] + [f"robustpapers.{p}" for p in papers
                                              if (_PACKAGE_DIR / p / "__init__.py").is_file()]
    found, marked = {}, {}
    for package in packages:
        for mod in _import_all(package, errors):
            for obj in list(vars(mod).values()):
                if inspect.isfunction(obj):
                    name = _func_name(obj)
                    (marked if hasattr(obj, "__robustpapers_task__") else found).setdefault(name, obj)
    return {**found, **marked}


def _lookup(name, functions):
    """Today's function stored under ``name``: from ``functions``, else from the module the name names."""
    if name in functions:
        return functions[name]
    module, _, qualname = str(name).partition(":")
    try:
        obj = importlib.import_module(module)
        for part in qualname.split("."):
            obj = getattr(obj, part)
    except Exception:  # noqa: BLE001 - a module gone or broken: the function is not found
        return None
    return obj if callable(obj) and _func_name(obj) == name else None


def cache_status(root=None, paper=None, errors=None):
    """How many records of each results folder today's task functions would reproduce as they are.

    Per ``<root>/<paper>/<experiment>/`` folder: ``records``; ``current``, whose stored
    :func:`source_hash` equals today's source of their task function; ``stale``, whose hash differs;
    ``unhashed``, made before records stored the hash; ``not_found``, whose task function
    (:func:`task_functions`) no longer exists.

    Parameters
    ----------
    root : path, optional
        The results root (default :func:`results_root`).
    paper : str, optional
        Only this paper's folders.
    errors : dict, optional
        Filled with the modules that failed to import (see :func:`task_functions`).

    Returns
    -------
    list of dict
        One row per folder (``paper``, ``experiment`` and the counts), sorted.

    Raises
    ------
    ValueError
        If ``paper`` has no folder under ``root``, or a record is corrupt (naming its file).
    """
    root = results_root() if root is None else Path(root)
    if paper is not None and (not isinstance(paper, str) or not paper or Path(paper).name != paper):
        raise ValueError(f"a paper is a key such as 'chen2008', got {paper!r}")
    if paper is not None and not (root / paper).is_dir():
        raise ValueError(f"no results for paper {paper!r} under {root}")
    if not root.is_dir():
        raise ValueError(f"no results folder at {root}")
    folders = _record_folders(root, paper)
    functions = task_functions(sorted({d.parent.name for d in folders}), errors)
    today = {}  # stored name -> (function or None, its source hash)
    rows = []
    for folder in folders:
        row = {"paper": folder.parent.name, "experiment": folder.name, "records": 0, "current": 0, "stale": 0,
               "unhashed": 0, "not_found": 0}
        for path in sorted(folder.glob("*.json")):
            prov = read_record(path)["provenance"]
            row["records"] += 1
            name = prov["func"]
            if name not in today:
                func = _lookup(name, functions)
                today[name] = (func, None if func is None else source_hash(func))
            func, current_hash = today[name]
            if func is None:
                row["not_found"] += 1
            elif prov.get("source_hash") is None:
                row["unhashed"] += 1
            elif prov["source_hash"] == current_hash:
                row["current"] += 1
            else:
                row["stale"] += 1
        rows.append(row)
    return rows


_IMPORT_COMMIT = _read_git_commit()
