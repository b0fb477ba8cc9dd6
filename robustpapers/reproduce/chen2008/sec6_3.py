"""chen2008 §6.3: the Indefinite SVM's advantage is larger where the perturbed kernel is "highly non-PSD".

§6.3 reads Table 1 as: the Indefinite SVM outperforms the others where |lambda_max / lambda_min| is small and is
only comparable where it is large. Judged across the data sets of Table 1 whose ten splits are cached: the
Spearman rank correlation between the data set's |lambda_max / lambda_min| and the Indefinite SVM's advantage
(APG-FW minus the best baseline, mean over the splits, points) must be negative with a 95 % test (one-sided);
with so few data sets the test is weak, and says so.
"""
from __future__ import annotations

import numpy as np

from . import table1
from ..ledger import Claim

__all__ = ["PAPER", "LABEL", "records", "claims", "numbers"]

PAPER = "chen2008"
LABEL = "chen2008 §6.3"


def records(root=None, scale="paper", seed=0):
    """Table 1's records."""
    return table1.records(root, scale, seed)


def numbers(records):
    """Per data set with all its splits: the mean ratio and the advantage over the best baseline (points)."""
    import pandas as pd

    rows = []
    n_splits = max(len([t for t in table1.tasks("paper") if t["dataset"] == ds]) for ds in table1.NAMES)
    by = {}
    for r in records:
        if r is not None:
            by.setdefault(r["params"]["dataset"], []).append(r["result"])
    for ds, res in by.items():
        if len(res) < n_splits:
            continue
        f = pd.DataFrame(res)
        best = max(100 * f[f"acc_{b}"].mean() for b in table1.BASELINES)
        rows.append({"data set": table1.NAMES[ds], "ratio": float(f.ratio.mean()),
                     "advantage": float(100 * f.acc_apg.mean() - best)})
    return pd.DataFrame(rows)


def claims(records):
    """One claim: a negative rank correlation between the ratio and the advantage."""
    from scipy.stats import spearmanr

    f = numbers(records)
    statement = ("The Indefinite SVM's advantage over the other algorithms is largest where the perturbed kernel "
                 "is most non-PSD (a small |lambda_max / lambda_min|).")
    common = dict(artefact=LABEL, paper_value="negative", algorithm="APG-FW; the baselines",
                  rule="Spearman correlation of ratio and advantage across data sets, one-sided p < 0.05")
    if len(f) < 3:
        return [Claim(PAPER, "sec6-3-non-psd-advantage", "§6.3", statement, "inconclusive",
                      note=f"{len(f)} data sets with all splits cached", **common)]
    rho, p_two = spearmanr(f.ratio, f.advantage)
    p = p_two / 2 if rho < 0 else 1 - p_two / 2
    verdict = "reproduced" if p < 0.05 else "contradicted" if (rho > 0 and p_two / 2 < 0.05) else "inconclusive"
    return [Claim(PAPER, "sec6-3-non-psd-advantage", "§6.3", statement, verdict, our_value=float(np.round(rho, 3)),
                  n_runs=0, note=f"{len(f)} data sets ({', '.join(f['data set'])}); one-sided p = {p:.2f}",
                  **common)]
