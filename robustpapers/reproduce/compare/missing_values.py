"""Missing values, at training and at test: shivaswamy2006's robust SOCP on EM moments and ginodi2010's GURU
against the linear SVM on imputed points.

The uncertainty model. Each entry of a data set's standardised points is deleted independently with
probability :math:`r` (missing completely at random), in the training part and in the test part alike; a row
that loses every entry gets one entry, chosen at random, back (nothing could be imputed from it). One mask per
(data set, split, rate), drawn from :func:`robustpapers.reproduce.engine.derive_seed`, is shared by every method.
The learner knows which entries are missing, never their values; the book knows them, so every classifier is
also tested on the complete test points.

The methods, each with its hyper-parameters chosen by 3-fold cross-validation on the incomplete training part
over a grid of the same size, eight candidates (:data:`GRIDS`); inside each fold the imputation model is
refitted on the fold's training part, and the held-out fold is completed by the method's own test rule:

* ``mean_svm`` -- each missing entry replaced by the mean of its column's observed training entries; the
  soft-margin linear SVM (shivaswamy2006 eq. (10) at :math:`\\gamma = 0`, Clarabel); C validated.
* ``em_svm`` -- the baseline: the training points completed by the conditional mean (42) under the EM Gaussian
  model of their own class (:func:`robustpapers.shivaswamy2006.class_moments`), the same SVM; C validated. It is
  the robust method below at zero radius: the nominal counterpart of the robust method's own moments.
* ``socp_gauss`` -- shivaswamy2006 eq. (44): eq. (10) on the same completed points with the padded conditional
  covariance (43) of each incomplete point and the Gaussian radius (12) at confidence :math:`\\kappa`; C and
  :math:`\\kappa` validated together.
* ``socp_cheb`` -- the same program with the Chebyshev radius (11), for any distribution with those moments.
* ``guru`` -- ginodi2010's GURU (thesis eq. (2.22), L-BFGS to its gradient certificate) on the same completed
  points, a translation: GURU's noise is isotropic, :math:`x_i \\sim N(\\bar x_i, \\sigma^2 I)`, so the
  per-point spread :math:`\\|\\Sigma_i^{1/2} w\\|` of (44) is replaced by :math:`\\sigma \\|w\\|` with one scalar
  :math:`\\sigma = f\\,\\sigma_0`, :math:`\\sigma_0^2 = \\frac{1}{nd}\\sum_i \\operatorname{tr}\\Sigma_i` (the
  mean conditional variance per training entry, observed entries counting 0); the factor :math:`f` validated.

The test rule, fixed before any result was seen: a test point's missing entries are completed by the column
means (``mean_svm``) or by the conditional mean (42) under one EM Gaussian model of all training points,
whatever their class (the three EM methods). The class-agnostic rule is used for the claims because the test
label is unknown and because all three EM methods then complete a test point in the same way, so that they
differ only in how they were trained. shivaswamy2006's own prediction rule (section 6.1: impute under each
class's model, keep the imputation farther from the hyperplane in its own metric) is recorded beside it
(``rule61_acc``) on the same weights.

A fit meets its certificate when every EM run it uses converged and Clarabel reports "optimal" (or L-BFGS's
gradient norm meets its tolerance).
"""
from __future__ import annotations

import hashlib
import time

import numpy as np
import pandas as pd

from ...ginodi2010 import guru_lbfgs
from ...shivaswamy2006 import (conditional_moments, em_gaussian, gamma_chebyshev, gamma_gaussian, impute_by_fit,
                               robust_svm)
from .. import artefact
from ..engine import derive_seed, grid
from ._common import DATASET_NAMES, DATASETS, baseline_claims, paired_vs, timed_fit
from ._common import accuracy_tables, block_ranks, draw_vs_time, median_seconds, paired_rows, tally, validate
from ._common import validation_table
from ._common import split as split_data

__all__ = ["PAPER", "LABEL", "EXPERIMENT", "VERSION", "TASK", "SETTINGS", "METHODS", "GRIDS", "BASELINE",
           "ROBUST", "USED_DATASETS", "condition_name", "missing_mask", "em_moments", "complete", "sigma_reference",
           "missing_values_task",
           "tasks", "records", "numbers", "draw", "claims"]

PAPER = "compare"
LABEL = "Missing values"
EXPERIMENT = "missing_values"
VERSION = 1
LONG = True

#: The baseline of the claims, fixed before looking: EM imputation + SVM, the robust method at zero radius.
BASELINE = "em_svm"

#: The robust methods, judged against the baseline.
ROBUST = ("socp_gauss", "socp_cheb", "guru")

#: The methods: how the book names them, whose they are, the algorithm that runs, the validated parameters.
METHODS = {
    "mean_svm": dict(name="Mean imputation + SVM", paper="(nominal)",
                     algorithm="column-mean imputation; linear soft-margin SVM, Clarabel", hyper="C"),
    "em_svm": dict(name="EM imputation + SVM", paper="(baseline)",
                   algorithm="class-wise EM conditional-mean imputation (42); linear soft-margin SVM, Clarabel",
                   hyper="C"),
    "socp_gauss": dict(name="Robust SOCP (Gaussian)", paper="shivaswamy2006",
                       algorithm="eq. (44) (eq. (10) with EM conditional moments (42)-(43), eq. (12) radius), "
                                 "Clarabel", hyper="C, kappa"),
    "socp_cheb": dict(name="Robust SOCP (Chebyshev)", paper="shivaswamy2006",
                      algorithm="eq. (44) (eq. (10) with EM conditional moments (42)-(43), eq. (11) radius), "
                                "Clarabel", hyper="C, kappa"),
    "guru": dict(name="GURU (scalar sigma)", paper="ginodi2010",
                 algorithm="GURU (2.22) on the EM-completed points, sigma = f sigma_0, L-BFGS to its gradient "
                           "certificate", hyper="f = sigma / sigma_0"),
}

#: The digit pair is left out: EM on its 256 pixels costs about 0.15 s an iteration per class at r = 0.3 and
#: needs hundreds of iterations, some three CPU-hours for the sweep, beyond what this comparison may spend.
USED_DATASETS = tuple(d for d in DATASETS if d != "mnist35")


def _grids(c_svm, factors, c_socp, kappas):
    socp = [dict(C=float(c), kappa=float(k)) for c in c_socp for k in kappas]
    return {"mean_svm": [dict(C=float(c)) for c in c_svm], "em_svm": [dict(C=float(c)) for c in c_svm],
            "socp_gauss": socp, "socp_cheb": socp, "guru": [dict(sigma_factor=float(f)) for f in factors]}


#: The validation grids, eight candidates for every method (sixteen did not fit the compute allowed): C = 2^-5,
#: 2^-3, ..., 2^9 for the SVMs; f = 2^-3..2^4 for GURU; four C times two kappa for the SOCP (kappa = 0.7 and 0.9,
#: radii 0.52 and 1.28; kappa = 0.5 would be radius 0, the baseline itself).
GRIDS = _grids([2.0 ** k for k in range(-5, 11, 2)], [2.0 ** k for k in range(-3, 5)],
               [2.0 ** -5, 2.0 ** -1, 2.0 ** 3, 2.0 ** 7], [0.7, 0.9])
_QUICK_GRIDS = _grids([0.1, 1.0, 10.0, 100.0], [0.5, 1.0, 2.0, 4.0], [1.0, 10.0], [0.7, 0.9])

SETTINGS = {
    # CI: two small data sets, 80 points, three splits, one missing rate, four candidates per method
    "quick": dict(datasets=["sonar", "heart"], n_splits=3, rate=[0.3], max_n=80, grids=_QUICK_GRIDS),
    # the comparison: five data sets, ten splits, two missing rates, eight candidates per method
    "paper": dict(datasets=list(USED_DATASETS), n_splits=10, rate=[0.3, 0.6], max_n=None, grids=GRIDS),
}


def tasks(scale="paper", seed=0):
    """One task per (data set, split, missing rate, method); splits are seeds ``seed, seed + 1, ...``."""
    s = SETTINGS[scale]
    return [dict(t, max_n=s["max_n"], grid=list(s["grids"][t["method"]]))
            for t in grid(dataset=s["datasets"], split=list(range(seed, seed + s["n_splits"])), rate=s["rate"],
                          method=list(METHODS))]


def missing_mask(shape, rate, seed):
    """Entries missing completely at random: True with probability ``rate``, independently; a row missing every
    entry gets one entry (uniformly chosen) back.

    Examples
    --------
    >>> M = missing_mask((1000, 4), 0.5, seed=0)
    >>> bool(abs(M.mean() - 0.5) < 0.03), bool(M.all(axis=1).any())
    (True, False)
    """
    if not 0 <= rate < 1:
        raise ValueError(f"rate must lie in [0, 1), got {rate!r}")
    n, d = shape
    rng = np.random.default_rng(seed)
    M = rng.uniform(size=(n, d)) < rate
    full = np.flatnonzero(M.all(axis=1))
    M[full, rng.integers(0, d, full.size)] = False
    return M


#: EM's iteration limit (its tolerance is em_gaussian's, 1e-4); some classes need close to a thousand iterations.
EM_MAX_ITER = 5000

# EM runs keyed by the data they were fitted on, so that the methods of one split share them (the sweep runs
# the methods of a split one after another in one process).
_EM_CACHE: dict = {}


def _key(X, y):
    return hashlib.sha1(np.ascontiguousarray(X).tobytes() + np.ascontiguousarray(y).tobytes()).hexdigest()


def em_moments(X, y):
    r"""The EM models of an incomplete training part and the points it completes.

    Returns
    -------
    dict
        ``Xbar`` (each point completed by (42) under its own class's EM model), ``factors`` (the factor
        :math:`L_i` of its padded conditional covariance (43), None for complete rows), ``classes`` (the two
        classes' moments, :func:`robustpapers.shivaswamy2006.class_moments`' form), ``pooled`` (mean and
        covariance of one EM model of every point, for the class-agnostic test rule), ``converged`` (all three
        EM runs) and ``seconds`` (wall time of the class-wise EM and the completion: the training's share).
    """
    k = _key(X, y)
    if k in _EM_CACHE:
        return _EM_CACHE[k]
    t0 = time.perf_counter()
    classes, ok = {}, True
    Xbar, factors = np.empty_like(X), [None] * len(y)
    for c in (-1.0, 1.0):
        rows = np.flatnonzero(y == c)
        res = em_gaussian(X[rows], max_iter=EM_MAX_ITER)
        ok &= bool(res.success)
        classes[c] = (res.mean, res.cov)
        Xbar[rows], F = conditional_moments(X[rows], res.mean, res.cov)
        for j, i in enumerate(rows):
            factors[i] = F[j]
    seconds = time.perf_counter() - t0
    pooled = em_gaussian(X, max_iter=EM_MAX_ITER)
    out = dict(Xbar=Xbar, factors=factors, classes=classes, pooled=(pooled.mean, pooled.cov),
               converged=ok and bool(pooled.success), seconds=seconds)
    if len(_EM_CACHE) >= 8:
        _EM_CACHE.clear()
    _EM_CACHE[k] = out
    return out


def sigma_reference(factors, d):
    r""":math:`\sigma_0 = \big(\frac{1}{nd}\sum_i \operatorname{tr}\Sigma_i\big)^{1/2}` with
    :math:`\Sigma_i = L_i L_i^\top` (None: a complete row, :math:`\Sigma_i = 0`)."""
    tr = [0.0 if L is None else float(np.sum(L * L)) for L in factors]
    return float(np.sqrt(np.sum(tr) / (len(factors) * d)))


def complete(model, X):
    """A model's test rule: its points with their missing entries completed (column means, or the conditional
    mean (42) under the pooled EM model)."""
    rule = model["rule"]
    if not np.isnan(X).any():
        return X
    if rule[0] == "mean":
        return np.where(np.isnan(X), rule[1], X)
    # every candidate of a fold shares the fold's pooled model: complete its held-out points once
    k = (id(rule[1]), _key(X, rule[1]))
    if k not in _COMPLETED:
        if len(_COMPLETED) >= 8:
            _COMPLETED.clear()
        _COMPLETED[k] = conditional_moments(X, rule[1], rule[2])[0]
    return _COMPLETED[k]


_COMPLETED: dict = {}


def _fitter(method):
    """``fit(X, y, candidate) -> (model, certified)``; X carries NaN, a model is a dict (``w``, ``b``, ``rule``)."""
    if method == "mean_svm":
        def fit(X, y, cand):
            mu = np.nan_to_num(np.nanmean(X, axis=0))
            res = robust_svm(np.where(np.isnan(X), mu, X), y, C=cand["C"])
            return dict(w=res.w, b=res.b, rule=("mean", mu)), res.success
        return fit

    def fit(X, y, cand):
        em = em_moments(X, y)
        if method == "guru":
            sigma = cand["sigma_factor"] * sigma_reference(em["factors"], X.shape[1])
            res = guru_lbfgs(em["Xbar"], y, sigma=sigma, fit_intercept=True)
        elif method == "em_svm":
            res = robust_svm(em["Xbar"], y, C=cand["C"])
        else:
            radius = gamma_gaussian if method == "socp_gauss" else gamma_chebyshev
            res = robust_svm(em["Xbar"], y, gamma=radius(cand["kappa"]), factors=em["factors"], C=cand["C"])
        return dict(w=res.w, b=res.b, rule=("em", *em["pooled"]), classes=em["classes"]), \
            bool(res.success) and em["converged"]
    return fit


def _accuracy(model, X, y):
    Xc = complete(model, X)
    return float(np.mean(np.where(Xc @ model["w"] + model["b"] >= 0, 1.0, -1.0) == y))


def missing_values_task(dataset, split, rate, method, max_n, grid):
    """One method on one split at one missing rate: validated, refitted on the incomplete training part, tested on
    the incomplete test points (completed by its own rule) and on the complete ones."""
    X, y, tr, te = split_data(dataset, split, max_n)
    M = missing_mask(X.shape, rate, derive_seed(split, dataset, rate, "mask"))  # the same mask for every method
    Xm = np.where(M, np.nan, X)
    fit = _fitter(method)
    val = validate(fit, _accuracy, grid, Xm[tr], y[tr], seed=derive_seed(split, dataset, "folds"))
    chosen = grid[val["index"]]
    em_seconds, em_ok = 0.0, True
    if method != "mean_svm":
        em = em_moments(Xm[tr], y[tr])  # computed (or found) before the timed fit: its time is added once
        em_seconds, em_ok = em["seconds"], em["converged"]
    model, ok, seconds = timed_fit(fit, Xm[tr], y[tr], chosen)
    w, b = model["w"], model["b"]
    out = dict(chosen=chosen, val_scores=val["scores"], n_val_fits=val["n_fits"], n_val_certified=val["n_certified"],
               certified=ok, em_converged=em_ok, solve_seconds=seconds, em_seconds=em_seconds,
               seconds=seconds + em_seconds, missing_acc=100 * _accuracy(model, Xm[te], y[te]),
               clean_acc=100 * float(np.mean(np.where(X[te] @ w + b >= 0, 1.0, -1.0) == y[te])),
               rule61_acc=None, share_missing=float(M[te].mean()), n_train=int(tr.size), n_test=int(te.size),
               d=int(X.shape[1]))
    if method != "mean_svm":
        Xr, _, _ = impute_by_fit(w, b, Xm[te], model["classes"])
        out["rule61_acc"] = 100 * float(np.mean(np.where(Xr @ w + b >= 0, 1.0, -1.0) == y[te]))
    return out


TASK = missing_values_task


def records(root=None, scale="paper", seed=0):
    return artefact.load(__name__, root, scale, seed)


def _frame(records):
    rows = [dict(r["params"], **r["result"]) for r in records if r is not None]
    cols = ["dataset", "split", "rate", "method", "max_n", "missing_acc", "clean_acc", "rule61_acc", "seconds",
            "em_seconds", "certified", "chosen", "n_val_fits", "n_val_certified"]
    return pd.DataFrame(rows, columns=cols) if rows else pd.DataFrame(columns=cols)



def numbers(records):
    """The tables of the comparison.

    Returns
    -------
    dict
        ``accuracy[measure][rate]`` a DataFrame (data sets x methods, "mean [95 % interval]") for
        ``"missing_acc"`` (test points with missing entries, completed by each method's rule) and ``"clean_acc"``
        (the complete test points); ``vs_svm[rate]`` the paired differences to the baseline, EM imputation + SVM
        for the robust methods (mean, interval, "better" / "worse" / "no separation" by the ledger's rule);
        ``imputations[rate]`` the same for mean imputation against EM imputation (both nominal); ``tally`` per method
        and rate the count of data sets where it is better than the baseline, worse, or not separated;
        ``no_gain[rate]`` the data sets where no robust method is better than the baseline; ``rule61[rate]`` the
        paired gain of the section 6.1 rule over the class-agnostic rule on the same weights; ``one_class``
        where a method predicts one class on every split; ``ranks`` the average ranks, Friedman p-value and
        Nemenyi critical difference over (data set, rate) blocks on ``missing_acc``; ``validation`` the
        validation fits and how many met their certificate; ``seconds`` the median final-fit time (EM
        included) per method and data set; ``n_runs``, ``n_uncertified`` (final fits that missed their
        certificate, excluded) and ``n_missing``.
    """
    df = _frame(records)
    out = dict(accuracy={}, vs_svm={}, imputations={}, rule61={}, n_runs=int(len(df)),
               n_missing=artefact.missing(records),
               baseline=METHODS[BASELINE]["name"], measure="missing_acc")
    out["n_uncertified"] = int((~df["certified"].astype(bool)).sum()) if len(df) else 0
    ok = df[df["certified"].astype(bool)] if len(df) else df
    names = {k: v["name"] for k, v in METHODS.items()}
    out["accuracy"] = accuracy_tables(ok, "rate", ("missing_acc", "clean_acc"), METHODS, names)
    for z, part in df.groupby("rate"):
        out["vs_svm"][z] = paired_rows(part, "missing_acc", BASELINE, ROBUST, names)
        out["imputations"][z] = paired_rows(part, "missing_acc", BASELINE, ["mean_svm"], names)
        out["rule61"][z] = _rule61_rows(part)
    out["tally"] = tally(out["vs_svm"], ["missing rate r", "method", "better than baseline", "no separation", "worse than baseline", "data sets"])
    out["no_gain"] = {z: sorted(set(tab["dataset"]) - set(tab.loc[tab["result"] == "better", "dataset"]))
                      for z, tab in out["vs_svm"].items() if len(tab)}
    out["one_class"] = _one_class(ok)
    out["validation"] = validation_table(df, names)
    if len(ok):
        # a method not run on every (data set, rate) block is left out of the ranks rather than the blocks
        ranks = block_ranks(ok, "rate", "missing_acc", METHODS, names, drop="methods")
        if ranks is not None:
            out["ranks"] = ranks
        out["seconds"] = median_seconds(ok, names, order=METHODS)
    return out


def _rule61_rows(part):
    """The section 6.1 rule minus the class-agnostic rule, per EM method and data set, on the same weights."""
    rows = []
    for (m, d), g in part[part["method"] != "mean_svm"].groupby(["method", "dataset"], sort=False):
        g = g.sort_values("split")
        r = paired_vs(g["rule61_acc"].astype(float), g["missing_acc"].astype(float),
                      certified=g["certified"].astype(bool).to_numpy())
        rows.append(dict(dataset=DATASET_NAMES[d], method=METHODS[m]["name"], diff=r["our_value"],
                         interval=r["interval"], pairs=r["n_certified"], result=r["separation"]))
    return pd.DataFrame(rows, columns=["dataset", "method", "diff", "interval", "pairs", "result"])


def _one_class(ok):
    """(method, rate, data set) where every certified split scored exactly the test share of the larger class on
    both test measures: the classifier predicts one class."""
    found = []
    for (m, z, d), g in ok.groupby(["method", "rate", "dataset"]):
        same = True
        for _, r in g.iterrows():
            n = r["max_n"]
            _, y, _, te = split_data(d, int(r["split"]), None if pd.isna(n) else int(n))
            share = 100 * max(np.mean(y[te] == 1), np.mean(y[te] == -1))
            same &= abs(r["missing_acc"] - share) < 1e-9 and abs(r["clean_acc"] - share) < 1e-9
        if same and len(g):
            found.append(dict(method=METHODS[m]["name"], rate=z, dataset=DATASET_NAMES[d]))
    return pd.DataFrame(found, columns=["method", "rate", "dataset"])


def draw(records):
    """Accuracy on the test points with missing entries against final-fit time (EM included): one point per
    (method, data set), mean over splits, at the largest rate."""
    return draw_vs_time(_frame(records), measure="missing_acc", methods=METHODS, condition="rate",
                        title=lambda z: f"Missing rate r = {z:g}: accuracy on incomplete test points vs. training time",
                        xlabel="final fit with its imputation model, seconds (log scale)",
                        ylabel="test accuracy, missing entries completed (%)")


def condition_name(rate):
    """A missing rate in words."""
    return f"missing rate r = {rate:g}"


def claims(records):
    """The papers' common claim on this model: each robust method is more accurate than the baseline (EM
    imputation + SVM) on the test points with missing entries, per data set and rate
    (:func:`._common.baseline_claims`); mean imputation, a nominal method, is not judged."""
    judged = {k: v for k, v in METHODS.items() if k in ROBUST or k == BASELINE}
    return baseline_claims(_frame(records), experiment=EXPERIMENT, label=LABEL, methods=judged,
                           measure="missing_acc", condition="rate", condition_name=condition_name,
                           on="test points with missing entries completed by each method's rule", baseline=BASELINE)
