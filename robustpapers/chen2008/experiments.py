"""Experiment task functions of the chen2008 chapter (module-level, picklable, JSON-able results).

Every task builds the perturbed kernel of Sec. 6.1 on the whole data set (the Gaussian width
chosen by cross-validation of the plain Gaussian SVM on the training part), splits it 4:1 and
trains on the training block; test rows are the rows of the same perturbed kernel K0 (the
test-time rule of :class:`~robustpapers.chen2008.IndefiniteSVC`, the same for every method).
"""
from __future__ import annotations

import time
import warnings

import numpy as np
from sklearn.model_selection import StratifiedKFold, train_test_split
from sklearn.svm import SVC

from ..core import ConvergenceWarning, rbf_kernel, svm_bias
from ..datasets import binary_subset, load_dataset
from .estimators import METHODS, IndefiniteSVC
from .kernels import perturbed_gaussian_kernel, spectrum_stats
from .siqclp import indefinite_svm, most_violated_kernel

__all__ = ["load_binary", "choose_gamma", "choose_rho", "convergence_task", "table1_task", "xi_sweep_task"]

#: Table 1's data sets and our USPS-3-vs-5 substitute (MNIST digits 3 vs 5, 16x16).
TABLE1_DATASETS = ("sonar", "ionosphere", "wisconsin", "heart", "mnist35", "pima")


def load_binary(name, max_n=None, seed=0):
    """Features scaled to [0, 1] per column (as LIBSVM's scaled sets) and labels in {-1, +1}.

    ``"mnist35"`` is the USPS-3-vs-5 substitute: the MNIST 3s and 5s of ``mnist5000``
    (:func:`robustpapers.datasets.binary_subset`), at most 600 per digit as in the paper -- the
    5,000 digits hold only 500 of each, so 1,000 digits.
    ``max_n`` keeps a stratified random subset (quick scale).
    """
    rng = np.random.default_rng(seed)
    if name == "mnist35":
        ds = binary_subset(load_dataset("mnist5000"), 3, 5)
        X, y = ds.X, ds.y
        keep = np.concatenate([rng.choice(np.flatnonzero(y == c), min(600, np.sum(y == c)), replace=False)
                               for c in (1.0, -1.0)])
        X, y = X[np.sort(keep)], y[np.sort(keep)]
    else:
        ds = load_dataset(name)
        X, y = ds.X, ds.y
    lo, hi = X.min(0), X.max(0)
    X = (X - lo) / np.where(hi > lo, hi - lo, 1.0)
    if max_n is not None and max_n < y.size:
        idx, _ = train_test_split(np.arange(y.size), train_size=max_n, stratify=y, random_state=seed)
        X, y = X[np.sort(idx)], y[np.sort(idx)]
    return X, y


def choose_gamma(X, y, grid, seed=0, C=1.0):
    """Gaussian width by 3-fold cross-validation of the plain SVM (chen2008 Sec. 6.1)."""
    d = X.shape[1]
    cv = StratifiedKFold(3, shuffle=True, random_state=seed)
    scores = []
    for g in grid:
        acc = []
        for tr, te in cv.split(X, y):
            clf = SVC(kernel="rbf", gamma=g / d, C=C).fit(X[tr], y[tr])
            acc.append(clf.score(X[te], y[te]))
        scores.append(np.mean(acc))
    return float(grid[int(np.argmax(scores))]) / d


def choose_rho(K0, y, grid, C=1.0, seed=0, tol=1e-3, max_iter=100):
    """rho by 3-fold cross-validation of the Indefinite SVM on the training kernel (Sec. 6.1)."""
    if len(grid) == 1:
        return float(grid[0])
    cv = StratifiedKFold(3, shuffle=True, random_state=seed)
    scores = []
    for rho in grid:
        acc = []
        for tr, te in cv.split(K0, y):
            clf = IndefiniteSVC("siqclp", "precomputed", C=C, rho=rho, tol=tol, max_iter=max_iter)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                clf.fit(K0[np.ix_(tr, tr)], y[tr])
            acc.append(clf.score(K0[np.ix_(te, tr)], y[te]))
        scores.append(np.mean(acc))
    return float(grid[int(np.argmax(scores))])


def _split_kernel(dataset, xi, seed, gamma_grid, max_n=None, test_size=0.2):
    X, y = load_binary(dataset, max_n=max_n, seed=seed)
    tr, te = train_test_split(np.arange(y.size), test_size=test_size, stratify=y, random_state=seed)
    gamma = choose_gamma(X[tr], y[tr], gamma_grid, seed=seed)
    K0 = perturbed_gaussian_kernel(X, gamma, xi, random_state=seed)
    return K0, y, tr, te, gamma


def convergence_task(dataset, xi, rho, prune, tol, max_iter, seed, gamma_grid=(1.0,), C=1.0, max_n=None):
    """Fig. 1-3: bounds, localisation-set size and test accuracy per iteration of Algorithm 1."""
    K0, y, tr, te, gamma = _split_kernel(dataset, xi, seed, list(gamma_grid), max_n)
    Ktr, ytr = K0[np.ix_(tr, tr)], y[tr]
    Kte = K0[np.ix_(te, tr)]
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        res = indefinite_svm(Ktr, ytr, C, rho, tol=tol, prune=prune, max_iter=max_iter)
    wall = time.perf_counter() - t0
    acc = []
    for a in res.alphas:  # test accuracy of each master iterate, bias from its proxy kernel (9)
        Ka = most_violated_kernel(Ktr, ytr, a, rho)
        b = svm_bias(Ka, ytr, a, C)
        acc.append(float(np.mean(np.sign(Kte @ (a * ytr) + b) == y[te])))
    final = float(np.mean(np.sign(Kte @ (res.alpha * ytr) + res.b) == y[te]))
    return dict(upper=res.upper.tolist(), lower=[None if not np.isfinite(v) else float(v) for v in res.lower],
                n_kernels=res.n_kernels.tolist(), accuracy=acc, final_accuracy=final, gamma=gamma,
                nit=int(res.nit), success=bool(res.success), objective=float(res.objective),
                lemma41_ok=bool(res.lemma41_ok), time_eig=float(res.time_eig),
                time_master=float(res.time_master), wall=wall, n_train=int(tr.size))


def table1_task(dataset, xi, seed, gamma_grid, rho_grid, tol, max_iter, C=1.0, max_n=None):
    """One split of Table 1: the perturbed kernel's spectrum and the five methods' test accuracy."""
    K0, y, tr, te, gamma = _split_kernel(dataset, xi, seed, list(gamma_grid), max_n)
    Ktr, ytr = K0[np.ix_(tr, tr)], y[tr]
    Kte = K0[np.ix_(te, tr)]
    rho = choose_rho(Ktr, ytr, list(rho_grid), C=C, seed=seed, tol=max(tol, 1e-3), max_iter=max_iter)
    out = dict(spectrum_stats(K0), gamma=gamma, rho=rho, n=int(y.size))
    for m in METHODS:
        clf = IndefiniteSVC(m, "precomputed", C=C, rho=rho, tol=tol, max_iter=max_iter)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            clf.fit(Ktr, ytr)
        out[f"acc_{m}"] = float(clf.score(Kte, y[te]))
        if m == "siqclp":
            out["siqclp_nit"] = int(clf.result_.nit)
            out["siqclp_gap"] = float(np.min(clf.result_.upper[1:]) - clf.result_.lower[-1])
    return out


def xi_sweep_task(dataset, xi, seed, gamma_grid, rho, tol, max_iter, C=1.0, max_n=None):
    """The comparison the paper lacks: accuracy of every method and the spectrum as xi grows."""
    return table1_task(dataset, xi, seed, gamma_grid, [rho], tol, max_iter, C=C, max_n=max_n)
