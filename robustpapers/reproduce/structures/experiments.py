"""Task functions of the structures appendix (module-level, ``func(**params) -> dict`` of JSON values)."""
from __future__ import annotations

import itertools

import numpy as np

from ...core import min_eigenvalue, svm_dual
from ...structures.generator import make_structure_families
from ...structures.kernel import substructure_kernel, substructure_kernel_matrix
from ...structures.kernel_sets import build_kernel_set, multi_instance_kernel, perturb_structures
from ..engine import task_name

__all__ = ["kernel_spread_task", "multi_instance_task", "fourier_accuracy_task", "loo_svm_error",
           "spread_by_length_task", "SPREAD_LENGTHS"]


def loo_svm_error(K, y, C=1.0):
    r"""Leave-one-out 0/1 error of the plain SVM (core ``svm_dual``) on a precomputed kernel.

    .. math::

        \frac1n \sum_{t=1}^n \mathbf 1\Big(\operatorname{sign}\big(\textstyle\sum_{i \ne t}
        y_i \alpha^{(t)}_i K_{ti} + b^{(t)}\big) \ne y_t\Big)

    with :math:`(\alpha^{(t)}, b^{(t)})` the SVM (bental2012 eq. (2)) trained without point :math:`t`
    (the LOO protocol of bental2012 §7.7); a zero decision value counts as an error.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [0.2], [0.1], [3.0], [3.2], [3.1]]); y = np.array([-1, -1, -1, 1, 1, 1])
    >>> loo_svm_error(X @ X.T + 1.0, y, C=10.0)
    0.0
    """
    y = np.asarray(y, float)
    n = y.size
    wrong = 0
    for t in range(n):
        tr = np.delete(np.arange(n), t)
        sol = svm_dual(K[np.ix_(tr, tr)], y[tr], C)
        f = K[t, tr] @ (sol.alpha * y[tr]) + sol.b
        wrong += int(np.sign(f) != y[t])
    return wrong / n


def _data(seed, n_families, n_members, length):
    return make_structure_families(n_families=n_families, n_members=n_members, length=length, random_state=seed)


def _width_vs_resolution(r, a, b, max_points=1500):
    """Interval widths b_ij - a_ij (i < j) against r_i + r_j, evenly subsampled, with their Spearman correlation."""
    from scipy.stats import spearmanr

    iu = np.triu_indices(r.size, 1)
    rs, w = (r[:, None] + r[None])[iu], (b - a)[iu]
    step = max(1, rs.size // max_points)
    return dict(r_sum=rs[::step].tolist(), width=w[::step].tolist(), spearman=float(spearmanr(rs, w)[0]))


@task_name("robustpapers.structures.experiments:kernel_spread_task")
def kernel_spread_task(seed, n_families, n_members, length, L, l, sigma, C=1.0):
    """Kernel set of the analog data: spread under resolution draws (bental2012 §2 / Fig. 1), PSD-ness
    and the one-vs-one difficulty (nominal-SVM LOO error on every family pair, bental2012 §7.7)."""
    data = _data(seed, n_families, n_members, length)
    ks = build_kernel_set(data.coords, data.resolution, L=L, l=l, sigma=sigma, random_state=seed + 1)
    n = len(data)
    off = ~np.eye(n, dtype=bool)
    K, a, b = ks.K_nominal, ks.a, ks.b
    inside = (K >= a) & (K <= b)
    # bental2012 §2: for one pair of the family, [K_min, K_max] over draws; the share of the family's
    # nominal pairwise kernel values inside that interval
    fig1 = []
    for f in range(n_families):
        idx = np.flatnonzero(data.y == f)
        p, q = idx[0], idx[1]
        vals = K[np.ix_(idx, idx)][np.triu_indices(idx.size, 1)]
        fig1.append(dict(family=f, i=int(p), j=int(q), K_nominal=float(K[p, q]), K_min=float(a[p, q]),
                         K_max=float(b[p, q]), share_inside=float(np.mean((vals >= a[p, q]) & (vals <= b[p, q])))))
    pairs = []
    for f1, f2 in itertools.combinations(range(n_families), 2):
        idx, y = data.pair(f1, f2)
        Ksub, Kbar = K[np.ix_(idx, idx)], ks.K_bar[np.ix_(idx, idx)]
        pairs.append(dict(f1=f1, f2=f2, same_group=bool(data.group[f1] == data.group[f2]),
                          loo_nominal=loo_svm_error(Ksub, y, C), loo_bar=loo_svm_error(Kbar, y, C)))
    raw = substructure_kernel_matrix(data.coords, l=l, sigma=sigma, normalize=False)
    same = (data.y[:, None] == data.y[None]) & off
    return dict(
        n=n, y=data.y.tolist(), group=data.group.tolist(), resolution=data.resolution.tolist(),
        lengths=[len(X) for X in data.coords], K_nominal=K.tolist(),
        share_nominal_inside=float(inside[off].mean()), share_nominal_above=float((K > b)[off].mean()),
        share_nominal_below=float((K < a)[off].mean()),
        median_rel_width=float(np.median(((b - a) / K)[off])),
        mean_within=float(K[same].mean()), mean_between=float(K[~same & off].mean()),
        fig1=fig1, pairs=pairs,
        min_eig=dict(raw_nominal=min_eigenvalue(raw), max_eig_raw_nominal=float(np.linalg.eigvalsh(raw)[-1]),
                     nominal=min_eigenvalue(K), K_bar=min_eigenvalue(ks.K_bar),
                     draws_min=min(min_eigenvalue(Kl) for Kl in ks.K_draws),
                     a=min_eigenvalue(a), b=min_eigenvalue(b)),
        width_vs_resolution=_width_vs_resolution(data.resolution, a, b),
    )


@task_name("robustpapers.structures.experiments:multi_instance_task")
def multi_instance_task(seed, n_families, n_members, length, L, l, sigma):
    """Normalised multi-instance set kernel (bhadra2010 §5.2) next to K_bar on the same draws; support over
    all pairs of copies (bental2012 §7.7) against the min/max over draws (bental2012 §7.1.2)."""
    data = _data(seed, n_families, n_members, length)
    draws = perturb_structures(data.coords, data.resolution, L, random_state=seed + 2)
    bags = [[d[i] for d in draws] for i in range(len(data))]
    Kmi, a_all, b_all = multi_instance_kernel(bags, l=l, sigma=sigma, return_support=True)
    Kd = np.stack([substructure_kernel_matrix(d, l=l, sigma=sigma) for d in draws])
    off = ~np.eye(len(data), dtype=bool)
    return dict(min_eig_mi=min_eigenvalue(Kmi), corr_mi_bar=float(np.corrcoef(Kmi[off], Kd.mean(0)[off])[0, 1]),
                a_all_le_a=bool(np.all(a_all <= Kd.min(0) + 1e-12)), b_all_ge_b=bool(np.all(b_all >= Kd.max(0) - 1e-12)),
                mean_width_draws=float((Kd.max(0) - Kd.min(0))[off].mean()),
                mean_width_all_pairs=float((b_all - a_all)[off].mean()))


@task_name("robustpapers.structures.experiments:fourier_accuracy_task")
def fourier_accuracy_task(seed, lengths, l, sigma, n_pairs, tol):
    """Largest relative difference between the Fourier-factorised and the exact kernel on random pairs."""
    rng = np.random.default_rng(seed)
    worst = 0.0
    for length in lengths:
        data = _data(int(rng.integers(2 ** 31)), 2, n_pairs, length)
        for k in range(n_pairs):
            P, Q = data.coords[k], data.coords[n_pairs + k]
            e = substructure_kernel(P, Q, l=l, sigma=sigma, method="exact")
            f = substructure_kernel(P, Q, l=l, sigma=sigma, method="fourier", tol=tol)
            worst = max(worst, abs(f - e) / e)
    return dict(max_rel_diff=worst)


#: Trace lengths (residues) of the spread-by-length measurement; 12 is the analog's.
SPREAD_LENGTHS = (12, 24, 36, 48)


@task_name("robustpapers.structures.experiments:spread_by_length_task")
def spread_by_length_task(seed, n_families, n_members, lengths, L, l, sigma, C=10.0):
    r"""The kernel spread under resolution draws against the trace length (bental2012 §2, Fig. 1).

    For each template length: the relative width :math:`(b_{ij} - a_{ij}) / K_{ij}` of the range over the
    ``L`` draws, its median over the pairs of one family (the kind of pair of the paper's example,
    1.3585 in [1.1542, 1.4964], 25.2 %) and over all pairs, the share of nominal values inside their own range,
    the mean kernel within and between families, and the nominal SVM's leave-one-out accuracy averaged over the
    one-vs-one problems (bental2012 §7.7's difficulty; the paper's NE column of Table 2 averages 71.57 %)."""
    out = []
    for length in lengths:
        data = _data(seed, n_families, n_members, length)
        ks = build_kernel_set(data.coords, data.resolution, L=L, l=l, sigma=sigma, random_state=seed + 1)
        n = len(data)
        off = ~np.eye(n, dtype=bool)
        same = (data.y[:, None] == data.y[None]) & off
        K, a, b = ks.K_nominal, ks.a, ks.b
        width = (b - a) / K
        loo = [1.0 - loo_svm_error(K[np.ix_(idx, idx)], y, C)
               for idx, y in (data.pair(f1, f2) for f1, f2 in itertools.combinations(range(n_families), 2))]
        out.append(dict(length=int(length), mean_residues=float(np.mean([len(X) for X in data.coords])),
                        median_width_within=float(np.median(width[same])),
                        median_width_all=float(np.median(width[off])),
                        share_inside=float(((K >= a) & (K <= b))[off].mean()),
                        mean_within=float(K[same].mean()), mean_between=float(K[~same & off].mean()),
                        loo_nominal_mean=float(np.mean(loo)), loo_nominal_min=float(np.min(loo))))
    return dict(rows=out)
