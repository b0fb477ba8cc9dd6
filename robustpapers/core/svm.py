"""The plain SVM on a precomputed kernel (scikit-learn's LIBSVM), its bias and decision function."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from sklearn.svm import SVC

from .validation import check_binary_labels, check_kernel, check_positive

__all__ = ["SVMSolution", "svm_dual", "svm_bias", "support_vectors", "decision_function", "svm_dual_objective"]


@dataclass
class SVMSolution:
    """Dual solution of the soft-margin SVM: ``alpha`` (n,), ``b`` and the decision values on the training set."""

    alpha: np.ndarray
    b: float
    objective: float


def svm_dual_objective(K: np.ndarray, y: np.ndarray, alpha: np.ndarray) -> Any:
    r"""Dual objective :math:`e^\top\alpha - \tfrac12 \alpha^\top Y K Y \alpha`."""
    ya = y * alpha
    return float(alpha.sum() - 0.5 * ya @ K @ ya)


def svm_dual(K: np.ndarray, y: np.ndarray, C: float, tol: float = 1e-7) -> SVMSolution:
    r"""Solve the soft-margin SVM dual on a precomputed kernel.

    .. math::

        \max_{\alpha}\; e^\top\alpha - \tfrac12 \alpha^\top Y K Y \alpha
        \quad\text{s.t.}\quad 0 \le \alpha \le C,\; y^\top\alpha = 0

    (bental2012 eq. (2)) with scikit-learn's ``SVC(kernel="precomputed")``
    (LIBSVM's SMO). ``K`` need not be PSD for LIBSVM to return an answer;
    callers that need PSD should check it.

    Parameters
    ----------
    K : array (n, n)
    y : array (n,), labels in {-1, +1}
    C : float > 0
    tol : float
        LIBSVM's stopping tolerance on the KKT violation.

    Returns
    -------
    SVMSolution

    Examples
    --------
    >>> import numpy as np
    >>> from robustpapers.core import svm_dual
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]]); y = np.array([-1, -1, 1, 1])
    >>> sol = svm_dual(X @ X.T, y, C=10.0)
    >>> bool(abs(sol.alpha @ y) < 1e-9)
    True
    """
    y = check_binary_labels(y)
    K = check_kernel(K, n=y.size, symmetric=True)
    C = check_positive(C, "C")
    clf = SVC(kernel="precomputed", C=C, tol=tol, max_iter=-1)
    clf.fit(K, y)
    alpha = np.zeros(y.size)
    alpha[clf.support_] = np.abs(clf.dual_coef_[0])
    return SVMSolution(alpha=alpha, b=float(clf.intercept_[0]), objective=svm_dual_objective(K, y, alpha))


def svm_bias(K: np.ndarray, y: np.ndarray, alpha: np.ndarray, C: float, rtol: float = 1e-6) -> Any:
    r"""Bias of the SVM for dual variables ``alpha`` on kernel ``K``.

    Averages :math:`y_i - (K Y \alpha)_i` over the free support vectors
    (:math:`0 < \alpha_i < C`, up to ``rtol * C``); with none free, takes the
    midpoint of the interval of biases that satisfy the KKT conditions (as LIBSVM does).
    """
    y = check_binary_labels(y)
    K = check_kernel(K, n=y.size, m=y.size)
    alpha = np.asarray(alpha, dtype=float)
    g = y - K @ (alpha * y)
    eps = rtol * C
    free = (alpha > eps) & (alpha < C - eps)
    if np.any(free):
        return float(np.mean(g[free]))
    # b >= g_i where (y=+1, alpha=0) or (y=-1, alpha=C); b <= g_i for the others.
    at_zero, at_c = alpha <= eps, alpha >= C - eps
    lower = np.concatenate([g[at_zero & (y > 0)], g[at_c & (y < 0)]])
    upper = np.concatenate([g[at_zero & (y < 0)], g[at_c & (y > 0)]])
    lo = lower.max() if lower.size else (upper.min() if upper.size else 0.0)
    hi = upper.min() if upper.size else lo
    return float((lo + hi) / 2)


def support_vectors(alpha: np.ndarray, C: float, rtol: float = 1e-6, floor: float = 0.0) -> Any:
    r"""The support vectors :math:`SV = \{i : \alpha_i > 0\}` of a numerical dual solution, as a boolean mask.

    .. math::

        SV = \{i : \alpha_i > \mathrm{rtol}\cdot C\}, \quad\text{or, if that set is empty,}\quad
        \{i : \alpha_i > \mathrm{rtol}\cdot\max_j\alpha_j\};\qquad
        \text{then without } \{i : \alpha_i \le \mathrm{floor}\cdot\max_j\alpha_j\}.

    The threshold is relative to C so that a solver's near-zero entries are not counted. The optimal
    :math:`\alpha` can lie orders of magnitude below C, e.g. :math:`\max_j\alpha_j \approx 10^{-4}` on
    bental2012's linear-kernel data at the paper's C = 100. No entry then passes ``rtol * C``, and the threshold
    becomes relative to the largest entry instead (an empty SV would make the bias rules of bental2012 §4.2 and
    bhadra2010 §3 meaningless). Only :math:`\alpha \le 0` gives an empty mask.

    ``floor`` in [0, 1) states how accurate ``alpha`` is, relative to its largest entry: an approximate solver
    (FSS stopped at a relative gap ``tol``) leaves entries of that order where the exact solution is 0, and
    they must not be counted (:func:`robustpapers.bental2012.ussvm_fss` passes its ``tol``).

    Examples
    --------
    >>> import numpy as np
    >>> support_vectors(np.array([0.0, 1e-9, 0.5, 1.0]), C=1.0).tolist()
    [False, False, True, True]
    >>> support_vectors(np.array([0.0, 2e-5, 8e-5]), C=100.0).tolist()   # all below 1e-6 * C
    [False, True, True]
    >>> support_vectors(np.array([4e-5, 0.02, 0.1]), C=0.1, floor=1e-3).tolist()
    [False, True, True]
    """
    if not (np.isfinite(floor) and 0.0 <= floor < 1.0):
        raise ValueError(f"floor must be in [0, 1), got {floor!r}")
    alpha = np.asarray(alpha, dtype=float)
    amax = alpha.max(initial=0.0)
    if not amax > 0:
        return np.zeros(alpha.shape, dtype=bool)
    sv = alpha > rtol * C
    if not sv.any():
        sv = alpha > rtol * amax
    return sv & (alpha > floor * amax)


def decision_function(K_test: ArrayLike, y: ArrayLike, alpha: ArrayLike, b: Any) -> np.ndarray:
    r"""Decision values :math:`f(x_t) = \sum_i y_i \alpha_i K(x_t, x_i) + b` for ``K_test`` of shape (..., m, n)."""
    return np.asarray(K_test) @ (np.asarray(alpha) * np.asarray(y)) + b
