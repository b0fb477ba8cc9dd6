"""Bad input to the solver functions: a ValueError naming the problem, raised before anything is computed, with
the caller's arrays left as they were (one test per case; the estimators' cases are in their own tests)."""
import numpy as np
import pytest

from robustpapers.bental2012 import ussvm_fss, ussvm_socp
from robustpapers.core import PSD_TOL, check_psd, is_psd, kappa_from_eps, psd_clip, psd_tolerance
from robustpapers.datasets import load_dataset
from robustpapers.ginodi2010 import guru_lbfgs, guru_sgd, ken_guru, kernel_guru_lbfgs, m_guru, m_guru_lbfgs
from robustpapers.shivaswamy2006 import robust_svr_ctm


def raises_and_leaves_inputs(match, func, *args, **kwargs):
    """``func(*args, **kwargs)`` raises ValueError(match) and changes none of its array arguments."""
    before = [np.array(a, copy=True) if isinstance(a, np.ndarray) else None for a in args]
    with pytest.raises(ValueError, match=match):
        func(*args, **kwargs)
    for a, b in zip(args, before):
        if b is not None:
            np.testing.assert_array_equal(a, b)


X4 = np.array([[1.0, 2.0], [2.0, 1.0], [-1.0, -2.0], [-2.0, -0.5]])
Y4 = np.array([1.0, 1.0, -1.0, -1.0])
INDEFINITE = np.array([[1.0, 2.0, 0.0, 0.0], [2.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]])


# ---------------------------------------------------------------- ginodi2010: GURU and KEN-GURU

def test_kernel_guru_lbfgs_refuses_an_indefinite_kernel():
    # before: success=True with objective 0.0 (||w||^2 = beta' K beta < 0 clipped to 0)
    raises_and_leaves_inputs(r"K is not positive semidefinite.*psd_clip", kernel_guru_lbfgs, INDEFINITE, Y4, 1.0)


def test_ken_guru_refuses_an_indefinite_kernel():
    raises_and_leaves_inputs(r"K is not positive semidefinite.*psd_clip", ken_guru, INDEFINITE, Y4, 1.0,
                             random_state=0)


def test_ken_guru_refuses_a_single_class():
    raises_and_leaves_inputs(r"y must contain both classes -1 and \+1, got \[1.0\]", ken_guru, X4 @ X4.T,
                             np.ones(4), 1.0, random_state=0)


def test_ken_guru_refuses_zero_rows():
    raises_and_leaves_inputs(r"y must contain both classes -1 and \+1, got \[\]", ken_guru, np.zeros((0, 0)),
                             np.zeros(0), 1.0, random_state=0)


def test_kernel_guru_lbfgs_refuses_a_single_class():
    raises_and_leaves_inputs(r"y must contain both classes", kernel_guru_lbfgs, X4 @ X4.T, -np.ones(4), 1.0)


def test_guru_lbfgs_refuses_a_single_class():
    raises_and_leaves_inputs(r"y must contain both classes -1 and \+1, got \[1.0\]", guru_lbfgs, X4, np.ones(4), 1.0)


def test_guru_sgd_refuses_a_single_class():
    raises_and_leaves_inputs(r"y must contain both classes -1 and \+1, got \[-1.0\]", guru_sgd, X4, -np.ones(4), 1.0,
                             random_state=0)


def test_m_guru_refuses_zero_rows():
    # before: numpy's "zero-size array to reduction operation maximum which has no identity"
    raises_and_leaves_inputs(r"X and y must have at least one row", m_guru, np.zeros((0, 2)), np.zeros(0, int), 1.0)
    raises_and_leaves_inputs(r"X and y must have at least one row", m_guru_lbfgs, np.zeros((0, 2)),
                             np.zeros(0, int), 1.0)


def test_m_guru_refuses_string_labels():
    # before: numpy's UFuncTypeError from y.max() on strings
    y = np.array(["cat", "dog", "cow"])
    raises_and_leaves_inputs(r"y must hold integer class indices 0..C-1, got <U3 labels such as 'cat' "
                             r"\(encode them first", m_guru, X4[:3], y, 1.0)
    raises_and_leaves_inputs(r"integer class indices", m_guru_lbfgs, X4[:3], y, 1.0)


# ---------------------------------------------------------------- shivaswamy2006

def test_robust_svr_ctm_refuses_zero_rows():
    # before: success=True with objective 0 (an empty program)
    raises_and_leaves_inputs(r"X has no rows", robust_svr_ctm, np.zeros((0, 2)), np.zeros(0))


# ---------------------------------------------------------------- bental2012: the uncertainty kernels K_l

def _ussvm_data():
    X = np.array([[0.0, 1.0], [1.0, 0.0], [3.0, 1.0], [4.0, 0.5]])
    y = np.array([-1.0, -1.0, 1.0, 1.0])
    K = X @ X.T + np.eye(4)
    return K, y


def test_ussvm_socp_refuses_an_indefinite_uncertainty_kernel():
    # before: cvxpy's "quad_form canonicalization does not support indefinite matrices"
    K, y = _ussvm_data()
    stack = np.stack([K, INDEFINITE])
    raises_and_leaves_inputs(r"K_list\[1\] is not positive semidefinite.*psd_clip", ussvm_socp, K, stack, y, 1.0, 0.5)


def test_ussvm_fss_refuses_an_indefinite_uncertainty_kernel():
    K, y = _ussvm_data()
    written = []
    raises_and_leaves_inputs(r"K_list\[1\] is not positive semidefinite", ussvm_fss, K, [K, INDEFINITE], y, 1.0, 0.5,
                             checkpoint=written.append)
    assert written == []  # nothing checkpointed
    # in float32 as well (the stack's working precision; its tolerance is psd_tolerance(float32))
    raises_and_leaves_inputs(r"K_list\[1\] is not positive semidefinite", ussvm_fss, K, [K, INDEFINITE], y, 1.0, 0.5,
                             dtype=np.float32)


def test_ussvm_solvers_refuse_uncertainty_kernels_of_the_wrong_shape():
    K, y = _ussvm_data()
    for solver in (ussvm_socp, ussvm_fss):
        raises_and_leaves_inputs(r"K_list must hold kernels of shape \(4, 4\)", solver, K, np.stack([K[:3, :3]]),
                                 y, 1.0, 0.5)
        raises_and_leaves_inputs(r"the kernels K_list have different shapes", solver, K, [K, K[:3, :3]], y, 1.0, 0.5)


def test_ussvm_solvers_refuse_an_asymmetric_uncertainty_kernel():
    K, y = _ussvm_data()
    A = K.copy()
    A[0, 1] += 1.0
    for solver in (ussvm_socp, ussvm_fss):
        raises_and_leaves_inputs(r"K_list\[0\] must be symmetric", solver, K, [A], y, 1.0, 0.5)


# ---------------------------------------------------------------- core

def test_kappa_from_eps_refuses_a_string():
    with pytest.raises(ValueError, match=r"eps must be a real number in \(0, 0.5\), got '0.1'"):
        kappa_from_eps("0.1", "gaussian")
    with pytest.raises(ValueError, match="eps must be a real number"):
        kappa_from_eps(True, "finite_support")
    assert kappa_from_eps(np.float32(0.1), "gaussian") == pytest.approx(kappa_from_eps(0.1, "gaussian"), rel=1e-6)


def test_psd_tolerance_scales_with_the_dtype():
    """The PSD check's relative tolerance is max(PSD_TOL, 100 eps) of the kernel's dtype: a float32 kernel carries
    rounding-level negative eigenvalues (a float32 linear kernel on Sonar: about -1.9e-8 relative, below -PSD_TOL =
    -1e-8, refused before) and passes; in float64 the same deviation fails with a message naming psd_clip."""
    assert psd_tolerance(np.float64) == PSD_TOL and psd_tolerance(np.int64) == PSD_TOL
    assert psd_tolerance(np.float32) == pytest.approx(100 * np.finfo(np.float32).eps)
    X = load_dataset("sonar").X.astype(np.float32)
    K32 = X @ X.T  # accumulated in float32, as a user's float32 pipeline computes it
    assert check_psd(K32, "K").dtype == np.float64 and is_psd(K32)
    # a deterministic kernel with relative eigenvalue -1e-7: rounding noise for float32, an error for float64
    Q = np.linalg.qr(np.random.default_rng(0).normal(size=(6, 6)))[0]
    K = (Q * np.array([-1e-7, 0.0, 0.1, 0.5, 1.0, 2.0])) @ Q.T * 1000.0
    K = (K + K.T) / 2
    with pytest.raises(ValueError, match=r"K is not positive semidefinite: smallest eigenvalue -0.0001 .*repair it with robustpapers.core.psd_clip"):
        check_psd(K, "K")
    assert not is_psd(K) and is_psd(K.astype(np.float32))
    check_psd(K.astype(np.float32), "K")
    check_psd(psd_clip(K), "K")
    # a float32 kernel that is really indefinite is still refused
    with pytest.raises(ValueError, match="not positive semidefinite"):
        check_psd(INDEFINITE.astype(np.float32))
    # converted to float64 (as validate_data(dtype=float) does before a solver checks it), the float32 kernel
    # keeps float32's tolerance: its entries are float32 numbers, so its rounding is float32's
    K32_64 = K.astype(np.float32).astype(np.float64)
    assert is_psd(K32_64) and check_psd(K32_64, "K").dtype == np.float64
    with pytest.raises(ValueError, match="not positive semidefinite.*psd_clip"):
        check_psd(INDEFINITE.astype(np.float32).astype(np.float64))


def test_estimators_fit_float32_kernels_and_name_psd_clip_for_indefinite_ones():
    """USSVMClassifier and RSVMClassifier fit a float32 linear kernel on Sonar (PSD up to float32 rounding) as
    given and as its float64 copy, with the same predictions; a truly indefinite kernel is refused naming psd_clip."""
    from robustpapers.bental2012 import USSVMClassifier
    from robustpapers.bhadra2010 import RSVMClassifier

    data = load_dataset("sonar")
    X, y = data.X.astype(np.float32), data.y  # 208 points in 60 dimensions: lambda_min = 0 up to rounding
    K32 = X @ X.T
    assert np.linalg.eigvalsh(K32.astype(float))[0] < 0
    for est in (USSVMClassifier(), RSVMClassifier(method="qp"), RSVMClassifier(method="socp", noise="gaussian")):
        a = est.fit(K32, y).predict(K32)
        b = est.fit(K32.astype(np.float64), y).predict(K32.astype(np.float64))
        assert np.array_equal(a, b)
        with pytest.raises(ValueError, match="not positive semidefinite.*psd_clip"):
            est.fit(INDEFINITE, Y4)


def test_rsvm_socp_names_psd_clip_for_an_indefinite_mean_kernel():
    from robustpapers.bhadra2010 import rsvm

    raises_and_leaves_inputs(r"K_bar \(method='socp' needs a PSD mean kernel\) is not positive semidefinite.*psd_clip",
                             rsvm, INDEFINITE, Y4, 1.0, np.full((4, 4), 0.01), 1.0, method="socp")
