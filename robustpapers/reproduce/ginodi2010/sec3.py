"""ginodi2010 chapter 3: the dual of (2.22), strong duality (conjectured) and the norm from the dual.

* Lemmas 6, 8, 9: the conjugates f* = φ(Φ⁻¹(α)), H₂(α) and 4α(1 − α), checked against a brute-force
  minimisation of f(z) − αz (computed when the ledger is built; no records).
* (3.22), conjectured: strong duality. From the recorded cases (toys (a) and (b), n = 40 and 100
  training points, σ = 2^-4..2^5): the relative gap between the primal (L-BFGS) and the dual (SLSQP)
  is at most 1e-6 in every case. A case is certified when SLSQP reports success and its solution is
  feasible (slack above −1e-7).
* (3.20), (3.23): the classifier rebuilt from the dual alone matches the primal one to a relative 1e-4.
* (3.31)–(3.32): the general framework: the KKT dual point of the primal optimum is feasible with a
  tight constraint and the same value for the Gaussian, log and quadratic losses (200 points of toy (a), σ = 1;
  computed when the ledger is built).
"""
from __future__ import annotations

import numpy as np

from ..ledger import target
from ._common import PAPER, join, make, records_of

LABEL = "ginodi2010 chapter 3"
EXPERIMENT = "duality"
ALG_DUAL = "guru_lbfgs (primal (2.22)) against guru_dual (SLSQP on the dual (3.17)), recover_w"


def records(root=None, scale="paper", seed=0):
    """The paper-scale duality cases (n = 40 and 100, σ = 2^-4..2^5)."""
    if scale != "paper":
        raise ValueError(f"the ledger judges the paper-scale records only, got scale={scale!r}")
    return records_of(EXPERIMENT, root, where={"seed": seed}, keep=lambda p: -4 <= p["log2_sigma"] <= 5)


def conjugate_error():
    """Largest difference between the closed-form conjugates and a brute-force minimisation."""
    from robustpapers.ginodi2010 import (log_loss2, log_loss2_conjugate, quadratic_hinge, quadratic_hinge_conjugate,
                                         smooth_hinge, smooth_hinge_conjugate)

    zg = np.linspace(-40, 40, 200001)
    al = np.linspace(0.01, 0.99, 99)
    err = 0.0
    for f, fc in [(smooth_hinge, smooth_hinge_conjugate), (log_loss2, log_loss2_conjugate),
                  (quadratic_hinge, quadratic_hinge_conjugate)]:
        fz = f(zg)
        brute = np.array([np.min(fz - a * zg) for a in al])
        err = max(err, float(np.max(np.abs(brute - fc(al)))))
    return err


def framework_error():
    """Largest relative mismatch of value and constraint slack of the general pair for the three losses."""
    from robustpapers.ginodi2010 import perspective_fit, toy_gaussian

    X, y = toy_gaussian(200, random_state=0)
    err, ok = 0.0, True
    for loss in ("gaussian", "log", "quadratic"):
        r = perspective_fit(X, y, loss, sigma=1.0)
        ok &= bool(r.success)
        err = max(err, abs(r.dual_value - r.objective) / r.objective, abs(r.slack) / r.objective)
    return float(err), ok


def claims(records):
    out = []
    e = conjugate_error()
    r = target(e, 1e-6, 0.0, kind="at_most")
    r["rule"] = "largest difference from a brute-force conjugate (grid of 200,001 points) at most 1e-6"
    out.append(make(LABEL, id="sec3-conjugates", where="Lemmas 6, 8, 9", statement=(
        "The conjugates of f, of the log loss log₂(1 + 2^z) and of the quadratic loss are φ(Φ⁻¹(α)), H₂(α) and "
        "4α(1 − α)."), paper_value="exact", algorithm="smooth_hinge_conjugate, log_loss2_conjugate, "
        "quadratic_hinge_conjugate against brute-force minimisation",
        note=f"A numerical check computed when the ledger is built (no records). Largest error {e:.1e}.", **r))
    if records:
        res = [x["result"] for x in records]
        gap = [abs(x["primal"] - x["dual"]) / x["primal"] for x in res]
        ok = [bool(x["dual_success"] and x["dual_slack"] > -1e-7) for x in res]
        cert_gap = [g for g, o in zip(gap, ok) if o]
        r = target(max(cert_gap) if cert_gap else None, 1e-6, 0.0, kind="at_most", n_runs=len(res),
                   n_certified=sum(ok))
        r["rule"] = "largest relative duality gap over the cases at most 1e-6"
        out.append(make(LABEL, id="sec3-strong-duality", where="(3.22) (conjecture)", statement=(
            "Strong duality holds between (2.22) and its dual (3.17): ‖α*‖₁ equals the primal optimum."),
            paper_value="gap = 0", algorithm=ALG_DUAL, condition="toys (a), (b); n = 40, 100",
            note=join(f"Value: largest relative gap over {len(res)} cases.",
                      f"{len(ok) - sum(ok)} of {len(ok)} dual solves not certified (SLSQP failure or infeasible)."
                      if len(ok) - sum(ok) else "", "The L-BFGS primal's gradient norm is not stored; its "
                      "value is checked against the KKT dual value instead (the page asserts agreement to 1e-8)."),
            **r))
        werr = [x["w_rel_err_dual"] for x, o in zip(res, ok) if o]
        r = target(max(werr) if werr else None, 1e-4, 0.0, kind="at_most", n_runs=len(res), n_certified=sum(ok))
        r["rule"] = "largest relative error of w rebuilt from the dual alone at most 1e-4"
        out.append(make(LABEL, id="sec3-norm-from-dual", where="(3.4), (3.20), (3.23)", statement=(
            "The optimal classifier is recovered from the dual: direction by (3.4), norm by (3.20) or (3.23)."),
            paper_value="exact", algorithm=ALG_DUAL + " ((3.20) and (3.23) with the factor σ the thesis omits)",
            condition="toys (a), (b); n = 40, 100",
            note=join(f"Value: largest ‖w_dual − w‖/‖w‖ over {len(res)} cases.",
                      "(3.23) alone is ill-conditioned where some α_m rounds to 1; recover_w then uses (3.20)."),
            **r))
    e, ok = framework_error()
    r = target(e, 1e-6, 0.0, kind="at_most", n_runs=3, n_certified=3 if ok else 0)
    r["rule"] = "largest relative mismatch of the dual value and of the constraint slack at most 1e-6"
    out.append(make(LABEL, id="sec3-general-framework", where="(3.31)–(3.32)", statement=(
        "The dual pair generalises to other convex losses (log and quadratic losses) with their conjugates in the "
        "constraint."), paper_value="exact", algorithm="perspective_fit (loss 'gaussian', 'log', 'quadratic')",
        condition="toy (a) data (200 points), σ = 1",
        note=f"Computed when the ledger is built (no records). Largest mismatch {e:.1e}.", **r))
    return out
