"""bental2012 Fig. 7 (§7.7.1): histograms of the RobustErr accuracy differences of USSVM_SOCP against RSVM and
against the nominal SVM over the 105 one-vs-one protein problems.

Judges the shares §7.7.1 reads off them ("for more than 50 % of the problems USSVM_SOCP is more than 5 points ahead
of RSVM"; "for more than 60 % ... more than 15 points ahead of the nominal SVM"; "for almost all the cases the
margin was more than 10 points") on the structure analog, with the per-problem accuracies of
:mod:`~robustpapers.reproduce.bental2012.table2` (grid point chosen on the other problems). "Almost all" is read
as at least 90 %. SCOP itself is not available offline.
"""
from __future__ import annotations

from ..ledger import Claim, target
from . import _common as C
from . import table2

__all__ = ["PAPER", "LABEL", "records", "claims", "numbers"]

PAPER = C.PAPER
LABEL = "bental2012 Fig. 7"
EXPERIMENT, VERSION = table2.EXPERIMENT, table2.VERSION
#: (id, other method, margin in points, share in %, statement)
SHARES = (
    ("fig7-half-ahead-of-rsvm-by-5", "RSVM", 5.0, 50.0,
     "On more than 50 % of the problems USSVM_SOCP's RobustErr accuracy is more than 5 points above RSVM's."),
    ("fig7-60pct-ahead-of-nominal-by-15", "Nominal", 15.0, 60.0,
     "On more than 60 % of the problems USSVM_SOCP's RobustErr accuracy is more than 15 points above the nominal "
     "SVM's."),
    ("fig7-almost-all-ahead-of-nominal-by-10", "Nominal", 10.0, 90.0,
     "On almost all problems USSVM_SOCP's RobustErr accuracy is more than 10 points above the nominal SVM's."),
)


def records(root=None, scale="paper", seed=0):
    """The records of Table 2."""
    return table2.records(root, scale, seed)


def numbers(records):
    """Per problem: USSVM_SOCP minus RSVM and minus the nominal SVM, RobustErr accuracy (points)."""
    acc = table2.per_problem(records)
    return {other: table2.diffs(acc, "RE", "USSVM_SOCP", other)[0] for other in ("RSVM", "Nominal")}


def claims(records):
    """The three shares of §7.7.1, on the analog."""
    acc = table2.per_problem(records)
    out = []
    if acc.empty:
        return out
    for cid, other, margin, share, statement in SHARES:
        d, ok = table2.diffs(acc, "RE", "USSVM_SOCP", other)
        d = d[ok]
        value = 100.0 * float((d > margin).mean()) if d.size else None
        res = target(value, share, 0.0, kind="at_least", n_runs=int(ok.size), n_certified=int(ok.sum()))
        res["rule"] = f"share (%) of the problems with a difference above {margin:g} points at least {share:g} %"
        out.append(Claim(PAPER, cid, "§7.7.1, Fig. 7", statement, artefact=LABEL, condition=table2.CONDITION,
                         paper_value=share, algorithm=f"{table2.ALG['USSVM_SOCP']}; {table2.ALG[other]}",
                         note=f"{int((d > margin).sum())} of {d.size} problems; {int((d > 0).sum())} ahead at all, "
                              f"{int((d < 0).sum())} behind; grid point per problem chosen on the other problems.",
                         **res))
    return out


def draw(records):
    """Fig. 7: histograms of USSVM_SOCP's RobustErr accuracy minus RSVM's (left) and minus the nominal SVM's (right)
    over the problems of the analog."""
    import matplotlib.pyplot as plt
    import numpy as np

    d = numbers(records) if len(records["first"]) else {}
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.2), sharey=True)
    for ax, (other, name) in zip(axes, (("RSVM", "RSVM"), ("Nominal", "the nominal SVM"))):
        v = np.asarray(d.get(other, []), float)
        if v.size:
            ax.hist(v, bins=np.arange(np.floor(v.min() / 5) * 5 - 2.5, np.ceil(v.max() / 5) * 5 + 7.5, 5),
                    color="C0", edgecolor="white")
        ax.set_xlabel(f"USSVM_SOCP minus {name} (points)")
    axes[0].set_ylabel("problems")
    fig.tight_layout()
    return fig
