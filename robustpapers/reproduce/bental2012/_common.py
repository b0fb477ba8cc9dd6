"""What bental2012's artefact modules share: reading records into frames, naming the solver that ran, small rules.

One label of the paper, USSVM_MN, covers three different solvers in this reproduction; every claim names the one
whose runs it rests on (:func:`mn_algorithm` reads it off the FSS step counts the records store):

* :data:`FSS_PRINTED` -- FSS as the paper prints it (fixed step (16b), stage lengths (16e), R0 = 2C sqrt(n));
* :data:`FSS_TUNED_FIXED` / :data:`FSS_TUNED_BACKTRACKING` -- FSS with this project's radius, stage and
  restriction choices (``ussvm_fss`` defaults), with the paper's step or Mirror-Prox backtracking;
* :data:`ALTERNATING` -- the alternating start (LIBSVM on the effective kernel, then the closed-form worst-case
  eta) followed by the saddle-point duality certificate; when the start already meets the tolerance FSS takes
  no step, and the number is then this method's, not FSS's.
"""
from __future__ import annotations

import json
import math

import numpy as np
from pathlib import Path

from ..artefact import scan
from ..engine import results_root

PAPER = "bental2012"

FSS_PRINTED = ("FSS as printed (fixed step (16b), stage lengths (16e), R0 = 2C*sqrt(n), start 0, x restarted at "
               "its prox-centre; theta of (16e) from the x-set restricted to e'x >= 1, as lambda_min(K-bar) = 0)")
FSS_TUNED_FIXED = ("FSS as tuned here, paper's fixed step (16b): adaptive stage rule, restricted x-set X', "
                   "certified radius R0='auto' with the y-ball (ussvm_fss(step='fixed'))")
FSS_TUNED_BACKTRACKING = ("FSS as tuned here, Mirror-Prox backtracking steps: adaptive stage rule, restricted "
                          "x-set X', certified radius R0='auto' with the y-ball (ussvm_fss(step='backtracking'))")
ALTERNATING = ("alternating method: LIBSVM on the effective kernel alternated with the closed-form worst-case "
               "eta, then the saddle-point duality certificate (ussvm_fss(y0='alternate', recenter_x=True, "
               "polish=True)); 0 FSS steps")
SOCP = "USSVM_SOCP: cvxpy + Clarabel on the exactly rescaled conic program (13) (ussvm_socp(scale='auto'))"
SVM = "Nominal-SVM: LIBSVM dual on K-bar, bias of §4.2"
RSVM = "RSVM (7): quasi-Newton (DFP), best of 100 random starts, per value of eps"


def frame(recs):
    """Records (from :func:`~robustpapers.reproduce.artefact.scan`) as one DataFrame: params, result, version."""
    import pandas as pd

    return pd.DataFrame([dict(r["params"], version=r.get("provenance", {}).get("version"), **(r["result"] or {}))
                         for r in recs])


def select(recs, where=None, version=None):
    """The records whose params contain ``where`` (a key mapped to None must be absent) and whose cache version
    is ``version`` (any, if None)."""
    out = []
    for r in recs:
        p = r.get("params", {})
        if version is not None and r.get("provenance", {}).get("version") != version:
            continue
        if where and any((k in p) if v is None else p.get(k) != v for k, v in where.items()):
            continue
        out.append(r)
    return out


def cached_frame(cache, experiment, where, version, root, scale, seed):
    """The records of ``experiment`` selected by ``where[scale]`` (and ``seed``) as a DataFrame, parsed once per
    process into ``cache`` (a copy is returned); an unknown scale is a ``ValueError``."""
    if scale not in where:
        raise ValueError(f"scale must be one of {list(where)}, got {scale!r}")
    key = (experiment, str(root), scale, seed)
    if key not in cache:
        cache[key] = frame(select(scan_all(experiment, root), dict(where[scale], seed=seed), version))
    return cache[key].copy()


def scan_all(experiment, root=None):
    """Every record of ``results/bental2012/<experiment>/``."""
    return scan(PAPER, experiment, root=root)


def benchmark(name, root=None):
    """A benchmark's JSON from ``results/bental2012/benchmarks/`` (None if it is not there)."""
    path = (results_root() if root is None else Path(root)) / PAPER / "benchmarks" / f"{name}.json"
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        return None
    except json.JSONDecodeError as exc:
        raise ValueError(f"corrupt benchmark record {path}: {exc}") from None


#: USSVM_MN in the small runs of Figs. 2-4 (``fss_fast`` off): FSS from alpha = 0 with a guessed radius.
FSS_TUNED_PROBE = ("FSS as tuned here, Mirror-Prox backtracking steps, guessed radius R0='probe', from alpha = 0 "
                   "(ussvm_fss(step='backtracking', R0='probe'))")


def uses_fast(df):
    """Whether every run of a sweep's frame ran USSVM_MN's fast variant (the alternating start; ``fss_fast``)."""
    return "fss_fast" in df and len(df) > 0 and bool(df["fss_fast"].fillna(False).astype(bool).all())


def mn_algorithm(nit, fast=True):
    """The solver that produced USSVM_MN's numbers, from the FSS step counts of its runs; ``fast``: the runs
    started from the alternating start (else FSS from alpha = 0, :data:`FSS_TUNED_PROBE`)."""
    nit = np.asarray(nit, dtype=float)
    if nit.size == 0:
        return None
    if not fast:
        return FSS_TUNED_PROBE
    zero = int((nit == 0).sum())
    if zero == nit.size:
        return ALTERNATING
    return (f"{ALTERNATING.rsplit(';', 1)[0]}; FSS steps (Mirror-Prox backtracking) after it on {nit.size - zero} "
            f"of {nit.size} runs (at most {int(nit.max())})")


def mn_note(nit, fast=True):
    """The sentence every claim on USSVM_MN's records carries: which of the three solvers ran."""
    nit = np.asarray(nit, dtype=float)
    zero = int((nit == 0).sum())
    if not fast:
        return (f"USSVM_MN here is FSS as tuned here from alpha = 0 (backtracking steps, R0='probe'): at most "
                f"{int(nit.max()) if nit.size else 0} FSS steps over {nit.size} runs (FSS as printed did not run).")
    return (f"USSVM_MN here is not FSS: {zero} of {nit.size} runs certified the 1e-3 relative gap from the "
            "alternating start with 0 FSS steps, so these numbers are the alternating method's (FSS as printed "
            "did not run)." if zero == nit.size else
            f"USSVM_MN: {zero} of {nit.size} runs took 0 FSS steps (the alternating method's numbers); the rest "
            "took FSS steps after the alternating start.")


def t_interval(values, level=0.95):
    """The Student-t interval of the mean of ``values`` (None with fewer than two)."""
    from scipy.stats import t

    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if v.size < 2:
        return None
    half = float(t.ppf(0.5 + level / 2, v.size - 1)) * float(v.std(ddof=1)) / math.sqrt(v.size)
    return (float(v.mean()) - half, float(v.mean()) + half)


def ratio_claim(res, goal=None):
    """Turn a :func:`~robustpapers.reproduce.ledger.paired` result on ``log10(ratio) - log10(goal)`` into one on the
    ratio itself: ``our_value`` the geometric-mean ratio, ``interval`` its 95 % interval."""
    shift = 0.0 if goal is None else math.log10(goal)
    out = dict(res)
    if res["our_value"] is not None:
        out["our_value"] = 10 ** (res["our_value"] + shift)
    if res["interval"] is not None:
        out["interval"] = tuple(10 ** (x + shift) for x in res["interval"])
    return out


def nested_choice(acc, groups, grid, level):
    """For each held-out unit, its accuracy at the grid point chosen on the other units of its group.

    ``acc``: a DataFrame with columns ``groups`` (the unit's group keys), ``level`` (the held-out unit within a
    group), the grid columns ``grid``, an accuracy column ``"acc"`` and a certificate column ``"ok"``. For each
    (group, unit) the grid point with the best mean accuracy over the *other* units of the same group is chosen
    (ties: the first in sorted grid order) and the unit's accuracy and certificate there are returned, so no grid
    point is chosen on the data it is scored on. Returns a DataFrame indexed by ``groups + [level]`` with columns
    ``acc`` and ``ok``.
    """
    keys, grid = list(groups), list(grid)
    d = acc[keys + grid + [level, "acc", "ok"]].copy()
    g = d.groupby(keys + grid, sort=False)["acc"]
    total, count = g.transform("sum"), g.transform("count")
    # the mean over the other units; rounded so that equal means tie exactly (then the first grid point wins)
    d["loo"] = ((total - d["acc"]) / (count - 1)).round(9)
    d = d.sort_values(keys + [level] + grid, kind="stable")
    best = d.groupby(keys + [level], sort=True)["loo"].idxmax()
    return d.loc[best.to_numpy(), keys + [level, "acc", "ok"]].set_index(keys + [level])


def short_solver(algorithm):
    """A short name for each solver a claim's ``algorithm`` names (for the ledger's solver column)."""
    if not algorithm:
        return ""
    names = []
    for part in str(algorithm).split(";"):
        p = part.strip()
        key = ("FSS as printed" if p.startswith("FSS as printed") else
               "alternating method + FSS steps" if p.startswith("alternating method") and "FSS steps (" in p else
               "alternating method" if p.startswith("alternating method") else
               "FSS as tuned here, backtracking, R0 probe" if (p.startswith("FSS as tuned here") and "backtracking" in p
                                                              and "probe" in p) else
               "FSS on (23)" if p.startswith("FSS on (23)") else
               "FSS as tuned here, backtracking" if p.startswith("FSS as tuned here") and "backtracking" in p else
               "FSS as tuned here, paper's step" if p.startswith("FSS as tuned here") else
               "FSS, paper's step and radius" if p.startswith("FSS with the paper's fixed step") else
               "cvxpy + Clarabel" if "Clarabel" in p else
               "LIBSVM" if p.startswith("Nominal-SVM") else
               "RSVM (quasi-Newton)" if p.startswith("RSVM") else None)
        if key and key not in names:
            names.append(key)
    return "; ".join(names)


def ledger_markdown(claims, digits=2):
    """The ledger (:func:`robustpapers.reproduce.ledger.ledger_table`) with a column naming the solver(s) behind
    each claim, as a Markdown table."""
    from ..ledger import ledger_table

    table = ledger_table(claims, digits)
    if table.empty:
        return "No claim is judged here yet."
    table.insert(4, "solver", [short_solver(c.algorithm) for c in claims])
    esc = table.astype(str).apply(lambda col: col.str.replace("|", "\\|", regex=False))
    return esc.to_markdown(index=False)
