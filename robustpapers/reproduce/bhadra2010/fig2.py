"""bhadra2010 Fig. 2: RobustErr against kappa under i.i.d. noise, RSVM_QP, RSVM^(g)_QP and the SVM (bhadra2010 §5.1.2).

The records of ``robustness_task(iid=True, test_noise="kappa")`` (20 data sets, C = 10, the kappa axis of
Fig. 1, one noise scale for all entries so that Theorem 5 applies; test noise growing with kappa as in
:mod:`.fig1`; 660 tasks at paper scale), per noise model, paired over the data sets:

* at kappa = 0 RSVM_QP and RSVM^(g)_QP have the SVM's RobustErr (an identity, one claim);
* the SVM's RobustErr grows with kappa;
* RSVM_QP and RSVM^(g)_QP perform much better than the SVM (the SVM's RobustErr minus theirs, averaged over
  kappa > 0 on each data set).
"""
from __future__ import annotations

from . import _common
from .fig1 import N_DATA, NOISES, SETTINGS, below_svm_claim, complete, draw_panels, kappa0_claim, svm_grows_claim

PAPER = "bhadra2010"
LABEL = "bhadra2010 Fig. 2"
EXPERIMENT = "fig2"
VERSION = 3
METHODS = ("RSVM_QP", "RSVMg_QP", "SVM")

__all__ = ["PAPER", "LABEL", "EXPERIMENT", "VERSION", "SETTINGS", "tasks", "records", "claims", "numbers", "draw"]


def tasks(scale="paper", seed=0):
    """The ``robustness_task(iid=True)`` parameters of Fig. 2 at ``scale`` (660 at paper scale)."""
    return _common.sweep_at(EXPERIMENT, SETTINGS, scale, seed)


def __getattr__(name):
    if name == "TASK":
        from .experiments import robustness_task

        return robustness_task
    raise AttributeError(name)


def records(root=None, scale="paper", seed=0):
    """The records of ``robustness_task(iid=True, test_noise="kappa")`` at ``scale`` (660 at paper scale)."""
    if scale not in SETTINGS:
        raise ValueError(f"scale must be one of {sorted(SETTINGS)}, got {scale!r}")
    S = SETTINGS[scale]
    return _common.records(EXPERIMENT, root, where=dict(n_per_class=S["n_per_class"], n_samples=S["n_samples"],
                                                        seed=seed, iid=True, test_noise="kappa"))


def for_page(scale="quick", seed=0, n_jobs=1, root=None):
    """The records the page shows at ``scale`` (computed first unless ``scale="paper"``): :func:`records`."""
    return _common.compute_or_read((EXPERIMENT,), SETTINGS, records, scale, seed, n_jobs, root)


def claims(records):
    """The claims of Fig. 2 (see the module docstring)."""
    A = complete(_common.robustness_arrays(records))
    out = [kappa0_claim(A, ["RSVM_QP", "RSVMg_QP"], "f2-kappa0-equals-svm", "Fig. 2", LABEL,
                        N_DATA * 11 * len(NOISES))]
    for noise in NOISES:
        out.append(svm_grows_claim(A, noise, f"f2-svm-grows-{noise}", "Fig. 2", LABEL))
        for m in ("RSVM_QP", "RSVMg_QP"):
            name = _common.NOISE_NAME[noise]
            out.append(below_svm_claim(
                A, noise, m, f"f2-{m.lower().replace('_', '-')}-below-svm-{noise}", "Fig. 2", LABEL,
                stmt=f"with i.i.d. {name} noise {_common.label(m)} performs much better (lower RobustErr) than the SVM",
                paper_value="much better"))
    return out


def numbers(records):
    """Mean RobustErr (%) per noise, kappa and classifier over the data sets (``curves``), and ``n_tasks``."""
    import numpy as np
    import pandas as pd

    A = complete(_common.robustness_arrays(records))
    rows = [{"noise": _common.NOISE_NAME[n], "kappa": float(k),
             **{_common.label(m): float(np.nanmean(a["values"][m][:, j])) for m in a["values"]}}
            for n, a in A.items() for j, k in enumerate(a["kappas"])]
    return {"curves": pd.DataFrame(rows).set_index(["noise", "kappa"]) if rows else pd.DataFrame(),
            "n_tasks": len(records), "n_datasets": min((a["n_complete"] for a in A.values()), default=0)}


def draw(records):
    """bhadra2010 Fig. 2 from the records: three panels (i.i.d. Gaussian, uniform, Beta(0.5, 0.5) noise)."""
    return draw_panels(complete(_common.robustness_arrays(records)), METHODS)
