"""shivaswamy2006 §3: the radius of the uncertainty ellipsoid for a confidence κ, (11) and (12).

The radius claim, Φ⁻¹(κ) < √(κ/(1 − κ)), is a closed-form statement: it is judged on a fine grid of κ
by the library's ``gamma_gaussian`` and ``gamma_chebyshev`` (no solver, no record). Fig. 1's three
scenarios (§3.3) are :mod:`.fig1`.
"""
from __future__ import annotations

import numpy as np

from .. import ledger
from ._shared import PAPER

LABEL = "shivaswamy2006 §3"
#: The grid of κ on which the radius claim is judged (κ < 0.5 gives a negative Gaussian radius).
KAPPAS = np.linspace(0.5, 0.999, 500)
#: The κ of the page's table.
TABLE_KAPPAS = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99)


def records(root=None, scale="paper", seed=0):
    """The radii of (11) and (12) on :data:`KAPPAS` (closed form; there are no cached runs for §3)."""
    from robustpapers.shivaswamy2006 import gamma_chebyshev, gamma_gaussian

    return {"kappa": KAPPAS, "chebyshev": np.asarray(gamma_chebyshev(KAPPAS), dtype=float),
            "gaussian": np.asarray(gamma_gaussian(KAPPAS), dtype=float)}


def numbers(records=None):
    """The two radii at :data:`TABLE_KAPPAS` (a DataFrame) and their ratio at κ = 0.9."""
    import pandas as pd

    from robustpapers.shivaswamy2006 import gamma_chebyshev, gamma_gaussian

    k = np.array(TABLE_KAPPAS)
    return {"table": pd.DataFrame({"κ": k, "Chebyshev (11)": gamma_chebyshev(k), "Gaussian (12)": gamma_gaussian(k)}),
            "ratio_90": float(gamma_gaussian(0.9) / gamma_chebyshev(0.9))}


def claims(records):
    """The radius inequality."""
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
    ]
