"""What the bhadra2010 artefact modules share: reading the paper-scale records once, and a few labels.

The records are read with :func:`robustpapers.reproduce.artefact.scan` (the experiment modules that made
them are not imported) and kept per (results root, experiment, filter), so that the artefact modules,
the tests and the book read each folder once per process.
"""
from __future__ import annotations

import json

from ..artefact import scan

PAPER = "bhadra2010"

#: The paper's sizes of bhadra2010 §5.1, which select the paper-scale records (the quick-scale ones differ in them).
PAPER_SIZES = dict(n_per_class=100, n_samples=100, seed=0)

#: The cache version of each sweep's paper-scale records (the sweep's ``version``).
VERSIONS = {"fig1": 3, "fig2": 3, "fig3": 2, "fig3_svm": 1, "table1": 3, "qn_starts": 2, "local_optima": 1,
            "socp_true_beta": 1, "qn_socp": 1, "qn_socp_starts": 1, "table2_proteins": 4, "table2_unnormalised": 4, "table2_kappa0": 2,
            "qn_cap": 2}

#: The three noise models of Table 1 and Figs. 1-2, in the paper's order of Table 1.
NOISES = ("uniform", "gaussian", "beta0.5")
NOISE_NAME = {"gaussian": "Gaussian", "uniform": "uniform", "beta0.5": "Beta(0.5, 0.5)", "beta5": "Beta(5, 5)"}

#: Exactly which solver produced each classifier's numbers (robustpapers.bhadra2010.rsvm, bhadra2010 §3).
ALGORITHM = {
    "RSVM_QP": "rsvm(method='qp', beta_approx='principal'): svm_dual (LIBSVM's SMO via scikit-learn SVC) on the "
               "kernel of Theorem 4 (finite-support beta, principal rank-one part)",
    "RSVM_SOCP": "rsvm(method='socp', beta_approx='psd'): cvxpy/Clarabel SOCP of Theorem 6 on the PSD part of the "
                 "finite-support beta",
    "RSVM_QN": "rsvm(method='qn'): DFP quasi-Newton on the square penalty (17) with the finite-support beta itself, "
               "best of random starts",
    "RSVMg_QP": "rsvm(method='qp', beta_approx='principal'): svm_dual (LIBSVM's SMO) on the kernel of Theorem 4 "
                "with the Gaussian beta (sigma^2)",
    "RSVMg_SOCP": "rsvm(method='socp', beta_approx='psd'): cvxpy/Clarabel SOCP of Theorem 6 on the PSD part of the "
                  "Gaussian beta",
    "RSVMg_QN": "rsvm(method='qn'): DFP quasi-Newton on (17) with the Gaussian beta itself, best of random starts",
    "SVM": "rsvm at kappa = 0 (svm_dual: LIBSVM's SMO via scikit-learn SVC) with the bias rule of bhadra2010 §3",
}

_CACHE = {}


def scale_settings():
    """The sizes of each scale of Figs. 1-3 (``experiments.PAPER_SCALE`` / ``QUICK_SCALE``)."""
    from .experiments import PAPER_SCALE, QUICK_SCALE

    return {"quick": QUICK_SCALE, "paper": PAPER_SCALE}


def sweep_at(experiment, settings, scale, seed):
    """The task parameters of the sweep ``experiment`` at ``scale`` (one of ``settings``)."""
    from .experiments import sweep_tasks

    if scale not in settings:
        raise ValueError(f"scale must be one of {sorted(settings)}, got {scale!r}")
    return sweep_tasks(experiment, settings[scale], seed)[1]


def records(experiment, root=None, where=None, version=None):
    """The records of ``results/bhadra2010/<experiment>/`` at the sweep's cache version (or ``version``) whose
    params match ``where`` (read once per process; the cached list is shared, do not modify it)."""
    version = VERSIONS[experiment] if version is None else version
    key = (str(root), experiment, json.dumps(where, sort_keys=True), version)
    if key not in _CACHE:
        _CACHE[key] = [r for r in scan(PAPER, experiment, root=root, where=where)
                       if r.get("provenance", {}).get("version") == version]
    return _CACHE[key]


def label(m):
    """The paper's name of a classifier (RSVMg_SOCP -> RSVM(g)_SOCP)."""
    return m.replace("RSVMg_", "RSVM(g)_")


def robustness_arrays(recs, metric="RE"):
    """Records of ``robustness_task`` (Figs. 1-2) as arrays: per noise, ``kappas``, ``datasets`` and
    ``values[method]`` of shape (data sets, kappas) holding ``<metric>_<method>`` (%); NaN where missing."""
    import numpy as np

    out = {}
    for noise in sorted({r["params"]["noise"] for r in recs}):
        sub = [r for r in recs if r["params"]["noise"] == noise]
        kappas = sorted({float(r["params"]["kappa"]) for r in sub})
        datasets = sorted({r["params"]["dataset"] for r in sub})
        methods = sub[0]["params"]["methods"]
        values = {m: np.full((len(datasets), len(kappas)), np.nan) for m in methods}
        for r in sub:
            d, k = datasets.index(r["params"]["dataset"]), kappas.index(float(r["params"]["kappa"]))
            for m in methods:
                values[m][d, k] = r["result"][f"{metric}_{m}"]
        out[noise] = {"kappas": np.array(kappas), "datasets": datasets, "values": values, "n_tasks": len(sub)}
    return out


def compute_or_read(experiments, settings, records, scale, seed=0, n_jobs=1, root=None):
    """The records a page shows: at paper scale read from the cache (the sweeps are computed piecewise by
    ``scripts/paper_scale.py``), at another scale computed (or read) first; ``experiments`` are the names of
    :func:`robustpapers.reproduce.bhadra2010.experiments.sweep_tasks`, ``records(root, scale, seed)`` reads them."""
    if scale != "paper":
        from ..engine import run_sweep
        from .experiments import sweep_tasks

        for exp in experiments:
            func, tasks, e, v = sweep_tasks(exp, settings[scale], seed)
            run_sweep(func, tasks, paperkey=PAPER, experiment=e, version=v, n_jobs=n_jobs, root=root, progress=False)
        _CACHE.clear()
    return records(root, scale, seed)


def not_run(n_missing, n_tasks):
    """:func:`robustpapers.reproduce.ledger.not_run` with its rule said: not judged until the runs are cached."""
    from .. import ledger

    return dict(ledger.not_run(n_missing, n_tasks), rule="not judged: too few of its runs are cached")


def _value(claim):
    v = claim.our_value
    return None if v is None or (isinstance(v, float) and v != v) else v


def value_text(claim, spec=".1f"):
    """A claim's value formatted by ``spec`` for the prose, or "—" when the records give none (a run too small
    to judge the claim, or a claim its records do not produce)."""
    v = _value(claim)
    return "—" if v is None else format(v, spec)


def verdict_text(claim):
    """A claim's verdict with its value and 95 % interval when it has them, for the prose."""
    v = _value(claim)
    if claim.interval is None or v is None:
        return claim.verdict
    return f"{claim.verdict} ({v:+.3g} [{claim.interval[0]:+.3g}, {claim.interval[1]:+.3g}])"
