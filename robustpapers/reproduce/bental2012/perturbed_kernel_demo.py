"""The spine's demonstration experiment: a nominal SVM judged by the prediction rules of bental2012 §6.

A nominal linear SVM is trained on :math:`\\bar K` only; at test time the kernel
is uncertain, :math:`K(\\eta) = \\bar K + \\sum_l \\eta_l K_l` with :math:`\\eta`
drawn uniformly from :math:`\\{\\eta \\ge 0, \\|\\eta\\|_2 \\le \\kappa\\}` (bental2012 eq. 10),
and the classifier is scored by NominalErr, MajorityErr (27) and RobustErr (28).
The perturbation kernels are rank-one linear kernels along random unit
directions :math:`u_l`, :math:`K_l(z, z') = (u_l^\\top z)(u_l^\\top z')`: PSD,
defined for any pair of points, and a stand-in for the base kernels of bental2012 §4.3.
"""
from __future__ import annotations

import numpy as np
from sklearn.model_selection import StratifiedKFold
from sklearn.preprocessing import StandardScaler

from ...core import decision_function, linear_kernel, prediction_errors, sample_positive_lp_ball, svm_dual
from ...datasets import load_dataset
from ..engine import derive_seed, task_name

__all__ = ["perturbation_directions", "perturbed_kernel_task"]


def perturbation_directions(d, L, random_state):
    """``L`` random unit directions in R^d (rows of the returned (L, d) array)."""
    rng = np.random.default_rng(random_state)
    U = rng.standard_normal((L, d))
    return U / np.linalg.norm(U, axis=1, keepdims=True)


@task_name("robustpapers.bental2012.perturbed_kernel_demo:perturbed_kernel_task")
def perturbed_kernel_task(dataset, fold, n_folds, kappa, L, R, C, seed):
    """One fold of the demo: train a nominal SVM on K̄, score it under R kernels drawn from E(kappa).

    Returns the three error rates and the fraction of test points whose label
    changes between draws (a direct measure of non-robustness).
    """
    ds = load_dataset(dataset)
    folds = StratifiedKFold(n_splits=n_folds, shuffle=True, random_state=seed)
    train, test = list(folds.split(ds.X, ds.y))[fold]
    scaler = StandardScaler().fit(ds.X[train])
    Xtr, Xte = scaler.transform(ds.X[train]), scaler.transform(ds.X[test])
    ytr, yte = ds.y[train], ds.y[test]
    sol = svm_dual(linear_kernel(Xtr), ytr, C)
    ya = sol.alpha * ytr
    U = perturbation_directions(Xtr.shape[1], L, derive_seed(seed, "directions"))
    # f_t(eta) = f_nominal(t) + sum_l eta_l (u_l'x_t) (sum_i y_i alpha_i u_l'x_i): no (L, m, n) stack needed.
    f_nominal = decision_function(linear_kernel(Xte, Xtr), ytr, sol.alpha, sol.b)
    shift = (Xte @ U.T) * (U @ (Xtr.T @ ya))[None, :]          # (m, L)
    eta = sample_positive_lp_ball(L, kappa, p=2, size=R, random_state=derive_seed(seed, "eta", fold, kappa))
    F = f_nominal[None, :] + eta @ shift.T                      # (R, m)
    errs = prediction_errors(yte, f_nominal, F)
    labels = np.sign(F)
    errs["unstable"] = float(np.mean(np.any(labels != labels[:1], axis=0)))
    errs["n_test"] = int(len(test))
    return errs
