"""003 Table 2 on the structure analog: LOO protocol, score definitions, kernel sets and identities."""
import numpy as np
import pytest
from sklearn.metrics import accuracy_score, f1_score

from robustpapers.reproduce.bhadra2010.protein_experiments import (
    RSVM_METHODS, TABLE2_METHODS, _copies, f1_score_pos, fit_decisions, loo_decisions, loo_decisions_grid,
    loo_split,
    problem_kernels, table2_scores, table2_task,
)
from robustpapers.structures import make_structure_families, multi_instance_kernel, substructure_kernel_matrix

KW = dict(l=3, sigma=4.0)


@pytest.fixture(scope="module")
def problem():
    data = make_structure_families(n_families=3, n_members=3, length=8, random_state=1)
    idx, y = data.one_vs_rest(0, random_state=2)
    kern = problem_kernels([data.coords[i] for i in idx], data.resolution[idx], 3, seed=5, index=idx, **KW)
    return data, idx, y, kern


def _corrupt(kern, t, value=np.nan):
    """A copy of ``kern`` with every kernel value that involves structure ``t`` (or its copies) replaced."""
    out = {}
    for k, v in kern.items():
        v = v.copy()
        if k == "K_all":
            v[t], v[:, :, t] = value, value
        elif k == "K_draws":
            v[:, t], v[:, :, t] = value, value
        elif k == "mi_copy":
            v[t], v[:, :, t] = value, value
        else:
            v[t], v[:, t] = value, value
        out[k] = v
    return out


def test_loo_training_blocks_never_contain_the_held_out_structure(problem):
    _, _, y, kern = problem
    for t in range(y.size):
        clean, _ = loo_split(kern, t)
        dirty, test = loo_split(_corrupt(kern, t), t)
        for k in clean:
            assert np.isfinite(dirty[k]).all(), k
            np.testing.assert_array_equal(dirty[k], clean[k])
        # the test rows are exactly the held-out structure's values, so they are all corrupted
        assert all(np.isnan(v).all() for v in test.values())


def test_corrupting_a_training_structure_does_reach_training(problem):
    _, _, y, kern = problem
    dirty, _ = loo_split(_corrupt(kern, 1), 0)
    assert all(np.isnan(v).any() for v in dirty.values())


@pytest.mark.parametrize("method", TABLE2_METHODS)
def test_loo_decisions_independent_of_held_out_values_in_training(problem, method):
    # the fold-t classifier sees only training blocks: replacing t's values by garbage everywhere
    # except in its own test rows leaves its decisions unchanged
    _, _, y, kern = problem
    t = 2
    train, test = loo_split(kern, t)
    dirty_train, _ = loo_split(_corrupt(kern, t, value=7.0), t)
    yt = np.delete(y, t)
    f0 = fit_decisions(method, train, test, yt, 10.0, 0.2, n_starts=2, random_state=0)
    f1 = fit_decisions(method, dirty_train, test, yt, 10.0, 0.2, n_starts=2, random_state=0)
    np.testing.assert_allclose(f1, f0, rtol=0, atol=0)
    assert f0.shape == ((1,) if method == "MI" else (3,))


def test_problem_kernels_match_the_structures_public_api(problem):
    data, idx, y, kern = problem
    L = 3
    bags = [list(_copies(data.coords[i], data.resolution[i], L, 5, i)) for i in idx]
    K_mi, a, b = multi_instance_kernel(bags, return_support=True, **KW)
    np.testing.assert_allclose(kern["K_multi"], K_mi, atol=1e-12)
    np.testing.assert_allclose(kern["a"], a, atol=1e-12)
    np.testing.assert_allclose(kern["b"], b, atol=1e-12)
    for s in range(L):
        np.testing.assert_allclose(kern["K_draws"][s], substructure_kernel_matrix([q[s] for q in bags], **KW),
                                   atol=1e-12)
    np.testing.assert_allclose(kern["K_nominal"], substructure_kernel_matrix([data.coords[i] for i in idx], **KW),
                               atol=1e-12)
    # 000 §7.1.2 / 003 §5.2: a <= K_l <= b for every draw, hence a <= K_bar <= b
    assert (kern["a"][None] <= kern["K_draws"] + 1e-12).all() and (kern["K_draws"] <= kern["b"][None] + 1e-12).all()
    # a copy's singleton-set kernel against Q_j, summed over its own set with weights, gives K_multi's numerator
    S = kern["K_all"].sum(axis=(1, 3))
    num = (kern["mi_copy"] * np.sqrt(np.diag(S))[None, None, :]).sum(axis=1)  # K(p, p) = 1 (normalised)
    np.testing.assert_allclose(num, S, rtol=1e-10)


def test_copies_are_those_of_the_structure_in_every_problem(problem):
    data, idx, y, kern = problem
    # structure idx[0] in another problem (with other companions) gets the same copies and kernel values
    other = problem_kernels([data.coords[i] for i in idx[:2]], data.resolution[idx[:2]], 3, seed=5,
                            index=idx[:2], **KW)
    np.testing.assert_allclose(other["K_all"], kern["K_all"][:2, :, :2], atol=1e-12)


def test_scores_match_independent_definitions():
    rng = np.random.default_rng(0)
    y = np.array([1, 1, 1, -1, -1, 1, -1, -1, 1, -1])
    F = rng.normal(0.3 * y, 1.0, size=(7, y.size))
    s = table2_scores(y, F)
    maj = np.where(np.sign(F).sum(0) > 0, 1, -1)
    rob = np.where((np.sign(F) == y).all(0), y, -y)
    flat_y, flat_p = np.tile(y, 7), np.where(F > 0, 1, -1).ravel()
    assert s["ME_TA"] == pytest.approx(100 * accuracy_score(y, maj))
    assert s["ME_F1"] == pytest.approx(100 * f1_score(y, maj))
    assert s["RE_TA"] == pytest.approx(100 * accuracy_score(y, rob))
    assert s["RE_F1"] == pytest.approx(100 * f1_score(y, rob, zero_division=0.0))
    assert s["NE_TA"] == pytest.approx(100 * accuracy_score(flat_y, flat_p))
    assert s["NE_F1"] == pytest.approx(100 * f1_score(flat_y, flat_p))
    # a point robustly correct is correct by majority: RE accuracy <= ME accuracy
    assert s["RE_TA"] <= s["ME_TA"]


def test_scores_with_one_sample_coincide_and_ties_count_as_errors():
    y = np.array([1, -1, 1, -1])
    s = table2_scores(y, np.array([[0.5, -0.2, -1.0, 0.0]]))
    assert s["ME_TA"] == s["RE_TA"] == s["NE_TA"] == 50.0
    assert s["ME_F1"] == s["RE_F1"] == s["NE_F1"] == pytest.approx(100 * f1_score(y, [1, -1, -1, 1]))
    # a tied vote (two samples of opposite sign) is wrong
    assert table2_scores(np.array([1, -1]), np.array([[1.0, -1.0], [-1.0, -1.0]]))["ME_TA"] == 50.0


def test_f1_definition():
    y = np.array([1, 1, 1, -1, -1])
    p = np.array([1, -1, 1, 1, -1])
    assert f1_score_pos(y, p) == pytest.approx(f1_score(y, p))
    assert f1_score_pos(y, y) == 1.0
    assert f1_score_pos(-np.ones(3), -np.ones(3)) == 0.0


@pytest.mark.parametrize("method", list(RSVM_METHODS))
def test_rsvm_at_kappa_zero_equals_svm_m(problem, method):
    # 003 §5.1.2: at kappa = 0 RSVM ignores the uncertainty and is the SVM on K_bar (SVM_M)
    _, _, y, kern = problem
    F_m = loo_decisions("SVM_M", kern, y, 10.0)
    F_r = loo_decisions(method, kern, y, 10.0, None, n_starts=3)
    np.testing.assert_allclose(F_r, F_m, atol=2e-3)
    assert np.array_equal(np.sign(F_r), np.sign(F_m))


def test_one_copy_makes_every_kernel_method_the_same_svm(problem):
    # with L = 1: K_bar = K_1, a = b (beta = 0), every copy is the structure's only copy, so
    # RSVM (any eps) = SVM_M = SVM_R on the copies
    data, idx, y, _ = problem
    kern = problem_kernels([data.coords[i] for i in idx], data.resolution[idx], 1, seed=5, index=idx, **KW)
    ref = loo_decisions("SVM_M", kern, y, 10.0)
    np.testing.assert_allclose(loo_decisions("SVM_R", kern, y, 10.0), ref, atol=1e-8)
    np.testing.assert_allclose(loo_decisions("RSVM_QP", kern, y, 10.0, 0.05), ref, atol=1e-6)
    np.testing.assert_allclose(loo_decisions("MI_copies", kern, y, 10.0), loo_decisions("MI", kern, y, 10.0),
                               atol=1e-10)


def test_task_protocol_balanced_and_scores_consistent():
    out = table2_task(seed=0, family=1, rep=0, n_families=3, n_members=3, length=8, L=2, l=3, sigma=4.0,
                      Cs=[10.0], epss=[0.2], n_starts=2, methods=("SVM_M", "MI", "RSVM_QP"))
    y = np.array(out["y"])
    assert (y == 1).sum() == (y == -1).sum() == 3
    assert len(out["records"]) == 3
    for r in out["records"]:
        assert 0 <= r["RE_TA"] <= r["ME_TA"] <= 100
        if r["method"] == "MI":
            assert r["ME_TA"] == r["RE_TA"] == r["NE_TA"]
    assert 0 <= out["neg_eig_share"] <= 1


def test_bad_inputs(problem):
    data, idx, y, kern = problem
    train, test = loo_split(kern, 0)
    with pytest.raises(ValueError, match="method"):
        fit_decisions("SVM_X", train, test, np.delete(y, 0), 1.0)
    with pytest.raises(ValueError, match="held-out index"):
        loo_split(kern, y.size)
    with pytest.raises(ValueError, match="one column per structure"):
        table2_scores(y, np.ones((2, y.size + 1)))
    with pytest.raises(ValueError, match="resolution"):
        problem_kernels(data.coords[:2], data.resolution[:3], 2)
    with pytest.raises(ValueError, match="L"):
        problem_kernels(data.coords[:2], data.resolution[:2], 0)
    with pytest.raises(ValueError, match="eps"):
        fit_decisions("RSVM_QP", train, test, np.delete(y, 0), 1.0, 0.7)
    with pytest.raises(ValueError, match="method"):
        table2_task(seed=0, family=0, rep=0, n_families=3, n_members=2, length=8, L=1, l=3, sigma=4.0,
                    Cs=[1.0], epss=[0.1], n_starts=1, methods=("nope",))


def test_socp_equals_qp_when_beta_has_one_positive_eigenvalue(problem):
    # beta has a zero diagonal on the analog (normalised kernel: trace 0, so never PSD); when such a hollow
    # matrix has a single positive eigenvalue, its PSD part (RSVM_SOCP's approximation) is its principal
    # rank-one part (RSVM_QP's), and the two rows of Table 2 coincide
    from robustpapers.bhadra2010 import rsvm
    from robustpapers.reproduce.bhadra2010.protein_experiments import beta_diagnostics

    _, _, y, kern = problem
    train, _ = loo_split(kern, 0)
    yt = np.delete(y, 0).astype(float)
    diag = beta_diagnostics(train["K_bar"], train["a"], train["b"])
    assert diag["neg_eig_share"] == pytest.approx(0.5)  # trace 0: negative and positive mass equal
    m = yt.size
    beta = 0.01 * (np.ones((m, m)) - np.eye(m))  # hollow, eigenvalues 0.01 (m - 1) and -0.01
    qp = rsvm(train["K_bar"], yt, 10.0, beta, 1.5, method="qp", beta_approx="principal")
    socp = rsvm(train["K_bar"], yt, 10.0, beta, 1.5, method="socp", beta_approx="psd")
    np.testing.assert_allclose(socp.alpha, qp.alpha, atol=1e-4 * 10.0)


@pytest.mark.parametrize("method", ["RSVM_QN", "RSVM_SOCP", "RSVM_QP", "SVM_M"])
def test_loo_decisions_grid_is_loo_decisions_at_each_point(problem, method):
    """The grid version (one rsvm_many call per LOO fold for the RSVM rows) returns what loo_decisions returns
    at each (C, eps), to the last bit (eps = None: kappa = 0)."""
    _, _, y, kern = problem
    grid = [(1.0, 0.1), (10.0, 0.3), (10.0, None)]
    seeds = [11, 12, 13]
    Fs = loo_decisions_grid(method, kern, y, grid, n_starts=2, seeds=seeds)
    for (C, eps), sd, F in zip(grid, seeds, Fs):
        np.testing.assert_array_equal(F, loo_decisions(method, kern, y, C, eps, n_starts=2, seed=sd))


def test_table2_paper_scale_tasks_are_the_pages_and_split_by_family():
    """scripts/paper_scale.py computes Table 2 at the paper's settings a family at a time, with the task
    parameters the page builds (hence the same cache keys)."""
    from robustpapers.reproduce.bhadra2010.experiments import paper_scale_tasks
    from robustpapers.reproduce.bhadra2010.protein_experiments import TABLE2_KERNEL, TABLE2_SETTINGS, table2_tasks

    func, tasks, exp, version = paper_scale_tasks("table2_proteins")
    S = TABLE2_SETTINGS["paper"]
    assert (func, exp, version) == (table2_task, "table2_proteins", 4)
    assert len(tasks) == S["n_families"] * S["reps"] == 150
    assert all(t["L"] == 50 and t["n_starts"] == 100 and t["l"] == TABLE2_KERNEL["l"] for t in tasks)
    _, some, _, _ = paper_scale_tasks("table2_proteins", datasets=[2, 7])
    assert some == [t for t in tasks if t["family"] in (2, 7)] and len(some) == 2 * S["reps"]
    assert table2_tasks(S) == tasks
    with pytest.raises(ValueError, match="not in the table2_proteins sweep"):
        paper_scale_tasks("table2_proteins", datasets=[15])
