"""The sweep runner: cache keying, provenance, no silent reuse, joblib and Dask agree."""
import json

import numpy as np
import pytest

from robustpapers.reproduce.bental2012.perturbed_kernel_demo import perturbed_kernel_task
from robustpapers.reproduce.engine import (derive_seed, grid, load_cached, parallel_map, provenance_summary, run_sweep, task_checkpoint,
                                 task_key)

CALLS = []


def square_task(x, seed):
    CALLS.append((x, seed))
    return {"y": float(x) ** 2 + np.random.default_rng(seed).normal() * 0, "seed_used": seed}


def square_task_v2(x, seed):
    return {"y": float(x) ** 3, "seed_used": seed}


class Killed(Exception):
    """Plays a process killed in the middle of a task."""


KILL_AT = []


def counting_task(n, seed):
    """Sums 0.1 i for i = 1..n with a checkpoint after every term; raises Killed once at KILL_AT."""
    store = task_checkpoint()
    state = store.load() if store is not None else None
    i, total = (0, 0.0) if state is None else (state["i"], state["total"])
    start = i
    while i < n:
        i += 1
        total += 0.1 * i
        if store is not None:
            store.save({"i": i, "total": total, "terms": 0.1 * np.arange(1, i + 1)})
        if KILL_AT and i == KILL_AT[0]:
            KILL_AT.clear()
            raise Killed
    return {"total": total, "resumed_at": start, "commits": None if store is None else store.commits}


def test_a_killed_task_resumes_from_its_checkpoint(tmp_path):
    """A task killed midway leaves its checkpoint and no record; the next sweep goes on from it, returns what an
    uninterrupted run returns, and the record replaces the checkpoint."""
    plain = counting_task(40, 0)  # outside run_sweep: no store
    assert task_checkpoint() is None and plain["resumed_at"] == 0 and plain["commits"] is None
    KILL_AT[:] = [25]
    with pytest.raises(Killed):
        run_sweep(counting_task, [dict(n=40, seed=0)], paperkey="demo", experiment="ck", root=tmp_path)
    assert task_checkpoint() is None  # reset after the task, even a failed one
    assert load_cached(counting_task, dict(n=40, seed=0), "demo", "ck", 1, root=tmp_path) is None
    (ckpt,) = (tmp_path / "demo" / "ck").glob("*.checkpoint")
    assert json.loads(ckpt.read_text())["state"]["i"] == 25
    assert provenance_summary("demo", "ck", root=tmp_path).empty  # a checkpoint is not a record
    df = run_sweep(counting_task, [dict(n=40, seed=0)], paperkey="demo", experiment="ck", root=tmp_path)
    assert df.resumed_at.iloc[0] == 25 and df.total.iloc[0] == plain["total"]  # the same float sum
    assert len(df.commits.iloc[0]) == 1  # one code version did both segments
    assert not ckpt.exists() and load_cached(counting_task, dict(n=40, seed=0), "demo", "ck", 1, root=tmp_path)
    # without the cache nothing is kept
    run_sweep(counting_task, [dict(n=5, seed=0)], paperkey="demo", experiment="ck2", root=tmp_path, cache=False)
    assert not (tmp_path / "demo" / "ck2").exists()


def test_grid_and_seeds():
    g = grid(a=[1, 2], b=["x", "y", "z"])
    assert len(g) == 6 and g[0] == {"a": 1, "b": "x"} and g[-1] == {"a": 2, "b": "z"}
    assert derive_seed(0, "eta", 1) == derive_seed(0, "eta", 1) != derive_seed(0, "eta", 2)
    assert 0 <= derive_seed(5) < 2**32
    with pytest.raises(ValueError, match="must be a list"):
        grid(a=3)


def test_cache_keying_and_provenance(tmp_path):
    CALLS.clear()
    tasks = grid(x=[1, 2, 3], seed=[7])
    df = run_sweep(square_task, tasks, paperkey="demo", experiment="sq", version=1, root=tmp_path)
    assert df.y.tolist() == [1.0, 4.0, 9.0] and not df.cached.any() and len(CALLS) == 3
    df2 = run_sweep(square_task, tasks, paperkey="demo", experiment="sq", version=1, root=tmp_path)
    assert df2.cached.all() and len(CALLS) == 3 and df2.y.tolist() == df.y.tolist()
    # Different parameters, version or function never reuse a stored result.
    run_sweep(square_task, grid(x=[1], seed=[8]), paperkey="demo", experiment="sq", version=1, root=tmp_path)
    assert len(CALLS) == 4
    run_sweep(square_task, tasks[:1], paperkey="demo", experiment="sq", version=2, root=tmp_path)
    assert len(CALLS) == 5
    df3 = run_sweep(square_task_v2, tasks[:1], paperkey="demo", experiment="sq", version=1, root=tmp_path)
    assert df3.y.tolist() == [1.0] and not df3.cached.any()
    assert task_key(square_task, {"x": 1, "seed": 7}, 1) != task_key(square_task, {"x": 1.5, "seed": 7}, 1)
    # Provenance stored with each result.
    prov = provenance_summary("demo", "sq", root=tmp_path)
    assert {"func", "version", "package_version", "git_commit", "seed", "wall_time", "date"} <= set(prov.columns)
    rec = load_cached(square_task, tasks[1], "demo", "sq", 1, root=tmp_path)
    assert rec["params"] == {"seed": 7, "x": 2} and rec["provenance"]["seed"] == 7


def test_tampered_record_is_not_reused(tmp_path):
    CALLS.clear()
    tasks = grid(x=[4], seed=[1])
    run_sweep(square_task, tasks, paperkey="demo", experiment="t", root=tmp_path)
    path = next((tmp_path / "demo" / "t").glob("*.json"))
    rec = json.loads(path.read_text())
    rec["params"]["x"] = 5          # a record whose stored parameters differ from its key
    path.write_text(json.dumps(rec))
    df = run_sweep(square_task, tasks, paperkey="demo", experiment="t", root=tmp_path)
    assert not df.cached.any() and df.y.tolist() == [16.0] and len(CALLS) == 2


def test_bad_input_writes_nothing(tmp_path):
    with pytest.raises(ValueError, match="not JSON-serialisable"):
        run_sweep(square_task, [{"x": object(), "seed": 1}], paperkey="demo", experiment="bad", root=tmp_path)
    with pytest.raises(ValueError, match="callable"):
        run_sweep(3, [{"x": 1}], paperkey="demo", experiment="bad", root=tmp_path)
    assert not (tmp_path / "demo").exists()


def test_no_cache_writes_nothing(tmp_path):
    df = run_sweep(square_task, grid(x=[2], seed=[0]), paperkey="demo", experiment="nc", root=tmp_path, cache=False)
    assert df.y.tolist() == [4.0] and not (tmp_path / "demo").exists()


def test_dask_local_cluster_matches_joblib(tmp_path):
    distributed = pytest.importorskip("distributed")
    tasks = grid(dataset=["sonar"], fold=[0, 1], n_folds=[3], kappa=[0.0, 5.0], L=[5], R=[10], C=[1.0], seed=[0])
    local = run_sweep(perturbed_kernel_task, tasks, paperkey="demo", experiment="joblib", root=tmp_path,
                      n_jobs=2, cache=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        remote = run_sweep(perturbed_kernel_task, tasks, paperkey="demo", experiment="dask", root=tmp_path,
                           scheduler=client)
        # An address works as well as a client.
        by_address = run_sweep(perturbed_kernel_task, tasks[:1], paperkey="demo", experiment="dask2",
                               root=tmp_path, scheduler=cluster.scheduler_address, cache=False)
        # The uncached backend on the same cluster returns results in the order of the items.
        blocks = parallel_map(_block, range(5), scheduler=client)
    assert [b.tolist() for b in blocks] == [_block(k).tolist() for k in range(5)]
    cols = ["NE", "ME", "RE", "unstable"]
    assert np.array_equal(local[cols].to_numpy(), remote[cols].to_numpy())
    assert np.array_equal(local[cols].to_numpy()[:1], by_address[cols].to_numpy())
    assert len(list((tmp_path / "demo" / "dask").glob("*.json"))) == len(tasks)


def _block(k):
    return np.random.default_rng(k).standard_normal(3)


def test_parallel_map_keeps_order_and_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("ROBUSTPAPERS_RESULTS", str(tmp_path))
    seq = parallel_map(_block, range(7))
    par = parallel_map(_block, range(7), n_jobs=2)
    assert all(np.array_equal(a, b) for a, b in zip(seq, par)) and len(par) == 7
    assert all(np.array_equal(a, _block(k)) for k, a in enumerate(par))
    assert list(tmp_path.iterdir()) == []
    for bad in (0, 1.5, True, "2"):
        with pytest.raises(ValueError, match="n_jobs"):
            parallel_map(_block, range(2), n_jobs=bad)


def test_benchmarks_live_in_the_repository_not_the_cache(tmp_path, monkeypatch):
    from robustpapers.reproduce.engine import benchmark_path, load_benchmark

    monkeypatch.setenv("ROBUSTPAPERS_RESULTS", str(tmp_path))
    path = benchmark_path("demo", "speed")
    assert path.parts[-4:] == ("results", "demo", "benchmarks", "speed.json")
    assert tmp_path not in path.parents
    with pytest.raises(ValueError, match="run benchmarks/demo_"):
        load_benchmark("demo", "speed")


def test_provenance_names_the_commit_imported_not_a_later_head(tmp_path, monkeypatch):
    """Records are stamped with the commit read when the runner was imported (with "+dirty" if the package's
    tracked files differed from it), so a long sweep is not credited to a commit made while it ran."""
    import re
    import subprocess

    import robustpapers.reproduce.engine as runner

    stamp = runner._IMPORT_COMMIT
    assert stamp == "unknown" or re.fullmatch(r"[0-9a-f]{40}(\+dirty)?", stamp)

    checkout = str(runner._PACKAGE_DIR.parent)

    def later_head(cmd, **kwargs):  # what git would say after a new commit, in a clean checkout
        if cmd[1:] == ["rev-parse", "--show-toplevel"]:
            out = checkout + "\n"
        else:
            out = "f" * 40 + "\n" if cmd[1] == "rev-parse" else ""
        return subprocess.CompletedProcess(cmd, 0, stdout=out, stderr="")

    monkeypatch.setattr(runner.subprocess, "run", later_head)
    run_sweep(square_task, grid(x=[3], seed=[0]), paperkey="demo", experiment="stamp", root=tmp_path)
    prov = provenance_summary("demo", "stamp", root=tmp_path)
    assert prov.git_commit.tolist() == [stamp]
    assert runner._read_git_commit() == "f" * 40  # what a process importing the runner now would stamp


def test_cached_sweep_reads_what_run_sweep_wrote_and_computes_nothing(tmp_path):
    from robustpapers.reproduce.engine import cached_sweep

    tasks = grid(x=[1, 2, 3], seed=[0])
    full = run_sweep(square_task, tasks[:2], paperkey="t", experiment="cs", root=tmp_path)
    n_files = len(list(tmp_path.rglob("*.json")))
    CALLS.clear()
    frame, missing = cached_sweep(square_task, tasks, paperkey="t", experiment="cs", root=tmp_path)
    assert missing == 1 and not CALLS and len(list(tmp_path.rglob("*.json"))) == n_files
    assert frame.drop(columns="cached").equals(full.drop(columns="cached")) and frame.cached.all()
    # another version or function is another sweep: nothing of it is cached
    assert cached_sweep(square_task, tasks, paperkey="t", experiment="cs", version=2, root=tmp_path)[1] == 3
    assert cached_sweep(square_task_v2, tasks, paperkey="t", experiment="cs", root=tmp_path)[1] == 3


def test_a_resumed_trace_keeps_the_records_and_goes_on_in_time():
    """core.Trace.resume: the records of the interrupted run come first, and its time continues from theirs."""
    from robustpapers.core import Trace

    first = Trace()
    first.record(objective=1.0, gap=0.5, stage=0)
    then = Trace()
    then.resume(first.as_dict(), elapsed=100.0)
    then.record(objective=2.0, gap=0.25, stage=1)
    assert then["objective"].tolist() == [1.0, 2.0] and then["stage"].tolist() == [0, 1]
    assert 100.0 <= then["time"][1] < 200.0 and then.elapsed() >= 100.0
