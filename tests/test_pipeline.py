"""The notebook pipeline: parameters are checked, a failed run never replaces a good page."""
import json
import subprocess
import sys
import textwrap

import pytest

from robustpapers.reproduce import pipeline

NOTEBOOK = textwrap.dedent('''\
    ---
    jupytext:
      text_representation:
        extension: .md
        format_name: myst
        format_version: 0.13
    kernelspec:
      display_name: Python 3
      language: python
      name: python3
    ---
    # Tiny

    ```{code-cell} ipython3
    :tags: [parameters]

    scale = "quick"
    seed = 0
    fail = False
    ```

    ```{code-cell} ipython3
    assert not fail, "asked to fail"
    print("seed", seed)
    from ipykernel.connect import get_connection_info
    print("transport", get_connection_info(unpack=True)["transport"])
    ```
    ''')


@pytest.fixture
def tiny_repo(tmp_path):
    (tmp_path / "_toc.yml").write_text("format: jb-book\nroot: book/intro\n")
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "book").mkdir()
    (tmp_path / "notebooks" / "tiny_demo.md").write_text(NOTEBOOK)
    return tmp_path


def test_parameters_are_read_and_checked(tiny_repo):
    assert pipeline.notebook_parameters("tiny_demo", root=tiny_repo) == {"scale": "quick", "seed": 0, "fail": False}
    assert pipeline.check_parameters("tiny_demo", {"seed": "3"}, root=tiny_repo) == {"seed": 3}
    with pytest.raises(ValueError, match=r"unknown parameter\(s\) \['sed'\]"):
        pipeline.check_parameters("tiny_demo", {"sed": 3}, root=tiny_repo)
    with pytest.raises(ValueError, match="scale must be"):
        pipeline.check_parameters("tiny_demo", {"scale": "huge"}, root=tiny_repo)
    with pytest.raises(ValueError, match="not of type int"):
        pipeline.check_parameters("tiny_demo", {"seed": "'a'"}, root=tiny_repo)
    with pytest.raises(ValueError, match="unknown notebook 'nope'"):
        pipeline.notebook_parameters("nope", root=tiny_repo)


@pytest.mark.slow
def test_failed_run_keeps_the_good_page(tiny_repo):
    page = pipeline.execute_notebook("tiny_demo", {"seed": 5}, root=tiny_repo)
    good = page.read_text()
    data = json.loads(good)
    assert "seed 5" in json.dumps(data["cells"])
    # The kernel talked over private Unix sockets, not TCP ports another run could take.
    assert "transport ipc" in json.dumps(data["cells"])
    assert data["metadata"]["robustpapers"]["parameters"] == {"seed": 5}
    assert "papermill" not in data["metadata"] and all("execution" not in c["metadata"] for c in data["cells"])
    with pytest.raises(Exception, match="asked to fail"):
        pipeline.execute_notebook("tiny_demo", {"fail": True}, root=tiny_repo)
    assert page.read_text() == good
    with pytest.raises(ValueError, match="unknown parameter"):
        pipeline.execute_notebook("tiny_demo", {"bogus": 1}, root=tiny_repo)
    assert page.read_text() == good
    assert sorted(p.name for p in (tiny_repo / "book").iterdir()) == ["tiny_demo.ipynb"]


@pytest.mark.slow
def test_reproduce_one_notebook_marks_it_paper_scale(tiny_repo):
    assert not pipeline.paper_scale_cached("tiny_demo", root=tiny_repo)
    with pytest.raises(ValueError, match="unknown notebook"):
        pipeline.reproduce(root=tiny_repo, stems=["nope"])
    assert not (tiny_repo / "results").exists()
    pipeline.reproduce(root=tiny_repo, stems=["tiny_demo"])
    assert pipeline.paper_scale_cached("tiny_demo", root=tiny_repo)
    page = json.loads((tiny_repo / "book" / "tiny_demo.ipynb").read_text())
    assert page["metadata"]["robustpapers"]["parameters"] == {"scale": "paper"}


def test_strip_volatile_is_deterministic():
    nb = {"metadata": {"papermill": {"start_time": "x", "parameters": {"a": 1}}},
          "cells": [{"cell_type": "code", "id": "random", "execution_count": 4,
                     "metadata": {"execution": {"iopub.status.busy": "t"}, "tags": ["x"]},
                     "outputs": [{"output_type": "execute_result", "execution_count": 4}]}]}
    out = pipeline.strip_volatile(nb)
    assert out["metadata"] == {"robustpapers": {"parameters": {"a": 1}}}
    cell = out["cells"][0]
    assert cell["id"] == "cell-0" and cell["execution_count"] == 1 and cell["metadata"] == {"tags": ["x"]}
    assert cell["outputs"][0]["execution_count"] == 1


def test_cli_reports_bad_input_cleanly():
    out = subprocess.run([sys.executable, "-m", "robustpapers", "run", "no_such_page"], capture_output=True, text=True)
    assert out.returncode == 2 and "unknown notebook 'no_such_page'" in out.stderr
    out = subprocess.run([sys.executable, "-m", "robustpapers", "run", "bental2012_prediction_rules", "-p", "sed", "1"],
                         capture_output=True, text=True)
    assert out.returncode == 2 and "unknown parameter" in out.stderr
    out = subprocess.run([sys.executable, "-m", "robustpapers", "reproduce", "no_such_page"], capture_output=True,
                         text=True)
    assert out.returncode == 2 and "unknown notebook(s) ['no_such_page']" in out.stderr
    out = subprocess.run([sys.executable, "-m", "robustpapers", "list"], capture_output=True, text=True)
    assert out.returncode == 0 and "bental2012_prediction_rules  scale='quick'" in out.stdout
