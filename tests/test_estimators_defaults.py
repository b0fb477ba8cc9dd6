"""Every estimator's default reaches its certificate quickly on small data (200 points).

Each estimator is built with no argument (only the data-describing ones: the uncertainty of RSVMClassifier), fitted
once on 200 points with ConvergenceWarning turned into an error, and its fitted result must carry its certificate:
a duality gap (USSVMClassifier, ASVC, the cone programs of shivaswamy2006, RSVMClassifier's SOCP), a Frank-Wolfe gap
(IndefiniteSVC) or a gradient norm (the GURU family), each reported as ``result_.success``. The time limit is
loose (a shared, loaded machine): the point is that no default runs to an iteration cap, as
``USSVMClassifier()`` (18 s on 300 points) and ``IndefiniteSVC()`` (9.6 s) once did.
"""
import time
import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification, make_regression
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics.pairwise import linear_kernel, rbf_kernel

from robustpapers.bental2012 import USSVMClassifier
from robustpapers.bhadra2010 import RSVMClassifier
from robustpapers.chen2008 import IndefiniteSVC
from robustpapers.ginodi2010 import ASVC, GURUClassifier, KernelGURUClassifier, MultiGURUClassifier
from robustpapers.shivaswamy2006 import (
    KernelRobustMissingSVC, KernelRobustMissingSVR, RobustMissingMulticlassSVC, RobustMissingSVC, RobustMissingSVR,
)

N = 200
SECONDS = 10.0  # measured on 2 shared cores: every default below takes at most about 1 s


def _binary(seed=0):
    X, y = make_classification(N, 5, n_informative=3, flip_y=0.05, random_state=seed)
    return X, y


def _missing(X, seed=0, rate=0.1):
    """About 10 % of the entries missing, never a whole row."""
    X = X.copy()
    mask = np.random.default_rng(seed).random(X.shape) < rate
    mask[:, 0] = False
    X[mask] = np.nan
    return X


def _stack():
    X, y = _binary(1)
    K = rbf_kernel(X, gamma=0.2)
    return np.stack([K, 0.1 * linear_kernel(X) / X.shape[1], 0.05 * rbf_kernel(X, gamma=1.0)]), y


def _case(name):
    if name == "USSVMClassifier":
        X, y = _stack()
        return USSVMClassifier(), (X, y), {}
    if name == "RSVMClassifier":
        X, y = _binary(2)
        K = rbf_kernel(X, gamma=0.2)
        return RSVMClassifier(), (K, y), {"a": -0.05 * np.ones_like(K), "b": 0.05 * np.ones_like(K)}
    if name == "IndefiniteSVC":
        return IndefiniteSVC(), _binary(3), {}
    if name in ("GURUClassifier", "KernelGURUClassifier", "ASVC"):
        est = {"GURUClassifier": GURUClassifier, "KernelGURUClassifier": KernelGURUClassifier, "ASVC": ASVC}[name]
        return est(), _binary(4), {}
    if name in ("MultiGURUClassifier", "RobustMissingMulticlassSVC"):
        X, y = make_classification(N, 5, n_informative=3, n_classes=3, random_state=5)
        if name == "MultiGURUClassifier":
            return MultiGURUClassifier(), (X, y), {}
        return RobustMissingMulticlassSVC(), (_missing(X, 5), y), {}
    if name in ("RobustMissingSVC", "KernelRobustMissingSVC"):
        X, y = _binary(6)
        est = RobustMissingSVC if name == "RobustMissingSVC" else KernelRobustMissingSVC
        return est(), (_missing(X, 6), y), {}
    X, y = make_regression(N, 5, noise=5.0, random_state=7)
    est = RobustMissingSVR if name == "RobustMissingSVR" else KernelRobustMissingSVR
    return est(), (_missing(X, 7), y / np.std(y)), {}


NAMES = ["USSVMClassifier", "RSVMClassifier", "IndefiniteSVC", "GURUClassifier", "KernelGURUClassifier",
         "MultiGURUClassifier", "ASVC", "RobustMissingSVC", "RobustMissingSVR", "KernelRobustMissingSVC",
         "KernelRobustMissingSVR", "RobustMissingMulticlassSVC"]


@pytest.mark.parametrize("name", NAMES)
def test_default_reaches_its_certificate_quickly(name):
    est, (X, y), fit_params = _case(name)
    assert type(est).__name__ == name
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)  # a default must not stop on an iteration cap
        t0 = time.perf_counter()
        est.fit(X, y, **fit_params)
        elapsed = time.perf_counter() - t0
    assert est.result_.success, est.result_.message
    assert elapsed < SECONDS, f"{name}() took {elapsed:.1f} s on {N} points"


def test_asvc_default_certifies_where_the_alternation_cycles():
    """ASVC(): the cone program's duality gap is at most tol; Algorithm 5 (solver='alternate') on the same data
    cycles (the step of w does not shrink) and warns naming max_iter."""
    X, y = make_classification(N, 5, flip_y=0.1, random_state=0)
    est = ASVC(delta=1.0, C=1.0).fit(X, y)
    assert est.result_.success and 0 <= est.result_.gap <= 1e-6
    assert est.result_.lower_bound <= est.result_.objective
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        alt = ASVC(delta=1.0, C=1.0, solver="alternate", max_iter=10).fit(X, y)
    assert not alt.result_.success
    assert alt.result_.objective > est.result_.objective * 1.01


def test_kernel_guru_default_is_certified_and_below_sgd():
    """KernelGURUClassifier(): the eigen-coordinate L-BFGS meets its gradient certificate, and its objective is at
    most that of Algorithm 2's SGD (solver='sgd', which stops on a change rule) on the same data."""
    from robustpapers.ginodi2010 import kernel_guru_objective

    X, y = _binary(4)
    ys = np.where(y == 1, 1.0, -1.0)
    eig = KernelGURUClassifier().fit(X, y)
    assert eig.result_.success and eig.result_.grad_norm <= 1e-7
    sgd = KernelGURUClassifier(solver="sgd", random_state=0).fit(X, y)
    K = eig._kernel(X, X)
    f_eig = kernel_guru_objective(eig.dual_coef_ * ys, K, ys, 1.0)
    f_sgd = kernel_guru_objective(sgd.dual_coef_ * ys, K, ys, 1.0)
    assert f_eig <= f_sgd + 1e-9
