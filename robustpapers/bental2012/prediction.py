"""Prediction rules of bental2012 §6.1: the nominal rule (25) and the majority vote (26) over R draws of eta."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core import check_binary_labels, check_finite_array, prediction_errors, sample_positive_lp_ball

__all__ = ["nominal_decision", "sampled_decisions", "evaluate_prediction_rules"]


def _split_stack(K_test_stack, n=None):
    K = check_finite_array(K_test_stack, "K_test_stack")
    if K.ndim == 2:
        K = K[None]
    if K.ndim != 3:
        raise ValueError(f"K_test_stack must have shape (L+1, m, n) or (m, n), got {K.shape}")
    if n is not None and K.shape[2] != n:
        raise ValueError(f"K_test_stack has {K.shape[2]} columns, expected n = {n} training points")
    return K[0], K[1:]


def nominal_decision(K_test_stack: Any, y: np.ndarray, alpha: np.ndarray, b: Any) -> Any:
    r"""Decision values of the nominal rule (25): :math:`f_t = \sum_i y_i\alpha_i \bar K(x_t, x_i) + b`.

    ``K_test_stack`` is (L+1, m, n) with the nominal test kernel first (or just the (m, n) nominal one).

    Examples
    --------
    >>> import numpy as np
    >>> nominal_decision(np.ones((2, 3, 2)), np.array([1.0, -1.0]), np.array([1.0, 0.5]), 0.1)
    array([0.6, 0.6, 0.6])
    """
    y = np.asarray(y, dtype=float)
    K0, _ = _split_stack(K_test_stack, y.size)
    return K0 @ (np.asarray(alpha, dtype=float) * y) + float(b)


def sampled_decisions(K_test_stack: Any, y: np.ndarray, alpha: np.ndarray, b: Any, kappa: float, R: int = 100,
                      p: float = 2, random_state: int | np.random.Generator | None = None) -> tuple[Any, ...]:
    r"""Decision values under R kernels of :math:`\mathcal E(\kappa)` (the draws behind rule (26)).

    .. math::

        f^s_t = \sum_i y_i\alpha_i\Big(\bar K(x_t, x_i) + \sum_l \eta^s_l K_l(x_t, x_i)\Big) + b,
        \qquad \eta^s \sim \mathrm{Unif}\{\eta\ge 0, \|\eta\|_p\le\kappa\}

    (bental2012 §6.1, draws by :func:`robustpapers.core.sample_positive_lp_ball`); computed as
    :math:`f^{nom} + H v` with :math:`v_l = K_l^{test} Y\alpha`, so the L test kernels are read once.

    Returns
    -------
    f_nominal : (m,), F : (R, m), eta : (R, L)
    """
    y = np.asarray(y, dtype=float)
    K0, Ks = _split_stack(K_test_stack, y.size)
    u = np.asarray(alpha, dtype=float) * y
    f_nom = K0 @ u + float(b)
    L, m = Ks.shape[0], K0.shape[0]
    if L == 0:
        return f_nom, np.repeat(f_nom[None], int(R), axis=0), np.zeros((int(R), 0))
    V = (Ks.reshape(L * m, -1) @ u).reshape(L, m)
    eta = sample_positive_lp_ball(L, kappa, p=p, size=int(R), random_state=random_state)
    return f_nom, f_nom[None, :] + eta @ V, eta


def evaluate_prediction_rules(K_test_stack: Any, y_test: np.ndarray, y_train: np.ndarray, alpha: np.ndarray,
                              b: Any, kappa: float, R: int = 100, p: float = 2,
                              random_state: int | np.random.Generator | None = None) -> Any:
    """NominalErr, MajorityErr (27) and RobustErr (28) of a classifier (alpha, b) on a test stack
    (bental2012 §6.2), through :func:`robustpapers.core.prediction_errors`.

    Examples
    --------
    >>> import numpy as np
    >>> K = np.stack([np.eye(2), np.eye(2)])
    >>> evaluate_prediction_rules(K, np.array([1, -1]), np.array([1, -1]), np.ones(2), 0.0, kappa=1.0, R=5,
    ...                           random_state=0)
    {'NE': 0.0, 'ME': 0.0, 'RE': 0.0}
    """
    y_test = check_binary_labels(y_test, "y_test", require_both=False)
    f_nom, F, _ = sampled_decisions(K_test_stack, y_train, alpha, b, kappa, R=R, p=p, random_state=random_state)
    return prediction_errors(y_test, f_nom, F)
