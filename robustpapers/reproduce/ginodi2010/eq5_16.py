"""ginodi2010 (5.15)–(5.16): with two classes the multiclass robust loss is the binary one.

Checked when the ledger is built (no records; the chapter's page makes the same check on toy (a),
σ = 0.7; here on 200 points drawn by ``toy_gaussian``): the loss (5.14) with C = 2 equals (2.16)
for w = w₊ − w₋, and M-GURU with step η0 follows GURU with step 2η0 update by update (5 epochs,
same sample order).
"""
from __future__ import annotations

import warnings

import numpy as np

from ..ledger import target
from ._common import PAPER, make

LABEL = "ginodi2010 (5.15)–(5.16)"
ALGORITHM = "multi_robust_loss against robust_hinge_loss; m_guru (η0 = 0.25) against guru_sgd (η0 = 0.5)"


def records(root=None, scale="paper", seed=0):
    """Nothing is cached for this check."""
    return None


def check(seed=0):
    """(largest loss difference, largest relative difference of the SGD iterates)."""
    from sklearn.exceptions import ConvergenceWarning

    from robustpapers.ginodi2010 import guru_sgd, m_guru, multi_robust_loss, robust_hinge_loss, toy_gaussian

    X, y = toy_gaussian(200, random_state=seed)
    yi = (y > 0).astype(int)
    W = np.random.default_rng(seed).normal(size=(2, 2))
    loss_err = float(np.max(np.abs(multi_robust_loss(W, X, yi, 0.7) - robust_hinge_loss(W[1] - W[0], X, y, 0.7))))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        mg = m_guru(X, yi, 0.7, eta0=0.25, max_iter=5, tol=1e-12, random_state=seed)
        g = guru_sgd(X, y, 0.7, eta0=0.5, max_iter=5, tol=1e-12, random_state=seed)
    run_err = float(np.max(np.abs(mg.W[1] - mg.W[0] - g.w)) / np.max(np.abs(g.w)))
    return loss_err, run_err


def claims(records):
    loss_err, run_err = check()
    r = target(max(loss_err, run_err), 1e-10, 0.0, kind="at_most")
    r["rule"] = "largest loss difference and relative difference of the SGD iterates at most 1e-10"
    return [make(LABEL, id="eq5_16-two-classes", where="(5.15)–(5.16)",
                 condition="toy (a) data (200 points), σ = 0.7",
                 statement="For two classes the multiclass robust loss equals the binary robust loss of w₊ − w₋.",
                 paper_value="exact", algorithm=ALGORITHM,
                 note=(f"A numerical check computed when the ledger is built (no records). Loss difference "
                       f"{loss_err:.1e}; M-GURU vs GURU iterates {run_err:.1e} (relative) over 5 epochs."), **r)]
