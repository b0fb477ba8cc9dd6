"""Extensions of shivaswamy2006 section 4: multiclass (20), the constraint sets of Table 1 (convex hulls,
polyhedral knowledge sets, polynomial trajectories), constraint sampling (Theorem 3, Calafiore and Campi)."""
from __future__ import annotations

import math
from typing import Any, Sequence

import cvxpy as cp
import numpy as np
from scipy import sparse

from ..core import SolverResult, check_finite_array, check_positive
from ._validate import _check_factors, _check_gamma
from .classification import _solve

__all__ = ["robust_multiclass_svm", "vertex_svm", "polyhedral_svm", "invariance_svm", "calafiore_campi_n",
           "sample_ellipsoid"]


def robust_multiclass_svm(X: np.ndarray, y: np.ndarray, Sigmas: np.ndarray | None = None, gamma: float = 0.0,
                          C: float = 1.0, *, factors: np.ndarray | None = None, tol: float = 1e-8,
                          max_iter: int = 200, verbose: bool = False) -> SolverResult:
    r"""Robust multiclass classifier, shivaswamy2006 eq. (20).

    .. math::

        \min_{w_1..w_k,\xi}\ \tfrac12\sum_{c}\|w_c\|^2 + C\sum_i\xi_i\quad\text{s.t.}\quad
        \langle w_{y_i} - w_c, \bar x_i\rangle \ge 1 - \xi_i + \gamma_i\|\Sigma_i^{1/2}(w_{y_i} - w_c)\|
        \ \ (c \ne y_i),\quad \xi_i\ge 0 .

    One cone per pattern and rival class (:math:`k-1` per pattern). The paper prints
    :math:`\Sigma_i^{-1/2}` in (20b); Lemma 2 and (10) give :math:`\Sigma_i^{1/2}`, used here. As in
    (19)-(20) there is no bias (append a constant feature for one). Predict with
    :math:`\arg\max_c \langle w_c, x\rangle`.

    Parameters
    ----------
    X : ndarray (n, d)
    y : ndarray (n,) of integers 0..k-1 (every class present)
    Sigmas, gamma, factors, C, tol, max_iter, verbose
        As in :func:`robust_svm`.

    Returns
    -------
    SolverResult
        ``W`` (k, d), ``xi``, ``objective``.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[2.0, 0, 1], [0, 2.0, 1], [-2.0, -2.0, 1]]); y = np.array([0, 1, 2])
    >>> res = robust_multiclass_svm(X, y, C=10.0)
    >>> np.argmax(X @ res.W.T, axis=1).tolist()
    [0, 1, 2]
    """
    X = check_finite_array(X, name="X", ndim=2)
    y = np.asarray(y)
    n, d = X.shape
    if y.shape != (n,):
        raise ValueError(f"y must have shape ({n},), got {y.shape}")
    if not np.issubdtype(y.dtype, np.integer) or y.min() < 0:
        raise ValueError("y must hold integer class indices 0..k-1")
    k = int(y.max()) + 1
    if k < 2 or len(np.unique(y)) != k:
        raise ValueError(f"y must contain every class 0..{k - 1} and at least 2 classes")
    C = check_positive(C, "C")
    g = _check_gamma(gamma, n)
    F = _check_factors(Sigmas, factors, n, d)
    Wv = cp.Variable((k, d))
    xi = cp.Variable(n, nonneg=True)
    onehot = np.eye(k)[y]
    cons = []
    for c in range(k):
        R = np.flatnonzero(y != c)
        Dm = onehot[R] @ Wv - np.ones((len(R), 1)) @ Wv[c:c + 1, :]  # rows w_{y_i} - w_c
        margin = cp.sum(cp.multiply(Dm, X[R]), axis=1) - 1 + xi[R]
        U = [j for j, i in enumerate(R) if F[i].shape[1] > 0 and g[i] > 0]
        if U:
            r = max(F[R[j]].shape[1] for j in U)
            blocks = []
            for j in U:
                Lt = F[R[j]].T
                blocks.append(sparse.vstack([sparse.csr_matrix(Lt), sparse.csr_matrix((r - Lt.shape[0], d))]))
            B = sparse.block_diag(blocks, format="csr")
            t = cp.Variable(len(U))
            sel = sparse.csr_matrix((np.ones(len(U)), (np.arange(len(U)), U)), shape=(len(U), len(R)))
            Z = cp.reshape(B @ cp.vec(sel @ Dm, order="C"), (r, len(U)), order="F")
            cons.append(cp.SOC(t, Z, axis=0))
            P = sparse.csr_matrix((g[R[U]], (U, np.arange(len(U)))), shape=(len(R), len(U)))
            cons.append(margin - P @ t >= 0)
        else:
            cons.append(margin >= 0)
    prob = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(Wv) + C * cp.sum(xi)), cons)
    ok, status, nit, solve_time = _solve(prob, "robust_multiclass_svm", tol, max_iter, verbose)
    W = np.asarray(Wv.value, dtype=float)
    return SolverResult(x=W.ravel(), W=W, xi=np.maximum(xi.value, 0), objective=float(prob.value), success=ok,
                        status=0 if ok else 1, solver_status=status, nit=nit, message=f"Clarabel: {status}",
                        solve_time=solve_time)


def vertex_svm(V: Sequence[Any], y: np.ndarray, C: float = 1.0, *, tol: float = 1e-8, max_iter: int = 200,
               verbose: bool = False) -> SolverResult:
    r"""Soft-margin SVM whose i-th pattern is a set of points: convex hulls (shivaswamy2006 Table 1) and
    constraint sampling (shivaswamy2006 eq. 23 and section 4.3).

    .. math::

        \min_{w,b,\xi}\ \tfrac12\|w\|^2 + C\sum_i\xi_i\quad\text{s.t.}\quad
        y_i(\langle w, x_{ij}\rangle + b) \ge 1 - \xi_i\ \ (1\le j\le m_i),\ \xi_i\ge 0 .

    By linearity the constraint holds on :math:`\mathrm{co}\{x_{ij}\}_j` iff it holds at the
    vertices; with :math:`x_{ij}` sampled from a set :math:`S_i` this is the sampled problem whose
    size Theorem 3 (:func:`calafiore_campi_n`) controls. A quadratic program.

    Parameters
    ----------
    V : sequence of ndarray (m_i, d)
        Generators (vertices or samples) of each pattern's set.
    y : ndarray (n,) in {-1, +1}
    C : float
    tol, max_iter, verbose : Clarabel settings.

    Returns
    -------
    SolverResult
        ``w``, ``b``, ``xi``, ``objective``.

    Examples
    --------
    >>> import numpy as np
    >>> V = [np.array([[1.0, 0.0], [2.0, 1.0]]), np.array([[-1.0, 0.0], [-2.0, 0.5]])]
    >>> res = vertex_svm(V, np.array([1.0, -1.0]), C=10.0)
    >>> bool(np.all(np.concatenate([V[0] @ res.w + res.b, -(V[1] @ res.w + res.b)]) >= 1 - 1e-6))
    True
    """
    from ..core import check_binary_labels

    y = check_binary_labels(y)
    if len(V) != len(y):
        raise ValueError(f"V must have one set per label ({len(y)}), got {len(V)}")
    V = [check_finite_array(v, name=f"V[{i}]", ndim=2) for i, v in enumerate(V)]
    d = V[0].shape[1]
    if any(v.shape[1] != d or v.shape[0] == 0 for v in V):
        raise ValueError(f"every V[i] must be a non-empty (m_i, {d}) array")
    C = check_positive(C, "C")
    P = np.concatenate(V)
    owner = np.repeat(np.arange(len(V)), [len(v) for v in V])
    w, b, xi = cp.Variable(d), cp.Variable(), cp.Variable(len(y), nonneg=True)
    cons = [cp.multiply(y[owner], P @ w + b) >= 1 - xi[owner]]
    prob = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(w) + C * cp.sum(xi)), cons)
    ok, status, nit, solve_time = _solve(prob, "vertex_svm", tol, max_iter, verbose)
    wv = np.asarray(w.value, dtype=float)
    return SolverResult(x=np.r_[wv, float(b.value)], w=wv, b=float(b.value), xi=np.maximum(xi.value, 0),
                        objective=float(prob.value), success=ok, status=0 if ok else 1, solver_status=status,
                        nit=nit, message=f"Clarabel: {status}", solve_time=solve_time)


def polyhedral_svm(A: Sequence[Any], c: Sequence[Any], y: np.ndarray, C: float = 1.0, *, tol: float = 1e-8,
                   max_iter: int = 200, verbose: bool = False) -> SolverResult:
    r"""Soft-margin SVM whose i-th pattern is a polyhedral "knowledge" set (shivaswamy2006 Table 1, row
    "knowledge based SVM"; the sets of Fung et al. 2002): the constraint (21) on
    :math:`S_i = \{x : A_i x \le c_i\}` (non-empty and bounded).

    .. math::

        \min_{w,b,\xi}\ \tfrac12\|w\|^2 + C\sum_i\xi_i\quad\text{s.t.}\quad
        y_i(\langle w, x\rangle + b) \ge 1 - \xi_i\ \ \forall x\in S_i,\ \xi_i\ge 0,

    made finite by linear-programming duality: :math:`\min_{A_ix\le c_i} y_i\langle w, x\rangle =
    \max_{u\ge0,\ A_i^\top u = -y_iw} -c_i^\top u`, so (21) holds iff some :math:`u_i \ge 0` has
    :math:`A_i^\top u_i + y_iw = 0` and :math:`-c_i^\top u_i + y_ib \ge 1 - \xi_i`. A quadratic program, as
    Table 1 says.

    Parameters
    ----------
    A : sequence of ndarray (k_i, d)
    c : sequence of ndarray (k_i,)
        The inequalities of each pattern's polyhedron.
    y : ndarray (n,) in {-1, +1}
    C : float
    tol, max_iter, verbose : Clarabel settings.

    Returns
    -------
    SolverResult
        ``w``, ``b``, ``xi``, ``u`` (the multipliers of each polyhedron), ``objective``.

    Examples
    --------
    >>> import numpy as np
    >>> box = lambda lo, hi: (np.r_[np.eye(2), -np.eye(2)], np.r_[hi, -np.asarray(lo)])
    >>> (A1, c1), (A2, c2) = box([1.0, 0.0], [2.0, 1.0]), box([-2.0, -1.0], [-1.0, 0.0])
    >>> res = polyhedral_svm([A1, A2], [c1, c2], np.array([1.0, -1.0]), C=10.0)
    >>> bool(abs(res.w[0] - 1.0) < 1e-3), bool(abs(res.b) < 1e-3)   # the two boxes' gap is [-1, 1] on x_1
    (True, True)
    """
    from ..core import check_binary_labels

    y = check_binary_labels(y)
    if len(A) != len(y) or len(c) != len(y):
        raise ValueError(f"A and c must have one polyhedron per label ({len(y)}), got {len(A)} and {len(c)}")
    A = [check_finite_array(a, name=f"A[{i}]", ndim=2) for i, a in enumerate(A)]
    c = [check_finite_array(v, name=f"c[{i}]", ndim=1) for i, v in enumerate(c)]
    d = A[0].shape[1]
    for i, (a, v) in enumerate(zip(A, c)):
        if a.shape[1] != d or a.shape[0] != v.shape[0] or a.shape[0] == 0:
            raise ValueError(f"A[{i}] must be (k, {d}) and c[{i}] of length k, got {a.shape} and {v.shape}")
    C = check_positive(C, "C")
    w, b, xi = cp.Variable(d), cp.Variable(), cp.Variable(len(y), nonneg=True)
    U = [cp.Variable(a.shape[0], nonneg=True) for a in A]
    cons = []
    for i, (a, v, u) in enumerate(zip(A, c, U)):
        cons += [a.T @ u + y[i] * w == 0, -v @ u + y[i] * b >= 1 - xi[i]]
    prob = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(w) + C * cp.sum(xi)), cons)
    ok, status, nit, solve_time = _solve(prob, "polyhedral_svm", tol, max_iter, verbose)
    wv = np.asarray(w.value, dtype=float)
    return SolverResult(x=np.r_[wv, float(b.value)], w=wv, b=float(b.value), xi=np.maximum(xi.value, 0),
                        u=[np.maximum(np.asarray(u.value, dtype=float), 0) for u in U],
                        objective=float(prob.value), success=ok, status=0 if ok else 1, solver_status=status,
                        nit=nit, message=f"Clarabel: {status}", solve_time=solve_time)


def _anti_diagonal_sums(M, size):
    """Coefficients of the polynomial ``z(θ)ᵀ M z(θ)`` with ``z = (1, θ, ..., θ^(m-1))``: sums of M's anti-diagonals,
    padded with zeros to ``size`` entries."""
    m = M.shape[0]
    out = []
    for k in range(size):
        terms = [M[i, k - i] for i in range(max(0, k - m + 1), min(k, m - 1) + 1)]
        out.append(cp.sum(cp.hstack(terms)) if terms else cp.Constant(0.0))
    return out


def invariance_svm(T: np.ndarray, y: np.ndarray, C: float = 1.0, tau: float = 1.0, *, tol: float = 1e-8,
                   max_iter: int = 200, verbose: bool = False) -> SolverResult:
    r"""Soft-margin SVM whose i-th pattern is a polynomial trajectory (shivaswamy2006 Table 1, row "invariances";
    the semidefinite programming machine of Graepel and Herbrich 2004): the constraint (21) on
    :math:`S_i = \{x_i(\theta) = \sum_{k=0}^r \theta^k x_{ik} : |\theta| \le \tau\}`.

    .. math::

        \min_{w,b,\xi}\ \tfrac12\|w\|^2 + C\sum_i\xi_i\quad\text{s.t.}\quad
        p_i(\theta) = y_i(\langle w, x_i(\theta)\rangle + b) - 1 + \xi_i \ge 0\ \ (|\theta|\le\tau),\ \xi_i\ge0 .

    :math:`p_i` is a polynomial of degree :math:`r` in :math:`\theta` whose coefficients are affine in
    :math:`(w, b, \xi)`. By the Markov-Lukács theorem it is non-negative on :math:`[-\tau, \tau]` iff, for
    :math:`r = 2m`, :math:`p_i = \sigma_0 + (\tau^2 - \theta^2)\sigma_1` and, for :math:`r = 2m + 1`,
    :math:`p_i = (\tau + \theta)\sigma_0 + (\tau - \theta)\sigma_1`, with sums of squares
    :math:`\sigma_j(\theta) = z_j(\theta)^\top M_j z_j(\theta)`, :math:`M_j \succeq 0`, :math:`z_j` the monomials
    up to the degree allowed. Matching coefficients makes the problem a semidefinite program, as Table 1 says
    (for :math:`r = 2`, two PSD matrices of sizes 2 and 1 per pattern).

    Parameters
    ----------
    T : ndarray (n, r + 1, d)
        ``T[i, k]`` is the coefficient :math:`x_{ik}` of :math:`\theta^k` in pattern i's trajectory (``r = 0``:
        plain points, the SVM).
    y : ndarray (n,) in {-1, +1}
    C : float
    tau : float
        The trajectories are taken over :math:`|\theta| \le \tau`.
    tol, max_iter, verbose : Clarabel settings.

    Returns
    -------
    SolverResult
        ``w``, ``b``, ``xi``, ``objective``.

    Examples
    --------
    A segment per pattern (``r = 1``): the constraint at its two end points suffices.

    >>> import numpy as np
    >>> T = np.array([[[1.5, 0.0], [0.5, 0.5]], [[-1.5, 0.0], [0.5, 0.0]]])
    >>> res = invariance_svm(T, np.array([1.0, -1.0]), C=10.0)
    >>> ends = np.array([T[0, 0] - T[0, 1], T[0, 0] + T[0, 1]])
    >>> bool(np.all(ends @ res.w + res.b >= 1 - res.xi[0] - 1e-6))
    True
    """
    from ..core import check_binary_labels

    y = check_binary_labels(y)
    T = check_finite_array(T, name="T", ndim=3)
    if T.shape[0] != len(y):
        raise ValueError(f"T must have one trajectory per label ({len(y)}), got {T.shape[0]}")
    C = check_positive(C, "C")
    tau = check_positive(tau, "tau")
    n, r1, d = T.shape
    r = r1 - 1
    w, b, xi = cp.Variable(d), cp.Variable(), cp.Variable(n, nonneg=True)
    cons = []
    for i in range(n):
        # coefficients of p_i(theta), lowest degree first
        a = [y[i] * (T[i, k] @ w) for k in range(r1)]
        a[0] = a[0] + y[i] * b - 1 + xi[i]
        if r == 0:
            cons.append(a[0] >= 0)
            continue
        m = r // 2
        if r % 2 == 0:
            M0 = cp.Variable((m + 1, m + 1), PSD=True)
            M1 = cp.Variable((m, m), PSD=True)
            s0, s1 = _anti_diagonal_sums(M0, r1), _anti_diagonal_sums(M1, r1)
            # (tau^2 - theta^2) sigma_1
            rhs = [s0[k] + tau ** 2 * s1[k] - (s1[k - 2] if k >= 2 else 0) for k in range(r1)]
        else:
            M0 = cp.Variable((m + 1, m + 1), PSD=True)
            M1 = cp.Variable((m + 1, m + 1), PSD=True)
            s0, s1 = _anti_diagonal_sums(M0, r1), _anti_diagonal_sums(M1, r1)
            # (tau + theta) sigma_0 + (tau - theta) sigma_1
            rhs = [tau * (s0[k] + s1[k]) + ((s0[k - 1] - s1[k - 1]) if k >= 1 else 0) for k in range(r1)]
        cons += [a[k] == rhs[k] for k in range(r1)]
    prob = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(w) + C * cp.sum(xi)), cons)
    ok, status, nit, solve_time = _solve(prob, "invariance_svm", tol, max_iter, verbose)
    wv = np.asarray(w.value, dtype=float)
    return SolverResult(x=np.r_[wv, float(b.value)], w=wv, b=float(b.value), xi=np.maximum(xi.value, 0),
                        objective=float(prob.value), success=ok, status=0 if ok else 1, solver_status=status,
                        nit=nit, message=f"Clarabel: {status}", solve_time=solve_time)


def calafiore_campi_n(epsilon: float, beta: float | np.ndarray, d: int) -> int:
    r"""Sample size of Theorem 3 (Calafiore and Campi), shivaswamy2006 section 4.3.

    .. math:: N \ge 2\big[d\,\epsilon^{-1}\log\epsilon^{-1} + \epsilon^{-1}\log\beta^{-1} + d\big]

    guarantees :math:`\Pr\{V(\theta_N) \le \epsilon\} \ge 1 - \beta` for the solution
    :math:`\theta_N \in \mathbb R^d` of the sampled problem (23). Returns the smallest such integer.

    Parameters
    ----------
    epsilon, beta : float in (0, 1)
    d : int >= 1
        Number of decision variables.

    Returns
    -------
    int

    Examples
    --------
    >>> calafiore_campi_n(0.1, 0.01, 3)
    237
    """
    for name, v in (("epsilon", epsilon), ("beta", beta)):
        if not (isinstance(v, (int, float)) and 0 < v < 1):
            raise ValueError(f"{name} must lie in (0, 1), got {v!r}")
    if not (isinstance(d, (int, np.integer)) and d >= 1):
        raise ValueError(f"d must be a positive integer, got {d!r}")
    return int(math.ceil(2 * (d / epsilon * math.log(1 / epsilon) + math.log(1 / beta) / epsilon + d)))


def sample_ellipsoid(mean: Any, factor: Any, gamma: float, size: Any,
                     random_state: int | np.random.Generator | None = None) -> Any:
    r"""Points uniform in :math:`\mathcal E(\bar x, LL^\top, \gamma) = \{\bar x + \gamma L u: \|u\|\le 1\}`
    (shivaswamy2006 eq. 16), for constraint sampling.

    Examples
    --------
    >>> import numpy as np
    >>> P = sample_ellipsoid(np.zeros(2), np.eye(2), 2.0, 100, random_state=0)
    >>> bool(np.all(np.linalg.norm(P, axis=1) <= 2.0))
    True
    """
    rng = np.random.default_rng(random_state)
    L = np.atleast_2d(np.asarray(factor, dtype=float))
    r = L.shape[1]
    z = rng.standard_normal((int(size), r))
    u = z / np.linalg.norm(z, axis=1, keepdims=True) * rng.uniform(size=(int(size), 1)) ** (1.0 / r)
    return np.asarray(mean, dtype=float) + gamma * u @ L.T
