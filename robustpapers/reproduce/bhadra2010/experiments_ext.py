"""Task functions added to the bhadra2010 experiments for the claims ledger (bhadra2010 §3, §5.1.2, §5.1.3).

* :func:`bound_svm_task` -- Fig. 3's Nominal SVM (effective epsilon of eq. 15 at kappa = 0);
* :func:`socp_true_beta_task` -- the SOCP's alpha (PSD part of beta) scored on eq. (15) with the true beta;
* :func:`qn_socp_task` -- RSVM_QN against RSVM_SOCP on Fig. 1's split: objective on the true beta, RobustErr, and
  the best of the first k starts.

They run through :func:`robustpapers.reproduce.bhadra2010.experiments.sweep_tasks` like the others; each keeps the
cache identity it was first computed under (``task_name``).
"""
from __future__ import annotations

import numpy as np

from ...bhadra2010.data import sample_kernels
from ...bhadra2010.solvers import rsvm, rsvm_kkt_residual, rsvm_objective
from ..engine import derive_seed, task_name
from .experiments import (
    QN_MAX_ITER, _betas, _split, errors_on_samples, fit_classifier, kappa_finite_support_any, prepare_dataset,
)

__all__ = ["bound_svm_task", "socp_true_beta_task", "qn_socp_task"]


@task_name("robustpapers.reproduce.bhadra2010.experiments:bound_svm_task")
def bound_svm_task(dataset, noise, C, n_per_class, n_samples, n_eval, seed):
    """bhadra2010 Fig. 3's Nominal SVM: effective epsilon of the SVM (eq. 15 at kappa = 0) on one data set.

    The SVM is :func:`fit_classifier`'s ``"SVM"`` on the whole data set; its ``t`` is
    :math:`\\alpha^\\top Y\\bar KY\\alpha` (the constraint of eq. 15 without the robustness term), which does not
    depend on epsilon, so one value serves every epsilon of the figure: the fraction of ``n_eval`` fresh kernels
    (independent entries, the generating distribution) with :math:`\\alpha^\\top YK^sY\\alpha > t`.
    """
    prep = prepare_dataset(dataset, noise, n_per_class, n_samples, seed)
    y, K = prep["y"], prep["K"]
    res = fit_classifier("SVM", K, y, None, None, 0.0, 0.0, C, 1, derive_seed(seed, "qn", dataset, "SVM"),
                         QN_MAX_ITER)
    ya = y * res.alpha
    t = float(ya @ K @ ya)
    rng = np.random.default_rng(derive_seed(seed, "eval-svm", dataset))
    exceed, done = 0, 0
    while done < n_eval:
        m = min(100, n_eval - done)
        Ke = sample_kernels(K, prep["scale"], noise, m, random_state=rng)
        exceed += int(np.sum(np.einsum("i,sij,j->s", ya, Ke, ya) > t))
        done += m
    return {"eps_eff_SVM": exceed / n_eval, "t": t}


@task_name("robustpapers.reproduce.bhadra2010.experiments:socp_true_beta_task")
def socp_true_beta_task(dataset, noise, eps, C, n_per_class, n_samples, seed):
    """The SOCP's alpha (on the PSD part of the finite-support beta) scored by eq. (15) with the true beta.

    The instance of :func:`qn_starts_task` (the whole data set, kappa = sqrt(2 log(1/eps))): returns the SOCP's
    objective on beta's PSD part (its own problem) and on beta itself (QN's problem), and the KKT residual of
    the SOCP's alpha for eq. (15) with beta itself.
    """
    prep = prepare_dataset(dataset, noise, n_per_class, n_samples, seed)
    y, K = prep["y"], prep["K"]
    beta_fs, _ = _betas(prep, np.arange(y.size), False)
    kappa = kappa_finite_support_any(eps)
    soc = rsvm(K, y, C, beta_fs, kappa, method="socp", beta_approx="psd")
    return {"socp_objective_psd_part": float(soc.objective),
            "socp_objective_true_beta": float(rsvm_objective(K, y, beta_fs, kappa, soc.alpha)),
            "socp_kkt_true_beta": float(rsvm_kkt_residual(K, y, beta_fs, kappa, C, soc.alpha)),
            "socp_success": bool(soc.success)}


@task_name("robustpapers.reproduce.bhadra2010.experiments:qn_socp_task")
def qn_socp_task(dataset, noise, kappa, C, n_per_class, n_samples, n_starts, keep, seed, family="fs",
                 qn_max_iter=QN_MAX_ITER):
    """RSVM_QN against RSVM_SOCP on Fig. 1's split, scored on eq. (15) with the true beta and on RobustErr.

    Fig. 1's training half and kappa; QN (``n_starts`` seeded starts on beta itself) and the SOCP (beta's
    PSD part) of ``family`` ("fs": finite support, "g": Gaussian). For QN the best of the first ``k`` starts for
    each ``k`` in ``keep`` (the starts are drawn in order from one seed, so the first k are a k-start run):
    its objective of eq. (15) with the true beta, its KKT residual and convergence flag, and its errors (%) on
    test kernels whose noise grows with kappa (as ``robustness_task(test_noise="kappa")``). The same for the
    SOCP's alpha (objective on the true beta and on beta's PSD part).
    """
    from ...bhadra2010.solvers import robust_bias

    if family not in ("fs", "g"):
        raise ValueError(f"family must be 'fs' or 'g', got {family!r}")
    prep = prepare_dataset(dataset, noise, n_per_class, n_samples, seed)
    y = prep["y"]
    tr, te = _split(y, 0.5, derive_seed(seed, "split", dataset))
    beta_fs, beta_g = _betas(prep, tr, False)
    beta = beta_fs if family == "fs" else beta_g
    Ktr, ytr = prep["K"][np.ix_(tr, tr)], y[tr]
    K_te = prep["K"][np.ix_(te, tr)]
    Ks_te = K_te[None] + kappa * (prep["Ks"][:, te][:, :, tr] - K_te[None])
    name = "RSVM" if family == "fs" else "RSVMg"
    out = {"beta_min_eig_rel": float(np.linalg.eigvalsh(beta)[0] / np.linalg.eigvalsh(beta)[-1])}
    soc = rsvm(Ktr, ytr, C, beta, kappa, method="socp", beta_approx="psd")
    out["socp_objective_psd_part"] = float(soc.objective)
    out["socp_objective"] = float(rsvm_objective(Ktr, ytr, beta, kappa, soc.alpha))
    for k, v in errors_on_samples(y[te], K_te, Ks_te, soc.alpha, ytr, soc.b).items():
        out[f"{k}_SOCP"] = v
    qn = rsvm(Ktr, ytr, C, beta, kappa, method="qn", n_starts=n_starts, max_iter=qn_max_iter,
              random_state=derive_seed(seed, "qn", dataset, f"{name}_QN"))
    for k in keep:
        if not 1 <= k <= n_starts:
            raise ValueError(f"keep must lie in 1..n_starts = {n_starts}, got {k}")
        best = int(np.argmax(qn.start_objectives[:k]))
        a = qn.start_alphas[best]
        out[f"qn{k}_objective"] = float(qn.start_objectives[best])
        out[f"qn{k}_converged"] = bool(qn.start_converged[best])
        out[f"qn{k}_kkt"] = float(rsvm_kkt_residual(Ktr, ytr, beta, kappa, C, a))
        for m, v in errors_on_samples(y[te], K_te, Ks_te, a, ytr, robust_bias(Ktr, ytr, a, C)).items():
            out[f"{m}_QN{k}"] = v
    return out
