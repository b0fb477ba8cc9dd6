"""The cost of RSVM_QN here: SOCP against QN, and DFP's iteration cap (bhadra2010 §3; two stored benchmarks).

* ``benchmarks/bhadra2010_socp_vs_qn.py`` (``results/bhadra2010/benchmarks/socp_vs_qn.json``): RSVM_SOCP and
  RSVM_QN on one §5.1 data set at n = 200 and 500 (both on beta's PSD part), QN's starts in one process, on
  several, one after the other and with scipy's Wolfe line search;
* ``benchmarks/bhadra2010_qn_cap.py`` (``qn_cap.json``): both QN classifiers on fold 0 of three §5.1 data sets
  over a (C, eps) grid at DFP's earlier cap and at ten times it, from the same starts.

The paper reports no timing, so :func:`claims` returns none. :func:`numbers` gives what the page shows; the
tests check the benchmarks' certificates (QN reaches the SOCP's value, the batched and one-by-one starts agree
to the last bit, every best start converges at the larger cap).
"""
from __future__ import annotations

from ..engine import benchmark_path, load_benchmark
from ._common import PAPER

__all__ = ["PAPER", "LABEL", "records", "claims", "numbers"]

LABEL = "bhadra2010 speed"
BENCHMARKS = ("socp_vs_qn", "qn_cap")


def records(root=None, scale="paper", seed=0):
    """``{"socp_vs_qn": dict or None, "qn_cap": dict or None}``: the stored benchmarks (None where not run); the
    same at every scale (committed measurements, not sweep results)."""
    return {b: load_benchmark(PAPER, b) if benchmark_path(PAPER, b).exists() else None for b in BENCHMARKS}


def claims(records):
    """The paper reports no timing: no claim."""
    return []


def numbers(records):
    """What the page shows.

    Returns a dict: ``bench`` (the SOCP-vs-QN rows: n, times, speed-ups and QN's relative gap to the SOCP's
    value), ``per_n`` (per n: ``ratio``, one QN start's time over the SOCP's; ``est100``, the paper's 100 starts
    over the SOCP's; ``par``, the parallel run's speed-up; ``ls``, the Wolfe search's CPU time over the exact
    search's; ``batch``, one-by-one over batched CPU time), ``qn_above`` (the largest relative amount by which
    QN's best start exceeds the SOCP's value), ``par_jobs``, ``par_starts``, ``ls_diff`` (largest relative
    objective difference between the two line searches), ``same`` (the parallel and the batched runs returned the
    same per-start objectives as one process / one by one); and for the cap: ``cap`` (the capped fits' rows),
    ``caps`` (smaller, larger), ``cap_summary`` (the benchmark's summary), ``capped_changed`` / ``others_changed``
    (fits whose test errors changed, among those stopped at the smaller cap / the others),
    ``others_change_max``, ``others_gain_max`` (largest relative objective change of the fits not capped),
    ``cpu_ratio_capped`` / ``cpu_ratio_others`` (CPU time at the larger cap over the smaller one) and
    ``cpu_pct`` (the extra CPU time over all fits, %).
    """
    import pandas as pd

    out = {}
    b = records.get("socp_vs_qn")
    if b is not None:
        bench = pd.DataFrame(b["rows"])
        out.update(
            bench=bench[["n", "socp_s", "qn_starts", "qn_s", "qn_per_start_s", "qn_100_starts_est_s", "qn_parallel_jobs",
                         "qn_parallel_s", "qn_parallel_speedup", "qn_wolfe_cpu_s", "qn_cpu_s", "line_search_cpu_speedup",
                         "qn_one_by_one_cpu_s", "batch_cpu_speedup", "qn_rel_gap", "qn_converged"]],
            per_n={int(r.n): {"ratio": float(r.qn_per_start_s / r.socp_s), "est100": float(r.qn_100_starts_est_s / r.socp_s),
                              "par": float(r.qn_parallel_speedup), "ls": float(r.line_search_cpu_speedup),
                              "batch": float(r.batch_cpu_speedup)} for r in bench.itertuples()},
            qn_above=float(-bench.qn_rel_gap.min()), par_jobs=int(bench.qn_parallel_jobs.iloc[0]),
            par_starts=int(bench.qn_starts.iloc[0]), ls_diff=float(bench.line_search_rel_diff.max()),
            max_gap=float(bench.qn_rel_gap.abs().max()),
            same=bool(bench.qn_parallel_same_objectives.all() and (bench.batch_rel_diff == 0).all()))
    c = records.get("qn_cap")
    if c is not None:
        qs = c["summary"]
        lo, hi = qs["caps"]
        rows = pd.DataFrame(c["rows"])
        capped = ~rows[f"converged_{lo}"]
        others = rows[~capped]
        out.update(
            cap=rows[capped], caps=(lo, hi), cap_summary=qs,
            capped_changed=int((rows[capped].error_change_max > 0).sum()),
            others_changed=int((others.error_change_max > 0).sum()),
            others_change_max=float(others.error_change_max.max()),
            others_gain_max=float(others.objective_gain_rel.abs().max()),
            cpu_ratio_capped=float(rows[capped][f"cpu_{hi}"].sum() / rows[capped][f"cpu_{lo}"].sum()),
            cpu_ratio_others=float(others[f"cpu_{hi}"].sum() / others[f"cpu_{lo}"].sum()),
            cpu_pct=100 * (qs["cpu_ratio"] - 1))
    return out
