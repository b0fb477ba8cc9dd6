"""The robust SVM of bental2012 §4.2: the uncertainty set E(kappa), the closed-form inner
minimisation over eta, the robust objective F(alpha) and the bias rule.

Notation (bental2012 eqs. (10)-(12)): base kernels :math:`\\bar K, K_1, \\dots, K_L` (PSD, n x n),
labels :math:`y \\in \\{\\pm 1\\}^n`, :math:`Y = \\mathrm{diag}(y)`, the SVM set
:math:`S_n = \\{0 \\le \\alpha \\le C, y^\\top\\alpha = 0\\}` and, for :math:`p \\ge 1`,
:math:`\\mathcal E(\\kappa) = \\{\\bar K + \\sum_l \\eta_l K_l : \\eta \\ge 0, \\|\\eta\\|_p \\le \\kappa\\}`.
"""
from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from ..core import PSD_TOL, check_binary_labels, check_finite_array, check_nonnegative, check_positive, check_psd

__all__ = [
    "dual_exponent", "worst_case_eta", "kernel_quadratic_forms", "robust_objective",
    "effective_kernel", "robust_bias", "check_ussvm_problem",
]


def dual_exponent(p: Any) -> Any:
    """The dual exponent :math:`q = p/(p-1)` of :math:`p \\ge 1` (``inf`` for p = 1, 1 for p = inf)."""
    if isinstance(p, bool) or not isinstance(p, numbers.Real) or np.isnan(float(p)) or p < 1:
        raise ValueError(f"p must be a real number >= 1 (or inf), got {p!r}")
    p = float(p)
    if p == 1.0:
        return np.inf
    if np.isinf(p):
        return 1.0
    return p / (p - 1.0)


def worst_case_eta(a: np.ndarray, kappa: float, p: float = 2) -> np.ndarray:
    r"""The minimising :math:`\eta` of the inner problem of (12), in closed form.

    .. math::

        \eta^\star \in \operatorname*{argmax}_{\eta \ge 0,\ \|\eta\|_p \le \kappa} a^\top \eta,
        \qquad
        \eta^\star_l = \kappa \frac{a_l^{q-1}}{\|a\|_q^{q-1}},\quad q = \frac{p}{p-1},

    for :math:`a \ge 0` (bental2012 §4.2, below eq. (12)); the maximum is :math:`\kappa \|a\|_q`.
    For p = 1 (q = inf) the mass :math:`\kappa` is spread evenly over the indices
    attaining :math:`\max_l a_l` (any split of it is optimal, the paper's condition);
    for p = inf, :math:`\eta = \kappa \mathbf 1`. When :math:`a = 0` every feasible
    :math:`\eta` is optimal and :math:`\eta = 0` is returned.

    Parameters
    ----------
    a : array (L,) or (..., L), entries >= 0
        :math:`a_l = \alpha^\top Y K_l Y \alpha`.
    kappa : float >= 0
    p : float >= 1 or inf

    Returns
    -------
    eta : ndarray, same shape as ``a``

    Examples
    --------
    >>> import numpy as np
    >>> eta = worst_case_eta(np.array([3.0, 4.0]), kappa=1.0, p=2)
    >>> np.allclose(eta, [0.6, 0.8])
    True
    """
    q = dual_exponent(p)
    kappa = check_nonnegative(kappa, "kappa")
    a = np.maximum(check_finite_array(a, "a"), 0.0)
    eta = np.zeros_like(a)
    amax = a.max(axis=-1, keepdims=True) if a.size else a
    if np.isinf(q):
        top = (a >= amax * (1 - 1e-12)) & (amax > 0)
        eta = kappa * top / np.maximum(top.sum(axis=-1, keepdims=True), 1)
        return eta
    if q == 1.0:
        return np.where(amax > 0, kappa, 0.0) * np.ones_like(a)
    # scale by max for stability: a_l^{q-1}/||a||_q^{q-1} = r_l^{q-1}/||r||_q^{q-1}, r = a/max
    with np.errstate(divide="ignore", invalid="ignore"):
        r = a / amax
        num = r ** (q - 1)
        den = np.sum(r**q, axis=-1, keepdims=True) ** ((q - 1) / q)
        eta = np.where(amax > 0, kappa * num / den, 0.0)
    return eta


def kernel_quadratic_forms(K_stack: Any, u: Any) -> Any:
    """:math:`a_l = u^\\top K_l u` for every kernel of the (L, n, n) stack, in one pass over memory."""
    K_stack = np.asarray(K_stack)
    L, n, _ = K_stack.shape
    V = (K_stack.reshape(L * n, n) @ u.astype(K_stack.dtype, copy=False)).reshape(L, n)
    return V @ u


def robust_objective(alpha: np.ndarray, K_bar: np.ndarray, K_stack: Any, y: np.ndarray, kappa: float, p: float = 2
) -> Any:
    r"""The robust dual objective of (12) after the inner minimisation:

    .. math::

        F(\alpha) = e^\top\alpha - \tfrac12 \alpha^\top Y \bar K Y \alpha
                    - \tfrac12 \kappa \|a(\alpha)\|_q,\qquad a_l(\alpha) = \alpha^\top Y K_l Y \alpha

    (bental2012 eq. (12) with the closed-form inner solution of §4.2).

    Examples
    --------
    >>> import numpy as np
    >>> K = np.eye(2); y = np.array([1.0, -1.0]); alpha = np.array([0.5, 0.5])
    >>> robust_objective(alpha, K, K[None], y, kappa=0.0)
    0.75
    """
    q = dual_exponent(p)
    alpha = np.asarray(alpha, dtype=float)
    u = alpha * y
    a = np.maximum(kernel_quadratic_forms(K_stack, u), 0.0) if np.asarray(K_stack).shape[0] else np.zeros(0)
    nrm = float(np.linalg.norm(a, ord=q)) if a.size else 0.0
    return float(alpha.sum() - 0.5 * u @ (np.asarray(K_bar) @ u) - 0.5 * kappa * nrm)


def effective_kernel(K_bar: np.ndarray, K_stack: Any, eta: np.ndarray) -> np.ndarray:
    r"""The effective kernel :math:`\bar K + \sum_l \eta_l K_l` (bental2012 §4.2); works for (L, m, n) test stacks too."""
    K_stack = np.asarray(K_stack)
    eta = np.asarray(eta, dtype=float)
    if K_stack.shape[0] == 0:
        return np.asarray(K_bar, dtype=float).copy()
    if K_stack.dtype == np.float32:
        # one gemv in float32 over the stack read in place: with a float64 eta NumPy would first copy the whole
        # stack to float64 (twice its size); float32 sums of L terms stay within the stack's storage error
        flat = K_stack.reshape(K_stack.shape[0], -1)
        comb = (eta.astype(np.float32) @ flat).reshape(K_stack.shape[1:])
    else:
        comb = np.tensordot(eta, K_stack, axes=(0, 0))
    return np.asarray(K_bar, dtype=float) + comb.astype(float, copy=False)


def robust_bias(K_eff: Any, y: np.ndarray, alpha: np.ndarray, C: float, rule: str = "paper", rtol: float = 1e-6,
                floor: float = 0.0) -> Any:
    r"""The bias of the robust classifier on the effective kernel (bental2012 §4.2).

    ``rule="paper"`` averages over all support vectors :math:`SV = \{i : \alpha_i > 0\}`
    (numerically :math:`\alpha_i > \mathrm{rtol}\cdot C`, or :math:`\alpha_i > \mathrm{rtol}\cdot\max_j\alpha_j`
    when no entry passes that, as on bental2012's synthetic data at C = 100 where :math:`\alpha \ll C`:
    :func:`robustpapers.core.support_vectors`), exactly the formula below (12):

    .. math::

        b = \frac{1}{\#SV} \sum_{j \in SV} \Big[y_j - \sum_i y_i \alpha_i K_{ij}\Big];

    ``floor`` leaves out :math:`\alpha_i \le \mathrm{floor}\cdot\max_j\alpha_j` (the accuracy of an approximate
    :math:`\alpha`, see :func:`robustpapers.core.support_vectors`; ``rule="paper"`` only).
    ``rule="free"`` uses only the free support vectors (:math:`0 < \alpha_i < C`), as LIBSVM
    does (:func:`robustpapers.core.svm_bias`).

    Examples
    --------
    >>> import numpy as np
    >>> K = np.eye(2); y = np.array([1.0, -1.0])
    >>> robust_bias(K, y, np.array([1.0, 1.0]), C=10.0)
    0.0
    """
    from ..core import support_vectors, svm_bias

    y = check_binary_labels(y)
    alpha = np.asarray(alpha, dtype=float)
    if rule == "free":
        return svm_bias(K_eff, y, alpha, C, rtol=rtol)
    if rule != "paper":
        raise ValueError(f"rule must be 'paper' or 'free', got {rule!r}")
    sv = support_vectors(alpha, C, rtol, floor=floor)
    if not np.any(sv):
        return 0.0
    g = y - np.asarray(K_eff) @ (alpha * y)
    return float(np.mean(g[sv]))


def check_ussvm_problem(K_bar: np.ndarray, K_list: np.ndarray, y: np.ndarray, C: float, kappa: float, p: Any,
                        psd_tol: float = PSD_TOL, check_psd_stack: bool = True, dtype: Any = None) -> Any:
    """Validate the data of (12); return ``(K_bar, K_stack, y, C, kappa, q, lam_min, lam_max)``.

    ``lam_min`` (clipped at 0) and ``lam_max`` are the extreme eigenvalues of :math:`\\bar K`.

    ``K_list`` may be a sequence of (n, n) arrays or an (L, n, n) array (kept without copy
    when it already is a C-contiguous array of the requested ``dtype``). Raises
    :class:`ValueError` for kernels of different shapes, a non-PSD base kernel or (with
    ``check_psd_stack``) a non-PSD uncertainty kernel :math:`K_l`
    (:math:`\\lambda_{\\min} < -\\mathrm{psd\\_tol}\\max(1, |\\lambda_{\\max}|)`, ``psd_tol`` widened to
    :func:`robustpapers.core.psd_tolerance` of the kernel's dtype), kappa < 0, p < 1, labels not +-1
    and C <= 0.
    """
    y = check_binary_labels(y)
    n = y.size
    C = check_positive(C, "C")
    kappa = check_nonnegative(kappa, "kappa")
    q = dual_exponent(p)
    K_bar_in = K_bar  # its dtype sets the PSD tolerance (check_psd below)
    K_bar = check_finite_array(K_bar, "K_bar", ndim=2)
    if K_bar.shape != (n, n):
        raise ValueError(f"K_bar must have shape ({n}, {n}) to match y, got {K_bar.shape}")
    if isinstance(K_list, np.ndarray):
        K_stack = K_list
    else:
        K_list = list(K_list)
        shapes = {np.shape(K) for K in K_list}
        if len(shapes) > 1:
            raise ValueError(f"the kernels K_list have different shapes: {sorted(shapes)}")
        K_stack = np.stack([np.asarray(K) for K in K_list]) if K_list else np.zeros((0, n, n))
    if K_stack.ndim != 3 or K_stack.shape[1:] != (n, n):
        raise ValueError(f"K_list must hold kernels of shape ({n}, {n}) (as an (L, n, n) stack), "
                         f"got shape {K_stack.shape}")
    want = np.dtype(dtype) if dtype is not None else (K_stack.dtype if K_stack.dtype in (np.float32, np.float64)
                                                       else np.dtype(float))
    if want not in (np.float32, np.float64):
        raise ValueError(f"dtype must be float32 or float64, got {want}")
    K_stack = np.ascontiguousarray(K_stack, dtype=want)
    if K_stack.size and not np.all(np.isfinite(K_stack)):
        raise ValueError("K_list contains NaN or inf")
    K_bar = check_psd(K_bar_in, "K_bar", tol=psd_tol)
    ev = np.linalg.eigvalsh((K_bar + K_bar.T) / 2)
    if check_psd_stack:
        # (12) is a concave maximisation only for PSD K_l (cvxpy's quad_form refuses the others);
        # checked at the stack's working precision (psd_tolerance of float32: 1.2e-5)
        for l in range(K_stack.shape[0]):
            check_psd(K_stack[l], f"K_list[{l}]", tol=psd_tol)
    return K_bar, K_stack, y, C, kappa, q, float(max(ev[0], 0.0)), float(ev[-1])


def rescale_ussvm(K_bar: np.ndarray, K_stack: Any, C: float, c: Any) -> Any:
    r"""The equivalent rescaled robust SVM: kernels divided by ``c > 0``, box bound multiplied by ``c``.

    .. math::

        F(\alpha;\ \bar K, \{K_l\}) = \tfrac1c\, F(c\,\alpha;\ \bar K/c, \{K_l/c\}),
        \qquad \alpha \in S_n(C) \iff c\,\alpha \in S_n(cC),

    since every term of (12) is either linear in :math:`\alpha` or a quadratic form in
    :math:`\alpha` (bental2012 eq. (12); :math:`\|\cdot\|_q` is positively homogeneous). So
    :math:`\alpha_*` solves (12) iff :math:`c\,\alpha_*` solves the rescaled problem, with
    optimal values related by the factor :math:`c`; the bias rule of §4.2 is unchanged
    (:math:`b` is a ratio of kernel sums and :math:`y_i`, invariant under the map).

    Returns
    -------
    K_bar / c, K_stack / c, c * C

    Examples
    --------
    >>> import numpy as np
    >>> Kb, Ks, C = rescale_ussvm(np.eye(2), np.stack([2 * np.eye(2)]), 1.0, 4.0)
    >>> float(Kb[0, 0]), float(Ks[0, 0, 0]), C
    (0.25, 0.5, 4.0)
    """
    c = float(c)
    if not (np.isfinite(c) and c > 0):
        raise ValueError(f"the scale c must be a finite number > 0, got {c!r}")
    return np.asarray(K_bar) / c, np.asarray(K_stack) / c, float(C) * c
