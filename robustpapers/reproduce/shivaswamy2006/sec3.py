"""shivaswamy2006 §3: the radius of the uncertainty ellipsoid (after (12)) and the three scenarios of Fig. 1 (§3.3).

The radius claim, Φ⁻¹(κ) < √(κ/(1 − κ)), is a closed-form statement: it is judged on a fine grid of κ
by the library's ``gamma_gaussian`` and ``gamma_chebyshev`` (no solver, no record). Fig. 1 is a
drawing in the paper; the book computes its three scenarios on the page itself, and no record of that
computation is cached, so the ledger cannot judge it.
"""
from __future__ import annotations

import numpy as np

from .. import ledger
from ._shared import PAPER

LABEL = "shivaswamy2006 §3"
#: The grid of κ on which the radius claim is judged (κ < 0.5 gives a negative Gaussian radius).
KAPPAS = np.linspace(0.5, 0.999, 500)


def records(root=None, scale="paper", seed=0):
    """The radii of (11) and (12) on :data:`KAPPAS` (closed form; there are no cached runs for §3)."""
    from robustpapers.shivaswamy2006 import gamma_chebyshev, gamma_gaussian

    return {"kappa": KAPPAS, "chebyshev": np.asarray(gamma_chebyshev(KAPPAS), dtype=float),
            "gaussian": np.asarray(gamma_gaussian(KAPPAS), dtype=float)}


def claims(records):
    """The radius inequality and Fig. 1."""
    ratio = records["gaussian"] / records["chebyshev"]
    worst = float(np.max(ratio))
    # a strict bound on a closed form: no solver run, so nothing to certify (target() would call it
    # inconclusive for want of runs)
    ok = bool(np.all(np.isfinite(ratio))) and worst < 1.0
    res = dict(verdict="reproduced" if ok else "not reproduced", our_value=worst, interval=None, n_runs=0,
               n_certified=0, rule="largest ratio Φ⁻¹(κ)/√(κ/(1−κ)) on the grid strictly below 1 (closed form)")
    j = int(np.argmin(np.abs(records["kappa"] - 0.9)))
    return [
        ledger.Claim(
            paper=PAPER, id="sec3-gaussian-radius", where="§3.1, after (12)",
            statement=("The Gaussian radius Φ⁻¹(κ) is smaller than the distribution-free radius √(κ/(1 − κ)): "
                       "a Gaussian assumption only shrinks the uncertainty ellipsoid."),
            artefact=LABEL, condition=None, paper_value="Φ⁻¹(κ) < √(κ/(1−κ))",
            algorithm="gamma_gaussian, gamma_chebyshev (closed form)",
            note=(f"Largest ratio over {len(records['kappa'])} values of κ in [0.5, 0.999]: {worst:.3f}; at "
                  f"κ = 0.9 it is {ratio[j]:.3f}. No solver is involved, so there are no runs to certify."),
            **res),
        ledger.Claim(
            paper=PAPER, id="fig1-scenarios", where="Fig. 1 (§3.3)",
            statement=("An ellipsoid on the correct side has worst-case and expected error 0, one on the wrong "
                       "side 1, and one cut by the hyperplane worst-case error 1 and expected error strictly "
                       "between 0 and 1."),
            verdict="not testable here", artefact=LABEL, paper_value="0/1/1 (worst case), 0/1/(0, 1) (expected)",
            algorithm="robust_svm (γ = 0), classification_errors, expected_error_mc",
            rule="judged only on cached records",
            note=("The page computes the three scenarios when it is executed and asserts them; no record of "
                  "that computation is cached, so the ledger has nothing to judge.")),
    ]
