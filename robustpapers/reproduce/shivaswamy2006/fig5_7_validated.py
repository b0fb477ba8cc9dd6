"""shivaswamy2006 Figs. 5-7 with γ and C chosen on the training data, the §6.1 prediction rule against its
alternatives, and the chance-constraint guarantee (8) against the values that were deleted.

Each task is one random 9:1 split of the Figs. 5-7 protocol (the same split and the same deletions as
``uci_missing_task``, whose records draw Figs. 5-7): the nominal classifier's C and the robust classifier's
(C, γ) are chosen by stratified k-fold cross-validation on the incomplete training data (actual error
of the §6.1 rule on the validation folds, EM refitted inside each fold), and the clean SVM's C the same
way on the complete training data. With the chosen values the task records

* the three test measures of §3.3 for both classifiers (at the robust classifier's chosen γ);
* on the *same weights*, the actual test error of three ways to complete a test pattern: the §6.1 rule
  (impute under each class, keep the imputation farther from the hyperplane in its own metric), a
  class-agnostic imputation (the conditional mean (42) under one EM model of all training patterns),
  and the true complete test pattern (the values the protocol deleted);
* for the robust classifier of Figs. 5-7 (C = 1) at γ = 1, 2, 3: how often an incomplete training
  pattern, completed by its deleted values, violates the chance constraint (8) that the SOCP (44)
  promises to meet with probability at least κ = γ²/(1 + γ²), and the standardised deviation
  z = y w·(x − x̄)/‖Σ^{1/2} w‖ of its true values from the imputation, whose lower tail the
  one-sided Chebyshev bound puts at P(z ≤ −k) ≤ 1/(1 + k²) for any distribution with the EM moments.
"""
from __future__ import annotations

import numpy as np

from .. import ledger
from ._shared import CERT_NOTE, PAPER, fmt_interval

PAPER = PAPER
LABEL = "shivaswamy2006 Figs. 5–7 (γ and C by validation)"
EXPERIMENT = "uci_validated"
VERSION = 1
#: The page reads the paper-scale records and never computes them (60 tasks, about 15 CPU-minutes).
LONG = True
DATASETS = {"heart": "Fig. 5", "ionosphere": "Fig. 6", "sonar": "Fig. 7"}
RATES = (0.5, 0.9)
#: The validation grids (fixed before looking) and the radii of the guarantee check.
SETTINGS = {
    "quick": dict(reps=1, gammas=[1.0, 3.0], Cs=[1.0], cv_folds=2, check_gammas=[2.0]),
    "paper": dict(reps=10, gammas=[0.5, 1.0, 2.0, 3.0], Cs=[0.1, 1.0, 10.0], cv_folds=3,
                  check_gammas=[1.0, 2.0, 3.0]),
}
MEASURES = ("actual", "expected", "worst_case")
#: The radius at which the guarantee (8) is judged (κ = 0.8), fixed before looking.
GAMMA_GUARANTEE = 2.0
#: The deviations k of the one-sided Chebyshev check P(z <= -k) <= 1/(1 + k^2).
KS = (1.0, 2.0, 3.0)

ALGORITHM = ("RobustMissingSVC (44), C-form (robust_svm, Clarabel via cvxpy) on class-conditional EM moments; "
             "nominal: the same solver at γ = 0; C (nominal) and (C, γ) (robust) chosen by 3-fold stratified "
             "cross-validation of the §6.1 rule's actual error on the training split, from C ∈ {0.1, 1, 10}, "
             "γ ∈ {0.5, 1, 2, 3}")
_NAMES = {"actual": "actual error", "expected": "expected error", "worst_case": "worst-case error"}


def _pick(errors, keys):
    """The key of least error; ties go to the earliest key (the caller orders keys by preference)."""
    return keys[int(np.argmin(np.round(np.asarray(errors, dtype=float), 12)))]


def uci_validated_task(dataset, rep, row_fraction, gammas, Cs, cv_folds=3, check_gammas=(1.0, 2.0, 3.0),
                       feature_fraction=0.5, seed=0):
    """One split of the Figs. 5-7 protocol with validated hyper-parameters, the §6.1 rule against its
    alternatives on the same weights, and the guarantee (8) checked on the deleted values."""
    from sklearn.model_selection import StratifiedKFold
    from sklearn.svm import SVC

    from ...datasets import load_dataset
    from ...shivaswamy2006.errors import classification_errors
    from ...shivaswamy2006.estimators import RobustMissingSVC
    from ...shivaswamy2006.missing import conditional_moments, delete_entries, em_gaussian, impute_by_fit
    from .experiments import _split, _standardise

    gammas, Cs = [float(g) for g in gammas], [float(c) for c in Cs]
    # the very split and deletions of uci_missing_task (same generator, same order of draws)
    rng = np.random.default_rng([seed, rep])
    ds = load_dataset(dataset)
    X, y = ds.X.astype(float), ds.y
    tr, te = _split(len(y), rng)
    Xtr = delete_entries(X[tr], row_fraction, feature_fraction, rng)
    Xte = delete_entries(X[te], 1.0, feature_fraction, rng)
    Xtr_s, Xte_s, Xtr_true, Xte_true = _standardise(Xtr, Xte, X[tr], X[te])
    ytr, yte = y[tr], y[te]

    def fit_all(Xf, yf, em_max_iter=1000):
        """Class EM once, then every (C, γ) of the grid on those moments: {(C, γ): model}."""
        base = RobustMissingSVC(gamma=0.0, C=1.0, em_max_iter=em_max_iter).fit(Xf, yf)
        ys = np.where(yf == base.classes_[1], 1.0, -1.0)
        out = {}
        for C in Cs:
            for g in [0.0] + gammas:
                m = RobustMissingSVC(gamma=g, C=C)
                m.classes_, m.n_features_in_ = base.classes_, base.n_features_in_
                out[(C, g)] = m._fit_with_moments(Xf, ys, base.means_, base.covariances_)
        return out, base

    folds = list(StratifiedKFold(n_splits=int(cv_folds), shuffle=True,
                                 random_state=int(rng.integers(2**31 - 1))).split(Xtr_s, ytr))
    val = {}
    clean_val = {C: [] for C in Cs}
    for fit_idx, val_idx in folds:
        models, _ = fit_all(Xtr_s[fit_idx], ytr[fit_idx])
        for key, m in models.items():
            val.setdefault(key, []).append(float(np.mean(m.predict(Xtr_s[val_idx]) != ytr[val_idx])))
        for C in Cs:
            svc = SVC(kernel="linear", C=C).fit(Xtr_true[fit_idx], ytr[fit_idx])
            clean_val[C].append(float(np.mean(svc.predict(Xtr_true[val_idx]) != ytr[val_idx])))
    val = {k: float(np.mean(v)) for k, v in val.items()}
    # ties: the smaller C (more regularised); for the robust classifier the smaller γ first
    nom_keys = [(C, 0.0) for C in Cs]
    rob_keys = [(C, g) for g in gammas for C in Cs]
    C_nom = _pick([val[k] for k in nom_keys], nom_keys)[0]
    C_rob, g_rob = _pick([val[k] for k in rob_keys], rob_keys)
    C_clean = _pick([np.mean(clean_val[C]) for C in Cs], Cs)

    out = {"C_nominal": C_nom, "C_robust": C_rob, "gamma_robust": g_rob, "C_clean": C_clean,
           "validation": {f"{C:g},{g:g}": v for (C, g), v in val.items()},
           "n_train": int(len(tr)), "n_test": int(len(te)), "positive_fraction_test": None}
    svc = SVC(kernel="linear", C=C_clean).fit(Xtr_true, ytr)
    out["clean"] = float(np.mean(svc.predict(Xte_true) != yte))

    base = RobustMissingSVC(gamma=0.0, C=C_nom, em_max_iter=5000).fit(Xtr_s, ytr)
    ys = np.where(ytr == base.classes_[1], 1.0, -1.0)
    yts = np.where(yte == base.classes_[1], 1.0, -1.0)
    out["positive_fraction_test"] = float(np.mean(yts > 0))
    robust = RobustMissingSVC(gamma=g_rob, C=C_rob)
    robust.classes_, robust.n_features_in_ = base.classes_, base.n_features_in_
    robust._fit_with_moments(Xtr_s, ys, base.means_, base.covariances_)
    pooled = em_gaussian(Xtr_s, max_iter=5000, reg=1e-6)
    Xag, _ = conditional_moments(Xte_s, pooled.mean, pooled.cov)
    for name, model in (("nominal", base), ("robust", robust)):
        w, b = model.coef_[0], model.intercept_[0]
        Xb, F, chosen = impute_by_fit(w, b, Xte_s, model._moments())
        e = classification_errors(w, b, Xb, yts, gamma=g_rob, factors=F)
        for key in MEASURES:
            out[f"{name}_{key}"] = float(e[key].mean())
        out[f"{name}_rule61"] = float(np.mean(np.sign(Xb @ w + b) != yts))
        out[f"{name}_agnostic"] = float(np.mean(np.sign(Xag @ w + b) != yts))
        out[f"{name}_true"] = float(np.mean(np.sign(Xte_true @ w + b) != yts))
        out[f"{name}_rule61_negative_imputation"] = float(np.mean(chosen < 0))

    # the guarantee (8) on the deleted values, for the classifiers of Figs. 5-7 (C = 1)
    inc = np.flatnonzero(np.isnan(Xtr_s).any(axis=1))
    check = {}
    for g in [float(v) for v in check_gammas]:
        m = RobustMissingSVC(gamma=g, C=1.0)
        m.classes_, m.n_features_in_ = base.classes_, base.n_features_in_
        m._fit_with_moments(Xtr_s, ys, base.means_, base.covariances_)
        w, b = m.coef_[0], m.intercept_[0]
        Xbar = np.empty_like(Xtr_s)
        s = np.zeros(len(ys))
        for k, c in enumerate((-1.0, 1.0)):
            rows = np.flatnonzero(ys == c)
            Xbar[rows], F = conditional_moments(Xtr_s[rows], base.means_[k], base.covariances_[k])
            for j, i in enumerate(rows):
                s[i] = np.linalg.norm(F[j].T @ w) if F[j] is not None else 0.0
        margin_true = ys[inc] * (Xtr_true[inc] @ w + b)
        xi = m.result_.xi[inc]
        ok = s[inc] > 1e-12
        z = ys[inc][ok] * ((Xtr_true[inc][ok] - Xbar[inc][ok]) @ w) / s[inc][ok]
        check[f"{g:g}"] = {
            "violation": float(np.mean(margin_true < 1.0 - xi - 1e-9)),
            "bound": float(1.0 / (1.0 + g * g)),
            "n_incomplete": int(len(inc)),
            "z_tail": {f"{k:g}": float(np.mean(z <= -k)) for k in KS},
            "z_mean": float(np.mean(z)), "z_var": float(np.var(z)),
        }
    out["guarantee"] = check
    return out


TASK = uci_validated_task


def tasks(scale="paper", seed=0):
    """One task per (data set, missing rate, split)."""
    from ..engine import grid

    s = SETTINGS[scale]
    return grid(dataset=list(DATASETS), row_fraction=list(RATES), rep=list(range(s["reps"])),
                gammas=[s["gammas"]], Cs=[s["Cs"]], cv_folds=[s["cv_folds"]], check_gammas=[s["check_gammas"]],
                seed=[seed])


#: "Comes very close to the clean error": the robust classifier's actual error at most this much above the clean
#: SVM's (2 points of error, the margin of "close" in bhadra2010's chapter), fixed before looking.
CLOSE_MARGIN = 0.02
ALG_CLEAN = "clean: LIBSVM linear SVC (scikit-learn) on the complete data, C by the same cross-validation"


def records(root=None, scale="paper", seed=0):
    """The cached records at ``scale``, as a dict ``(dataset, row_fraction) -> list of records sorted by split``
    (missing ones left out; the claims say how many)."""
    from ..artefact import load

    out = {(ds, rate): [] for ds in DATASETS for rate in RATES}
    for r in load(__import__(__name__, fromlist=["_"]), root, scale, seed):
        if r is not None:
            out[(r["params"]["dataset"], r["params"]["row_fraction"])].append(r)
    for key in out:
        out[key].sort(key=lambda r: r["params"]["rep"])
    return out


def _col(recs, key):
    return np.array([r["result"][key] for r in recs], dtype=float)


def _cell(res, digits=3):
    if res["our_value"] is None:
        return "—"
    if res["interval"] is None:
        return f"{res['our_value']:+.{digits}f}"
    lo, hi = res["interval"]
    return f"{res['our_value']:+.{digits}f} [{lo:+.{digits}f}, {hi:+.{digits}f}]"


def _guarantee(recs, gamma, field, k=None):
    g = f"{float(gamma):g}"
    if k is None:
        return np.array([r["result"]["guarantee"][g][field] for r in recs], dtype=float)
    return np.array([r["result"]["guarantee"][g][field][f"{float(k):g}"] for r in recs], dtype=float)


def numbers(records):
    """What the page shows, as three DataFrames:

    ``validated`` -- per (data set, missing rate): the mean actual test error of the nominal, robust and clean
    classifiers with their validated hyper-parameters, the paired differences with 95 % intervals and the
    γ and C chosen; ``rule`` -- per (data set, missing rate, weights): the actual error of the same weights
    with the §6.1 rule, the class-agnostic imputation and the true complete test points, and how often the
    §6.1 rule used the negative class's imputation; ``guarantee`` -- per (data set, missing rate, γ): how often
    an incomplete training pattern completed by its deleted values violates (8), against 1/(1 + γ²), and the
    lower tail of its standardised deviation z against the one-sided Chebyshev bound.
    """
    import collections

    import pandas as pd

    val, rule, guar = [], [], []
    for (ds, rate), recs in records.items():
        name, pct = ds.capitalize(), f"{int(round(100 * rate))} %"
        if not recs:
            continue
        nom, rob, cln = _col(recs, "nominal_actual"), _col(recs, "robust_actual"), _col(recs, "clean")
        chosen = collections.Counter((r["result"]["C_robust"], r["result"]["gamma_robust"]) for r in recs)
        (c_top, g_top), n_top = chosen.most_common(1)[0]
        val.append({"data set": name, "incomplete": pct, "splits": len(recs), "nominal": nom.mean(),
                    "robust": rob.mean(), "clean": cln.mean(),
                    "nominal − robust": _cell(ledger.paired(nom - rob)),
                    "robust − clean": _cell(ledger.paired(rob - cln)),
                    "γ chosen": ", ".join(f"{g:g}" for g in sorted({r["result"]["gamma_robust"] for r in recs})),
                    "most often (C, γ)": f"({c_top:g}, {g_top:g}) in {n_top}",
                    "C nominal": ", ".join(f"{c:g}" for c in sorted({r["result"]["C_nominal"] for r in recs}))})
        pos = _col(recs, "positive_fraction_test")
        for who in ("robust", "nominal"):
            r61, agn, tru = (_col(recs, f"{who}_{k}") for k in ("rule61", "agnostic", "true"))
            rule.append({"data set": name, "incomplete": pct, "weights": who, "§6.1 rule": r61.mean(),
                         "class-agnostic": agn.mean(), "true points": tru.mean(),
                         "§6.1 − agnostic": _cell(ledger.paired(r61 - agn)),
                         "§6.1 − true": _cell(ledger.paired(r61 - tru)),
                         "sent to class −1's imputation": _col(recs, f"{who}_rule61_negative_imputation").mean(),
                         "class −1 in the test set": 1.0 - pos.mean()})
        for g in recs[0]["result"]["guarantee"]:
            v, bound = _guarantee(recs, g, "violation"), 1.0 / (1.0 + float(g) ** 2)
            row = {"data set": name, "incomplete": pct, "γ": float(g), "violations of (8)": v.mean(),
                   "bound 1/(1+γ²)": bound, "bound − violations": _cell(ledger.paired(bound - v))}
            for k in KS:
                row[f"P(z ≤ −{k:g}) [≤ {1 / (1 + k * k):.2f}]"] = _guarantee(recs, g, "z_tail", k).mean()
            guar.append(row)
    return {"validated": pd.DataFrame(val), "rule": pd.DataFrame(rule), "guarantee": pd.DataFrame(guar)}


def claims(records):
    """Per (data set, missing rate): robust against nominal and robust against clean with validated
    hyper-parameters; per data set: the guarantee (8) on the deleted values."""
    out = []
    for ds, fig in DATASETS.items():
        pooled = []
        for rate in RATES:
            recs = records.get((ds, rate), [])
            pct = int(round(100 * rate))
            cond = f"{ds}, {pct} % of training patterns incomplete"
            missing = f" Only {len(recs)} of the {SETTINGS['paper']['reps']} splits are cached." if len(recs) < 10 else ""
            pooled += recs
            nom, rob, cln = _col(recs, "nominal_actual"), _col(recs, "robust_actual"), _col(recs, "clean")
            gs = ", ".join(f"{r['result']['gamma_robust']:g}" for r in recs)
            res = ledger.paired(nom - rob, direction=1, runs_per_pair=2)
            out.append(ledger.Claim(
                paper=PAPER, id=f"fig5-7-validated-actual-{ds}-{pct}", where=fig, condition=cond,
                statement=("With a suitable amount of robustness the robust classifier (44) has a lower actual "
                           "error than the nominal classifier on the imputed data."),
                artefact=LABEL, paper_value="robust < nominal", algorithm=ALGORITHM,
                note=(f"γ and C of the robust classifier and C of the nominal one chosen by cross-validation on "
                      f"each training split (never on the test set). Nominal minus robust actual error, paired "
                      f"over {len(recs)} splits: {fmt_interval(res)}; means nominal {nom.mean() if recs else float('nan'):.3f}, "
                      f"robust {rob.mean() if recs else float('nan'):.3f}. γ chosen per split: {gs}.{missing} {CERT_NOTE}"),
                **res))
            res = ledger.noninferior(cln - rob, CLOSE_MARGIN, runs_per_pair=2)
            out.append(ledger.Claim(
                paper=PAPER, id=f"fig5-7-clean-{ds}-{pct}", where=fig, condition=cond,
                statement=("With a suitable amount of robustness the robust classifier comes very close to the "
                           "error rate of the classifier trained and tested on the clean data."),
                artefact=LABEL, paper_value="robust ≈ clean", algorithm=f"{ALGORITHM}; {ALG_CLEAN}",
                note=(f"'Very close' read as at most {CLOSE_MARGIN:g} above the clean error (fixed before looking). "
                      f"Clean minus robust actual error with validated hyper-parameters, paired over {len(recs)} "
                      f"splits: {fmt_interval(res)}; means clean {cln.mean() if recs else float('nan'):.3f}, robust "
                      f"{rob.mean() if recs else float('nan'):.3f}.{missing} {CERT_NOTE}"),
                **res))
        g = GAMMA_GUARANTEE
        bound = 1.0 / (1.0 + g * g)
        have = [r for r in pooled if f"{g:g}" in r["result"]["guarantee"]]
        v = _guarantee(have, g, "violation") if have else np.array([])
        res = ledger.paired(bound - v, direction=1)
        per_rate = "; ".join(
            f"{int(round(100 * rate))} % incomplete: violations {_guarantee(rr, g, 'violation').mean():.3f}, "
            f"P(z ≤ −2) {_guarantee(rr, g, 'z_tail', 2).mean():.3f}, P(z ≤ −3) {_guarantee(rr, g, 'z_tail', 3).mean():.3f}"
            for rate in RATES if (rr := [r for r in have if r["params"]["row_fraction"] == rate]))
        out.append(ledger.Claim(
            paper=PAPER, id=f"fig5-7-guarantee-{ds}", where="§3.1, (8); §6.1", condition=ds,
            statement=("Each incomplete pattern lies on its side of the hyperplane (margin 1 − ξ) with "
                       "probability at least κ = γ²/(1 + γ²) for any distribution with the EM moments."),
            artefact=LABEL, paper_value=f"violations ≤ 1 − κ = {bound:g} at γ = {g:g}",
            algorithm=("RobustMissingSVC (44), C = 1, γ = 2 (robust_svm, Clarabel via cvxpy) on class-conditional "
                       "EM moments; the deleted values put back after training"),
            note=(f"The fraction of incomplete training patterns that, completed by the values the protocol deleted, "
                  f"violate y(⟨w, x⟩ + b) ≥ 1 − ξ, against the promised 1/(1 + γ²) = {bound:g}; bound minus "
                  f"fraction, paired over {len(have)} (split, missing rate) runs: {fmt_interval(res)}. {per_rate} "
                  "(z = y⟨w, x − x̄⟩/‖Σ^{1/2}w‖ of the true values; any distribution with the EM moments has "
                  "P(z ≤ −k) ≤ 1/(1 + k²): 0.20 for k = 2, 0.10 for k = 3)." + f" {CERT_NOTE}"),
            **res))
    return out


def status(records, scale="paper"):
    """How much of the sweep is cached: ``"k of n runs cached (complete: ...)"``, for the page."""
    reps = SETTINGS[scale]["reps"]
    n = sum(len(v) for v in records.values())
    total = len(DATASETS) * len(RATES) * reps
    done = [f"{ds.capitalize()} {int(round(100 * rate))} %" for (ds, rate), v in records.items() if len(v) == reps]
    if n == total:
        return f"all {total} runs ({reps} splits for each data set and missing rate)"
    return (f"{n} of the {total} runs ({reps} splits for each data set and missing rate); complete for "
            + (", ".join(done) if done else "none") + "; a condition with fewer splits is not judged")


def rule_summary(records, weights="robust"):
    """The §6.1 rule on ``weights``, summed up over the conditions with at least two splits: in how many its
    actual error is significantly above (95 % interval over the splits) the class-agnostic imputation's and the
    true test points', and the condition where the share of test patterns it imputes as class −1 is farthest
    from the share of class −1 in the test set."""
    worse_agn = worse_true = better_agn = n = 0
    far = None
    for (ds, rate), recs in records.items():
        if len(recs) < 2:
            continue
        n += 1
        r61, agn, tru = (_col(recs, f"{weights}_{k}") for k in ("rule61", "agnostic", "true"))
        iv = ledger.paired(r61 - agn)["interval"]
        worse_agn += iv[0] > 0
        better_agn += iv[1] < 0
        worse_true += ledger.paired(r61 - tru)["interval"][0] > 0
        sent = float(_col(recs, f"{weights}_rule61_negative_imputation").mean())
        neg = float(1.0 - _col(recs, "positive_fraction_test").mean())
        if far is None or abs(sent - neg) > abs(far["sent"] - far["negative"]):
            far = {"condition": f"{ds.capitalize()} with {int(round(100 * rate))} % of the training patterns "
                                f"incomplete", "sent": sent, "negative": neg}
    return {"conditions": n, "worse_than_agnostic": int(worse_agn), "better_than_agnostic": int(better_agn),
            "worse_than_true": int(worse_true), "farthest": far}
