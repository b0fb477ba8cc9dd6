"""Task functions of the bhadra2010 experiments (bhadra2010 §5.1), run through ``robustpapers.reproduce.engine.run_sweep``.

Every task regenerates its data set from its seed, so each is independent and cacheable:

* :func:`robustness_task` — Fig. 1 and Fig. 2 (RobustErr against kappa on a train/test split);
* :func:`bound_task` — Fig. 3 (effective epsilon of the chance constraint against epsilon);
* :func:`table1_task` — Table 1 (one cross-validation fold, all classifiers over the (C, eps) grid;
  :func:`table1_fold` prepares the fold);
* :func:`qn_convergence_task` — RSVM_QN, scaled and unscaled, on bental2012's D_U data where alpha* << C;
* :func:`qn_starts_task`, :func:`qn_cap_task` — the spread of RSVM_QN's random starts, and whether a start
  was stopped by DFP's iteration cap;
* :func:`local_optima_task` — RSVM_QN's distinct local optima on a small constructed non-PSD beta.
"""
from __future__ import annotations

import numpy as np

from ...core import prediction_errors
from ..engine import derive_seed, task_name
from ...bhadra2010.data import make_synthetic_kernel_data, sample_kernels, support_and_moments
from ...bhadra2010.solvers import (
    rsvm, rsvm_constraint_value, rsvm_decision_function, rsvm_kkt_residual, rsvm_many, rsvm_objective,
)
from ...core.uncertainty import beta_from_sigma, beta_from_support, kappa_gaussian

__all__ = ["CLASSIFIERS", "prepare_dataset", "fit_classifier", "fit_classifier_many", "errors_on_samples",
           "robustness_task", "bound_task", "table1_fold", "table1_task", "qn_starts_task", "qn_convergence_task",
           "local_optima_instance", "local_optima_task", "qn_cap_task",
           "kappa_finite_support_any", "PAPER_SCALE", "QUICK_SCALE", "QN_MAX_ITER", "sweep_tasks", "paper_scale_tasks",
           "PAPER_SCALE_SWEEPS"]

#: The seven classifiers of bhadra2010 Table 1: (family, method); family "fs" = RSVM, "g" = RSVM^(g).
CLASSIFIERS = {
    "RSVM_QP": ("fs", "qp"), "RSVM_SOCP": ("fs", "socp"), "RSVM_QN": ("fs", "qn"),
    "RSVMg_QP": ("g", "qp"), "RSVMg_SOCP": ("g", "socp"), "RSVMg_QN": ("g", "qn"),
    "SVM": (None, "qp"),
}

#: DFP's iteration cap per penalty stage in the sweeps: :func:`rsvm`'s default (asserted by the tests).
QN_MAX_ITER = 20000

#: The paper's sizes (bhadra2010 §5.1: 20 data sets of 2 x 100 points, 100 sampled kernels, 100 QN starts), the
#: kappa axis of Figs. 1-2, the (C, eps) grid of Table 1 and the eps axis of Fig. 3 -- the page's "paper" settings.
PAPER_SCALE = dict(
    n_data=20, n_per_class=100, n_samples=100, n_starts=100, n_starts_table=5, n_starts_bound=5, n_starts_qnst=100,
    kappas=[0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, 2.25, 2.5],
    n_data_table=20, n_folds=5, Cs=[0.1, 1.0, 5.0, 10.0, 50.0, 100.0],
    epss=[0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45],
    eps_bound=[0.05, 0.1, 0.2, 0.3, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9], n_eval=1000,
    bound_methods=list(CLASSIFIERS)[:6], qn_max_iter=QN_MAX_ITER, n_starts_qnsoc=5,
)

#: The small sizes the book's pages run at ``scale="quick"`` (CI size): two data sets of 2 x 20 points, three kappas,
#: a two-point (C, eps) grid and two QN starts.
QUICK_SCALE = dict(PAPER_SCALE, n_data=2, n_per_class=20, n_samples=50, n_starts=2, n_starts_table=2,
                   n_starts_bound=2, n_starts_qnst=10, n_starts_qnsoc=2, kappas=[0.0, 1.0, 2.0], n_data_table=1,
                   n_folds=3, Cs=[10.0], epss=[0.1, 0.3], eps_bound=[0.05, 0.2, 0.4, 0.6, 0.8], n_eval=500,
                   bound_methods=["RSVM_QP", "RSVM_SOCP", "RSVMg_QP", "RSVMg_SOCP"])

#: The sweeps :func:`paper_scale_tasks` knows: :func:`sweep_tasks`'s at :data:`PAPER_SCALE` and Table 2's
#: (the reproduction log reports how much of each is cached).
PAPER_SCALE_SWEEPS = ("fig1", "fig2", "fig3", "fig3_svm", "qn_starts", "socp_true_beta", "qn_socp", "qn_socp_starts",
                      "local_optima", "table1", "table2_proteins", "table2_unnormalised")

#: DFP's iteration cap per penalty stage before :func:`rsvm`'s default rose to :data:`QN_MAX_ITER`: the QN
#: convergence comparison (:func:`qn_convergence_task`, scaled vs unscaled scheme as first made) keeps it, and
#: the QN-starts section's :func:`qn_cap_task` compares it with the default.
QN_MAX_ITER_EARLY = 2000


def sweep_tasks(experiment, settings, seed=0):
    """The tasks of one sweep of the bhadra2010 page for given settings (the page's ``S``).

    Parameters
    ----------
    experiment : {"fig1", "fig2", "fig3", "fig3_svm", "qn_starts", "socp_true_beta", "qn_socp", "qn_socp_starts", "local_optima", "table1"}
    settings : dict
        Sizes and grids, with the keys of :data:`PAPER_SCALE`.
    seed : int

    Returns
    -------
    func, tasks, cache_experiment, version
        ``run_sweep(func, tasks, paperkey="bhadra2010", experiment=cache_experiment, version=version)``
        (``version``: the sweep's cache version; bump it here when a task function changes meaning).

    Examples
    --------
    >>> func, tasks, exp, version = sweep_tasks("fig2", PAPER_SCALE)
    >>> func.__name__, len(tasks), tasks[0]["iid"], exp
    ('robustness_task', 660, True, 'fig2')
    """
    from ..engine import grid

    S, ALL = settings, list(CLASSIFIERS)
    noise3 = ["gaussian", "uniform", "beta0.5"]
    common = dict(n_per_class=[S["n_per_class"]], n_samples=[S["n_samples"]], seed=[seed])
    if experiment in ("fig1", "fig2"):
        # version 3: the test noise grows with kappa (bhadra2010 §5.1.2); Fig. 1 without QN, whose 100 starts at
        # every kappa cost about 7 CPU hours (RSVM_QN against the SOCP and the SVM: the "qn_socp" sweep)
        iid = experiment == "fig2"
        methods = ["RSVM_QP", "RSVMg_QP", "SVM"] if iid else [m for m in ALL if CLASSIFIERS[m][1] != "qn"]
        return robustness_task, grid(dataset=list(range(S["n_data"])), noise=noise3, kappa=S["kappas"], C=[10.0],
                                     n_per_class=[S["n_per_class"]], n_samples=[S["n_samples"]],
                                     n_starts=[S["n_starts"]], methods=[methods], seed=[seed], iid=[iid],
                                     test_noise=["kappa"]), experiment, 3
    from .experiments_ext import bound_svm_task, qn_socp_task, socp_true_beta_task

    if experiment == "fig3_svm":  # Fig. 3's Nominal SVM: one value per data set and noise (its t ignores eps)
        return bound_svm_task, grid(dataset=list(range(S["n_data"])), noise=["gaussian", "uniform", "beta0.5", "beta5"],
                                    C=[10.0], n_per_class=[S["n_per_class"]], n_samples=[S["n_samples"]],
                                    n_eval=[S["n_eval"]], seed=[seed]), "fig3_svm", 1
    if experiment == "socp_true_beta":  # the qn_starts instances, the SOCP's alpha on the true beta
        return socp_true_beta_task, grid(dataset=list(range(S["n_data"])), noise=["beta0.5"], eps=[0.1], C=[10.0],
                                         **common), "socp_true_beta", 1
    if experiment in ("qn_socp", "qn_socp_starts"):
        # QN against the SOCP at Fig. 1's largest kappa; "qn_socp_starts": the paper's 100 starts on two data sets
        many = experiment == "qn_socp_starts"
        return qn_socp_task, grid(dataset=[0, 1] if many else list(range(S["n_data"])), noise=noise3,
                                  kappa=[max(S["kappas"])], C=[10.0], n_starts=[100 if many else S["n_starts_qnsoc"]],
                                  keep=[[5, 20, 100] if many else sorted({min(5, S["n_starts_qnsoc"]), S["n_starts_qnsoc"]})],
                                  family=["fs"] if many else ["fs", "g"], qn_max_iter=[S["qn_max_iter"]],
                                  **common), experiment, 1
    if experiment == "fig3":
        return bound_task, grid(dataset=list(range(S["n_data"])), noise=["gaussian", "uniform", "beta0.5", "beta5"],
                                eps=S["eps_bound"], C=[10.0], n_per_class=[S["n_per_class"]],
                                n_samples=[S["n_samples"]], n_eval=[S["n_eval"]], n_starts=[S["n_starts_bound"]],
                                methods=[S["bound_methods"]], seed=[seed], qn_max_iter=[S["qn_max_iter"]]), "fig3", 2
    if experiment == "qn_starts":
        return qn_starts_task, grid(dataset=list(range(S["n_data"])), noise=["beta0.5"], eps=[0.1], C=[10.0],
                                    n_starts=[S["n_starts_qnst"]], qn_max_iter=[S["qn_max_iter"]],
                                    **common), "qn_starts", 2
    if experiment == "local_optima":  # four points: the paper's 100 starts at any scale
        return local_optima_task, grid(b=[4.0, 16.0, 100.0, 400.0], eps=[0.1, 0.01], C=[10.0],
                                       n_starts=[100], seed=[seed]), "local_optima", 1
    if experiment == "table1":
        return table1_task, grid(dataset=list(range(S["n_data_table"])), noise=["uniform", "gaussian", "beta0.5"],
                                 fold=list(range(S["n_folds"])), n_folds=[S["n_folds"]], Cs=[S["Cs"]],
                                 epss=[S["epss"]], n_per_class=[S["n_per_class"]], n_samples=[S["n_samples"]],
                                 n_starts=[S["n_starts_table"]], methods=[ALL], seed=[seed],
                                 qn_max_iter=[S["qn_max_iter"]]), "table1", 3
    raise ValueError("experiment must be 'fig1', 'fig2', 'fig3', 'fig3_svm', 'qn_starts', 'socp_true_beta', "
                     f"'qn_socp', 'qn_socp_starts', 'local_optima' or 'table1', got {experiment!r}")


def paper_scale_tasks(experiment, seed=0, datasets=None):
    """The paper-scale tasks of one sweep (:func:`sweep_tasks` with :data:`PAPER_SCALE`, or ``"table2_proteins"``:
    :func:`robustpapers.reproduce.bhadra2010.protein_experiments.table2_tasks` at the paper's settings), optionally only
    those of some data sets (indices 0..19; Table 2: families 0..14): for computing a sweep piecewise
    (``scripts/paper_scale.py``).

    Examples
    --------
    >>> func, tasks, exp, version = paper_scale_tasks("table1", datasets=[0])
    >>> func.__name__, len(tasks), exp, version
    ('table1_task', 15, 'table1', 3)
    """
    if experiment in ("table2_proteins", "table2_unnormalised"):  # the protein page's sweeps ("data sets": families)
        from .protein_experiments import TABLE2_SETTINGS, table2_task, table2_tasks
        which = "paper" if experiment == "table2_proteins" else "unnormalised"
        func, tasks, exp, version = table2_task, table2_tasks(TABLE2_SETTINGS[which], seed), experiment, 4
        key = "family"
    else:
        (func, tasks, exp, version), key = sweep_tasks(experiment, PAPER_SCALE, seed), "dataset"
    if datasets is not None:
        try:
            wanted = {int(d) for d in datasets}
        except (TypeError, ValueError):
            raise ValueError(f"datasets are indices (of {key}s), got {list(datasets)!r}") from None
        unknown = sorted(wanted - {t[key] for t in tasks})
        if unknown:
            raise ValueError(f"datasets {unknown} are not in the {experiment} sweep")
        tasks = [t for t in tasks if t[key] in wanted]
    return func, tasks, exp, version


def kappa_finite_support_any(eps):
    """sqrt(2 log(1/eps)) for any eps in (0, 1] (bhadra2010 Fig. 3 plots eps up to 1 for the finite-support bound)."""
    return float(np.sqrt(2.0 * np.log(1.0 / eps)))


#: Largest input dimension of the synthetic mixtures (bental2012 §7.1.1 uses 100; see the notebook's Deviations).
D_MAX = 4


def prepare_dataset(dataset, noise, n_per_class, n_samples, seed, iid=False, scale_factor=0.25):
    """One synthetic data set of bhadra2010 §5.1 with its sampled kernels and estimated uncertainty.

    Returns a dict with ``y``, ``K`` (the nominal kernel = the mean), ``scale`` (l), ``Ks`` (samples),
    ``a``, ``b``, ``sigma`` (estimated as in bhadra2010 §5.1; pooled over all entries when ``iid``).
    """
    data = make_synthetic_kernel_data(n_per_class, noise, scale_factor=scale_factor,
                                      random_state=derive_seed(seed, "data", dataset), d_max=D_MAX)
    scale = data.scale
    if iid:  # one l for every entry: i.i.d. noise (bhadra2010 Theorem 5, Fig. 2)
        scale = np.full_like(scale, scale_factor * float(np.median(np.abs(data.K))) / 2)
    Ks = sample_kernels(data.K, scale, noise, n_samples, random_state=derive_seed(seed, "kernels", dataset))
    est = support_and_moments(Ks, data.K)
    if iid:
        Z = Ks - data.K[None]
        est["a"] = np.full_like(data.K, min(Z.min(), 0.0))
        est["b"] = np.full_like(data.K, max(Z.max(), 0.0))
        est["sigma"] = np.full_like(data.K, float(np.sqrt(np.mean(Z**2))))
    return {"y": data.y, "K": data.K, "scale": scale, "Ks": Ks, "a": est["a"], "b": est["b"],
            "sigma": est["sigma"], "noise": noise}


def _betas(prep, idx, iid):
    ix = np.ix_(idx, idx)
    if iid:
        return (float(beta_from_support(prep["a"][0, 0], prep["b"][0, 0])),
                float(beta_from_sigma(prep["sigma"][0, 0])))
    return beta_from_support(prep["a"][ix], prep["b"][ix]), beta_from_sigma(prep["sigma"][ix])


def fit_classifier(name, K, y, beta_fs, beta_g, kappa_fs, kappa_g, C, n_starts, seed, qn_max_iter):
    """Train one of :data:`CLASSIFIERS`; the paper's §5.1 approximations of beta for QP and SOCP.

    QP uses the principal rank-one approximation (exact for i.i.d. scalar beta), SOCP the nearest PSD
    matrix, QN the beta itself (DFP capped at ``qn_max_iter`` iterations per penalty stage); the nominal SVM
    is RSVM with kappa = 0. All use the bias rule of bhadra2010 §3.
    """
    return fit_classifier_many(name, K, y, beta_fs, beta_g, [(C, kappa_fs, kappa_g, seed)], n_starts, qn_max_iter)[0]


def fit_classifier_many(name, K, y, beta_fs, beta_g, fits, n_starts, qn_max_iter):
    """:func:`fit_classifier` at each ``(C, kappa_fs, kappa_g, seed)`` of ``fits``, by one
    :func:`robustpapers.bhadra2010.rsvm_many` call: the same results, and for QN the starts of all the fits run
    side by side."""
    family, method = CLASSIFIERS[name]
    Cs, seeds = [f[0] for f in fits], [f[3] for f in fits]
    if family is None:
        beta, kappas = 0.0, [0.0] * len(fits)
    elif family == "fs":
        beta, kappas = beta_fs, [f[1] for f in fits]
    else:
        beta, kappas = beta_g, [f[2] for f in fits]
    approx = None
    if np.ndim(beta) == 2:
        approx = {"qp": "principal", "socp": "psd", "qn": None}[method]
    return rsvm_many(K, y, Cs, beta, kappas, method=method, beta_approx=approx, n_starts=n_starts,
                     max_iter=qn_max_iter, random_states=seeds)


def errors_on_samples(y, K_mean, K_samples, alpha, y_train, b):
    """MajErr (18), RobustErr (19) and NomErr (20) in %, plus the nominal-kernel error, via the core metrics."""
    f = rsvm_decision_function(K_mean, y_train, alpha, b)
    F = rsvm_decision_function(K_samples, y_train, alpha, b)
    e = prediction_errors(y, f, F)
    ne_samples = float(np.mean(np.sign(F) != y[None, :]))
    return {"ME": 100 * e["ME"], "RE": 100 * e["RE"], "NE": 100 * ne_samples, "NE_mean": 100 * e["NE"]}


def _split(y, frac, seed):
    rng = np.random.default_rng(seed)
    tr = []
    for cls in (-1.0, 1.0):
        idx = np.flatnonzero(y == cls)
        rng.shuffle(idx)
        tr.extend(idx[: int(round(frac * idx.size))])
    tr = np.sort(np.array(tr))
    te = np.setdiff1d(np.arange(y.size), tr)
    return tr, te


@task_name("robustpapers.bhadra2010.experiments:robustness_task")
def robustness_task(dataset, noise, kappa, C, n_per_class, n_samples, n_starts, methods, seed, iid=False,
                    qn_max_iter=QN_MAX_ITER, test_noise="fixed"):
    r"""bhadra2010 Fig. 1 (``iid=False``) / Fig. 2 (``iid=True``): errors of each classifier at one kappa.

    A data set is split half/half (stratified) into training and test points; each classifier is
    trained on the mean training kernel with the same ``kappa`` for both families (the figures'
    x-axis) and scored on ``n_samples`` sampled test-versus-training kernels. ``qn_max_iter``: DFP's cap
    per penalty stage (Fig. 1 passes :data:`PAPER_SCALE`'s; Fig. 2 fits no QN).

    ``test_noise="kappa"`` (bhadra2010 §5.1.2: the uncertainty of the test points grows with kappa) scores on
    :math:`\bar K + \kappa Z^s` with the same draws :math:`Z^s = K^s - \bar K` at every kappa, so that the test
    noise's support is :math:`\kappa` times the training one (:math:`|Z^s_{ij}| \le \kappa l_{ij}`) and its
    standard deviation :math:`\kappa\sigma_{ij}`; at kappa = 1 the test kernels are the training noise's
    samples. ``"fixed"`` (the earlier records) scores every kappa on the samples themselves.
    """
    if test_noise not in ("fixed", "kappa"):
        raise ValueError(f"test_noise must be 'fixed' or 'kappa', got {test_noise!r}")
    prep = prepare_dataset(dataset, noise, n_per_class, n_samples, seed, iid=iid)
    y = prep["y"]
    tr, te = _split(y, 0.5, derive_seed(seed, "split", dataset))
    beta_fs, beta_g = _betas(prep, tr, iid)
    Ktr = prep["K"][np.ix_(tr, tr)]
    K_te = prep["K"][np.ix_(te, tr)]
    Ks_te = prep["Ks"][:, te][:, :, tr]
    if test_noise == "kappa":
        Ks_te = K_te[None] + kappa * (Ks_te - K_te[None])
    out = {}
    for name in methods:
        res = fit_classifier(name, Ktr, y[tr], beta_fs, beta_g, kappa, kappa, C, n_starts,
                             derive_seed(seed, "qn", dataset, name), qn_max_iter)
        errs = errors_on_samples(y[te], K_te, Ks_te, res.alpha, y[tr], res.b)
        for k, v in errs.items():
            out[f"{k}_{name}"] = v
    return out


@task_name("robustpapers.bhadra2010.experiments:bound_task")
def bound_task(dataset, noise, eps, C, n_per_class, n_samples, n_eval, n_starts, methods, seed,
               qn_max_iter=QN_MAX_ITER):
    """bhadra2010 Fig. 3: effective epsilon = fraction of fresh sampled kernels with alpha'Y K^s Y alpha > t.

    Each classifier is trained on the whole data set at level ``eps``; ``t`` is the left side of the
    eq. (15) constraint at the returned alpha, with the family's (estimated) beta and kappa. RSVM^(g)
    needs eps < 0.5 (kappa >= 0) and is skipped above. ``n_eval`` fresh kernels with independent
    entries are drawn from the generating distribution. ``qn_max_iter``: DFP's cap per penalty stage.
    """
    prep = prepare_dataset(dataset, noise, n_per_class, n_samples, seed)
    y, K = prep["y"], prep["K"]
    idx = np.arange(y.size)
    beta_fs, beta_g = _betas(prep, idx, False)
    kfs = kappa_finite_support_any(eps)
    kg = kappa_gaussian(eps) if eps < 0.5 else None
    out = {}
    fits = {}
    for name in methods:
        family, _ = CLASSIFIERS[name]
        if family == "g" and kg is None:
            continue
        res = fit_classifier(name, K, y, beta_fs, beta_g, kfs, kg, C, n_starts,
                             derive_seed(seed, "qn", dataset, name, eps), qn_max_iter)
        beta, kappa = (beta_fs, kfs) if family == "fs" else (beta_g, kg)
        fits[name] = (y * res.alpha, rsvm_constraint_value(K, y, beta, kappa, res.alpha))
    # fresh kernels, drawn in chunks from one generator (the same draws as one big sample, less memory)
    rng = np.random.default_rng(derive_seed(seed, "eval", dataset, eps))
    exceed = {name: 0 for name in fits}
    done = 0
    while done < n_eval:
        m = min(100, n_eval - done)
        Ke = sample_kernels(K, prep["scale"], noise, m, random_state=rng)
        for name, (ya, t) in fits.items():
            exceed[name] += int(np.sum(np.einsum("i,sij,j->s", ya, Ke, ya) > t))
        done += m
    for name in fits:
        out[f"eps_eff_{name}"] = exceed[name] / n_eval
    return out


def table1_fold(dataset, noise, fold, n_folds, n_per_class, n_samples, seed):
    """One fold of bhadra2010 Table 1's stratified cross-validation on one §5.1 data set.

    Returns a dict: ``K`` (training mean kernel), ``y`` (training labels), ``beta_fs`` / ``beta_g`` (the
    finite-support and Gaussian beta estimated on the training part), ``y_test``, ``K_test`` (test-versus-training
    mean kernel) and ``Ks_test`` (the sampled test-versus-training kernels).
    """
    from sklearn.model_selection import StratifiedKFold

    prep = prepare_dataset(dataset, noise, n_per_class, n_samples, seed)
    y = prep["y"]
    skf = StratifiedKFold(n_splits=n_folds, shuffle=True, random_state=derive_seed(seed, "folds", dataset) % 2**31)
    tr, te = list(skf.split(np.zeros(y.size), y))[fold]
    beta_fs, beta_g = _betas(prep, tr, False)
    return {"K": prep["K"][np.ix_(tr, tr)], "y": y[tr], "beta_fs": beta_fs, "beta_g": beta_g, "y_test": y[te],
            "K_test": prep["K"][np.ix_(te, tr)], "Ks_test": prep["Ks"][:, te][:, :, tr]}


@task_name("robustpapers.bhadra2010.experiments:table1_task")
def table1_task(dataset, noise, fold, n_folds, Cs, epss, n_per_class, n_samples, n_starts, methods, seed,
                qn_max_iter):
    """bhadra2010 Table 1, one fold: ME/RE/NE (%) of each classifier at every (C, eps) of the grid.

    Folds are stratified; returns keys ``"<metric>|<classifier>|<C>|<eps>"`` (eps is ignored by the SVM,
    which is reported under eps = 0), and for the QN classifiers ``"conv|<classifier>|<C>|<eps>"``: whether
    the best start met the tolerance within ``qn_max_iter`` DFP iterations per penalty stage.
    """
    f = table1_fold(dataset, noise, fold, n_folds, n_per_class, n_samples, seed)
    out = {}
    for name in methods:
        family, method = CLASSIFIERS[name]
        grid = [(C, eps) for C in Cs for eps in ([0.0] if family is None else epss)]
        fits = [(C, kappa_finite_support_any(eps) if eps > 0 else 0.0, kappa_gaussian(eps) if eps > 0 else 0.0,
                 derive_seed(seed, "qn", dataset, name, fold, C, eps)) for C, eps in grid]
        # one call per classifier: QN's starts of the whole (C, eps) grid run side by side
        results = fit_classifier_many(name, f["K"], f["y"], f["beta_fs"], f["beta_g"], fits, n_starts, qn_max_iter)
        for (C, eps), res in zip(grid, results):
            if method == "qn":
                out[f"conv|{name}|{C}|{eps}"] = bool(res.success)
            for k, v in errors_on_samples(f["y_test"], f["K_test"], f["Ks_test"], res.alpha, f["y"],
                                          res.b).items():
                out[f"{k}|{name}|{C}|{eps}"] = v
    return out


@task_name("robustpapers.bhadra2010.experiments:qn_starts_task")
def qn_starts_task(dataset, noise, eps, C, n_per_class, n_samples, n_starts, seed, qn_max_iter=QN_MAX_ITER):
    """Spread of RSVM_QN's start objectives on the finite-support beta of one data set (bhadra2010 §3, local optima).

    Returns the per-start objectives of eq. (15) with the true beta (non-convex when beta is not PSD),
    the smallest eigenvalue of beta relative to its largest, and the SOCP optimum on beta's PSD part.
    DFP is capped at ``qn_max_iter`` iterations per penalty stage.
    """
    prep = prepare_dataset(dataset, noise, n_per_class, n_samples, seed)
    y, K = prep["y"], prep["K"]
    beta_fs, _ = _betas(prep, np.arange(y.size), False)
    kappa = kappa_finite_support_any(eps)
    qn = rsvm(K, y, C, beta_fs, kappa, method="qn", n_starts=n_starts, max_iter=qn_max_iter,
              random_state=derive_seed(seed, "qnst", dataset))
    soc = rsvm(K, y, C, beta_fs, kappa, method="socp", beta_approx="psd")
    w = np.linalg.eigvalsh(beta_fs)
    return {"start_objectives": qn.start_objectives.tolist(), "qn_objective": qn.objective,
            "socp_objective_psd_part": soc.objective, "beta_min_eig_rel": float(w[0] / w[-1])}


@task_name("robustpapers.bhadra2010.experiments:qn_cap_task")
def qn_cap_task(dataset, noise, eps, C, n_per_class, n_samples, n_starts, max_iters, seed):
    """RSVM_QN's first ``n_starts`` starts of :func:`qn_starts_task` (same data, same seeded starts) rerun with
    each DFP iteration cap in ``max_iters``: per cap, every start's objective, convergence flag and KKT residual
    (:func:`rsvm_kkt_residual`), to tell starts stopped by the cap from distinct local optima."""
    import warnings

    from sklearn.exceptions import ConvergenceWarning

    prep = prepare_dataset(dataset, noise, n_per_class, n_samples, seed)
    y, K = prep["y"], prep["K"]
    beta_fs, _ = _betas(prep, np.arange(y.size), False)
    kappa = kappa_finite_support_any(eps)
    out = {}
    for cap in max_iters:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            qn = rsvm(K, y, C, beta_fs, kappa, method="qn", n_starts=n_starts, max_iter=cap,
                      random_state=derive_seed(seed, "qnst", dataset))
        out[str(cap)] = {"objectives": qn.start_objectives.tolist(), "converged": qn.start_converged.tolist(),
                         "kkt": [rsvm_kkt_residual(K, y, beta_fs, kappa, C, a) for a in qn.start_alphas]}
    return out


@task_name("robustpapers.bhadra2010.experiments:qn_convergence_task")
def qn_convergence_task(N, L, C, eps, n_starts, seed, fold=0, qn_max_iter=QN_MAX_ITER_EARLY):
    """RSVM_QN's convergence where the optimal alpha is orders of magnitude below C (issue: bental2012's D_U, C = 100).

    The instance is bental2012's RSVM baseline (bental2012 §7.1.2): one D_U(1, N, L) data set, the training part of
    ``fold`` of its 5 stratified folds, mean kernel and finite-support beta from the L training kernels,
    kappa = sqrt(2 log(1/eps)). Runs ``rsvm(method="qn")`` with the default ray scaling and with the earlier
    unscaled scheme (``qn_scaling=None, penalty=1e3, qn_line_search="wolfe"``), both from the same ``n_starts``
    seeded starts, and the SOCP on beta's PSD part (a feasible reference). Returns objectives of eq. (15), KKT residuals
    (:func:`rsvm_kkt_residual`), DFP iterations, convergence flags and wall times. Both runs cap DFP at
    ``qn_max_iter`` iterations per penalty stage (:data:`QN_MAX_ITER_EARLY`, the cap of the comparison as first made).
    """
    import time
    import warnings

    from sklearn.exceptions import ConvergenceWarning

    from sklearn.model_selection import StratifiedKFold

    from ...bental2012 import make_uncertain_dataset, rsvm_beta_from_kernels, rsvm_kappa

    # the same data set and fold as bental2012's cv_task (data set 0, same seeds)
    ds = make_uncertain_dataset("uniform", N, L, random_state=derive_seed(seed, "data", "uniform", N, L, 0))
    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=derive_seed(seed, "folds", 0))
    train, _ = list(folds.split(ds.X, ds.y))[fold]
    _, Ks = ds.kernels(train, train)
    ytr = ds.y[train]
    K_bar, beta = rsvm_beta_from_kernels(Ks)
    kappa = rsvm_kappa(eps)
    rs = derive_seed(seed, "qnconv", N, L, C, eps)
    w = np.linalg.eigvalsh(beta)
    out = {"n": int(ytr.size), "beta_min_eig_rel": float(w[0] / w[-1])}
    # the unscaled scheme as first implemented: scipy's Wolfe line search
    runs = {"scaled": dict(), "unscaled": dict(qn_scaling=None, penalty=1e3, qn_line_search="wolfe")}
    for name, kw in runs.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            t0 = time.perf_counter()
            res = rsvm(K_bar, ytr, C, beta, kappa, method="qn", n_starts=n_starts, random_state=rs, sv_tol=1e-6,
                       max_iter=qn_max_iter, **kw)
            out[f"{name}_time"] = time.perf_counter() - t0
        out[f"{name}_objective"] = float(res.objective)
        out[f"{name}_kkt"] = float(res.kkt_residual)
        out[f"{name}_nit"] = int(res.nit)
        out[f"{name}_success"] = bool(res.success)
        out[f"{name}_infeas"] = float(abs(res.alpha @ ytr) + max(0.0, -res.alpha.min()) + max(0.0, res.alpha.max() - C))
        if name == "scaled":
            out["alpha_scale_ratio"] = float(res.alpha.max() / C)
    soc = rsvm(K_bar, ytr, C, beta, kappa, method="socp", beta_approx="psd", sv_tol=1e-6)
    out["socp_psd_objective"] = float(soc.objective)
    out["socp_psd_kkt"] = float(soc.kkt_residual)
    return out


def local_optima_instance(b=100.0, d=0.1, k_diag=(1.0, 1.0, 1.0, 4.0)):
    r"""A four-point problem on which eq. (15) has two distinct local maxima (bhadra2010 §3: why QN restarts).

    Labels :math:`y = (1, 1, -1, -1)`, mean kernel :math:`\bar K = \mathrm{diag}(k)`, and a non-negative,
    indefinite :math:`\beta = dI + b(e_1e_3^\top + e_3e_1^\top + e_2e_4^\top + e_4e_2^\top)` (eigenvalues
    :math:`d \pm b`): the noise couples point 1 with 3 and point 2 with 4, so the robustness term
    :math:`\sqrt{\sum\beta_{ij}\alpha_i^2\alpha_j^2}` is small when :math:`\alpha` rests on the pair (1, 4) or on
    the pair (2, 3), and large on any mixture of the two. With :math:`d = 0` the two candidates are
    :math:`\alpha = s(1, 0, 0, 1)` and :math:`s(0, 1, 1, 0)`; each is a local maximum once the first-order cost of
    leaving it, :math:`\kappa\sqrt b\,s`, exceeds the first-order gain 2 (so :math:`\kappa\sqrt b > 5` for the
    first, with :math:`s = 2/(k_1 + k_4) = 0.4`, and :math:`> 2` for the second, :math:`s = 1`). ``d > 0`` keeps
    the robustness term positive, so both are smooth KKT points.

    Returns
    -------
    K_bar, y, beta : arrays

    Examples
    --------
    >>> K, y, beta = local_optima_instance()
    >>> bool(np.linalg.eigvalsh(beta)[0] < 0 and beta.min() >= 0)
    True
    """
    y = np.array([1.0, 1.0, -1.0, -1.0])
    beta = d * np.eye(4)
    for i, j in ((0, 2), (1, 3)):
        beta[i, j] = beta[j, i] = b
    return np.diag(np.asarray(k_diag, dtype=float)), y, beta


@task_name("robustpapers.bhadra2010.experiments:local_optima_task")
def local_optima_task(b, eps, C, n_starts, seed, d=0.1, rtol=1e-4):
    """RSVM_QN from ``n_starts`` random starts on :func:`local_optima_instance` (Gaussian kappa at ``eps``).

    The starts' end points are grouped by objective (relative ``rtol``); for each group: its value, the
    number of starts that ended there, the largest KKT residual (:func:`rsvm_kkt_residual`) among them and
    one end point. Also the SOCP on beta's PSD part (``beta_approx="psd"``) and its value on the true beta.
    """
    K, y, beta = local_optima_instance(b, d)
    kappa = kappa_gaussian(eps)
    qn = rsvm(K, y, C, beta, kappa, method="qn", n_starts=n_starts, random_state=derive_seed(seed, "locopt", b, eps))
    objs = qn.start_objectives
    order = np.argsort(-objs)
    groups = []
    for k in order:
        if groups and abs(objs[k] - groups[-1]["value"]) <= rtol * abs(groups[-1]["value"]):
            g = groups[-1]
        else:
            g = {"value": float(objs[k]), "count": 0, "kkt_max": 0.0, "alpha": qn.start_alphas[k].tolist()}
            groups.append(g)
        g["count"] += 1
        g["kkt_max"] = max(g["kkt_max"], rsvm_kkt_residual(K, y, beta, kappa, C, qn.start_alphas[k]))
    soc = rsvm(K, y, C, beta, kappa, method="socp", beta_approx="psd")
    return {"kappa": kappa, "n_optima": len(groups), "optima": groups, "best": float(qn.objective),
            "socp_psd_value": rsvm_objective(K, y, beta, kappa, soc.alpha)}
