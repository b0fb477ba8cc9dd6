"""Gaussian noise on the inputs, at training and at test: the linear methods of ginodi2010 and shivaswamy2006
against the soft-margin SVM.

The uncertainty model. A data set's standardised points :math:`x_i` are observed as
:math:`\\tilde x_i = x_i + s\\,\\varepsilon_i`, :math:`\\varepsilon_i \\sim N(0, I)`, at training and at test,
with the noise level :math:`s` known to the learner (the setting of ginodi2010 ch. 2 and of shivaswamy2006's
Gaussian case, eq. (12), with :math:`\\Sigma_i = s^2 I`). Every method sees the same noisy training part.

The methods, each with its hyper-parameters chosen by 3-fold cross-validation on the noisy training part over a
grid of the same size, sixteen candidates (:data:`GRIDS`; ties go to the middle of the tied candidates in the
grid's order):

* ``svm`` -- the soft-margin linear SVM on the noisy points, solved by Clarabel (shivaswamy2006 eq. (10) with
  :math:`\\gamma = 0`, so that the robust cone is the only difference from the two SOCPs); C validated.
* ``guru`` -- ginodi2010's GURU (the expected hinge loss under the noise, thesis eq. (2.22)) solved by L-BFGS
  to its gradient certificate (:func:`robustpapers.ginodi2010.guru_lbfgs`); GURU has no C, its only
  hyper-parameter is the noise scale :math:`\\sigma`, validated over multiples of the true :math:`s`.
* ``socp_gauss`` and ``socp_cheb`` -- shivaswamy2006 eq. (10) with :math:`\\Sigma_i = s^2 I` and the radius of
  eq. (12) (Gaussian) or eq. (11) (Chebyshev) at the confidence :math:`\\kappa`; C and :math:`\\kappa`
  validated together.

The measures: test accuracy on the clean test points and on noisy ones (the mean over :data:`N_DRAWS` draws
of the test noise), and the wall time of the final fit. A fit meets its certificate when Clarabel reports
"optimal" or L-BFGS's gradient norm meets its tolerance.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..engine import derive_seed
from ...ginodi2010 import guru_lbfgs
from ...shivaswamy2006 import gamma_chebyshev, gamma_gaussian, robust_svm
from .. import artefact
from ..engine import grid
from ._common import DATASET_NAMES, DATASETS, baseline_claims, timed_fit
from ._common import accuracy_tables, block_ranks, draw_vs_time, median_seconds, paired_rows, tally, validate
from ._common import validation_table
from ._common import split as split_data

__all__ = ["PAPER", "LABEL", "EXPERIMENT", "VERSION", "TASK", "SETTINGS", "METHODS", "GRIDS", "tasks",
           "input_noise_task", "records", "numbers", "draw", "claims"]

PAPER = "compare"
LABEL = "Input noise"
EXPERIMENT = "input_noise"
VERSION = 2
LONG = True

#: Test-noise draws per split.
N_DRAWS = 10

#: The methods: how the book names them, whose they are, the algorithm that runs, the validated parameters.
METHODS = {
    "svm": dict(name="SVM", paper="(baseline)", algorithm="linear soft-margin SVM, Clarabel", hyper="C"),
    "guru": dict(name="GURU", paper="ginodi2010", algorithm="GURU (2.22), L-BFGS to its gradient certificate",
                 hyper="sigma / s"),
    "socp_gauss": dict(name="Robust SOCP (Gaussian)", paper="shivaswamy2006",
                       algorithm="eq. (10) with eq. (12) radius, Clarabel", hyper="C, kappa"),
    "socp_cheb": dict(name="Robust SOCP (Chebyshev)", paper="shivaswamy2006",
                      algorithm="eq. (10) with eq. (11) radius, Clarabel", hyper="C, kappa"),
}


def _grids(c_svm, sigma_factors, c_socp, kappas):
    socp = [dict(C=float(c), kappa=float(k)) for c in c_socp for k in kappas]
    return {"svm": [dict(C=float(c)) for c in c_svm], "guru": [dict(sigma_factor=float(f)) for f in sigma_factors],
            "socp_gauss": socp, "socp_cheb": socp}


#: The validation grids, sixteen candidates for every method: C = 2^-5..2^10 for the SVM; sigma / s = 2^-3..2^4.5
#: in half powers for GURU; four C times four kappa for the SOCPs (kappa, the probability that a noisy training
#: point lies on the correct side of the margin, sets the radius: a fixed kappa = 0.9 shrinks w to 0 at s = 1 on
#: most data sets, so it is validated with C).
GRIDS = _grids([2.0 ** k for k in range(-5, 11)], [2.0 ** (k / 2) for k in range(-6, 10)],
               [2.0 ** -5, 2.0 ** -1, 2.0 ** 3, 2.0 ** 7], [0.6, 0.7, 0.8, 0.9])
_QUICK_GRIDS = _grids([0.1, 1.0, 10.0, 100.0], [0.5, 1.0, 2.0, 4.0], [1.0, 10.0], [0.6, 0.9])

SETTINGS = {
    # CI: two small data sets, 80 points, three splits, one noise level, four candidates per method (a minute)
    "quick": dict(datasets=["sonar", "heart"], n_splits=3, noise=[1.0], max_n=80, grids=_QUICK_GRIDS),
    # the comparison: six data sets, ten splits, two noise levels, sixteen candidates per method
    "paper": dict(datasets=list(DATASETS), n_splits=10, noise=[0.5, 1.0], max_n=None, grids=GRIDS),
}


def tasks(scale="paper", seed=0):
    """One task per (data set, split, noise level, method); splits are seeds ``seed, seed + 1, ...``."""
    s = SETTINGS[scale]
    return [dict(t, max_n=s["max_n"], grid=list(s["grids"][t["method"]]))
            for t in grid(dataset=s["datasets"], split=list(range(seed, seed + s["n_splits"])), noise=s["noise"],
                          method=list(METHODS))]


def _fitter(method, noise, d):
    """``fit(X, y, candidate) -> (model, certified)`` for one method; a model is (w, b), a candidate a dict of
    the method's validated parameters (``C``, ``kappa``, ``sigma_factor``)."""
    if method == "guru":
        def fit(X, y, cand):
            res = guru_lbfgs(X, y, sigma=cand["sigma_factor"] * noise, fit_intercept=True)
            return (res.w, res.b), res.success
        return fit
    radius = {"svm": lambda k: 0.0, "socp_gauss": gamma_gaussian, "socp_cheb": gamma_chebyshev}[method]
    factor = noise * np.eye(d)  # one shared object: one cone for every row (Sigma_i = s^2 I)

    def fit(X, y, cand):
        gamma = radius(cand.get("kappa", 0.5))
        res = robust_svm(X, y, factors=None if gamma == 0 else [factor] * len(y), gamma=gamma, C=cand["C"])
        return (res.w, res.b), res.success
    return fit


def _accuracy(model, X, y):
    w, b = model
    return float(np.mean(np.where(X @ w + b >= 0, 1.0, -1.0) == y))


def input_noise_task(dataset, split, noise, method, max_n, grid):
    """One method on one split at one noise level: validated, refitted on the noisy training part, tested."""
    X, y, tr, te = split_data(dataset, split, max_n)
    rng = np.random.default_rng(derive_seed(split, dataset, noise, "train"))
    Xtr = X[tr] + noise * rng.standard_normal((tr.size, X.shape[1]))  # the same noisy part for every method
    fit = _fitter(method, noise, X.shape[1])
    val = validate(fit, _accuracy, grid, Xtr, y[tr], seed=derive_seed(split, dataset, "folds"))
    chosen = grid[val["index"]]
    model, ok, seconds = timed_fit(fit, Xtr, y[tr], chosen)
    rng = np.random.default_rng(derive_seed(split, dataset, noise, "test"))
    noisy = [_accuracy(model, X[te] + noise * rng.standard_normal((te.size, X.shape[1])), y[te])
             for _ in range(N_DRAWS)]
    return dict(chosen=chosen, val_scores=val["scores"], n_val_fits=val["n_fits"], n_val_certified=val["n_certified"],
                certified=ok, seconds=seconds, clean_acc=100 * _accuracy(model, X[te], y[te]),
                noisy_acc=100 * float(np.mean(noisy)), n_train=int(tr.size), n_test=int(te.size), d=int(X.shape[1]))


TASK = input_noise_task


def records(root=None, scale="paper", seed=0):
    return artefact.load(__name__, root, scale, seed)


def _frame(records):
    rows = [dict(r["params"], **r["result"]) for r in records if r is not None]
    cols = ["dataset", "split", "noise", "method", "max_n", "clean_acc", "noisy_acc", "seconds", "certified", "chosen",
            "n_val_fits", "n_val_certified"]
    return pd.DataFrame(rows, columns=cols) if rows else pd.DataFrame(columns=cols)



def numbers(records):
    """The tables of the comparison.

    Returns
    -------
    dict
        ``accuracy[measure][noise]`` a DataFrame (data sets x methods, "mean [95 % interval]") for the measures
        ``"noisy_acc"`` and ``"clean_acc"``; ``vs_svm[noise]`` the paired differences to the SVM (mean, interval,
        "better" / "worse" / "no separation" by the ledger's rule); ``ranks`` the average ranks, Friedman p-value
        and Nemenyi critical difference over (data set, noise level) blocks on noisy accuracy; ``tally`` per method
        and noise level the count of data sets where it is better than the SVM, worse, or not separated;
        ``no_gain[noise]`` the data sets where no robust method is better than the SVM; ``one_class`` where a
        method predicts one class on every split; ``seconds`` the
        median final-fit time per method and data set; ``n_runs``, ``n_uncertified`` (final fits that missed
        their certificate, excluded) and ``n_missing``.
    """
    df = _frame(records)
    out = dict(accuracy={}, vs_svm={}, n_runs=int(len(df)), n_missing=artefact.missing(records))
    out["n_uncertified"] = int((~df["certified"].astype(bool)).sum()) if len(df) else 0
    ok = df[df["certified"].astype(bool)] if len(df) else df
    names = {k: v["name"] for k, v in METHODS.items()}
    out["accuracy"] = accuracy_tables(ok, "noise", ("noisy_acc", "clean_acc"), METHODS, names)
    for z, part in df.groupby("noise"):
        out["vs_svm"][z] = paired_rows(part, "noisy_acc", "svm", METHODS, names)
    out["tally"] = tally(out["vs_svm"], ["noise s", "method", "better than SVM", "no separation", "worse than SVM", "data sets"])
    out["no_gain"] = {z: sorted(set(tab["dataset"]) - set(tab.loc[tab["result"] == "better", "dataset"]))
                      for z, tab in out["vs_svm"].items() if len(tab)}
    out["one_class"] = _one_class(ok)
    out["validation"] = validation_table(df, names)
    if len(ok):
        ranks = block_ranks(ok, "noise", "noisy_acc", METHODS, names)
        if ranks is not None:
            out["ranks"] = ranks
        out["seconds"] = median_seconds(ok, names)
    return out


def _one_class(ok):
    """(method, noise, data set) where every certified split scored exactly the test share of the larger class on
    the noisy and the clean test points: the classifier predicts one class (w = 0)."""
    found = []
    for (m, z, d), g in ok.groupby(["method", "noise", "dataset"]):
        share = {}
        for k, n in zip(g["split"], g["max_n"]):
            _, y, _, te = split_data(d, int(k), None if pd.isna(n) else int(n))
            share[k] = 100 * max(np.mean(y[te] == 1), np.mean(y[te] == -1))
        same = all(abs(r["noisy_acc"] - share[r["split"]]) < 1e-9 and abs(r["clean_acc"] - share[r["split"]]) < 1e-9
                   for _, r in g.iterrows())
        if same and len(g):
            found.append(dict(method=METHODS[m]["name"], noise=z, dataset=DATASET_NAMES[d]))
    return pd.DataFrame(found, columns=["method", "noise", "dataset"])


def draw(records):
    """Accuracy under test noise against final-fit time: one point per (method, data set), mean over splits."""
    return draw_vs_time(_frame(records), measure="noisy_acc", methods=METHODS, condition="noise",
                        title=lambda z: f"Input noise s = {z:g}: accuracy on noisy test points vs. training time",
                        ylabel="test accuracy under noise (%)")


def condition_name(noise):
    """A noise level in words."""
    return f"noise s = {noise:g}"


def claims(records):
    """The papers' common claim on this model: each robust method is more accurate than the SVM on the noisy test
    points, per data set and noise level (:func:`._common.baseline_claims`)."""
    return baseline_claims(_frame(records), experiment=EXPERIMENT, label=LABEL, methods=METHODS, measure="noisy_acc",
                           condition="noise", condition_name=condition_name, on="noisy test points")
