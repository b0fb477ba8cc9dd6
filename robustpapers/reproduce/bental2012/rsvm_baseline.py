r"""bental2012's RSVM baseline of Figs. 3-4: bhadra2010's RSVM trained on a kernel set (bental2012 §7.1.2).

The support information and :math:`\beta`, :math:`\kappa` come from
:func:`robustpapers.bental2012.rsvm_beta_from_kernels` and :func:`robustpapers.bental2012.rsvm_kappa`; the
solver is :func:`robustpapers.bhadra2010.rsvm`. It combines two papers, so it is part of the reproduction,
not of either paper's package.
"""
from __future__ import annotations

from ...bental2012 import rsvm_beta_from_kernels, rsvm_kappa
from ...bhadra2010 import rsvm

__all__ = ["rsvm_on_kernel_set"]


def rsvm_on_kernel_set(K_stack, y, C, eps, *, method="qn", n_starts=100, beta_approx=None, random_state=None,
                       tol=1e-7, max_iter=2000, sv_tol=1e-6, prepared=None):
    r"""Train RSVM on a kernel set with the support information of bental2012 §7.1.2 (the baseline of Figs. 3-4).

    Solves bental2012 eq. (7) (bhadra2010 eq. 15) on the mean kernel,

    .. math::

        \max_{\alpha\in S_n}\; e^\top\alpha - \tfrac12\Bigl(\alpha^\top Y\bar K Y\alpha
        + \kappa\sqrt{\textstyle\sum_{ij}\beta_{ij}\alpha_i^2\alpha_j^2}\Bigr),\qquad
        \kappa = \sqrt{2\log(1/\epsilon)},

    with :math:`\bar K, \beta` from :func:`~robustpapers.bental2012.rsvm_beta_from_kernels`, by
    :func:`robustpapers.bhadra2010.rsvm`. The default ``method="qn"`` is the paper's RSVM (DFP
    quasi-Newton on the square-penalty function, best of ``n_starts`` random starts; bental2012 §7.1.2
    uses 100); ``"socp"`` with ``beta_approx="psd"`` is the convex restriction of bhadra2010 §5.1.

    Parameters
    ----------
    K_stack : array (L, n, n)
        The kernel set.
    y : array (n,)
        Labels in {-1, +1}.
    C : float > 0
    eps : float in (0, 1)
        The chance-constraint level (:func:`~robustpapers.bental2012.rsvm_kappa`).
    method, n_starts, beta_approx, random_state, tol, max_iter
        Passed to :func:`robustpapers.bhadra2010.rsvm`.
    sv_tol : float
        Support vectors for the bias are :math:`\alpha_i >` ``sv_tol`` :math:`\cdot C`: the threshold of
        :func:`~robustpapers.bental2012.robust_bias` (``rtol=1e-6``), not bhadra2010's default :math:`10^{-4}`, because on bental2012's
        synthetic data :math:`\alpha \ll C` for large C and no :math:`\alpha_i` would pass :math:`10^{-4}C`.
    prepared : tuple (K_bar, beta), optional
        The output of :func:`~robustpapers.bental2012.rsvm_beta_from_kernels` for ``K_stack`` (to reuse it across C and eps).

    Returns
    -------
    SolverResult
        :func:`robustpapers.bhadra2010.rsvm`'s result (``alpha``, ``b`` by the rule of bhadra2010 §3 on the
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
