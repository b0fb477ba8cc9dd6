"""Notebook pipeline: MyST source → .ipynb (jupytext) → papermill → book/, only on success.

``notebooks/<stem>.md`` is converted, executed by papermill (kernel
``python3``, working directory ``book/``) into a temporary file next to the
destination, stripped of volatile metadata, and then moved to
``book/<stem>.ipynb``. A failed run raises :class:`NotebookFailed` (which page,
which code cell, which error) and leaves the previous page in place. Unknown
or ill-typed parameters are refused before anything runs. Progress (page, code
cell, elapsed time) goes to the ``robustpapers.pipeline`` logger at INFO level.
"""
from __future__ import annotations

import ast
import json
import logging
import math
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

__all__ = ["repo_root", "list_notebooks", "notebook_parameters", "check_parameters", "execute_notebook",
           "paper_scale_cached", "strip_volatile", "build_book", "reproduce",
           "PipelineError", "NotebookFailed", "MissingExtra"]

log = logging.getLogger("robustpapers.pipeline")

#: The modules of the ``book`` extra the pipeline imports (a library-only install lacks them).
BOOK_MODULES = ("jupytext", "nbformat", "papermill", "jupyter_client")


class PipelineError(RuntimeError):
    """An expected failure of the pipeline: the command line prints its message, not a traceback."""


class MissingExtra(PipelineError, ImportError):
    """The notebook tools of the ``book`` extra are not installed (a library-only install)."""


class NotebookFailed(PipelineError):
    """A notebook raised while it ran: which page, which code cell, which error.

    Attributes: ``stem``, ``cell`` (1-based number among the page's code cells, None when unknown),
    ``n_cells`` (code cells of the page), ``line`` (line of the cell in ``notebooks/<stem>.md``),
    ``ename``, ``evalue`` and ``traceback`` (the notebook's, a list of lines, ANSI colours removed).
    """

    def __init__(self, stem, cell, n_cells, line, ename, evalue, traceback=()):
        self.stem, self.cell, self.n_cells, self.line = stem, cell, n_cells, line
        self.ename, self.evalue, self.traceback = ename, evalue, list(traceback)
        where = f"notebooks/{stem}.md"
        if cell is not None:
            where += f", code cell {cell} of {n_cells}" + (f" (line {line})" if line else "")
        super().__init__(f"{where}: {ename}: {evalue}" if evalue else f"{where}: {ename}")


def _require_book():
    """Import check for the ``book`` extra; a :class:`MissingExtra` naming the missing module."""
    import importlib

    for name in BOOK_MODULES:
        try:
            importlib.import_module(name)
        except ImportError as exc:
            raise MissingExtra(f"the notebook commands need the book tools (module {name!r} is missing): "
                               "pip install 'robustpapers[book]'") from exc


def repo_root():
    """The repository root (the folder holding ``_toc.yml`` and ``notebooks/``)."""
    for d in (Path.cwd().resolve(), *Path.cwd().resolve().parents, Path(__file__).resolve().parents[2]):
        if (d / "_toc.yml").exists() and (d / "notebooks").is_dir():
            return d
    raise ValueError("not inside the robustpapers repository (no _toc.yml and notebooks/ found)")


def list_notebooks(root=None):
    """Stems of the notebook sources in ``notebooks/``."""
    root = Path(root) if root else repo_root()
    return sorted(p.stem for p in (root / "notebooks").glob("*.md"))


def _source(stem, root):
    src = root / "notebooks" / f"{stem}.md"
    if not src.exists():
        raise ValueError(f"unknown notebook {stem!r}; available: {', '.join(list_notebooks(root))}")
    return src


def notebook_parameters(stem, root=None):
    """Default values of the notebook's ``parameters`` cell as a dict (empty for a page without one)."""
    _require_book()
    import jupytext

    root = Path(root) if root else repo_root()
    nb = jupytext.read(_source(stem, root))
    for cell in nb.cells:
        if cell.cell_type == "code" and "parameters" in cell.metadata.get("tags", []):
            params = {}
            for node in ast.parse(cell.source).body:
                if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                    params[node.targets[0].id] = ast.literal_eval(node.value)
            return params
    return {}  # a page without parameters (it recomputes nothing, e.g. the ledger of all claims)


def _coerce(name, value, default):
    """A command-line string parsed as a Python literal, unless the parameter's default is a string."""
    if not isinstance(value, str) or isinstance(default, str):
        return value
    try:
        return ast.literal_eval(value)
    except (ValueError, SyntaxError):
        kind = type(default).__name__
        raise ValueError(f"parameter {name}: cannot parse {value!r} as a {kind} (the notebook's default is "
                         f"{default!r})") from None


def _check_type(name, value, default):
    """``value`` of the default's type: int for an int (3.5 is refused), int or float for a float."""
    want = type(default)
    if default is None:
        return value
    if isinstance(default, bool):
        ok = isinstance(value, bool)
    elif isinstance(default, int):
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif isinstance(default, float):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
        value = float(value) if ok else value
    else:
        ok = isinstance(value, want)
    if not ok:
        raise ValueError(f"parameter {name}: {value!r} is not of type {want.__name__} (the notebook's default is "
                         f"{default!r})")
    return value


#: The ranges of the parameters every page shares (checked on top of the default's type).
PARAMETER_RULES = {
    "scale": (lambda v: v in ("quick", "paper"), "'quick' or 'paper'"),
    "seed": (lambda v: v >= 0, "a non-negative integer"),
    "n_jobs": (lambda v: v == -1 or v >= 1, "a positive integer or -1 (all cores)"),
}


def check_parameters(stem, parameters, root=None):
    """Validate ``parameters`` against the notebook's parameters cell; return them typed.

    Each value must have the type of the cell's default (a command-line string is parsed as a
    Python literal first, except for string parameters) and, for the shared parameters, its range
    (:data:`PARAMETER_RULES`: ``scale`` in {"quick", "paper"}, ``seed >= 0``, ``n_jobs >= 1`` or -1).
    A ValueError names the parameter before anything runs.
    """
    defaults = notebook_parameters(stem, root)
    unknown = sorted(set(parameters) - set(defaults))
    if unknown:
        raise ValueError(f"unknown parameter(s) {unknown} for notebook {stem!r}; it takes {sorted(defaults)}")
    typed = {}
    for k, v in parameters.items():
        v = _check_type(k, _coerce(k, v, defaults[k]), defaults[k])
        if k in PARAMETER_RULES and not PARAMETER_RULES[k][0](v):
            what = "scale must be" if k == "scale" else f"parameter {k} must be"
            raise ValueError(f"{what} {PARAMETER_RULES[k][1]}, got {v!r}")
        typed[k] = v
    return typed


VOLATILE_NB = ("papermill", "widgets")
VOLATILE_CELL = ("execution", "papermill", "ExecuteTime", "collapsed", "scrolled")


#: Parameters that say how a page is computed (how many processes), not what it shows: they leave
#: no trace in the executed page, so a page run with ``-p n_jobs 2`` is the same file as one run
#: without (``make book`` runs the paper-scale pages with ``scale`` alone).
EXECUTION_ONLY = ("n_jobs",)

_ASSIGNED = re.compile(r"^\s*([A-Za-z_]\w*)\s*=")


def _drop_execution_only(cell):
    """Papermill's injected-parameters cell without the :data:`EXECUTION_ONLY` assignments (None if empty)."""
    src = cell.get("source", "")
    lines = (src.splitlines(keepends=True) if isinstance(src, str) else list(src))
    kept = [ln for ln in lines if not ((m := _ASSIGNED.match(ln)) and m.group(1) in EXECUTION_ONLY)]
    if not any(_ASSIGNED.match(ln) for ln in kept):
        return None
    cell["source"] = "".join(kept) if isinstance(src, str) else kept
    return cell


def strip_volatile(nb_json):
    """Remove timestamps, durations, random ids and execution-only parameters from an executed notebook.

    ``nb_json`` (a dict) is changed in place and returned. The parameters the page was run with
    are kept in ``metadata.robustpapers.parameters``, less :data:`EXECUTION_ONLY` (``n_jobs``),
    which are also taken out of papermill's injected-parameters cell (the cell goes when nothing
    is left in it). Applied to a page already stripped, it changes nothing.
    """
    meta = nb_json.setdefault("metadata", {})
    params = meta.get("papermill", {}).get("parameters")
    if params is None:  # a page stripped before: its parameters are where this function put them
        params = meta.get("robustpapers", {}).get("parameters")
    for key in VOLATILE_NB:
        meta.pop(key, None)
    if params is not None:
        meta["robustpapers"] = {"parameters": {k: v for k, v in params.items() if k not in EXECUTION_ONLY}}
    cells = []
    for cell in nb_json.get("cells", []):
        if "injected-parameters" in cell.get("metadata", {}).get("tags", []):
            cell = _drop_execution_only(cell)
        if cell is not None:
            cells.append(cell)
    if "cells" in nb_json:
        nb_json["cells"] = cells
    count = 0
    for i, cell in enumerate(nb_json.get("cells", [])):
        cell["id"] = f"cell-{i}"
        for key in VOLATILE_CELL:
            cell.get("metadata", {}).pop(key, None)
        tags = cell.get("metadata", {}).get("tags", [])
        if ("parameters" in tags or "injected-parameters" in tags) and "remove-cell" not in tags:
            # the page says in one line how it was executed; the two parameter cells are not shown
            cell["metadata"]["tags"] = [*tags, "remove-cell"]
        if cell.get("cell_type") == "code":
            # Sequential counts (nbval treats a cell without one as never run).
            count += 1
            cell["execution_count"] = count
            for out in cell.get("outputs", []):
                if "execution_count" in out:
                    out["execution_count"] = count
    return nb_json


def paper_scale_cached(stem, root=None):
    """True when ``make reproduce`` has completed this notebook at paper scale (its marker is in results/)."""
    root = Path(root) if root else repo_root()
    return (root / "results" / "paper-scale" / f"{stem}.json").exists()


def _kernel_manager(folder):
    """A kernel manager whose kernel talks over Unix sockets in ``folder`` (short, private).

    Over TCP the manager picks free ports, closes them and hands their numbers to
    the kernel; a notebook run beside it (``pytest -n 2``) can take one in between
    and the kernel dies with "Address already in use". Sockets in a folder of
    this run's own cannot collide.
    """
    from jupyter_client.manager import AsyncKernelManager

    return AsyncKernelManager(kernel_name="python3", transport="ipc", ip=str(Path(folder) / "kernel"))


_PM_BOOKKEEPING = re.compile(r"(Ending Cell \d+|Input Notebook|Output Notebook|Working directory|"
                             r"Executing notebook with kernel)")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _code_cell_lines(text):
    """1-based line of each ``{code-cell}`` fence of a MyST source, in order."""
    return [i for i, line in enumerate(text.splitlines(), 1) if re.match(r"\s*(```+|~~~+)\s*\{code-cell\}", line)]


class _CellProgress(logging.Filter):
    """Papermill's per-cell log records, turned into progress lines while one notebook runs.

    Installed on the ``papermill`` logger for the duration of a run (papermill is called with
    ``log_output=True``): each "Executing Cell N" record becomes "<stem>: code cell i of n (line L),
    12 s" on ``robustpapers.pipeline`` (markdown cells and papermill's injected-parameters cell are
    skipped) and remembers the current cell for an error without a cell; every other papermill record
    (the cells' printed output, its own bookkeeping) passes only when ``log_output`` is true.
    """

    def __init__(self, stem, cells, lines, log_output):
        super().__init__()
        self.stem, self.cells, self.lines, self.log_output = stem, cells, lines, log_output
        self.n_code = sum(1 for c in cells if c is not None)
        self.t0 = time.perf_counter()
        self.current = None

    def describe(self, index):
        """(code cell number, line) of the executed notebook's cell ``index``, or (None, None)."""
        num = self.cells[index] if 0 <= index < len(self.cells) else None
        if num is None:
            return None, None
        return num, (self.lines[num - 1] if len(self.lines) == self.n_code else None)

    def filter(self, record):
        msg = str(record.msg)
        m = re.match(r"Executing Cell (\d+)", msg)
        if not m:
            return self.log_output and not _PM_BOOKKEEPING.match(msg)
        num, line = self.describe(int(m.group(1)) - 1)
        if num is not None:
            self.current = int(m.group(1)) - 1
            where = f" (line {line})" if line else ""
            log.info("%s: code cell %d of %d%s, %.0f s elapsed", self.stem, num, self.n_code, where,
                     time.perf_counter() - self.t0)
        return False


def _executed_cells(nb, injected):
    """Per cell of the notebook papermill executes: its number among the source's code cells, or None.

    Papermill inserts its injected-parameters cell right after the cell tagged ``parameters`` (at the
    top without one); that cell and the markdown cells get None.
    """
    nums, k = [], 0
    for cell in nb.cells:
        if cell.cell_type == "code":
            k += 1
            nums.append(k)
        else:
            nums.append(None)
    if injected:
        tagged = [i for i, c in enumerate(nb.cells) if "parameters" in c.get("metadata", {}).get("tags", [])]
        nums.insert(tagged[0] + 1 if tagged else 0, None)
    return nums


def _shutdown(km):
    """Stop the kernel of ``km``: nbclient leaves alive a kernel whose manager it was handed.

    Without this every run left its kernel behind until the calling process ended (``run --all``:
    one idle kernel per page), each printing "Parent appears to have exited" after the command.
    """
    from jupyter_client.utils import run_sync

    try:
        if km.has_kernel:
            run_sync(km.shutdown_kernel)(now=True)
    except Exception as exc:  # noqa: BLE001 - a kernel that is already gone
        log.debug("kernel shutdown: %r", exc)


def execute_notebook(stem, parameters=None, *, root=None, out_dir=None, results_dir=None, timeout=3600,
                     log_output=False):
    """Execute ``notebooks/<stem>.md`` into ``<out_dir>/<stem>.ipynb`` (default ``book/``).

    Parameters
    ----------
    stem : str
        Notebook name without extension.
    parameters : dict, optional
        Values for the ``parameters`` cell; unknown names raise ``ValueError`` before anything runs.
    out_dir : path, optional
        Destination folder (default ``<repo>/book``); the kernel's working directory is ``book/``.
    results_dir : path, optional
        Cache root for the sweeps (``ROBUSTPAPERS_RESULTS``), e.g. an empty temporary folder for a fresh run.

    log_output : bool
        Also log the cells' printed output (``papermill`` logger) as they run. Progress lines (code
        cell i of n, elapsed seconds) go to the ``robustpapers.pipeline`` logger in any case.

    Returns
    -------
    pathlib.Path
        The executed page. On failure the previous page is left untouched and :class:`NotebookFailed`
        is raised (page, code cell, line in the source, the cell's exception; the original
        papermill/nbclient exception is its ``__cause__``).
    """
    _require_book()
    import jupytext
    import nbformat
    import papermill as pm
    from papermill.exceptions import PapermillExecutionError

    root = Path(root) if root else repo_root()
    src = _source(stem, root)
    params = check_parameters(stem, dict(parameters or {}), root)
    out_dir = Path(out_dir) if out_dir else root / "book"
    out_dir.mkdir(parents=True, exist_ok=True)
    dest = out_dir / f"{stem}.ipynb"
    nb = jupytext.read(src)
    env_backup = dict(os.environ)
    # The kernel must see this interpreter's packages and this checkout's robustpapers.
    os.environ["PATH"] = str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", "")
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")]))
    os.environ["ROBUSTPAPERS_RESULTS"] = str(Path(results_dir) if results_dir else root / "results")
    os.environ["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"  # figures must render as PNG
    os.environ["PYTHONHASHSEED"] = "0"
    progress = _CellProgress(stem, _executed_cells(nb, bool(params)), _code_cell_lines(src.read_text()), log_output)
    log.info("%s: %d code cells%s", stem, progress.n_code,
             "" if not params else " (" + ", ".join(f"{k}={v!r}" for k, v in params.items()) + ")")
    pm_log = logging.getLogger("papermill")
    with tempfile.TemporaryDirectory(prefix=f".{stem}-", dir=out_dir) as tmp, \
            tempfile.TemporaryDirectory(prefix="rpk-") as sockets:
        tmp_in, tmp_out = Path(tmp) / "in.ipynb", Path(tmp) / "out.ipynb"
        nbformat.write(nb, tmp_in)
        km = _kernel_manager(sockets)
        pm_log.addFilter(progress)
        pm_level = pm_log.level
        if not pm_log.isEnabledFor(logging.INFO):
            pm_log.setLevel(logging.INFO)  # its per-cell records are INFO; the filter drops what is not asked for
        try:
            pm.execute_notebook(
                str(tmp_in), str(tmp_out), parameters=params, kernel_name="python3",
                cwd=str(root / "book"), progress_bar=False, log_output=True,
                execution_timeout=timeout, report_mode=False, km=km,
            )
        except PapermillExecutionError as exc:
            num, line = progress.describe(exc.cell_index)
            raise NotebookFailed(stem, num, progress.n_code, line, exc.ename, _ANSI.sub("", str(exc.evalue)),
                                 [_ANSI.sub("", t) for t in exc.traceback]) from exc
        except Exception as exc:  # the kernel died, a cell timed out, ...: name the cell that was running
            num, line = progress.describe(progress.current if progress.current is not None else -1)
            raise NotebookFailed(stem, num, progress.n_code, line, type(exc).__name__,
                                 _ANSI.sub("", str(exc)).strip().splitlines()[0] if str(exc).strip() else "") from exc
        finally:
            _shutdown(km)
            pm_log.removeFilter(progress)
            pm_log.setLevel(pm_level)
            os.environ.clear()
            os.environ.update(env_backup)
        data = json.loads(tmp_out.read_text())
        strip_volatile(data)
        tmp_out.write_text(json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n")
        os.replace(tmp_out, dest)
    log.info("%s: done in %.0f s -> %s", stem, time.perf_counter() - progress.t0, dest)
    return dest


def reproduce(scheduler=None, n_jobs="-1", root=None, stems=None):
    """Recompute notebooks at paper scale (all of them, or ``stems``) and mark each one done.

    Sweeps recompute unless their exact parameters are cached (the cache is keyed
    by parameters and experiment version, so a paper-scale run never reuses
    quick-scale results). ``scheduler`` sends the sweeps to a Dask cluster.
    Every page's parameters (``n_jobs`` included) are checked before the first
    one runs. Unattended: a notebook that fails is logged (page, code cell,
    error) and the others go on; at the end :class:`PipelineError` lists the
    failed pages.
    """
    root = Path(root) if root else repo_root()
    known = list_notebooks(root)
    stems = known if not stems else list(stems)
    unknown = [s for s in stems if s not in known]
    if unknown:
        raise ValueError(f"unknown notebook(s) {unknown}; see `python -m robustpapers list`")
    plan = []
    for stem in stems:  # every page's parameters checked before anything runs
        params = {"scale": "paper"}
        if "n_jobs" in notebook_parameters(stem, root):
            params["n_jobs"] = n_jobs
        plan.append((stem, check_parameters(stem, params, root)))
    failed = []
    t_all = time.perf_counter()
    for i, (stem, params) in enumerate(plan, 1):
        log.info("page %d of %d: %s (paper scale)", i, len(plan), stem)
        if scheduler:
            os.environ["ROBUSTPAPERS_SCHEDULER"] = scheduler
        t0 = time.perf_counter()
        try:
            execute_notebook(stem, params, root=root)
        except PipelineError as exc:  # keep going: one chapter's failure must not stop the others
            failed.append(stem)
            log.error("%s: FAILED: %s", stem, exc)
            continue
        except Exception as exc:  # noqa: BLE001 - unattended: report it whole and go on
            failed.append(stem)
            log.error("%s: FAILED: %s: %s", stem, type(exc).__name__, exc)
            continue
        marker = root / "results" / "paper-scale" / f"{stem}.json"
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text(json.dumps({"notebook": stem, "finished": _timestamp(),
                                      "wall_time_s": round(time.perf_counter() - t0, 1)}, indent=1) + "\n")
        log.info("%s: done (page %d of %d, %.0f s in all)", stem, i, len(plan), time.perf_counter() - t_all)
    if failed:
        raise PipelineError(f"paper-scale runs failed: {failed}")


def build_book(root=None, strict=True):
    """Build the HTML book into ``_build/html`` (``jupyter-book build . -W -n --keep-going``).

    Raises :class:`MissingExtra` when ``jupyter-book`` is not installed and
    ``subprocess.CalledProcessError`` when the build fails (its output is on the terminal).
    """
    import subprocess

    root = Path(root) if root else repo_root()
    exe = Path(sys.executable).parent / "jupyter-book"
    exe = str(exe) if exe.exists() else shutil.which("jupyter-book")
    if exe is None:
        raise MissingExtra("`book` needs jupyter-book, which is not installed: pip install 'robustpapers[book]'")
    cmd = [exe, "build", str(root), "--path-output", str(root)]
    if strict:
        cmd += ["-W", "-n", "--keep-going"]
    log.info("building the book: %s", " ".join(cmd))
    return subprocess.run(cmd, cwd=root, check=True)


def _timestamp():
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
