"""scripts/paper_scale.py (robustpapers.reproduce.sweeps): which paper-scale tasks it hands to the runner, and in which
order (no task runs)."""
import importlib
import importlib.util
from pathlib import Path

import pandas as pd
import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "paper_scale.py"


@pytest.fixture
def script(monkeypatch):
    spec = importlib.util.spec_from_file_location("paper_scale_script", SCRIPT)
    script_mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script_mod)  # the script is a thin wrapper around robustpapers.reproduce.sweeps
    mod = importlib.import_module("robustpapers.reproduce.sweeps")
    assert script_mod.main is mod.main
    calls = []

    def fake_run_sweep(func, tasks, **kw):
        assert len(tasks) == 1, "one task per run_sweep call, so that each is cached as soon as it ends"
        calls.append((func.__name__, tasks[0], kw))
        return pd.DataFrame({"cached": [True]})

    monkeypatch.setattr(mod, "run_sweep", fake_run_sweep)
    return mod, calls


def test_chen2008_datasets_in_the_order_given_and_page_cache_keys(script):
    from robustpapers.reproduce.chen2008.experiments import paper_scale_tasks

    mod, calls = script
    mod.main(["chen2008", "table1", "--datasets", "heart", "sonar"])
    assert [c[1]["dataset"] for c in calls] == ["heart"] * 10 + ["sonar"] * 10
    func, tasks, exp, version = paper_scale_tasks("table1", datasets=["heart", "sonar"])
    assert {c[0] for c in calls} == {func.__name__}
    assert all(c[2]["experiment"] == exp and c[2]["version"] == version and c[2]["paperkey"] == "chen2008"
               for c in calls)
    key = lambda t: tuple(sorted((k, repr(v)) for k, v in t.items()))  # noqa: E731
    assert sorted(map(key, (c[1] for c in calls))) == sorted(map(key, tasks)), "the page's tasks, each once"


def test_reverse_takes_the_same_tasks_backwards(script):
    mod, calls = script
    mod.main(["chen2008", "table1", "--datasets", "pima"])
    forward = [c[1] for c in calls]
    calls.clear()
    mod.main(["chen2008", "table1", "--datasets", "pima", "--reverse"])
    assert [c[1] for c in calls] == forward[::-1]
    assert [t["seed"] for t in forward] == list(range(10))


def test_bhadra2010_datasets_are_indices(script):
    mod, calls = script
    mod.main(["bhadra2010", "table1", "--datasets", "1", "0", "--seed", "3"])
    ds = [c[1]["dataset"] for c in calls]
    assert set(ds) == {0, 1} and ds == sorted(ds, reverse=True), "data set 1 first, as asked"


def test_bhadra2010_table2_is_split_by_family(script):
    mod, calls = script
    mod.main(["bhadra2010", "table2_proteins", "--datasets", "4", "2"])
    fams = [c[1]["family"] for c in calls]
    assert fams == [4] * 10 + [2] * 10, "family 4's ten negative sets first, as asked"
    assert {c[2]["experiment"] for c in calls} == {"table2_proteins"}
    assert "bhadra2010_proteins" in mod._pages("bhadra2010", "table2_proteins")


def test_unknown_dataset_is_a_value_error(script):
    mod, calls = script
    with pytest.raises(ValueError, match="not in the table1 sweep"):
        mod.main(["chen2008", "table1", "--datasets", "usps"])
    assert calls == []


def test_bental2012_fig5_is_the_pages_four_paper_scale_runs(script):
    """Fig. 5 at paper scale (000 §7.4): D_U(1, 50, 5), C = 1 and D_U(1, 500, 5), C = 10, each with the fixed
    step (16b) and with backtracking, tolerance 1e-8 and 2,000,000 steps; no data set axis."""
    from robustpapers.reproduce.bental2012.experiments import convergence_task, paper_scale_tasks

    mod, calls = script
    mod.main(["bental2012", "fig5", "--reverse"])
    assert [(c[1]["N"], c[1]["C"], c[1]["step"]) for c in calls] == [
        (500, 10.0, "backtracking"), (500, 10.0, "fixed"), (50, 1.0, "backtracking"), (50, 1.0, "fixed")]
    assert all(c[0] == convergence_task.__name__ and c[2]["experiment"] == "fig5_convergence"
               and c[1]["tol"] == 1e-8 and c[1]["max_iter"] == 2_000_000 and c[1]["L"] == 5 for c in calls)
    with pytest.raises(ValueError, match="no data set axis"):
        paper_scale_tasks("fig5", datasets=["uniform"])
    with pytest.raises(ValueError, match="unknown bental2012 paper-scale experiment"):
        paper_scale_tasks("fig4")


def test_bental2012_fig2_is_the_papers_grid_a_distribution_at_a_time(script):
    """Fig. 2 at paper scale (000 §7.2): per distribution S = 10 data sets of N = 250 points per class, L = 200
    kernels, five folds, C = 100, R = 100, kappa in {0, 0.1, 0.2, 0.3, 0.5, 1, 1.5, ..., 4, 5}; the page's quick
    tasks are the same function of the settings, so both read one cache."""
    from robustpapers.reproduce.bental2012.experiments import (FIG2_SETTINGS, FIG2_VERSIONS, fig2_tasks, paper_scale_tasks,
                                                     robustness_task)

    mod, calls = script
    mod.main(["bental2012", "fig2", "--datasets", "beta", "gaussian"])
    dists = [c[1]["distribution"] for c in calls]
    assert dists == ["beta"] * 650 + ["gaussian"] * 650, "beta's folds first, as asked; uniform left out"
    kappas = [0, 0.1, 0.2, 0.3, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 5]
    got = sorted((c[1]["kappa"], c[1]["dataset_index"], c[1]["fold"]) for c in calls if c[1]["distribution"] == "beta")
    assert got == sorted((k, s, f) for k in kappas for s in range(10) for f in range(5))
    assert all(c[0] == robustness_task.__name__ and c[2]["experiment"] == "fig2_robustness"
               and c[2]["version"] == FIG2_VERSIONS["backtracking"] and c[1]["fss_step"] == "backtracking"
               and c[1]["fss_fast"] is True and c[1]["socp_scale"] == "auto"
               and (c[1]["N"], c[1]["L"], c[1]["C"], c[1]["R"], c[1]["n_folds"]) == (250, 200, 100.0, 100, 5)
               for c in calls)
    _, every, _, _ = paper_scale_tasks("fig2")
    assert len(every) == 3 * 650
    first = [(t["dataset_index"], t["fold"]) for t in every[:39]]
    assert first == [(0, 0)] * 39 and len({(t["distribution"], t["kappa"]) for t in every[:39]}) == 39, \
        "a (data set, fold) block at a time: the first 39 folds are one sample of every curve"
    assert [(t["dataset_index"], t["fold"]) for t in every[39:78]] == [(1, 0)] * 39, "the next data set's first fold"
    calls.clear()
    mod.main(["bental2012", "fig2", "--shard", "1/2"])
    assert [c[1] for c in calls] == every[1::2], "worker 1 of 2 takes every other task, from the second"
    quick = fig2_tasks(FIG2_SETTINGS["quick"], 0, fss_step="fixed")
    assert len(quick) == 3 * 3 * 2 and not any(k in t for t in quick for k in ("fss_step", "fss_fast", "socp_scale")), \
        "the CI page's folds keep their cache keys: the plain fixed step, the SOCP as given"
    for bad in ("2/2", "a/b", "1"):
        with pytest.raises(ValueError, match="--shard must be I/K"):
            mod.main(["bental2012", "fig2", "--shard", bad])
    with pytest.raises(ValueError, match="not distributions of fig2"):
        paper_scale_tasks("fig2", datasets=["cauchy"])
    with pytest.raises(ValueError, match="fss_step must be one of backtracking, fixed"):
        fig2_tasks(FIG2_SETTINGS["quick"], 0, fss_step="armijo")


def test_bental2012_fig3_is_the_papers_grid_and_the_pages_tasks(script):
    """Figs. 3-4 at paper scale (000 §7.3): S = 10 data sets of N = 250 points per class, L = 200, five folds,
    C in {0.1, 1, 5, 10, 50, 100, 200, 500}, eps in {0.05, ..., 0.5}, kappa = 1, R = 100, 100 RSVM starts; the
    page's quick tasks come from the same function (same cache)."""
    from robustpapers.reproduce.bental2012.experiments import FIG3_SETTINGS, FIG3_VERSION, cv_task, fig3_tasks

    mod, calls = script
    mod.main(["bental2012", "fig3", "--datasets", "uniform"])
    assert len(calls) == 10 * 5 * 8 and {c[1]["distribution"] for c in calls} == {"uniform"}
    assert sorted((c[1]["dataset_index"], c[1]["fold"], c[1]["C"]) for c in calls) == sorted(
        (s, f, C) for s in range(10) for f in range(5) for C in [0.1, 1, 5, 10, 50, 100, 200, 500])
    assert all(c[0] == cv_task.__name__ and c[2]["experiment"] == "fig3_cv" and c[2]["version"] == FIG3_VERSION
               and c[1]["eps_grid"] == [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5]
               and (c[1]["N"], c[1]["L"], c[1]["kappa"], c[1]["R"], c[1]["rsvm_starts"]) == (250, 200, 1.0, 100, 100)
               and c[1]["fss_fast"] is True for c in calls)
    quick = fig3_tasks(FIG3_SETTINGS["quick"], 0)
    assert len(quick) == 3 * 2 * 2 and [(t["dataset_index"], t["fold"]) for t in quick[:6]] == [(0, 0)] * 6
    assert not any("fss_fast" in t for t in quick), "the CI page's cache keys are those of its records"
    with pytest.raises(ValueError, match="not distributions of fig3"):
        mod.main(["bental2012", "fig3", "--datasets", "cauchy"])


def test_bental2012_fig6_is_the_papers_grid_with_our_socp_limits(script):
    """Fig. 6 at paper scale (000 §7.5): N in {250..2500} per class x L in {10, 50} x SOCP/MN, C = 10, kappa = 1;
    an SOCP predicted to need more than the memory limit is not attempted, and says so without building data."""
    from robustpapers.reproduce.bental2012.experiments import FIG6_SOCP_MAX_GB, fig6_task, socp_memory_gb

    mod, calls = script
    mod.main(["bental2012", "fig6"])
    got = sorted((c[1]["L"], c[1]["N"], c[1]["method"]) for c in calls)
    assert got == sorted((L, N, m) for L in (10, 50) for N in (250, 500, 1000, 1500, 2000, 2500) for m in ("socp", "mn"))
    assert all(c[1]["C"] == 10.0 and c[1]["kappa"] == 1.0 and c[2]["experiment"] == "fig6_scaling" for c in calls)
    assert {c[1]["dtype"] for c in calls if c[1]["N"] >= 1500} == {"float32"}
    big = dict(N=2500, L=50, C=10.0, kappa=1.0, seed=0, method="socp", socp_max_gb=FIG6_SOCP_MAX_GB)
    assert socp_memory_gb(5000, 50) > FIG6_SOCP_MAX_GB
    out = fig6_task(**big)  # would need ~190 GB: returns at once, censored, no time
    assert not out["attempted"] and out["censored"] and out["status"].startswith("not attempted")
    assert out["time"] != out["time"] and out["n"] == 5000


@pytest.mark.parametrize("paperkey, experiment, page", [("bhadra2010", "fig1", "bhadra2010_rsvm"),
                                                        ("chen2008", "table1", "chen2008_indefinite_svm")])
def test_new_records_name_the_pages_to_rerun(script, monkeypatch, capsys, paperkey, experiment, page):
    """A page that glues how much of a sweep is cached goes stale when records land: the script names it."""
    mod, calls = script
    monkeypatch.setattr(mod, "run_sweep", lambda func, tasks, **kw: pd.DataFrame({"cached": [False]}))
    mod.main([paperkey, experiment, "--datasets", "0" if paperkey == "bhadra2010" else "sonar"])
    out = capsys.readouterr().out.strip().splitlines()
    last = out[-1]
    assert last.startswith(f"{len(out) - 1} new record(s)"), "one line per task, then the count"
    named = last.split("with them ", 1)[1].split(", ")
    assert page in named and named[-1] == "appendix_reproduction_log"
    notebooks = SCRIPT.parents[1] / "notebooks"
    from robustpapers.reproduce.ledger import artefact_modules

    readers = {m.__name__.rsplit(".", 1)[1] for m in artefact_modules(paperkey) if getattr(m, "EXPERIMENT", "") == experiment}
    assert all(f'"{experiment}"' in (text := (notebooks / f"{p}.md").read_text()) or any(r in text for r in readers)
               for p in named[:-1])


def test_only_cached_tasks_name_no_pages(script, capsys):
    mod, calls = script
    mod.main(["chen2008", "table1", "--datasets", "sonar"])
    assert "new record" not in capsys.readouterr().out


@pytest.mark.parametrize("paper", ["bental2012", "bhadra2010", "chen2008"])
def test_paper_scale_sweeps_lists_exactly_what_paper_scale_tasks_knows(script, paper):
    """Each chapter's PAPER_SCALE_SWEEPS (the reproduction log's list) names sweeps paper_scale_tasks builds, each
    with distinct tasks (distinct cache keys), and the script hands every one of them to the runner; an unknown
    name is refused."""
    from robustpapers.reproduce.engine import task_key

    experiments = importlib.import_module(f"robustpapers.reproduce.{paper}.experiments")
    mod, calls = script
    for name in experiments.PAPER_SCALE_SWEEPS:
        func, tasks, exp, version = experiments.paper_scale_tasks(name, seed=0)
        assert tasks and len({task_key(func, t, version) for t in tasks}) == len(tasks), name
        calls.clear()
        mod.main([paper, name])
        assert len(calls) == len(tasks) and all(c[2]["experiment"] == exp for c in calls), name
    with pytest.raises(ValueError, match="fig99"):
        experiments.paper_scale_tasks("fig99")


def test_bental2012_table2_proteins_is_the_papers_protocol_a_problem_at_a_time(script):
    """000 §7.7 at paper scale: 105 one-vs-one problems of 15 families x 10 structures, L = 50, R = 100,
    kappa = 1, the C and eps grids of §7.3 and 100 RSVM starts; --datasets picks problems by index, in order."""
    from robustpapers.reproduce.bental2012.experiments import paper_scale_tasks
    from robustpapers.reproduce.bental2012.experiments_proteins import TABLE2_PAIRS, table2_pair_task

    mod, calls = script
    mod.main(["bental2012", "table2_proteins", "--datasets", "104", "0", "7"])
    assert [(c[1]["f1"], c[1]["f2"]) for c in calls] == [TABLE2_PAIRS[104], TABLE2_PAIRS[0], TABLE2_PAIRS[7]]
    func, tasks, exp, version = paper_scale_tasks("table2_proteins")
    assert func is table2_pair_task and exp == "table2_proteins" and len(tasks) == 105
    assert sorted({tuple(sorted((t["f1"], t["f2"]))) for t in tasks}) == sorted(
        (a, b) for a in range(15) for b in range(a + 1, 15))
    t = tasks[0]
    assert (t["n_families"], t["n_members"], t["L"], t["R"], t["kappa"], t["n_starts"]) == (15, 10, 50, 100, 1.0, 100)
    assert t["Cs"] == [0.1, 1.0, 5.0, 10.0, 50.0, 100.0, 200.0, 500.0]
    assert t["epss"] == [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5]
    for bad in (["105"], ["x"]):
        with pytest.raises(ValueError, match="not problem indices 0..104"):
            paper_scale_tasks("table2_proteins", datasets=bad)
    # the USSVM_MN recompute: the same tasks but for the method and ussvm_fss's default bias floor
    func, mn, exp, version2 = paper_scale_tasks("table2_proteins_mn")
    assert func is table2_pair_task and (exp, version2) == ("table2_proteins", version) and len(mn) == 105
    for a, b in zip(tasks, mn):
        assert b == dict(a, methods=["USSVM_MN"], fss_bias_floor=None)


def test_bental2012_complete_blocks_keeps_only_whole_data_set_fold_blocks():
    """The pages draw paper-size Figs. 2-4 from complete (data set, fold) blocks only: a block with a task missing
    is left out whole, and the block size is that of the task grid (Fig. 2: distributions x kappas; Figs. 3-4:
    distributions x C)."""
    from robustpapers.reproduce.bental2012.experiments import (
        FIG2_SETTINGS, FIG3_SETTINGS, complete_blocks, fig2_tasks, fig3_tasks,
    )

    tasks = fig2_tasks(FIG2_SETTINGS["paper"], 0)
    recs = pd.DataFrame(tasks[:39 + 38])  # block (0, 0) whole, block (1, 0) one task short
    full, blocks, per_block = complete_blocks(recs, tasks)
    assert per_block == 3 * 13 and blocks == [(0, 0)] and len(full) == 39
    assert set(zip(full.distribution, full.kappa)) == {(t["distribution"], t["kappa"]) for t in tasks[:39]}
    tasks3 = fig3_tasks(FIG3_SETTINGS["paper"], 0)
    full, blocks, per_block = complete_blocks(pd.DataFrame(tasks3[:24]), tasks3)
    assert per_block == 3 * 8 and blocks == [(0, 0)] and len(full) == 24
    empty, none, _ = complete_blocks(pd.DataFrame(), tasks3)
    assert empty.empty and none == []


def test_an_artefact_modules_sweep_by_its_cache_folder(script):
    """chen2008's certified Table 1 is an artefact module: the script takes its paper-scale tasks by its folder."""
    from robustpapers.reproduce.chen2008 import table1

    mod, calls = script
    mod.main(["chen2008", table1.EXPERIMENT, "--datasets", "heart"])
    assert [c[1] for c in calls] == [t for t in table1.tasks("paper") if t["dataset"] == "heart"]
    assert {(c[0], c[2]["experiment"], c[2]["version"]) for c in calls} == {
        (table1.TASK.__name__, table1.EXPERIMENT, table1.VERSION)}
    with pytest.raises(ValueError, match="unknown chen2008 paper-scale sweep"):
        mod.main(["chen2008", "table9"])


def test_an_artefact_modules_sweep_with_numbered_data_sets(script):
    """bhadra2010's Table 1 ablation numbers its data sets 0..19: "--datasets 3 1" keeps those, in that order."""
    from robustpapers.reproduce.bhadra2010 import ablation

    mod, calls = script
    mod.main(["bhadra2010", ablation.EXPERIMENT, "--datasets", "3", "1"])
    want = [t for t in ablation.tasks("paper") if t["dataset"] == 3] + \
           [t for t in ablation.tasks("paper") if t["dataset"] == 1]
    assert [c[1] for c in calls] == want and want
