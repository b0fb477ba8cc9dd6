"""Every notebook executes from scratch at scale="quick": a temporary folder, an empty cache."""
import pytest

from robustpapers.reproduce import pipeline

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("stem", pipeline.list_notebooks())
def test_notebook_runs_fresh(stem, tmp_path):
    params = {"scale": "quick"} if "scale" in pipeline.notebook_parameters(stem) else {}
    page = pipeline.execute_notebook(stem, params, out_dir=tmp_path, results_dir=tmp_path / "results")
    assert page.exists() and page.parent == tmp_path
