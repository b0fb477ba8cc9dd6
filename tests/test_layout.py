"""The package layout: a paper's package holds its solvers; experiments live in robustpapers.reproduce.

* ``robustpapers/<paper>/`` and ``robustpapers/structures/`` import only ``robustpapers.core``,
  ``robustpapers.datasets``, their own package and third-party packages: never another paper, never the
  reproduction layer (checked on the source, so a lazy import inside a function counts too).
* The task functions that moved from ``robustpapers.<paper>.<module>`` to ``robustpapers.reproduce.<paper>.<module>``
  keep their cache identity: committed records in ``results/`` are still found by ``load_cached``.
"""
import ast
import importlib
import inspect
import json
from collections import defaultdict
from pathlib import Path

import pytest

from robustpapers.reproduce.engine import load_cached, results_root

PACKAGE = Path(__file__).resolve().parents[1] / "robustpapers"
PAPERS = ("bental2012", "bhadra2010", "chen2008", "ginodi2010", "shivaswamy2006")
SOLVER_PACKAGES = PAPERS + ("structures",)
SHARED = ("robustpapers.core", "robustpapers.datasets")


def _imports(path, package):
    """Absolute names of every module ``path`` imports (``package``: the dotted package the file sits in)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(base)
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module
            if node.module is None:  # "from .. import core": each name may be a module
                for alias in node.names:
                    yield node.lineno, f"{target}.{alias.name}"
            else:
                yield node.lineno, target


def _allowed(name, own):
    if name != "robustpapers" and not name.startswith("robustpapers."):
        return True  # standard library or third party
    return any(name == p or name.startswith(p + ".") for p in SHARED + (own,))


def _violations(key):
    own = f"robustpapers.{key}"
    found = []
    for path in sorted((PACKAGE / key).rglob("*.py")):
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        package = ".".join(rel.parts[:-1])  # the package a relative import starts from
        for lineno, name in _imports(path, package):
            if not _allowed(name, own):
                found.append(f"{path.relative_to(PACKAGE.parent)}:{lineno} imports {name}")
    return found


def test_import_resolution_handles_relative_and_package_imports(tmp_path):
    mod = tmp_path / "m.py"
    mod.write_text("from ..core import svm_dual\nfrom . import data\nfrom .. import datasets\nimport numpy\n"
                   "def f():\n    from ..reproduce.engine import grid\n")
    names = [n for _, n in _imports(mod, "robustpapers.bental2012")]
    assert names == ["robustpapers.core", "robustpapers.bental2012.data", "robustpapers.datasets", "numpy",
                     "robustpapers.reproduce.engine"]
    assert not _allowed("robustpapers.reproduce.engine", "robustpapers.bental2012")
    assert not _allowed("robustpapers.bhadra2010", "robustpapers.bental2012")
    assert _allowed("robustpapers.core.fss", "robustpapers.bental2012")


@pytest.mark.parametrize("key", SOLVER_PACKAGES)
def test_solver_package_imports_only_core_datasets_and_itself(key):
    found = _violations(key)
    assert not found, f"robustpapers/{key}/ must import only robustpapers.core, robustpapers.datasets and " \
                      f"robustpapers.{key}:\n" + "\n".join(found)


def test_core_imports_no_paper_and_no_reproduction():
    """robustpapers.core is below every paper: it imports only itself (and third-party packages)."""
    found = []
    for path in sorted((PACKAGE / "core").rglob("*.py")):
        for lineno, name in _imports(path, "robustpapers.core"):
            if name.startswith("robustpapers") and not (name == "robustpapers.core" or name.startswith("robustpapers.core.")):
                found.append(f"{path.relative_to(PACKAGE.parent)}:{lineno} imports {name}")
    assert not found, "\n".join(found)


# The modules moved from robustpapers.<paper>/ to robustpapers/reproduce/<paper>/ with their task functions.
MOVED = {
    "bental2012": ("experiments", "experiments_proteins", "perturbed_kernel_demo"),
    "bhadra2010": ("experiments", "protein_experiments"),
    "ginodi2010": ("experiments",),
    "shivaswamy2006": ("experiments",),
    "structures": ("experiments",),
}


@pytest.mark.parametrize("key,module", [(k, m) for k, ms in MOVED.items() for m in ms])
def test_moved_task_functions_keep_their_old_names(key, module):
    mod = importlib.import_module(f"robustpapers.reproduce.{key}.{module}")
    tasks = [f for name, f in inspect.getmembers(mod, inspect.isfunction)
             if name.endswith("_task") and f.__module__ == mod.__name__]
    assert tasks
    for f in tasks:
        assert getattr(f, "__robustpapers_task__", None) == f"robustpapers.{key}.{module}:{f.__qualname__}", f


def _sample_records(key, per_func=3):
    """Up to ``per_func`` committed records of each (experiment, task function, version) under results/<key>/."""
    picked = defaultdict(list)
    for folder in sorted(p for p in (results_root() / key).iterdir() if p.is_dir() and p.name != "benchmarks"):
        for path in sorted(folder.glob("*.json")):
            rec = json.loads(path.read_text())
            prov = rec.get("provenance", {})
            slot = (folder.name, prov.get("func"), prov.get("version"))
            # a task function written in robustpapers.reproduce after the move never moved: nothing to check
            moved = prov.get("func") and not prov["func"].startswith("robustpapers.reproduce.")
            if moved and len(picked[slot]) < per_func:
                picked[slot].append(rec)
    return picked


@pytest.mark.parametrize("key", sorted(MOVED))
def test_committed_records_are_still_found_after_the_move(key):
    if not (results_root() / key).is_dir():
        pytest.skip(f"no committed records for {key}")
    picked = _sample_records(key)
    assert picked
    for (experiment, func_name, version), records in picked.items():
        module, qualname = func_name.split(":")
        old_key, old_module = module.split(".")[1:]
        assert old_key == key and old_module in MOVED[key], func_name
        func = getattr(importlib.import_module(f"robustpapers.reproduce.{key}.{old_module}"), qualname)
        for rec in records:
            assert load_cached(func, rec["params"], key, experiment, version) is not None, \
                f"{func_name} v{version} in results/{key}/{experiment}: record no longer found"
