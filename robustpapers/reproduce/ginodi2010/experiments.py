"""Task functions of the ginodi2010 experiments (module-level, picklable, ``func(**params) -> dict``).

Each is run through :func:`robustpapers.reproduce.engine.run_sweep` by the notebooks and cached in
``results/ginodi2010/<experiment>/``.
"""
from __future__ import annotations

import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from ...datasets import binary_subset, load_dataset
from ...ginodi2010.data import toy_gaussian, toy_multiclass, toy_narrow_outliers, toy_radial
from ...ginodi2010.guru import guru_lbfgs, guru_sgd
from ...ginodi2010.loss import guru_objective
from ..engine import task_name

__all__ = ["load_binary_split", "BINARY_SETS", "binary_table_task", "noise_task", "norm_vs_sigma_task",
           "adversary_digits_task", "sgd_vs_lbfgs_task", "duality_task", "kernel_table_task", "radial_task",
           "MULTI_SETS", "load_multi_split", "multi_table_task", "multi_curve_task", "asvc_task",
           "multiclass_asvc_task"]

#: The binary problems of Table 2.1: (source, train, validation, test, scaling).
BINARY_SETS = {
    "toy_a": ("toy_a", 200, 200, 200, False),
    "toy_b": ("toy_b", 200, 200, 200, False),
    "ionosphere": ("ionosphere", 100, 100, 151, True),
    "diabetes": ("pima", 200, 100, 468, True),
    "splice_1v2": ("splice", 500, 400, 635, True),
    "digits_3v5": ("mnist5000:3:5", 400, 300, None, False),
    "digits_5v8": ("mnist5000:5:8", 400, 300, None, False),
    "digits_7v9": ("mnist5000:7:9", 400, 300, None, False),
}


def _split(X, y, idx, ntr, nva, nte, scale):
    """Train / validation / test split of ``(X, y)`` along ``idx``, standardised on the training part."""
    tr, va = idx[:ntr], idx[ntr:ntr + nva]
    te = idx[ntr + nva:] if nte is None else idx[ntr + nva:ntr + nva + nte]
    Xtr, Xva, Xte = X[tr], X[va], X[te]
    if scale:
        sc = StandardScaler().fit(Xtr)
        Xtr, Xva, Xte = sc.transform(Xtr), sc.transform(Xva), sc.transform(Xte)
    return Xtr, y[tr], Xva, y[va], Xte, y[te]

def _raw(source, n, seed):
    if source == "toy_a":
        return toy_gaussian(n, random_state=seed)
    if source == "toy_b":
        return toy_narrow_outliers(n, random_state=seed)
    if source.startswith("mnist5000:"):
        _, p, q = source.split(":")
        ds = binary_subset(load_dataset("mnist5000"), int(p), int(q))
        return ds.X, ds.y
    if source == "splice":
        ds = binary_subset(load_dataset("splice"), "EI", "IE")
        return ds.X, ds.y
    ds = load_dataset(source)
    return ds.X, ds.y


def load_binary_split(name, seed, standardize=None):
    """Train / validation / test split of a Table 2.1 problem (toys are drawn fresh from ``seed``).

    Real sets are shuffled with ``seed`` and cut into the sizes of :data:`BINARY_SETS` (test = the
    rest when ``None``); features are standardised on the training part where the entry says so
    (``standardize`` overrides the entry).
    Returns ``(Xtr, ytr, Xva, yva, Xte, yte)``.
    """
    if name not in BINARY_SETS:
        raise ValueError(f"unknown problem {name!r}; choose one of {sorted(BINARY_SETS)}")
    source, ntr, nva, nte, scale = BINARY_SETS[name]
    scale = scale if standardize is None else bool(standardize)
    rng = np.random.RandomState(seed)
    if source.startswith("toy"):
        X, y = _raw(source, ntr + nva + nte, rng)
        idx = np.arange(len(y))
    else:
        X, y = _raw(source, None, None)
        idx = rng.permutation(len(y))
    return _split(X, y, idx, ntr, nva, nte, scale)


def _acc(y, f):
    return float(np.mean(np.where(f > 0, 1.0, -1.0) == y))


def _fit_guru_path(Xtr, ytr, sigmas):
    """L-BFGS solutions of (2.22) with a bias for every sigma (warm-started along the path)."""
    out = []
    w0 = None
    for s in sigmas:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            r = guru_lbfgs(Xtr, ytr, s, fit_intercept=True, tol=1e-7, max_iter=3000, w0=w0)
        w0 = r.w
        out.append(r)
    return out


def _fit_svm_path(Xtr, ytr, Cs):
    out = []
    for C in Cs:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            m = SVC(kernel="linear", C=C, max_iter=200000).fit(Xtr, ytr)
        out.append((m.coef_[0].copy(), float(m.intercept_[0]), bool(m.fit_status_ == 0)))
    return out


@task_name("robustpapers.ginodi2010.experiments:binary_table_task")
def binary_table_task(problem, seed, log2_sigmas, log4_Cs):
    """Table 2.2: GURU (L-BFGS on (2.22) with a bias) vs linear SVM (scikit-learn SVC), model selection on validation.

    Returns the validation-selected sigma and C, test accuracies, and per-sigma validation accuracy and norm.
    """
    Xtr, ytr, Xva, yva, Xte, yte = load_binary_split(problem, seed)
    sigmas = [2.0 ** k for k in log2_sigmas]
    Cs = [4.0 ** k for k in log4_Cs]
    guru = _fit_guru_path(Xtr, ytr, sigmas)
    g_val = [_acc(yva, Xva @ r.w + r.b) for r in guru]
    gi = int(np.argmax(g_val))                       # first (smallest sigma) among ties
    svm = _fit_svm_path(Xtr, ytr, Cs)
    s_val = [_acc(yva, Xva @ w + b) for w, b, _ in svm]
    si = int(np.argmax(s_val))
    return {
        "n_train": int(len(ytr)), "n_val": int(len(yva)), "n_test": int(len(yte)), "d": int(Xtr.shape[1]),
        "guru_sigma": float(sigmas[gi]), "guru_val": float(g_val[gi]),
        "guru_test": _acc(yte, Xte @ guru[gi].w + guru[gi].b),
        "svm_C": float(Cs[si]), "svm_val": float(s_val[si]), "svm_test": _acc(yte, Xte @ svm[si][0] + svm[si][1]),
        "guru_val_path": [float(v) for v in g_val], "guru_norm_path": [float(np.linalg.norm(r.w)) for r in guru],
        # a vanishing w (the constant classifier b = +-1) is a non-smooth optimum where the gradient
        # certificate does not apply; every other solution must have a small gradient
        "guru_n_constant": int(sum(np.linalg.norm(r.w) < 1e-6 for r in guru)),
        "guru_max_grad_nonconstant": float(max([r.grad_norm for r in guru if np.linalg.norm(r.w) >= 1e-6],
                                               default=0.0)),
        "svm_val_path": [float(v) for v in s_val], "svm_all_converged": bool(all(c for _, _, c in svm)),
    }


@task_name("robustpapers.ginodi2010.experiments:noise_task")
def noise_task(problem, seed, log2_sigmas, log4_Cs, noise_levels):
    """Figs. 2.5 / 2.7: train on clean data, add U(-x, x) noise to validation and test, select on noisy validation.

    One repetition (``seed`` draws the noise, and the toy data); returns test accuracies per noise level.
    """
    Xtr, ytr, Xva, yva, Xte, yte = load_binary_split(problem, 0 if not problem.startswith("toy") else seed)
    sigmas = [2.0 ** k for k in log2_sigmas]
    Cs = [4.0 ** k for k in log4_Cs]
    guru = _fit_guru_path(Xtr, ytr, sigmas)
    svm = _fit_svm_path(Xtr, ytr, Cs)
    rng = np.random.default_rng(seed)
    g_test, s_test, g_sig, s_C = [], [], [], []
    for x in noise_levels:
        Nva = rng.uniform(-x, x, size=Xva.shape) if x > 0 else 0.0
        Nte = rng.uniform(-x, x, size=Xte.shape) if x > 0 else 0.0
        gv = [_acc(yva, (Xva + Nva) @ r.w + r.b) for r in guru]
        gi = int(np.argmax(gv))
        sv = [_acc(yva, (Xva + Nva) @ w + b) for w, b, _ in svm]
        si = int(np.argmax(sv))
        g_test.append(_acc(yte, (Xte + Nte) @ guru[gi].w + guru[gi].b))
        s_test.append(_acc(yte, (Xte + Nte) @ svm[si][0] + svm[si][1]))
        g_sig.append(float(sigmas[gi]))
        s_C.append(float(Cs[si]))
    return {"guru_test": g_test, "svm_test": s_test, "guru_sigma": g_sig, "svm_C": s_C}


@task_name("robustpapers.ginodi2010.experiments:norm_vs_sigma_task")
def norm_vs_sigma_task(problem, seed, log2_sigmas):
    """Fig. 3.1: the norm of the optimal classifier (no bias, as in the thesis) against sigma."""
    Xtr, ytr, *_ = load_binary_split(problem, seed)
    norms, objs, gn = [], [], []
    w0 = None
    for k in log2_sigmas:
        r = guru_lbfgs(Xtr, ytr, 2.0 ** k, tol=1e-9, max_iter=5000, w0=w0)
        w0 = r.w
        norms.append(float(np.linalg.norm(r.w)))
        objs.append(float(r.objective))
        gn.append(float(r.grad_norm))
    return {"norm": norms, "objective": objs, "grad_norm": gn}


@task_name("robustpapers.ginodi2010.experiments:adversary_digits_task")
def adversary_digits_task(problem, seed, log2_sigma, n_digits, n_samples):
    """Fig. 2.6: samples of the worst-case Gaussian cloud x + sigma * w_hat * eps around a few digits."""
    Xtr, ytr, *_ = load_binary_split(problem, seed)
    sigma = 2.0 ** log2_sigma
    r = guru_lbfgs(Xtr, ytr, sigma, fit_intercept=True, tol=1e-7, max_iter=3000)
    w_hat = r.w / np.linalg.norm(r.w)
    rng = np.random.default_rng(seed)
    out = {}
    for cls in (1.0, -1.0):
        idx = np.flatnonzero(ytr == cls)[:n_digits]
        eps = rng.normal(size=(len(idx), n_samples))
        noisy = Xtr[idx][:, None, :] + sigma * eps[:, :, None] * w_hat[None, None, :]
        out["pos" if cls > 0 else "neg"] = Xtr[idx].tolist()
        out[("pos" if cls > 0 else "neg") + "_noisy"] = noisy.tolist()
        out[("pos" if cls > 0 else "neg") + "_noisy_score"] = (noisy @ r.w + r.b).tolist()
    out["w_hat"] = w_hat.tolist()
    return out


@task_name("robustpapers.ginodi2010.experiments:sgd_vs_lbfgs_task")
def sgd_vs_lbfgs_task(problem, seed, log2_sigma, eta0, max_epochs, average):
    """GURU (Algorithm 1) objective per epoch against the L-BFGS optimum on one problem and sigma."""
    Xtr, ytr, *_ = load_binary_split(problem, seed)
    sigma = 2.0 ** log2_sigma
    ref = guru_lbfgs(Xtr, ytr, sigma, tol=1e-10, max_iter=5000)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        res = guru_sgd(Xtr, ytr, sigma, eta0=eta0, average=average, tol=1e-12, max_iter=max_epochs,
                       random_state=seed)
    return {"optimum": float(ref.objective), "grad_norm": float(ref.grad_norm),
            "sgd_objective": [float(v) for v in res.trace["objective"]],
            "final_rel_gap": float((res.objective - ref.objective) / ref.objective),
            "G0": float(guru_objective(np.zeros(Xtr.shape[1]), Xtr, ytr, sigma))}


@task_name("robustpapers.ginodi2010.experiments:duality_task")
def duality_task(problem, seed, log2_sigma, n):
    """Strong duality (3.22) and norm recovery (3.20)/(3.23) on the first ``n`` training points."""
    from ...ginodi2010.dual import dual_from_primal, guru_dual, norm_from_alpha_320, norm_from_alpha_323

    Xtr, ytr, *_ = load_binary_split(problem, seed)
    X, y = Xtr[:n], ytr[:n]
    sigma = 2.0 ** log2_sigma
    p = guru_lbfgs(X, y, sigma, tol=1e-11, max_iter=5000)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        d = guru_dual(X, y, sigma, max_iter=2000)
    a = dual_from_primal(p.w, X, y, sigma)
    nw = float(np.linalg.norm(p.w))
    mid = (a > 0.05) & (a < 0.95)
    n320 = norm_from_alpha_320(a[mid], p.w / nw, X[mid], y[mid], sigma) if mid.any() else np.array([np.nan])
    return {"primal": float(p.objective), "dual": float(d.objective), "dual_success": bool(d.success),
            "dual_slack": float(d.slack), "norm": nw,
            "norm_320_from_dual": float(np.linalg.norm(d.w)), "dual_norm_rule": str(d.norm_rule),
            "w_rel_err_dual": float(np.linalg.norm(d.w - p.w) / nw),
            "norm_320_kkt_maxrel": float(np.max(np.abs(n320 - nw)) / nw),
            "norm_323_kkt": float(norm_from_alpha_323(a, sigma)), "kkt_dual_value": float(a.sum()),
            # alphas within 1e-10 of 1: Phi^{-1} loses its digits there and (3.23) becomes ill-conditioned
            "n_alpha_near_1": int(np.sum(a > 1 - 1e-10))}


def _kernel_fn(kernel, d):
    from ...core import make_kernel

    if kernel == "rbf1":
        return make_kernel("rbf", gamma=1.0)
    if kernel == "poly2":
        return make_kernel("poly", degree=2, gamma=1.0 / d, coef0=1.0)
    if kernel == "rbf_inv_d":
        # Table 4.1's Diabetes and Splice rows: the thesis names no kernel; RBF of width 1/d on standardised data
        return make_kernel("rbf", gamma=1.0 / d)
    raise ValueError(f"unknown kernel {kernel!r}")


@task_name("robustpapers.ginodi2010.experiments:kernel_table_task")
def kernel_table_task(problem, kernel, seed, log2_sigmas, eta0s, epochs, log4_Cs, standardize):
    """Table 4.1: KEN-GURU (Algorithm 2) vs kernel SVM (scikit-learn SVC, same kernel), selection on validation."""
    from ...ginodi2010.kernel import ken_guru

    Xtr, ytr, Xva, yva, Xte, yte = load_binary_split(problem, seed, standardize=standardize)
    kf = _kernel_fn(kernel, Xtr.shape[1])
    Ktr, Kva, Kte = kf(Xtr, Xtr), kf(Xva, Xtr), kf(Xte, Xtr)
    Ktr = (Ktr + Ktr.T) / 2
    best = (-1.0, None)
    for k in log2_sigmas:
        for eta0 in eta0s:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                r = ken_guru(Ktr, ytr, 2.0 ** k, eta0=eta0, tol=1e-5, max_iter=epochs, random_state=seed)
            ya = r.alpha * ytr
            v = _acc(yva, Kva @ ya)
            if v > best[0]:
                best = (v, (k, eta0, _acc(yte, Kte @ ya)))
    g_val, (g_k, g_eta, g_test) = best
    # the certified optimum of the same objective at the selected sigma, and KEN-GURU's distance to it
    from ...ginodi2010.kernel import kernel_guru_lbfgs

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        opt = kernel_guru_lbfgs(Ktr, ytr, 2.0 ** g_k, tol=1e-8, max_iter=5000)
        sel = ken_guru(Ktr, ytr, 2.0 ** g_k, eta0=g_eta, tol=1e-5, max_iter=epochs, random_state=seed)
    lbfgs_test = _acc(yte, Kte @ (opt.alpha * ytr))
    sbest = (-1.0, None)
    for c in log4_Cs:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            m = SVC(kernel="precomputed", C=4.0 ** c, max_iter=200000).fit(Ktr, ytr)
        v = _acc(yva, m.decision_function(Kva))
        if v > sbest[0]:
            sbest = (v, (c, _acc(yte, m.decision_function(Kte))))
    s_val, (s_c, s_test) = sbest
    return {"guru_test": g_test, "guru_val": g_val, "guru_sigma": 2.0 ** g_k, "guru_eta0": float(g_eta),
            "lbfgs_test": lbfgs_test, "lbfgs_objective": float(opt.objective),
            "ken_guru_rel_gap": float((sel.objective - opt.objective) / max(opt.objective, 1e-12)),
            "svm_test": s_test, "svm_val": s_val, "svm_C": 4.0 ** s_c, "n_train": int(len(ytr))}


@task_name("robustpapers.ginodi2010.experiments:radial_task")
def radial_task(seed, log2_sigma, n, eta0, epochs, grid_size):
    """Fig. 4.1: KEN-GURU with a degree-2 polynomial kernel on the radial toy, for one sigma."""
    from ...core import make_kernel
    from ...ginodi2010.kernel import ken_guru

    X, y = toy_radial(n, random_state=seed)
    kf = make_kernel("poly", degree=2, gamma=1.0 / 7.5**2, coef0=1.0)   # inputs rescaled to [-1, 1]
    K = kf(X, X)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        r = ken_guru((K + K.T) / 2, y, 2.0 ** log2_sigma, eta0=eta0, tol=1e-5, max_iter=epochs, random_state=seed)
    ya = r.alpha * y
    g = np.linspace(-7.5, 7.5, grid_size)
    G = np.array(np.meshgrid(g, g)).reshape(2, -1).T
    return {"X": X.tolist(), "y": y.tolist(), "train_score": (K @ ya).tolist(),
            "grid_score": (kf(G, X) @ ya).reshape(grid_size, grid_size).tolist(),
            "train_acc": _acc(y, K @ ya), "n_pos": int((y > 0).sum()), "n_neg": int((y < 0).sum())}


#: The multiclass problems of Table 5.1: (source, train, validation, test, standardise).
MULTI_SETS = {
    "toy3": ("toy3", 200, 200, 200, False),
    "toy4": ("toy4", 200, 200, 200, False),
    "digits_358": ("mnist5000:3,5,8", 600, 450, None, False),
    "digits_0to9": ("mnist5000:all", 2000, 1500, 1500, False),
    "splice3": ("splice", 1000, 1000, 1190, True),
    "wine": ("wine", 50, 50, 78, True),
}


def load_multi_split(name, seed, sizes=None):
    """Train / validation / test split of a Table 5.1 problem (labels 0..C-1).

    ``sizes = (train, validation, test)`` overrides the sizes of :data:`MULTI_SETS` (a smaller
    split of the same shuffled data, for the notebook's quick scale; test ``None`` = the rest).
    """
    if name not in MULTI_SETS:
        raise ValueError(f"unknown problem {name!r}; choose one of {sorted(MULTI_SETS)}")
    source, ntr, nva, nte, scale = MULTI_SETS[name]
    if sizes is not None:
        if len(sizes) != 3 or any(v is not None and (int(v) != v or v < 1) for v in sizes) or None in sizes[:2]:
            raise ValueError(f"sizes must be (train, validation, test) positive integers (test may be None), got {sizes!r}")
        ntr, nva, nte = sizes
        if source in ("toy3", "toy4") and nte is None:
            raise ValueError("sizes of a toy problem need a test size")
    rng = np.random.RandomState(seed)
    if source in ("toy3", "toy4"):
        X, y = toy_multiclass(ntr + nva + nte, n_classes=int(source[-1]), random_state=rng)
        idx = np.arange(len(y))
    else:
        if source.startswith("mnist5000"):
            ds = load_dataset("mnist5000")
            keep = source.split(":")[1]
            if keep == "all":
                X, y = ds.X, ds.y
            else:
                cls = [int(c) for c in keep.split(",")]
                mask = np.isin(ds.y, cls)
                X, y = ds.X[mask], np.searchsorted(cls, ds.y[mask])
        else:
            ds = load_dataset(source)
            X, y = ds.X, ds.y
        idx = rng.permutation(len(y))
    return _split(X, y, idx, ntr, nva, nte, scale)


@task_name("robustpapers.ginodi2010.experiments:multi_table_task")
def multi_table_task(problem, seed, log2_sigmas, log4_Cs, eta0, epochs, sizes=None):
    """Table 5.2: M-GURU, M-GURU-S^2 and a linear multiclass SVM (scikit-learn SVC, one-vs-one).

    sigma is chosen on validation with the certified L-BFGS optimum of (5.13); both SGD variants
    (Algorithms 3-4) are then run at that sigma for ``epochs`` epochs. ``sizes`` as in
    :func:`load_multi_split`.
    """
    from ...ginodi2010.multiclass import m_guru, m_guru_lbfgs

    Xtr, ytr, Xva, yva, Xte, yte = load_multi_split(problem, seed, sizes)
    C = int(max(ytr.max(), yva.max(), yte.max())) + 1

    def acc(W, b, X, y):
        return float(np.mean(np.argmax(X @ W.T + b, axis=1) == y))

    best = (-1.0, None)
    gmax = 0.0
    for k in log2_sigmas:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            r = m_guru_lbfgs(Xtr, ytr, 2.0 ** k, n_classes=C, fit_intercept=True, tol=1e-7, max_iter=3000)
        v = acc(r.W, r.b, Xva, yva)
        if v > best[0]:
            best = (v, (k, r))
    v, (k, r) = best
    out = {"sigma": 2.0 ** k, "lbfgs_val": v, "lbfgs_test": acc(r.W, r.b, Xte, yte), "lbfgs_objective": r.objective,
           "lbfgs_grad_norm": r.grad_norm}
    for variant in ("full", "s2"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            s = m_guru(Xtr, ytr, 2.0 ** k, n_classes=C, variant=variant, eta0=eta0, fit_intercept=True, tol=1e-6,
                       max_iter=epochs, random_state=seed)
        out[f"{variant}_test"] = acc(s.W, s.b, Xte, yte)
        out[f"{variant}_rel_gap"] = float((s.objective - r.objective) / max(r.objective, 1.0))
    sbest = (-1.0, None)
    for c in log4_Cs:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            m = SVC(kernel="linear", C=4.0 ** c, max_iter=200000).fit(Xtr, ytr)
        sv = float(np.mean(m.predict(Xva) == yva))
        if sv > sbest[0]:
            sbest = (sv, (c, float(np.mean(m.predict(Xte) == yte))))
    out.update(svm_val=sbest[0], svm_C=4.0 ** sbest[1][0], svm_test=sbest[1][1], n_train=int(len(ytr)),
               n_val=int(len(yva)), n_test=int(len(yte)), d=int(Xtr.shape[1]), n_classes=C)
    return out


@task_name("robustpapers.ginodi2010.experiments:multi_curve_task")
def multi_curve_task(problem, seed, log2_sigma, eta0, epochs, record_every):
    """Fig. 5.2: objective (5.13) against the number of updates for M-GURU and M-GURU-S^2, and the optimum."""
    from ...ginodi2010.multiclass import m_guru, m_guru_lbfgs

    Xtr, ytr, *_ = load_multi_split(problem, seed)
    sigma = 2.0 ** log2_sigma
    ref = m_guru_lbfgs(Xtr, ytr, sigma, fit_intercept=True, tol=1e-9)
    out = {"optimum": float(ref.objective)}
    for variant in ("full", "s2"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            s = m_guru(Xtr, ytr, sigma, variant=variant, eta0=eta0, fit_intercept=True, tol=1e-12, max_iter=epochs,
                       random_state=seed, record_every=record_every)
        out[f"{variant}_updates"] = [int(u) for u in s.trace["update"]]
        out[f"{variant}_objective"] = [float(o) for o in s.trace["objective"]]
    return out


@task_name("robustpapers.ginodi2010.experiments:asvc_task")
def asvc_task(problem, seed, delta, C):
    """Appendix A: ASVC (Algorithm 5) against the convex optimum of the robust SVM (A.2)/(A.5) (cvxpy, Clarabel)."""
    import cvxpy as cp

    from ...ginodi2010.asvc import asvc, asvc_objective

    Xtr, ytr, Xva, yva, Xte, yte = load_binary_split(problem, seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        r = asvc(Xtr, ytr, delta, C, tol=1e-6, max_iter=50)
    w, b = cp.Variable(Xtr.shape[1]), cp.Variable()
    prob = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(w) + C * cp.sum(cp.pos(1 - cp.multiply(ytr, Xtr @ w + b)
                                                                               + delta * cp.norm(w)))))
    prob.solve(solver="CLARABEL")
    wc, bc = np.asarray(w.value), float(b.value)
    return {"asvc_objective": [float(v) for v in r.trace["objective"]], "asvc_converged": bool(r.success),
            "asvc_iterations": int(r.nit), "cvx_objective": float(prob.value),
            "cvx_objective_check": asvc_objective(wc, bc, Xtr, ytr, delta, C),
            "asvc_test": _acc(yte, Xte @ r.w + r.b), "cvx_test": _acc(yte, Xte @ wc + bc),
            "asvc_val": _acc(yva, Xva @ r.w + r.b), "cvx_val": _acc(yva, Xva @ wc + bc)}


@task_name("robustpapers.ginodi2010.experiments:multiclass_asvc_task")
def multiclass_asvc_task(problem, seed, delta, C, max_iter):
    """Appendix A.4: multiclass ASVC by alternation against the optimum of (A.8) (cone program, Clarabel).

    Trains on the training part of a Table 5.1 problem (no bias); returns the alternation's (A.8)
    objective and SVM-step value per iteration, the optimum, and both test accuracies.
    """
    from ...ginodi2010.asvc import multiclass_asvc, multiclass_asvc_alternate

    Xtr, ytr, _, _, Xte, yte = load_multi_split(problem, seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        alt = multiclass_asvc_alternate(Xtr, ytr, delta, C, max_iter=max_iter, random_state=seed)
    cone = multiclass_asvc(Xtr, ytr, delta, C)
    return {"alt_objective": [float(v) for v in alt.trace["objective"]],
            "alt_svm_value": [float(v) for v in alt.trace["svm_value"]],
            "alt_converged": bool(alt.success), "alt_iterations": int(alt.nit),
            "cone_objective": float(cone.objective), "cone_success": bool(cone.success),
            "alt_test": float(np.mean(np.argmax(Xte @ alt.W.T, axis=1) == yte)),
            "cone_test": float(np.mean(np.argmax(Xte @ cone.W.T, axis=1) == yte))}
