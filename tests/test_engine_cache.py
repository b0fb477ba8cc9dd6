"""The results cache made safe: records written as tasks end, unique temporary names, corrupt records named,
the task function's source hash and the dependency versions in the provenance, ``cache status``."""
import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from robustpapers.reproduce import engine
from robustpapers.reproduce.engine import (TaskCheckpoint, cache_status, cached_sweep, grid, load_cached,
                                           provenance_summary, read_record, run_sweep, source_hash, task_key,
                                           task_name)

REPO = Path(__file__).resolve().parents[1]


class TaskFailed(Exception):
    """What a task raises on purpose."""


def fail_at_two(x):
    if x == 2:
        raise TaskFailed("no result for two")
    return {"y": x * x}


def interrupt_at_two(x):
    if x == 2:
        raise KeyboardInterrupt
    return {"y": x * x}


def wait_for_a_record(x, folder):
    """Task 0 ends at once; task 1 ends only once a record is on disk, so a sweep that wrote its records only
    at the end would never let it finish (it gives up after 60 s)."""
    if x == 1:
        deadline = time.monotonic() + 60
        while not any(Path(folder).glob("*.json")):
            if time.monotonic() > deadline:
                raise TimeoutError("no record was written while the sweep ran")
            time.sleep(0.02)
    return {"y": x}


def _json_files(folder):
    return sorted(Path(folder).glob("*.json"))


def _no_temporaries(root):
    return [p for p in Path(root).rglob("*") if p.name.endswith(".tmp")] == []


# -- 1. each record as soon as its task ends ------------------------------------------------------------------

@pytest.mark.parametrize("n_jobs", [1, 2])
def test_a_failing_task_keeps_the_others_and_is_named(tmp_path, n_jobs):
    tasks = grid(x=[0, 1, 2, 3])
    with pytest.raises(TaskFailed, match=r"'x': 2") as info:
        run_sweep(fail_at_two, tasks, paperkey="demo", experiment="fail", root=tmp_path, n_jobs=n_jobs)
    notes = "\n".join(info.value.__notes__)
    assert "1 of 4 tasks failed" in notes and "no result for two" in str(info.value)
    if n_jobs > 1:
        assert "traceback in the worker" in notes and "fail_at_two" in notes
    for t in tasks:
        rec = load_cached(fail_at_two, t, "demo", "fail", 1, root=tmp_path)
        assert (rec is None) == (t["x"] == 2)
    assert len(_json_files(tmp_path / "demo" / "fail")) == 3 and _no_temporaries(tmp_path)
    # the finished tasks are reused; only the failed one runs again
    with pytest.raises(TaskFailed):
        run_sweep(fail_at_two, tasks, paperkey="demo", experiment="fail", root=tmp_path)
    frame, missing = cached_sweep(fail_at_two, tasks, paperkey="demo", experiment="fail", root=tmp_path)
    assert missing == 1 and frame.y.tolist() == [0, 1, 9]


def test_an_interrupted_sweep_keeps_the_tasks_finished_before(tmp_path):
    with pytest.raises(KeyboardInterrupt):
        run_sweep(interrupt_at_two, grid(x=[0, 1, 2, 3]), paperkey="demo", experiment="ctrlc", root=tmp_path)
    kept = [read_record(p)["params"]["x"] for p in _json_files(tmp_path / "demo" / "ctrlc")]
    assert sorted(kept) == [0, 1]


def test_joblib_writes_each_record_as_its_task_ends(tmp_path):
    folder = tmp_path / "demo" / "stream"
    df = run_sweep(wait_for_a_record, grid(x=[1, 0], folder=[str(folder)]), paperkey="demo", experiment="stream",
                   root=tmp_path, n_jobs=2)
    assert df.x.tolist() == [1, 0] and df.y.tolist() == [1, 0]  # task order, whatever the order of ending


def test_dask_writes_each_record_as_its_future_completes(tmp_path):
    distributed = pytest.importorskip("distributed")
    folder = tmp_path / "demo" / "dask"
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=":0") as cluster, distributed.Client(cluster) as client:
        df = run_sweep(wait_for_a_record, grid(x=[1, 0], folder=[str(folder)]), paperkey="demo",
                       experiment="dask", root=tmp_path, scheduler=client)
        assert df.y.tolist() == [1, 0]
        with pytest.raises(TaskFailed, match=r"'x': 2"):
            run_sweep(fail_at_two, grid(x=[0, 1, 2, 3]), paperkey="demo", experiment="dask_fail", root=tmp_path,
                      scheduler=client)
    assert len(_json_files(tmp_path / "demo" / "dask_fail")) == 3


SWEEP_SCRIPT = textwrap.dedent('''
    import sys, time
    from pathlib import Path
    from robustpapers.reproduce.engine import grid, run_sweep, task_checkpoint

    def slow_task(x, hang_from):
        """Ends at once below ``hang_from``, hangs from it on (until killed)."""
        store = task_checkpoint()
        for step in range(20):  # checkpoints too, so concurrent sweeps also race on checkpoint files
            store.save({"x": x, "step": step})
        if x >= hang_from:
            time.sleep(600)
        return {"y": x * 0.5, "pid_parity": 0}

    if __name__ == "__main__":
        root, n, hang_from, n_jobs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
        df = run_sweep(slow_task, grid(x=list(range(n)), hang_from=[hang_from]), paperkey="demo",
                       experiment="sweep", root=root, n_jobs=n_jobs)
        print(len(df), flush=True)
''')


def _sweep_process(tmp_path, root, n, hang_from, n_jobs):
    script = tmp_path / "sweep.py"
    script.write_text(SWEEP_SCRIPT)
    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONPATH=str(REPO))
    return subprocess.Popen([sys.executable, str(script), str(root), str(n), str(hang_from), str(n_jobs)],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def _wait_for_records(folder, k, proc, timeout=120):
    deadline = time.monotonic() + timeout
    while len(_json_files(folder)) < k:
        if proc.poll() is not None:
            raise AssertionError(f"the sweep ended early: {proc.stderr.read()}")
        if time.monotonic() > deadline:
            raise AssertionError(f"fewer than {k} records after {timeout} s")
        time.sleep(0.05)


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_a_killed_sweep_keeps_its_finished_tasks(tmp_path, n_jobs):
    """SIGKILL once k tasks have ended (the others hang): the k records are on disk, whole and valid."""
    root, k = tmp_path / "results", 3
    proc = _sweep_process(tmp_path, root, n=6, hang_from=k, n_jobs=n_jobs)
    try:
        _wait_for_records(root / "demo" / "sweep", k, proc)
        time.sleep(0.3)  # no further record can come: every other task hangs
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the sweep and its joblib workers
        proc.wait()
    recs = [read_record(p) for p in _json_files(root / "demo" / "sweep")]
    assert sorted(r["params"]["x"] for r in recs) == list(range(k))
    assert all(r["result"]["y"] == r["params"]["x"] * 0.5 for r in recs)
    # the finished tasks left no checkpoint; the hanging ones keep theirs
    assert len(list((root / "demo" / "sweep").glob("*.checkpoint"))) == (1 if n_jobs == 1 else 2)


def test_two_processes_share_one_cache(tmp_path):
    """Two sweeps over the same tasks at once, on one cache: both succeed, every record is valid.

    (With the former fixed temporary names, ``<key>.tmp`` and ``<key>.checkpoint-tmp``, one of the two sweeps
    crashed in 3 runs of 4: its rename found the other's file already moved.)"""
    root, n = tmp_path / "results", 60
    procs = [_sweep_process(tmp_path, root, n=n, hang_from=n, n_jobs=1) for _ in range(2)]
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [err for _, err in outs]
    assert [out.strip() for out, _ in outs] == [str(n), str(n)]
    recs = [read_record(p) for p in _json_files(root / "demo" / "sweep")]
    assert sorted(r["params"]["x"] for r in recs) == list(range(n))
    assert _no_temporaries(root) and not list((root / "demo" / "sweep").glob("*.checkpoint"))


def test_writes_use_a_temporary_name_of_their_own(tmp_path, monkeypatch):
    """Each write goes through its own mkstemp file in the target folder, then one rename."""
    made = []
    real = engine.tempfile.mkstemp

    def spy(*args, **kwargs):
        fd, name = real(*args, **kwargs)
        made.append(Path(name))
        return fd, name

    monkeypatch.setattr(engine.tempfile, "mkstemp", spy)
    ckpt = TaskCheckpoint(tmp_path / "demo" / "x.checkpoint")
    ckpt.save({"a": 1})
    ckpt.save({"a": 2})
    run_sweep(fail_at_two, grid(x=[0, 1]), paperkey="demo", experiment="names", root=tmp_path)
    assert len(made) == len(set(made)) == 4 and not any(p.exists() for p in made)
    assert {p.parent for p in made} == {tmp_path / "demo", tmp_path / "demo" / "names"}
    assert ckpt.load() == {"a": 2}
    # many threads saving one checkpoint at once never collide
    errors = []

    def hammer(i):
        try:
            for j in range(30):
                TaskCheckpoint(tmp_path / "demo" / "y.checkpoint").save({"i": i, "j": j})
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=hammer, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and TaskCheckpoint(tmp_path / "demo" / "y.checkpoint").load()["j"] == 29


# -- 3. a corrupt record names its file ---------------------------------------------------------------------------

@pytest.mark.parametrize("content", ['{"params": {"x": 1}, "resu', "", '{"params": {"x": 1}, "result": {}}',
                                     '{"params": {"x": 1}, "result": {}, "provenance": {"func": "a:b"}}', "[1, 2]"])
def test_a_corrupt_record_raises_an_error_naming_its_file(tmp_path, content):
    run_sweep(fail_at_two, grid(x=[1]), paperkey="demo", experiment="bad", root=tmp_path)
    (path,) = _json_files(tmp_path / "demo" / "bad")
    path.write_text(content)
    where = path.name
    with pytest.raises(ValueError, match=f"corrupt record .*{where}"):
        load_cached(fail_at_two, {"x": 1}, "demo", "bad", 1, root=tmp_path)
    with pytest.raises(ValueError, match=where):
        run_sweep(fail_at_two, grid(x=[1]), paperkey="demo", experiment="bad", root=tmp_path)
    with pytest.raises(ValueError, match=where):
        cached_sweep(fail_at_two, grid(x=[1]), paperkey="demo", experiment="bad", root=tmp_path)
    with pytest.raises(ValueError, match=where):
        provenance_summary("demo", root=tmp_path)
    with pytest.raises(ValueError, match=where):
        cache_status(root=tmp_path)
    with pytest.raises(ValueError, match=where):
        read_record(path)


def test_a_corrupt_checkpoint_raises_an_error_naming_its_file(tmp_path):
    path = tmp_path / "k.checkpoint"
    path.write_text('{"commits": ["a"]')
    with pytest.raises(ValueError, match="corrupt checkpoint .*k.checkpoint"):
        TaskCheckpoint(path).load()


# -- 4. and 5. what the provenance records --------------------------------------------------------------------------

def test_keys_do_not_change():
    """The key of a name, parameters and version is what it was (every committed record is found by it)."""
    def f():
        return {}

    f.__robustpapers_task__ = "robustpapers.demo:square"
    assert task_key(f, {"x": 3, "seed": 1}, 1) == "2bf1a26ab882276df9d9"
    assert task_key(f, {"x": 3.5, "seed": [1, 2]}, "v2") == "422f1b8a4e9d26c4ede5"
    for folder in engine._record_folders(REPO / "results"):
        path = _json_files(folder)[0]
        rec = read_record(path)
        f.__robustpapers_task__ = rec["provenance"]["func"]
        assert task_key(f, rec["params"], rec["provenance"]["version"]) == path.stem, path


def test_records_store_the_source_hash_and_the_versions(tmp_path):
    from importlib.metadata import version

    run_sweep(fail_at_two, grid(x=[0]), paperkey="demo", experiment="prov", root=tmp_path)
    (path,) = _json_files(tmp_path / "demo" / "prov")
    prov = read_record(path)["provenance"]
    assert prov["source_hash"] == source_hash(fail_at_two) and len(prov["source_hash"]) == 16
    assert prov["version"] == 1 and prov["func"].endswith(":fail_at_two")
    versions = prov["versions"]
    for name in ("numpy", "scipy", "scikit-learn", "cvxpy"):
        assert versions[name] == version(name)
    assert set(versions) <= {"numpy", "scipy", "scikit-learn", "cvxpy", "clarabel", "ecos", "scs", "osqp"}
    assert any(s in versions for s in ("clarabel", "ecos", "scs", "osqp"))
    assert {"git_commit", "python", "package_version", "wall_time", "date", "seed"} <= set(prov)
    # the hash is not part of the key: a record without it (made before) is still reused
    rec = json.loads(path.read_text())
    del rec["provenance"]["source_hash"], rec["provenance"]["versions"]
    path.write_text(json.dumps(rec))
    assert run_sweep(fail_at_two, grid(x=[0]), paperkey="demo", experiment="prov", root=tmp_path).cached.all()


def _module(tmp_path, name, source):
    import importlib.util

    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(source))
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_source_hash_follows_the_code_not_the_task_name(tmp_path):
    body = """
        def task(x):
            return {"y": x + 1}
    """
    plain = _module(tmp_path, "plain_tasks", "from robustpapers.reproduce.engine import task_name\n" +
                    textwrap.dedent(body))
    moved = _module(tmp_path, "moved_tasks", """
        from robustpapers.reproduce import engine

        @engine.task_name("plain_tasks:task")
        def task(x):
            return {"y": x + 1}
    """)
    changed = _module(tmp_path, "changed_tasks", body.replace("x + 1", "x + 2"))
    assert source_hash(plain.task) == source_hash(moved.task) != source_hash(changed.task)
    assert engine._func_name(moved.task) == engine._func_name(plain.task) == "plain_tasks:task"
    assert source_hash(len) is None
    assert task_name("a.b:c")(plain.task) is plain.task


def test_a_commit_is_recorded_only_from_this_checkout(monkeypatch, tmp_path):
    import re

    assert engine._PACKAGE_DIR.name == "robustpapers" and (engine._PACKAGE_DIR / "__init__.py").is_file()
    if (REPO / ".git").exists() and engine._PACKAGE_DIR == REPO / "robustpapers":
        assert re.fullmatch(r"[0-9a-f]{40}(\+dirty)?", engine._read_git_commit())
    elsewhere = tmp_path / "other_repo"  # a repository that is not this project (no _toc.yml)
    (elsewhere / "robustpapers").mkdir(parents=True)

    def other_toplevel(cmd, **kwargs):
        out = f"{elsewhere}\n" if cmd[1:] == ["rev-parse", "--show-toplevel"] else "f" * 40 + "\n"
        return subprocess.CompletedProcess(cmd, 0, stdout=out, stderr="")

    monkeypatch.setattr(engine.subprocess, "run", other_toplevel)
    assert engine._read_git_commit() == "unknown"
    (elsewhere / "_toc.yml").write_text("")  # this project's layout, but not the package imported
    assert engine._read_git_commit() == "unknown"
    asked = []

    def untracked_module(cmd, **kwargs):  # this checkout, clean but for a new module not yet committed
        asked.append(cmd)
        if cmd[1:] == ["rev-parse", "--show-toplevel"]:
            out = f"{engine._PACKAGE_DIR.parent}\n"
        else:
            out = "f" * 40 + "\n" if cmd[1] == "rev-parse" else "?? robustpapers/reproduce/new_artefact.py\n"
        return subprocess.CompletedProcess(cmd, 0, stdout=out, stderr="")

    monkeypatch.setattr(engine.subprocess, "run", untracked_module)
    assert engine._read_git_commit() == "f" * 40 + "+dirty"
    assert "--untracked-files=all" in asked[-1] and asked[-1][-1] == str(engine._PACKAGE_DIR)


# -- 4. cache status -----------------------------------------------------------------------------------------------

TASKS_V1 = """
    def kept(x):
        return {"y": x}


    def edited(x):
        return {"y": 2 * x}
"""


def _status_fixture(tmp_path, request):
    """A results root with records of ``status_tasks``: 3 of ``kept``, 2 of ``edited`` (then edited), one of
    them made before hashes, and one whose function is gone."""
    mods = tmp_path / "mods"
    mods.mkdir()
    mod = _module(mods, "status_tasks", TASKS_V1)
    root = tmp_path / "results"
    run_sweep(mod.kept, grid(x=[1, 2, 3]), paperkey="demo", experiment="a", root=root)
    run_sweep(mod.edited, grid(x=[1, 2]), paperkey="demo", experiment="a", root=root)
    run_sweep(mod.kept, grid(x=[1]), paperkey="other", experiment="b", root=root)
    old = _json_files(root / "other" / "b")[0]
    rec = json.loads(old.read_text())
    del rec["provenance"]["source_hash"]  # a record made before hashes were stored
    old.write_text(json.dumps(rec))
    rec["provenance"]["func"] = "status_tasks:removed"
    (root / "other" / "b" / "0123.json").write_text(json.dumps(rec))
    (root / "demo" / "benchmarks").mkdir()
    (root / "demo" / "benchmarks" / "speed.json").write_text("{}")  # measurements, not records
    (mods / "status_tasks.py").write_text(textwrap.dedent(TASKS_V1).replace("2 * x", "2 * x + 1"))
    # cache_status imports the edited module by its name
    sys.path.insert(0, str(mods))
    request.addfinalizer(lambda: (sys.path.remove(str(mods)), sys.modules.pop("status_tasks", None)))
    return root, mods


def test_cache_status_counts_current_stale_unhashed_and_missing(tmp_path, request):
    root, _ = _status_fixture(tmp_path, request)
    rows = cache_status(root=root)
    assert rows == [
        {"paper": "demo", "experiment": "a", "records": 5, "current": 3, "stale": 2, "unhashed": 0,
         "not_found": 0},
        {"paper": "other", "experiment": "b", "records": 2, "current": 0, "stale": 0, "unhashed": 1,
         "not_found": 1},
    ]
    assert [r["paper"] for r in cache_status(root=root, paper="other")] == ["other"]
    for bad in ("nope", "../demo", ""):
        with pytest.raises(ValueError):
            cache_status(root=root, paper=bad)


def _cli(args, env=None):
    return subprocess.run([sys.executable, "-m", "robustpapers", *args], capture_output=True, text=True,
                          cwd=REPO, env={**os.environ, **(env or {})}, timeout=300)


def test_cache_status_command(tmp_path, request, monkeypatch, capsys):
    root, mods = _status_fixture(tmp_path, request)
    env = {"PYTHONPATH": os.pathsep.join([str(mods), str(REPO)])}
    out = _cli(["cache", "status", "--root", str(root)], env)
    assert out.returncode == 0, out.stderr
    lines = {line.split()[0]: line.split()[1:] for line in out.stdout.splitlines()[1:]}
    assert lines["demo/a"] == ["5", "3", "2", "0", "0"] and lines["other/b"] == ["2", "0", "0", "1", "1"]
    assert "demo/benchmarks" not in lines and lines["demo"][0] == "(all)"
    assert out.stdout.split("\n")[0].split() == ["folder", "records", "current", "stale", "unhashed", "not",
                                                 "found"]
    # the root from $ROBUSTPAPERS_RESULTS, and bad arguments: a one-line error, exit 2, no traceback
    from robustpapers.__main__ import main

    monkeypatch.setenv("ROBUSTPAPERS_RESULTS", str(root))
    assert main(["cache", "status", "--paper", "other"]) == 0
    shown = capsys.readouterr().out
    assert "other/b" in shown and "demo/a" not in shown
    assert main(["cache", "status", "--paper", "nope"]) == 2
    assert main(["cache", "status", "--root", str(tmp_path / "none")]) == 2
    assert capsys.readouterr().err.count("error: no results") == 2
    for bad in (["cache", "status", "--bogus"], ["cache"], ["cache", "purge"]):
        with pytest.raises(SystemExit) as info:
            main(bad)
        assert info.value.code == 2 and "error:" in capsys.readouterr().err
    res = _cli(["cache", "status", "--paper", "../x"], env)
    assert res.returncode == 2 and "Traceback" not in res.stderr and res.stderr.startswith("error:")
