"""bental2012 §6: the prediction rules (25), (26) and the error measures NominalErr, MajorityErr (27), RobustErr (28).

Judges the properties of the measures that §6 states or that follow from their definitions, and the point they
motivate (a nominal classifier is not robust to kernel uncertainty), on the chapter's illustration: a nominal
linear SVM (C = 1) on Sonar, 10-fold stratified cross-validation, L = 50 rank-one perturbation kernels, R = 100
draws of eta from the positive part of the kappa-ball, kappa from 0 to 20. This is the book's illustration of
§6, not an experiment of the paper; the claims are about the measures, which do not depend on the data.
"""
from __future__ import annotations

import numpy as np

from ..ledger import Claim, paired, target
from . import _common as C

__all__ = ["PAPER", "LABEL", "EXPERIMENT", "VERSION", "records", "claims", "numbers"]

PAPER = C.PAPER
LABEL = "bental2012 §6"
EXPERIMENT = "prediction_rules"
VERSION = 1
WHERE = {"paper": dict(n_folds=10, L=50, R=100), "quick": dict(n_folds=5, L=20, R=50)}
CONDITION = "Sonar, nominal linear SVM (the book's illustration)"
ALGORITHM = "Nominal-SVM: LIBSVM dual on the linear kernel (C = 1), scored by rules (25)-(26)"


def records(root=None, scale="paper", seed=0):
    """The folds of the illustration at ``scale`` (one row per fold and kappa)."""
    if scale not in WHERE:
        raise ValueError(f"scale must be one of {list(WHERE)}, got {scale!r}")
    where = dict(WHERE[scale], dataset="sonar", C=1.0, seed=seed)
    return C.frame(C.select(C.scan_all(EXPERIMENT, root), where, VERSION))


def numbers(records):
    """Mean NE, ME, RE per kappa."""
    return records.groupby("kappa")[["NE", "ME", "RE"]].mean() if len(records) else None


def claims(records):
    """§6's identities and the nominal SVM's loss of robustness."""
    df = records
    if df.empty:
        return [Claim(PAPER, "sec6-kappa0-rules-agree", "§6", "At kappa = 0 the three error measures coincide.",
                      "inconclusive", artefact=LABEL, note="no record cached")]
    out = []
    zero = df[df.kappa == 0]
    dev = float(np.max(np.abs(np.r_[zero.NE - zero.ME, zero.NE - zero.RE]))) if len(zero) else None
    res = target(dev, 0.0, 1e-12, kind="abs", n_runs=len(zero))
    res["rule"] = "largest |NE - ME| and |NE - RE| over the kappa = 0 folds equals 0 (to 1e-12)"
    out.append(Claim(PAPER, "sec6-kappa0-rules-agree", "§6", "At kappa = 0 (no uncertainty) NominalErr, MajorityErr "
                     "and RobustErr coincide.", artefact=LABEL, condition=CONDITION, paper_value=0.0,
                     algorithm=ALGORITHM, note=f"{len(zero)} folds; LIBSVM stores no certificate (counted certified).",
                     **res))
    low = float((df.RE - df.ME).min())
    res = target(low, 0.0, 0.0, kind="at_least", n_runs=len(df))
    res["rule"] = "smallest RobustErr - MajorityErr over every fold and kappa at least 0"
    out.append(Claim(PAPER, "sec6-re-at-least-me", "§6", "RobustErr is at least MajorityErr: a point robustly "
                     "correct is correct by majority.", artefact=LABEL, condition=CONDITION, paper_value=">= 0",
                     algorithm=ALGORITHM, note=f"{len(df)} (fold, kappa) runs.", **res))
    kmax = float(df.kappa.max())
    a = df[df.kappa == kmax].set_index("fold").RE
    b = zero.set_index("fold").RE
    a, b = a.align(b, join="inner")
    res = paired(a - b, runs_per_pair=2)
    res["rule"] = f"RobustErr at kappa = {kmax:g} minus at kappa = 0, paired over folds; " + res["rule"]
    out.append(Claim(PAPER, "sec6-nominal-not-robust", "§4, §6", "A nominal SVM is not robust: its RobustErr grows "
                     "with the uncertainty kappa.", artefact=LABEL, condition=CONDITION, paper_value="> 0",
                     algorithm=ALGORITHM, note=f"mean RobustErr {b.mean():.3f} at kappa = 0, {a.mean():.3f} at "
                                               f"kappa = {kmax:g}.", **res))
    return out
