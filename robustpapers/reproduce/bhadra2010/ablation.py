"""bhadra2010 Table 1, ablation of the protocol: which choice of the data or test protocol moves RobustErr.

At paper scale every classifier of Table 1, the nominal SVM included, reaches about the same RobustErr
accuracy here (the SVM's tuned C explains the SVM's level: :func:`robustpapers.reproduce.bhadra2010.table1.by_C`),
while the paper reports 93-95 % for RSVM and 5-25 % for the SVM. Three choices that bhadra2010 §5.1 leaves open
or states ambiguously are varied here, one at a time from the setting of the Table 1 records:

* ``d_max``: the largest input dimension of the mixture (4 here; bental2012 §7.1.1, whose mixture §5.1 uses,
  draws d in {2, ..., 100});
* ``scale_law``: the noise scale :math:`l_{ij} = l_{ji} \\sim U(0, 0.25|K_{ij}|)` ("uniform", the Table 1
  records) or :math:`l_{ij} = 0.25|K_{ij}|` ("fixed", §5.1's "l_ij = 0.25 K_ij" read literally);
* ``test_noise``: the test kernels drawn with the training noise ("fixed", Table 1's records) or with noise
  :math:`\\kappa` times its draws ("kappa", the growing test noise of §5.1.2, as Figs. 1-2 here), at the finite-
  support :math:`\\kappa = \\sqrt{2\\log(1/\\epsilon)}`.

Each task is one fold of Table 1's stratified 5-fold cross-validation on one data set, at one grid point
(C = 10, the C of the paper's figures, and eps = 0.1), for the nominal SVM and the two SOCPs (RSVM_SOCP,
RSVM^(g)_SOCP): the same data, folds, estimates of beta and solvers as ``table1_task``, so that the baseline
condition reproduces the Table 1 records at that grid point (tested). The comparison is paired over data sets x
folds (95 % t-intervals, :func:`robustpapers.reproduce.ledger.paired`).

The paper makes no claim about these choices, so :func:`claims` returns none; :func:`numbers` gives the table.
At paper scale the sweep has Table 1's 20 data sets and folds at one grid point (:data:`SETTINGS`), which the page
says.
"""
from __future__ import annotations

import numpy as np

from .. import ledger
from ..engine import derive_seed, task_name
from . import _common
from ._common import NOISE_NAME, NOISES, PAPER, label

__all__ = ["PAPER", "LABEL", "EXPERIMENT", "VERSION", "SETTINGS", "CONDITIONS", "tasks", "ablation_task", "records",
           "for_page", "claims", "numbers"]

LABEL = "bhadra2010 Table 1 ablation"
EXPERIMENT = "table1_ablation"
VERSION = 1

#: The conditions, one protocol choice changed at a time from the Table 1 records' ("base").
CONDITIONS = {
    "base": dict(d_max=4, scale_law="uniform", test_noise="fixed"),
    "d_max = 100": dict(d_max=100, scale_law="uniform", test_noise="fixed"),
    "l = 0.25|K|": dict(d_max=4, scale_law="fixed", test_noise="fixed"),
    "test noise x kappa": dict(d_max=4, scale_law="uniform", test_noise="kappa"),
}
#: What each condition means, for the page's table.
CONDITION_TEXT = {
    "base": "as Table 1: d in {2, 3, 4}, l ~ U(0, 0.25|K|), test noise = training noise",
    "d_max = 100": "input dimension d in {2, ..., 100} (bental2012 §7.1.1)",
    "l = 0.25|K|": "noise scale l = 0.25|K| for every entry",
    "test noise x kappa": "test noise kappa = sqrt(2 log(1/eps)) times the training noise's draws (§5.1.2)",
}
#: A short key per condition, for the page's glue names.
CONDITION_KEY = {"base": "base", "d_max = 100": "d100", "l = 0.25|K|": "lfixed", "test noise x kappa": "testk"}
METHODS = ("SVM", "RSVM_SOCP", "RSVMg_SOCP")

#: "paper": Table 1's 20 data sets (2 x 100 points, 100 sampled kernels, 5 folds), C = 10, eps = 0.1;
#: "quick": one data set of 2 x 20 points, 3 folds.
SETTINGS = {
    "paper": dict(datasets=list(range(20)), n_per_class=100, n_samples=100, n_folds=5, C=10.0, eps=0.1),
    "quick": dict(datasets=[0], n_per_class=20, n_samples=50, n_folds=3, C=10.0, eps=0.1),
}


def tasks(scale="paper", seed=0):
    """The ``ablation_task`` parameters at ``scale`` (1,200 at paper scale: conditions x noises x data sets x folds)."""
    if scale not in SETTINGS:
        raise ValueError(f"scale must be one of {sorted(SETTINGS)}, got {scale!r}")
    S = SETTINGS[scale]
    return [dict(dataset=d, noise=noise, fold=k, n_folds=S["n_folds"], C=S["C"], eps=S["eps"],
                 n_per_class=S["n_per_class"], n_samples=S["n_samples"], seed=seed, **cond)
            for cond in CONDITIONS.values() for noise in NOISES for d in S["datasets"] for k in range(S["n_folds"])]


@task_name("robustpapers.reproduce.bhadra2010.ablation:ablation_task")
def ablation_task(dataset, noise, fold, n_folds, C, eps, n_per_class, n_samples, seed, d_max=4,
                  scale_law="uniform", test_noise="fixed"):
    r"""One fold of bhadra2010 Table 1 at one grid point, with the data or test protocol changed.

    The data are ``prepare_dataset``'s (the same seeds) except for ``d_max`` (the mixture's largest input
    dimension) and ``scale_law`` ("uniform": :math:`l_{ij} \sim U(0, 0.25|K_{ij}|)`; "fixed":
    :math:`l_{ij} = 0.25|K_{ij}|`); the fold, the estimates of the support and sigma on the training part and the
    classifiers are ``table1_task``'s. ``test_noise="kappa"`` scores on :math:`\bar K + \kappa Z^s` with
    :math:`\kappa = \sqrt{2\log(1/\epsilon)}` and :math:`Z^s` the test block's sampled noise.

    Returns
    -------
    dict
        ``"<metric>_<classifier>"`` (ME, RE, NE in %) for the SVM, RSVM_SOCP and RSVMg_SOCP, and ``d`` (the
        input dimension drawn).
    """
    from sklearn.model_selection import StratifiedKFold

    from ...bhadra2010.data import make_synthetic_kernel_data, sample_kernels, support_and_moments
    from ...core.uncertainty import kappa_gaussian
    from .experiments import _betas, errors_on_samples, fit_classifier, kappa_finite_support_any

    if scale_law not in ("uniform", "fixed"):
        raise ValueError(f"scale_law must be 'uniform' or 'fixed', got {scale_law!r}")
    if test_noise not in ("fixed", "kappa"):
        raise ValueError(f"test_noise must be 'fixed' or 'kappa', got {test_noise!r}")
    if not 0 < eps < 0.5:
        raise ValueError(f"eps must lie in (0, 0.5), got {eps!r}")
    data = make_synthetic_kernel_data(n_per_class, noise, scale_factor=0.25,
                                      random_state=derive_seed(seed, "data", dataset), d_max=d_max)
    K, y = data.K, data.y
    scale = data.scale if scale_law == "uniform" else 0.25 * np.abs(K)
    Ks = sample_kernels(K, scale, noise, n_samples, random_state=derive_seed(seed, "kernels", dataset))
    est = support_and_moments(Ks, K)
    prep = {"a": est["a"], "b": est["b"], "sigma": est["sigma"]}
    skf = StratifiedKFold(n_splits=n_folds, shuffle=True, random_state=derive_seed(seed, "folds", dataset) % 2**31)
    tr, te = list(skf.split(np.zeros(y.size), y))[fold]
    beta_fs, beta_g = _betas(prep, tr, False)
    kfs, kg = kappa_finite_support_any(eps), kappa_gaussian(eps)
    K_te = K[np.ix_(te, tr)]
    Ks_te = Ks[:, te][:, :, tr]
    if test_noise == "kappa":
        Ks_te = K_te[None] + kfs * (Ks_te - K_te[None])
    out = {"d": int(data_dim(n_per_class, seed, dataset, d_max))}
    for name in METHODS:
        # table1_task's seed and kappas at this grid point (the SVM at eps = 0: kappa = 0)
        e = 0.0 if name == "SVM" else eps
        res = fit_classifier(name, K[np.ix_(tr, tr)], y[tr], beta_fs, beta_g, kfs if e else 0.0, kg if e else 0.0,
                             C, 1, derive_seed(seed, "qn", dataset, name, fold, C, e), 20000)
        for k, v in errors_on_samples(y[te], K_te, Ks_te, res.alpha, y[tr], res.b).items():
            out[f"{k}_{name}"] = v
    return out


def data_dim(n_per_class, seed, dataset, d_max):
    """The input dimension d that the mixture of one data set draws (the first draw of its generator)."""
    from ...core.seeding import check_random_state

    rng = check_random_state(derive_seed(seed, "data", dataset))
    return int(rng.integers(2, int(d_max) + 1))


TASK = ablation_task


def records(root=None, scale="paper", seed=0):
    """The records of ``ablation_task`` at ``scale`` (420 at paper scale when complete)."""
    if scale not in SETTINGS:
        raise ValueError(f"scale must be one of {sorted(SETTINGS)}, got {scale!r}")
    S = SETTINGS[scale]
    recs = _common.records(EXPERIMENT, root, where=dict(n_per_class=S["n_per_class"], n_samples=S["n_samples"],
                                                        seed=seed, n_folds=S["n_folds"], C=S["C"], eps=S["eps"]),
                           version=VERSION)
    return [r for r in recs if r["params"]["dataset"] in S["datasets"]]


def for_page(scale="quick", seed=0, n_jobs=1, root=None):
    """The records the page shows: computed first at quick scale, read from the cache at paper scale."""
    if scale != "paper":
        from ..engine import run_sweep

        run_sweep(ablation_task, tasks(scale, seed), paperkey=PAPER, experiment=EXPERIMENT, version=VERSION,
                  n_jobs=n_jobs, root=root, progress=False)
        _common._CACHE.clear()
    return records(root, scale, seed)


def _condition(params):
    for name, cond in CONDITIONS.items():
        if all(params.get(k) == v for k, v in cond.items()):
            return name
    return None


def arrays(recs):
    """Per (condition, noise): ``keys`` (the (data set, fold) pairs) and ``RE[classifier]`` (RobustErr, %),
    aligned on the keys."""
    out = {}
    for r in recs:
        c = _condition(r["params"])
        if c is not None:
            out.setdefault((c, r["params"]["noise"]), []).append(r)
    A = {}
    for key, rs in out.items():
        rs = sorted(rs, key=lambda r: (r["params"]["dataset"], r["params"]["fold"]))
        A[key] = {"keys": [(r["params"]["dataset"], r["params"]["fold"]) for r in rs],
                  "RE": {m: np.array([r["result"][f"RE_{m}"] for r in rs]) for m in METHODS},
                  "d": sorted({r["result"]["d"] for r in rs})}
    return A


def claims(records):
    """The paper makes no claim about these protocol choices (see the module docstring)."""
    return []


def _mean_h(x):
    res = ledger.paired(np.asarray(x, float), min_pairs=2)
    lo, hi = res["interval"] if res["interval"] else (np.nan, np.nan)
    return res["our_value"], lo, hi


def numbers(records):
    """The ablation table.

    Returns a dict: ``table`` (rows condition x noise; per classifier its mean RobustErr accuracy (100 - RE, %)
    over data sets x folds, and the SOCPs' paired accuracy difference to the SVM, "mean [95 % interval]"),
    ``gap`` (the same differences as numbers: condition, noise, classifier, mean, low, high, pairs), ``shift``
    (per condition other than the baseline, noise and classifier: the paired change of the RobustErr accuracy
    from the baseline, mean and interval; pairs = the same data set and fold; ``shift_table``: the same as
    "mean [low, high]", rows condition x noise, columns the classifiers), ``by_dataset`` (per data set of the
    baseline, over its noise models and folds: the input dimension d, the SVM's accuracy on the mean test kernel
    and each classifier's RobustErr accuracy), ``n_tasks``, ``n_pairs`` (per
    condition and noise), ``datasets``.
    """
    import pandas as pd

    A = arrays(records)
    rows, gap, shift = [], [], []
    for cond in CONDITIONS:
        for noise in NOISES:
            a = A.get((cond, noise))
            if a is None:
                continue
            acc = {m: 100 - a["RE"][m] for m in METHODS}
            row = {"condition": cond, "noise": NOISE_NAME[noise], "pairs": len(a["keys"])}
            for m in METHODS:
                mean, lo, hi = _mean_h(acc[m])
                row[label(m)] = f"{mean:.1f} [{lo:.1f}, {hi:.1f}]"
            for m in METHODS[1:]:
                mean, lo, hi = _mean_h(acc[m] - acc["SVM"])
                row[f"{label(m)} - SVM"] = f"{mean:+.1f} [{lo:+.1f}, {hi:+.1f}]"
                gap.append({"condition": cond, "noise": NOISE_NAME[noise], "classifier": label(m), "mean": mean,
                            "low": lo, "high": hi, "pairs": len(a["keys"])})
            rows.append(row)
            b = A.get(("base", noise))
            if cond != "base" and b is not None:
                both = [k for k in a["keys"] if k in b["keys"]]
                ia, ib = [a["keys"].index(k) for k in both], [b["keys"].index(k) for k in both]
                for m in METHODS:
                    mean, lo, hi = _mean_h(b["RE"][m][ib] - a["RE"][m][ia])
                    shift.append({"condition": cond, "noise": NOISE_NAME[noise], "classifier": label(m),
                                  "mean": mean, "low": lo, "high": hi, "pairs": len(both)})
    table = pd.DataFrame(rows).set_index(["condition", "noise"]) if rows else pd.DataFrame()
    # per data set of the baseline: its input dimension, how well the SVM separates its mean kernel, and RobustErr
    per = {}
    for r in records:
        if _condition(r["params"]) == "base":
            per.setdefault(r["params"]["dataset"], []).append(r["result"])
    by_dataset = pd.DataFrame([
        {"data set": d, "d": rs[0]["d"], "SVM, nominal accuracy": 100 - np.mean([x["NE_mean_SVM"] for x in rs]),
         **{f"{label(m)}, RobustErr accuracy": 100 - np.mean([x[f"RE_{m}"] for x in rs]) for m in METHODS},
         "runs": len(rs)} for d, rs in sorted(per.items())])
    by_dataset = by_dataset.set_index("data set").round(1) if len(by_dataset) else by_dataset
    shift = pd.DataFrame(shift)
    shift_table = (shift.assign(cell=[f"{m:+.1f} [{a:+.1f}, {b:+.1f}]" for m, a, b in zip(shift["mean"], shift.low,
                                                                                         shift.high)])
                   .pivot(index=["condition", "noise"], columns="classifier", values="cell")
                   .reindex(columns=[label(m) for m in METHODS]) if len(shift) else pd.DataFrame())
    if len(shift_table):  # the conditions and noise models in the order of the first table
        order = [(c, NOISE_NAME[n]) for c in CONDITIONS for n in NOISES]
        shift_table = shift_table.reindex([k for k in order if k in shift_table.index])
    return {"table": table, "gap": pd.DataFrame(gap), "shift": shift, "shift_table": shift_table,
            "by_dataset": by_dataset,
            "n_tasks": len(records),
            "n_pairs": {f"{c}, {NOISE_NAME[n]}": len(a["keys"]) for (c, n), a in A.items()},
            "datasets": sorted({r["params"]["dataset"] for r in records})}
