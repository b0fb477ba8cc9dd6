"""Every estimator declares its parameter rules once (``_parameter_constraints``), and bad parameters or inputs
get a ValueError naming the problem (or a documented, tested behaviour): issue cases of the estimators."""
import numbers

import numpy as np
import pytest

from robustpapers.bental2012 import USSVMClassifier
from robustpapers.bhadra2010 import RSVMClassifier
from robustpapers.chen2008 import IndefiniteSVC
from robustpapers.core import InvalidParameterError, Interval, StrOptions, validate_parameter_rules
from robustpapers.ginodi2010 import ASVC, GURUClassifier, KernelGURUClassifier, MultiGURUClassifier
from robustpapers.shivaswamy2006 import (
    KernelRobustMissingSVC, KernelRobustMissingSVR, RobustMissingMulticlassSVC, RobustMissingSVC, RobustMissingSVR,
)
from robustpapers.shivaswamy2006.missing import conditional_moments

CLASSES = [USSVMClassifier, RSVMClassifier, IndefiniteSVC, GURUClassifier, KernelGURUClassifier,
           MultiGURUClassifier, ASVC, RobustMissingSVC, RobustMissingSVR, KernelRobustMissingSVC,
           KernelRobustMissingSVR, RobustMissingMulticlassSVC]


def _data(cls, n=12):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, 3))
    y = np.arange(n) % 2
    if cls in (USSVMClassifier, RSVMClassifier):
        return X @ X.T, y
    if cls in (RobustMissingSVR, KernelRobustMissingSVR):
        return X, X[:, 0]
    return X, y


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_every_parameter_has_one_declared_rule_and_the_defaults_satisfy_it(cls):
    est = cls()
    params = est.get_params(deep=False)
    assert set(cls._parameter_constraints) == set(params)
    validate_parameter_rules(cls._parameter_constraints, params, cls.__name__)  # defaults are valid


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_a_parameter_of_a_bad_type_fails_in_fit_naming_it_before_anything_is_fitted(cls):
    """The pattern of scikit-learn's check_param_validation: an object of no valid type, for every parameter."""
    bad = type("BadType", (), {})()
    X, y = _data(cls)
    for name in cls().get_params(deep=False):
        est = cls().set_params(**{name: bad})
        with pytest.raises(InvalidParameterError, match=rf"The '{name}' parameter of {cls.__name__} must be .* Got"):
            est.fit(X, y)
        assert not [k for k in vars(est) if k.endswith("_") and not k.startswith("_")], name
        assert isinstance(InvalidParameterError("x"), ValueError)


@pytest.mark.parametrize("est, name", [
    (USSVMClassifier(C=0.0), "C"), (USSVMClassifier(p=0.5), "p"), (USSVMClassifier(max_iter=2.5), "max_iter"),
    (USSVMClassifier(bias="none"), "bias"), (RSVMClassifier(eps=0.5), "eps"), (RSVMClassifier(eps="0.1"), "eps"),
    (RSVMClassifier(n_starts=0), "n_starts"), (RSVMClassifier(random_state=-1), "random_state"),
    (IndefiniteSVC(C=np.inf), "C"), (IndefiniteSVC(prune="yes"), "prune"), (IndefiniteSVC(gamma=0), "gamma"),
    (GURUClassifier(sigma=np.nan), "sigma"), (GURUClassifier(fit_intercept=1), "fit_intercept"),
    (KernelGURUClassifier(kernel="sigmoid"), "kernel"), (ASVC(delta=-0.1), "delta"),
    (RobustMissingSVC(gamma=-1.0), "gamma"), (RobustMissingSVR(eta=0.0), "eta"),
    (KernelRobustMissingSVC(n_neighbors=1), "n_neighbors"), (KernelRobustMissingSVR(covariance="full"), "covariance"),
    (RobustMissingMulticlassSVC(em_reg=-1e-3), "em_reg"),
], ids=lambda v: v if isinstance(v, str) else type(v).__name__)
def test_a_parameter_out_of_its_range_fails_naming_it(est, name):
    X, y = _data(type(est))
    with pytest.raises(ValueError, match=rf"The '{name}' parameter of {type(est).__name__} must be"):
        est.fit(X, y)


def test_rules_mean_what_they_say():
    pos = Interval(numbers.Real, 0, None, closed="neither")
    assert pos.is_satisfied_by(1) and pos.is_satisfied_by(np.float32(0.5))
    assert not any(pos.is_satisfied_by(v) for v in (0, -1.0, np.nan, np.inf, True, "1"))
    p = Interval(numbers.Real, 1, None, closed="left", allow_inf=True)
    assert p.is_satisfied_by(np.inf) and p.is_satisfied_by(1) and not p.is_satisfied_by(0.99)
    count = Interval(numbers.Integral, 2, None, closed="left")
    assert count.is_satisfied_by(np.int64(2)) and not count.is_satisfied_by(2.0) and not count.is_satisfied_by(True)
    assert StrOptions(("a", "b")).is_satisfied_by("a") and not StrOptions(("a", "b")).is_satisfied_by(None)
    with pytest.raises(InvalidParameterError, match=r"The 'q' parameter of F must be None or a float in \(0, inf\)"):
        validate_parameter_rules({"q": [None, pos]}, {"q": -2}, "F")
    with pytest.raises(RuntimeError, match="no rule"):
        validate_parameter_rules({}, {"q": 1}, "F")


# ---- the estimator cases of the bad-input battery, one test each --------------------------------------------

def test_indefinite_svc_checks_rho_for_every_method():
    """The docstring says the options are checked for every method: rho < 0 with method='svm' too."""
    X, y = _data(IndefiniteSVC)
    with pytest.raises(ValueError, match="'rho' parameter of IndefiniteSVC"):
        IndefiniteSVC(method="svm", rho=-1).fit(X, y)


def test_multi_guru_names_a_bad_variant():
    X, y = _data(MultiGURUClassifier)
    with pytest.raises(ValueError, match="'variant' parameter of MultiGURUClassifier must be a str among"):
        MultiGURUClassifier(variant="bogus").fit(X, y)


def test_rsvm_names_a_sigma_of_the_wrong_shape():
    K, y = _data(RSVMClassifier)
    with pytest.raises(ValueError, match=r"sigma must be a scalar or of shape \(12, 12\).*got shape \(3, 3\)"):
        RSVMClassifier(method="socp", noise="gaussian").fit(K, y, sigma=np.ones((3, 3)))
    with pytest.raises(ValueError, match=r"a must be a scalar or of shape \(12, 12\)"):
        RSVMClassifier(method="socp").fit(K, y, a=-np.ones(12), b=np.ones((12, 12)))


@pytest.mark.parametrize("method", ["qp", "socp"])
def test_rsvm_refuses_a_non_psd_mean_kernel_and_names_psd_clip(method):
    """(15) is concave only for a PSD mean kernel: qp used to report success on an indefinite one."""
    K, y = _data(RSVMClassifier)
    K = K - 3.0 * np.eye(12)  # eigenvalue -3
    clf = RSVMClassifier(method=method)
    with pytest.raises(ValueError, match="not positive semidefinite.*psd_clip"):
        clf.fit(K, y)
    assert not hasattr(clf, "classes_")


def _section61(w, b, x, moments):
    """shivaswamy2006 §6.1 written out: impute x under each class by (42); keep the imputation with the larger
    |w'x_c + b| / ||Sigma_c^{1/2} w|| (the padded conditional covariance (43) of the missing block)."""
    miss = np.isnan(x)
    best, f_best = -np.inf, None
    for mu, S in moments:
        o, m = ~miss, miss
        xc = x.copy()
        xc[m] = mu[m] + S[np.ix_(m, o)] @ np.linalg.solve(S[np.ix_(o, o)], x[o] - mu[o])
        Sc = S[np.ix_(m, m)] - S[np.ix_(m, o)] @ np.linalg.solve(S[np.ix_(o, o)], S[np.ix_(o, m)])
        f = w @ xc + b
        h = abs(f) / np.sqrt(w[m] @ Sc @ w[m])
        if h > best:
            best, f_best = h, f
    return f_best


def _missing_data(n=40, seed=0):
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1], n // 2)
    X = rng.normal(size=(n, 3)) + np.where(y[:, None] == 1, 1.0, -1.0)
    X[::5, 1] = np.nan
    return X, y


def test_robust_missing_svc_predicts_a_nan_test_point_by_the_section_61_rule():
    """Predicting with missing entries is deliberate (the paper's subject): the decision value of a test point
    with NaNs is the §6.1 rule recomputed here from the fitted class moments; all entries missing: ValueError."""
    X, y = _missing_data()
    clf = RobustMissingSVC(gamma=1.0).fit(X, y)
    T = np.array([[np.nan, 0.3, -0.2], [0.5, np.nan, np.nan], [0.1, 0.2, 0.3]])
    f = clf.decision_function(T)
    moments = list(zip(clf.means_, clf.covariances_))
    w, b = clf.coef_[0], clf.intercept_[0]
    for i in range(2):
        assert f[i] == pytest.approx(_section61(w, b, T[i], moments), rel=1e-9, abs=1e-12)
    assert f[2] == pytest.approx(w @ T[2] + b)
    assert list(clf.predict(T)) == list(clf.classes_[(f > 0).astype(int)])
    with pytest.raises(ValueError, match="every feature missing"):
        clf.predict(np.array([[np.nan, np.nan, np.nan]]))


def test_kernel_robust_missing_svc_predicts_a_nan_test_point_by_the_section_71_rule():
    """The kernelised rule: impute under each class, keep the larger |alpha'K(t_c) + b| / ||F_c' alpha||
    (spherical kernel-space covariance sigma^2 I: the margin itself decides)."""
    X, y = _missing_data()
    clf = KernelRobustMissingSVC(gamma=0.5, C=10.0, kernel_gamma=0.5).fit(X, y)
    t = np.array([[0.4, np.nan, -0.3]])
    vals = []
    for mu, S in zip(clf.means_, clf.covariances_):
        tc, _ = conditional_moments(t, mu, S)
        k = np.exp(-0.5 * np.sum((clf.X_fit_ - tc) ** 2, axis=1))
        vals.append(float(k @ clf.alpha_ + clf.intercept_))
    expected = max(vals, key=abs)  # same norm ||sigma alpha|| under both classes
    assert clf.decision_function(t)[0] == pytest.approx(expected, rel=1e-9)
    with pytest.raises(ValueError, match="every feature missing"):
        clf.predict(np.array([[np.nan, np.nan, np.nan]]))


def test_kernel_robust_missing_svr_single_cone_is_the_full_ctm_program():
    """The spherical covariance is one factor shared by every incomplete row: the estimator solves CTM (45)
    with one cone weighted rD; the optimum is that of the program with one cone per incomplete row."""
    from robustpapers.shivaswamy2006 import robust_svr_ctm

    rng = np.random.default_rng(1)
    X = rng.normal(size=(30, 2))
    y = X[:, 0] ** 2 + X[:, 1]
    X[::4, 0] = np.nan
    reg = KernelRobustMissingSVR(eta=0.5, epsilon=0.05, W=20.0, D=0.5, kernel_gamma=0.5, sigma=0.3).fit(X, y)
    inc = np.isnan(X).any(axis=1)
    full = robust_svr_ctm(reg.K_fit_, y, eta=0.5, epsilon=0.05, W=20.0, D=0.5,
                          factors=[0.3 * np.eye(30) if m else None for m in inc])
    assert reg.result_.success and full.success
    assert reg.result_.objective == pytest.approx(full.objective, rel=1e-6)
    np.testing.assert_allclose(reg.alpha_, full.w, atol=1e-4 * max(1.0, np.abs(full.w).max()))
    np.testing.assert_allclose(reg.result_.theta, full.theta, rtol=1e-3)
    # each incomplete row's bound is the one cone's value sigma ||alpha|| / sqrt(eta)
    np.testing.assert_allclose(reg.result_.theta[inc], 0.3 * np.linalg.norm(reg.alpha_) / np.sqrt(0.5), rtol=1e-5)
    assert np.all(reg.result_.theta[~inc] == 0)
