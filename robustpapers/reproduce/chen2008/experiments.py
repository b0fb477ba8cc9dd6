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

from ...chen2008 import METHODS, IndefiniteSVC, indefinite_svm, most_violated_kernel, perturbed_gaussian_kernel, \
    spectrum_stats
from ...core import ConvergenceWarning, rbf_kernel, svm_bias
from ...datasets import binary_subset, load_dataset
from ..engine import grid, task_name

__all__ = ["load_binary", "choose_gamma", "choose_rho", "convergence_task", "table1_task", "xi_sweep_task",
           "width_task", "paper_scale_tasks", "PAPER_SCALE_SWEEPS", "TABLE1_DATASETS", "GAMMA_GRID"]

#: Table 1's data sets and our USPS-3-vs-5 substitute (MNIST digits 3 vs 5, 16x16).
TABLE1_DATASETS = ("sonar", "ionosphere", "wisconsin", "heart", "mnist35", "pima")
#: The sweeps :func:`paper_scale_tasks` knows (the reproduction log reports how much of each is cached).
PAPER_SCALE_SWEEPS = ("convergence", "rho_sweep", "table1", "table1_starts", "xi_sweep")
#: Gaussian widths gamma = g / n_features tried by the 3-fold CV of :func:`choose_gamma` (the paper gives none).
GAMMA_GRID = (0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0)


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


def choose_rho(K0, y, grid, C=1.0, seed=0, tol=1e-3, max_iter=100, master_start="auto"):
    """rho by 3-fold cross-validation of the Indefinite SVM on the training kernel (Sec. 6.1)."""
    if len(grid) == 1:
        return float(grid[0])
    cv = StratifiedKFold(3, shuffle=True, random_state=seed)
    scores = []
    for rho in grid:
        acc = []
        for tr, te in cv.split(K0, y):
            clf = IndefiniteSVC("siqclp", "precomputed", C=C, rho=rho, tol=tol, max_iter=max_iter,
                                master_start=master_start, solver="algorithm1")
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                clf.fit(K0[np.ix_(tr, tr)], y[tr])
            acc.append(clf.score(K0[np.ix_(te, tr)], y[te]))
        scores.append(np.mean(acc))
    return float(grid[int(np.argmax(scores))])


def _split(dataset, seed, max_n=None, test_size=0.2):
    """The data set and its seeded, stratified 4:1 split (training and test indices)."""
    X, y = load_binary(dataset, max_n=max_n, seed=seed)
    tr, te = train_test_split(np.arange(y.size), test_size=test_size, stratify=y, random_state=seed)
    return X, y, tr, te


def _split_kernel(dataset, xi, seed, gamma_grid, max_n=None, test_size=0.2):
    X, y, tr, te = _split(dataset, seed, max_n, test_size)
    gamma = choose_gamma(X[tr], y[tr], gamma_grid, seed=seed)
    K0 = perturbed_gaussian_kernel(X, gamma, xi, random_state=seed)
    return K0, y, tr, te, gamma


@task_name("robustpapers.chen2008.experiments:convergence_task")
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


@task_name("robustpapers.chen2008.experiments:table1_task")
def table1_task(dataset, xi, seed, gamma_grid, rho_grid, tol, max_iter, C=1.0, max_n=None, master_start="auto"):
    """One split of Table 1: the perturbed kernel's spectrum and the five methods' test accuracy.

    ``master_start`` (the interior-point start of Algorithm 1's master problems, in the CV of rho and the
    final run) is left at its default by Table 1; the ``table1_starts`` sweep varies it to measure how much
    the Indefinite SVM's accuracy depends on the path of iterates when ``max_iter`` stops the run."""
    K0, y, tr, te, gamma = _split_kernel(dataset, xi, seed, list(gamma_grid), max_n)
    Ktr, ytr = K0[np.ix_(tr, tr)], y[tr]
    Kte = K0[np.ix_(te, tr)]
    rho = choose_rho(Ktr, ytr, list(rho_grid), C=C, seed=seed, tol=max(tol, 1e-3), max_iter=max_iter,
                     master_start=master_start)
    out = dict(spectrum_stats(K0), gamma=gamma, rho=rho, n=int(y.size))
    for m in METHODS:
        clf = IndefiniteSVC(m, "precomputed", C=C, rho=rho, tol=tol, max_iter=max_iter, master_start=master_start,
                            solver="algorithm1")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            clf.fit(Ktr, ytr)
        out[f"acc_{m}"] = float(clf.score(Kte, y[te]))
        if m == "siqclp":
            out["siqclp_nit"] = int(clf.result_.nit)
            out["siqclp_gap"] = float(np.min(clf.result_.upper[1:]) - clf.result_.lower[-1])
    return out


@task_name("robustpapers.chen2008.experiments:xi_sweep_task")
def xi_sweep_task(dataset, xi, seed, gamma_grid, rho, tol, max_iter, C=1.0, max_n=None):
    """The comparison the paper lacks: accuracy of every method and the spectrum as xi grows."""
    return table1_task(dataset, xi, seed, gamma_grid, [rho], tol, max_iter, C=C, max_n=max_n)


@task_name("robustpapers.chen2008.experiments:width_task")
def width_task(dataset, g, xi, seed, gamma_grid, C=1.0, max_n=None):
    """The Gaussian width's effect on one split: the perturbed kernel at gamma = g / n_features.

    Not an experiment of the paper: it shows how much of the accuracy the perturbation xi * E_hat takes
    away at each width. Returns the spectrum statistics of the perturbed kernel (on the whole set), the
    test accuracy of the four baselines on it (``acc_<method>``), that of the plain SVM on the
    unperturbed Gaussian kernel (``acc_clean``), and ``g_cv``, the g that :func:`choose_gamma` picks on
    the training part (the rule of every other task).

    Examples
    --------
    >>> r = width_task("sonar", 1.0, 0.1, 0, (1.0, 5.0), max_n=60)
    >>> sorted(k for k in r if k.startswith("acc_"))
    ['acc_clean', 'acc_denoise', 'acc_flip', 'acc_shift', 'acc_svm']
    """
    X, y, tr, te = _split(dataset, seed, max_n)
    d = X.shape[1]
    K0 = perturbed_gaussian_kernel(X, g / d, xi, random_state=seed)
    out = dict(spectrum_stats(K0), g_cv=choose_gamma(X[tr], y[tr], list(gamma_grid), seed=seed) * d)
    for m in METHODS:
        if m != "siqclp":
            clf = IndefiniteSVC(m, "precomputed", C=C).fit(K0[np.ix_(tr, tr)], y[tr])
            out[f"acc_{m}"] = float(clf.score(K0[np.ix_(te, tr)], y[te]))
    Kc = rbf_kernel(X, gamma=g / d)
    clean = SVC(kernel="precomputed", C=C).fit(Kc[np.ix_(tr, tr)], y[tr])
    out["acc_clean"] = float(clean.score(Kc[np.ix_(te, tr)], y[te]))
    return out


def paper_scale_tasks(experiment, seed=0, datasets=None):
    """The paper-scale tasks of one sweep of the chapter, as the page caches and reads them.

    One definition for the page's cache-reading cells and for computing the sweep piecewise
    (``scripts/paper_scale.py chen2008 <experiment>``): a task computed either way has the same cache key.

    Parameters
    ----------
    experiment : {"convergence", "rho_sweep", "table1", "table1_starts", "xi_sweep"}
        Figs. 1-3 (rho = 10, with and without pruning, up to 1,500 iterations); the rho sweep on Sonar
        (rho = 3..300, with pruning, up to 3,000 iterations); Table 1 (10 splits, rho by CV); Table 1's
        Sonar and Heart splits again with each ``master_start`` (the path of iterates); the xi sweep (Sonar and
        Heart, 7 values of xi, rho = 10, 10 splits).
    seed : int
        The page's ``seed`` parameter (splits use ``seed``, ..., ``seed + 9``).
    datasets : sequence of str, optional
        Restrict the tasks to these data sets.

    Returns
    -------
    func, tasks, cache_experiment, version
        What :func:`robustpapers.runner.run_sweep` takes: ``run_sweep(func, tasks, paperkey="chen2008",
        experiment=cache_experiment, version=version)``.

    Examples
    --------
    >>> func, tasks, exp, version = paper_scale_tasks("table1", datasets=["sonar"])
    >>> func.__name__, len(tasks), exp, version
    ('table1_task', 10, 'table1', 3)
    """
    gg = [list(GAMMA_GRID)]
    splits = [seed + s for s in range(10)]
    table1_axes = dict(xi=[0.1], seed=splits, gamma_grid=gg, rho_grid=[[0.1, 1.0, 10.0, 100.0]], tol=[1e-5],
                       max_iter=[1000], max_n=[None])
    if experiment == "convergence":
        func, exp, tasks = convergence_task, "convergence", grid(
            dataset=["sonar"], xi=[0.1], rho=[10.0], prune=[False, True], tol=[1e-5], max_iter=[1500],
            seed=[seed], gamma_grid=gg)
    elif experiment == "rho_sweep":
        func, exp, tasks = convergence_task, "convergence", grid(
            dataset=["sonar"], xi=[0.1], rho=[3.0, 10.0, 30.0, 100.0, 300.0], prune=[True], tol=[1e-5],
            max_iter=[3000], seed=[seed], gamma_grid=gg)
    elif experiment == "table1":
        func, exp, tasks = table1_task, "table1", grid(dataset=list(TABLE1_DATASETS), **table1_axes)
    elif experiment == "table1_starts":  # Table 1's own tasks, one per master_start
        func, exp, tasks = table1_task, "table1_starts", grid(
            dataset=["sonar", "heart"], master_start=["auto", "warm", "cold"], **table1_axes)
    elif experiment == "xi_sweep":
        func, exp, tasks = xi_sweep_task, "xi_sweep", grid(
            dataset=["sonar", "heart"], xi=[0.0, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0], seed=splits, gamma_grid=gg,
            rho=[10.0], tol=[1e-5], max_iter=[1000], max_n=[None])
    else:
        raise ValueError(f"experiment must be one of {', '.join(map(repr, PAPER_SCALE_SWEEPS))}, got {experiment!r}")
    if datasets is not None:
        unknown = sorted(set(datasets) - {t["dataset"] for t in tasks})
        if unknown:
            raise ValueError(f"datasets {unknown} are not in the {experiment} sweep")
        tasks = [t for t in tasks if t["dataset"] in datasets]
    return func, tasks, exp, 3  # the page's cache version of these sweeps (keep in step with its run_sweep calls)


def best_gaps(upper, lower):
    """The stopping gap per iteration of Algorithm 1: the best upper bound so far minus the lower bound (11).

    ``upper`` and ``lower`` are the traces of :func:`robustpapers.chen2008.indefinite_svm` (entry 0: the
    initialisation, whose upper bound :math:`S(\\alpha_0, (K_0)_+)` is already valid); entry ``i`` of the
    result belongs to iteration ``i`` (the initial entry has no lower bound, so it is infinite).
    """
    u = np.minimum.accumulate(np.asarray(upper, dtype=float))
    lo = np.array([-np.inf if v is None else v for v in lower], dtype=float)
    return u - lo


def first_below(gaps, level):
    """The first iteration (>= 1) whose gap is at most ``level``, or None."""
    hit = np.flatnonzero(np.asarray(gaps)[1:] <= level)
    return int(hit[0]) + 1 if hit.size else None
