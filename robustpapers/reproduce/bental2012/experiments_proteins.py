r"""bental2012 Tables 2-3 and Fig. 7 on the resolution-aware structure analog: one-vs-one problems, leave-one-out.

bental2012 §7.7 protocol: 15 superfamilies of 10 structures give 105 one-vs-one problems; every structure
:math:`P_i` gets :math:`L = 50` resolution draws :math:`P^l_i` (each coordinate
:math:`+\,U(-r_i/2, r_i/2)`), :math:`\mathbf K_l` is the substructure kernel (bental2012 App. C) on the
:math:`l`-th draw of every structure, :math:`\overline{\mathbf K} = \frac1L\sum_l\mathbf K_l`, the
uncertainty set is :math:`\mathcal E(1)` (eq. (11)) and the classifiers are scored by leave-one-out
(LOO) with the three error measures of §6.2 (NominalErr, MajorityErr (27), RobustErr (28)) under
:math:`R = 100` draws of :math:`\eta`, reported as accuracy :math:`100(1 - \mathrm{Err})`.

The classifiers (bental2012 Table 2):

* ``USSVM_SOCP`` — (12) solved as the conic program (13) (:func:`robustpapers.bental2012.ussvm_socp`);
* ``USSVM_MN`` — the same problem by FSS (:func:`robustpapers.bental2012.ussvm_fss`);
* ``RSVM`` — bhadra2010 eq. (15) with the finite support of bental2012 §7.1.2 (:math:`a = \min_l \mathbf K_l`,
  :math:`b = \max_l \mathbf K_l`) solved by DFP quasi-Newton from random starts, best start kept
  (bental2012 §7.1.2: "the best starting point among 100"; :func:`robustpapers.bhadra2010.rsvm`, ``"qn"``);
* ``Nominal`` — the SVM on the kernel of the unperturbed structures (bental2012 §7.7.1);
* ``SVM_Kbar`` — (ours, extra) the SVM on :math:`\overline{\mathbf K}`, i.e. USSVM at :math:`\kappa = 0`.

Every classifier is scored by the same rules on the same test kernels: the nominal rule (25) on
:math:`\overline{\mathbf K}` and the :math:`R` kernels :math:`\overline{\mathbf K} + \sum_l\eta_l\mathbf K_l`
of rule (26), with the same draws of :math:`\eta` for all classifiers of a fold.
"""
from __future__ import annotations

import itertools
import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from ...bhadra2010 import beta_from_kernel_support
from ...core import check_binary_labels, check_finite_array, check_positive, prediction_errors, svm_dual
from ..engine import derive_seed, task_name
from ...structures import build_kernel_set, make_structure_families
from ...bental2012.prediction import sampled_decisions
from ...bental2012.robust import robust_bias
from ...bental2012.socp import ussvm_socp
from ...bental2012.ussvm import ussvm_fss

__all__ = ["PROTEIN_METHODS", "pair_kernel_set", "fold_classifier", "loo_fold", "loo_decisions",
           "loo_accuracies", "table2_pair_task", "ussvm_scale_task", "TABLE2_SETTINGS", "TABLE2_PAIRS",
           "table2_tasks", "table2_mn_tasks"]

#: Columns of bental2012 Table 2 in the paper's order, plus our ``SVM_Kbar``.
PROTEIN_METHODS = ("USSVM_SOCP", "USSVM_MN", "RSVM", "Nominal", "SVM_Kbar")

#: The Tables 2-3 page's settings (:func:`table2_pair_task`'s arguments but the pair): ``"quick"`` (CI: 5
#: structures per family, L = 10, R = 20, one grid point, 3 RSVM starts) and ``"paper"`` (bental2012 §7.7: 10 structures
#: per family, L = 50, R = 100, the C and eps grids of bental2012 §7.3, 100 RSVM starts).
TABLE2_SETTINGS = {
    "quick": dict(n_families=15, n_members=5, length=8, L=10, l=4, sigma=4.0, kappa=1.0, R=20, Cs=[1.0],
                  epss=[0.1], n_starts=3),
    "paper": dict(n_families=15, n_members=10, length=12, L=50, l=4, sigma=4.0, kappa=1.0, R=100,
                  Cs=[0.1, 1.0, 5.0, 10.0, 50.0, 100.0, 200.0, 500.0],
                  epss=[round(0.05 + 0.05 * k, 2) for k in range(10)], n_starts=100),
}
#: The 105 one-vs-one problems of 15 families (bental2012 §7.7), as (f1, f2).
TABLE2_PAIRS = tuple(itertools.combinations(range(15), 2))


def table2_tasks(settings, seed=0, pairs=TABLE2_PAIRS):
    """The :func:`table2_pair_task` parameters of one Tables 2-3 sweep, one per problem, cached as
    ``run_sweep(table2_pair_task, tasks, paperkey="bental2012", experiment="table2_proteins", version=2)``.

    >>> tasks = table2_tasks(TABLE2_SETTINGS["paper"])
    >>> len(tasks), tasks[0]["f1"], tasks[0]["f2"], tasks[-1]["L"]
    (105, 0, 1, 50)
    """
    return [dict(seed=seed, f1=int(a), f2=int(b), **settings) for a, b in pairs]


def table2_mn_tasks(settings, seed=0, pairs=TABLE2_PAIRS):
    """:func:`table2_tasks` for USSVM_MN alone, with ``ussvm_fss``'s default bias floor (its tolerance) instead of
    the 0 the first Tables 2-3 sweep used; cached in the same experiment (``version=2``), under other keys.

    The FSS runs are those of the first sweep (same data, folds and options), so only the bias of §4.2 changes.

    >>> tasks = table2_mn_tasks(TABLE2_SETTINGS["quick"], pairs=[(0, 1)])
    >>> tasks[0]["methods"], tasks[0]["fss_bias_floor"]
    (['USSVM_MN'], None)
    """
    return [dict(t, methods=["USSVM_MN"], fss_bias_floor=None) for t in table2_tasks(settings, seed, pairs)]


def pair_kernel_set(seed, f1, f2, n_families, n_members, length, L, l=4, sigma=4.0, kernel_method="exact"):
    r"""The one-vs-one problem family ``f1`` (+1) vs ``f2`` (-1) of the structure analog and its kernel set.

    The data set is ``make_structure_families(n_families, n_members, length, random_state=seed)``
    (the analog of bental2012 §7.1.2's SCOP set); the kernel set of the problem's :math:`2\times` ``n_members``
    structures is :func:`robustpapers.structures.build_kernel_set` with :math:`L` draws,

    .. math::

        (\mathbf K_l)_{ij} = K(P^l_i, P^l_j),\quad \overline{\mathbf K} = \tfrac1L\textstyle\sum_l\mathbf K_l,
        \quad a_{ij} = \min_l(\mathbf K_l)_{ij},\quad b_{ij} = \max_l(\mathbf K_l)_{ij}

    (bental2012 §4.3, §7.1.2, §7.7), the draws seeded by ``derive_seed(seed, "kernels", f1, f2)``.

    Returns
    -------
    ks : :class:`robustpapers.structures.KernelSet`
    y : array (n,) of +-1
    names : (str, str) the two families' names

    Examples
    --------
    >>> ks, y, names = pair_kernel_set(0, 0, 1, n_families=2, n_members=2, length=8, L=2, l=3)
    >>> ks.K_draws.shape, y.tolist()
    ((2, 4, 4), [1, 1, -1, -1])
    """
    data = make_structure_families(n_families=n_families, n_members=n_members, length=length, random_state=seed)
    idx, y = data.pair(f1, f2)
    ks = build_kernel_set([data.coords[i] for i in idx], data.resolution[idx], L=L, l=l, sigma=sigma,
                          method=kernel_method, random_state=derive_seed(seed, "kernels", int(f1), int(f2)))
    return ks, y, (data.family_names[f1], data.family_names[f2])


def fold_classifier(method, train, y, C, kappa=1.0, eps=None, *, n_starts=10, fss_tol=1e-3,
                    fss_max_iter=20000, fss_bias_floor=None, random_state=None):
    r"""Train one of :data:`PROTEIN_METHODS` on a fold's training kernel set; return ``(alpha, b, info)``.

    .. math::

        \text{USSVM: }\max_{\alpha\in S_n}\ e^\top\alpha - \tfrac12\alpha^\top Y\overline{\mathbf K}Y\alpha
        - \tfrac12\kappa\big\|(\alpha^\top Y\mathbf K_lY\alpha)_{l}\big\|_2
        \qquad\text{(bental2012 eq. (12), } p = 2\text{)}

    Parameters
    ----------
    method : one of :data:`PROTEIN_METHODS`
    train : KernelSet
        The training block (``ks.subset(train_indices)``).
    y : array (m,) of +-1
    C : float > 0
    kappa : float >= 0
        :math:`\kappa` of :math:`\mathcal E(\kappa)` for the USSVM rows (bental2012 §7.7: 1).
    eps : float in (0, 1)
        RSVM's chance-constraint level, :math:`\kappa_{RSVM} = \sqrt{2\log(1/\epsilon)}` (ignored by the others).
    n_starts : int
        RSVM's quasi-Newton random starts (bental2012: 100).
    fss_tol, fss_max_iter, fss_bias_floor
        USSVM_MN's relative gap tolerance, iteration cap and ``bias_floor`` (:func:`ussvm_fss`, backtracking
        step; ``fss_bias_floor=None``: the tolerance, 0: every :math:`\alpha_i > 10^{-6}C` is a support vector).
    random_state : int or None
        RSVM's starts.

    Returns
    -------
    alpha : array (m,), b : float, info : dict (``objective``, ``time``; USSVM_MN: ``gap``, ``nit``, ``success``;
    USSVM_SOCP: ``status``; both USSVMs: the worst case ``eta`` behind their bias). Every classifier's bias is the rule of bental2012 §4.2 on its own kernel, except RSVM's
    (the rule of bhadra2010 §3 on :math:`\overline{\mathbf K}`, as :func:`robustpapers.bhadra2010.rsvm` returns it).

    Examples
    --------
    >>> import numpy as np
    >>> ks, y, _ = pair_kernel_set(0, 0, 1, n_families=2, n_members=2, length=8, L=2, l=3)
    >>> alpha, b, info = fold_classifier("USSVM_SOCP", ks.subset(np.arange(3)), y[:3], C=1.0)
    >>> alpha.shape, info["status"]
    ((3,), 'optimal')
    """
    y = check_binary_labels(y).astype(float)
    C = check_positive(C, "C")
    t0 = time.perf_counter()
    info = {}
    if method == "USSVM_SOCP":
        with warnings.catch_warnings():
            # a non-optimal status ("optimal_inaccurate") is recorded in info["status"], not printed
            warnings.simplefilter("ignore", ConvergenceWarning)
            warnings.simplefilter("ignore", UserWarning)
            res = ussvm_socp(train.K_bar, train.K_draws, y, C, kappa)
        alpha, b = res.alpha, res.b
        info.update(objective=float(res.objective), status=str(res.solver_status), eta=res.eta)
    elif method == "USSVM_MN":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            res = ussvm_fss(train.K_bar, train.K_draws, y, C, kappa, tol=fss_tol, max_iter=fss_max_iter,
                            step="backtracking", bias_floor=fss_bias_floor)
        alpha, b = res.alpha, res.b
        info.update(objective=float(res.objective), gap=float(res.gap), nit=int(res.nit), success=bool(res.success),
                    eta=res.eta)
    elif method == "RSVM":
        from ...bhadra2010 import rsvm
        from ...bental2012 import rsvm_kappa

        if eps is None:
            raise ValueError("RSVM needs eps (its chance-constraint level)")
        beta = beta_from_kernel_support(train.K_bar, train.a, train.b)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            # DFP's cap as in rsvm_on_kernel_set, this chapter's RSVM baseline (Figs. 3-4)
            # rsvm_kappa, as in Figs. 3-4: the paper's grid includes eps = 0.5, outside bhadra2010's range eps < 0.5
            res = rsvm(train.K_bar, y, C, beta, rsvm_kappa(eps), method="qn", n_starts=n_starts,
                       max_iter=2000, random_state=random_state)
        alpha, b = res.alpha, res.b
        info.update(objective=float(res.objective))
    elif method in ("Nominal", "SVM_Kbar"):
        K = train.K_nominal if method == "Nominal" else train.K_bar
        sol = svm_dual(K, y, C)
        alpha, b = sol.alpha, robust_bias(K, y, sol.alpha, C, rule="paper")
        info.update(objective=float(sol.objective))
    else:
        raise ValueError(f"method must be one of {PROTEIN_METHODS}, got {method!r}")
    info["time"] = time.perf_counter() - t0
    return np.asarray(alpha, dtype=float), float(b), info


def loo_fold(method, ks, y, t, C, kappa=1.0, eps=None, *, R=100, seed=0, n_starts=10, fss_tol=1e-3,
             fss_max_iter=20000, fss_bias_floor=None):
    r"""One leave-one-out fold (bental2012 §7.7): train on every structure but ``t``, score ``t``.

    The classifier sees only ``ks.subset(others)`` (no kernel value of :math:`t`) and is scored on
    :math:`t`'s test rows: :math:`\overline{\mathbf K}_{t,\cdot}` for the nominal rule (25) and
    :math:`\overline{\mathbf K}_{t,\cdot} + \sum_l \eta^s_l(\mathbf K_l)_{t,\cdot}`, :math:`s = 1..R`, for
    rule (26), :math:`\eta^s` uniform on :math:`\{\eta\ge0, \|\eta\|_2\le\kappa\}` drawn from
    ``derive_seed(seed, "eta", t)`` — the same draws for every method (:func:`sampled_decisions`).

    .. math::

        f_t = \sum_{i\ne t} y_i\alpha^{(t)}_i \overline{\mathbf K}_{ti} + b^{(t)},\qquad
        f^s_t = f_t + \sum_l \eta^s_l \sum_{i\ne t} y_i\alpha^{(t)}_i (\mathbf K_l)_{ti}

    with :math:`(\alpha^{(t)}, b^{(t)})` trained without :math:`t` (bental2012 eqs. (25)-(26)).

    Returns
    -------
    f_nominal : float, F : array (R,), info : dict (see :func:`fold_classifier`)

    Examples
    --------
    >>> ks, y, _ = pair_kernel_set(0, 0, 1, n_families=2, n_members=2, length=8, L=2, l=3)
    >>> f, F, info = loo_fold("Nominal", ks, y, 0, C=1.0, R=5)
    >>> F.shape
    (5,)
    """
    y = check_binary_labels(y)
    n = y.size
    if isinstance(t, bool) or not isinstance(t, (int, np.integer)) or not 0 <= t < n:
        raise ValueError(f"held-out index t must be in [0, {n}), got {t!r}")
    tr = np.delete(np.arange(n), t)
    alpha, b, info = fold_classifier(method, ks.subset(tr), y[tr], C, kappa, eps, n_starts=n_starts,
                                     fss_tol=fss_tol, fss_max_iter=fss_max_iter, fss_bias_floor=fss_bias_floor,
                                     random_state=derive_seed(seed, "starts", int(t)))
    test = ks.subset(np.array([t]), tr)
    stack = np.concatenate([test.K_bar[None], test.K_draws])
    fn, F, _ = sampled_decisions(stack, y[tr], alpha, b, kappa, R=R, random_state=derive_seed(seed, "eta", int(t)))
    return float(fn[0]), F[:, 0], info


def loo_decisions(method, ks, y, C, kappa=1.0, eps=None, *, R=100, seed=0, n_starts=10, fss_tol=1e-3,
                  fss_max_iter=20000, fss_bias_floor=None):
    r"""Leave-one-out decision values of one classifier on one problem: :func:`loo_fold` for every
    structure.

    .. math::

        \big(f_t,\ (f^s_t)_{s=1..R}\big)_{t=1..n}\quad\text{(bental2012 eqs. (25)-(26), leave-one-out, §7.7)}

    Returns
    -------
    f_nominal : array (n,), F : array (R, n), infos : list of the folds' ``info`` dicts

    Examples
    --------
    >>> ks, y, _ = pair_kernel_set(0, 0, 1, n_families=2, n_members=2, length=8, L=2, l=3)
    >>> f, F, infos = loo_decisions("SVM_Kbar", ks, y, C=1.0, R=5)
    >>> f.shape, F.shape, len(infos)
    ((4,), (5, 4), 4)
    """
    y = check_binary_labels(y)
    n = y.size
    f_nom, F, infos = np.empty(n), np.empty((int(R), n)), []
    for t in range(n):
        f_nom[t], F[:, t], info = loo_fold(method, ks, y, t, C, kappa, eps, R=R, seed=seed, n_starts=n_starts,
                                           fss_tol=fss_tol, fss_max_iter=fss_max_iter, fss_bias_floor=fss_bias_floor)
        infos.append(info)
    return f_nom, F, infos


def loo_accuracies(y, f_nominal, F):
    r"""The accuracies :math:`100(1 - \mathrm{Err})` of bental2012 Tables 2-3 from LOO decisions.

    .. math::

        \mathrm{NE} = \tfrac1n\textstyle\sum_t \mathbf 1(y_tf_t \le 0),\quad
        \mathrm{ME} = \tfrac1n\sum_t \mathbf 1\big(y_t\,\mathrm{sign}\textstyle\sum_s\mathrm{sign} f^s_t \le 0\big),\quad
        \mathrm{RE} = \tfrac1n\sum_t \mathbf 1\big(\min_s y_tf^s_t \le 0\big)

    (bental2012 §6.2, eqs. (27)-(28); :func:`robustpapers.core.prediction_errors`).

    Examples
    --------
    >>> import numpy as np
    >>> loo_accuracies(np.array([1, -1]), np.array([1.0, -1.0]), np.array([[1.0, -1.0], [1.0, 1.0]]))
    {'NE': 100.0, 'ME': 50.0, 'RE': 50.0}
    """
    errs = prediction_errors(check_binary_labels(y, require_both=False), f_nominal, F)
    return {k: 100.0 * (1.0 - float(v)) for k, v in errs.items()}


@task_name("robustpapers.bental2012.experiments_proteins:table2_pair_task")
def table2_pair_task(seed, f1, f2, n_families, n_members, length, L, l, sigma, kappa, R, Cs, epss, n_starts,
                     fss_tol=1e-3, fss_max_iter=20000, kernel_method="exact", methods=PROTEIN_METHODS,
                     fss_bias_floor=0.0):
    r"""One one-vs-one problem of bental2012 Tables 2-3 / Fig. 7: LOO accuracies (NE, ME, RE) of every method at
    every grid point (C for all, and eps for RSVM).

    Returns ``records`` (``method, C, eps, NE, ME, RE, time`` per grid point; ``time`` is the mean training
    time per fold), ``names`` of the two families, ``n``, the largest relative difference between the
    USSVM_MN and USSVM_SOCP objectives over the folds and grid (``mn_socp_rel_diff``), whether every FSS run
    certified its gap (``mn_all_certified``), the SOCP statuses seen, and ``min_eig`` of the pair's
    :math:`\overline{\mathbf K}` and of the draws :math:`\mathbf K_l` (the model needs them PSD).

    ``fss_bias_floor`` is USSVM_MN's (:func:`fold_classifier`); its default 0 is the rule the cached Tables 2-3
    sweep was computed with (every :math:`\alpha_i > 10^{-6}C` a support vector), so its records stay valid;
    :func:`table2_mn_tasks` recomputes the USSVM_MN rows with ``ussvm_fss``'s default.

    .. math::

        100\,\big(1 - \mathrm{NE}\big),\quad 100\,\big(1 - \mathrm{ME}\big),\quad 100\,\big(1 - \mathrm{RE}\big)
        \quad\text{(bental2012 §6.2, eqs. (27)-(28); Tables 2-3)}

    Examples
    --------
    >>> out = table2_pair_task(0, 0, 1, n_families=2, n_members=2, length=8, L=2, l=3, sigma=4.0, kappa=1.0,
    ...                        R=5, Cs=[1.0], epss=[0.2], n_starts=1, methods=("Nominal", "SVM_Kbar"))
    >>> [r["method"] for r in out["records"]], out["n"]
    (['Nominal', 'SVM_Kbar'], 4)
    """
    from ...core import min_eigenvalue

    ks, y, names = pair_kernel_set(seed, f1, f2, n_families, n_members, length, L, l=l, sigma=sigma,
                                   kernel_method=kernel_method)
    records, rel, certified, statuses = [], 0.0, True, set()
    for C in Cs:
        objs = {}
        for method in methods:
            if method not in PROTEIN_METHODS:
                raise ValueError(f"method must be one of {PROTEIN_METHODS}, got {method!r}")
            for eps in (epss if method == "RSVM" else [None]):
                fn, F, infos = loo_decisions(method, ks, y, C, kappa, eps, R=R,
                                             seed=derive_seed(seed, "loo", int(f1), int(f2)),
                                             n_starts=n_starts, fss_tol=fss_tol, fss_max_iter=fss_max_iter,
                                             fss_bias_floor=fss_bias_floor)
                objs[method] = np.array([i["objective"] for i in infos])
                if method == "USSVM_MN":
                    certified &= all(i["success"] for i in infos)
                if method == "USSVM_SOCP":
                    statuses |= {i["status"] for i in infos}
                records.append(dict(method=method, C=float(C), eps=None if eps is None else float(eps),
                                    time=float(np.mean([i["time"] for i in infos])), **loo_accuracies(y, fn, F)))
        if "USSVM_MN" in objs and "USSVM_SOCP" in objs:
            a, b = objs["USSVM_MN"], objs["USSVM_SOCP"]
            rel = max(rel, float(np.max(np.abs(a - b) / np.maximum(np.abs(b), 1e-12))))
    return dict(records=records, names=list(names), n=int(y.size), mn_socp_rel_diff=rel,
                mn_all_certified=bool(certified), socp_statuses=sorted(statuses),
                min_eig=dict(K_bar=min_eigenvalue(ks.K_bar), draws=min(min_eigenvalue(K) for K in ks.K_draws),
                             nominal=min_eigenvalue(ks.K_nominal)))


@task_name("robustpapers.bental2012.experiments_proteins:ussvm_scale_task")
def ussvm_scale_task(seed, f1, f2, n_families, n_members, length, L, l, sigma, C, kappa, kernel_method="exact"):
    r"""How USSVM's worst case rescales the kernel on one whole one-vs-one problem of the analog (bental2012 §4.2).

    Trains USSVM_SOCP on all structures of the problem and reports :math:`\sum_l\eta^*_l` (the worst case
    of (12) at the optimum; :math:`\sqrt L` when all :math:`a_l(\alpha)` are equal and :math:`p = 2`), the bias
    :math:`b` (rule of §4.2 on the effective kernel :math:`\overline{\mathbf K} + \sum_l\eta^*_l\mathbf K_l`), the
    median of :math:`|(\overline{\mathbf K}Y\alpha)_i|` and the training accuracy (%) of the decision
    :math:`\mathrm{sign}(\overline{\mathbf K}Y\alpha + b)` (rule (25)) and of
    :math:`\mathrm{sign}((\overline{\mathbf K} + \sum_l\eta^*_l\mathbf K_l)Y\alpha + b)`.

    .. math::

        \eta^*_l = \kappa\,\frac{a_l(\alpha)}{\|a(\alpha)\|_2},\qquad a_l(\alpha) = \alpha^\top Y\mathbf K_lY\alpha

    Examples
    --------
    >>> out = ussvm_scale_task(0, 0, 1, n_families=2, n_members=2, length=8, L=4, l=3, sigma=4.0, C=1.0, kappa=1.0)
    >>> 1.0 <= out["sum_eta_star"] <= 2.0 + 1e-9
    True
    """
    ks, y, names = pair_kernel_set(seed, f1, f2, n_families, n_members, length, L, l=l, sigma=sigma,
                                   kernel_method=kernel_method)
    yf = y.astype(float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        warnings.simplefilter("ignore", UserWarning)
        fit = ussvm_socp(ks.K_bar, ks.K_draws, yf, C, kappa)
    u = fit.alpha * yf
    kern = ks.K_bar @ u
    eff = kern + np.tensordot(fit.eta, ks.K_draws, axes=(0, 0)) @ u
    return dict(names=list(names), L=int(L), sum_eta_star=float(fit.eta.sum()), sqrt_L=float(np.sqrt(L)),
                b=float(fit.b), median_abs_kernel_part=float(np.median(np.abs(kern))),
                train_acc_nominal_rule=100.0 * float(np.mean(np.sign(kern + fit.b) == y)),
                train_acc_effective=100.0 * float(np.mean(np.sign(eff + fit.b) == y)), status=str(fit.solver_status))
