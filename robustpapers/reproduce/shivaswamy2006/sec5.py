"""shivaswamy2006 §5.2: Theorem 4, the residual bounds behind CTM (29) and SR (30).

The page checks the theorem by sampling the missing entries of the toy problem from their conditional
Gaussian when it is executed; no record of that computation is cached, so the ledger cannot judge it.
"""
from __future__ import annotations

from .. import ledger
from ._shared import PAPER

LABEL = "shivaswamy2006 §5.2"


def records(root=None, scale="paper", seed=0):
    """Nothing is cached for §5.2 (an empty dict)."""
    return {}


def claims(records):
    """Theorem 4, untestable on the cached records."""
    return [ledger.Claim(
        paper=PAPER, id="thm4-violation", where="Theorem 4 (§5.2)", condition="toy (§8.2), sampled inputs",
        statement=("(29) implies Pr{|e(f(x), y) − e(f(x̄), y)| ≥ θ} ≤ η and (30) implies "
                   "Pr{|e(f(x), y)| ≥ ξ + ε} ≤ η for every distribution with the given moments."),
        verdict="not testable here", artefact=LABEL, paper_value="violation probability ≤ η",
        algorithm="RobustMissingSVR('ctm'), RobustMissingSVR('sr') (Clarabel via cvxpy)",
        rule="judged only on cached records",
        note=("The page samples the missing entries and asserts the bound when it is executed (η = 0.3); no "
              "record of that computation is cached, so the ledger has nothing to judge."))]
