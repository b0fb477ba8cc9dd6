"""An executed page does not depend on how many processes computed it.

``make book`` re-runs the paper-scale pages with ``scale="paper"`` alone; a page once run with
``-p n_jobs 2`` must come out as the same file, so ``n_jobs`` (an execution-only parameter) is
kept neither in the page's metadata nor in papermill's injected-parameters cell.
"""
import copy
import json
from pathlib import Path

import pytest

from robustpapers.reproduce import pipeline

ROOT = Path(__file__).resolve().parents[1]


def _executed(params):
    """An executed page as papermill leaves it, run with ``params``."""
    injected = "# Parameters\n" + "".join(f"{k} = {v!r}\n" for k, v in params.items())
    return {
        "metadata": {"papermill": {"parameters": dict(params), "start_time": "t"}},
        "cells": [
            {"cell_type": "code", "id": "a", "execution_count": 1, "outputs": [],
             "metadata": {"tags": ["parameters"]}, "source": 'scale = "quick"\nseed = 0\nn_jobs = 1'},
            {"cell_type": "code", "id": "b", "execution_count": 2, "outputs": [],
             "metadata": {"tags": ["injected-parameters"]}, "source": injected},
            {"cell_type": "code", "id": "c", "execution_count": 3, "outputs": [],
             "metadata": {}, "source": "print(scale)"},
        ],
    }


def test_n_jobs_leaves_no_trace_in_the_page():
    with_jobs = pipeline.strip_volatile(_executed({"scale": "paper", "n_jobs": 2}))
    without = pipeline.strip_volatile(_executed({"scale": "paper"}))
    assert with_jobs == without
    assert with_jobs["metadata"]["robustpapers"]["parameters"] == {"scale": "paper"}
    assert with_jobs["cells"][1]["source"] == '# Parameters\nscale = \'paper\'\n'


def test_an_injected_cell_of_n_jobs_alone_goes():
    page = pipeline.strip_volatile(_executed({"n_jobs": -1}))
    plain = _executed({})
    del plain["cells"][1]  # papermill injects no cell when no parameter is given
    assert page == pipeline.strip_volatile(plain)
    assert [c["id"] for c in page["cells"]] == ["cell-0", "cell-1"]
    assert [c["execution_count"] for c in page["cells"]] == [1, 2]


def test_strip_volatile_is_idempotent():
    once = pipeline.strip_volatile(_executed({"scale": "paper", "n_jobs": 2}))
    assert pipeline.strip_volatile(copy.deepcopy(once)) == once


@pytest.mark.parametrize("page", sorted((ROOT / "book").glob("*.ipynb")), ids=lambda p: p.stem)
def test_committed_pages_hold_no_execution_only_parameter(page):
    """What ``make book`` writes for this page is what is committed (as far as parameters go)."""
    nb = json.loads(page.read_text())
    params = nb["metadata"].get("robustpapers", {}).get("parameters", {})
    assert not set(params) & set(pipeline.EXECUTION_ONLY), params
    for cell in nb["cells"]:
        if "injected-parameters" in cell["metadata"].get("tags", []):
            src = "".join(cell["source"])
            assert not any(line.split("=")[0].strip() in pipeline.EXECUTION_ONLY
                           for line in src.splitlines() if "=" in line), src
