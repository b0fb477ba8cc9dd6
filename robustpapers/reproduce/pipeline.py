"""Notebook pipeline: MyST source → .ipynb (jupytext) → papermill → book/, only on success.

``notebooks/<stem>.md`` is converted, executed by papermill (kernel
``python3``, working directory ``book/``) into a temporary file next to the
destination, stripped of volatile metadata, and then moved to
``book/<stem>.ipynb``. A failed run raises and leaves the previous page in
place. Unknown parameters are refused before anything runs.
"""
from __future__ import annotations

import ast
import json
import os
import sys
import tempfile
import time
from pathlib import Path

__all__ = ["repo_root", "list_notebooks", "notebook_parameters", "execute_notebook", "paper_scale_cached",
           "strip_volatile", "build_book", "reproduce"]


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


def _coerce(value, default):
    """Command-line strings take the type of the parameter's default."""
    if not isinstance(value, str) or isinstance(default, str):
        return value
    try:
        parsed = ast.literal_eval(value)
    except (ValueError, SyntaxError):
        raise ValueError(f"cannot parse {value!r} as a {type(default).__name__}") from None
    if isinstance(default, bool) != isinstance(parsed, bool) or (
        isinstance(default, (int, float)) and not isinstance(parsed, (int, float))
    ):
        raise ValueError(f"{value!r} is not of type {type(default).__name__} (the default's type)")
    return parsed


def check_parameters(stem, parameters, root=None):
    """Validate ``parameters`` against the notebook's parameters cell; return them typed."""
    defaults = notebook_parameters(stem, root)
    unknown = sorted(set(parameters) - set(defaults))
    if unknown:
        raise ValueError(f"unknown parameter(s) {unknown} for notebook {stem!r}; it takes {sorted(defaults)}")
    typed = {k: _coerce(v, defaults[k]) for k, v in parameters.items()}
    if "scale" in typed and typed["scale"] not in ("quick", "paper"):
        raise ValueError(f"scale must be 'quick' or 'paper', got {typed['scale']!r}")
    return typed


VOLATILE_NB = ("papermill", "widgets")
VOLATILE_CELL = ("execution", "papermill", "ExecuteTime", "collapsed", "scrolled")


def strip_volatile(nb_json):
    """Remove timestamps, durations and random ids from an executed notebook (a dict), in place."""
    meta = nb_json.setdefault("metadata", {})
    params = meta.get("papermill", {}).get("parameters")
    for key in VOLATILE_NB:
        meta.pop(key, None)
    if params is not None:
        meta["robustpapers"] = {"parameters": params}
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

    Returns
    -------
    pathlib.Path
        The executed page. On failure the previous page is left untouched and the error propagates.
    """
    import jupytext
    import nbformat
    import papermill as pm

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
    with tempfile.TemporaryDirectory(prefix=f".{stem}-", dir=out_dir) as tmp, \
            tempfile.TemporaryDirectory(prefix="rpk-") as sockets:
        tmp_in, tmp_out = Path(tmp) / "in.ipynb", Path(tmp) / "out.ipynb"
        nbformat.write(nb, tmp_in)
        try:
            pm.execute_notebook(
                str(tmp_in), str(tmp_out), parameters=params, kernel_name="python3",
                cwd=str(root / "book"), progress_bar=False, log_output=log_output,
                execution_timeout=timeout, report_mode=False, km=_kernel_manager(sockets),
            )
        finally:
            os.environ.clear()
            os.environ.update(env_backup)
        data = json.loads(tmp_out.read_text())
        strip_volatile(data)
        tmp_out.write_text(json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n")
        os.replace(tmp_out, dest)
    return dest


def reproduce(scheduler=None, n_jobs="-1", root=None, stems=None):
    """Recompute notebooks at paper scale (all of them, or ``stems``) and mark each one done.

    Sweeps recompute unless their exact parameters are cached (the cache is keyed
    by parameters and experiment version, so a paper-scale run never reuses
    quick-scale results). ``scheduler`` sends the sweeps to a Dask cluster.
    Unattended: a notebook that fails is reported and the others go on.
    """
    root = Path(root) if root else repo_root()
    known = list_notebooks(root)
    stems = known if not stems else list(stems)
    unknown = [s for s in stems if s not in known]
    if unknown:
        raise ValueError(f"unknown notebook(s) {unknown}; see `python -m robustpapers list`")
    failed = []
    for stem in stems:
        params = {"scale": "paper"}
        if "n_jobs" in notebook_parameters(stem, root):
            params["n_jobs"] = n_jobs
        if scheduler:
            os.environ["ROBUSTPAPERS_SCHEDULER"] = scheduler
        t0 = time.perf_counter()
        try:
            execute_notebook(stem, params, root=root)
        except Exception as exc:  # keep going: one chapter's failure must not stop the others
            failed.append(stem)
            print(f"{stem}: FAILED ({type(exc).__name__}: {str(exc)[:300]})", flush=True)
            continue
        marker = root / "results" / "paper-scale" / f"{stem}.json"
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text(json.dumps({"notebook": stem, "finished": _timestamp(),
                                      "wall_time_s": round(time.perf_counter() - t0, 1)}, indent=1) + "\n")
        print(f"{stem}: done", flush=True)
    if failed:
        raise RuntimeError(f"paper-scale runs failed: {failed}")


def build_book(root=None, strict=True):
    """Build the HTML book into ``_build/html`` (``jupyter-book build . -W -n --keep-going``)."""
    import subprocess

    root = Path(root) if root else repo_root()
    cmd = [str(Path(sys.executable).parent / "jupyter-book"), "build", str(root), "--path-output", str(root)]
    if strict:
        cmd += ["-W", "-n", "--keep-going"]
    return subprocess.run(cmd, cwd=root, check=True)


def _timestamp():
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
