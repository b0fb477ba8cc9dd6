"""RSVM_QN where the optimal alpha lies far below C: the scaled DFP scheme against the unscaled one (bhadra2010 §3).

bental2012 uses bhadra2010's RSVM as a baseline on its D_U data, where the kernel entries are large and, with
C = 100, the optimal alpha is orders of magnitude below C. ``qn_convergence_task`` runs ``rsvm(method="qn")``
there with the default ray scaling and with the unscaled scheme as first implemented, from the same seeded
starts, and the SOCP on beta's PSD part as a feasible reference (a small D_U instance, the same at every scale).
The paper states nothing about the scaling of DFP, so :func:`claims` returns none; :func:`numbers` gives what the
page shows, and the tests check the certificates (KKT residual, feasibility) on the records.
"""
from __future__ import annotations

from . import _common
from ._common import PAPER

__all__ = ["PAPER", "LABEL", "EXPERIMENT", "VERSION", "SETTINGS", "tasks", "records", "for_page", "claims", "numbers"]

LABEL = "bhadra2010 QN scaling"
EXPERIMENT = "qn_convergence"
#: version 2: recomputed with the exact line search's Newton first trial.
VERSION = 2
#: A small D_U instance (bental2012 §7.1.2: N points per class, L kernels), C = 100, three eps, 2 starts; the
#: same at every scale (the unscaled scheme's failure does not need more).
SETTINGS = {s: dict(N=[50], L=[20], C=[100.0], eps=[0.05, 0.1, 0.5], n_starts=[2]) for s in ("quick", "paper")}
#: KKT residual (``rsvm_kkt_residual``) below which a run counts as converged to a KKT point.
KKT_TOL = 1e-3


def tasks(scale="paper", seed=0):
    """The ``qn_convergence_task`` parameters at ``scale`` (3)."""
    from ..engine import grid

    if scale not in SETTINGS:
        raise ValueError(f"scale must be one of {sorted(SETTINGS)}, got {scale!r}")
    return grid(seed=[seed], **SETTINGS[scale])


def __getattr__(name):  # TASK without importing the experiments at module import (the ledger reads records only)
    if name == "TASK":
        from .experiments import qn_convergence_task

        return qn_convergence_task
    raise AttributeError(name)


def records(root=None, scale="paper", seed=0):
    """The records of ``qn_convergence_task`` at ``scale``, in task order (those cached)."""
    if scale not in SETTINGS:
        raise ValueError(f"scale must be one of {sorted(SETTINGS)}, got {scale!r}")
    recs = _common.records(EXPERIMENT, root, where=dict(seed=seed), version=VERSION)
    def key(p):
        return tuple(p[k] for k in ("N", "L", "C", "eps", "n_starts"))

    by = {key(r["params"]): r for r in recs}
    return [by[key(t)] for t in tasks(scale, seed) if key(t) in by]


def for_page(scale="quick", seed=0, n_jobs=1, root=None):
    """The records the page shows (computed first if not cached; three small runs at every scale)."""
    from ..engine import run_sweep
    from .experiments import qn_convergence_task

    run_sweep(qn_convergence_task, tasks(scale, seed), paperkey=PAPER, experiment=EXPERIMENT, version=VERSION,
              n_jobs=n_jobs, root=root, progress=False)
    _common._CACHE.clear()
    return records(root, scale, seed)


def claims(records):
    """The paper says nothing about how DFP is scaled: no claim."""
    return []


def numbers(records):
    """What the page shows: ``table`` (per run: N, L, C, eps, the training size n, objective of eq. (15), KKT
    residual and DFP iterations of the scaled and the unscaled scheme, whether the unscaled one converged, the
    SOCP's objective on beta's PSD part), ``n`` (training points), ``alpha_ratio`` (largest alpha_i / C of the
    scaled runs at C = 100), ``runs`` and ``stalled`` (runs at C = 100, and those where the unscaled scheme did not
    converge), ``old_objective`` (the lowest unscaled objective among those) with ``new_objective`` (the scaled
    one in the same run) and ``old_kkt`` (the smallest unscaled KKT residual among them), ``new_kkt`` (the largest
    scaled KKT residual), ``nit_ratio`` (DFP iterations unscaled / scaled at C = 100), ``scaled_converged``
    (every scaled run converged to a KKT point, :data:`KKT_TOL`) and ``scaled_at_least`` (every scaled objective
    at least the SOCP's on the PSD part and the unscaled scheme's)."""
    import numpy as np
    import pandas as pd

    cols = ["N", "L", "C", "eps", "n", "scaled_objective", "scaled_kkt", "scaled_nit", "unscaled_objective",
            "unscaled_kkt", "unscaled_nit", "unscaled_success", "socp_psd_objective"]
    qc = pd.DataFrame([{**r["params"], **r["result"]} for r in records])
    nan = float("nan")
    if qc.empty:
        return {"table": pd.DataFrame(columns=cols), "n": 0, "alpha_ratio": nan, "runs": 0, "stalled": 0,
                "old_objective": nan, "new_objective": nan, "old_kkt": nan, "new_kkt": nan, "nit_ratio": nan,
                "scaled_converged": False, "scaled_at_least": False}
    big = qc[qc.C == 100.0]
    stalled = big[~big.unscaled_success]
    worst = stalled.loc[stalled.unscaled_objective.idxmin()] if len(stalled) else None
    return {"table": qc[cols], "n": int(qc.n.iloc[0]), "alpha_ratio": float(big.alpha_scale_ratio.max()),
            "runs": len(big), "stalled": len(stalled),
            "old_objective": float(worst.unscaled_objective) if worst is not None else nan,
            "new_objective": float(worst.scaled_objective) if worst is not None else nan,
            "old_kkt": float(stalled.unscaled_kkt.min()) if len(stalled) else nan,
            "new_kkt": float(qc.scaled_kkt.max()), "nit_ratio": float(big.unscaled_nit.sum() / big.scaled_nit.sum()),
            "scaled_converged": bool(qc.scaled_success.all() and (qc.scaled_kkt <= KKT_TOL).all()),
            "scaled_at_least": bool((qc.scaled_objective >= qc.socp_psd_objective).all() and np.all(
                qc.scaled_objective >= qc.unscaled_objective - 1e-6 * qc.scaled_objective.abs()))}
