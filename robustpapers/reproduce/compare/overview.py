"""All uncertainty models at once: what each robust method gains over its nominal baseline, what it costs, and
which to reach for.

Every comparison module (:data:`robustpapers.reproduce.compare.ARTEFACTS`) judges its methods against a nominal
baseline, paired over the same splits, per data set and condition, and ranks them across its (data set,
condition) blocks. This module reads those results -- it computes nothing new -- and puts the models side by side:

* :func:`gains`: one row per (model, method, data set, condition): the mean paired accuracy gain over the
  baseline on the perturbed test points, its 95 % interval, the verdict of the ledger's rule ("better", "worse",
  "no separation") and the method's final-fit time relative to the baseline's;
* :func:`ranks`: each model's average ranks, Friedman p-value and Nemenyi critical difference;
* :func:`recommendations`: per model, the method better than the baseline on the most data sets, the data sets
  where no method is, and the cost of the best one -- the reading of the tables, in a table;
* :func:`draw`: gain against time ratio, one point per (method, data set), one panel per model.

Methods differ from model to model (a kernel method does not take raw inputs, an imputation has no kernel), so a
single Friedman test over every method and every model is not defined; the ranks are pooled across data sets and
conditions within each model, which is the comparison Demšar (2006) describes.
"""
from __future__ import annotations

import importlib

import numpy as np
import pandas as pd

from .. import artefact

__all__ = ["models", "load", "gains", "ranks", "recommendations", "draw"]


def models():
    """The comparison modules, in the book's order."""
    from . import ARTEFACTS

    return [importlib.import_module(f"robustpapers.reproduce.compare.{name}") for name in ARTEFACTS]


def load(scale="paper", seed=0, root=None):
    """``{module: records}`` for every comparison module, read from the cache (nothing is computed)."""
    return {mod: artefact.load(mod, root, scale, seed) for mod in models()}


def _baseline_name(mod, tab):
    if "baseline" in tab:
        return None  # the table names its baseline per row
    methods = getattr(mod, "METHODS", {})
    key = getattr(mod, "BASELINE", "svm")
    return methods.get(key, {}).get("name", "SVM")


def gains(recs_by_module):
    """One row per (model, method, baseline, data set, condition).

    Columns: ``model`` (the module's LABEL), ``method``, ``baseline``, ``dataset``, ``condition`` (in words, by the
    module's ``condition_name`` where it has one), ``gain`` (mean
    paired accuracy difference to the baseline on the perturbed test points, in points), ``low``, ``high`` (its 95 %
    interval; NaN with fewer than two pairs), ``result`` ("better", "worse", "no separation"), ``pairs`` (certified
    pairs), ``time_ratio`` (median final-fit time of the method over the baseline's on that data set; NaN where a
    module does not time both).
    """
    rows = []
    for mod, recs in recs_by_module.items():
        nums = mod.numbers(recs)
        secs = nums.get("seconds")
        for cond, tab in nums.get("vs_svm", {}).items():
            if tab is None or not len(tab):
                continue
            base = _baseline_name(mod, tab)
            for r in tab.itertuples(index=False):
                r = r._asdict()
                b = r.get("baseline", base)
                iv = r.get("interval")
                ratio = np.nan
                if isinstance(secs, pd.DataFrame) and r["dataset"] in secs.index:
                    row = secs.loc[r["dataset"]]
                    if r["method"] in row and b in row and row[b] > 0:
                        ratio = float(row[r["method"]] / row[b])
                rows.append(dict(model=mod.LABEL, method=r["method"], baseline=b, dataset=r["dataset"],
                                 condition=getattr(mod, "condition_name", str)(cond), gain=np.nan if r["diff"] is None else float(r["diff"]),
                                 low=np.nan if iv is None else float(iv[0]), high=np.nan if iv is None else float(iv[1]),
                                 result=r["result"], pairs=int(r["pairs"]), time_ratio=ratio))
    cols = ["model", "method", "baseline", "dataset", "condition", "gain", "low", "high", "result", "pairs",
            "time_ratio"]
    return pd.DataFrame(rows, columns=cols)


def ranks(recs_by_module):
    """Each model's pooled ranking: one row per (model, method) with its average rank (1 = best) over the model's
    (data set, condition) blocks, and per model the Friedman p-value, the Nemenyi critical difference and the
    number of blocks."""
    rows = []
    for mod, recs in recs_by_module.items():
        rk = mod.numbers(recs).get("ranks")
        if not rk:
            continue
        for method, r in rk["ranks"].items():
            rows.append(dict(model=mod.LABEL, method=method, rank=float(r), friedman_p=float(rk["p"]),
                             cd=float(rk["cd"]), blocks=int(rk["N"])))
    return pd.DataFrame(rows, columns=["model", "method", "rank", "friedman_p", "cd", "blocks"])


def recommendations(gain_table, rank_table=None):
    """The tables read as advice, one row per model.

    For each model: ``best`` -- the method that is better than its baseline (by the paired rule) in the most
    (data set, condition) cells, with that count, the cells where it is worse, and its median time ratio;
    ``where`` -- the data sets on which it is better in some condition; ``baseline enough`` -- the data sets where
    no method is better than the baseline in any condition; ``top rank`` -- the method with the best average rank
    and whether its lead over the second exceeds the critical difference. Ties in the count go to the method
    worse in fewer cells, then to the faster one.
    """
    out = []
    if gain_table is None or not len(gain_table):
        return pd.DataFrame(columns=["model", "best", "better in", "worse in", "cells", "time ratio", "where",
                                     "baseline enough", "top rank"])
    for model, g in gain_table.groupby("model", sort=False):
        per = (g.assign(better=g["result"].eq("better"), worse=g["result"].eq("worse"))
               .groupby("method", sort=False)
               .agg(better=("better", "sum"), worse=("worse", "sum"), cells=("result", "size"),
                    ratio=("time_ratio", "median")))
        per = per.assign(neg_ratio=-per["ratio"].fillna(np.inf)).sort_values(
            ["better", "worse", "neg_ratio"], ascending=[False, True, False])
        best = per.index[0] if per["better"].iloc[0] > 0 else None
        where = (sorted(g.loc[(g["method"] == best) & g["result"].eq("better"), "dataset"].unique())
                 if best else [])
        won = set(g.loc[g["result"].eq("better"), "dataset"])
        enough = sorted(set(g["dataset"]) - won)
        top = ""
        if rank_table is not None and len(rank_table):
            rk = rank_table[rank_table["model"] == model].sort_values("rank")
            if len(rk) >= 2:
                lead = rk["rank"].iloc[1] - rk["rank"].iloc[0]
                top = (f"{rk['method'].iloc[0]} ({rk['rank'].iloc[0]:.2f}; "
                       + ("ahead of the next by more than the critical difference"
                          if lead > rk["cd"].iloc[0] else "not separated from the next") + ")")
        out.append({"model": model, "best": best or "none better than the baseline",
                    "better in": int(per.loc[best, "better"]) if best else 0,
                    "worse in": int(per.loc[best, "worse"]) if best else 0,
                    "cells": int(per.loc[best, "cells"]) if best else int(per["cells"].max()),
                    "time ratio": float(per.loc[best, "ratio"]) if best else np.nan,
                    "where": ", ".join(where) if where else "—",
                    "baseline enough": ", ".join(enough) if enough else "—", "top rank": top})
    return pd.DataFrame(out)


def draw(gain_table):
    """Accuracy gain on perturbed test points against the time it costs: one panel per model, one point per
    (method, data set) at the model's strongest condition (the last in its order), with its 95 % interval."""
    import matplotlib.pyplot as plt

    g = gain_table if gain_table is not None else pd.DataFrame()
    from matplotlib.ticker import LogFormatterSciNotation

    names = list(dict.fromkeys(g["model"])) if len(g) else []
    ncol = 2 if len(names) > 1 else 1
    nrow = max(1, -(-len(names) // ncol))
    fig, axes = plt.subplots(nrow, ncol, figsize=(5.2 * ncol, 3.9 * nrow), squeeze=False)
    for ax in axes.flat[len(names):]:
        ax.set_visible(False)
    for ax, model in zip(axes.flat, names):
        part = g[g["model"] == model]
        top = part[part["condition"] == list(dict.fromkeys(part["condition"]))[-1]]
        several = top["baseline"].nunique() > 1  # e.g. one method against three repairs: label the pairs
        for (method, base), pts in top.groupby(["method", "baseline"], sort=False):
            x = pts["time_ratio"].to_numpy(float)
            y = pts["gain"].to_numpy(float)
            err = np.vstack([y - pts["low"].to_numpy(float), pts["high"].to_numpy(float) - y])
            ax.errorbar(x, y, yerr=np.nan_to_num(err), fmt="o", ms=4, capsize=2,
                        label=f"{method} vs {base}" if several else method)
        ax.axhline(0, color="0.5", lw=0.8)
        ax.set_xscale("log")
        ax.xaxis.set_minor_formatter(LogFormatterSciNotation(labelOnlyBase=True))  # no crowded minor labels
        ax.set_title(f"{model}, {top['condition'].iloc[0]}" if len(top) else model, fontsize=9)
        ax.set_xlabel("final-fit time / baseline's (log)")
        ax.set_ylabel("accuracy gain (points)")
        ax.legend(fontsize=7)
    fig.tight_layout()
    return fig
