"""Task functions of the bental2012 experiments (module-level, picklable, ``func(**params) -> dict``)."""
from __future__ import annotations

import math
import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import StratifiedKFold

from ...core import svm_dual
from ..engine import derive_seed, grid, task_checkpoint, task_name
from ...bental2012.data import make_uncertain_dataset
from ...bental2012.prediction import evaluate_prediction_rules
from ...bental2012.robust import robust_bias, robust_objective
from ...bental2012.socp import ussvm_socp
from ...bental2012.ussvm import ussvm_fss

__all__ = ["robustness_task", "convergence_task", "s_star", "scaling_task", "fig6_task", "socp_memory_gb",
           "paper_scale_tasks", "PAPER_SCALE_SWEEPS", "fig2_tasks", "FIG2_SETTINGS", "FIG2_DISTRIBUTIONS",
           "FIG2_VERSIONS", "FSS_FAST", "complete_blocks"]


FSS_FAST = dict(y0="alternate", recenter_x=True, polish=True, svm_tol=1e-10)
"""The fast variant of :func:`ussvm_fss` (our options, with backtracking steps): the alternating start, the
recentred x prox-centre and the polished certificate (LIBSVM tolerance 1e-10). FSS is unchanged; when the start
already meets the tolerance no FSS step is taken. Used by Fig. 6 and by Fig. 2 at paper scale."""


def _errors(prefix, errs):
    return {f"{prefix}_{k}": float(v) for k, v in errs.items()}


def _fold_problem(distribution, N, L, kappa, fold, n_folds, dataset_index, seed):
    """One fold of one D_{G,U,B}(1, N, L) data set (shared by Figs. 2 and 3): the data, the split, the
    training kernels, the test stack [K_bar; K_1..K_L], the labels and the seed of the eta draws."""
    ds = make_uncertain_dataset(distribution, N, L, random_state=derive_seed(seed, "data", distribution, N, L,
                                                                             dataset_index))
    folds = StratifiedKFold(n_splits=n_folds, shuffle=True, random_state=derive_seed(seed, "folds", dataset_index))
    train, test = list(folds.split(ds.X, ds.y))[fold]
    Kb, Ks = ds.kernels(train, train)
    Kb_te, Ks_te = ds.kernels(test, train)
    stack_te = np.concatenate([Kb_te[None], Ks_te])
    ytr, yte = ds.y[train], ds.y[test]
    eta_seed = derive_seed(seed, "eta", distribution, dataset_index, fold, kappa)
    return ds, train, test, Kb, Ks, stack_te, ytr, yte, eta_seed


@task_name("robustpapers.bental2012.experiments:robustness_task")
def robustness_task(distribution, N, L, kappa, C, R, fold, n_folds, dataset_index, seed,
                    fss_tol=1e-3, fss_max_iter=20000, methods=("svm", "socp", "mn"), fss_step="fixed", fss_fast=False,
                    socp_scale=None):
    """One fold of Fig. 2 / Fig. 3 (bental2012 §7.2-7.3): train nominal SVM, USSVM_SOCP and USSVM_MN on the
    training part of one D_{G,U,B}(1, N, L) data set and score NE, ME, RE with R draws of eta.

    All methods use the bias rule of §4.2 and the same R draws of eta on the test points.
    ``fss_step`` is the step rule of :func:`ussvm_fss` (paper's fixed step or backtracking); ``fss_fast=True`` adds
    the options :data:`FSS_FAST`. ``socp_scale`` is :func:`ussvm_socp`'s (None: the problem as given; "auto": the
    exactly rescaled one, on which Clarabel ends "optimal" where it ends "optimal_inaccurate" at paper size).
    """
    ds, train, test, Kb, Ks, stack_te, ytr, yte, eta_seed = _fold_problem(
        distribution, N, L, kappa, fold, n_folds, dataset_index, seed)
    out = {"d": int(ds.X.shape[1]), "n_train": int(train.size)}
    if "svm" in methods:
        t0 = time.perf_counter()
        sol = svm_dual(Kb, ytr, C)
        b = robust_bias(Kb, ytr, sol.alpha, C, rule="paper")
        out["svm_time"] = time.perf_counter() - t0
        out["svm_objective"] = robust_objective(sol.alpha, Kb, Ks, ytr, kappa)
        out.update(_errors("svm", evaluate_prediction_rules(stack_te, yte, ytr, sol.alpha, b, kappa, R=R,
                                                           random_state=eta_seed)))
    if "socp" in methods:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t0 = time.perf_counter()
            res = ussvm_socp(Kb, Ks, ytr, C, kappa, scale=socp_scale)
            out["socp_time"] = time.perf_counter() - t0
        out["socp_objective"] = res.objective
        out["socp_status"] = res.solver_status
        out.update(_errors("socp", evaluate_prediction_rules(stack_te, yte, ytr, res.alpha, res.b, kappa, R=R,
                                                            random_state=eta_seed)))
    if "mn" in methods:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            t0 = time.perf_counter()
            res = ussvm_fss(Kb, Ks, ytr, C, kappa, tol=fss_tol, max_iter=fss_max_iter, step=fss_step,
                            **(FSS_FAST if fss_fast else {}))
            out["mn_time"] = time.perf_counter() - t0
        out["mn_objective"] = res.objective
        out["mn_gap"] = res.gap
        out["mn_nit"] = int(res.nit)
        out["mn_success"] = bool(res.success)
        out.update(_errors("mn", evaluate_prediction_rules(stack_te, yte, ytr, res.alpha, res.b, kappa, R=R,
                                                          random_state=eta_seed)))
    return out


FIG2_DISTRIBUTIONS = ("gaussian", "uniform", "beta")
"""The three data distributions of Figs. 2-3 (000 §7.1.1): D_G, D_U, D_B."""
FIG2_SETTINGS = {
    "paper": dict(kappas=[0, 0.1, 0.2, 0.3, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 5], S=10, N=250, L=200,
                  folds=list(range(5)), R=100, C=100.0, fss_max_iter=100_000, fss_fast=True, socp_scale="auto"),
    "quick": dict(kappas=[0, 1, 5], S=1, N=15, L=10, folds=[0, 1], R=100, C=100.0, fss_max_iter=3000),
}
"""Fig. 2's sizes (000 §7.2): the paper's (S data sets of N points per class, L kernels, five folds, R draws,
C = 100, the kappa grid) and the CI page's; ``fss_max_iter`` is our cap on FSS steps. At the paper's sizes USSVM_MN
is the fast variant (``fss_fast``: :data:`FSS_FAST`) and USSVM_SOCP solves the rescaled problem (``socp_scale``):
a probe of one paper-size fold ran the plain USSVM_MN for over half an hour without certifying, and
Clarabel on the problem as given ended "optimal_inaccurate"."""
FIG2_VERSIONS = {"backtracking": 6, "fixed": 5}
"""Cache versions of Fig. 2's sweep by USSVM_MN's step rule. 3-4 took the bias's support set relative to the
largest alpha when no alpha_i exceeds 1e-6 C (1-2 returned b = 0 there: every alpha << C = 100); 5-6 also leave
out USSVM_MN's alpha_i <= tol * max alpha (``ussvm_fss``'s ``bias_floor``)."""


def _block_grid(settings, distributions, options, **inner):
    """The task order of Figs. 2-4: a (fold, data set) block at a time, the data sets first, so that each finished
    block is one more sample of every curve, from a new data set (a new dimension d) while the first fold goes
    round; ``inner`` is the innermost axis (kappa or C). Each task also gets the entries of ``settings`` named in
    ``options`` that are on: options off by default are left out, so the CI page's records keep their keys."""
    tasks = grid(fold=settings["folds"], dataset_index=list(range(settings["S"])), distribution=list(distributions),
                 **inner)
    on = {k: settings[k] for k in options if settings.get(k)}
    for t in tasks:
        t.update(on)
    return tasks


def complete_blocks(records, tasks):
    """The records of the complete (data set, fold) blocks of a sweep in the order of :func:`_block_grid` (Figs.
    2-4), so that every point of a figure averages the same folds.

    ``records``: the cached part of ``tasks`` (a DataFrame with ``dataset_index`` and ``fold`` columns, e.g. from
    :func:`robustpapers.reproduce.engine.cached_sweep`). Returns ``(full, blocks, per_block)``: the records of the blocks
    that have all their tasks, the sorted list of those (data set, fold) pairs, and the number of tasks a block
    has."""
    per_block = sum(t["dataset_index"] == tasks[0]["dataset_index"] and t["fold"] == tasks[0]["fold"]
                    for t in tasks) if tasks else 0
    if records.empty:
        return records, [], per_block
    full = records.groupby(["dataset_index", "fold"]).filter(lambda g: len(g) == per_block)
    return full, sorted({(int(d), int(f)) for d, f in zip(full.dataset_index, full.fold)}), per_block


def fig2_tasks(settings, seed, distributions=FIG2_DISTRIBUTIONS, fss_step="backtracking"):
    """Fig. 2's folds (bental2012 §7.2): one :func:`robustness_task` per distribution, kappa, data set and fold of
    ``settings`` (an entry of :data:`FIG2_SETTINGS`), USSVM_MN with step rule ``fss_step`` ("backtracking" or
    the paper's "fixed"); cache them under ``FIG2_VERSIONS[fss_step]``."""
    if fss_step not in FIG2_VERSIONS:
        raise ValueError(f"fss_step must be one of {', '.join(FIG2_VERSIONS)}, got {fss_step!r}")
    tasks = _block_grid(settings, distributions, ("fss_fast", "socp_scale"), kappa=settings["kappas"])
    for t in tasks:
        t.update(N=settings["N"], L=settings["L"], C=settings["C"], R=settings["R"], n_folds=5, seed=seed,
                 fss_tol=1e-3, fss_max_iter=settings["fss_max_iter"])
        if fss_step != "fixed":  # the fixed step is robustness_task's default: its records carry no fss_step
            t["fss_step"] = fss_step
    return tasks


def s_star(constants, s_max=200):
    r"""The stage :math:`s^*` of Proposition 2 (bental2012 eq. (20)):
    :math:`\max\{s : L_{xy}\sqrt{\Omega_X\Omega_Y}\,2^s/(L_{yy}\Omega_Y + \theta) \le (s+1)R_0\}` (-1 if none)."""
    c = constants["L_xy"] * math.sqrt(constants["Omega_X"] * constants["Omega_Y"])
    d = constants["L_yy"] * constants["Omega_Y"] + constants["theta"]
    best = -1
    for s in range(s_max):
        if c / d * 2.0**s <= (s + 1) * constants["R0"]:
            best = s
    return best


@task_name("robustpapers.bental2012.experiments:convergence_task")
def convergence_task(N, L, C, kappa, seed, tol, max_iter, schedule="adaptive", distribution="uniform",
                     step="fixed", variant="tuned"):
    r"""Fig. 5 (bental2012 §7.4): USSVM_MN on one D_U(1, N, L) data set; the per-stage trace (M_s, eps_sad).

    ``step``: the step rule of :func:`ussvm_fss` (paper's fixed step or backtracking). ``variant="tuned"``: the
    options of :func:`ussvm_fss` (``schedule`` as given, radius ``R0="auto"`` with the y-ball); ``"printed"``:
    FSS as the paper prints it -- stage lengths (16e) (``schedule="theory"``), :math:`R_0 = 2C\sqrt n`, start
    :math:`\bar y_0 = 0`, x restarted at its prox-centre, the fixed step (16b) (``schedule`` and ``step`` must
    then be "theory" and "fixed"); the strong-concavity modulus of (16e) is
    :math:`\lambda_{\min}(\bar K) + \kappa\min_l\lambda_{\min}(K_l)` (the x-set restricted to
    :math:`e^\top x \ge 1`, which holds at the saddle point), as :math:`\lambda_{\min}(\bar K) = 0` for the
    linear kernel with d < n would make (16e) infinite. Run by
    :func:`robustpapers.reproduce.engine.run_sweep`, the iterations are checkpointed every five minutes and a killed run
    goes on where it stopped (a paper-scale N = 500 run takes hours); ``fss_seconds`` is the computation time
    of all its segments and ``commits`` the code versions that computed them."""
    ds = make_uncertain_dataset(distribution, N, L, random_state=derive_seed(seed, "conv", N, L))
    store = task_checkpoint()
    state = store.load() if store is not None else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        if variant == "printed":
            if schedule != "theory" or step != "fixed":
                raise ValueError(f"variant='printed' runs schedule='theory', step='fixed'; got {schedule!r}, {step!r}")
            extra = dict(R0="paper", y0="zeros", restrict_y=False, recenter_x=False, restrict_x=True)
        elif variant == "tuned":
            extra = {}
        else:
            raise ValueError(f"variant must be 'tuned' or 'printed', got {variant!r}")
        res = ussvm_fss(ds.K_bar, ds.K_stack, ds.y, C, kappa, tol=tol, max_iter=max_iter, schedule=schedule,
                        step=step, checkpoint=None if store is None else store.save, checkpoint_every=300.0,
                        resume=state, **extra)
    tr = res.trace
    keep = tr["stage"] >= 0
    consts = {k: float(v) for k, v in res.constants.items() if v is not None}
    return {
        "stage": tr["stage"][keep].astype(int).tolist(), "M": tr["M"][keep].astype(int).tolist(),
        "N_s": tr["N"][keep].astype(int).tolist(), "gap": tr["gap"][keep].tolist(),
        "R": tr["R"][keep].tolist(), "objective": float(res.objective), "success": bool(res.success),
        "s_star": s_star(consts), "constants": consts, "d": int(ds.X.shape[1]), "n": int(ds.y.size),
        "fss_seconds": float(tr["time"][-1]), "commits": None if store is None else store.commits,
    }


PAPER_SCALE_SWEEPS = ("fig2", "fig3", "fig5", "fig6", "table2_proteins", "table2_proteins_mn")
"""The sweeps :func:`paper_scale_tasks` knows (the reproduction log reports how much of each is cached)."""
FIG5_PROBLEMS = (dict(N=50, L=5, C=1.0), dict(N=500, L=5, C=10.0))
"""The two problems of Fig. 5 (000 §7.4): D_U(1, N, 5) with their C."""
FIG6_N, FIG6_L = (250, 500, 1000, 1500, 2000, 2500), (10, 50)
"""Fig. 6's points per class and numbers of kernels (000 §7.5; C = 10, kappa = 1)."""
FIG6_SOCP_CAP, FIG6_SOCP_MAX_GB = 3600.0, 8.0
"""Our limits on one USSVM_SOCP run of Fig. 6 at paper scale: one hour (then censored) and 8 GB predicted memory
(then not attempted) on the 24 GB machine shared with a second worker."""


@task_name("robustpapers.bental2012.experiments:printed_schedule_task")
def printed_schedule_task(N, L, C, kappa, seed, stages=6, distribution="uniform"):
    """The schedule of FSS as printed on Fig. 5's problem D_U(1, N, L) (the data of :func:`convergence_task`):
    the constants of §5.3 at R0 = 2C sqrt(n), the stage lengths N_s of (16e) for the first ``stages`` stages and
    s* of (20). No FSS step is taken."""
    from types import SimpleNamespace

    from ...core.fss import fss_stage_constants

    ds = make_uncertain_dataset(distribution, N, L, random_state=derive_seed(seed, "conv", N, L))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = ussvm_fss(ds.K_bar, ds.K_stack, ds.y, C, kappa, tol=1e-8, max_iter=1, schedule="theory", R0="paper",
                        y0="zeros", restrict_y=False, recenter_x=False, restrict_x=True)
    c = {k: float(v) for k, v in res.constants.items() if v is not None}
    prob = SimpleNamespace(**{k: c[k] for k in ("L_xy", "L_yy", "Omega_X", "Omega_Y", "theta")})
    N_s = [int(fss_stage_constants(prob, c["R0"] / 2**s)["N"]) for s in range(stages)]
    return {"N_s": N_s, "M_s": np.cumsum(N_s).tolist(), "s_star": s_star(c), "constants": c}


def fig5_printed_tasks(seed=0):
    """FSS as printed (:func:`convergence_task` with ``variant="printed"``) on Fig. 5's first problem,
    D_U(1, 50, 5) with C = 1, the paper's tolerance 1e-8 and budget of 2,000,000 steps. (Its second problem,
    N = 500, needs 1,598,991 steps for the first stage (16e) alone, at about 7 ms a step: not run.)"""
    prob = FIG5_PROBLEMS[0]
    return [dict(prob, kappa=1.0, seed=seed, schedule="theory", step="fixed", tol=1e-8, max_iter=2_000_000,
                 variant="printed")]


def paper_scale_tasks(experiment, seed=0, datasets=None):
    """The paper-scale sweeps too long for one sitting, for ``scripts/paper_scale.py`` and the page alike.

    ``"fig2"``: Fig. 2's 1950 folds at the paper's sizes (:func:`fig2_tasks` with ``FIG2_SETTINGS["paper"]``:
    USSVM_MN's fast variant :data:`FSS_FAST` with backtracking steps, the rescaled SOCP); ``datasets`` picks
    distributions of :data:`FIG2_DISTRIBUTIONS`, in the order given.
    ``"fig3"``: Figs. 3-4's 1200 (data set, fold, C) tasks at the paper's sizes (:func:`fig3_tasks` with
    ``FIG3_SETTINGS["paper"]``: RSVM over the whole eps grid inside each, USSVM_MN's fast variant); ``datasets`` as
    for ``"fig2"``.
    ``"fig5"``: Fig. 5's two problems (:data:`FIG5_PROBLEMS`), each with the paper's fixed step and with
    backtracking steps, tolerance 1e-8 and 2,000,000 steps (:func:`convergence_task`, checkpointed). (FSS as
    printed on the first problem, :func:`fig5_printed_tasks`, is the sweep ``fig5_convergence`` of the artefact
    module :mod:`~robustpapers.reproduce.bental2012.fig5`.)
    ``"fig6"``: Fig. 6's 24 points (:data:`FIG6_N` x :data:`FIG6_L` x SOCP/MN, :func:`fig6_task`), float32
    kernels from N = 1500, the SOCP capped by :data:`FIG6_SOCP_CAP` and :data:`FIG6_SOCP_MAX_GB`.
    ``"table2_proteins"``: Tables 2-3 and Fig. 7 in the paper's protocol, one :func:`table2_pair_task` per
    one-vs-one problem (:data:`~robustpapers.reproduce.bental2012.experiments_proteins.TABLE2_SETTINGS` ``["paper"]``);
    ``datasets`` picks problems by their index in ``TABLE2_PAIRS`` (0..104), in the order given.
    ``"table2_proteins_mn"``: the same problems, USSVM_MN alone with ``ussvm_fss``'s default bias floor
    (:func:`~robustpapers.reproduce.bental2012.experiments_proteins.table2_mn_tasks`; same directory). Returns
    ``(func, tasks, experiment directory, version)``.
    """
    if experiment in ("table2_proteins", "table2_proteins_mn"):
        from .experiments_proteins import (
            TABLE2_PAIRS, TABLE2_SETTINGS, table2_mn_tasks, table2_pair_task, table2_tasks,
        )

        pairs, last = TABLE2_PAIRS, len(TABLE2_PAIRS) - 1
        if datasets is not None:
            idx = [int(d) if str(d).isdigit() else -1 for d in datasets]
            bad = [d for d, i in zip(datasets, idx) if not 0 <= i <= last]
            if bad:
                raise ValueError(f"datasets {bad} are not problem indices 0..{last} of {experiment}")
            pairs = [TABLE2_PAIRS[i] for i in idx]
        make = table2_tasks if experiment == "table2_proteins" else table2_mn_tasks
        return table2_pair_task, make(TABLE2_SETTINGS["paper"], seed, pairs), "table2_proteins", 2
    if experiment in ("fig2", "fig3"):
        dists = FIG2_DISTRIBUTIONS if datasets is None else list(datasets)
        bad = [d for d in dists if d not in FIG2_DISTRIBUTIONS]
        if bad:
            raise ValueError(f"datasets {bad} are not distributions of {experiment}; known: "
                             f"{', '.join(FIG2_DISTRIBUTIONS)}")
        if experiment == "fig2":
            return (robustness_task, fig2_tasks(FIG2_SETTINGS["paper"], seed, dists), "fig2_robustness",
                    FIG2_VERSIONS["backtracking"])
        return cv_task, fig3_tasks(FIG3_SETTINGS["paper"], seed, dists), "fig3_cv", FIG3_VERSION
    if datasets is not None:
        raise ValueError("bental2012's paper-scale sweeps fig5 and fig6 have no data set axis; leave datasets out")
    if experiment == "fig5":
        tasks = [dict(prob, kappa=1.0, seed=seed, schedule="adaptive", step=step, tol=1e-8, max_iter=2_000_000)
                 for prob in FIG5_PROBLEMS for step in ("fixed", "backtracking")]
        return convergence_task, tasks, "fig5_convergence", 2
    if experiment == "fig6":
        tasks = [dict(L=L, N=N, method=method, C=10.0, kappa=1.0, seed=seed, socp_time_limit=FIG6_SOCP_CAP,
                      fss_tol=1e-3, dtype="float32" if N >= 1500 else "float64", socp_max_gb=FIG6_SOCP_MAX_GB)
                 for L in FIG6_L for N in FIG6_N for method in ("socp", "mn")]
        return fig6_task, tasks, "fig6_scaling", 3
    raise ValueError(f"unknown bental2012 paper-scale experiment {experiment!r}; known: "
                     + ", ".join(map(repr, PAPER_SCALE_SWEEPS)))


@task_name("robustpapers.bental2012.experiments:scaling_task")
def scaling_task(N, L, C, kappa, seed, method, fss_tol=1e-3, fss_max_iter=50000, distribution="uniform",
                 dtype="float64"):
    """Fig. 6 (bental2012 §7.5): training time of USSVM_SOCP or USSVM_MN on D_U(1, N, L) (whole data set)."""
    ds = make_uncertain_dataset(distribution, N, L, random_state=derive_seed(seed, "scaling", N, L))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t0 = time.perf_counter()
        if method == "socp":
            res = ussvm_socp(ds.K_bar, ds.K_stack, ds.y, C, kappa)
            extra = {"status": res.solver_status}
        else:
            res = ussvm_fss(ds.K_bar, ds.K_stack, ds.y, C, kappa, tol=fss_tol, max_iter=fss_max_iter,
                            dtype=np.dtype(dtype))
            extra = {"status": "certified" if res.success else "max_iter", "gap": res.gap, "nit": int(res.nit)}
        wall = time.perf_counter() - t0
    return {"time": wall, "objective": float(res.objective), **extra}


# ----------------------------------------------------------------------------------------------------------------
# Figs. 3-4 (bental2012 §7.3): cross-validation accuracy (NE, ME, RE) and training time of USSVM_SOCP, USSVM_MN, RSVM
# and the nominal SVM, one task per (data set, fold, C); RSVM over its whole eps grid inside the task.
# ----------------------------------------------------------------------------------------------------------------

__all__ += ["cv_task", "fig3_tasks", "FIG3_SETTINGS", "FIG3_VERSION"]

FIG3_SETTINGS = {
    "paper": dict(S=10, N=250, L=200, folds=list(range(5)), R=100, Cs=[0.1, 1, 5, 10, 50, 100, 200, 500],
                  eps=[round(0.05 + 0.05 * k, 2) for k in range(10)], rsvm_starts=100, fss_max_iter=100_000,
                  fss_fast=True),
    "quick": dict(S=1, N=15, L=10, folds=[0, 1], R=30, Cs=[1.0, 100.0], eps=[0.05, 0.5], rsvm_starts=5,
                  fss_max_iter=3000),
}
"""Figs. 3-4's sizes (000 §7.3): the paper's (S data sets of N points per class, L kernels, five folds, R draws,
the C and eps grids, 100 random starts of RSVM) and the CI page's; ``fss_max_iter`` is our cap on FSS steps. At the
paper's sizes USSVM_MN is the fast variant (``fss_fast``: :data:`FSS_FAST`), as in Fig. 2: in a probe of one
paper-size fold the plain variant had not certified the 1e-3 gap after 3000 steps (73 s), the fast one certified it
from its start (1.3 s)."""
FIG3_VERSION = 4
"""Cache version of Figs. 3-4's sweep. 3 took the bias's support set relative to the largest alpha when no
alpha_i exceeds 1e-6 C (2 gave the nominal SVM and the USSVMs b = 0 there, e.g. at C = 100 where every
alpha << C); 4: USSVM_MN's bias also leaves out alpha_i <= tol * max alpha (``ussvm_fss``'s ``bias_floor``)."""


def fig3_tasks(settings, seed, distributions=FIG2_DISTRIBUTIONS):
    """Figs. 3-4's tasks (bental2012 §7.3): one :func:`cv_task` per data set, fold, distribution and C of ``settings`` (an
    entry of :data:`FIG3_SETTINGS`), kappa = 1, RSVM over the eps grid inside each; cache them under
    :data:`FIG3_VERSION`. In the order of :func:`fig2_tasks`: a (fold, data set) block at a time."""
    tasks = _block_grid(settings, distributions, ("fss_fast",), C=settings["Cs"])
    for t in tasks:
        t.update(N=settings["N"], L=settings["L"], eps_grid=settings["eps"], kappa=1.0, R=settings["R"], n_folds=5,
                 seed=seed, rsvm_starts=settings["rsvm_starts"], fss_tol=1e-3, fss_max_iter=settings["fss_max_iter"])
    return tasks


@task_name("robustpapers.bental2012.experiments:cv_task")
def cv_task(distribution, N, L, C, eps_grid, kappa, R, fold, n_folds, dataset_index, seed, rsvm_starts=100,
            rsvm_method="qn", fss_tol=1e-3, fss_max_iter=20000, fss_step="backtracking", fss_R0="probe",
            socp_scale="auto", fss_fast=False):
    """One fold and one C of Figs. 3-4 (bental2012 §7.3): train the nominal SVM, USSVM_SOCP, USSVM_MN (at ``kappa``)
    and RSVM (at every eps of ``eps_grid``) on the training part of one D_{G,U,B}(1, N, L) data set, score
    NE, ME (27) and RE (28) on the test part with the same R draws of eta for all, and time each training.

    The data set and the folds are those of :func:`robustness_task` (same seeds). USSVM_SOCP (on the exactly
    rescaled problem, ``scale=socp_scale``) and the nominal SVM use the bias rule of §4.2; USSVM_MN is
    :func:`ussvm_fss` with ``step=fss_step`` and ``R0=fss_R0`` (and the options :data:`FSS_FAST` if ``fss_fast``);
    RSVM is :func:`robustpapers.reproduce.bental2012.rsvm_baseline.rsvm_on_kernel_set` (support information of §7.1.2 from the L
    training kernels; ``rsvm_method`` and ``rsvm_starts`` random starts for QN) with its own bias rule.
    Times are wall-clock seconds of the training call only (``rsvm_prep_time``: mean kernel and beta,
    computed once per task; ``rsvm_time``: one solve per eps). RSVM's results are lists aligned with
    ``eps_grid``.
    """
    from ...bental2012 import rsvm_beta_from_kernels
    from .rsvm_baseline import rsvm_on_kernel_set

    ds, train, test, Kb, Ks, stack_te, ytr, yte, eta_seed = _fold_problem(
        distribution, N, L, kappa, fold, n_folds, dataset_index, seed)

    def score(alpha, b):
        return evaluate_prediction_rules(stack_te, yte, ytr, alpha, b, kappa, R=R, random_state=eta_seed)

    out = {"d": int(ds.X.shape[1]), "n_train": int(train.size), "n_test": int(test.size)}
    t0 = time.perf_counter()
    sol = svm_dual(Kb, ytr, C)
    b = robust_bias(Kb, ytr, sol.alpha, C, rule="paper")
    out["svm_time"] = time.perf_counter() - t0
    out["svm_objective"] = robust_objective(sol.alpha, Kb, Ks, ytr, kappa)
    out.update(_errors("svm", score(sol.alpha, b)))

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t0 = time.perf_counter()
        res = ussvm_socp(Kb, Ks, ytr, C, kappa, scale=socp_scale)
        out["socp_time"] = time.perf_counter() - t0
    out["socp_objective"] = float(res.objective)
    out["socp_status"] = str(res.solver_status)
    out["socp_eta_sum"] = float(np.sum(res.eta))  # the effective kernel is K_bar + sum_l eta_l K_l
    out.update(_errors("socp", score(res.alpha, res.b)))

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        t0 = time.perf_counter()
        res = ussvm_fss(Kb, Ks, ytr, C, kappa, tol=fss_tol, max_iter=fss_max_iter, step=fss_step, R0=fss_R0,
                        **(FSS_FAST if fss_fast else {}))
        out["mn_time"] = time.perf_counter() - t0
    out["mn_objective"] = float(res.objective)
    out["mn_gap"] = float(res.gap)
    out["mn_nit"] = int(res.nit)
    out["mn_success"] = bool(res.success)
    out.update(_errors("mn", score(res.alpha, res.b)))

    t0 = time.perf_counter()
    prepared = rsvm_beta_from_kernels(Ks)
    out["rsvm_prep_time"] = time.perf_counter() - t0
    rs = {k: [] for k in ("NE", "ME", "RE", "time", "objective", "success")}
    for eps in eps_grid:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            t0 = time.perf_counter()
            res = rsvm_on_kernel_set(Ks, ytr, C, eps, method=rsvm_method, n_starts=rsvm_starts,
                                     beta_approx="psd" if rsvm_method == "socp" else None,
                                     random_state=derive_seed(seed, "rsvm", distribution, dataset_index, fold, C, eps),
                                     prepared=prepared)
            rs["time"].append(time.perf_counter() - t0)
        rs["objective"].append(float(res.objective))
        rs["success"].append(bool(res.success))
        for k, v in score(res.alpha, res.b).items():
            rs[k].append(float(v))
    out.update({f"rsvm_{k}": v for k, v in rs.items()})
    return out


#: Peak memory of cvxpy + Clarabel on (13) per entry of the L + 1 kernels, measured on this project's machine
#: (cvxpy 1.9.3, Clarabel): 0.10 GB at n = 250 and 0.35 GB at n = 500 with L = 10, 0.41 GB at n = 250 with
#: L = 50, i.e. 125-150 bytes an entry.
SOCP_BYTES_PER_ENTRY = 150


def socp_memory_gb(n, L):
    """Predicted peak memory in GB of :func:`ussvm_socp` on n points and L kernels
    (:data:`SOCP_BYTES_PER_ENTRY` times the :math:`(L+1)n^2` kernel entries it canonicalises)."""
    return SOCP_BYTES_PER_ENTRY * (int(L) + 1) * int(n) ** 2 / 1e9


@task_name("robustpapers.bental2012.experiments:fig6_task")
def fig6_task(N, L, C, kappa, seed, method, socp_time_limit=3600.0, fss_tol=1e-3, fss_max_iter=20000,
              distribution="uniform", dtype="float64", socp_max_gb=None):
    """One point of Fig. 6 (bental2012 §7.5): training time of USSVM_SOCP or USSVM_MN on D_U(1, N, L) (N per class).

    ``method="socp"``: :func:`ussvm_socp` (cvxpy + Clarabel on the exactly rescaled problem) with Clarabel's
    ``time_limit = socp_time_limit``; a run that hits the limit (or returns no solution) is *censored*:
    ``time`` is then a lower bound and ``objective`` is NaN. ``method="mn"``: :func:`ussvm_fss` to the relative
    certificate ``fss_tol`` from the alternating start with the recentred x prox-centre and backtracking steps
    (the fast variant of the speed benchmark, LIBSVM tolerance 1e-10 in the certificate). Both see the same data set (the seed does not depend on the method).
    The time excludes data generation and includes everything else (eigenvalues, start, certificates).
    ``socp_max_gb``: an SOCP whose predicted memory (:func:`socp_memory_gb`) exceeds it is not attempted
    (``attempted=False``, censored, ``time`` NaN) rather than exhaust the machine.
    """
    gb = socp_memory_gb(2 * N, L)
    if method == "socp" and socp_max_gb is not None and gb > socp_max_gb:
        return {"n": int(2 * N), "status": f"not attempted: needs about {gb:.0f} GB > {socp_max_gb:g} GB",
                "censored": True, "attempted": False, "objective": float("nan"), "gap": float("nan"), "nit": 0,
                "time": float("nan")}
    ds = make_uncertain_dataset(distribution, N, L, random_state=derive_seed(seed, "fig6", N, L),
                                dtype=np.dtype(dtype))
    out = {"n": int(ds.y.size)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t0 = time.perf_counter()
        if method == "socp":
            try:
                res = ussvm_socp(ds.K_bar, ds.K_stack, ds.y, C, kappa, scale="auto",
                                 solver_opts={"time_limit": float(socp_time_limit)})
                status, objective = res.solver_status, float(res.objective)
            except RuntimeError as err:  # Clarabel stopped at the time limit without a solution
                status, objective = f"no solution ({err})"[:120], float("nan")
            wall = time.perf_counter() - t0
            censored = not status.startswith("optimal") or wall >= socp_time_limit
            out.update(status=status, censored=bool(censored), objective=objective, gap=float("nan"), nit=0)
        elif method == "mn":
            res = ussvm_fss(ds.K_bar, ds.K_stack, ds.y, C, kappa, tol=fss_tol, max_iter=fss_max_iter,
                            dtype=np.dtype(dtype), step="backtracking", eig="exact" if ds.y.size <= 1200 else "power",
                            **FSS_FAST)
            wall = time.perf_counter() - t0
            out.update(status="certified" if res.success else "max_iter", censored=not bool(res.success),
                       objective=float(res.objective), gap=float(res.gap), nit=int(res.nit))
        else:
            raise ValueError(f"method must be 'socp' or 'mn', got {method!r}")
    out["time"] = float(wall)
    out["attempted"] = True
    return out
