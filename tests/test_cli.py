"""The command line (`python -m robustpapers`): short errors instead of tracebacks, parameters checked before
anything runs, progress while notebooks run, every command in --help.

The unit tests call `main()` in this process on a tiny repository in tmp_path, with papermill replaced by a fake
that logs what papermill logs and raises what papermill raises; one slow test runs a real three-cell notebook.
"""
import json
import logging
import subprocess
import sys
import textwrap

import papermill
import pytest
from papermill.exceptions import PapermillExecutionError

from robustpapers.__main__ import COMMANDS, main
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
    n_jobs = 1
    fail = False
    ```

    Some text.

    ```{code-cell} ipython3
    print("seed", seed)
    ```

    ```{code-cell} ipython3
    def check(flag):
        if flag:
            raise ValueError("asked to fail")
    check(fail)
    ```
    ''')
# Where papermill's executed copy has each cell: 0 title, 1 parameters, 2 injected parameters, 3 text,
# 4 print, 5 check. The source's code cells start on lines 14, 25 and 29.
FAILING_CELL = 5


@pytest.fixture
def tiny_repo(tmp_path, monkeypatch):
    (tmp_path / "_toc.yml").write_text("format: jb-book\nroot: book/intro\n")
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "book").mkdir()
    (tmp_path / "notebooks" / "tiny_demo.md").write_text(NOTEBOOK)
    (tmp_path / "notebooks" / "tiny_other.md").write_text(NOTEBOOK.replace("fail = False\n", ""))
    monkeypatch.chdir(tmp_path)
    return tmp_path


class FakePapermill:
    """Plays `papermill.execute_notebook`: logs its per-cell records, then fails at a cell or writes the output."""

    def __init__(self, fail_at=None):
        self.calls = []
        self.fail_at = fail_at

    def __call__(self, input_path, output_path, parameters=None, log_output=False, **kwargs):
        self.calls.append(dict(parameters or {}))
        logger = logging.getLogger("papermill")
        if log_output:
            logger.info("Input Notebook:  %s" % input_path)
            for i in range(6):
                logger.info(f"Executing Cell {i + 1:-<40}")
                logger.info("Ending Cell %d------" % (i + 1))
                if i == 4:
                    logger.info("seed 0\n")  # what the print cell writes
                if self.fail_at is not None and i == self.fail_at:
                    raise PapermillExecutionError(
                        cell_index=i, exec_count=4, source="check(fail)", ename="ValueError", evalue="asked to fail",
                        traceback=["\x1b[0;31mValueError\x1b[0m  Traceback (most recent call last)",
                                   "----> 4 check(fail)", "\x1b[0;31mValueError\x1b[0m: asked to fail"])
        nb = json.loads(open(input_path).read())
        nb["metadata"]["papermill"] = {"parameters": dict(parameters or {})}
        with open(output_path, "w") as f:
            json.dump(nb, f)


def run_cli(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def test_help_lists_every_command(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    for name, text in COMMANDS.items():
        assert name in out.split("commands:")[-1] and text.split(" (")[0] in " ".join(out.split())
    assert "{list,run,reproduce,book,cache}" in out.split("\n\n")[0]  # in the usage too
    for name in COMMANDS:
        with pytest.raises(SystemExit):
            main([name, "--help"])
        assert "usage: python -m robustpapers " + name in capsys.readouterr().out


@pytest.mark.parametrize("name, value, message", [
    ("seed", "3.5", "parameter seed: 3.5 is not of type int"),
    ("seed", "-1", "parameter seed must be a non-negative integer, got -1"),
    ("seed", "'a'", "parameter seed: 'a' is not of type int"),
    ("seed", "True", "parameter seed: True is not of type int"),
    ("n_jobs", "0", "parameter n_jobs must be a positive integer or -1"),
    ("n_jobs", "1.5", "parameter n_jobs: 1.5 is not of type int"),
    ("n_jobs", "-2", "parameter n_jobs must be a positive integer or -1"),
    ("scale", "huge", "scale must be 'quick' or 'paper', got 'huge'"),
    ("fail", "1", "parameter fail: 1 is not of type bool"),
    ("sed", "1", "unknown parameter(s) ['sed']"),
])
def test_parameters_are_checked_before_anything_runs(tiny_repo, capsys, monkeypatch, name, value, message):
    fake = FakePapermill()
    monkeypatch.setattr(papermill, "execute_notebook", fake)
    rc, out, err = run_cli(capsys, "run", "tiny_demo", "-p", name, value)
    assert rc == 2 and err.strip().splitlines()[-1].startswith("error: ") and message in err
    assert "Traceback" not in err and not fake.calls and not list((tiny_repo / "book").iterdir())


def test_parameters_of_the_right_type_and_range_pass(tiny_repo):
    typed = pipeline.check_parameters("tiny_demo", {"seed": "3", "n_jobs": "-1", "scale": "paper", "fail": "True"})
    assert typed == {"seed": 3, "n_jobs": -1, "scale": "paper", "fail": True}
    # values given from Python (the notebooks' and tests' way) get the same checks
    with pytest.raises(ValueError, match="parameter seed: 3.5 is not of type int"):
        pipeline.check_parameters("tiny_demo", {"seed": 3.5})
    with pytest.raises(ValueError, match=r"parameter n_jobs must be a positive integer or -1 \(all cores\), got 0"):
        pipeline.check_parameters("tiny_demo", {"n_jobs": 0})


def test_run_all_checks_every_page_before_the_first_runs(tiny_repo, capsys, monkeypatch):
    fake = FakePapermill()
    monkeypatch.setattr(papermill, "execute_notebook", fake)
    # tiny_demo (first) takes `fail`, tiny_other does not: nothing may run
    rc, out, err = run_cli(capsys, "run", "--all", "-p", "fail", "True")
    assert rc == 2 and "unknown parameter(s) ['fail'] for notebook 'tiny_other'" in err and not fake.calls


def test_a_failing_cell_gives_one_line_naming_the_cell_and_the_error(tiny_repo, capsys, monkeypatch):
    good = tiny_repo / "book" / "tiny_demo.ipynb"
    good.write_text("the previous page\n")
    monkeypatch.setattr(papermill, "execute_notebook", FakePapermill(fail_at=FAILING_CELL))
    rc, out, err = run_cli(capsys, "run", "tiny_demo", "-p", "fail", "True")
    assert rc == 1 and out == ""
    lines = err.strip().splitlines()
    assert lines[-1] == "error: notebooks/tiny_demo.md, code cell 3 of 3 (line 29): ValueError: asked to fail"
    # progress: the page, then each code cell with its line and the time so far; no traceback, no cell output
    assert lines[0] == "tiny_demo: 3 code cells (fail=True)"
    assert [ln.split(",")[0] for ln in lines[1:4]] == [
        "tiny_demo: code cell 1 of 3 (line 14)", "tiny_demo: code cell 2 of 3 (line 25)",
        "tiny_demo: code cell 3 of 3 (line 29)"]
    assert all(ln.endswith("s elapsed") for ln in lines[1:4]) and len(lines) == 5
    assert "Traceback" not in err and "seed 0" not in err and "Ending Cell" not in err
    assert good.read_text() == "the previous page\n"
    assert sorted(p.name for p in (tiny_repo / "book").iterdir()) == ["tiny_demo.ipynb"]


def test_verbose_shows_the_cells_output_and_the_tracebacks(tiny_repo, capsys, monkeypatch):
    monkeypatch.setattr(papermill, "execute_notebook", FakePapermill(fail_at=FAILING_CELL))
    rc, out, err = run_cli(capsys, "run", "tiny_demo", "-p", "fail", "True", "-v")
    assert rc == 1 and "seed 0" in err and "----> 4 check(fail)" in err and "Traceback" in err
    assert "\x1b[" not in err  # the notebook's traceback without its terminal colours
    assert "Input Notebook" not in err and "Ending Cell" not in err
    assert err.strip().splitlines()[-1].startswith("error: notebooks/tiny_demo.md, code cell 3 of 3")
    # -v before the command works too, and -q keeps only the error
    rc, out, err = run_cli(capsys, "-q", "run", "tiny_demo", "-p", "fail", "True")
    assert rc == 1 and err.strip().splitlines() == [
        "error: notebooks/tiny_demo.md, code cell 3 of 3 (line 29): ValueError: asked to fail"]


def test_the_library_api_raises_notebook_failed_with_the_cell(tiny_repo, monkeypatch):
    monkeypatch.setattr(papermill, "execute_notebook", FakePapermill(fail_at=FAILING_CELL))
    with pytest.raises(pipeline.NotebookFailed) as info:
        pipeline.execute_notebook("tiny_demo", {"fail": True})
    exc = info.value
    assert (exc.stem, exc.cell, exc.n_cells, exc.line, exc.ename, exc.evalue) == (
        "tiny_demo", 3, 3, 29, "ValueError", "asked to fail")
    assert isinstance(exc.__cause__, PapermillExecutionError) and isinstance(exc, RuntimeError)
    assert exc.traceback[-1] == "ValueError: asked to fail"


def test_a_successful_run_prints_the_page_and_logs_progress(tiny_repo, capsys, monkeypatch):
    fake = FakePapermill()
    monkeypatch.setattr(papermill, "execute_notebook", fake)
    rc, out, err = run_cli(capsys, "run", "--all", "-p", "seed", "4")
    assert rc == 0 and fake.calls == [{"seed": 4}, {"seed": 4}]
    assert out.split() == [str(tiny_repo / "book" / f"{s}.ipynb") for s in ("tiny_demo", "tiny_other")]
    assert "page 1 of 2: tiny_demo" in err and "page 2 of 2: tiny_other" in err
    assert "tiny_other: code cell 3 of 3 (line 28)" in err and "tiny_other: done in" in err
    assert json.loads((tiny_repo / "book" / "tiny_demo.ipynb").read_text())["metadata"]["robustpapers"] == {
        "parameters": {"seed": 4}}


def test_reproduce_names_the_cell_and_the_error_and_goes_on(tiny_repo, capsys, monkeypatch):
    class FailFirst(FakePapermill):
        def __call__(self, input_path, output_path, parameters=None, log_output=False, **kwargs):
            self.fail_at = FAILING_CELL if not self.calls else None
            return super().__call__(input_path, output_path, parameters, log_output, **kwargs)

    fake = FailFirst()
    monkeypatch.setattr(papermill, "execute_notebook", fake)
    rc, out, err = run_cli(capsys, "reproduce", "-n", "2")
    assert rc == 1 and fake.calls == [{"scale": "paper", "n_jobs": 2}] * 2
    assert ("tiny_demo: FAILED: notebooks/tiny_demo.md, code cell 3 of 3 (line 29): ValueError: asked to fail"
            in err.splitlines())
    assert "page 2 of 2: tiny_other (paper scale)" in err and "tiny_other: done (page 2 of 2" in err
    assert err.strip().splitlines()[-1] == "error: paper-scale runs failed: ['tiny_demo']"
    assert "Traceback" not in err
    assert not pipeline.paper_scale_cached("tiny_demo") and pipeline.paper_scale_cached("tiny_other")


@pytest.mark.parametrize("n_jobs", ["0", "1.5", "x"])
def test_reproduce_checks_n_jobs_before_anything_runs(tiny_repo, capsys, monkeypatch, n_jobs):
    fake = FakePapermill()
    monkeypatch.setattr(papermill, "execute_notebook", fake)
    rc, out, err = run_cli(capsys, "reproduce", "-n", n_jobs)
    assert rc == 2 and "n_jobs" in err and "Traceback" not in err and not fake.calls
    assert not (tiny_repo / "results").exists() and not list((tiny_repo / "book").iterdir())


@pytest.mark.parametrize("command", [["list"], ["run", "tiny_demo"], ["reproduce"]])
def test_library_only_install_says_which_extra(tiny_repo, capsys, monkeypatch, command):
    monkeypatch.setitem(sys.modules, "jupytext", None)  # `import jupytext` now fails as if not installed
    rc, out, err = run_cli(capsys, *command)
    assert rc == 1 and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert "'jupytext'" in err and "pip install 'robustpapers[book]'" in err


def test_book_without_jupyter_book_says_which_extra(tiny_repo, capsys, monkeypatch):
    monkeypatch.setattr(sys, "executable", str(tiny_repo / "no-venv" / "python"))
    monkeypatch.setattr(pipeline.shutil, "which", lambda name: None)
    rc, out, err = run_cli(capsys, "book")
    assert rc == 1 and "Traceback" not in err
    assert err.strip() == "error: `book` needs jupyter-book, which is not installed: pip install 'robustpapers[book]'"


def test_a_failed_book_build_is_one_line(tiny_repo, capsys, monkeypatch):
    def failing_build(cmd, **kwargs):
        raise subprocess.CalledProcessError(1, cmd)

    monkeypatch.setattr(subprocess, "run", failing_build)
    rc, out, err = run_cli(capsys, "book")
    assert rc == 1 and err.strip().splitlines()[-1] == "error: jupyter-book failed with exit status 1 (its output is above)"
    assert "Traceback" not in err


def test_main_leaves_the_loggers_as_it_found_them(tiny_repo, capsys):
    before = [(n, logging.getLogger(n).level, list(logging.getLogger(n).handlers)) for n in ("robustpapers", "papermill")]
    run_cli(capsys, "-v", "list")
    after = [(n, logging.getLogger(n).level, list(logging.getLogger(n).handlers)) for n in ("robustpapers", "papermill")]
    assert before == after


@pytest.mark.slow
def test_a_real_failing_notebook_ends_in_one_line_and_no_kernel_is_left(tiny_repo):
    """A real kernel: papermill's per-cell log format (what the progress lines parse) and the kernel's shutdown.

    A kernel left running would keep stderr open and print "Parent appears to have exited" when this process ends.
    """
    out = subprocess.run([sys.executable, "-m", "robustpapers", "run", "tiny_demo", "-p", "fail", "True"],
                         capture_output=True, text=True, cwd=tiny_repo, timeout=600)
    lines = out.stderr.strip().splitlines()
    assert out.returncode == 1 and out.stdout == ""
    assert lines[-1] == "error: notebooks/tiny_demo.md, code cell 3 of 3 (line 29): ValueError: asked to fail"
    assert [ln.split(",")[0] for ln in lines[1:4]] == [
        "tiny_demo: code cell 1 of 3 (line 14)", "tiny_demo: code cell 2 of 3 (line 25)",
        "tiny_demo: code cell 3 of 3 (line 29)"]
    assert len(lines) == 5, out.stderr
    assert not (tiny_repo / "book" / "tiny_demo.ipynb").exists()
