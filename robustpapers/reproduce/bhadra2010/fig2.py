"""bhadra2010 Fig. 2: RobustErr against kappa under i.i.d. noise, RSVM_QP, RSVM^(g)_QP and the SVM (bhadra2010 §5.1.2).

Judged on the paper-scale records of ``robustness_task(iid=True)`` (20 data sets, C = 10, the kappa axis of
Fig. 1, one noise scale for all entries so that Theorem 5 applies; 660 tasks), per noise model, paired over
the 20 data sets:

* at kappa = 0 RSVM_QP and RSVM^(g)_QP have the SVM's RobustErr (an identity, one claim);
* the SVM's RobustErr grows with kappa;
* RSVM_QP and RSVM^(g)_QP perform much better than the SVM (the SVM's RobustErr minus theirs, averaged over
  kappa > 0 on each data set).

As in Fig. 1, the test kernels are drawn at one noise level whatever kappa is (see :mod:`.fig1`).
"""
from __future__ import annotations

from . import _common
from .fig1 import N_DATA, NOISES, below_svm_claim, kappa0_claim, svm_grows_claim

PAPER = "bhadra2010"
LABEL = "bhadra2010 Fig. 2"
EXPERIMENT = "fig2"


def records(root=None, scale="paper", seed=0):
    """The paper-scale records of ``robustness_task(iid=True)`` for Fig. 2 (660 when complete)."""
    if scale != "paper":
        raise ValueError(f"the claims rest on the paper-scale records only, got scale={scale!r}")
    return _common.records(EXPERIMENT, root, where=dict(_common.PAPER_SIZES, seed=seed, n_starts=100, iid=True))


def claims(records):
    """The claims of Fig. 2 (see the module docstring)."""
    A = _common.robustness_arrays(records)
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
