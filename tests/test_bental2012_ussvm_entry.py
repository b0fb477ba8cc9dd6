"""The entry point ``ussvm`` (bental2012 eq. (12)): its default certifies the optimum of an independent formulation."""
from dataclasses import replace

import numpy as np
import pytest

from robustpapers.bental2012 import (
    FSSOptions, USSVMClassifier, USSVMOptions, make_uncertain_dataset, robust_objective, ussvm, ussvm_fss,
    ussvm_socp,
)
from robustpapers.core import ConvergenceWarning


def _problem(seed=0, N=15, L=3, dist="gaussian"):
    ds = make_uncertain_dataset(dist, N, L, random_state=seed, d=5)
    return ds.K_bar, ds.K_stack, ds.y


@pytest.mark.parametrize("p", [2, 1, 1.5])
@pytest.mark.parametrize("seed", [0, 1])
def test_default_agrees_with_the_socp_and_is_certified(p, seed):
    Kb, Ks, y = _problem(seed)
    res = ussvm(Kb, Ks, y, C=10.0, kappa=1.0, p=p)
    ref = ussvm_socp(Kb, Ks, y, C=10.0, kappa=1.0, p=p, scale="auto")  # cvxpy + Clarabel on the conic form (13)
    assert res.success and res.method == "alternating"
    assert abs(res.objective - ref.objective) <= 1e-3 * abs(ref.objective)
    # the certificate: F(alpha) <= OPT <= U, within tol, and the SOCP's value lies below U as well
    assert res.gap == pytest.approx(res.upper - res.objective, abs=1e-15)
    assert res.gap <= 1e-6 * abs(res.objective)
    assert ref.objective <= res.upper * (1 + 1e-7)
    # the reported objective is F at the returned alpha, alpha is in S_n
    assert res.objective == pytest.approx(robust_objective(res.alpha, Kb, Ks, y, 1.0, p), rel=1e-10)
    assert abs(res.alpha @ y) <= 1e-8 * 10.0 * y.size and res.alpha.min() >= 0 and res.alpha.max() <= 10.0


def test_every_method_answers_with_the_same_certificate():
    Kb, Ks, y = _problem(2)
    fast_fss = FSSOptions(y0="alternate", step="backtracking", polish=True)  # FSS's own defaults take minutes here
    out = {m: ussvm(Kb, Ks, y, 10.0, 1.0, method=m, tol=1e-3, max_iter=300 if m == "fss" else None,
                    options=fast_fss if m == "fss" else None)
           for m in ("alternating", "fss", "socp")}
    for m, r in out.items():
        assert r.success and r.method == m and r.rel_gap <= 1e-3, m
    F = [r.objective for r in out.values()]
    assert max(F) - min(F) <= 1e-3 * abs(max(F))


def test_float32_storage_gives_the_same_optimum():
    Kb, Ks, y = _problem(3)
    r64 = ussvm(Kb, Ks, y, 10.0, 1.0)
    r32 = ussvm(Kb, Ks, y, 10.0, 1.0, options=USSVMOptions(dtype=np.float32))
    assert r32.success and abs(r32.objective - r64.objective) <= 1e-5 * abs(r64.objective)


def test_p1_needs_the_master_problem():
    """p = 1: the plain alternation cycles between two vertices of the eta-set; the master problem certifies."""
    Kb, Ks, y = _problem(1, N=50, L=5)
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        plain = ussvm(Kb, Ks, y, 10.0, 1.0, p=1, method="alternating", max_iter=20,
                      options=USSVMOptions(master=False))
    assert not plain.success
    res = ussvm(Kb, Ks, y, 10.0, 1.0, p=1, method="alternating", max_iter=50)
    assert res.success and res.objective >= plain.objective


def test_bad_input_raises_value_error():
    Kb, Ks, y = _problem(0)
    bad = Ks.copy()
    bad[1] = Kb - 5.0 * np.eye(y.size)  # not PSD
    with pytest.raises(ValueError, match=r"K_list\[1\] is not positive semidefinite"):
        ussvm(Kb, bad, y, 10.0, 1.0)
    with pytest.raises(ValueError, match="K_bar is not positive semidefinite"):
        ussvm(Kb - 5.0 * np.eye(y.size), Ks, y, 10.0, 1.0)
    with pytest.raises(ValueError, match="K_list must hold kernels of shape"):
        ussvm(Kb, Ks[:, :-1, :-1], y, 10.0, 1.0)
    with pytest.raises(ValueError, match="K_bar must have shape"):
        ussvm(Kb[:-1, :-1], Ks, y, 10.0, 1.0)
    with pytest.raises(ValueError, match="NaN"):
        nan = Ks.copy()
        nan[0, 0, 0] = np.nan
        ussvm(Kb, nan, y, 10.0, 1.0)
    with pytest.raises(ValueError, match="method must be one of"):
        ussvm(Kb, Ks, y, 10.0, 1.0, method="ipm")
    with pytest.raises(ValueError, match="tol"):
        ussvm(Kb, Ks, y, 10.0, 1.0, tol=0)
    with pytest.raises(ValueError, match="options.fallback"):
        ussvm(Kb, Ks, y, 10.0, 1.0, options=USSVMOptions(fallback=("newton",)))


def test_large_problems_check_the_certificate_kernel():
    """Above ``psd_check_flops`` the K_l are not factorised one by one; the effective kernel the certificate
    uses still is, so a non-PSD K_l that the certificate relies on is refused."""
    Kb, Ks, y = _problem(0)
    bad = Ks.copy()
    bad[:] = Kb - 5.0 * np.eye(y.size)
    with pytest.raises(ValueError, match="effective kernel"):
        ussvm(Kb, bad, y, 10.0, 1.0, method="alternating", options=USSVMOptions(psd_check_flops=0))


def test_forced_early_stop_warns_naming_the_knob():
    Kb, Ks, y = _problem(1, N=50, L=5)
    with pytest.warns(ConvergenceWarning, match="increase max_iter"):
        r = ussvm(Kb, Ks, y, 10.0, 1.0, p=1, method="alternating", max_iter=1, tol=1e-12)
    assert not r.success and r.nit == 1
    with pytest.warns(ConvergenceWarning, match="options.fallback"):
        r = ussvm(Kb, Ks, y, 10.0, 1.0, p=1, max_iter=1, tol=1e-12, options=USSVMOptions(fallback=()))
    assert not r.success and r.methods_tried == ["alternating"]
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        r = ussvm(Kb, Ks, y, 10.0, 1.0, method="fss", max_iter=5, tol=1e-12)  # FSS's own defaults
    assert not r.success


def test_auto_falls_back_when_the_alternating_method_stops():
    Kb, Ks, y = _problem(1, N=20, L=5)
    r = ussvm(Kb, Ks, y, 10.0, 1.0, p=2, max_iter=1, tol=1e-6, options=USSVMOptions(fallback=("socp",)))
    assert r.success and r.methods_tried == ["alternating", "socp"] and r.method == "socp"


def test_method_fss_is_ussvm_fss_with_its_options():
    Kb, Ks, y = _problem(0)
    opts = FSSOptions(step="backtracking", check_every=7)
    with pytest.warns(ConvergenceWarning):
        r = ussvm(Kb, Ks, y, 10.0, 1.0, method="fss", tol=1e-12, max_iter=40, options=opts)
    with pytest.warns(ConvergenceWarning):
        direct = ussvm_fss(Kb, Ks, y, 10.0, 1.0, tol=1e-12, max_iter=40, options=opts)
    assert r.nit == direct.nit == 40 and np.array_equal(r.alpha, direct.alpha)
    # the entry point's certificate is at least as tight as FSS's own (same SVM duality bound, more candidates)
    assert r.gap <= direct.gap * (1 + 1e-9) + 1e-15


def test_classifier_default_is_the_certified_entry_point():
    Kb, Ks, y = _problem(4)
    X = np.concatenate([Kb[None], Ks])
    clf = USSVMClassifier(C=10.0, kappa=1.0).fit(X, y)
    assert clf.solver == "auto" and clf.result_.success and clf.result_.method == "alternating"
    ref = ussvm_socp(Kb, Ks, y, 10.0, 1.0, scale="auto")
    assert abs(clf.result_.objective - ref.objective) <= 1e-3 * abs(ref.objective)
    opt = USSVMClassifier(C=10.0, kappa=1.0, solver_options=replace(USSVMOptions(), dtype="float32")).fit(X, y)
    assert opt.result_.success
