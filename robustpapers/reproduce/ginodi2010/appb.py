"""ginodi2010 appendix B: the diagonal adversary puts all the noise on the axis of the largest |w_i|, (B.3).

Checked when the ledger is built (no records; the chapter's page makes the same check): the loss
(B.3) equals the expected hinge under Σ* = σ² e_i* e_i*' (quadrature), no random diagonal covariance
with the same trace gives more (200 draws), and the loss lies below chapter 2's full adversary.
"""
from __future__ import annotations

import numpy as np

from ..ledger import target
from ._common import PAPER, make

LABEL = "ginodi2010 appendix B"
ALGORITHM = "robust_hinge_loss_diagonal, diagonal_adversary against scipy.integrate.quad"


def records(root=None, scale="paper", seed=0):
    """Nothing is cached for this check."""
    return None


def check(seed=0):
    """(relative error of (B.3) against quadrature, largest excess of a random diagonal covariance, excess over
    the full adversary)."""
    from scipy.integrate import quad

    from robustpapers.ginodi2010 import diagonal_adversary, robust_hinge_loss, robust_hinge_loss_diagonal

    rng = np.random.default_rng(seed)
    X, y = rng.normal(size=(5, 4)), np.array([1.0, -1.0, 1.0, 1.0, -1.0])
    w, sigma = rng.normal(size=4), 0.8
    worst = robust_hinge_loss_diagonal(w, X, y, sigma)
    u = 1 - y * (X @ w)

    def expected(sd):
        return np.array([quad(lambda n: (u[m] + sd * n) * np.exp(-n * n / 2) / np.sqrt(2 * np.pi), -u[m] / sd,
                              np.inf, epsrel=1e-12)[0] for m in range(5)])

    S = diagonal_adversary(w, sigma)
    err = float(np.max(np.abs(worst - expected(np.sqrt(w @ S @ w))) / worst))
    excess = -np.inf
    for _ in range(200):
        a = rng.dirichlet(np.ones(4)) * sigma**2
        excess = max(excess, float(np.max(expected(np.sqrt(np.sum(a * w**2))) - worst)))
    full = float(np.max(worst - robust_hinge_loss(w, X, y, sigma)))
    return err, excess, full


def claims(records):
    err, excess, full = check()
    value = max(err, excess, full)
    r = target(value, 1e-8, 0.0, kind="at_most")
    r["rule"] = ("largest of: relative error of (B.3) against quadrature, excess of 200 random same-trace diagonal "
                 "covariances, excess over the full adversary; at most 1e-8")
    return [make(LABEL, id="appb-diagonal", where="(B.3)", statement=(
        "Against a diagonal covariance with bounded trace, the worst case puts all the noise on the axis of the "
        "largest |w_i|, giving the loss (B.3)."), paper_value="exact", algorithm=ALGORITHM,
        note=(f"A numerical check computed when the ledger is built (no records). Quadrature error {err:.1e}; random "
              f"diagonal covariances exceed (B.3) by at most {excess:.1e}; (B.3) minus the full adversary's loss "
              f"at most {full:.1e}."), **r)]
