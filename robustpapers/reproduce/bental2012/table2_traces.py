"""bental2012 Table 2 (§7.7.1) on a closer analog: the protocol re-run with longer traces on a subset of problems.

The structure analog's traces (about 12 residues) spread under the resolution draws far more than the paper's
example pair (bental2012 §2: 1.3585 in [1.1542, 1.4964], a range 25 % of the value). Longer traces narrow the
spread (more substructures average out the draws), so the trace length is chosen by a rule fixed before any
Table 2 run on it: of the lengths :data:`~robustpapers.reproduce.structures.experiments.SPREAD_LENGTHS` measured by
``spread_by_length_task`` at the paper's counts (15 x 10 structures, L = 50), the one whose median relative width
over the pairs of one family (the kind of pair of the paper's example) is closest to 25.2 %
(:func:`chosen_length`, :data:`TRACE_LENGTH`).

The whole protocol (105 problems) costs about 40 CPU hours, so it is re-run on :data:`PAIRS`, the 10 problems
among the first five families (the problems of the quick page), in that order, as far as computed; everything
else is as in :mod:`~robustpapers.reproduce.bental2012.table2` (L = 50, R = 100, leave-one-out, the C and eps grids,
100 RSVM starts, USSVM_MN with ``ussvm_fss``'s default bias floor). The grid point of a problem is chosen on the
other problems of the subset, and Table 2's records on the same problems (12-residue traces) are scored the same
way, so the two columns differ only by the trace length. The claims judge Table 2's comparisons on the longer
traces, paired over the problems computed (10 are needed for a verdict).
"""
from __future__ import annotations

import pandas as pd

from ..ledger import Claim, paired
from . import _common as C
from . import table2
from .experiments_proteins import TABLE2_SETTINGS, table2_pair_task, table2_tasks

__all__ = ["PAPER", "LABEL", "EXPERIMENT", "VERSION", "SETTINGS", "LONG", "PAIRS", "TRACE_LENGTH", "tasks",
           "records", "chosen_length", "spread", "per_problem", "numbers", "claims"]

PAPER = C.PAPER
LABEL = "bental2012 Table 2, longer traces"
EXPERIMENT = "table2_traces"
VERSION = 1
#: The paper's example pair (bental2012 §2, Fig. 1): the range over the draws relative to the nominal value.
PAPER_WIDTH = (1.4964 - 1.1542) / 1.3585
#: The trace length of the closer analog, :func:`chosen_length` on the committed spread record.
TRACE_LENGTH = 36
#: The problems re-run: the 10 one-vs-one problems among the first five families, in this order.
PAIRS = table2.QUICK_PAIRS
SETTINGS = {"paper": dict(TABLE2_SETTINGS["paper"], length=TRACE_LENGTH),
            "quick": dict(TABLE2_SETTINGS["quick"], length=2 * TABLE2_SETTINGS["quick"]["length"])}
#: The quick page's problems (seconds each).
QUICK_PAIRS = PAIRS[:3]
#: The paper-scale sweep (about 25 CPU minutes a problem) is only read by a page.
LONG = True
TASK = table2_pair_task
#: The spread measurement behind the choice (``structures/spread_by_length``).
SPREAD_PARAMS = dict(seed=0, n_families=15, n_members=10, L=50, l=4, sigma=4.0, C=10.0)
CONDITION = f"structure analog with {TRACE_LENGTH}-residue traces, problems among the first five families"


def tasks(scale="paper", seed=0):
    """One :func:`~.experiments_proteins.table2_pair_task` per problem of :data:`PAIRS` (:data:`QUICK_PAIRS` at
    "quick"), every method, USSVM_MN with ``ussvm_fss``'s default bias floor."""
    if scale not in SETTINGS:
        raise ValueError(f"scale must be one of {list(SETTINGS)}, got {scale!r}")
    pairs = PAIRS if scale == "paper" else QUICK_PAIRS
    return [dict(t, fss_bias_floor=None) for t in table2_tasks(SETTINGS[scale], seed, pairs)]


def spread(root=None):
    """The spread-by-length record's rows (one per trace length) as a DataFrame; None when it is not cached."""
    from ..engine import load_cached
    from ..structures.experiments import SPREAD_LENGTHS, spread_by_length_task

    params = dict(SPREAD_PARAMS, lengths=list(SPREAD_LENGTHS))
    rec = load_cached(spread_by_length_task, params, "structures", "spread_by_length", 1, root)
    return None if rec is None else pd.DataFrame(rec["result"]["rows"])


def chosen_length(rows):
    """The rule: the trace length whose median relative width over the pairs of one family is closest to the
    paper's example's 25.2 % (ties: the shorter)."""
    d = (rows["median_width_within"] - PAPER_WIDTH).abs()
    return int(rows.loc[d.round(12).sort_index().idxmin(), "length"])


def records(root=None, scale="paper", seed=0):
    """``{"long": frame, "short": table2 records}``: the longer-trace runs computed so far, and Table 2's records
    (12-residue traces) at the same scale."""
    if scale not in SETTINGS:
        raise ValueError(f"scale must be one of {list(SETTINGS)}, got {scale!r}")
    want = {(t["f1"], t["f2"]): t for t in tasks(scale, seed)}
    recs = [r for r in C.scan_all(EXPERIMENT, root)
            if r.get("provenance", {}).get("version") == VERSION
            and want.get((r["params"].get("f1"), r["params"].get("f2"))) == r["params"]]
    return {"long": C.frame(recs), "short": table2.records(root, scale, seed)}


def per_problem(records):
    """Per trace length ("long", "short"), method, measure and problem of the longer-trace runs: the accuracy (%)
    at the grid point chosen on the other problems of the subset, and the run's certificate."""
    long = records["long"]
    if long.empty:
        return pd.DataFrame()
    done = {(int(a), int(b)) for a, b in zip(long.f1, long.f2)}
    short = records["short"]
    short = {"first": short["first"][[(int(a), int(b)) in done for a, b in zip(short["first"].f1,
                                                                                 short["first"].f2)]]
             if len(short["first"]) else short["first"],
             "mn": short["mn"][[(int(a), int(b)) in done for a, b in zip(short["mn"].f1, short["mn"].f2)]]
             if len(short["mn"]) else short["mn"]}
    out = [table2.per_problem({"first": long, "mn": long.iloc[0:0]}).assign(traces="long")]
    if len(short["first"]):
        out.append(table2.per_problem(short).assign(traces="short"))
    return pd.concat(out, ignore_index=True)


def numbers(records):
    """Mean accuracy per measure and method on the problems computed, with 12-residue and longer traces, and the
    number of problems (None when nothing is computed)."""
    acc = per_problem(records)
    if acc.empty:
        return None
    tab = acc.groupby(["measure", "method", "traces"]).acc.mean().unstack("traces")
    # the change with the trace length, paired over the problems (longer minus 12 residues) with its t-interval
    wide = acc.pivot_table(index=["measure", "method", "pair"], columns="traces", values="acc")
    if "short" in wide:
        d = (wide["long"] - wide["short"]).groupby(level=["measure", "method"])
        tab["change"] = d.mean()
        ci = d.apply(lambda v: C.t_interval(v.to_numpy()))
        tab["change, 95 % interval"] = [None if c is None else f"[{c[0]:+.2f}, {c[1]:+.2f}]" for c in ci.reindex(tab.index)]
    return {"table": tab, "n_problems": int(acc[acc.traces == "long"].pair.nunique())}


def claims(records):
    """Table 2's comparisons on the longer traces, paired over the problems computed."""
    acc = per_problem(records)
    out = []
    if acc.empty:
        return out
    acc = acc[acc.traces == "long"].drop(columns="traces")
    nested = "grid point per problem chosen on the other problems of the subset, per classifier and measure"
    for a, b, meas in table2.COMPARISONS:
        d, ok = table2.diffs(acc, meas, a, b)
        res = paired(d, certified=ok)
        res["rule"] = f"{meas} accuracy (points), {table2.METHODS[a]} minus {table2.METHODS[b]}; {res['rule']}; {nested}"
        note = f"{d.size} problems computed, ahead on {int((d > 0).sum())}, tied on {int((d == 0).sum())}."
        if (~ok).sum():
            note += f" {int((~ok).sum())} problems left out: a run not certified."
        out.append(Claim(PAPER, f"table2-traces-{meas.lower()}-{a.lower().replace('_', '')}-beats-{b.lower()}",
                         "§7.7.1, Table 2", f"{table2.METHODS[a]} is {table2.WORDS[meas]} than {table2.METHODS[b]}.",
                         artefact=LABEL, condition=CONDITION, paper_value=f"{table2.METHODS[a]} > {table2.METHODS[b]}",
                         algorithm=f"{table2.ALG[a]}; {table2.ALG[b]}", note=note, **res))
    return out
