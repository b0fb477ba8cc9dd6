r"""RSVM (Bhadra et al. 2010) as a baseline on a kernel set, as 000 §7.1.2 sets it up for Figs. 3-4.

000 compares its robust SVMs with RSVM, the chance-constrained SVM of 000 eq. (7) (003 eq. 15),
which needs a mean kernel and the support of every kernel entry, not a kernel set. 000 §7.1.2
extracts them from the set :math:`\{K_1,\dots,K_L\}`:

.. math::

    \bar K = \frac1L\sum_{l=1}^L K_l,\qquad a_{ij} = \min_l (K_l)_{ij},\qquad b_{ij} = \max_l (K_l)_{ij}.

The noise :math:`Z = K - \bar K` is then supported on :math:`[a - \bar K, b - \bar K]` (zero mean
is assumed, as 000 Theorem 1 requires) and enters (7) through
:math:`\beta_{ij} = (l_{ij}\gamma(\mu_{ij}))^2` and :math:`\kappa = \sqrt{2\log(1/\epsilon)}`
(000 Theorem 1). The RSVM solver itself is the bhadra2010 chapter's
:func:`robustpapers.bhadra2010.rsvm` (used through its public API).
"""
from __future__ import annotations

import numpy as np

from ..bhadra2010 import beta_from_kernel_support, rsvm
from ..core import check_finite_array
from .data import rsvm_support_from_kernels

__all__ = ["rsvm_beta_from_kernels", "rsvm_kappa", "rsvm_on_kernel_set"]


def rsvm_beta_from_kernels(K_stack, spread_tol=1e-12):
    r"""Mean kernel and RSVM's :math:`\beta` from a kernel set (000 §7.1.2 and Theorem 1).

    .. math::

        \bar K = \tfrac1L\textstyle\sum_l K_l,\quad
        l_{ij} = \tfrac{b_{ij} - a_{ij}}{2},\quad c_{ij} = \tfrac{(b_{ij} - \bar K_{ij}) + (a_{ij} - \bar K_{ij})}{2},
        \quad \mu_{ij} = -\tfrac{c_{ij}}{l_{ij}},\quad \beta_{ij} = \bigl(l_{ij}\,\gamma(\mu_{ij})\bigr)^2

    with :math:`a = \min_l K_l`, :math:`b = \max_l K_l` (:func:`rsvm_support_from_kernels`) and
    :math:`\gamma` of 000 Theorem 1 (:func:`robustpapers.bhadra2010.beta_from_kernel_support`) for the noise
    :math:`Z_{ij} = K_{ij} - \bar K_{ij} \in [a_{ij} - \bar K_{ij},\ b_{ij} - \bar K_{ij}]`. Entries whose
    support has no spread (:math:`b_{ij} - a_{ij} \le` ``spread_tol`` :math:`\max(1, |\bar K_{ij}|)`) are
    certain: :math:`\beta_{ij} = 0`. The result is symmetrised.

    Parameters
    ----------
    K_stack : array (L, n, n)
        The kernel set :math:`K_1, \dots, K_L`.
    spread_tol : float
        Relative spread below which an entry counts as certain.

    Returns
    -------
    K_bar : ndarray (n, n)
        The mean kernel.
    beta : ndarray (n, n)
        Non-negative, symmetric weights of 000 eq. (7).

    Examples
    --------
    >>> import numpy as np
    >>> K_bar, beta = rsvm_beta_from_kernels(np.stack([np.eye(2), 3 * np.eye(2)]))
    >>> float(K_bar[0, 0]), round(float(beta[0, 0]), 9), float(beta[0, 1])
    (2.0, 1.0, 0.0)
    """
    K_stack = check_finite_array(K_stack, "K_stack", ndim=3)
    if K_stack.shape[1] != K_stack.shape[2]:
        raise ValueError(f"K_stack must hold square kernels, got shape {K_stack.shape}")
    K_bar, a, b = rsvm_support_from_kernels(K_stack)
    return K_bar, beta_from_kernel_support(K_bar, a, b, spread_tol)


def rsvm_kappa(eps):
    r""":math:`\kappa = \sqrt{2\log(1/\epsilon)}` of 000 Theorem 1 / eq. (7) for finite-support noise.

    .. math::

        \kappa(\epsilon) = \sqrt{2\log(1/\epsilon)},\qquad 0 < \epsilon < 1 .

    The bound behind it (a Hoeffding-type tail bound) holds for every :math:`\epsilon \in (0, 1)`;
    000 §7.3's grid :math:`\epsilon \in \{0.05, 0.1, \dots, 0.5\}` includes 0.5, which
    :func:`robustpapers.bhadra2010.kappa_finite_support` (003's range :math:`\epsilon < 0.5`) rejects.

    Examples
    --------
    >>> round(rsvm_kappa(0.5), 4)
    1.1774
    """
    try:
        eps = float(eps)
    except (TypeError, ValueError):
        raise ValueError(f"eps must be a real number in (0, 1), got {eps!r}") from None
    if not 0.0 < eps < 1.0:
        raise ValueError(f"eps must lie in (0, 1), got {eps!r}")
    return float(np.sqrt(2.0 * np.log(1.0 / eps)))


def rsvm_on_kernel_set(K_stack, y, C, eps, *, method="qn", n_starts=100, beta_approx=None, random_state=None,
                       tol=1e-7, max_iter=2000, sv_tol=1e-6, prepared=None):
    r"""Train RSVM on a kernel set with the support information of 000 §7.1.2 (the baseline of Figs. 3-4).

    Solves 000 eq. (7) (003 eq. 15) on the mean kernel,

    .. math::

        \max_{\alpha\in S_n}\; e^\top\alpha - \tfrac12\Bigl(\alpha^\top Y\bar K Y\alpha
        + \kappa\sqrt{\textstyle\sum_{ij}\beta_{ij}\alpha_i^2\alpha_j^2}\Bigr),\qquad
        \kappa = \sqrt{2\log(1/\epsilon)},

    with :math:`\bar K, \beta` from :func:`rsvm_beta_from_kernels`, by
    :func:`robustpapers.bhadra2010.rsvm`. The default ``method="qn"`` is the paper's RSVM (DFP
    quasi-Newton on the square-penalty function, best of ``n_starts`` random starts; 000 §7.1.2
    uses 100); ``"socp"`` with ``beta_approx="psd"`` is the convex restriction of 003 §5.1.

    Parameters
    ----------
    K_stack : array (L, n, n)
        The kernel set.
    y : array (n,)
        Labels in {-1, +1}.
    C : float > 0
    eps : float in (0, 1)
        The chance-constraint level (:func:`rsvm_kappa`).
    method, n_starts, beta_approx, random_state, tol, max_iter
        Passed to :func:`robustpapers.bhadra2010.rsvm`.
    sv_tol : float
        Support vectors for the bias are :math:`\alpha_i >` ``sv_tol`` :math:`\cdot C`: the threshold of
        :func:`robust_bias` (``rtol=1e-6``), not bhadra2010's default :math:`10^{-4}`, because on 000's
        synthetic data :math:`\alpha \ll C` for large C and no :math:`\alpha_i` would pass :math:`10^{-4}C`.
    prepared : tuple (K_bar, beta), optional
        The output of :func:`rsvm_beta_from_kernels` for ``K_stack`` (to reuse it across C and eps).

    Returns
    -------
    SolverResult
        :func:`robustpapers.bhadra2010.rsvm`'s result (``alpha``, ``b`` by the rule of 003 §3 on the
        mean kernel, ``objective`` of (7), ``beta``, ``kappa``); its decision function is
        :math:`f_t = \sum_j \alpha_j y_j K_{tj} + b` for any test kernel row.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]]); y = np.array([-1.0, -1.0, 1.0, 1.0])
    >>> K = X @ X.T
    >>> res = rsvm_on_kernel_set(np.stack([K, 1.1 * K]), y, C=1.0, eps=0.1, n_starts=2, random_state=0)
    >>> bool(abs(res.alpha @ y) < 1e-8), round(res.kappa, 4)
    (True, 2.146)
    """
    kappa = rsvm_kappa(eps)
    if prepared is None:
        K_bar, beta = rsvm_beta_from_kernels(K_stack)
    else:
        K_bar, beta = prepared
    return rsvm(K_bar, y, C, beta, kappa, method=method, beta_approx=beta_approx, n_starts=n_starts,
                random_state=random_state, tol=tol, max_iter=max_iter, sv_tol=sv_tol)
