r"""KEN-GURU: GURU in a reproducing kernel Hilbert space (ginodi2010 chapter 4, Algorithm 2)."""
from __future__ import annotations

import math
from numbers import Integral, Real
from typing import Any, Callable

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import ndtr
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted, validate_data

from ..core import (
    SolverResult, Trace, check_binary_labels, check_positive, check_psd, make_kernel, warn_not_converged,
)
from ..core.params import Interval, ParamsMixin, StrOptions
from .guru import _binary_classes, _check_iter
from .loss import _check_sigma, _loss_from_margins

__all__ = ["ken_guru", "kernel_guru_objective", "kernel_guru_lbfgs", "kernel_guru_eigen", "KernelGURUClassifier"]

_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)


def kernel_guru_objective(alpha: np.ndarray, K: np.ndarray, y: np.ndarray, sigma: float) -> Any:
    r"""GURU objective (2.22) of :math:`w = \sum_m \alpha_m y_m \phi(x_m)` through the Gram matrix.

    .. math::

        w^\top x_i = \sum_m \alpha_m y_m K_{mi},\qquad
        \|w\|^2 = \sum_{m,n}\alpha_m\alpha_n y_m y_n K_{mn}.
    """
    ya = alpha * y
    scores = K @ ya
    nw = math.sqrt(max(float(ya @ scores), 0.0))
    return float(np.sum(_loss_from_margins(1.0 - y * scores, sigma * nw)))


def _check_training_kernel(K, y):
    """Labels of both classes and a PSD Gram matrix of matching size, or a ValueError naming the problem.

    (2.22) in the kernel form needs :math:`\\|w\\|^2 = (\\alpha\\circ y)^\\top K(\\alpha\\circ y) \\ge 0`: on an
    indefinite ``K`` the norm update (4.13) and the objective lose their meaning (L-BFGS would report a
    spurious optimum of objective 0). One class, or no rows, has nothing to separate.
    """
    y = check_binary_labels(y)
    K = check_psd(K, "K")
    if K.shape[0] != y.size:
        raise ValueError(f"K has {K.shape[0]} rows but y has {y.size} labels")
    return K, y


def ken_guru(K: np.ndarray, y: np.ndarray, sigma: float, *, eta0: float = 1.0, norm_update: str = "o1",
             tol: float = 1e-4, max_iter: int = 100, random_state: int | np.random.Generator | None = None,
             callback: Callable[..., Any] | None = None, verbose: int = 0, check_norm: bool = False
) -> SolverResult:
    r"""KEN-GURU (ginodi2010 Algorithm 2): kernelised GURU with the O(1) norm update (4.10)-(4.13).

    Runs GURU's SGD (Algorithm 1) on :math:`w = \sum_m \alpha_m y_m \phi(x_m)` (representer
    result, Theorem 1.2 of chapter 4). With :math:`i` drawn uniformly and :math:`\eta_t = \eta_0/\sqrt t`:

    .. math::

        \zeta &= \sum_m \alpha_m y_m K_{mi} \quad (= w^\top\phi(x_i),\ (4.10)),\qquad
        z = \frac{1 - y_i\zeta}{\sigma\nu},\\
        \gamma &= 1 - \eta_t\,\frac{\sigma}{\nu}\,\varphi(z)\quad(4.11),\qquad
        \mu = \eta_t\,\Phi(z)\quad(4.12),\\
        \alpha &\leftarrow \gamma\alpha,\quad \alpha_i \leftarrow \alpha_i + \mu\quad(4.8),\\
        \nu^2 &\leftarrow \gamma^2\nu^2 + 2\gamma\mu\,y_i\zeta + \mu^2 K_{ii}\quad(4.13),

    :math:`\nu = \|w\|`. (The thesis's (4.11) prints :math:`\sigma/\sqrt{2\pi\nu_t}`; the gradient
    (2.26) gives :math:`\sigma/(\sqrt{2\pi}\,\nu_t)`, used here.) At :math:`\nu = 0` the limits
    :math:`\gamma = 1`, :math:`\mu = \eta_t 1[1 - y_i\zeta > 0]` are used. ``norm_update="naive"``
    recomputes :math:`\nu = \sqrt{(\alpha\circ y)^\top K(\alpha\circ y)}` after every update
    (:math:`O(M^2)`) instead of (4.13) (:math:`O(1)`); the iterates are the same up to rounding.
    Each update still costs :math:`O(M)` for :math:`\zeta` and the rescaling.

    Stopping rule as in :func:`guru_sgd`: the full objective after every epoch of :math:`M`
    updates, stop when its relative change is at most ``tol``.

    Parameters
    ----------
    K : array of shape (M, M)
        Gram matrix of a Mercer kernel: positive semidefinite up to
        :func:`robustpapers.core.psd_tolerance` (ValueError otherwise).
    y : array of shape (M,), values in {-1, +1}, both present (ValueError otherwise)
    sigma, eta0, tol, max_iter, random_state : as in :func:`guru_sgd` (same draws for the same seed).
    norm_update : {"o1", "naive"}
    check_norm : bool
        Record, after every update, the gap between the maintained :math:`\nu` and the recomputed
        norm (the result's ``norm_gap``, max relative gap; costs :math:`O(M^2)` per update).

    Returns
    -------
    SolverResult
        ``alpha``, ``nu``, ``objective``, ``n_updates``, ``norm_gap`` (NaN unless ``check_norm``).

    Examples
    --------
    >>> import numpy as np
    >>> from robustpapers.ginodi2010 import ken_guru
    >>> X = np.array([[1.0, 2.0], [2.0, 1.0], [-1.0, -2.0], [-2.0, -0.5]])
    >>> y = np.array([1.0, 1.0, -1.0, -1.0])
    >>> res = ken_guru(X @ X.T, y, sigma=0.5, random_state=0, max_iter=20)
    >>> bool(res.objective < 4.0)
    True
    """
    K, y = _check_training_kernel(K, y)
    sigma = _check_sigma(sigma)
    eta0 = check_positive(eta0, "eta0")
    max_iter = _check_iter(max_iter, tol)
    if norm_update not in ("o1", "naive"):
        raise ValueError(f"norm_update must be 'o1' or 'naive', got {norm_update!r}")
    rng = check_random_state(random_state)
    M = y.size
    diag = np.diag(K).copy()
    alpha = np.zeros(M)
    nu2 = 0.0
    t = 0
    trace = Trace()
    prev = kernel_guru_objective(alpha, K, y, sigma)
    trace.record(objective=prev, epoch=0)
    norm_gap = 0.0 if check_norm else np.nan
    success, message, epoch, change = False, "", 0, np.nan
    for epoch in range(1, max_iter + 1):
        for i in rng.randint(M, size=M):
            t += 1
            eta = eta0 / math.sqrt(t)
            yi = y[i]
            zeta = float((alpha * y) @ K[i])       # (4.10); K symmetric: the contiguous row
            u = 1.0 - yi * zeta
            nu = math.sqrt(nu2)
            if nu == 0.0:
                gamma, mu = 1.0, eta * (1.0 if u > 0 else (0.0 if u < 0 else 0.5))
            else:
                z = u / (sigma * nu)
                p = _INV_SQRT_2PI * math.exp(-0.5 * z * z) if abs(z) < 40 else 0.0
                gamma = 1.0 - eta * sigma * p / nu                    # (4.11)
                mu = eta * float(ndtr(z))                             # (4.12)
            alpha *= gamma
            alpha[i] += mu                                            # (4.8)
            if norm_update == "o1":
                nu2 = max(gamma * gamma * nu2 + 2.0 * gamma * mu * yi * zeta + mu * mu * diag[i], 0.0)  # (4.13)
            else:
                ya = alpha * y
                nu2 = max(float(ya @ K @ ya), 0.0)
            if check_norm:
                ya = alpha * y
                exact = math.sqrt(max(float(ya @ K @ ya), 0.0))
                norm_gap = max(norm_gap, abs(math.sqrt(nu2) - exact) / max(exact, 1e-300))
        obj = kernel_guru_objective(alpha, K, y, sigma)
        change = abs(prev - obj) / max(1.0, abs(obj))
        trace.record(objective=obj, gap=change, epoch=epoch)
        if verbose:
            print(f"ken_guru epoch {epoch}: objective {obj:.6g}, relative change {change:.2e}")
        prev = obj
        if callback is not None and callback(alpha, epoch):
            message = "stopped by callback"
            break
        if change <= tol:
            success, message = True, f"relative change of the objective over an epoch <= tol={tol:g}"
            break
    else:
        message = warn_not_converged("ken_guru", "max_iter", f"{max_iter} epochs, last relative change {change:.2e}")
    return SolverResult(alpha.copy(), success=success, nit=epoch, message=message, objective=prev, trace=trace,
                        alpha=alpha.copy(), nu=math.sqrt(nu2), n_updates=t, norm_gap=float(norm_gap))


_KERNEL_NAMES = ("linear", "poly", "rbf")


def kernel_guru_eigen(K: np.ndarray, y: np.ndarray, sigma: float, *, tol: float = 1e-10, max_iter: int = 5000,
                      rank_tol: float = 1e-12) -> SolverResult:
    r"""The kernelised GURU optimum in the eigen-coordinates of ``K``, certified in feature space.

    With :math:`K = U\Lambda U^\top` and the training points' coordinates :math:`F = U\Lambda^{1/2}`
    (rows :math:`\phi(x_m)` in an orthonormal basis of their span), :math:`w = F^\top\beta = c` and

    .. math::

        \min_c\ \sum_m \sigma\|c\|\, f\Big(\frac{1 - y_m F_m c}{\sigma\|c\|}\Big),

    which is (2.22) (ginodi2010 eq. (2.22), chapter 4) for the linear model on :math:`F`, solved by
    :func:`~robustpapers.ginodi2010.guru_lbfgs` without a bias. Its gradient in :math:`c` is the
    feature-space gradient, so its :math:`\ell_\infty` norm (``grad_norm``, of the mean objective)
    certifies the optimum whatever the conditioning of ``K``. :func:`kernel_guru_lbfgs` iterates in
    :math:`\beta`, where the gradient is ``K`` times this one: on an ill-conditioned Gram matrix (the
    degree-2 polynomial kernel on digits, condition number about 1e6-1e7) it crawls and stops on
    ``max_iter`` well above the optimum. Directions with eigenvalue below ``rank_tol`` times the largest
    are dropped (they carry no training score); the coefficients are :math:`\beta = U\Lambda^{-1/2}c`.

    Returns
    -------
    SolverResult with ``alpha`` (:math:`= \beta\circ y`), ``objective`` (the sum), ``grad_norm`` (feature
    space, mean objective), ``rank`` (directions kept) and ``success`` (``grad_norm <= 10 * tol``).
    """
    from .guru import guru_lbfgs

    K, y = _check_training_kernel(K, y)
    sigma = _check_sigma(sigma)
    if not (isinstance(rank_tol, Real) and 0 <= rank_tol < 1):
        raise ValueError(f"rank_tol must be a number in [0, 1), got {rank_tol!r}")
    lam, U = np.linalg.eigh((K + K.T) / 2)
    keep = lam > rank_tol * max(float(lam.max()), 0.0)
    if not keep.any():
        raise ValueError("K has no positive eigenvalue: nothing to separate")
    F = U[:, keep] * np.sqrt(lam[keep])
    r = guru_lbfgs(F, y, sigma, fit_intercept=False, tol=tol, max_iter=max_iter)
    beta = U[:, keep] @ (r.w / np.sqrt(lam[keep]))
    return SolverResult(beta * y, success=bool(r.grad_norm <= 10 * tol), nit=r.nit, message=r.message,
                        objective=float(r.objective), trace=r.trace, alpha=beta * y, grad_norm=float(r.grad_norm),
                        rank=int(keep.sum()))


class KernelGURUClassifier(ParamsMixin, ClassifierMixin, BaseEstimator):
    r"""KEN-GURU classifier (ginodi2010 Algorithm 2): GURU with a Mercer kernel.

    Solves (2.22) over :math:`w = \sum_m \alpha_m y_m\phi(x_m)`

    .. math::

        \min_\alpha \sum_i \sigma\|w\|\, f\!\Big(\frac{1 - y_i\sum_m\alpha_m y_m K_{mi}}{\sigma\|w\|}\Big),
        \qquad \|w\|^2 = (\alpha\circ y)^\top K(\alpha\circ y),

    by :func:`kernel_guru_eigen` (``solver="eigen"``, the default) or the thesis's SGD :func:`ken_guru`
    (``solver="sgd"``). Decision function :math:`\sum_m \alpha_m y_m k(x_m, x)`.

    Parameters
    ----------
    sigma : float > 0
    solver : {"eigen", "sgd"}, default "eigen"
        ``"eigen"``: L-BFGS in the eigen-coordinates of the Gram matrix, certified by the feature-space gradient
        norm (at most ``tol``; 200 points: about 0.03 s). ``"sgd"``: Algorithm 2, opt-in; it stops when the
        objective changes little over an epoch, which certifies nothing (200 points, RBF kernel: 0.16 s and
        0.4 % above the optimum). A run that stops before ``tol`` raises a ConvergenceWarning naming ``max_iter``.
    kernel : {"linear", "poly", "rbf"}
    degree, gamma, coef0 : kernel parameters (scikit-learn's conventions; ``gamma=None``: 1/d).
    fit_intercept : bool, default False
        Add 1 to the kernel (an appended constant feature of value 1 in feature space, inside the
        norm); the thesis has no bias.
    eta0, random_state : SGD only, see :func:`ken_guru`.
    tol, max_iter : optional
        ``"eigen"``: gradient norm of the mean objective (default 1e-8) and L-BFGS iterations (default 1000);
        ``"sgd"``: relative change per epoch (default 1e-4) and epochs (default 100).

    Examples
    --------
    >>> import numpy as np
    >>> from robustpapers.ginodi2010 import KernelGURUClassifier
    >>> X = np.array([[0.0, 0.1], [0.1, 0.0], [2.0, 2.0], [-2.0, 2.0], [2.0, -2.0], [-2.0, -2.0]])
    >>> y = np.array([1, 1, 0, 0, 0, 0])
    >>> clf = KernelGURUClassifier(sigma=0.1, kernel="poly", degree=2, random_state=0).fit(X, y)
    >>> clf.predict(X).tolist()
    [1, 1, 0, 0, 0, 0]
    """

    _parameter_constraints = {
        "sigma": [Interval(Real, 0, None, closed="neither")],
        "solver": [StrOptions(("eigen", "sgd"))],
        "kernel": [StrOptions(_KERNEL_NAMES)],
        "degree": [Interval(Integral, 1, None, closed="left")],
        "gamma": [None, Interval(Real, 0, None, closed="neither")],
        "coef0": [Interval(Real, None, None)],
        "fit_intercept": ["boolean"],
        "eta0": [Interval(Real, 0, None, closed="neither")],
        "tol": [None, Interval(Real, 0, None, closed="neither")],
        "max_iter": [None, Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
    }

    def __init__(self, sigma: float = 1.0, *, solver: str = "eigen", kernel: str = "rbf",
                 degree: int = 2, gamma: Any = None, coef0: float = 1.0, fit_intercept: bool = False,
                 eta0: float = 1.0, tol: float | None = None, max_iter: int | None = None,
                 random_state: int | np.random.Generator | None = None) -> None:
        self.sigma = sigma
        self.solver = solver
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.fit_intercept = fit_intercept
        self.eta0 = eta0
        self.tol = tol
        self.max_iter = max_iter
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def _kernel(self, A, B):
        if self.kernel == "linear":
            K = make_kernel("linear")(A, B)
        elif self.kernel == "poly":
            K = make_kernel("poly", degree=self.degree, gamma=self.gamma, coef0=self.coef0)(A, B)
        elif self.kernel == "rbf":
            K = make_kernel("rbf", gamma=self.gamma)(A, B)
        else:
            raise ValueError(f"unknown kernel {self.kernel!r}; choose one of {list(_KERNEL_NAMES)}")
        return K + 1.0 if self.fit_intercept else K

    def fit(self, X: ArrayLike, y: ArrayLike) -> KernelGURUClassifier:
        """Fit on ``X`` (n, d) and two-class labels ``y``; returns self."""
        self._validate_params()
        X, y = validate_data(self, X, y, dtype=float, ensure_all_finite=True)
        self.classes_ = _binary_classes(y, "KernelGURUClassifier")
        ys = np.where(y == self.classes_[1], 1.0, -1.0)
        K = self._kernel(X, X)
        K = (K + K.T) / 2
        if self.solver == "sgd":
            res = ken_guru(K, ys, self.sigma, eta0=self.eta0, tol=1e-4 if self.tol is None else self.tol,
                           max_iter=100 if self.max_iter is None else self.max_iter, random_state=self.random_state)
        else:
            res = kernel_guru_eigen(K, ys, self.sigma, tol=1e-8 if self.tol is None else self.tol,
                                    max_iter=1000 if self.max_iter is None else self.max_iter)
        self.result_ = res
        self.X_fit_ = X
        self.dual_coef_ = res.alpha * ys
        self.n_iter_ = res.nit
        return self

    def decision_function(self, X: ArrayLike) -> np.ndarray:
        """:math:`\\sum_m \\alpha_m y_m k(x_m, x)` (positive: ``classes_[1]``)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=float, reset=False, ensure_all_finite=True)
        return self._kernel(X, self.X_fit_) @ self.dual_coef_

    def predict(self, X: ArrayLike) -> np.ndarray:
        """Predicted class labels."""
        scores = self.decision_function(X)
        return self.classes_[(scores > 0).astype(int)]


def kernel_guru_lbfgs(K: np.ndarray, y: np.ndarray, sigma: float, *, tol: float = 1e-8, max_iter: int = 3000,
                      callback: Callable[..., Any] | None = None, verbose: int = 0,
                      random_state: int | np.random.Generator | None = None) -> SolverResult:
    r"""Full-batch L-BFGS on the kernelised GURU objective (certifies KEN-GURU's optimum; not in the thesis).

    With :math:`w = \sum_m \beta_m\phi(x_m)` (:math:`\beta = \alpha\circ y`), scores :math:`K\beta` and
    :math:`\|w\|^2 = \beta^\top K\beta`,

    .. math::

        \min_\beta\ \frac1M\sum_i \sigma\|w\|\, f\Big(\frac{1 - y_i (K\beta)_i}{\sigma\|w\|}\Big),\qquad
        \nabla_\beta = \frac1M\Big(-K(y\circ\Phi(z)) + \sigma\sum_i\varphi(z_i)\,\frac{K\beta}{\|w\|}\Big).

    The gradient in :math:`\beta` is :math:`K` times the feature-space gradient, so a small
    :math:`\ell_\infty` gradient certifies the optimum only up to the conditioning of :math:`K`;
    compare objectives rather than coefficients. ``K`` and ``y`` are checked as in :func:`ken_guru`
    (PSD, both classes).

    Returns
    -------
    SolverResult with ``alpha`` (:math:`= \beta\circ y`), ``objective`` (the sum), ``grad_norm``.
    """
    from scipy.optimize import minimize

    K, y = _check_training_kernel(K, y)
    sigma = _check_sigma(sigma)
    max_iter = _check_iter(max_iter, tol)
    M = y.size
    trace = Trace()

    def fun(beta):
        Kb = K @ beta
        nw = math.sqrt(max(float(beta @ Kb), 0.0))
        u = 1.0 - y * Kb
        val = float(np.sum(_loss_from_margins(u, sigma * nw)))
        if nw == 0.0:
            P, p = (u > 0).astype(float), np.zeros(M)
        else:
            z = u / (sigma * nw)
            P, p = ndtr(z), _INV_SQRT_2PI * np.exp(-0.5 * np.minimum(z * z, 1600.0))
        g = -K @ (y * P) + (sigma * p.sum() / nw) * Kb if nw > 0 else -K @ (y * P)
        return val / M, g / M

    def cb(intermediate_result):
        trace.record(objective=intermediate_result.fun * M)
        if callback is not None:
            return callback(intermediate_result.x)

    res = minimize(fun, np.zeros(M), jac=True, method="L-BFGS-B", callback=cb,
                   options=dict(maxiter=max_iter, gtol=tol, ftol=1e-15, maxcor=20))
    val, g = fun(res.x)
    gnorm = float(np.max(np.abs(g)))
    success = bool(gnorm <= 10 * tol or res.status == 0 and gnorm <= 1e3 * tol)
    msg = str(res.message)
    if not success:
        msg = warn_not_converged("kernel_guru_lbfgs", "max_iter", f"gradient norm {gnorm:.2e} > tol={tol:g}")
    return SolverResult(res.x * y, success=success, nit=res.nit, message=msg, objective=val * M, trace=trace,
                        alpha=res.x * y, grad_norm=gnorm)
