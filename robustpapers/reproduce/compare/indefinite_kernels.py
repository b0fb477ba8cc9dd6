"""Indefinite kernels: chen2008's Indefinite SVM against the SVM on the clipped, flipped and shifted kernel.

The uncertainty model. On each data set the learner observes a symmetric similarity :math:`K_0` that is not a
positive semidefinite kernel, instead of a kernel :math:`K`. Two ways it arises, each a condition:

* ``gauss-<xi>`` -- chen2008 Sec. 6.1's perturbed Gaussian kernel
  (:func:`robustpapers.chen2008.perturbed_gaussian_kernel`),

  .. math::

      K_0 = \\bigl[\\exp(-\\gamma\\|x_i - x_j\\|^2)\\bigr]_{ij} + \\xi \\hat E, \\qquad
      \\hat E = (E + E^\\top)/2,\\ E_{ij} \\sim N(0, 1),

  on the standardised points of the whole data set (training and test, as in chen2008's chapter), with
  :math:`\\gamma = 1/d` fixed and the noise level :math:`\\xi` of the condition; the unperturbed Gaussian kernel
  :math:`K` is the clean kernel;
* ``sigmoid`` -- the sigmoid similarity :math:`K_0(x, x') = \\tanh(a\\,x^\\top x' + c)` with :math:`a = 1/d` and
  :math:`c = -1` (:data:`SIGMOID`), indefinite for these values; it has no clean kernel. (Supported by
  :func:`observed_kernel`; not in the paper-scale sweep, whose CPU time the perturbed kernels fill.)

The methods, each with its hyper-parameters chosen by 3-fold cross-validation on the training part over a grid of
sixteen candidates (:data:`GRIDS`; ties go to the middle of the tied candidates in the grid's order):

* ``clip``, ``flip``, ``shift`` -- the soft-margin SVM (LIBSVM's SMO, :func:`robustpapers.core.svm_dual`) on the
  training kernel made positive semidefinite: negative eigenvalues set to 0 (:func:`robustpapers.core.psd_clip`,
  chen2008's "Denoise"), replaced by their absolute values (:func:`~robustpapers.core.psd_flip`), or the
  diagonal raised by :math:`|\\lambda_{\\min}|` (:func:`~robustpapers.core.psd_shift`); C validated;
* ``indefinite`` -- chen2008's Indefinite SVM, eq. (2), solved by APG-FW
  (:func:`robustpapers.chen2008.indefinite_svm_apg`, the certified solver of the chapter's Table 1); C and
  :math:`\\rho` validated together.

**Test-time rule** (chen2008's chapter, :class:`robustpapers.chen2008.IndefiniteSVC`): every method predicts
with the rows of the observed similarity between a test point and the training points,
:math:`f(x) = \\sum_i y_i\\alpha_i K_0(x, x_i) + b`, its own :math:`\\alpha` and :math:`b`; the test rows are not
transformed (for ``shift`` this is exact: the shift changes only the training diagonal).

The measures: test accuracy with the indefinite test rows :math:`K_0(x, x_i)`, and, for the perturbed Gaussian
kernel, with the clean rows :math:`K(x, x_i)`; the wall time of the final fit. Certificates: a fit is certified
when its duality gap is at most :data:`TOL` times C times the number of its training points -- for APG-FW the
Frank-Wolfe gap, for an SVM on a PSD kernel the primal minus the dual objective on that kernel (:func:`svm_gap`).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...chen2008 import indefinite_svm_apg, perturbed_gaussian_kernel
from ...core import check_kernel, psd_clip, psd_flip, psd_shift, rbf_kernel, svm_dual
from .. import artefact
from ..engine import derive_seed, grid
from ..ledger import COMPARISON, Claim, paired
from ._common import DATASET_NAMES, DATASETS, paired_vs, timed_fit, validate
from ._common import accuracy_tables, block_ranks, draw_vs_time, median_seconds, tally, validation_table
from ._common import split as split_data

__all__ = ["PAPER", "LABEL", "EXPERIMENT", "VERSION", "TASK", "SETTINGS", "METHODS", "BASELINES", "GRIDS", "TOL",
           "SIGMOID", "tasks", "observed_kernel", "svm_gap", "indefinite_kernels_task", "records",
           "numbers", "draw", "claims"]

PAPER = "compare"
LABEL = "Indefinite kernels"
EXPERIMENT = "indefinite_kernels"
VERSION = 1
LONG = True

#: Certificate of every fit: its duality gap at most TOL * C * n (n training points of the fit). Both problems'
#: objectives are sums over the n points with multipliers at most C, so this asks for the same accuracy per point
#: and unit of C at every C and n (chen2008's chapter stops APG-FW at the absolute gap 1e-5 with C = 1 fixed;
#: LIBSVM keeps its kernel in single precision, which leaves gaps of about 1.3e-7 C n at large C).
TOL = 1e-6
#: Gradient steps allowed to APG-FW (the certified fits of the grid take at most a few hundred).
APG_MAX_ITER = 5000
#: The sigmoid similarity tanh(a x'x' + c): a = SIGMOID["a_times_d"] / d, c = SIGMOID["c"].
SIGMOID = dict(a_times_d=1.0, c=-1.0)

#: The methods: how the book names them, whose they are, the algorithm that runs, the validated parameters.
METHODS = {
    "clip": dict(name="Clip", paper="chen2008, its Denoise", algorithm="SVM on psd_clip(K0), LIBSVM SMO", hyper="C"),
    "flip": dict(name="Flip", paper="chen2008", algorithm="SVM on psd_flip(K0), LIBSVM SMO", hyper="C"),
    "shift": dict(name="Shift", paper="chen2008", algorithm="SVM on psd_shift(K0), LIBSVM SMO", hyper="C"),
    "indefinite": dict(name="Indefinite SVM", paper="chen2008", algorithm="eq. (2), APG-FW to its duality gap",
                       hyper="C, rho"),
}
#: The methods the Indefinite SVM is compared with (chen2008's claim: it beats each of them).
BASELINES = ("clip", "flip", "shift")
_TRANSFORMS = {"clip": psd_clip, "flip": psd_flip, "shift": psd_shift}
_REPAIRED = {"clip": "clipped", "flip": "flipped", "shift": "shifted"}


def _grids(c_svm, c_indef, rhos):
    svm = [dict(C=float(c)) for c in c_svm]
    return {"clip": svm, "flip": svm, "shift": svm,
            "indefinite": [dict(C=float(c), rho=float(r)) for c in c_indef for r in rhos]}


#: The validation grids, sixteen candidates for every method: C = 2^-5..2^10 for the SVMs on the repaired kernels;
#: four C (2^-5, 2^-1, 2^3, 2^7) times four rho (chen2008's Table 1 grid 0.1, 1, 10, 100) for the Indefinite SVM.
GRIDS = _grids([2.0 ** k for k in range(-5, 11)], [2.0 ** -5, 2.0 ** -1, 2.0 ** 3, 2.0 ** 7], [0.1, 1.0, 10.0, 100.0])
_QUICK_GRIDS = _grids([0.1, 1.0, 10.0, 100.0], [1.0, 10.0], [1.0, 10.0])
#: Digits 3 vs 5 kept per split at paper scale (a stratified subset): the Indefinite SVM's validation on the 1,000
#: digits would take about as long as the other five data sets together.
MNIST_N = 300
#: Data sets of :data:`._common.DATASETS` left out at paper scale (none: all six fit once the digits are subsampled).
DROPPED = ()

SETTINGS = {
    # CI: two small data sets, 80 points, three splits, one condition, four candidates per method
    "quick": dict(datasets=["sonar", "heart"], n_splits=3, conditions=["gauss-0.5"], max_n={"sonar": 80, "heart": 80},
                  grids=_QUICK_GRIDS),
    # the comparison: six data sets (the digits subsampled to MNIST_N), ten splits, two noise levels, sixteen
    # candidates per method
    "paper": dict(datasets=[d for d in DATASETS if d not in DROPPED], n_splits=10, conditions=["gauss-0.1", "gauss-0.5"],
                  max_n={"mnist35": MNIST_N}, grids=GRIDS),
}


def tasks(scale="paper", seed=0):
    """One task per (data set, split, condition, method); splits are seeds ``seed, seed + 1, ...``."""
    if scale not in SETTINGS:
        raise ValueError(f"scale must be one of {sorted(SETTINGS)}, got {scale!r}")
    s = SETTINGS[scale]
    return [dict(t, max_n=s["max_n"].get(t["dataset"]), grid=list(s["grids"][t["method"]]))
            for t in grid(dataset=s["datasets"], split=list(range(seed, seed + s["n_splits"])),
                          condition=s["conditions"], method=list(METHODS))]


def observed_kernel(X, condition, seed):
    """The similarity the learner observes on all points of ``X``, and the clean kernel (None for the sigmoid).

    Parameters
    ----------
    X : array (n, d), standardised points.
    condition : str
        ``"gauss-<xi>"`` (chen2008 Sec. 6.1's perturbed Gaussian kernel, gamma = 1 / d, noise level xi) or
        ``"sigmoid"`` (tanh(x'x' / d - 1)).
    seed : int
        Seeds the perturbation.

    Returns
    -------
    K0, K : arrays (n, n) or None
    """
    d = X.shape[1]
    if condition == "sigmoid":
        return np.tanh(SIGMOID["a_times_d"] / d * (X @ X.T) + SIGMOID["c"]), None
    if isinstance(condition, str) and condition.startswith("gauss-"):
        try:
            xi = float(condition[len("gauss-"):])
        except ValueError:
            raise ValueError(f"condition 'gauss-<xi>' needs a number xi, got {condition!r}") from None
        return perturbed_gaussian_kernel(X, 1.0 / d, xi, random_state=seed), rbf_kernel(X, gamma=1.0 / d)
    raise ValueError(f"condition must be 'gauss-<xi>' or 'sigmoid', got {condition!r}")


def svm_gap(K, y, alpha, b, C):
    """The duality gap of the soft-margin SVM on a PSD kernel at (alpha, b).

    .. math::

        P - D = \\tfrac12 v^\\top K v + C\\sum_i \\max(0, 1 - y_i((Kv)_i + b))
                - \\bigl(e^\\top\\alpha - \\tfrac12 v^\\top K v\\bigr), \\qquad v = Y\\alpha,

    non-negative for a feasible alpha, zero at the optimum (bental2012 eq. (2) and its primal).
    """
    v = y * alpha
    Kv = K @ v
    quad = float(v @ Kv)
    primal = 0.5 * quad + C * float(np.maximum(0.0, 1.0 - y * (Kv + b)).sum())
    dual = float(alpha.sum()) - 0.5 * quad
    return primal - dual, dual


def _tolerance(C, n):
    """The largest duality gap a certified fit may leave (:data:`TOL` per point and unit of C)."""
    return TOL * C * n


def _fitter(method, K0):
    """``fit(idx, y, candidate) -> (model, certified)`` on the training rows ``idx`` of ``K0``; a model is
    (idx, y * alpha, b, duality gap). The repaired kernel of a set of rows is made once and reused over the grid of C."""
    cache = {}

    if method == "indefinite":
        def fit(idx, y, cand):
            tol = _tolerance(cand["C"], y.size)
            res = indefinite_svm_apg(K0[np.ix_(idx, idx)], y, cand["C"], cand["rho"], tol=tol, max_iter=APG_MAX_ITER)
            return (idx, res.alpha * y, float(res.b), float(res.gap)), bool(res.gap <= tol)
        return fit

    transform = _TRANSFORMS[method]

    def fit(idx, y, cand):
        key = idx.tobytes()
        if key not in cache:
            cache.clear()  # one set of rows at a time: the folds, then the whole training part
            cache[key] = transform(K0[np.ix_(idx, idx)])
        K = cache[key]
        sol = svm_dual(K, y, cand["C"])
        gap, _ = svm_gap(K, y, sol.alpha, sol.b, cand["C"])
        return (idx, sol.alpha * y, sol.b, gap), bool(gap <= _tolerance(cand["C"], y.size))
    return fit


def _scorer(K):
    """``score(model, idx, y)``: accuracy of sign(sum_i y_i alpha_i K(x, x_i) + b) on the rows ``idx``."""
    def score(model, idx, y):
        tr, coef, b, _ = model
        f = K[np.ix_(idx, tr)] @ coef + b
        return float(np.mean(np.where(f >= 0, 1.0, -1.0) == y))
    return score


def indefinite_kernels_task(dataset, split, condition, method, max_n, grid):
    """One method on one split under one condition: validated, refitted on the training part, tested."""
    X, y, tr, te = split_data(dataset, split, max_n)
    K0, K = observed_kernel(X, condition, derive_seed(split, dataset, condition, "kernel"))
    fit = _fitter(method, K0)
    score = _scorer(K0)
    val = validate(fit, score, grid, tr, y[tr], seed=derive_seed(split, dataset, "folds"))
    chosen = grid[val["index"]]
    model, ok, seconds = timed_fit(fit, tr, y[tr], chosen)
    out = dict(chosen=chosen, val_scores=val["scores"], n_val_fits=val["n_fits"], n_val_certified=val["n_certified"],
               certified=ok, gap=model[3], seconds=seconds, indef_acc=100 * score(model, te, y[te]),
               clean_acc=None if K is None else 100 * _scorer(K)(model, te, y[te]), n_train=int(tr.size),
               n_test=int(te.size), d=int(X.shape[1]))
    if method == "clip":  # the spectrum of the training part's similarity, once per (split, condition)
        w = np.linalg.eigvalsh(check_kernel(K0[np.ix_(tr, tr)], symmetric=True))
        out.update(lambda_min=float(w[0]), lambda_max=float(w[-1]), n_neg=int(np.sum(w < 0)))
    return out


TASK = indefinite_kernels_task


def records(root=None, scale="paper", seed=0):
    return artefact.load(__name__, root, scale, seed)


_COLS = ["dataset", "split", "condition", "method", "max_n", "n_test", "indef_acc", "clean_acc", "seconds", "certified",
         "gap", "chosen", "n_val_fits", "n_val_certified", "lambda_min", "lambda_max", "n_neg"]


def _frame(records):
    rows = [dict(r["params"], **r["result"]) for r in records if r is not None]
    df = pd.DataFrame(rows, columns=_COLS) if rows else pd.DataFrame(columns=_COLS)
    df["clean_acc"] = pd.to_numeric(df["clean_acc"], errors="coerce")
    return df


def condition_name(z):
    """How the book words a condition."""
    if z == "sigmoid":
        return "sigmoid similarity"
    return f"perturbed Gaussian kernel, xi = {z[len('gauss-'):]}"



def _paired(diffs, certified, **kw):
    """The ledger's paired rule; a mean within float residue of 0 (accuracies are multiples of 100 / n_test, whose
    differences need not cancel exactly in floating point) is reported as 0."""
    r = paired(np.asarray(diffs, float), certified=certified, **kw)
    if r["our_value"] is not None and abs(r["our_value"]) < 1e-9:
        r["our_value"] = 0.0
    return r


def _pairs(g, measure="indef_acc"):
    """Per baseline: the paired comparison of the Indefinite SVM with it on ``measure`` over the splits of ``g``."""
    wide = g.pivot_table(index="split", columns="method", values=measure, aggfunc="first")
    cert = (g.pivot_table(index="split", columns="method", values="certified", aggfunc="first")
            .reindex(index=wide.index).fillna(False).astype(bool))
    out = {}
    for m in BASELINES:
        if m in wide and "indefinite" in wide:
            out[m] = paired_vs(wide["indefinite"], wide[m], certified=(cert["indefinite"] & cert[m]).to_numpy())
    return out


def numbers(records):
    """The tables of the comparison.

    Returns
    -------
    dict
        ``accuracy[measure][condition]`` a DataFrame (data sets x methods, "mean [95 % interval]") for the measures
        ``"indef_acc"`` (indefinite test rows) and ``"clean_acc"`` (clean test rows; perturbed Gaussian kernel
        only); ``vs_svm[condition]`` the paired differences of the Indefinite SVM (``method``) to each of clip, flip
        and shift (``baseline``; mean ``diff``, ``interval``, certified ``pairs``, ``result`` "better" / "worse" /
        "no separation" by the ledger's rule); ``ranks`` the average ranks,
        Friedman p-value and Nemenyi critical difference over (data set, condition) blocks on accuracy with the
        indefinite rows; ``tally`` per condition and baseline the count of data sets where the Indefinite SVM is
        better, worse or not separated; ``spectrum`` per data set and condition the mean smallest and largest
        eigenvalue and count of negative eigenvalues of the training similarity; ``seconds`` the median
        final-fit time per method and data set; ``validation`` the validation fits and how many met their
        certificate; ``n_runs``, ``n_uncertified`` (final fits that missed their certificate, excluded) and
        ``n_missing``.
    """
    df = _frame(records)
    out = dict(accuracy={}, vs_svm={}, n_runs=int(len(df)), n_missing=artefact.missing(records))
    out["n_uncertified"] = int((~df["certified"].astype(bool)).sum()) if len(df) else 0
    ok = df[df["certified"].astype(bool)] if len(df) else df
    names = {k: v["name"] for k, v in METHODS.items()}
    out["accuracy"] = accuracy_tables(ok, "condition", ("indef_acc", "clean_acc"), METHODS, names, skip_empty=True)
    for z, part in df.groupby("condition"):
        rows = []
        for d, g in part.groupby("dataset"):
            for m, r in _pairs(g).items():
                rows.append(dict(dataset=DATASET_NAMES[d], method=names["indefinite"], baseline=names[m],
                                 diff=r["our_value"], interval=r["interval"], pairs=r["n_certified"],
                                 result=r["separation"]))
        out["vs_svm"][z] = pd.DataFrame(rows, columns=["dataset", "method", "baseline", "diff", "interval", "pairs",
                                                       "result"])
    out["tally"] = tally(out["vs_svm"], ["condition", "against", "Indefinite SVM better", "no separation", "Indefinite SVM worse", "data sets"], by="baseline")
    sp = df[df["method"] == "clip"] if len(df) else df
    out["spectrum"] = (sp.groupby(["condition", "dataset"])[["lambda_min", "lambda_max", "n_neg"]].mean()
                       .rename(index=DATASET_NAMES, level="dataset")
                       .rename(columns={"lambda_min": "λmin", "lambda_max": "λmax", "n_neg": "negative eigenvalues"})
                       if len(sp) else pd.DataFrame())
    out["validation"] = validation_table(df, names)
    if len(ok):
        ranks = block_ranks(ok, "condition", "indef_acc", METHODS, names)
        if ranks is not None:
            out["ranks"] = ranks
        out["seconds"] = median_seconds(ok, names, order=[m for m in METHODS if m in set(ok["method"])])
    return out


def draw(records):
    """Accuracy with the indefinite test rows against final-fit time: one point per (method, data set), mean over
    splits and conditions."""
    return draw_vs_time(_frame(records), measure="indef_acc", methods=METHODS,
                        title="Indefinite similarities: test accuracy vs. training time",
                        ylabel="test accuracy with the observed rows (%)")


def claims(records):
    """chen2008's claim on this model, judged per baseline, data set and condition: "the Indefinite SVM is more
    accurate than the SVM on the clipped (flipped, shifted) kernel", with the indefinite test rows.

    Paired over the splits with the ledger's rule (:func:`robustpapers.reproduce.ledger.paired`, ten certified
    pairs needed; a pair counts when both final fits met their certificate): ``reproduced`` when the interval of
    the mean accuracy gain lies above 0, ``contradicted`` below. Ids
    ``f"{EXPERIMENT}-indefinite-vs-{baseline}-{dataset}-{condition}"``, ``paper = "compare"``.
    """
    df = _frame(records)
    out = []
    if not len(df):
        return out
    spec = METHODS["indefinite"]
    for (z, d), g in df.groupby(["condition", "dataset"], sort=True):
        wide = g.pivot_table(index="split", columns="method", values="indef_acc", aggfunc="first")
        cert = (g.pivot_table(index="split", columns="method", values="certified", aggfunc="first")
                .reindex(index=wide.index).fillna(False).astype(bool))
        for m in BASELINES:
            if m not in wide or "indefinite" not in wide:
                continue
            r = _paired(wide["indefinite"] - wide[m], (cert["indefinite"] & cert[m]).to_numpy(), runs_per_pair=2)
            out.append(Claim(paper=COMPARISON, id=f"{EXPERIMENT}-indefinite-vs-{m}-{d}-{z}", where=LABEL,
                             statement=f"{spec['name']} ({spec['paper']}) is more accurate than the SVM on the "
                                       f"{_REPAIRED[m]} kernel with validated hyper-parameters on the observed "
                                       "test rows",
                             artefact=LABEL, condition=f"{DATASET_NAMES.get(d, d)}, {condition_name(z)}",
                             paper_value="> 0", algorithm=spec["algorithm"],
                             note="accuracy gain in points over the splits, indefinite test rows", **r))
    return out
