r"""Noisy kernel entries: bental2012's robust SVM over an affine kernel set and bhadra2010's chance-constrained
SVM, both built from the same perturbed kernels, against the SVM on the mean kernel.

The uncertainty model. On a data set's standardised points (every data set subsampled to :data:`MAX_N` points,
stratified, before the 70/30 split) the clean kernel is the RBF kernel
:math:`K_{ij} = \exp(-g\|x_i - x_j\|^2)` with the width fixed by the median heuristic on the training part,
:math:`g = 1 / \mathrm{median}_{i<j \in \mathrm{train}}\|x_i - x_j\|^2`. The learner never sees :math:`K`: it
observes :math:`L` perturbed kernels on all points (training and test),

.. math::

    K_l = K + Z^l Z^{l\top},\qquad Z^l_{ij} = u^l_{ij}\,\xi^l_{ij},\quad
    u^l_{ij} \sim U(0, \rho\,|K_{ij}|),\quad \xi^l_{ij} \sim N(0, 1),\qquad l = 1, \dots, L,

the generator of bental2012 §7.1.1 (:func:`robustpapers.bental2012.make_uncertain_kernels`, Gaussian entries,
whose scale 0.05 is the level :math:`\rho = 0.05`; another level multiplies :math:`Z^l` by :math:`\rho / 0.05`).
Every :math:`K_l` is positive semidefinite. One seeded generation per (data set, split, level) gives the draws;
every method sees the same training blocks :math:`K_l[\mathrm{tr}, \mathrm{tr}]` and is tested on the same test
rows :math:`K_l[\mathrm{te}, \mathrm{tr}]`.

The methods, each validated by 3-fold cross-validation on the training part over a grid of sixteen candidates
(:data:`GRIDS`), on the perturbed held-out rows (mean accuracy over the draws):

* ``svm`` -- the SVM (bental2012 eq. (2)) on the mean kernel :math:`\bar K = \frac1L\sum_l K_l`, solved by
  :func:`robustpapers.bental2012.ussvm` with :math:`\kappa = 0` (LIBSVM and its duality-gap certificate, the same
  bias rule as the robust SVM); C validated.
* ``ussvm`` -- bental2012 eq. (12) over the affine set :math:`\{\bar K + \sum_l \eta_l K_l : \eta \ge 0,
  \|\eta\|_2 \le \kappa\}` built from the draws (as bental2012 §7.7 builds it from its resolution draws),
  :func:`robustpapers.bental2012.ussvm` (``method="auto"``: the alternating method, FSS and the SOCP as
  fallbacks, a certified saddle-point gap); C and :math:`\kappa` validated.
* ``rsvm`` -- bhadra2010 eq. (15) (bental2012 eq. (7)) with the mean kernel :math:`\bar K` and the support
  :math:`[\min_l K_l, \max_l K_l]` of each entry from the same draws, :math:`\beta` of bental2012 §7.1.2 /
  Theorem 1 and :math:`\kappa_{RSVM} = \sqrt{2\log(1/\epsilon)}`
  (:func:`robustpapers.reproduce.bental2012.rsvm_baseline.rsvm_on_kernel_set`), solved as bhadra2010's SOCP
  (Theorem 6) by Clarabel with :math:`\beta` replaced by its nearest PSD matrix (bhadra2010 §5.1, a conservative
  restriction); C and :math:`\epsilon` validated.

The measures of a final fit: accuracy on the clean test rows :math:`K[\mathrm{te}, \mathrm{tr}]`, on the
perturbed test rows (the mean over the :math:`L` draws), and bental2012 §6.2's NominalErr (rule (25) on
:math:`\bar K[\mathrm{te}, \mathrm{tr}]`), MajorityErr (27) and RobustErr (28) over :data:`R_ETA` kernels
:math:`\bar K + \sum_l \eta_l K_l` of the test rows with :math:`\eta` uniform in the set
:math:`\mathcal E(1)` of bental2012 §7.7 (the same :math:`\eta` draws for every method); the wall time of
the final fit. A fit meets its certificate when ``ussvm`` reports a relative saddle-point gap within its tolerance
or Clarabel reports "optimal".
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...bental2012 import evaluate_prediction_rules, make_uncertain_kernels, rsvm_beta_from_kernels, ussvm
from .. import artefact
from ..bental2012.rsvm_baseline import rsvm_on_kernel_set
from ..engine import derive_seed, grid
from ._common import DATASETS, baseline_claims, timed_fit
from ._common import accuracy_tables, block_ranks, draw_vs_time, median_seconds, paired_rows, tally, validate
from ._common import validation_table
from ._common import split as split_data

__all__ = ["PAPER", "LABEL", "EXPERIMENT", "VERSION", "TASK", "SETTINGS", "METHODS", "GRIDS", "MAX_N", "R_ETA",
           "KAPPA_EVAL", "FIRST_KAPPAS", "first_grid_choices", "rbf_width", "perturbed_kernels", "kernel_noise_task", "tasks", "records", "numbers", "draw",
           "claims"]

PAPER = "compare"
LABEL = "Kernel noise"
EXPERIMENT = "kernel_noise"
VERSION = 1
LONG = True

#: Points per data set (stratified subsample before the split): the SOCP of RSVM and the L n x n kernels.
MAX_N = 200
#: Draws of eta for MajorityErr and RobustErr (bental2012 §7.7: R = 100).
R_ETA = 100
#: The radius of the uncertainty set E(kappa) the prediction rules (26)-(28) sample from (bental2012 §7.7).
KAPPA_EVAL = 1.0
#: The scale of u_ij in make_uncertain_kernels (bental2012 §7.1.1).
_LIB_LEVEL = 0.05

#: The methods: how the book names them, whose they are, the algorithm that runs, the validated parameters.
METHODS = {
    "svm": dict(name="SVM (mean kernel)", paper="(baseline)",
                algorithm="SVM on the mean kernel: ussvm with kappa = 0 (LIBSVM + duality-gap certificate)",
                hyper="C"),
    "ussvm": dict(name="USSVM", paper="bental2012",
                  algorithm="eq. (12), ussvm(method='auto'): alternating method, certified saddle-point gap",
                  hyper="C, kappa"),
    "rsvm": dict(name="RSVM", paper="bhadra2010",
                 algorithm="eq. (15) with the support of the draws, SOCP (Theorem 6, PSD beta), Clarabel",
                 hyper="C, eps"),
}


def _grids(c_svm, c_rob, kappas, epss):
    return {"svm": [dict(C=float(c)) for c in c_svm],
            "ussvm": [dict(C=float(c), kappa=float(k)) for c in c_rob for k in kappas],
            "rsvm": [dict(C=float(c), eps=float(e)) for c in c_rob for e in epss]}


#: The validation grids, sixteen candidates for every method: C = 2^-5..2^10 for the SVM; four C times four kappa
#: (the radius of the set E(kappa)) for USSVM; the same four C times four eps (the chance constraint's level,
#: bental2012 §7.3's range 0.05..0.5) for RSVM. USSVM's first grid, kappa in {0.1, 0.3, 1, 3}, had its smallest
#: value chosen by the validation on almost every split (:func:`first_grid_choices` counts them): it was moved down
#: (:data:`FIRST_KAPPAS`).
GRIDS = _grids([2.0 ** k for k in range(-5, 11)], [2.0 ** -3, 1.0, 2.0 ** 3, 2.0 ** 6], [0.01, 0.03, 0.1, 0.3],
               [0.05, 0.1, 0.25, 0.5])
#: USSVM's first kappa grid (its runs are kept in the cache, under their own parameters).
FIRST_KAPPAS = (0.1, 0.3, 1.0, 3.0)
_QUICK_GRIDS = _grids([0.1, 1.0, 10.0, 100.0], [1.0, 10.0], [0.1, 1.0], [0.1, 0.5])

SETTINGS = {
    # CI: two small data sets, 80 points, three splits, one level, four candidates per method, L = 5 (a minute)
    "quick": dict(datasets=["sonar", "heart"], n_splits=3, level=[0.3], max_n=80, L=5, grids=_QUICK_GRIDS),
    # the comparison: six data sets of MAX_N points, ten splits, two levels, sixteen candidates, L = 20 draws
    "paper": dict(datasets=list(DATASETS), n_splits=10, level=[0.1, 0.3], max_n=MAX_N, L=20, grids=GRIDS),
}


def tasks(scale="paper", seed=0):
    """One task per (data set, split, level, method); splits are seeds ``seed, seed + 1, ...``."""
    s = SETTINGS[scale]
    return [dict(t, max_n=s["max_n"], L=s["L"], grid=list(s["grids"][t["method"]]))
            for t in grid(dataset=s["datasets"], split=list(range(seed, seed + s["n_splits"])), level=s["level"],
                          method=list(METHODS))]


def first_grid_choices(scale="paper", seed=0, root=None):
    """How USSVM's validation chose on its first kappa grid (:data:`FIRST_KAPPAS`): the cached final fits and the
    kappa each chose, counted (``{kappa: count}``), and how many tasks of that grid are not cached."""
    from ..engine import load_cached

    first = [dict(C=c["C"], kappa=float(k)) for c in GRIDS["ussvm"][::4] for k in FIRST_KAPPAS]
    found, missing = {}, 0
    for t in tasks(scale, seed):
        if t["method"] != "ussvm":
            continue
        rec = load_cached(TASK, dict(t, grid=first), PAPER, EXPERIMENT, VERSION, root)
        if rec is None:
            missing += 1
            continue
        k = float(rec["result"]["chosen"]["kappa"])
        found[k] = found.get(k, 0) + 1
    return dict(counts=dict(sorted(found.items())), n_runs=sum(found.values()), n_missing=missing)


def rbf_width(X):
    r"""The median heuristic :math:`g = 1/\mathrm{median}_{i<j}\|x_i - x_j\|^2` of the RBF kernel
    :math:`\exp(-g\|x - x'\|^2)`, from the points ``X`` (the training part).

    Examples
    --------
    >>> rbf_width(np.array([[0.0], [1.0], [3.0]]))
    0.25
    """
    from scipy.spatial.distance import pdist

    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[0] < 2:
        raise ValueError(f"X must hold at least two points as rows, got shape {X.shape}")
    med = float(np.median(pdist(X, "sqeuclidean")))
    if not med > 0:
        raise ValueError("the median squared distance between training points is 0: the width is undefined")
    return 1.0 / med


def perturbed_kernels(K, L, level, random_state=None):
    r"""The draws :math:`K_l = K + Z^lZ^{l\top}`, :math:`Z^l_{ij} = u_{ij}\xi_{ij}`,
    :math:`u_{ij} \sim U(0, \rho|K_{ij}|)`, :math:`\xi_{ij} \sim N(0, 1)` (bental2012 §7.1.1 at level :math:`\rho`).

    :func:`robustpapers.bental2012.make_uncertain_kernels` draws them at :math:`\rho = 0.05`; scaling
    :math:`Z^l` by :math:`\rho/0.05` (so :math:`Z^lZ^{l\top}` by its square) gives the same law at level
    :math:`\rho`.

    Returns
    -------
    ndarray (L, n, n), every slice symmetric positive semidefinite when K is.
    """
    if not (np.isfinite(level) and level > 0):
        raise ValueError(f"level must be a finite number > 0, got {level!r}")
    K = np.asarray(K, dtype=float)
    S = make_uncertain_kernels(K, L, "gaussian", random_state=random_state)
    S -= K[None]
    S *= (level / _LIB_LEVEL) ** 2
    S += K[None]
    return S


def _problem(dataset, split, level, max_n, L):
    """The split, the clean kernel and the L draws of one (data set, split, level)."""
    from sklearn.metrics.pairwise import rbf_kernel

    X, y, tr, te = split_data(dataset, split, max_n)
    g = rbf_width(X[tr])
    K = rbf_kernel(X, gamma=g)
    S = perturbed_kernels(K, L, level, random_state=derive_seed(split, dataset, level, "kernels"))
    return y, tr, te, K, S, g


def _fitter(method, S, beta=None):
    """``fit(idx, y, candidate) -> (model, certified)`` on the training rows ``idx`` (a column of indices into the
    draws ``S``); a model is ``(idx, alpha * y, b)``."""
    def block(idx):
        return S[:, idx[:, None], idx[None, :]]

    if method == "svm":
        def fit(idx, y, cand):
            idx = idx.ravel()
            B = block(idx)
            res = ussvm(B.mean(0), np.zeros((0, idx.size, idx.size)), y, cand["C"], 0.0)
            return (idx, y * res.alpha, float(res.b)), res.success
        return fit
    if method == "ussvm":
        def fit(idx, y, cand):
            idx = idx.ravel()
            B = block(idx)
            res = ussvm(B.mean(0), B, y, cand["C"], cand["kappa"])
            return (idx, y * res.alpha, float(res.b)), res.success
        return fit
    if method == "rsvm":
        if beta is None:
            raise ValueError("rsvm needs beta (rsvm_beta_from_kernels of the training draws)")
        def fit(idx, y, cand):
            idx = idx.ravel()
            B = block(idx)
            # beta is entrywise in (K_bar, min, max): a fold's beta is the block of the training part's
            sub = np.searchsorted(beta[0], idx)
            res = rsvm_on_kernel_set(B, y, cand["C"], cand["eps"], method="socp", beta_approx="psd",
                                     prepared=(B.mean(0), beta[1][np.ix_(sub, sub)]), sv_tol=1e-6)
            return (idx, y * res.alpha, float(res.b)), res.success
        return fit
    raise ValueError(f"method must be one of {list(METHODS)}, got {method!r}")


def _decisions(model, S, rows):
    """Decision values on the test rows ``rows`` of every draw: (L, m)."""
    idx, u, b = model
    return S[:, rows[:, None], idx[None, :]] @ u + b


def _perturbed_accuracy(S):
    def score(model, rows, y):
        F = _decisions(model, S, rows.ravel())
        return float(np.mean(np.where(F >= 0, 1.0, -1.0) == y[None, :]))
    return score


def kernel_noise_task(dataset, split, level, method, max_n, L, grid):
    """One method on one split at one noise level: validated, refitted on the training draws, tested."""
    y, tr, te, K, S, g = _problem(dataset, split, level, max_n, L)
    beta = None
    if method == "rsvm":
        Kb, bt = rsvm_beta_from_kernels(S[:, tr[:, None], tr[None, :]])
        beta = (tr, bt)
    fit = _fitter(method, S, beta)
    score = _perturbed_accuracy(S)
    val = validate(fit, score, grid, tr[:, None], y[tr], seed=derive_seed(split, dataset, "folds"))
    chosen = grid[val["index"]]
    model, ok, seconds = timed_fit(fit, tr[:, None], y[tr], chosen)
    idx, u, b = model
    clean = np.where(K[np.ix_(te, idx)] @ u + b >= 0, 1.0, -1.0)
    noisy = score(model, te, y[te])
    # bental2012 §6.2: the nominal rule on the mean kernel's test rows, and R kernels of E(KAPPA_EVAL)
    stack = np.concatenate([S[:, te[:, None], idx[None, :]].mean(0)[None], S[:, te[:, None], idx[None, :]]])
    err = evaluate_prediction_rules(stack, y[te], y[idx], u * y[idx], b, KAPPA_EVAL, R=R_ETA,
                                    random_state=derive_seed(split, dataset, level, "eta"))
    return dict(chosen=chosen, val_scores=val["scores"], n_val_fits=val["n_fits"], n_val_certified=val["n_certified"],
                certified=ok, seconds=seconds, clean_acc=100 * float(np.mean(clean == y[te])),
                noisy_acc=100 * noisy, nominal_err=100 * err["NE"], majority_err=100 * err["ME"],
                robust_err=100 * err["RE"], width=g, n_train=int(tr.size), n_test=int(te.size))


TASK = kernel_noise_task


def records(root=None, scale="paper", seed=0):
    return artefact.load(__name__, root, scale, seed)


_MEASURES = ("noisy_acc", "clean_acc", "nominal_err", "majority_err", "robust_err")


def _frame(records):
    rows = [dict(r["params"], **r["result"]) for r in records if r is not None]
    cols = ["dataset", "split", "level", "method", "max_n", *_MEASURES, "seconds", "certified", "chosen",
            "n_val_fits", "n_val_certified"]
    return pd.DataFrame(rows, columns=cols) if rows else pd.DataFrame(columns=cols)



def numbers(records):
    """The tables of the comparison.

    Returns
    -------
    dict
        ``accuracy[measure][level]`` a DataFrame (data sets x methods, "mean [95 % interval]") for
        ``"noisy_acc"``, ``"clean_acc"`` (accuracies, %) and ``"nominal_err"``, ``"majority_err"``,
        ``"robust_err"`` (bental2012's errors, %); ``vs_svm[level]`` the paired differences to the SVM on perturbed
        accuracy (mean, interval, "better" / "worse" / "no separation" by the ledger's rule); ``ranks`` the average
        ranks, Friedman p-value and Nemenyi critical difference over (data set, level) blocks on perturbed
        accuracy; ``tally`` per method and level the count of data sets where it is better than the SVM, worse, or
        not separated; ``no_gain[level]`` the data sets where no robust method is better; ``seconds`` the median
        final-fit time per method and data set; ``chosen[method][parameter]`` how often the validation chose each
        value (``{value: count}``); ``validation`` the validation fits and how many met their certificate; ``n_runs``, ``n_uncertified`` (final fits that missed their certificate, excluded) and
        ``n_missing``.
    """
    df = _frame(records)
    out = dict(accuracy={}, vs_svm={}, n_runs=int(len(df)), n_missing=artefact.missing(records))
    out["n_uncertified"] = int((~df["certified"].astype(bool)).sum()) if len(df) else 0
    ok = df[df["certified"].astype(bool)] if len(df) else df
    names = {k: v["name"] for k, v in METHODS.items()}
    out["accuracy"] = accuracy_tables(ok, "level", _MEASURES, METHODS, names)
    for z, part in df.groupby("level"):
        out["vs_svm"][z] = paired_rows(part, "noisy_acc", "svm", METHODS, names)
    out["tally"] = tally(out["vs_svm"], ["level rho", "method", "better than SVM", "no separation", "worse than SVM", "data sets"])
    out["no_gain"] = {z: sorted(set(tab["dataset"]) - set(tab.loc[tab["result"] == "better", "dataset"]))
                      for z, tab in out["vs_svm"].items() if len(tab)}
    out["chosen"] = {m: {k: {float(v): int(n) for v, n in sorted(
        pd.Series([c[k] for c in g["chosen"]]).value_counts().items())} for k in g["chosen"].iloc[0]}
        for m, g in df.groupby("method")} if len(df) else {}
    out["validation"] = validation_table(df, names)
    if len(ok):
        ranks = block_ranks(ok, "level", "noisy_acc", METHODS, names)
        if ranks is not None:
            out["ranks"] = ranks
        out["seconds"] = median_seconds(ok, names)
    return out


def draw(records):
    """Accuracy on perturbed test rows against final-fit time: one point per (method, data set), mean over splits,
    at the largest noise level."""
    return draw_vs_time(_frame(records), measure="noisy_acc", methods=METHODS, condition="level",
                        title=lambda z: f"Kernel noise rho = {z:g}: accuracy on perturbed test rows vs. training time",
                        ylabel="test accuracy under kernel noise (%)")


def condition_name(level):
    """A noise level in words."""
    return f"kernel noise rho = {level:g}"


def claims(records):
    """The papers' common claim on this model: each robust method is more accurate than the SVM on the perturbed
    test rows, per data set and level (:func:`._common.baseline_claims`)."""
    return baseline_claims(_frame(records), experiment=EXPERIMENT, label=LABEL, methods=METHODS, measure="noisy_acc",
                           condition="level", condition_name=condition_name,
                           on="perturbed test kernel rows")
