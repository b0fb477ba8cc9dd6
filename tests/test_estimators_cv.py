"""Model selection on the robust inputs: cross_val_score and GridSearchCV on every robust estimator give the
fold scores of a hand-written loop that slices the uncertain inputs itself (kernel stacks and per-entry sigma
by rows and columns, data with missing values by rows)."""
import warnings

import numpy as np
import pytest
from sklearn.base import clone, is_regressor
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import GridSearchCV, KFold, StratifiedKFold, cross_val_score

from robustpapers.bental2012 import USSVMClassifier
from robustpapers.bhadra2010 import RSVMClassifier
from robustpapers.chen2008 import IndefiniteSVC
from robustpapers.core import KernelStack
from robustpapers.ginodi2010 import ASVC, GURUClassifier, KernelGURUClassifier, MultiGURUClassifier
from robustpapers.shivaswamy2006 import (
    KernelRobustMissingSVC, KernelRobustMissingSVR, RobustMissingMulticlassSVC, RobustMissingSVC, RobustMissingSVR,
)


def _rows_and_cols(A, test, train):
    return A[..., test[:, None], train[None, :]]


def _hand_loop(est, cv, X, y, fit_args):
    """Fold scores computed without scikit-learn's splitting: ``fit_args(train)`` -> (args, kwargs) of fit and
    ``fit_args(test, train)`` -> the test input."""
    scores = []
    for train, test in cv.split(np.zeros((len(y), 1)), y):
        args, kwargs = fit_args(train, train)
        model = clone(est).fit(*args, y[train], **kwargs)
        (Xt,), _ = fit_args(test, train)
        scores.append(model.score(Xt, y[test]))
    return np.array(scores)


def _check(est, X, y, fit_args, grid, cv):
    """cross_val_score (at the estimator's own value of the grid's parameter, the first of the grid) and every
    candidate of GridSearchCV against the hand-written loop."""
    name, values = grid
    est = clone(est).set_params(**{name: values[0]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        by_hand = [_hand_loop(clone(est).set_params(**{name: v}), cv, X, y, fit_args) for v in values]
        np.testing.assert_allclose(cross_val_score(est, X, y, cv=cv), by_hand[0], rtol=0, atol=1e-12)
        search = GridSearchCV(est, {name: values}, cv=cv, refit=False).fit(X, y)
        for k in range(len(values)):
            got = [search.cv_results_[f"split{f}_test_score"][k] for f in range(cv.get_n_splits())]
            np.testing.assert_allclose(got, by_hand[k], rtol=0, atol=1e-12)


def _points(n=30, seed=0, d=3):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % 2
    X = rng.normal(size=(n, d)) + np.where(y[:, None] == 1, 0.7, -0.7)
    return X, y, rng


CV = StratifiedKFold(3, shuffle=True, random_state=0)


def test_ussvm_cross_validates_on_a_kernel_stack():
    """The documented (L+1, n, n) stack, wrapped as a KernelStack: every fold trains (12) on the training
    block of every kernel and predicts with the test-versus-training block."""
    X, y, rng = _points(24)
    K0 = X @ X.T / 3
    A = rng.normal(size=(24, 2))
    stack = np.stack([K0, 0.2 * A @ A.T])

    def fit_args(rows, cols):
        return (stack[:, rows[:, None], cols[None, :]],), {}

    _check(USSVMClassifier(solver="socp", kappa=0.5), KernelStack(stack), y, fit_args, ("C", [0.1, 1.0]), CV)


def test_ussvm_old_inputs_still_work_and_the_stack_object_gives_the_same_fit():
    X, y, rng = _points(16)
    K0 = X @ X.T / 3
    stack = np.stack([K0, 0.1 * np.eye(16)])
    a = USSVMClassifier(solver="socp").fit(stack, y)
    b = USSVMClassifier(solver="socp").fit(KernelStack(stack), y)
    np.testing.assert_array_equal(a.alpha_, b.alpha_)
    np.testing.assert_array_equal(a.decision_function(stack), b.decision_function(KernelStack(stack)))


def test_rsvm_cross_validates_with_a_per_entry_sigma_in_the_stack():
    """A per-entry sigma (n, n) travels with the mean kernel: each fold fits on sigma[train][:, train]."""
    X, y, rng = _points(30)
    K = X @ X.T / 3
    s = rng.uniform(0.0, 0.3, 30)
    S = np.outer(s, s)  # beta = sigma^2 rank one: PSD, as method="socp" needs

    def fit_args(rows, cols):
        if rows is cols:
            return (K[np.ix_(rows, cols)],), {"sigma": S[np.ix_(rows, cols)]}
        return (K[np.ix_(rows, cols)],), {}

    est = RSVMClassifier(noise="gaussian", method="socp", eps=0.1)
    _check(est, KernelStack(K, sigma=S), y, fit_args, ("C", [0.5, 5.0]), CV)


def test_rsvm_finite_support_bounds_travel_with_the_kernel():
    X, y, rng = _points(24)
    K = X @ X.T / 3
    D = np.outer(rng.uniform(0, 0.3, 24), rng.uniform(0, 0.3, 24))
    D = (D + D.T) / 2

    def fit_args(rows, cols):
        if rows is cols:
            return (K[np.ix_(rows, cols)],), {"a": -D[np.ix_(rows, cols)], "b": D[np.ix_(rows, cols)]}
        return (K[np.ix_(rows, cols)],), {}

    _check(RSVMClassifier(method="qp", beta_approx="principal"), KernelStack(K, a=-D, b=D), y, fit_args,
           ("eps", [0.05, 0.2]), CV)


def test_rsvm_refuses_a_description_given_twice_or_unknown():
    X, y, _ = _points(12)
    K = X @ X.T
    with pytest.raises(ValueError, match="given both"):
        RSVMClassifier(noise="gaussian").fit(KernelStack(K, sigma=0.1), y, sigma=0.1)
    with pytest.raises(ValueError, match="among 'sigma', 'a', 'b'"):
        RSVMClassifier().fit(KernelStack(K, tau=0.1), y)
    with pytest.raises(ValueError, match="one mean kernel"):
        RSVMClassifier().fit(KernelStack([K, K]), y)


def test_indefinite_svc_cross_validates_on_a_precomputed_kernel():
    X, y, _ = _points(30)
    K = np.tanh(0.3 * X @ X.T - 0.5)  # sigmoid similarity: indefinite

    def fit_args(rows, cols):
        return (K[np.ix_(rows, cols)],), {}

    _check(IndefiniteSVC(kernel="precomputed", rho=1.0), K, y, fit_args, ("C", [0.5, 5.0]), CV)


def _missing(n=36, seed=0, n_classes=2):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % n_classes
    centres = 1.5 * np.eye(n_classes, 3)
    X = rng.normal(size=(n, 3)) + centres[y]
    X[rng.random(X.shape) < 0.12] = np.nan
    X[np.isnan(X).all(axis=1), 0] = 0.0
    return X, y


@pytest.mark.parametrize("est, grid", [
    (RobustMissingSVC(), ("gamma", [0.0, 1.0])),
    (KernelRobustMissingSVC(C=10.0), ("kernel_gamma", [0.2, 1.0])),
    (RobustMissingMulticlassSVC(), ("C", [1.0, 0.1])),
    (RobustMissingSVR(), ("eta", [0.3, 0.9])),
    (KernelRobustMissingSVR(W=50.0, kernel_gamma=0.5), ("D", [0.1, 1.0])),
], ids=lambda v: type(v).__name__ if not isinstance(v, tuple) else v[0])
def test_missing_value_estimators_cross_validate_on_data_with_nans(est, grid):
    n_classes = 3 if isinstance(est, RobustMissingMulticlassSVC) else 2
    X, y = _missing(n_classes=n_classes)
    cv = CV
    if is_regressor(est):
        y = np.nan_to_num(X[:, 0]) + 0.5 * np.nan_to_num(X[:, 1])
        cv = KFold(3, shuffle=True, random_state=0)

    def fit_args(rows, cols):
        return (X[rows],), {}

    _check(est, X, y, fit_args, grid, cv)


@pytest.mark.parametrize("est, grid, n_classes", [
    (GURUClassifier(sigma=0.5, solver="lbfgs"), ("sigma", [0.2, 1.0]), 2),
    (KernelGURUClassifier(sigma=0.5, random_state=0), ("sigma", [0.2, 1.0]), 2),
    (MultiGURUClassifier(sigma=0.5), ("sigma", [0.2, 1.0]), 3),
    (ASVC(delta=0.1), ("delta", [0.0, 0.3]), 2),
], ids=lambda v: type(v).__name__ if not isinstance(v, (tuple, int)) else str(v))
def test_ginodi2010_estimators_cross_validate(est, grid, n_classes):
    rng = np.random.default_rng(2)
    y = np.arange(36) % n_classes
    X = rng.normal(size=(36, 3)) + 1.5 * np.eye(n_classes, 3)[y]

    def fit_args(rows, cols):
        return (X[rows],), {}

    _check(est, X, y, fit_args, grid, CV)


def test_kernel_stack_slices_every_matrix_by_rows_and_columns():
    K = np.arange(2 * 4 * 4, dtype=float).reshape(2, 4, 4)
    S = np.arange(16, dtype=float).reshape(4, 4)
    st = KernelStack(K, sigma=S, tau=0.5)
    assert st.shape == (4, 4) and len(st) == 4 and st.n_kernels == 1
    sub = st[np.array([0, 2]), np.array([1, 3])]
    np.testing.assert_array_equal(sub.kernels, K[:, [0, 2]][:, :, [1, 3]])
    np.testing.assert_array_equal(sub.entries["sigma"], S[np.ix_([0, 2], [1, 3])])
    np.testing.assert_array_equal(sub.entries["tau"], np.full((2, 2), 0.5))
    ix = st[np.ix_([3, 1], [0, 1, 2])]
    np.testing.assert_array_equal(ix.nominal, K[0][np.ix_([3, 1], [0, 1, 2])])
    np.testing.assert_array_equal(st[1:3].kernels, K[:, 1:3, :])
    with pytest.raises(ValueError, match="sigma must be a scalar or of shape"):
        KernelStack(K, sigma=np.ones((3, 3)))
    with pytest.raises(ValueError, match="kernels must have shape"):
        KernelStack(np.ones((2, 2, 2, 2)))
    with pytest.raises(ValueError, match="NaN"):
        KernelStack(np.full((2, 2), np.nan))
