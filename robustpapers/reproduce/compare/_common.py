"""What every comparison of the five papers' methods shares: data, splits, validation, intervals, ranks.

The rules are fixed here, once, before any comparison is computed:

* **Data.** The UCI sets the papers share and a digit pair, features scaled as in chen2008 (each column to
  [0, 1], :func:`robustpapers.reproduce.chen2008.experiments.load_binary`), then standardised with the mean and
  standard deviation of the clean training part, so that a noise level means the same on every data set.
* **Splits.** A stratified random split per seed (70 % training, 30 % test); seeds 0, 1, ... in order.
* **Validation.** Every method chooses its hyper-parameters by 3-fold stratified cross-validation on the
  training part only, over a grid of the same size for every method (:func:`validate`), ties broken toward the
  middle of the tied range (:func:`robustpapers.reproduce.ginodi2010._common.middle_of_ties`).
* **Intervals.** Each mean over splits carries a 95 % Student-t interval; a method is compared with another
  by the paired difference over the same splits (:func:`robustpapers.reproduce.ledger.paired`).
* **Claims.** The papers share one claim: under its uncertainty model, a robust method is more accurate than the
  nominal SVM. Each comparison judges it per (method, data set, condition) on the perturbed test points with the
  ledger's paired rule (:func:`baseline_claims`), ``paper = "compare"`` in the ledger.
* **Ranks.** Across (data set, condition) blocks: average ranks, the Friedman test and the Nemenyi critical
  difference (Demšar, "Statistical comparisons of classifiers over multiple data sets", JMLR 7, 2006).
"""
from __future__ import annotations

import math
import time
import warnings

import numpy as np
from sklearn.model_selection import StratifiedKFold, train_test_split

from ...core import ConvergenceWarning
from ..chen2008.experiments import load_binary
from ..ginodi2010._common import middle_of_ties
from ..ledger import COMPARISON, Claim, _t_quantile, paired

__all__ = ["DATASETS", "DATASET_NAMES", "TEST_SIZE", "N_FOLDS", "split", "validate", "timed_fit", "mean_interval",
           "paired_vs", "baseline_claims", "tally", "draw_vs_time", "average_ranks", "friedman_nemenyi"]

#: The data sets every comparison uses (mnist35: the MNIST 3s and 5s, chen2008's stand-in for USPS 3 vs 5).
DATASETS = ("sonar", "ionosphere", "heart", "pima", "wisconsin", "mnist35")
#: How the book names them.
DATASET_NAMES = {"sonar": "Sonar", "ionosphere": "Ionosphere", "heart": "Heart", "pima": "Pima (diabetes)",
                 "wisconsin": "Breast cancer (Wisconsin)", "mnist35": "Digits 3 vs 5"}
#: Share of each data set held out for testing.
TEST_SIZE = 0.3
#: Folds of the validation on the training part.
N_FOLDS = 3


def split(dataset, seed, max_n=None):
    """The standardised data set and its seeded stratified split.

    Returns
    -------
    X : ndarray (n, d)
        Features scaled to [0, 1] per column, then standardised with the clean training part's mean and
        standard deviation (constant columns are left at 0).
    y : ndarray (n,)
        Labels in {-1, +1}.
    tr, te : ndarray of int
        Training and test indices.
    """
    X, y = load_binary(dataset, max_n=max_n, seed=seed)
    tr, te = train_test_split(np.arange(y.size), test_size=TEST_SIZE, stratify=y, random_state=seed)
    mu, sd = X[tr].mean(0), X[tr].std(0)
    X = (X - mu) / np.where(sd > 0, sd, 1.0)
    return X, y, np.sort(tr), np.sort(te)


def validate(fit, score, candidates, X, y, seed):
    """Choose among ``candidates`` by ``N_FOLDS``-fold stratified cross-validation on (X, y).

    Parameters
    ----------
    fit : callable
        ``fit(X, y, candidate) -> (model, certified)``.
    score : callable
        ``score(model, X, y) -> accuracy`` on held-out data.
    candidates : sequence
        The grid; every method gets a grid of the same size.
    X, y : the training part only.
    seed : int
        Seeds the folds.

    Returns
    -------
    dict
        ``index`` (the chosen candidate), ``scores`` (mean validation accuracy per candidate), ``n_fits`` and
        ``n_certified`` (how many validation fits met their certificate; an uncertified fit still scores what
        it returned, and is counted).
    """
    folds = StratifiedKFold(N_FOLDS, shuffle=True, random_state=seed)
    scores = np.zeros(len(candidates))
    n_cert = 0
    for fi, vi in folds.split(X, y):
        for j, cand in enumerate(candidates):
            model, ok, _ = timed_fit(fit, X[fi], y[fi], cand)
            n_cert += bool(ok)
            scores[j] += score(model, X[vi], y[vi]) / N_FOLDS
    return dict(index=middle_of_ties(scores), scores=scores.tolist(), n_fits=N_FOLDS * len(candidates),
                n_certified=n_cert)


def timed_fit(fit, X, y, cand):
    """``fit(X, y, cand)`` with its wall time in seconds; ConvergenceWarnings are recorded, not shown."""
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model, ok = fit(X, y, cand)
    return model, bool(ok), time.perf_counter() - t0


def mean_interval(values, level=0.95):
    """Mean and 95 % Student-t interval of ``values`` (NaNs dropped); the interval is None below 2 values."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if v.size == 0:
        return float("nan"), None
    m = float(v.mean())
    if v.size < 2:
        return m, None
    half = _t_quantile(v.size - 1, level) * float(v.std(ddof=1)) / math.sqrt(v.size)
    return m, (m - half, m + half)


def paired_vs(a, b, certified=None, min_pairs=10):
    """The paired comparison of ``a`` against ``b`` (arrays over the same splits): the ledger's rule.

    Returns the dict of :func:`robustpapers.reproduce.ledger.paired` with ``verdict`` read as "a better",
    "b better" or "no separation".
    """
    out = paired(np.asarray(a, float) - np.asarray(b, float), certified=certified, min_pairs=min_pairs)
    out["separation"] = {"reproduced": "better", "contradicted": "worse"}.get(out["verdict"], "no separation")
    return out


def baseline_claims(df, *, experiment, label, methods, measure, condition, condition_name, on, baseline="svm"):
    """The papers' common claim, judged per (method, data set, condition): "method is more accurate than the
    baseline on the perturbed test points".

    Parameters
    ----------
    df : DataFrame
        One row per final fit: columns ``dataset``, ``split``, ``method``, ``certified``, ``measure`` and
        ``condition``.
    experiment, label : str
        The module's EXPERIMENT (claim ids start with it) and LABEL (the claims' artefact and ``where``).
    methods : dict
        The module's METHODS (``name``, ``paper``, ``algorithm`` per key); every key but ``baseline`` is judged.
    measure : str
        The accuracy column (in %), e.g. ``"noisy_acc"``.
    condition : str
        The column of the condition (noise level, missing rate ...); ``condition_name(value)`` words it.
    on : str
        What the accuracy is measured on, for the statement ("noisy test points").

    Returns
    -------
    list of Claim
        Paired over the splits with the ledger's rule (:func:`robustpapers.reproduce.ledger.paired`, ten certified
        pairs needed): ``reproduced`` when the interval of the mean accuracy gain lies above 0, ``contradicted``
        below.
    """
    out = []
    if not len(df):
        return out
    base = methods[baseline]
    for (z, d), g in df.groupby([condition, "dataset"], sort=True):
        wide = g.pivot_table(index="split", columns="method", values=measure, aggfunc="first")
        cert = (g.pivot_table(index="split", columns="method", values="certified", aggfunc="first")
                .reindex(index=wide.index).astype("boolean").fillna(False).astype(bool))
        for m, spec in methods.items():
            if m == baseline or m not in wide or baseline not in wide:
                continue
            r = paired(wide[m] - wide[baseline], certified=(cert[m] & cert[baseline]).to_numpy(), runs_per_pair=2)
            slug = f"{z:g}" if isinstance(z, (int, float, np.floating)) else str(z)
            out.append(Claim(paper=COMPARISON, id=f"{experiment}-{m}-{d}-{slug}", where=label,
                             statement=f"{spec['name']} ({spec['paper']}) is more accurate than the {base['name']} "
                                       f"with validated hyper-parameters on {on}",
                             artefact=label, condition=f"{DATASET_NAMES.get(d, d)}, {condition_name(z)}",
                             paper_value="> 0", algorithm=spec["algorithm"],
                             note="accuracy gain in points over the splits", **r))
    return out


def tally(vs, columns, by="method"):
    """Per condition and ``by`` (a method, or the baseline it is judged against): on how many data sets the
    comparison is "better", "no separation" or "worse", from ``vs`` (``{condition: DataFrame}`` of paired results
    with a ``result`` column). ``columns`` names the six columns in that order: condition, ``by``, better, no
    separation, worse, data sets."""
    import pandas as pd

    rows = []
    for z, tab in vs.items():
        if not len(tab):
            continue
        for m, g in tab.groupby(by, sort=False):
            counts = g["result"].value_counts()
            rows.append(dict(zip(columns, [z, m, int(counts.get("better", 0)), int(counts.get("no separation", 0)),
                                           int(counts.get("worse", 0)), int(len(g))])))
    return pd.DataFrame(rows, columns=list(columns))


def draw_vs_time(df, *, measure, methods, condition=None, title, xlabel="final fit, seconds (log scale)", ylabel):
    """A model's accuracy against final-fit time: one point per (method, data set), the mean over certified splits,
    at the largest value of ``condition`` (all conditions when None); methods in ``methods``' order.
    ``title`` is a string or a function of that condition value."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    if len(df):
        top = df[df["certified"].astype(bool)]
        if condition is not None:
            top = top[top[condition] == top[condition].max()]
        for m, spec in methods.items():
            g = top[top["method"] == m]
            if len(g):
                pts = g.groupby("dataset")[["seconds", measure]].mean()
                ax.scatter(pts["seconds"], pts[measure], label=spec["name"], s=28)
        ax.set_xscale("log")
        ax.set_title(title(top[condition].max()) if callable(title) else title)
        ax.legend(fontsize=8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    fig.tight_layout()
    return fig


def average_ranks(table):
    """Average rank of each column of ``table`` (blocks in rows, methods in columns, larger is better; ties
    share their mean rank), as in Demšar (2006), section 3.2.2."""
    from scipy.stats import rankdata

    t = np.asarray(table, dtype=float)
    if t.ndim != 2 or t.shape[0] < 1 or t.shape[1] < 2:
        raise ValueError(f"table must be blocks x methods with at least two methods, got shape {t.shape}")
    ranks = np.vstack([rankdata(-row) for row in t])
    return ranks.mean(0)


def friedman_nemenyi(table, alpha=0.05):
    """The Friedman test over blocks and the Nemenyi critical difference of average ranks (Demšar 2006).

    Parameters
    ----------
    table : array (N blocks, k methods)
        A score per block and method (larger is better), e.g. mean accuracy per (data set, noise level).
    alpha : float

    Returns
    -------
    dict
        ``ranks`` (average rank per method, 1 = best), ``chi2`` and ``p`` of the Friedman statistic,
        ``F`` and ``p_F`` (Iman-Davenport's F form, which Demšar recommends), and ``cd``: two methods whose
        average ranks differ by more than ``cd`` differ at level ``alpha`` (Nemenyi; its q_alpha is the
        studentised range quantile divided by sqrt 2).

    Examples
    --------
    >>> out = friedman_nemenyi([[0.9, 0.8, 0.7]] * 12)
    >>> out["ranks"].tolist(), out["p"] < 0.001
    ([1.0, 2.0, 3.0], True)
    """
    from scipy.stats import chi2, f, studentized_range

    t = np.asarray(table, dtype=float)
    N, k = t.shape
    R = average_ranks(t)
    stat = 12 * N / (k * (k + 1)) * (np.sum(R ** 2) - k * (k + 1) ** 2 / 4)
    p = float(chi2.sf(stat, k - 1))
    F = (N - 1) * stat / (N * (k - 1) - stat) if N * (k - 1) > stat else float("inf")
    pF = float(f.sf(F, k - 1, (k - 1) * (N - 1))) if np.isfinite(F) else 0.0
    q = float(studentized_range.ppf(1 - alpha, k, np.inf)) / math.sqrt(2)
    cd = q * math.sqrt(k * (k + 1) / (6 * N))
    return dict(ranks=R, chi2=float(stat), p=p, F=float(F), p_F=pF, cd=cd, N=N, k=k)


# The tables every comparison's ``numbers`` shows: one helper per table, so the four models read alike.

def cell(m, ci):
    """An accuracy table's entry: "mean [low, high]" with one decimal, "n/a" where there is no value."""
    if not np.isfinite(m):
        return "n/a"
    return f"{m:.1f}" if ci is None else f"{m:.1f} [{ci[0]:.1f}, {ci[1]:.1f}]"


def accuracy_tables(ok, condition, measures, methods, names, skip_empty=False):
    """``{measure: {condition value: DataFrame}}``: per data set (rows) and method (columns, in ``methods``' order,
    named by ``names``) the mean accuracy over the certified final fits ``ok`` with its 95 % interval
    (:func:`cell`). ``skip_empty`` leaves out a condition where the measure has no value."""
    import pandas as pd

    out = {}
    for measure in measures:
        out[measure] = {}
        for z, part in ok.groupby(condition):
            if skip_empty and part[measure].notna().sum() == 0:
                continue
            tab = {}
            for (d, m), g in part.groupby(["dataset", "method"]):
                tab.setdefault(DATASET_NAMES[d], {})[names[m]] = cell(*mean_interval(g[measure]))
            out[measure][z] = pd.DataFrame(tab).T.reindex(columns=[names[m] for m in methods])
    return out


def paired_rows(part, measure, base, methods, names):
    """Per data set of ``part`` (one condition): each of ``methods`` against ``base`` on ``measure``, paired over
    the splits where both fits met their certificate (:func:`paired_vs`)."""
    import pandas as pd

    rows = []
    for d, g in part.groupby("dataset"):
        wide = g.pivot(index="split", columns="method", values=measure).astype(float)
        cert = g.pivot(index="split", columns="method", values="certified").eq(True)
        for m in methods:
            if m == base or m not in wide or base not in wide:
                continue
            r = paired_vs(wide[m], wide[base], certified=cert[m] & cert[base])
            rows.append(dict(dataset=DATASET_NAMES[d], method=names[m], diff=r["our_value"],
                             interval=r["interval"], pairs=r["n_certified"], result=r["separation"]))
    return pd.DataFrame(rows, columns=["dataset", "method", "diff", "interval", "pairs", "result"])


def validation_table(df, names):
    """Per method: the validation fits and how many of them met their certificate."""
    import pandas as pd

    if not len(df):
        return pd.DataFrame()
    return (df.groupby("method")[["n_val_fits", "n_val_certified"]].sum().astype(int)
            .rename(index=names, columns={"n_val_fits": "validation fits", "n_val_certified": "met their certificate"}))


def block_ranks(ok, condition, measure, methods, names, drop="blocks"):
    """Average ranks, Friedman p-value and Nemenyi critical difference (:func:`friedman_nemenyi`) over the
    (data set, condition) blocks of the mean ``measure``; a block missing a method is left out (``drop="blocks"``),
    or a method missing from a block is (``drop="methods"``). None with fewer than two blocks."""
    block = ok.groupby(["dataset", condition, "method"])[measure].mean().unstack("method")
    block = block.reindex(columns=list(methods))
    block = block.dropna(axis=1, how="any") if drop == "methods" else block.dropna()
    if len(block) < 2:
        return None
    fn = friedman_nemenyi(block.to_numpy())
    return dict(fn, ranks=dict(zip([names[m] for m in block.columns], fn["ranks"].round(2).tolist())))


def median_seconds(ok, names, order=None):
    """Median final-fit time per data set (rows) and method (columns, reordered as ``order`` if given)."""
    t = ok.groupby(["dataset", "method"])["seconds"].median().unstack("method")
    if order is not None:
        t = t.reindex(columns=list(order))
    return t.rename(index=DATASET_NAMES, columns=names)
