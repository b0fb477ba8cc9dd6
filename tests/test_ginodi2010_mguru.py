"""M-GURU's vectorised per-sample gradient and loss (ginodi2010 (5.13)-(5.14)); the quick-scale splits of Table 5.1."""
import numpy as np
import pytest

from robustpapers.ginodi2010 import multi_robust_loss, robust_hinge_loss
from robustpapers.ginodi2010.multiclass import _multi_grad, _sample_grad


def _problem(seed, C=4, M=25, d=3):
    rng = np.random.default_rng(seed)
    W, X, b = rng.normal(size=(C, d)), rng.normal(size=(M, d)) * 2, rng.normal(size=C)
    W[2] = W[1]                       # one pair with w_{y} - w_c = 0: the hinge limit of the loss
    return W, X, rng.integers(0, C, size=M), b


def test_multi_loss_is_the_sum_of_binary_robust_losses_5_14():
    W, X, y, b = _problem(0)
    sigma = 0.6
    L = multi_robust_loss(W, X, y, sigma, b)
    for m in range(len(y)):
        ref = sum(robust_hinge_loss(W[y[m]] - W[c], X[m:m + 1], np.ones(1), sigma, b=b[y[m]] - b[c])[0]
                  for c in range(W.shape[0]) if c != y[m])
        assert L[m] == pytest.approx(ref, rel=1e-13, abs=1e-15)


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_per_sample_gradients_sum_to_the_full_gradient(fit_intercept):
    W, X, y, b = _problem(1)
    sigma = 0.8
    gW = np.zeros_like(W)
    gb = np.zeros_like(b)
    for m in range(len(y)):
        a, c = _sample_grad(W, X[m], y[m], b, sigma, fit_intercept)
        gW += a
        gb += c
    fW, fb = _multi_grad(W, X, y, b, sigma)
    np.testing.assert_allclose(gW, fW, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(gb, fb if fit_intercept else 0.0, rtol=1e-12, atol=1e-12)
    # and the per-sample gradient is the derivative of the per-sample loss (central differences)
    m, eps = 3, 1e-6
    a, _ = _sample_grad(W, X[m], y[m], b, sigma, True)
    for r in (0, 3):
        for j in range(W.shape[1]):
            E = np.zeros_like(W)
            E[r, j] = eps
            num = (multi_robust_loss(W + E, X[m:m + 1], y[m:m + 1], sigma, b)[0]
                   - multi_robust_loss(W - E, X[m:m + 1], y[m:m + 1], sigma, b)[0]) / (2 * eps)
            assert a[r, j] == pytest.approx(num, rel=1e-6, abs=1e-7)


def test_quick_split_is_a_prefix_of_the_same_shuffle():
    from robustpapers.reproduce.ginodi2010.experiments import load_multi_split
    full = load_multi_split("wine", 0)
    small = load_multi_split("wine", 0, sizes=(30, 20, 40))
    assert [len(v) for v in small[1::2]] == [30, 20, 40]
    # the training part is the first 30 of the same permutation (standardised on itself)
    raw_full = load_multi_split("wine", 0, sizes=(50, 50, 78))
    np.testing.assert_array_equal(raw_full[1], full[1])
    np.testing.assert_array_equal(small[1], full[1][:30])
    np.testing.assert_allclose(small[0].mean(axis=0), 0.0, atol=1e-12)
    with pytest.raises(ValueError, match="sizes"):
        load_multi_split("wine", 0, sizes=(30, 20))
    with pytest.raises(ValueError, match="sizes"):
        load_multi_split("wine", 0, sizes=(0, 20, 10))
    with pytest.raises(ValueError, match="test size"):
        load_multi_split("toy3", 0, sizes=(30, 20, None))
