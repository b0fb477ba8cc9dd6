r"""RSVM (Bhadra et al. 2010) as a baseline on a kernel set, as bental2012 §7.1.2 sets it up for Figs. 3-4.

bental2012 compares its robust SVMs with RSVM, the chance-constrained SVM of bental2012 eq. (7) (bhadra2010 eq. 15),
which needs a mean kernel and the support of every kernel entry, not a kernel set. bental2012 §7.1.2
extracts them from the set :math:`\{K_1,\dots,K_L\}`:

.. math::

    \bar K = \frac1L\sum_{l=1}^L K_l,\qquad a_{ij} = \min_l (K_l)_{ij},\qquad b_{ij} = \max_l (K_l)_{ij}.

The noise :math:`Z = K - \bar K` is then supported on :math:`[a - \bar K, b - \bar K]` (zero mean
is assumed, as bental2012 Theorem 1 requires) and enters (7) through
:math:`\beta_{ij} = (l_{ij}\gamma(\mu_{ij}))^2` and :math:`\kappa = \sqrt{2\log(1/\epsilon)}`
(bental2012 Theorem 1). This module builds RSVM's inputs from a kernel set; training RSVM on them
(:func:`robustpapers.reproduce.bental2012.rsvm_baseline.rsvm_on_kernel_set`) needs bhadra2010's solver, so it
lives with the reproduction, which may combine two papers.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core import check_finite_array
from ..core.uncertainty import beta_from_kernel_support
from .data import rsvm_support_from_kernels

__all__ = ["rsvm_beta_from_kernels", "rsvm_kappa"]


def rsvm_beta_from_kernels(K_stack: np.ndarray, spread_tol: float = 1e-12) -> tuple[Any, ...]:
    r"""Mean kernel and RSVM's :math:`\beta` from a kernel set (bental2012 §7.1.2 and Theorem 1).

    .. math::

        \bar K = \tfrac1L\textstyle\sum_l K_l,\quad
        l_{ij} = \tfrac{b_{ij} - a_{ij}}{2},\quad c_{ij} = \tfrac{(b_{ij} - \bar K_{ij}) + (a_{ij} - \bar K_{ij})}{2},
        \quad \mu_{ij} = -\tfrac{c_{ij}}{l_{ij}},\quad \beta_{ij} = \bigl(l_{ij}\,\gamma(\mu_{ij})\bigr)^2

    with :math:`a = \min_l K_l`, :math:`b = \max_l K_l` (:func:`rsvm_support_from_kernels`) and
    :math:`\gamma` of bental2012 Theorem 1 (:func:`robustpapers.core.beta_from_kernel_support`) for the noise
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
        Non-negative, symmetric weights of bental2012 eq. (7).

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


def rsvm_kappa(eps: float) -> Any:
    r""":math:`\kappa = \sqrt{2\log(1/\epsilon)}` of bental2012 Theorem 1 / eq. (7) for finite-support noise.

    .. math::

        \kappa(\epsilon) = \sqrt{2\log(1/\epsilon)},\qquad 0 < \epsilon < 1 .

    The bound behind it (a Hoeffding-type tail bound) holds for every :math:`\epsilon \in (0, 1)`;
    bental2012 §7.3's grid :math:`\epsilon \in \{0.05, 0.1, \dots, 0.5\}` includes 0.5, which
    :func:`robustpapers.bhadra2010.kappa_finite_support` (bhadra2010's range :math:`\epsilon < 0.5`) rejects.

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
