"""Tests of the USSVM_MN speed options: the polished certificate, the alternating start and the
recentred x prox-centre (bental2012 §5.2-5.3, §7.5). Each checks that the certificate stays a valid
bound on the SOCP (13) optimum and that the answer is the SOCP's."""
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from robustpapers.bental2012 import make_uncertain_dataset, ussvm_fss, ussvm_socp
from robustpapers.bental2012.ussvm import _kkt_polish, svm_set_linear_max, ussvm_saddle_problem
from robustpapers.core import svm_dual
from test_bental2012 import _instance  # the same small instances as the solver tests


def _bound(K, y, C, ahat):
    u = y * ahat
    Ku = K @ u
    return 0.5 * float(u @ Ku) + svm_set_linear_max(1.0 - y * Ku, y, C)


def test_kkt_polish_tightens_the_svm_duality_bound_on_paper_data():
    """On the §7.5 data (tiny alpha, C = 10) the bound at LIBSVM's alpha is loose by LIBSVM's stopping
    error times C n; at the KKT-polished alpha it is within 1e-6 relative of the SVM optimum, and it is
    never below it (a valid upper bound at any alpha-hat)."""
    ds = make_uncertain_dataset("uniform", 40, 3, random_state=1)
    K = ds.K_bar + ds.K_stack.sum(0) / np.sqrt(3)
    C = 10.0
    exact = svm_dual(K, ds.y, C, tol=1e-12)
    D = float(exact.alpha.sum() - 0.5 * (ds.y * exact.alpha) @ K @ (ds.y * exact.alpha))
    rough = svm_dual(K, ds.y, C, tol=1e-3).alpha
    U_rough, U_pol = _bound(K, ds.y, C, rough), _bound(K, ds.y, C, _kkt_polish(K, ds.y, C, rough))
    assert U_pol >= D - 1e-12 * abs(D) and U_rough >= D - 1e-12 * abs(D)
    assert U_pol - D <= 1e-6 * abs(D) < U_rough - D



@pytest.mark.parametrize("scale", [1.0, 3e4])
def test_kkt_polish_is_tight_whatever_the_size_of_alpha_against_C(scale):
    """The polish's free set must not depend on how small alpha is compared with C: with the kernel
    multiplied by 3e4 every alpha_i is below 1e-8 C (the regime of the paper's n = 3000 data), and the
    polished bound must still be within 1e-6 relative of the SVM optimum (it was not, when the free set
    was {alpha_i > 1e-8 C}). (Much larger factors hit float64's resolution of the bound itself, about
    C eps / max alpha relative.)"""
    ds = make_uncertain_dataset("uniform", 40, 3, random_state=1)
    K = scale * (ds.K_bar + ds.K_stack.sum(0) / np.sqrt(3))
    C = 10.0
    exact = svm_dual(K, ds.y, C, tol=1e-12)
    assert scale == 1.0 or exact.alpha.max() < 1e-8 * C
    D = float(exact.alpha.sum() - 0.5 * (ds.y * exact.alpha) @ K @ (ds.y * exact.alpha))
    rough = svm_dual(K, ds.y, C, tol=1e-3).alpha
    U_pol = _bound(K, ds.y, C, _kkt_polish(K, ds.y, C, rough))
    assert D - 1e-12 * abs(D) <= U_pol <= D + 1e-6 * abs(D)

@pytest.mark.parametrize("seed", [0, 1])
def test_alternate_start_and_recentred_x_reach_the_socp_optimum(seed):
    """y0="alternate" with recenter_x (fixed and backtracking steps): certified eps_sad <= 1e-6 |F|,
    F(alpha) <= F* <= F(alpha) + eps_sad against the SOCP, and alpha within the strong-concavity radius."""
    Kb, Ks, y = _instance(60 + seed, n=40, L=5)
    socp = ussvm_socp(Kb, Ks, y, C=1.0, kappa=0.8)
    assert socp.success
    for kw in (dict(), dict(step="backtracking")):
        r = ussvm_fss(Kb, Ks, y, 1.0, 0.8, tol=1e-6, y0="alternate", recenter_x=True, polish=True, **kw)
        assert r.success and r.gap <= 1e-6 * abs(r.objective)
        assert r.objective - 1e-8 <= socp.objective <= r.objective + r.gap + 1e-8
        assert np.linalg.norm(r.alpha - socp.alpha) <= np.sqrt(2 * (r.gap + 1e-8) / r.theta) + 1e-4


def test_fast_options_on_paper_data_agree_with_the_rescaled_socp():
    """D_U(1, 30, 4), C = 10, kappa = 1 (the §7.5 setting, small): the fast USSVM_MN certifies 1e-4 and
    brackets the SOCP optimum; FSS takes steps when asked for more than the start gives (tol 1e-9)."""
    ds = make_uncertain_dataset("uniform", 30, 4, random_state=3)
    socp = ussvm_socp(ds.K_bar, ds.K_stack, ds.y, 10.0, 1.0, scale="auto")
    slack = 1e-7 * abs(socp.objective)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        fast = ussvm_fss(ds.K_bar, ds.K_stack, ds.y, 10.0, 1.0, tol=1e-4, y0="alternate", recenter_x=True, polish=True,
                         step="backtracking")
        deep = ussvm_fss(ds.K_bar, ds.K_stack, ds.y, 10.0, 1.0, tol=1e-9, y0="alternate", recenter_x=True, polish=True,
                         step="backtracking", max_iter=400)
    assert fast.success
    for r in (fast, deep):
        assert r.objective - slack <= socp.objective <= r.objective + r.gap + slack
    assert deep.nit > 0 and deep.gap <= fast.gap


def test_recentred_x_doubles_omega_x_and_is_validated():
    Kb, Ks, y = _instance(5, n=12, L=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        a = ussvm_fss(Kb, Ks, y, 1.0, 0.5, tol=1e-5, max_iter=50)
        b = ussvm_fss(Kb, Ks, y, 1.0, 0.5, tol=1e-5, max_iter=50, recenter_x=True)
    assert a.constants["Omega_X"] == 0.5
    assert b.constants["Omega_X"] == pytest.approx(2 * a.constants["Omega_X"])
    with pytest.raises(ValueError, match="n_alternate"):
        ussvm_fss(Kb, Ks, y, 1.0, 0.5, y0="alternate", n_alternate=0)
    with pytest.raises(ValueError, match="y0"):
        ussvm_fss(Kb, Ks, y, 1.0, 0.5, y0="bogus")


def test_certificate_with_and_without_polish_brackets_the_optimum():
    """The polished bound is never looser than the plain one and both lie above the SOCP value."""
    Kb, Ks, y = _instance(7, n=40, L=5)
    socp = ussvm_socp(Kb, Ks, y, C=1.0, kappa=0.8)
    x = np.full(Ks.shape[0], 1.0 / np.sqrt(Ks.shape[0]))
    yv = socp.alpha
    probs = {pol: ussvm_saddle_problem(Kb, Ks, y, 1.0, 0.8, polish=pol, svm_tol=1e-3) for pol in (True, False)}
    g = {pol: pr.gap(x, yv) for pol, pr in probs.items()}
    assert g[True] <= g[False] + 1e-15
    # U(x) = F(y) + gap is an upper bound on the saddle value, which is the SOCP optimum
    assert probs[True].lower(yv) + g[True] >= socp.objective - 1e-9


def test_fig6_task_agrees_with_the_socp_and_censors_at_the_cap():
    """fig6_task: on the same D_U(1, 8, 3) set USSVM_MN's certificate brackets the SOCP's objective; a
    time cap far too short for Clarabel gives a censored SOCP point (a lower bound, no objective)."""
    from robustpapers.reproduce.bental2012.experiments import fig6_task

    common = dict(N=8, L=3, C=10.0, kappa=1.0, seed=0)
    s = fig6_task(method="socp", **common)
    m = fig6_task(method="mn", **common)
    assert not s["censored"] and not m["censored"] and s["n"] == m["n"] == 16
    assert s["objective"] <= m["objective"] + m["gap"] + 1e-6 * abs(s["objective"])
    assert abs(m["objective"] - s["objective"]) <= 1e-3 * abs(s["objective"])
    cut = fig6_task(method="socp", socp_time_limit=1e-6, **common)
    assert cut["censored"] and np.isnan(cut["objective"])
    with pytest.raises(ValueError, match="method"):
        fig6_task(method="bogus", **common)


def test_robustness_task_fast_variant_is_the_same_fold_and_optimum():
    """Fig. 2's paper-scale options (fss_fast, socp_scale="auto") change how the fold is solved, not what:
    the same data, split and eta draws, USSVM_MN certified within tol and equal to the SOCP's objective, the
    nominal SVM's errors unchanged."""
    from robustpapers.reproduce.bental2012.experiments import robustness_task

    common = dict(distribution="uniform", N=12, L=4, kappa=1.0, C=100.0, R=20, fold=0, n_folds=5, dataset_index=0,
                  seed=3, fss_tol=1e-3, fss_step="backtracking")
    plain = robustness_task(**common)
    fast = robustness_task(fss_fast=True, socp_scale="auto", **common)
    assert fast["mn_success"] and fast["mn_gap"] <= 1e-3 * abs(fast["mn_objective"])
    assert abs(fast["mn_objective"] - fast["socp_objective"]) <= 1e-3 * abs(fast["socp_objective"])
    assert abs(fast["socp_objective"] - plain["socp_objective"]) <= 1e-3 * abs(plain["socp_objective"])
    assert {k: v for k, v in fast.items() if k.startswith("svm_") and k != "svm_time"} == \
        {k: v for k, v in plain.items() if k.startswith("svm_") and k != "svm_time"}


def test_cv_task_fast_variant_is_the_same_fold_and_optimum():
    """Figs. 3-4's paper-scale option fss_fast changes how USSVM_MN is solved, not what: certified within tol,
    equal to the SOCP's objective; the SVM, SOCP and RSVM parts of the task are those of the plain task."""
    from robustpapers.reproduce.bental2012.experiments import cv_task

    common = dict(distribution="gaussian", N=12, L=4, C=10.0, eps_grid=[0.1], kappa=1.0, R=20, fold=1, n_folds=5,
                  dataset_index=0, seed=5, rsvm_starts=2, fss_tol=1e-3)
    plain, fast = cv_task(**common), cv_task(fss_fast=True, **common)
    assert fast["mn_success"] and fast["mn_gap"] <= 1e-3 * abs(fast["mn_objective"])
    assert abs(fast["mn_objective"] - fast["socp_objective"]) <= 1e-3 * abs(fast["socp_objective"])
    same = [k for k in plain if k.split("_")[0] in ("svm", "socp", "rsvm") and not k.endswith("time")]
    assert {k: fast[k] for k in same} == {k: plain[k] for k in same}


def test_svm_tol_is_validated_and_keeps_the_certificate_valid():
    Kb, Ks, y = _instance(8, n=40, L=5)
    socp = ussvm_socp(Kb, Ks, y, C=1.0, kappa=0.8)
    r = ussvm_fss(Kb, Ks, y, 1.0, 0.8, tol=1e-6, y0="alternate", recenter_x=True, polish=True, svm_tol=1e-10)
    assert r.success and r.objective - 1e-8 <= socp.objective <= r.objective + r.gap + 1e-8
    with pytest.raises(ValueError, match="svm_tol"):
        ussvm_fss(Kb, Ks, y, 1.0, 0.8, svm_tol=0.0)
