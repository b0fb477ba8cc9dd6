"""Experiment task functions of shivaswamy2006 section 8 (module-level, picklable, JSON in and out)."""
from __future__ import annotations

import numpy as np
from sklearn.svm import SVC

from ...datasets import load_dataset
from ...shivaswamy2006.errors import classification_errors, regression_errors
from ...shivaswamy2006.estimators import RobustMissingSVC, RobustMissingSVR
from ...shivaswamy2006.missing import delete_entries
from ..engine import task_name

__all__ = ["uci_missing_task", "regression_missing_task", "ball_shell_task", "ball_shell_data", "cv_kernel_gamma",
           "constraint_sampling_task", "ocr_task", "quadratic_features", "quadratic_regression_task",
           "TOY_W", "TOY_B", "TOY_SIGMA", "toy_regression_data"]

#: The regression toy of shivaswamy2006 section 8.2: y = <w, x> + b with x ~ N(0, Sigma) (Sigma as printed).
TOY_W = [1.0, 2.0, 3.0, 4.0, 5.0]
TOY_B = -7.0
TOY_SIGMA = [[0.1872, 0.1744, 0.0349, -0.3313, -0.2790],
             [0.1744, 0.4488, 0.0698, -0.6627, -0.5580],
             [0.0349, 0.0698, 0.1140, -0.1325, -0.1116],
             [-0.3313, -0.6627, -0.1325, 1.3591, 1.0603],
             [-0.2790, -0.5580, -0.1116, 1.0603, 0.9929]]


def _split(n, rng, test_fraction=0.1):
    perm = rng.permutation(n)
    k = int(round(test_fraction * n))
    return perm[k:], perm[:k]


def _standardise(Xtr, *others):
    mu = np.nanmean(Xtr, axis=0)
    sd = np.nanstd(Xtr, axis=0)
    sd[~(sd > 0)] = 1.0
    return [(A - mu) / sd for A in (Xtr, *others)]


@task_name("robustpapers.shivaswamy2006.experiments:uci_missing_task")
def uci_missing_task(dataset, rep, row_fraction, gammas, feature_fraction=0.5, C=1.0, seed=0):
    """One randomised 9:1 split of the Figs. 5-7 protocol (shivaswamy2006 section 8.1).

    Deletes ``feature_fraction`` of the features from ``row_fraction`` of the training rows and
    from every test row; trains the nominal classifier (gamma = 0: SVM on the EM imputation) and
    the robust classifier (44) for each gamma; scores both on the test set with the three
    measures of section 3.3 at radius gamma (test patterns imputed by the section 6.1 rule); and
    the 'clean' SVM trained and tested without deletions.
    """
    rng = np.random.default_rng([seed, rep])
    ds = load_dataset(dataset)
    X, y = ds.X.astype(float), ds.y
    tr, te = _split(len(y), rng)
    Xtr = delete_entries(X[tr], row_fraction, feature_fraction, rng)
    Xte = delete_entries(X[te], 1.0, feature_fraction, rng)
    Xtr_s, Xte_s, Xtr_clean, Xte_clean = _standardise(Xtr, Xte, X[tr], X[te])
    clean = SVC(kernel="linear", C=C).fit(Xtr_clean, y[tr])
    out = {"clean": float(np.mean(clean.predict(Xte_clean) != y[te])), "gammas": list(map(float, gammas))}
    models = {"nominal": RobustMissingSVC(gamma=0.0, C=C, em_max_iter=5000).fit(Xtr_s, y[tr])}
    nom = models["nominal"]
    ys = np.where(y[tr] == nom.classes_[1], 1.0, -1.0)
    for g in gammas:  # one EM run, reused for every gamma
        robust = RobustMissingSVC(gamma=float(g), C=C)
        robust.classes_, robust.n_features_in_ = nom.classes_, nom.n_features_in_
        models[g] = robust._fit_with_moments(Xtr_s, ys, nom.means_, nom.covariances_)
    for name in ("nominal", "robust"):
        for key in ("actual", "expected", "worst_case"):
            out[f"{name}_{key}"] = []
    for g in gammas:
        for name, model in (("nominal", models["nominal"]), ("robust", models[g])):
            Xb, F = model.impute(Xte_s)
            e = classification_errors(model.coef_[0], model.intercept_[0], Xb, y[te], gamma=float(g), factors=F)
            for key in ("actual", "expected", "worst_case"):
                out[f"{name}_{key}"].append(float(e[key].mean()))
    out["n_train"] = int(len(tr))
    out["n_test"] = int(len(te))
    return out


def toy_regression_data(n, rng):
    """150 draws of the regression toy of shivaswamy2006 section 8.2 (noise-free y = <w, x> + b)."""
    X = rng.multivariate_normal(np.zeros(5), np.array(TOY_SIGMA), size=n)
    return X, X @ np.array(TOY_W) + TOY_B


@task_name("robustpapers.shivaswamy2006.experiments:regression_missing_task")
def regression_missing_task(dataset, rep, etas, row_fraction=0.5, n_delete=2, epsilon=0.1, W=10.0, D=1.0,
                            n=150, seed=0):
    """One randomised 9:1 split of the Fig. 9 protocol (shivaswamy2006 section 8.2).

    Deletes ``n_delete`` entries from ``row_fraction`` of the rows (train and test alike), imputes
    by EM (42), fits the nominal SVR (CTM with D = 0, i.e. epsilon-insensitive regression on the
    imputed data) and the CTM (45) and SR (section 6.2) regressors for each eta, and returns the
    mean test measures (38)-(40) at radius 1/sqrt(eta) (Theorem 5). Features and targets are
    standardised on the training set; errors are reported in standardised target units.
    """
    rng = np.random.default_rng([seed, rep])
    if dataset == "toy":
        X, y = toy_regression_data(n, rng)
    else:
        ds = load_dataset(dataset)
        X, y = ds.X.astype(float), ds.y.astype(float)
    Xm = delete_entries(X, row_fraction, 0.0, rng, n_delete=n_delete)
    tr, te = _split(len(y), rng)
    Xtr, Xte = _standardise(Xm[tr], Xm[te])
    ym, ys = y[tr].mean(), y[tr].std()
    ytr, yte = (y[tr] - ym) / ys, (y[te] - ym) / ys
    out = {"etas": list(map(float, etas))}
    nominal = RobustMissingSVR("ctm", eta=1.0, epsilon=epsilon, W=W, D=0.0).fit(Xtr, ytr)
    keys = {"ctm": ("robustness", "worst_case"), "sr": ("expected_residual", "worst_case")}
    for form in ("ctm", "sr"):
        for k in keys[form]:
            out[f"{form}_{k}"], out[f"nominal_{form}_{k}"] = [], []
    out["ctm_residual"], out["sr_residual"] = [], []
    for eta in etas:
        gam = 1.0 / np.sqrt(eta)
        for form in ("ctm", "sr"):
            model = RobustMissingSVR(form, eta=float(eta), epsilon=epsilon, W=W, D=D).fit(Xtr, ytr)
            for name, mdl in ((form, model), (f"nominal_{form}", nominal)):
                Xb, F = mdl.impute(Xte)
                e = regression_errors(mdl.coef_, mdl.intercept_, Xb, yte, gamma=gam, factors=F)
                for k in keys[form]:
                    out[f"{name}_{k}"].append(float(e[k].mean()))
            out[f"{form}_residual"].append(float(np.mean(np.abs(model.predict(Xte) - yte))))
    out["nominal_residual"] = float(np.mean(np.abs(nominal.predict(Xte) - yte)))
    return out


def ball_shell_data(n_per_class, rng, dim=5):
    """shivaswamy2006 section 8.1 (Fig. 8): +1 uniform in the unit ball of R^5, -1 uniform in 2 <= ||x|| <= 3."""
    def radial(lo, hi, m):
        z = rng.standard_normal((m, dim))
        z /= np.linalg.norm(z, axis=1, keepdims=True)
        r = (lo ** dim + rng.uniform(size=(m, 1)) * (hi ** dim - lo ** dim)) ** (1.0 / dim)
        return z * r
    X = np.r_[radial(0.0, 1.0, n_per_class), radial(2.0, 3.0, n_per_class)]
    y = np.r_[np.ones(n_per_class), -np.ones(n_per_class)]
    return X, y


def cv_kernel_gamma(X, y, kernel_gammas, n_folds=3, C=1.0, sigma=1.0, random_state=None):
    """Choose the Gaussian kernel parameter q of ``KernelRobustMissingSVC`` by stratified k-fold
    cross-validation on (incomplete) training data, as in shivaswamy2006 section 8.1 (Fig. 8).

    The nominal kernelised classifier (gamma = 0) is trained on each fold's complement (EM
    imputation inside ``fit``) and scored on the fold (its incomplete patterns by the h1/h2 rule);
    the q of least mean validation error wins, ties going to the smaller q (the smoother kernel).

    Returns
    -------
    q : float
    errors : list of float
        Mean validation error of each q.
    """
    from sklearn.model_selection import StratifiedKFold

    from ...shivaswamy2006.estimators import KernelRobustMissingSVC

    folds = list(StratifiedKFold(n_splits=int(n_folds), shuffle=True, random_state=random_state).split(X, y))
    errors = []
    for q in kernel_gammas:
        err = []
        for fit_idx, val_idx in folds:
            clf = KernelRobustMissingSVC(gamma=0.0, C=C, kernel_gamma=float(q), sigma=sigma).fit(X[fit_idx], y[fit_idx])
            err.append(float(np.mean(clf.predict(X[val_idx]) != y[val_idx])))
        errors.append(float(np.mean(err)))
    order = sorted(range(len(kernel_gammas)), key=lambda k: (errors[k], float(kernel_gammas[k])))
    return float(kernel_gammas[order[0]]), errors


@task_name("robustpapers.shivaswamy2006.experiments:ball_shell_task")
def ball_shell_task(rep, gammas, n_per_class=100, row_fraction=0.5, n_delete=3, C=1.0, kernel_gamma=0.5,
                    sigma=1.0, kernel_gammas=None, cv_folds=3, seed=0):
    """One randomised 9:1 split of the Fig. 8 protocol: actual test error of the linear and the
    kernelised (Gaussian kernel, spherical K~-space covariance) classifiers, nominal (gamma = 0)
    and robust, after deleting ``n_delete`` of the 5 values of ``row_fraction`` of the training rows.

    With ``kernel_gammas`` (a grid) the kernel parameter q is chosen on the training split by
    ``cv_folds``-fold cross-validation (:func:`cv_kernel_gamma`, the paper's protocol) and used for
    the nominal and every robust kernelised classifier; otherwise q = ``kernel_gamma``.
    """
    from ...shivaswamy2006.estimators import KernelRobustMissingSVC

    rng = np.random.default_rng([seed, rep])
    X, y = ball_shell_data(n_per_class, rng)
    tr, te = _split(len(y), rng)
    Xtr = delete_entries(X[tr], row_fraction, 0.0, rng, n_delete=n_delete)
    out = {"gammas": list(map(float, gammas))}
    if kernel_gammas is not None:
        kernel_gamma, cv_err = cv_kernel_gamma(Xtr, y[tr], list(kernel_gammas), cv_folds, C=C, sigma=sigma,
                                               random_state=int(rng.integers(2**31 - 1)))
        out["cv_errors"] = cv_err
    out["kernel_gamma"] = float(kernel_gamma)
    lin_nom = RobustMissingSVC(gamma=0.0, C=C).fit(Xtr, y[tr])
    ker_nom = KernelRobustMissingSVC(gamma=0.0, C=C, kernel_gamma=kernel_gamma, sigma=sigma).fit(Xtr, y[tr])
    out["linear_nominal"] = float(np.mean(lin_nom.predict(X[te]) != y[te]))
    out["kernel_nominal"] = float(np.mean(ker_nom.predict(X[te]) != y[te]))
    out["linear_robust"], out["kernel_robust"] = [], []
    ys = np.where(y[tr] == lin_nom.classes_[1], 1.0, -1.0)
    for g in gammas:
        lin = RobustMissingSVC(gamma=float(g), C=C)
        lin.classes_, lin.n_features_in_ = lin_nom.classes_, lin_nom.n_features_in_
        lin._fit_with_moments(Xtr, ys, lin_nom.means_, lin_nom.covariances_)
        ker = KernelRobustMissingSVC(gamma=float(g), C=C, kernel_gamma=kernel_gamma, sigma=sigma).fit(Xtr, y[tr])
        out["linear_robust"].append(float(np.mean(lin.predict(X[te]) != y[te])))
        out["kernel_robust"].append(float(np.mean(ker.predict(X[te]) != y[te])))
    return out


@task_name("robustpapers.shivaswamy2006.experiments:constraint_sampling_task")
def constraint_sampling_task(epsilon, beta, n=8, d=2, gamma=1.0, n_fresh=20000, seed=0):
    """Theorem 3 in action (shivaswamy2006 section 4.3): solve the sampled problem (23) with the
    Calafiore-Campi number of points per ellipsoid and measure each pattern's violation
    probability on fresh uniform samples of its ellipsoid."""
    from ...shivaswamy2006.extensions import calafiore_campi_n, sample_ellipsoid, vertex_svm
    from ...shivaswamy2006.classification import robust_svm

    rng = np.random.default_rng([seed, int(round(1e6 * epsilon))])
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    X = rng.standard_normal((n, d)) + 1.5 * y[:, None]
    L = 0.5 * np.eye(d)
    N = calafiore_campi_n(epsilon, beta, d + 1 + n)
    V = [sample_ellipsoid(X[i], L, gamma, N, random_state=rng) for i in range(n)]
    res = vertex_svm(V, y, C=10.0)
    viol = []
    for i in range(n):
        fresh = sample_ellipsoid(X[i], L, gamma, n_fresh, random_state=rng)
        viol.append(float(np.mean(y[i] * (fresh @ res.w + res.b) < 1 - res.xi[i] - 1e-9)))
    exact = robust_svm(X, y, [L @ L.T] * n, gamma=gamma, C=10.0)
    return {"N": int(N), "max_violation": max(viol), "mean_violation": float(np.mean(viol)),
            "objective_sampled": float(res.objective), "objective_socp": float(exact.objective)}



def quadratic_features(X):
    """The map phi: R^5 -> R^15 of shivaswamy2006 footnote 6 (squares, then sqrt(2) x_i x_j for i < j)."""
    X = np.asarray(X, dtype=float)
    i, j = np.triu_indices(X.shape[1], k=1)
    return np.c_[X ** 2, np.sqrt(2.0) * X[:, i] * X[:, j]]


@task_name("robustpapers.shivaswamy2006.experiments:quadratic_regression_task")
def quadratic_regression_task(rep, formulation, row_fraction, value_fraction=0.4, eta=0.5, epsilon=0.1,
                              W_linear=10.0, W_kernel=100.0, D=1.0, kernel_gamma=0.1, n=150, seed=0):
    """One run of Fig. 10 (shivaswamy2006 section 8.2): y = c'phi(x) - c0 on 150 Gaussian points of R^5
    (the toy's Sigma), ``value_fraction`` of the values deleted from ``row_fraction`` of the
    patterns, 9:1 split, linear vs kernelised (Gaussian kernel, spherical K~-space covariance)
    CTM or SR; returns the mean absolute test residual on the imputed test patterns (standardised
    target units)."""
    from ...shivaswamy2006.estimators import KernelRobustMissingSVR

    rng = np.random.default_rng([seed, rep])
    X = rng.multivariate_normal(np.zeros(5), np.array(TOY_SIGMA), size=n)
    c, c0 = rng.standard_normal(15), rng.standard_normal()
    y = quadratic_features(X) @ c - c0
    Xm = delete_entries(X, row_fraction, value_fraction, rng)
    tr, te = _split(n, rng)
    Xtr, Xte = _standardise(Xm[tr], Xm[te])
    ym, ys = y[tr].mean(), y[tr].std()
    ytr, yte = (y[tr] - ym) / ys, (y[te] - ym) / ys
    lin = RobustMissingSVR(formulation, eta=eta, epsilon=epsilon, W=W_linear, D=D).fit(Xtr, ytr)
    ker = KernelRobustMissingSVR(formulation, eta=eta, epsilon=epsilon, W=W_kernel, D=D,
                                 kernel_gamma=kernel_gamma).fit(Xtr, ytr)
    return {"linear": float(np.mean(np.abs(lin.predict(Xte) - yte))),
            "kernel": float(np.mean(np.abs(ker.predict(Xte) - yte)))}


@task_name("robustpapers.shivaswamy2006.experiments:ocr_task")
def ocr_task(rep, gammas, n_train=None, n_test=None, train_row_fraction=0.5, pixel_fraction=0.75, C=1.0,
             em_reg=0.1, em_tol=1e-4, n_examples=5, seed=0):
    """One randomised repetition of the OCR protocol of shivaswamy2006 section 8.1 (Figs. 3-4).

    Digits 3 (+1) vs 8 (-1) of ``optdigits`` scaled to [0, 1]; a random 70:30 split (optionally
    truncated to ``n_train`` / ``n_test``); ``pixel_fraction`` of the pixels deleted from
    ``train_row_fraction`` of the training patterns and from every test pattern; class-conditional
    EM with a relative ridge ``em_reg`` (64 pixels, some constant, few patterns per class);
    nominal (gamma = 0) and robust (44) classifiers; the three test measures at each gamma; and up
    to ``n_examples`` test digits per class misclassified by the nominal but not by the robust
    classifier at the largest gamma (row of the 3-vs-8 subset and missing mask).
    """
    from ...datasets import binary_subset

    rng = np.random.default_rng([seed, rep])
    ds = binary_subset(load_dataset("optdigits"), "3", "8")
    X, y = ds.X / 16.0, ds.y
    perm = rng.permutation(len(y))
    k = int(round(0.3 * len(y)))
    te, tr = perm[:k], perm[k:]
    tr = tr if n_train is None else tr[:n_train]
    te = te if n_test is None else te[:n_test]
    Xtr = delete_entries(X[tr], train_row_fraction, pixel_fraction, rng)
    Xte = delete_entries(X[te], 1.0, pixel_fraction, rng)
    nom = RobustMissingSVC(gamma=0.0, C=C, em_reg=em_reg, em_tol=em_tol, em_max_iter=5000).fit(Xtr, y[tr])
    ys = np.where(y[tr] == nom.classes_[1], 1.0, -1.0)
    out = {"gammas": list(map(float, gammas)), "n_train": int(len(tr)), "n_test": int(len(te))}
    for name in ("nominal", "robust"):
        for key in ("actual", "expected", "worst_case"):
            out[f"{name}_{key}"] = []
    robust = None
    for g in gammas:
        robust = RobustMissingSVC(gamma=float(g), C=C)
        robust.classes_, robust.n_features_in_ = nom.classes_, nom.n_features_in_
        robust._fit_with_moments(Xtr, ys, nom.means_, nom.covariances_)
        for name, model in (("nominal", nom), ("robust", robust)):
            Xb, F = model.impute(Xte)
            e = classification_errors(model.coef_[0], model.intercept_[0], Xb, y[te], gamma=float(g), factors=F)
            for key in ("actual", "expected", "worst_case"):
                out[f"{name}_{key}"].append(float(e[key].mean()))
    wrong_nom = nom.predict(Xte) != y[te]
    right_rob = robust.predict(Xte) == y[te]
    examples = []
    for label in (1.0, -1.0):
        for j in np.flatnonzero(wrong_nom & right_rob & (y[te] == label))[:n_examples]:
            examples.append({"row": int(te[j]), "digit": "3" if label > 0 else "8",
                             "missing": np.isnan(Xte[j]).astype(int).tolist()})
    out["examples"] = examples
    out["n_nominal_only_wrong"] = int(np.sum(wrong_nom & right_rob))
    out["n_robust_only_wrong"] = int(np.sum(~wrong_nom & ~right_rob))
    return out
