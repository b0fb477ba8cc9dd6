"""bental2012 §7.3 (NominalErr): "all the formulations achieved an accuracy of 90 % when NE was used".

Two questions the paper leaves open, each answered on runs of its own:

* **the generator's reading** (§7.1.1: "each diagonal entry of the diagonal matrix Sigma is independently drawn from
  Uniform(0, 5)"): Sigma's diagonal as variances (the library's default) or as standard deviations. For each
  reading, S = 10 mixture data sets of N = 250 points per class, five folds each, the nominal SVM (LIBSVM on the
  linear K-bar, bias of §4.2) at C in {0.1, 1, 100}: its NE accuracy against the paper's 90 %
  (:func:`generator_task`);
* **the robust classifier's bias** (USSVM NE): on Fig. 2's problems (same seeds, N = 250, L = 200, kappa = 1,
  C = 100), the USSVM's alpha (the alternating method, certified) scored with four bias rules -- the paper's §4.2
  rule on the effective kernel K-bar + sum_l eta_l K_l (what Figs. 2-3 use), the same rule on K-bar, LIBSVM's
  free-support-vector rule on the effective kernel, and a free b (the b with the fewest training errors of the
  nominal rule (25)) -- beside the nominal SVM (:func:`bias_task`).
"""
from __future__ import annotations

import warnings

import numpy as np

from ..engine import derive_seed, task_name
from ..ledger import Claim, equivalent, noninferior
from . import _common as Cm

__all__ = ["PAPER", "LABEL", "EXPERIMENT", "VERSION", "SETTINGS", "READINGS", "RULES", "tasks", "generator_task",
           "bias_task", "free_bias", "records", "numbers", "claims"]

PAPER = Cm.PAPER
LABEL = "bental2012 §7.3 (NominalErr)"
EXPERIMENT = "nominal_err"
VERSION = 1
#: The paper-size tasks are computed once, in the background; a page at paper scale only reads them.
LONG = True
#: The two readings of Sigma's diagonal.
READINGS = ("variance", "std")
#: The bias rules compared on the USSVM's alpha (record keys and the words the page uses).
RULES = {"paper": "§4.2 rule on the effective kernel (Figs. 2-3)", "kbar": "§4.2 rule on K-bar",
         "free_sv": "LIBSVM's free-SV rule on the effective kernel", "free_b": "free b (fewest training errors)"}
SETTINGS = {
    "paper": dict(S=10, N=250, L=200, Cs=[0.1, 1.0, 100.0], bias_sets=2, bias_C=100.0, kappa=1.0, R=100),
    "quick": dict(S=2, N=15, L=10, Cs=[1.0, 100.0], bias_sets=1, bias_C=100.0, kappa=1.0, R=20),
}
#: The paper's NE accuracy (per cent) and the distance from it that counts as "about 90 %".
PAPER_NE_ACC, NE_MARGIN = 90.0, 2.5


def tasks(scale="paper", seed=0):
    """The generator tasks (one per reading and data set) and the bias tasks (one per distribution and data set)."""
    if scale not in SETTINGS:
        raise ValueError(f"scale must be one of {list(SETTINGS)}, got {scale!r}")
    s = SETTINGS[scale]
    out = [dict(kind="generator", reading=r, dataset_index=i, N=s["N"], Cs=s["Cs"], seed=seed)
           for r in READINGS for i in range(s["S"])]
    out += [dict(kind="bias", distribution=d, dataset_index=i, N=s["N"], L=s["L"], C=s["bias_C"], kappa=s["kappa"],
                 R=s["R"], seed=seed) for d in ("gaussian", "uniform", "beta") for i in range(s["bias_sets"])]
    return out


def generator_task(reading, dataset_index, N, Cs, seed, n_folds=5):
    """NE of the nominal SVM on one mixture data set of §7.1.1 under ``reading`` of Sigma's diagonal, per fold and C."""
    from sklearn.model_selection import StratifiedKFold

    from ...bental2012.data import make_mixture_data
    from ...bental2012.robust import robust_bias
    from ...core import linear_kernel, svm_dual

    X, y = make_mixture_data(N, random_state=derive_seed(seed, "reading", N, dataset_index), diagonal=reading)
    K = linear_kernel(X)
    folds = StratifiedKFold(n_splits=n_folds, shuffle=True, random_state=derive_seed(seed, "folds", dataset_index))
    ne = {str(C): [] for C in Cs}
    for train, test in folds.split(X, y):
        for C in Cs:
            sol = svm_dual(K[np.ix_(train, train)], y[train], C)
            b = robust_bias(K[np.ix_(train, train)], y[train], sol.alpha, C, rule="paper")
            f = K[np.ix_(test, train)] @ (y[train] * sol.alpha) + b
            ne[str(C)].append(float(np.mean(np.where(f >= 0, 1.0, -1.0) != y[test])))
    return {"d": int(X.shape[1]), "NE": ne}


def free_bias(g, y):
    """The b minimising the training errors of sign(g + b) (the middle of the best interval; ties: nearest 0)."""
    g, y = np.asarray(g, float), np.asarray(y, float)
    cuts = np.unique(-g)
    cand = np.r_[cuts[0] - 1.0, (cuts[1:] + cuts[:-1]) / 2, cuts[-1] + 1.0] if cuts.size else np.zeros(1)
    err = np.array([np.sum(np.where(g + b >= 0, 1.0, -1.0) != y) for b in cand])
    best = cand[err == err.min()]
    return float(best[np.argmin(np.abs(best))])


def bias_task(distribution, dataset_index, N, L, C, kappa, R, seed, n_folds=5):
    """Fig. 2's five folds of one data set (its seeds): USSVM's alpha by the alternating method (certified to a
    1e-3 relative gap), NE / ME / RE under each bias rule of :data:`RULES`, and the nominal SVM's."""
    from sklearn.model_selection import StratifiedKFold

    from ...bental2012.data import make_uncertain_dataset
    from ...bental2012.prediction import evaluate_prediction_rules
    from ...bental2012.robust import effective_kernel, robust_bias
    from ...bental2012.ussvm import ussvm_fss
    from ...core import svm_dual
    from .experiments import FSS_FAST

    ds = make_uncertain_dataset(distribution, N, L, random_state=derive_seed(seed, "data", distribution, N, L,
                                                                             dataset_index))
    folds = StratifiedKFold(n_splits=n_folds, shuffle=True, random_state=derive_seed(seed, "folds", dataset_index))
    out = {"d": int(ds.X.shape[1]), "folds": []}
    for fold, (train, test) in enumerate(folds.split(ds.X, ds.y)):
        Kb, Ks = ds.kernels(train, train)
        Kb_te, Ks_te = ds.kernels(test, train)
        stack_te = np.concatenate([Kb_te[None], Ks_te])
        ytr, yte = ds.y[train], ds.y[test]
        eta_seed = derive_seed(seed, "eta", distribution, dataset_index, fold, kappa)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = ussvm_fss(Kb, Ks, ytr, C, kappa, tol=1e-3, max_iter=100_000, step="backtracking", R0="probe",
                            **FSS_FAST)
        K_eff = effective_kernel(Kb, Ks, res.eta)
        g = Kb @ (ytr * res.alpha)
        bs = {"paper": float(res.b), "kbar": robust_bias(Kb, ytr, res.alpha, C, rule="paper", floor=1e-3),
              "free_sv": robust_bias(K_eff, ytr, res.alpha, C, rule="free"), "free_b": free_bias(g, ytr)}
        row = {"fold": fold, "mn_success": bool(res.success), "mn_nit": int(res.nit), "mn_gap": float(res.gap),
               "eta_sum": float(np.sum(res.eta))}
        for rule, b in bs.items():
            e = evaluate_prediction_rules(stack_te, yte, ytr, res.alpha, b, kappa, R=R, random_state=eta_seed)
            row.update({f"{rule}_b": float(b), **{f"{rule}_{k}": float(v) for k, v in e.items()}})
        sol = svm_dual(Kb, ytr, C)
        b = robust_bias(Kb, ytr, sol.alpha, C, rule="paper")
        e = evaluate_prediction_rules(stack_te, yte, ytr, sol.alpha, b, kappa, R=R, random_state=eta_seed)
        row.update({f"svm_{k}": float(v) for k, v in e.items()})
        out["folds"].append(row)
    return out


@task_name("robustpapers.reproduce.bental2012.nominal:nominal_task")
def nominal_task(kind, seed, **params):
    """The task function of this artefact: :func:`generator_task` or :func:`bias_task` by ``kind``."""
    if kind == "generator":
        return generator_task(seed=seed, **params)
    if kind == "bias":
        return bias_task(seed=seed, **params)
    raise ValueError(f"kind must be 'generator' or 'bias', got {kind!r}")


TASK = nominal_task


def records(root=None, scale="paper", seed=0):
    """The cached records of :func:`tasks` (None where not cached), in task order."""
    from ..artefact import load
    import sys

    return load(sys.modules[__name__], root, scale, seed)


def _frames(recs):
    import pandas as pd

    gen, bias = [], []
    for r in recs:
        if r is None:
            continue
        p, res = r["params"], r["result"]
        if p["kind"] == "generator":
            for C, v in res["NE"].items():
                gen += [dict(reading=p["reading"], dataset_index=p["dataset_index"], C=float(C), fold=k, NE=e,
                             d=res["d"]) for k, e in enumerate(v)]
        else:
            bias += [dict(distribution=p["distribution"], dataset_index=p["dataset_index"], **row)
                     for row in res["folds"]]
    return pd.DataFrame(gen), pd.DataFrame(bias)


def numbers(recs):
    """NE accuracy (per cent) per reading and C; per distribution, NE accuracy of the SVM and of USSVM per bias
    rule (certified folds), and the fold counts."""
    gen, bias = _frames(recs)
    out = {"missing": sum(r is None for r in recs)}
    if len(gen):
        tab = (100 * (1 - gen.groupby(["reading", "C"]).NE.mean())).unstack("C")
        out["readings"] = tab.rename(columns=lambda c: f"C = {c:g}")
    if len(bias):
        ok = bias[bias.mn_success]
        cols = {"svm_NE": "Nominal-SVM"} | {f"{r}_NE": f"USSVM, {w}" for r, w in RULES.items()}
        tab = 100 * (1 - ok.groupby("distribution")[list(cols)].mean())
        out["bias"] = tab.rename(columns=cols).rename(index=Cm_DIST).T
        out["bias_folds"] = int(len(bias))
        out["bias_certified"] = int(len(ok))
    return out


Cm_DIST = {"gaussian": "D_G", "uniform": "D_U", "beta": "D_B"}


def claims(recs):
    """Per reading: the nominal SVM's NE accuracy is about 90 %; per distribution and bias rule: USSVM's NE
    accuracy is as the SVM's (noninferior by the margin) -- which rule reproduces "all formulations 90 %"."""
    gen, bias = _frames(recs)
    out = []
    for reading in READINGS:
        g = gen[gen.reading == reading] if len(gen) else gen
        if not len(g):
            out.append(Claim(PAPER, f"sec7_3-svm-ne-90-{reading}", "§7.1.1, §7.3",
                             "All formulations achieved about 90 % accuracy in NE.", "inconclusive", artefact=LABEL,
                             condition=f"Sigma's diagonal read as {reading}", note="not cached",
                             algorithm=Cm.SVM, rule="NE accuracy within 90 +- 2.5 points (needs the runs)"))
            continue
        per = g[g.C == 100.0].groupby(["dataset_index", "fold"]).NE.mean()
        res = equivalent(100 * (1 - per) - PAPER_NE_ACC, NE_MARGIN)
        mean = float(100 * (1 - per.mean()))
        by_c = (100 * (1 - g.groupby("C").NE.mean())).round(1).to_dict()
        out.append(Claim(PAPER, f"sec7_3-svm-ne-90-{reading}", "§7.1.1, §7.3",
                         "All formulations achieved about 90 % accuracy in NE (here: the nominal SVM on the "
                         "generator's data).", artefact=LABEL,
                         condition=f"Sigma's diagonal read as {reading}", paper_value=PAPER_NE_ACC,
                         algorithm=Cm.SVM,
                         note=f"per (data set, fold) at C = 100: NE accuracy minus 90 (per cent points), judged "
                              f"against +-{NE_MARGIN:g}; mean NE accuracy {mean:.1f} %; by C: {by_c}; "
                              f"{g.dataset_index.nunique()} data sets, dimensions {sorted(set(g.d))}.", **res))
    if len(bias):
        for dist, tag in Cm_DIST.items():
            b = bias[bias.distribution == dist]
            if not len(b):
                continue
            for rule, words in RULES.items():
                diff = 100 * (b["svm_NE"] - b[f"{rule}_NE"])  # accuracy(USSVM) - accuracy(SVM), per cent
                res = noninferior(diff, NE_MARGIN, certified=b["mn_success"])
                acc = float(100 * (1 - b[f"{rule}_NE"][b.mn_success].mean()))
                out.append(Claim(PAPER, f"sec7_3-ussvm-ne-as-svm-{rule.replace('_', '')}-{tag.lower().replace('_', '')}",
                                 "§7.3", "USSVM achieves the nominal SVM's NE accuracy (\"all the formulations ... "
                                 "90 %\").", artefact=LABEL, condition=f"{tag}; bias: {words}",
                                 paper_value="same as the SVM", algorithm=f"{Cm.ALTERNATING}; {Cm.SVM}",
                                 note=f"per fold: NE accuracy of USSVM minus the nominal SVM's (per cent points); "
                                      f"USSVM NE accuracy {acc:.1f} % with this bias; {len(b)} folds of "
                                      f"{b.dataset_index.nunique()} data sets of Fig. 2 (kappa = 1, C = 100).", **res))
    return out
