"""shivaswamy2006 §7.1: the dual (47) of the missing-value classifier, its KKT readings, and Fig. 2.

The paper derives these without an experiment; the page solves the primal (44) and the dual (47) on
synthetic data of its own, and draws Fig. 2, when it is executed. No record of either computation is
cached, so the ledger cannot judge them.
"""
from __future__ import annotations

from .. import ledger
from ._shared import PAPER

LABEL = "shivaswamy2006 §7.1"
_NOTE = ("The page computes this and asserts it when it is executed; no record of that computation is "
         "cached, so the ledger has nothing to judge.")


def records(root=None, scale="paper", seed=0):
    """Nothing is cached for §7.1 (an empty dict)."""
    return {}


def claims(records):
    """The three derived statements of §7.1, untestable on the cached records."""
    common = dict(paper=PAPER, verdict="not testable here", artefact=LABEL, rule="judged only on cached records",
                  note=_NOTE)
    return [
        ledger.Claim(**common, id="sec7-1-duality", where="§7.1, (47), (49)", condition="synthetic 2-D data",
                     statement=("The primal (44) and the dual (47) share their optimum, and w is recovered from "
                                "the dual variables by (49)."),
                     paper_value="derived (no experiment)", algorithm="robust_svm_w, robust_svm_dual (Clarabel via cvxpy)"),
        ledger.Claim(**common, id="sec7-1-kkt", where="§7.1, (48)", condition="synthetic 2-D data",
                     statement=("The dual picks each ellipsoid's worst-case point; ellipsoids with 0 < λᵢ < 1 "
                                "touch the margin and those crossing it have λᵢ = 1."),
                     paper_value="derived (no experiment)", algorithm="robust_svm_w, robust_svm_dual, worst_case_points"),
        ledger.Claim(**common, id="fig2-robust-hyperplane", where="Fig. 2 (§7.1)", condition="synthetic 2-D data",
                     statement=("The robust hyperplane moves so that the uncertainty ellipsoids stay on their side, "
                                "where the nominal SVM's cuts them."),
                     paper_value="drawn", algorithm="robust_svm (C = 10; γ = 0 and γ = 1.5), worst_case_points"),
    ]
