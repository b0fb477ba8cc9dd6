"""ussvm_fss's expert knobs grouped in FSSOptions: same defaults, same numbers, old keywords still accepted."""
import inspect
from dataclasses import fields, replace

import numpy as np
import pytest

from robustpapers.bental2012 import FSSOptions, USSVMClassifier, make_uncertain_dataset, ussvm_fss

# Short runs: the comparisons are of two calls with the same cap, converged or not.
pytestmark = pytest.mark.filterwarnings("ignore::robustpapers.core.ConvergenceWarning")

#: The defaults ussvm_fss had as keyword parameters before they were grouped.
OLD_DEFAULTS = dict(max_stages=60, schedule="adaptive", ridge=0.0, R0="auto", y0="zeros", certificate="svm",
                    check_every=20, dtype=None, eig="exact", restrict_x=True, restrict_y=True, theta=None,
                    blas_threads=1, step="fixed", step_grow=1.5, n_alternate=2, polish=False, recenter_x=False,
                    svm_tol=1e-6, bias_floor=None, checkpoint_every=600.0, callback=None, verbose=False)


def _problem():
    ds = make_uncertain_dataset("uniform", N=30, L=3, random_state=2)
    return ds.K_bar, ds.K_stack, ds.y


def _same(a, b):
    assert np.array_equal(a.alpha, b.alpha) and a.b == b.b and a.nit == b.nit and a.gap == b.gap


def test_defaults_are_the_old_keyword_defaults():
    assert {f.name: f.default for f in fields(FSSOptions)} == OLD_DEFAULTS


def test_the_signature_is_short():
    assert len(inspect.signature(ussvm_fss).parameters) <= 13


@pytest.mark.parametrize("knobs", [{}, dict(step="backtracking", R0="probe"),
                                   dict(y0="alternate", recenter_x=True, polish=True, svm_tol=1e-10)])
def test_options_and_keywords_give_the_same_run(knobs):
    Kb, Ks, y = _problem()
    by_options = ussvm_fss(Kb, Ks, y, 1.0, 0.5, tol=1e-4, max_iter=500, options=replace(FSSOptions(), **knobs))
    by_keywords = ussvm_fss(Kb, Ks, y, 1.0, 0.5, tol=1e-4, max_iter=500, **knobs)
    _same(by_options, by_keywords)


def test_a_keyword_overrides_the_options():
    Kb, Ks, y = _problem()
    a = ussvm_fss(Kb, Ks, y, 1.0, 0.5, max_iter=500, options=FSSOptions(step="backtracking"), step="fixed")
    b = ussvm_fss(Kb, Ks, y, 1.0, 0.5, max_iter=500)
    _same(a, b)


def test_bad_options_are_refused_by_name():
    Kb, Ks, y = _problem()
    with pytest.raises(TypeError, match="stepsize"):
        ussvm_fss(Kb, Ks, y, 1.0, 0.5, stepsize="fixed")
    with pytest.raises(ValueError, match="FSSOptions"):
        ussvm_fss(Kb, Ks, y, 1.0, 0.5, options={"step": "fixed"})


def test_classifier_takes_options_or_a_dict():
    Kb, Ks, y = _problem()
    X = np.concatenate([Kb[None], Ks])
    a = USSVMClassifier(kappa=0.5, solver="fss", tol=1e-3, max_iter=2000,
                        solver_options=FSSOptions(step="backtracking")).fit(X, y)
    b = USSVMClassifier(kappa=0.5, solver="fss", tol=1e-3, max_iter=2000,
                        solver_options={"step": "backtracking"}).fit(X, y)
    assert np.array_equal(a.alpha_, b.alpha_) and a.b_ == b.b_
    with pytest.raises(ValueError, match="solver='fss'"):
        USSVMClassifier(kappa=0.5, solver="socp", solver_options=FSSOptions()).fit(X, y)
