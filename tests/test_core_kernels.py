"""Kernels and PSD helpers: definitions and stated spectra."""
import numpy as np
import pytest

from robustpapers.core import (
    PSD_TOL, check_psd, is_psd, linear_kernel, make_kernel, min_eigenvalue, polynomial_kernel,
    psd_clip, psd_flip, psd_shift, rbf_kernel,
)


def _indefinite(rng, n=30):
    A = rng.normal(size=(n, n))
    return (A + A.T) / 2


def test_kernel_definitions(rng):
    X, Z = rng.normal(size=(5, 3)), rng.normal(size=(4, 3))
    assert np.allclose(linear_kernel(X, Z), X @ Z.T)
    d2 = ((X[:, None, :] - Z[None]) ** 2).sum(-1)
    assert np.allclose(rbf_kernel(X, Z, gamma=0.7), np.exp(-0.7 * d2))
    assert np.allclose(polynomial_kernel(X, Z, degree=2, gamma=1.0, coef0=1.0), (X @ Z.T + 1) ** 2)
    assert np.allclose(make_kernel("rbf", gamma=0.7)(X, Z), rbf_kernel(X, Z, gamma=0.7))
    with pytest.raises(ValueError, match="unknown kernel"):
        make_kernel("sigmoidish")


def test_psd_repairs_have_the_stated_spectra(rng):
    K = _indefinite(rng)
    w = np.linalg.eigvalsh(K)
    assert w[0] < 0 and not is_psd(K)
    assert np.allclose(np.linalg.eigvalsh(psd_clip(K)), np.sort(np.maximum(w, 0)), atol=1e-10)
    assert np.allclose(np.linalg.eigvalsh(psd_flip(K)), np.sort(np.abs(w)), atol=1e-10)
    assert np.allclose(np.linalg.eigvalsh(psd_shift(K)), w - w[0], atol=1e-10)
    for M in (psd_clip(K), psd_flip(K), psd_shift(K)):
        assert is_psd(M)
    # Clipping is the nearest PSD matrix: no random PSD matrix is closer.
    dist = np.linalg.norm(K - psd_clip(K))
    for scale in (0.01, 0.1, 1.0):
        G = rng.normal(size=K.shape)
        candidate = psd_clip(K) + scale * G @ G.T / K.shape[0]  # another PSD matrix
        assert np.linalg.norm(K - candidate) >= dist - 1e-9
    assert min_eigenvalue(psd_shift(K)) > -1e-10


def test_psd_tolerance_is_relative(rng):
    X = rng.normal(size=(20, 3))
    K = 1e6 * linear_kernel(X)  # rank 3, eigenvalue noise of order 1e-10 * 1e6
    assert is_psd(K)
    K[0, 0] -= 1e-2 * PSD_TOL * 1e6
    assert is_psd(K)
    with pytest.raises(ValueError, match="not positive semidefinite"):
        check_psd(-np.eye(3), name="K_bar")


def test_bad_kernels():
    with pytest.raises(ValueError, match="symmetric"):
        check_psd(np.array([[1.0, 2.0], [0.0, 1.0]]))
    with pytest.raises(ValueError, match="NaN"):
        check_psd(np.array([[1.0, np.inf], [np.inf, 1.0]]))
    with pytest.raises(ValueError, match="square"):
        check_psd(np.ones((2, 3)))
