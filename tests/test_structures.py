"""Tests of robustpapers.structures: the App. C substructure kernel, resolution draws, kernel sets,
the multi-instance set kernel and the structure-family generator."""
import itertools

import numpy as np
import pytest

from robustpapers.core import is_psd
from robustpapers.structures import (
    build_kernel_set, make_structure_families, multi_instance_kernel, pds_matrix, perturb_structure,
    perturb_structures, random_rotation, substructure_kernel, substructure_kernel_matrix, substructures,
    trace_from_angles,
)


def _walk(rng, n):
    d = rng.normal(size=(n - 1, 3))
    d /= np.linalg.norm(d, axis=1, keepdims=True)
    return np.vstack([np.zeros(3), np.cumsum(3.8 * d, axis=0)])


def _loop_kernel(P, Q, l, sigma):
    """000 App. C written out with plain loops, independently of the library."""
    def subs(X):
        n = len(X)
        D = [[float(np.sqrt(sum((X[a][k] - X[b][k]) ** 2 for k in range(3)))) for b in range(n)] for a in range(n)]
        N = [sorted(range(n), key=lambda b: (b != a, D[a][b]))[:l] for a in range(n)]
        return D, N

    DP, NP = subs(P)
    DQ, NQ = subs(Q)

    def kpds(S, T, DA, DB):
        tot = 0.0
        for pi in itertools.permutations(range(l)):
            s2 = sum((DA[S[u]][S[v]] - DB[T[pi[u]]][T[pi[v]]]) ** 2 for u, v in itertools.combinations(range(l), 2))
            tot += np.exp(-s2 / sigma ** 2)
        return tot

    A = [[kpds(NP[a], NQ[c], DP, DQ) for c in range(len(Q))] for a in range(len(P))]
    tot = 0.0
    for a, b in itertools.product(range(len(P)), repeat=2):
        for c, d in itertools.product(range(len(Q)), repeat=2):
            tot += A[a][c] * A[b][d] * np.exp(-(DP[a][b] - DQ[c][d]) ** 2 / sigma ** 2)
    return tot


@pytest.fixture
def rng():
    return np.random.default_rng(20121)


@pytest.fixture
def small():
    return make_structure_families(n_families=3, n_members=3, length=9, random_state=3)


# ---------------------------------------------------------------- the kernel of 000 App. C


@pytest.mark.parametrize("l,sigma", [(2, 1.5), (3, 2.0), (4, 3.0)])
@pytest.mark.parametrize("method", ["exact", "fourier"])
def test_kernel_equals_loop_evaluation(rng, l, sigma, method):
    P, Q = _walk(rng, 6), _walk(rng, 5)
    ref = _loop_kernel(P, Q, l, sigma)
    val = substructure_kernel(P, Q, l=l, sigma=sigma, method=method)
    np.testing.assert_allclose(val, ref, rtol=1e-9)


def test_pds_matrix_equals_sum_over_permutations(rng):
    P, Q = _walk(rng, 6), _walk(rng, 7)
    l, sigma = 3, 1.7
    dP, dQ = substructures(P, l), substructures(Q, l)
    pairs = list(itertools.combinations(range(l), 2))
    ref = np.zeros((6, 7))
    for a in range(6):
        for c in range(7):
            for pi in itertools.permutations(range(l)):
                perm = [pairs.index(tuple(sorted((pi[u], pi[v])))) for u, v in pairs]
                ref[a, c] += np.exp(-np.sum((dP[a] - dQ[c][perm]) ** 2) / sigma ** 2)
    np.testing.assert_allclose(pds_matrix(P, Q, l=l, sigma=sigma), ref, rtol=1e-12)


def test_substructures_are_nearest_residues(rng):
    X = _walk(rng, 8)
    d = substructures(X, 3)
    D = np.linalg.norm(X[:, None] - X[None], axis=-1)
    for a in range(8):
        key = np.where(np.arange(8) == a, -1.0, np.round(D[a], 6))
        nb = np.argsort(key, kind="stable")[:3]  # ties (to 1e-6 A): lower index
        expected = sorted(D[u, v] for u, v in itertools.combinations(nb, 2))
        np.testing.assert_allclose(sorted(d[a]), expected)


@pytest.mark.parametrize("method", ["exact", "fourier"])
def test_kernel_symmetric_in_its_arguments(rng, method):
    P, Q = _walk(rng, 9), _walk(rng, 11)
    k1 = substructure_kernel(P, Q, l=4, method=method)
    k2 = substructure_kernel(Q, P, l=4, method=method)
    np.testing.assert_allclose(k1, k2, rtol=1e-10)


@pytest.mark.parametrize("method", ["exact", "fourier"])
def test_kernel_invariant_to_rigid_motion(rng, method):
    P, Q = _walk(rng, 10), _walk(rng, 8)
    k = substructure_kernel(P, Q, l=3, method=method)
    Rp, Rq = random_rotation(rng), random_rotation(rng)
    P2 = P @ Rp.T + rng.normal(scale=30, size=3)
    Q2 = Q @ Rq.T + rng.normal(scale=30, size=3)
    np.testing.assert_allclose(substructure_kernel(P2, Q, l=3, method=method), k, rtol=1e-10)
    np.testing.assert_allclose(substructure_kernel(P, Q2, l=3, method=method), k, rtol=1e-10)
    # a reflection is an isometry too: the kernel sees only distances
    np.testing.assert_allclose(substructure_kernel(-P, Q, l=3, method=method), k, rtol=1e-10)


def test_fourier_within_its_error_bound(rng):
    from robustpapers.structures.kernel import _Engine, _pds

    P, Q = _walk(rng, 14), _walk(rng, 12)
    for tol in (1e-4, 1e-8, 1e-12):
        eng = _Engine([P, Q], 3, 2.0, 2.0, "fourier", tol)
        A = _pds(eng.feats[0], eng.feats[1], 2.0)
        exact = substructure_kernel(P, Q, l=3, sigma=2.0, method="exact")
        assert eng.bound <= tol
        assert abs(eng.pair(0, 1) - exact) <= eng.bound * A.sum() ** 2 + 1e-12 * exact


def test_matrix_blocks_consistent(small):
    X = small.coords
    K = substructure_kernel_matrix(X, l=3)
    assert np.array_equal(K, K.T)
    np.testing.assert_allclose(np.diag(K), 1.0)
    Kxy = substructure_kernel_matrix(X[:4], X[4:], l=3)
    np.testing.assert_allclose(Kxy, K[:4, 4:], rtol=1e-10)
    raw = substructure_kernel_matrix(X, l=3, normalize=False)
    np.testing.assert_allclose(K, raw / np.sqrt(np.outer(np.diag(raw), np.diag(raw))), rtol=1e-12)
    np.testing.assert_allclose(raw[1, 5], substructure_kernel(X[1], X[5], l=3, method="exact"), rtol=1e-8)


def test_kernel_matrix_parallel_equals_serial(small):  # joblib start-up dominates the time
    K1 = substructure_kernel_matrix(small.coords, l=3, n_jobs=1)
    K2 = substructure_kernel_matrix(small.coords, l=3, n_jobs=2)
    np.testing.assert_allclose(K1, K2, rtol=1e-13)


def test_low_memory_path_equals_stored_features(small, monkeypatch):
    from robustpapers.structures.kernel import _Engine

    K = substructure_kernel_matrix(small.coords, l=3, normalize=False)
    monkeypatch.setattr(_Engine, "max_bytes", 0)  # forces per-pair features (long real structures)
    np.testing.assert_allclose(substructure_kernel_matrix(small.coords, l=3, normalize=False), K, rtol=1e-12)


def test_kernel_matrix_is_psd():
    data = make_structure_families(n_families=4, n_members=5, length=12, random_state=1)
    for method in ("fourier", "exact"):
        raw = substructure_kernel_matrix(data.coords, l=3, normalize=False, method=method)
        assert is_psd(raw)
        assert is_psd(substructure_kernel_matrix(data.coords, l=3, method=method))


# ---------------------------------------------------------------- resolution draws


def test_perturbations_within_resolution_bound(rng):
    X = _walk(rng, 30)
    for r in (0.0, 1.5, 3.0):
        Z = perturb_structure(X, r, size=200, random_state=1)
        dev = np.abs(Z - X)
        assert dev.max() <= r / 2
        if r > 0:  # uniform on the whole box: the extremes are approached, the mean is 0
            assert dev.max() > 0.99 * r / 2
            assert abs((Z - X).mean()) < 0.01 * r
    draws = perturb_structures([X, X[:10]], [1.0, 2.5], L=7, random_state=2)
    assert len(draws) == 7
    for d in draws:
        assert np.abs(d[0] - X).max() <= 0.5 and np.abs(d[1] - X[:10]).max() <= 1.25


def test_perturbations_seeded(rng):
    X = _walk(rng, 5)
    a = perturb_structure(X, 2.0, size=3, random_state=5)
    b = perturb_structure(X, 2.0, size=3, random_state=5)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, perturb_structure(X, 2.0, size=3, random_state=6))


def test_kernel_set_matches_definitions(small):
    ks = build_kernel_set(small.coords, small.resolution, L=4, l=3, random_state=0, keep_draws=True)
    n = len(small)
    assert ks.K_draws.shape == (4, n, n)
    for l, d in enumerate(ks.draws):  # K_l is the kernel of the l-th draw of every structure
        np.testing.assert_allclose(ks.K_draws[l], substructure_kernel_matrix(d, l=3), rtol=1e-12)
        for i in range(n):
            assert np.abs(d[i] - small.coords[i]).max() <= small.resolution[i] / 2
    np.testing.assert_allclose(ks.K_bar, ks.K_draws.sum(axis=0) / 4, rtol=1e-14)
    assert np.array_equal(ks.a, np.min(ks.K_draws, axis=0))
    assert np.array_equal(ks.b, np.max(ks.K_draws, axis=0))
    np.testing.assert_allclose(ks.K_nominal, substructure_kernel_matrix(small.coords, l=3), rtol=1e-12)
    for K in (ks.K_nominal, ks.K_bar, *ks.K_draws):
        assert is_psd(K)
    again = build_kernel_set(small.coords, small.resolution, L=4, l=3, random_state=0)
    assert np.array_equal(again.K_draws, ks.K_draws) and again.draws is None


def test_problems_and_subsets(small):
    ks = build_kernel_set(small.coords, small.resolution, L=3, l=3, random_state=0)
    idx, y = small.pair(0, 2)
    assert np.all(small.y[idx[y == 1]] == 0) and np.all(small.y[idx[y == -1]] == 2)
    sub = ks.subset(idx)
    np.testing.assert_array_equal(sub.K_draws, ks.K_draws[:, idx][:, :, idx])
    np.testing.assert_array_equal(sub.a, ks.a[np.ix_(idx, idx)])
    rect = ks.subset(idx[:2], idx[2:])
    assert rect.K_draws.shape == (3, 2, idx.size - 2) and np.array_equal(rect.b, ks.b[np.ix_(idx[:2], idx[2:])])
    idx2, y2 = small.one_vs_rest(1, random_state=0)
    assert (y2 == 1).sum() == (y2 == -1).sum() == 3 and np.all(small.y[idx2[y2 == -1]] != 1)
    with pytest.raises(ValueError, match="two different families"):
        small.pair(1, 1)
    with pytest.raises(ValueError, match="family"):
        small.pair(0, 7)


def test_kernel_set_zero_resolution_is_nominal(small):
    ks = build_kernel_set(small.coords, 0.0, L=2, l=3, random_state=0)
    np.testing.assert_allclose(ks.a, ks.K_nominal, rtol=1e-12)
    np.testing.assert_allclose(ks.b, ks.K_nominal, rtol=1e-12)


def test_multi_instance_kernel_definition(small):
    X = small.coords[:4]
    draws = perturb_structures(X, small.resolution[:4], L=3, random_state=0)
    bags = [[d[i] for d in draws] for i in range(4)]
    Kmi, a, b = multi_instance_kernel(bags, l=3, return_support=True)
    base = np.array([[substructure_kernel(p, q, l=3, normalize=True) for q in (z for bag in bags for z in bag)]
                     for p in (z for bag in bags for z in bag)])
    S = base.reshape(4, 3, 4, 3).sum(axis=(1, 3))
    np.testing.assert_allclose(Kmi, S / np.sqrt(np.outer(np.diag(S), np.diag(S))), rtol=1e-9)
    np.testing.assert_allclose(a, base.reshape(4, 3, 4, 3).min(axis=(1, 3)), rtol=1e-9)
    np.testing.assert_allclose(b, base.reshape(4, 3, 4, 3).max(axis=(1, 3)), rtol=1e-9)
    assert is_psd(Kmi)
    # all pairs of copies contain the same-draw pairs: a wider support than min/max over draws
    Kd = np.stack([substructure_kernel_matrix(d, l=3) for d in draws])
    assert np.all(a <= Kd.min(axis=0) + 1e-12) and np.all(b >= Kd.max(axis=0) - 1e-12)


# ---------------------------------------------------------------- the generator


def test_generator_geometry_and_seeding():
    kw = dict(n_families=5, n_members=4, length=14, coord_noise=0.0)
    data = make_structure_families(random_state=7, **kw)
    assert len(data) == 20 and np.bincount(data.y).tolist() == [4] * 5
    for X in data.coords:  # C-alpha spacing 3.8 A, rigid motions preserve it
        np.testing.assert_allclose(np.linalg.norm(np.diff(X, axis=0), axis=1), 3.8, rtol=1e-10)
    assert np.all((data.resolution >= 1.5) & (data.resolution <= 3.0))
    again = make_structure_families(random_state=7, **kw)
    assert all(np.array_equal(a, b) for a, b in zip(data.coords, again.coords))
    other = make_structure_families(random_state=8, **kw)
    assert not all(np.array_equal(a, b) for a, b in zip(data.coords, other.coords))
    lengths = {len(X) for X in make_structure_families(n_families=3, n_members=8, length=14, indel_rate=2.0,
                                                       random_state=0).coords}
    assert len(lengths) > 1  # insertions/deletions change lengths


def test_trace_from_angles_reproduces_geometry():
    X = trace_from_angles(np.full(12, 91.0), np.full(12, 50.0))
    v1, v2 = X[1] - X[2], X[3] - X[2]
    ang = np.degrees(np.arccos(v1 @ v2 / np.linalg.norm(v1) / np.linalg.norm(v2)))
    np.testing.assert_allclose(ang, 91.0, atol=1e-9)
    b0, b1, b2 = X[4] - X[3], X[5] - X[4], X[6] - X[5]
    n1, n2 = np.cross(b0, b1), np.cross(b1, b2)
    tors = np.degrees(np.arctan2(np.linalg.norm(b1) * b0 @ n2, n1 @ n2))
    np.testing.assert_allclose(abs(tors), 50.0, atol=1e-9)


def test_families_are_more_similar_within_than_across():
    data = make_structure_families(n_families=4, n_members=5, length=12, random_state=2)
    K = substructure_kernel_matrix(data.coords, l=3)
    same = data.y[:, None] == data.y[None]
    off = ~np.eye(len(data), dtype=bool)
    assert K[same & off].mean() > K[~same].mean()


# ---------------------------------------------------------------- bad input


def test_bad_input_raises(rng):
    X = _walk(rng, 6)
    with pytest.raises(ValueError, match="fewer than the substructure size"):
        substructure_kernel(X[:3], X, l=4)
    with pytest.raises(ValueError, match="fewer than the substructure size"):
        substructure_kernel_matrix([X, X[:2]], l=3)
    bad = X.copy()
    bad[2, 1] = np.nan
    with pytest.raises(ValueError, match="NaN or inf"):
        substructure_kernel(bad, X, l=3)
    bad[2, 1] = np.inf
    with pytest.raises(ValueError, match="NaN or inf"):
        build_kernel_set([X, bad], [1.0, 1.0], L=2, l=3)
    with pytest.raises(ValueError, match=">= 0"):
        perturb_structure(X, -0.5)
    with pytest.raises(ValueError, match=">= 0"):
        build_kernel_set([X, X], [1.0, -1.0], L=2, l=3)
    with pytest.raises(ValueError, match="shape"):
        substructure_kernel(X[:, :2], X, l=3)
    with pytest.raises(ValueError, match="sigma"):
        substructure_kernel(X, X, l=3, sigma=0.0)
    with pytest.raises(ValueError, match="method"):
        substructure_kernel(X, X, l=3, method="fast")
    with pytest.raises(ValueError, match="l"):
        substructure_kernel(X, X, l=1)
    with pytest.raises(ValueError, match="L"):
        perturb_structures([X], [1.0], L=0)
    with pytest.raises(ValueError, match="entries"):
        perturb_structures([X, X], [1.0, 1.0, 1.0], L=2)
    with pytest.raises(ValueError, match="length"):
        make_structure_families(length=2)
    with pytest.raises(ValueError, match="resolution_range"):
        make_structure_families(resolution_range=(3.0, 1.0))


def test_spread_by_length_task_widths():
    """One draw spans no range (width 0, every nominal value outside or on it); with several draws the range is
    positive, and the nominal SVM's LOO accuracy is a mean of accuracies."""
    from robustpapers.reproduce.structures.experiments import spread_by_length_task

    one = spread_by_length_task(0, 3, 3, [8, 12], 1, 3, 4.0)["rows"]
    assert [r["length"] for r in one] == [8, 12]
    assert all(r["median_width_within"] == 0 and r["median_width_all"] == 0 for r in one)
    many = spread_by_length_task(0, 3, 3, [8], 6, 3, 4.0)["rows"][0]
    assert many["median_width_all"] > 0 and 0 <= many["share_inside"] <= 1
    assert 0 <= many["loo_nominal_min"] <= many["loo_nominal_mean"] <= 1
    assert many["mean_within"] > many["mean_between"]  # families are alike inside, less so across
