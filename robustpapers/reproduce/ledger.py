"""The claims ledger: every claim of every paper, judged from the cached records by rules fixed in advance.

A :class:`Claim` is one sentence of a paper (per condition where the paper states it per data set,
distribution or noise model) with this reproduction's value, its 95 % interval and a verdict. The
verdict comes from one of the decision rules below, the same in every chapter:

* :func:`paired` -- a comparison of two methods, paired over splits, folds or data sets: the 95 %
  Student-t interval of the mean paired difference; ``"reproduced"`` when it excludes 0 in the
  paper's direction, ``"contradicted"`` when it excludes 0 the other way, ``"inconclusive"``
  otherwise. Only pairs whose runs met their certificate count; with fewer certified pairs than the
  rule asks for, the claim is ``"inconclusive"`` whatever the numbers say.
* :func:`equivalent` -- "comparable to": reproduced when the interval lies inside a margin fixed
  beforehand, contradicted when it lies wholly outside it.
* :func:`noninferior` -- "not worse than": reproduced when the interval lies above ``-margin``.
* :func:`target` -- a numeric target (a slope, a count, an accuracy) with its tolerance.
* :func:`combine` -- a claim made of several parts that must all hold: ``"contradicted"`` when one part
  is, ``"partly"`` when some parts reproduce and the others are undecided or not reproduced.

:func:`all_claims` imports every artefact module of :mod:`robustpapers.reproduce` and asks each for its
claims on the committed records (nothing is recomputed).
"""
from __future__ import annotations

import dataclasses
import importlib
import math
from typing import Optional

import numpy as np

__all__ = ["VERDICTS", "PAPERS", "COMPARISON", "SOURCES", "Claim", "ClaimIndex", "paired", "equivalent", "noninferior", "target", "combine", "not_run",
           "all_claims", "artefact_modules", "ledger_table", "ledger_markdown", "summary_table"]

#: The verdicts, from the strongest agreement to none at all.
VERDICTS = ("reproduced", "partly", "not reproduced", "contradicted", "inconclusive", "not testable here")
#: The five papers, in the book's order.
PAPERS = ("bental2012", "bhadra2010", "chen2008", "shivaswamy2006", "ginodi2010")
#: The key of the part beyond the papers, which puts their methods side by side: its claims are the papers' common
#: claim (a robust method beats the nominal SVM under its uncertainty model) carried to common data sets.
COMPARISON = "compare"
#: Where claims come from: the five papers, then the comparison.
SOURCES = PAPERS + (COMPARISON,)
#: Accuracy comparisons rest on at least this many paired splits (or the paper's own count, if larger).
MIN_SPLITS = 10


@dataclasses.dataclass(frozen=True)
class Claim:
    """One claim of a paper and how it fares here.

    Attributes
    ----------
    paper : str
        The paper's key (``"chen2008"``).
    id : str
        A stable slug, unique within the paper (``"table1-better-sonar"``).
    where : str
        Where the paper makes it (``"Table 1"``, ``"Fig. 2"``, ``"§6.2"``).
    statement : str
        The paper's claim in one sentence.
    verdict : str
        One of :data:`VERDICTS`.
    artefact : str
        The label of the figure or table of this book it rests on (``"chen2008 Table 1"``).
    condition : str or None
        Data set, distribution or noise model the claim is about, or None.
    paper_value, our_value : float, str or None
        The paper's value (a number or a direction such as ``"> 0"``) and ours (for a comparison: the
        mean paired difference).
    interval : (float, float) or None
        Our 95 % interval.
    n_runs, n_certified : int
        How many solver runs the claim rests on, and how many met their certificate.
    algorithm : str or None
        The algorithm that produced our value.
    rule : str
        The decision rule applied, in words.
    note : str
        What a reader needs beside the numbers (a deviation, why a claim is not testable).
    """

    paper: str
    id: str
    where: str
    statement: str
    verdict: str
    artefact: str
    condition: Optional[str] = None
    paper_value: object = None
    our_value: object = None
    interval: Optional[tuple] = None
    n_runs: int = 0
    n_certified: int = 0
    algorithm: Optional[str] = None
    rule: str = ""
    note: str = ""

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"claim {self.paper}/{self.id}: verdict must be one of {VERDICTS}, got {self.verdict!r}")
        if self.paper not in SOURCES:
            raise ValueError(f"claim {self.id}: paper must be one of {SOURCES}, got {self.paper!r}")
        if not 0 <= self.n_certified <= self.n_runs:
            raise ValueError(f"claim {self.paper}/{self.id}: need 0 <= n_certified <= n_runs, "
                             f"got {self.n_certified} of {self.n_runs}")
        if self.interval is not None:
            lo, hi = self.interval
            object.__setattr__(self, "interval", (float(lo), float(hi)))

    def as_dict(self):
        """The claim as a plain dict (JSON-able)."""
        return dataclasses.asdict(self)


def _t_quantile(df, level=0.95):
    from scipy.stats import t

    return float(t.ppf(0.5 + level / 2, df))


class ClaimIndex(dict):
    """Claims by id, for a page; an id its records do not produce (a quick run skips some conditions)
    reads as an ``inconclusive`` claim with no value, so a page says so instead of failing."""

    def __init__(self, claims):
        claims = list(claims)
        super().__init__((c.id, c) for c in claims)
        self._paper = claims[0].paper if claims else PAPERS[0]

    def __missing__(self, cid):
        return Claim(paper=self._paper, id=cid, where="", statement="", verdict="inconclusive", artefact="",
                     our_value=float("nan"), note="no records of this run bear on it")


def paired(diffs, *, direction=1, certified=None, min_pairs=MIN_SPLITS, level=0.95, runs_per_pair=1):
    """The rule for a comparison of two methods, paired over splits, folds or data sets.

    Parameters
    ----------
    diffs : array-like
        The paired differences, method claimed better minus the other (e.g. accuracy of the robust
        classifier minus that of the nominal one on each split), oriented so that the paper claims a
        positive mean when ``direction=1`` (a negative one when ``direction=-1``, e.g. an error).
    certified : array-like of bool, optional
        Whether each pair's runs met their certificate. Only certified pairs are evidence.
    min_pairs : int
        How many certified pairs the rule needs before it decides (10 for accuracy comparisons).
    level : float
        The interval's level.
    runs_per_pair : int
        Solver runs behind one pair that carry a certificate (for ``n_runs`` and ``n_certified``).

    Returns
    -------
    dict
        ``verdict``, ``our_value`` (the mean over certified pairs), ``interval``, ``n_runs``,
        ``n_certified`` and ``rule``: ready to be passed to :class:`Claim` as keywords.

    Examples
    --------
    >>> paired([1.0, 2.0, 1.5, 0.5, 1.2, 0.8, 1.1, 1.9, 1.4, 0.9])["verdict"]
    'reproduced'
    >>> paired([1.0, -1.0] * 5)["verdict"]
    'inconclusive'
    """
    d = np.asarray(diffs, dtype=float).ravel()
    ok = np.ones(d.size, bool) if certified is None else np.asarray(certified, dtype=bool).ravel()
    if ok.size != d.size:
        raise ValueError(f"certified has {ok.size} entries for {d.size} differences")
    if direction not in (1, -1):
        raise ValueError(f"direction must be 1 or -1, got {direction!r}")
    use = d[ok & np.isfinite(d)]
    k = int(use.size)
    rule = (f"mean paired difference over certified pairs, {int(100 * level)} % t-interval; "
            f"needs {min_pairs} certified pairs")
    out = dict(n_runs=int(d.size * runs_per_pair), n_certified=int(ok.sum() * runs_per_pair), rule=rule,
               our_value=float(use.mean()) if k else None, interval=None)
    if k >= 2:
        half = _t_quantile(k - 1, level) * float(use.std(ddof=1)) / math.sqrt(k)
        out["interval"] = (out["our_value"] - half, out["our_value"] + half)
    if k < max(min_pairs, 2):
        out["verdict"] = "inconclusive"
        return out
    lo, hi = out["interval"]
    if direction == -1:
        lo, hi = -hi, -lo
    out["verdict"] = "reproduced" if lo > 0 else "contradicted" if hi < 0 else "inconclusive"
    return out


def equivalent(diffs, margin, *, certified=None, min_pairs=MIN_SPLITS, level=0.95, runs_per_pair=1):
    """The rule for "comparable to": the interval of the mean paired difference against ``[-margin, margin]``.

    Reproduced when the whole interval lies inside the margin, contradicted when it lies wholly
    outside, inconclusive otherwise (and with fewer than ``min_pairs`` certified pairs).

    Examples
    --------
    >>> equivalent([0.1, -0.2, 0.0, 0.1, -0.1, 0.2, 0.0, -0.1, 0.1, 0.0], margin=1.0)["verdict"]
    'reproduced'
    """
    return _margin_rule(diffs, f"inside ±{margin:g}", certified, min_pairs, level, runs_per_pair,
                        lambda lo, hi: "reproduced" if -margin <= lo and hi <= margin else
                        "contradicted" if hi < -margin or lo > margin else "inconclusive")


def _margin_rule(diffs, where, certified, min_pairs, level, runs_per_pair, decide):
    """:func:`paired`'s interval judged against a margin by ``decide(lo, hi)`` (inconclusive without enough
    certified pairs)."""
    out = paired(diffs, certified=certified, min_pairs=min_pairs, level=level, runs_per_pair=runs_per_pair)
    out["rule"] = (f"{int(100 * level)} % t-interval of the mean paired difference {where}; "
                   f"needs {min_pairs} certified pairs")
    enough = out["interval"] is not None and out["n_certified"] >= max(min_pairs, 2) * runs_per_pair
    out["verdict"] = decide(*out["interval"]) if enough else "inconclusive"
    return out


def noninferior(diffs, margin, *, certified=None, min_pairs=MIN_SPLITS, level=0.95, runs_per_pair=1):
    """The rule for "not worse than" (e.g. "comparable to the best"): the interval of the mean paired
    difference against ``-margin``.

    Reproduced when the whole interval lies above ``-margin``, contradicted when it lies wholly below it,
    inconclusive otherwise (and with fewer than ``min_pairs`` certified pairs). Judging the claimed method
    against *every* other method this way needs no choice of "the best" one on the test data.

    Examples
    --------
    >>> noninferior([0.5, -0.3, 0.2, 0.1, -0.2, 0.4, 0.0, 0.3, -0.1, 0.2], margin=1.0)["verdict"]
    'reproduced'
    """
    return _margin_rule(diffs, f"above -{margin:g}", certified, min_pairs, level, runs_per_pair,
                        lambda lo, hi: "reproduced" if lo > -margin else
                        "contradicted" if hi < -margin else "inconclusive")


def target(value, goal, tol, *, kind="abs", n_runs=1, n_certified=None):
    """The rule for a numeric target: ``value`` against the paper's ``goal`` with a tolerance fixed beforehand.

    Parameters
    ----------
    value : float or None
        Our value (None: not measured, the claim is inconclusive).
    goal : float
        The paper's value.
    tol : float
        The tolerance: absolute (``kind="abs"``), relative (``"rel"``), or, with ``kind="at_most"`` /
        ``"at_least"``, ignored (the claim is a bound: ``value <= goal`` / ``value >= goal``).
    n_runs, n_certified : int
        The runs behind the value; a value from uncertified runs cannot reproduce the claim.

    Examples
    --------
    >>> target(148.0, 150.0, 0.25, kind="rel")["verdict"]
    'reproduced'
    >>> target(-1.5, -2.0, 0.0, kind="at_most")["verdict"]
    'not reproduced'
    """
    n_certified = n_runs if n_certified is None else n_certified
    words = {"abs": f"within ±{tol:g} of the paper's value", "rel": f"within {100 * tol:g} % of the paper's value",
             "at_most": "at most the paper's bound", "at_least": "at least the paper's bound"}
    if kind not in words:
        raise ValueError(f"kind must be one of {list(words)}, got {kind!r}")
    out = dict(our_value=None if value is None else float(value), interval=None, n_runs=int(n_runs),
               n_certified=int(n_certified), rule=words[kind])
    if value is None or not np.isfinite(value) or n_certified < n_runs or n_runs == 0:
        out["verdict"] = "inconclusive"
        return out
    ok = {"abs": abs(value - goal) <= tol, "rel": abs(value - goal) <= tol * abs(goal),
          "at_most": value <= goal, "at_least": value >= goal}[kind]
    out["verdict"] = "reproduced" if ok else "not reproduced"
    return out


def combine(verdicts):
    """The verdict of a claim made of parts that must all hold ("outperforms all other algorithms"): all parts
    reproduced -> reproduced; a part contradicted -> contradicted (the claim as stated is false); otherwise some
    part reproduced -> partly; no part reproduced -> the parts' common verdict (or "not reproduced").

    Examples
    --------
    >>> combine(["reproduced", "inconclusive"])
    'partly'
    >>> combine(["reproduced", "contradicted"])
    'contradicted'
    """
    v = list(verdicts)
    if not v:
        return "not testable here"
    if all(x == "reproduced" for x in v):
        return "reproduced"
    if "contradicted" in v:
        return "contradicted"
    if any(x in ("reproduced", "partly") for x in v):
        return "partly"
    return v[0] if len(set(v)) == 1 else "not reproduced" if "not reproduced" in v else "inconclusive"


def not_run(n_missing, n_tasks):
    """The keywords of a claim whose records are not (all) cached: inconclusive, with the count in ``note``."""
    return dict(verdict="inconclusive", n_runs=0, n_certified=0,
                note=f"{n_missing} of {n_tasks} runs not cached", rule="")


def artefact_modules(paper=None):
    """The artefact modules of one paper (or of all five papers and the comparison), in the order their package
    lists them."""
    mods = []
    for key in (SOURCES if paper is None else [paper]):
        pkg = importlib.import_module(f"robustpapers.reproduce.{key}")
        mods += [importlib.import_module(f"robustpapers.reproduce.{key}.{name}") for name in pkg.ARTEFACTS]
    return mods


def all_claims(paper=None, root=None):
    """Every claim of every paper and of the comparison (or of ``paper``), judged on the cached records; nothing is
    recomputed.

    Parameters
    ----------
    paper : str, optional
        Only this paper's claims.
    root : path, optional
        The results cache (default :func:`robustpapers.reproduce.engine.results_root`).

    Returns
    -------
    list of Claim

    Examples
    --------
    >>> claims = all_claims("chen2008")                                       # doctest: +SKIP
    >>> sorted({c.verdict for c in claims}) <= sorted(VERDICTS)               # doctest: +SKIP
    True
    """
    claims = []
    for mod in artefact_modules(paper):
        claims += list(mod.claims(mod.records(root=root)))
    seen = set()
    for c in claims:
        if (c.paper, c.id) in seen:
            raise ValueError(f"claim id {c.paper}/{c.id} is not unique")
        seen.add((c.paper, c.id))
    return claims


def _fmt(v, digits=2):
    if v is None:
        return "—"
    if isinstance(v, (float, np.floating)):
        if not np.isfinite(v):
            return str(v)
        if float(v).is_integer() and abs(v) < 1e6:
            return str(int(v))  # a count
        return f"{v:.{digits}f}" if 10 ** -digits <= abs(v) < 1e4 else f"{v:.3g}"
    return str(v)


def ledger_table(claims, digits=2):
    """A chapter's *Paper vs. this reproduction* table: one row per claim (pandas DataFrame)."""
    import pandas as pd

    rows = []
    for c in claims:
        ours = _fmt(c.our_value, digits)
        if c.interval is not None:
            ours += f" [{_fmt(c.interval[0], digits)}, {_fmt(c.interval[1], digits)}]"
        rows.append({"claim": c.statement, "where": c.where, "condition": c.condition or "",
                     "paper": _fmt(c.paper_value, digits), "ours [95 % interval]": ours, "verdict": c.verdict,
                     "certified runs": f"{c.n_certified} of {c.n_runs}" if c.n_runs else "—"})
    return pd.DataFrame(rows)


def ledger_markdown(claims, digits=2):
    """:func:`ledger_table` as a Markdown table (no index; ``|`` in a cell escaped), for a page to display."""
    table = ledger_table(claims, digits)
    if table.empty:
        return "No claim is judged here yet."
    esc = table.astype(str).apply(lambda col: col.str.replace("|", "\\|", regex=False))
    return esc.to_markdown(index=False)


def summary_table(claims):
    """Counts of claims per paper (rows) and verdict (columns)."""
    import pandas as pd

    frame = pd.DataFrame([{"paper": c.paper, "verdict": c.verdict} for c in claims])
    if frame.empty:
        return pd.DataFrame(columns=list(VERDICTS))
    table = pd.crosstab(frame.paper, frame.verdict).reindex(columns=list(VERDICTS), fill_value=0)
    table = table.reindex([p for p in SOURCES if p in table.index])
    table["total"] = table.sum(axis=1)
    return table
