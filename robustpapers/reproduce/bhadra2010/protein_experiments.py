r"""bhadra2010 Table 2 on the resolution-aware structure analog: one-vs-all problems, leave-one-out, TA and F1.

bhadra2010 §5.2 protocol: for every family :math:`f` of the data set, the one-vs-all problem takes the
family's structures as positives and as many structures drawn at random from the other families
as negatives (balanced); every structure :math:`P_i` gets :math:`L` perturbed copies
:math:`Q_i = \{P^1_i,\dots,P^L_i\}` within its resolution; each classifier is scored by
leave-one-out (LOO) with the three error measures of bhadra2010 §4 (MajErr (18), RobustErr (19),
NomErr (20)) reported as total accuracy :math:`TA = 100(1 - \mathrm{Err})` and F1 of the positive
class; results are averaged over the problems and over several random negative sets.

The classifiers (bhadra2010 §5.2):

* ``RSVM_QP``, ``RSVM_SOCP``, ``RSVM_QN`` — bhadra2010 eq. (15) with finite-support uncertainty: mean kernel
  :math:`\overline{\mathbf K} = \frac1L\sum_l \mathbf K_l` (bental2012 §7.1.2), support
  :math:`a_{ij} = \min_{p\in Q_i,p'\in Q_j} K(p,p')`, :math:`b_{ij} = \max_{p\in Q_i,p'\in Q_j} K(p,p')`
  (bhadra2010 §5.2), :math:`\beta_{ij} = (l_{ij}\gamma(\mu_{ij}))^2` of the noise :math:`Z = K - \overline{\mathbf K}`
  on :math:`[a - \overline{\mathbf K}, b - \overline{\mathbf K}]`, :math:`\kappa = \sqrt{2\log(1/\epsilon)}`;
  QP with the principal rank-one part of :math:`\beta`, SOCP with its positive-eigenvalue part (the
  paper's §5.1 approximations), QN with :math:`\beta` itself;
* ``SVM_M`` — SVM on :math:`\overline{\mathbf K}` (= RSVM at :math:`\kappa = 0`);
* ``Nominal`` — SVM on the kernel of the unperturbed structures;
* ``SVM_R`` — SVM on all perturbed copies as individual examples (:math:`nL` of them);
* ``MI`` — SVM with the normalised multi-instance set kernel of Gärtner et al. (2002) over the copies,
  one label per test set (its MajErr, RobustErr and NomErr coincide); ``MI_copies`` scores the same
  classifier on every copy of the test structure as a singleton set.

Every classifier except ``MI`` is scored on the :math:`L` sampled test kernel rows
:math:`(\mathbf K_l)_{t,\cdot}` (copy :math:`l` of the held-out structure against copy :math:`l` of the
training structures; for ``SVM_R`` against all training copies), and all use the bias rule of
bhadra2010 §3 (:func:`robustpapers.bhadra2010.robust_bias`) on their own training kernel.
"""
from __future__ import annotations

import numpy as np

from ...core import check_binary_labels, check_finite_array, majority_error, robust_error, svm_dual
from ..engine import derive_seed, task_name
from ...structures import make_structure_families, perturb_structure, substructure_kernel_matrix
from ...bhadra2010 import beta_from_kernel_support, kappa_finite_support, principal_rank_one, robust_bias, rsvm_many

__all__ = [
    "TABLE2_METHODS", "RSVM_METHODS", "problem_kernels", "loo_split", "fit_decisions", "loo_decisions",
    "loo_decisions_grid", "TABLE2_SETTINGS", "TABLE2_KERNEL", "table2_tasks",
    "f1_score_pos", "table2_scores", "beta_diagnostics", "table2_task", "kappa_zero_task",
]

#: Table 2's rows (bhadra2010 §5.2) in the order of the paper, plus ``MI_copies``.
TABLE2_METHODS = ("RSVM_QP", "RSVM_SOCP", "RSVM_QN", "Nominal", "SVM_M", "SVM_R", "MI", "MI_copies")
#: The RSVM rows: method of :func:`rsvm` and the paper's approximation of beta (bhadra2010 §5.1).
RSVM_METHODS = {"RSVM_QP": ("qp", "principal"), "RSVM_SOCP": ("socp", "psd"), "RSVM_QN": ("qn", None)}


def _copies(X, r, L, seed, i):
    """The ``L`` resolution copies of structure ``i``, seeded by the structure's index only, so that a
    structure has the same copies in every problem it enters."""
    return perturb_structure(X, float(r), size=L, random_state=derive_seed(seed, "copies", int(i)))


def problem_kernels(coords, resolution, L, *, seed=0, index=None, l=4, sigma=4.0, normalize=True):
    r"""All kernel quantities of one problem, from one evaluation of the kernel on every pair of copies.

    .. math::

        (\mathbf K_l)_{ij} = K(P^l_i, P^l_j),\quad \overline{\mathbf K} = \tfrac1L\textstyle\sum_l \mathbf K_l,\quad
        a_{ij} = \min_{p\in Q_i,p'\in Q_j} K(p,p'),\quad b_{ij} = \max_{p\in Q_i,p'\in Q_j} K(p,p'),

    .. math::

        K_{multi}(P_i,P_j) = \frac{\sum_{p\in Q_i,p'\in Q_j}K(p,p')}
        {\sqrt{\sum_{p,p'\in Q_i}K(p,p')\sum_{p,p'\in Q_j}K(p,p')}}

    (bental2012 §7.1.2; bhadra2010 §5.2; Gärtner et al. 2002), with :math:`K` the substructure kernel of bental2012 App. C
    (:func:`robustpapers.structures.substructure_kernel_matrix`, cosine-normalised).

    Parameters
    ----------
    coords : sequence of arrays (n_i, 3)
        The problem's nominal structures.
    resolution : array (n,)
        Their resolutions (Angstrom).
    L : int
        Copies per structure.
    seed : int
        Master seed; structure ``index[k]`` gets its copies from ``derive_seed(seed, "copies", index[k])``.
    index : array (n,) of int, optional
        Global indices of the structures (default ``0..n-1``).
    l, sigma : kernel parameters (bental2012 App. C).
    normalize : bool
        Cosine-normalise the substructure kernel (the default; a normalised kernel has a constant diagonal, so
        beta is hollow). ``False`` keeps the raw kernel (Table 2's unnormalised variant).

    Returns
    -------
    dict with ``K_nominal`` (n, n), ``K_all`` (n, L, n, L) (kernel between copy ``s`` of ``i`` and copy
    ``u`` of ``j``), ``K_draws`` (L, n, n), ``K_bar``, ``a``, ``b``, ``K_multi`` (n, n) and ``mi_copy``
    (n, L, n): the set kernel between the singleton :math:`\{P^s_i\}` and :math:`Q_j`.

    Examples
    --------
    >>> from robustpapers.structures import make_structure_families
    >>> data = make_structure_families(n_families=2, n_members=2, length=8, random_state=0)
    >>> kern = problem_kernels(data.coords, data.resolution, L=2, l=3)
    >>> kern["K_all"].shape, bool((kern["a"] <= kern["K_bar"] + 1e-12).all())
    ((4, 2, 4, 2), True)
    """
    n = len(coords)
    r = check_finite_array(resolution, "resolution", ndim=1)
    if r.size != n:
        raise ValueError(f"resolution must have {n} entries (one per structure), got {r.size}")
    if isinstance(L, bool) or not isinstance(L, (int, np.integer)) or L < 1:
        raise ValueError(f"L (copies per structure) must be an integer >= 1, got {L!r}")
    index = np.arange(n) if index is None else np.asarray(index)
    if index.shape != (n,):
        raise ValueError(f"index must have {n} entries, got shape {index.shape}")
    copies = [_copies(X, ri, L, seed, i) for X, ri, i in zip(coords, r, index)]
    flat = [c for cs in copies for c in cs]  # structure-major: copy s of structure i is row i*L + s
    kw = dict(l=l, sigma=sigma, normalize=bool(normalize))
    K_nominal = substructure_kernel_matrix(list(coords), **kw)
    K_all = substructure_kernel_matrix(flat, **kw).reshape(n, L, n, L)
    K_draws = np.einsum("isjs->sij", K_all)
    S = K_all.sum(axis=(1, 3))
    d = np.sqrt(np.diag(S))
    S_row = K_all.sum(axis=3)  # (n, L, n): sum over the copies of j
    self_k = np.einsum("isis->is", K_all)  # K(p, p) of every copy
    return dict(K_nominal=K_nominal, K_all=K_all, K_draws=K_draws, K_bar=K_draws.mean(axis=0),
                a=K_all.min(axis=(1, 3)), b=K_all.max(axis=(1, 3)), K_multi=S / np.outer(d, d),
                mi_copy=S_row / np.sqrt(self_k[:, :, None] * np.diag(S)[None, None, :]))


def loo_split(kern, t):
    """Training blocks (the structures other than ``t``) and test rows (``t`` against them) of a LOO fold.

    The training dictionary contains only kernel values between training structures (and their copies):
    nothing computed from the held-out structure ``t`` enters it.

    Returns
    -------
    train : dict
        ``K_nominal``, ``K_bar``, ``a``, ``b``, ``K_multi`` (m, m); ``K_copies`` (m L, m L).
    test : dict
        ``draws`` (L, m): :math:`(\\mathbf K_l)_{t,\\text{train}}`; ``nominal`` (1, m);
        ``copies`` (L, m L): copy ``s`` of ``t`` against every training copy; ``multi`` (1, m);
        ``mi_copy`` (L, m).
    """
    n = kern["K_bar"].shape[0]
    if isinstance(t, bool) or not isinstance(t, (int, np.integer)) or not 0 <= t < n:
        raise ValueError(f"held-out index t must be in [0, {n}), got {t!r}")
    tr = np.delete(np.arange(n), t)
    ix = np.ix_(tr, tr)
    Ka = kern["K_all"]
    L = Ka.shape[1]
    m = tr.size
    train = {k: kern[k][ix] for k in ("K_nominal", "K_bar", "a", "b", "K_multi")}
    train["K_copies"] = Ka[tr][:, :, tr].reshape(m * L, m * L)
    test = dict(draws=kern["K_draws"][:, t, tr], nominal=kern["K_nominal"][t, tr][None, :],
                copies=Ka[t][:, tr].reshape(L, m * L), multi=kern["K_multi"][t, tr][None, :],
                mi_copy=kern["mi_copy"][t][:, tr])
    return train, test


def _svm(K, y, C, K_test):
    sol = svm_dual(K, y, C)
    b = robust_bias(K, y, sol.alpha, C)
    return K_test @ (sol.alpha * y) + b


def fit_decisions(method, train, test, y, C, eps=None, *, n_starts=10, random_state=None):
    r"""Train ``method`` on a fold's training blocks and return its decision values on the test rows.

    Parameters
    ----------
    method : one of :data:`TABLE2_METHODS`
    train, test : dicts from :func:`loo_split`
    y : array (m,) of +-1
        Training labels.
    C : float
    eps : float in (0, 0.5)
        Chance-constraint level of the RSVM rows (ignored by the others); ``eps=None`` with an RSVM
        row means :math:`\kappa = 0`.
    n_starts, random_state : QN's random starts (bhadra2010 §3; the paper uses 100).

    Returns
    -------
    array (n_s,) of decision values: ``n_s = L`` sampled test kernels, or 1 for ``MI`` (one label per set).
    """
    y = check_binary_labels(y).astype(float)
    if method in RSVM_METHODS:
        return _rsvm_decisions(method, train, test, y, [(C, eps)], n_starts, [random_state])[0]
    if method == "SVM_M":
        return _svm(train["K_bar"], y, C, test["draws"])
    if method == "Nominal":
        return _svm(train["K_nominal"], y, C, test["draws"])
    if method == "SVM_R":
        L = test["copies"].shape[0]
        return _svm(train["K_copies"], np.repeat(y, L), C, test["copies"])
    if method == "MI":
        return _svm(train["K_multi"], y, C, test["multi"])[:1]
    if method == "MI_copies":
        return _svm(train["K_multi"], y, C, test["mi_copy"])
    raise ValueError(f"method must be one of {TABLE2_METHODS}, got {method!r}")


def _rsvm_decisions(method, train, test, y, grid, n_starts, random_states):
    """An RSVM row's decision values on one split at each (C, eps) of ``grid`` (eps None: kappa = 0), by one
    :func:`robustpapers.bhadra2010.rsvm_many` call (each fit is ``rsvm``'s at that point)."""
    how, approx = RSVM_METHODS[method]
    beta = beta_from_kernel_support(train["K_bar"], train["a"], train["b"])
    fits = rsvm_many(train["K_bar"], y, [C for C, _ in grid], beta,
                     [0.0 if eps is None else kappa_finite_support(eps) for _, eps in grid], method=how,
                     beta_approx=approx, n_starts=n_starts, random_states=random_states)
    return [test["draws"] @ (res.alpha * y) + res.b for res in fits]


def loo_decisions(method, kern, y, C, eps=None, *, n_starts=10, seed=0):
    """Leave-one-out decision values of ``method`` on one problem: array (n_s, n), column ``t`` from the
    classifier trained without structure ``t``."""
    y = check_binary_labels(y)
    cols = []
    for t in range(y.size):
        train, test = loo_split(kern, t)
        cols.append(fit_decisions(method, train, test, np.delete(y, t), C, eps, n_starts=n_starts,
                                  random_state=derive_seed(seed, "qn", t)))
    return np.stack(cols, axis=1)


def loo_decisions_grid(method, kern, y, grid, *, n_starts=10, seeds):
    """:func:`loo_decisions` at each ``(C, eps)`` of ``grid`` (with ``seeds[g]`` as its ``seed``): a list of
    arrays (n_s, n), the same to the last bit. An RSVM row fits each LOO fold's whole grid by one
    :func:`robustpapers.bhadra2010.rsvm_many` call (QN: the starts of all the grid's fits side by side); the
    other rows are fitted point by point."""
    if method not in RSVM_METHODS:
        return [loo_decisions(method, kern, y, C, eps, n_starts=n_starts, seed=sd)
                for (C, eps), sd in zip(grid, seeds)]
    y = check_binary_labels(y)
    cols = [[] for _ in grid]
    for t in range(y.size):
        train, test = loo_split(kern, t)
        decisions = _rsvm_decisions(method, train, test, np.delete(y, t).astype(float), grid, n_starts,
                                    [derive_seed(sd, "qn", t) for sd in seeds])
        for col, f in zip(cols, decisions):
            col.append(f)
    return [np.stack(col, axis=1) for col in cols]


def f1_score_pos(y, y_pred):
    r"""F1 of the positive class, :math:`F_1 = \frac{2TP}{2TP + FP + FN}` (0 when there are no positives at all).

    >>> f1_score_pos([1, 1, -1, -1], [1, -1, 1, -1])
    0.5
    """
    y = np.asarray(y)
    y_pred = np.asarray(y_pred)
    if y.shape != y_pred.shape:
        raise ValueError(f"y and y_pred must have the same shape, got {y.shape} and {y_pred.shape}")
    tp = float(np.sum((y == 1) & (y_pred == 1)))
    fp = float(np.sum((y != 1) & (y_pred == 1)))
    fn = float(np.sum((y == 1) & (y_pred != 1)))
    return 0.0 if tp + fp + fn == 0 else 2 * tp / (2 * tp + fp + fn)


def table2_scores(y, F):
    r"""TA and F1 (in %) of the three error measures of bhadra2010 §4 from LOO decision values ``F`` (n_s, n).

    * MajErr (18): structure :math:`t` is labelled by the majority vote of :math:`\mathrm{sign}(f^s_t)`;
    * RobustErr (19): :math:`t` counts as correct only if every :math:`f^s_t` has the right sign (its
      predicted label for F1 is :math:`y_t` then, else :math:`-y_t`);
    * NomErr (20): every sampled decision is a prediction of its own (:math:`n\,n_s` of them).

    A zero decision value (or a tied vote) counts as wrong. :math:`TA = 100(1 - \mathrm{Err})`, F1 of the
    positive class in %.
    """
    y = check_binary_labels(y, require_both=False)
    F = check_finite_array(F, "F", ndim=2)
    if F.shape[1] != y.size:
        raise ValueError(f"F must have one column per structure ({y.size}), got shape {F.shape}")
    sgn = np.sign(F)
    vote = np.sign(sgn.sum(axis=0))
    maj = np.where(vote == 0, -y, vote)
    rob = np.where(np.all(sgn == y[None, :], axis=0), y, -y)
    nom = np.where(sgn == 0, -y[None, :], sgn)
    return {
        "ME_TA": 100 * (1 - majority_error(y, F)), "ME_F1": 100 * f1_score_pos(y, maj),
        "RE_TA": 100 * (1 - robust_error(y, F)), "RE_F1": 100 * f1_score_pos(y, rob),
        "NE_TA": 100 * float(np.mean(nom == y[None, :])),
        "NE_F1": 100 * f1_score_pos(np.broadcast_to(y, F.shape).ravel(), nom.ravel()),
    }


def beta_diagnostics(K_bar, a, b):
    r"""How far the problem's :math:`\beta` is from the assumptions of RSVM_QP (rank one) and RSVM_SOCP (PSD).

    Returns ``rank_one_rel_err`` :math:`= \|\beta - \lambda_1 v_1v_1^\top\|_F / \|\beta\|_F`,
    ``neg_eig_share`` = the share of :math:`\sum|\lambda_r|` carried by negative eigenvalues and
    ``n_positive_eigs`` (with one, the PSD part used by RSVM_SOCP is the principal rank-one part used by
    RSVM_QP, and the two coincide) and ``principal_psd_share`` :math:`= \lambda_1 / \sum_{\lambda_r>0}\lambda_r`.
    """
    beta = beta_from_kernel_support(K_bar, a, b)
    w = np.linalg.eigvalsh(beta)
    bvec = principal_rank_one(beta)
    nrm = max(float(np.linalg.norm(beta)), 1e-300)
    return {"rank_one_rel_err": float(np.linalg.norm(beta - np.outer(bvec, bvec)) / nrm),
            "neg_eig_share": float(-w[w < 0].sum() / max(np.abs(w).sum(), 1e-300)),
            "n_positive_eigs": int(np.sum(w > 1e-10 * max(np.abs(w).max(), 1e-300))),
            "principal_psd_share": float(w[-1] / max(w[w > 0].sum(), 1e-300))}


#: The Table 2 page's settings: ``"quick"`` (CI), ``"paper"`` (bhadra2010 §5.2: 15 x 10 structures, L = 50, 10 negative
#: sets, the grid of §5.1.1, 100 QN starts) and ``"medium"`` (the paper's problem size with a reduced L, grid and
#: number of starts).
TABLE2_SETTINGS = {
    "quick": dict(n_families=5, n_members=4, length=12, L=4, reps=1, Cs=[1.0, 10.0], epss=[0.2], n_starts=3),
    "paper": dict(n_families=15, n_members=10, length=12, L=50, reps=10, Cs=[0.1, 1.0, 5.0, 10.0, 50.0, 100.0],
                  epss=[0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45], n_starts=100),
    "medium": dict(n_families=15, n_members=10, length=12, L=5, reps=1, Cs=[1.0, 10.0], epss=[0.1, 0.3], n_starts=5),
    # the raw (not cosine-normalised) kernel, whose diagonal is uncertain: beta is not hollow, so RSVM_QP and
    # RSVM_SOCP differ (the paper's "QP below SOCP"); 15 problems, L = 10, a 4 x 4 grid, the two convex RSVMs
    "unnormalised": dict(n_families=15, n_members=10, length=12, L=10, reps=1, Cs=[0.1, 1.0, 10.0, 100.0],
                         epss=[0.05, 0.15, 0.3, 0.45], n_starts=5, normalize=False, methods=["RSVM_QP", "RSVM_SOCP"]),
}
#: The substructure kernel's parameters on the Table 2 page.
TABLE2_KERNEL = dict(l=4, sigma=4.0)


def table2_tasks(settings, seed=0):
    """The :func:`table2_task` parameters of one Table 2 sweep (one per family and negative set), cached as
    ``run_sweep(table2_task, tasks, paperkey="bhadra2010", experiment="table2_proteins", version=4)``.

    >>> len(table2_tasks(TABLE2_SETTINGS["paper"]))
    150
    """
    S = settings
    common = dict(seed=seed, n_families=S["n_families"], n_members=S["n_members"], length=S["length"], L=S["L"],
                  **TABLE2_KERNEL)
    extra = {k: S[k] for k in ("methods", "normalize") if k in S}  # only where set: the cached keys stay
    return [dict(common, Cs=S["Cs"], epss=S["epss"], n_starts=S["n_starts"], family=f, rep=r, **extra)
            for f in range(S["n_families"]) for r in range(S["reps"])]


@task_name("robustpapers.bhadra2010.protein_experiments:table2_task")
def table2_task(seed, family, rep, n_families, n_members, length, L, l, sigma, Cs, epss, n_starts,
                methods=TABLE2_METHODS, normalize=True):
    """One one-vs-all problem of bhadra2010 Table 2 (family ``family`` against a random negative set ``rep``):
    LOO scores of every method at every grid point.

    The data set is ``make_structure_families(n_families, n_members, length, random_state=seed)``; the
    negatives are ``data.one_vs_rest(family, random_state=derive_seed(seed, "negatives", family, rep))``.
    Returns ``records`` (one per method and grid point: ``method, C, eps`` and :func:`table2_scores`),
    ``n``, ``y`` and the beta diagnostics of the full problem. ``normalize=False``: the raw (not
    cosine-normalised) substructure kernel, whose diagonal is uncertain too (:func:`problem_kernels`).
    """
    data = make_structure_families(n_families=n_families, n_members=n_members, length=length, random_state=seed)
    idx, y = data.one_vs_rest(family, random_state=derive_seed(seed, "negatives", family, rep))
    kern = problem_kernels([data.coords[i] for i in idx], data.resolution[idx], L, seed=seed, index=idx,
                           l=l, sigma=sigma, normalize=normalize)
    records = []
    for method in methods:
        if method not in TABLE2_METHODS:
            raise ValueError(f"method must be one of {TABLE2_METHODS}, got {method!r}")
        grid = [(C, eps) for C in Cs for eps in (epss if method in RSVM_METHODS else [None])]
        Fs = loo_decisions_grid(method, kern, y, grid, n_starts=n_starts,
                                seeds=[derive_seed(seed, family, rep, method, C, eps) for C, eps in grid])
        for (C, eps), F in zip(grid, Fs):
            records.append(dict(method=method, C=float(C), eps=eps, **table2_scores(y, F)))
    return dict(records=records, n=int(y.size), y=y.tolist(), index=idx.tolist(),
                **beta_diagnostics(kern["K_bar"], kern["a"], kern["b"]))


@task_name("robustpapers.bhadra2010.protein_experiments:kappa_zero_task")
def kappa_zero_task(seed, family, n_families, n_members, length, L, l, sigma, C, n_starts):
    """bhadra2010 §5.1.2 on one problem of Table 2: at kappa = 0 every RSVM row is SVM_M. Returns, for each RSVM
    row, the largest LOO decision difference from SVM_M and whether all predicted signs agree."""
    data = make_structure_families(n_families=n_families, n_members=n_members, length=length, random_state=seed)
    idx, y = data.one_vs_rest(family, random_state=derive_seed(seed, "negatives", family, 0))
    kern = problem_kernels([data.coords[i] for i in idx], data.resolution[idx], L, seed=seed, index=idx,
                           l=l, sigma=sigma)
    ref = loo_decisions("SVM_M", kern, y, C)
    out = {}
    for method in RSVM_METHODS:
        F = loo_decisions(method, kern, y, C, None, n_starts=n_starts, seed=derive_seed(seed, "k0", method))
        out[method] = dict(max_abs_diff=float(np.abs(F - ref).max()),
                           same_signs=bool(np.array_equal(np.sign(F), np.sign(ref))))
    return out
