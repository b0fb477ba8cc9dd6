"""bhadra2010 Fig. 1: RobustErr against kappa for RSVM, RSVM^(g) and the nominal SVM (bhadra2010 §5.1.2).

The records of ``robustness_task(test_noise="kappa")`` (20 synthetic data sets of 2 x 100 points split
half/half, C = 10, kappa in {0, 0.25, ..., 2.5}, 100 sampled kernels; 660 tasks at paper scale): every
classifier is trained at kappa and scored on test kernels whose noise grows with kappa, as §5.1.2 says
("with the increase of uncertainty in test examples"): :math:`\\bar K + \\kappa Z^s` with the same draws
:math:`Z^s` at every kappa. RSVM_QP, RSVM_SOCP, their RSVM^(g) counterparts and the SVM are fitted at every
kappa; RSVM_QN (100 starts at every kappa would cost about 7 CPU hours) at the largest kappa, in the records of
``qn_socp_task`` (the same split and test kernels, 5 starts). Per noise model (Gaussian, uniform,
Beta(0.5, 0.5)), paired over the data sets:

* at kappa = 0 every RSVM has the SVM's RobustErr (an identity, one claim);
* the SVM's RobustErr grows with kappa (RobustErr at the largest kappa minus at kappa = 0);
* RSVM_SOCP and RSVM^(g)_SOCP stay below the SVM (the SVM's RobustErr minus theirs, averaged over kappa > 0
  on each data set); RSVM_QN and RSVM^(g)_QN at the largest kappa;
* RSVM_QP and RSVM^(g)_QP perform comparably with the SVM (the same difference inside ±5 points);
* RSVM_QN and RSVM^(g)_QN sometimes have a higher RobustErr than the SOCP of their family (a count).
"""
from __future__ import annotations

import numpy as np

from .. import ledger
from . import _common
from ._common import ALGORITHM, NOISE_NAME, PAPER, label

LABEL = "bhadra2010 Fig. 1"
EXPERIMENT = "fig1"
VERSION = 3
NOISES = ("gaussian", "uniform", "beta0.5")  # the panels, left to right
#: The classifiers fitted at every kappa (QN: at the largest kappa, :data:`QN_EXPERIMENT`).
METHODS = ("RSVM_QP", "RSVM_SOCP", "RSVMg_QP", "RSVMg_SOCP", "SVM")
QN_EXPERIMENT = "qn_socp"
#: Margin of "comparably" (points of RobustErr, averaged over kappa > 0).
COMPARABLE_MARGIN = 5.0
N_DATA = 20

GROWING = ("Every kappa is scored on test kernels whose noise is kappa times the training noise's draws (the "
           "same draws at every kappa).")
NO_CERT = "The records store no solver status: the LIBSVM and cvxpy runs count as certified."


#: The sizes of each scale (``robustpapers.reproduce.bhadra2010.experiments.PAPER_SCALE`` / ``QUICK_SCALE``).
SETTINGS = _common.scale_settings()


def tasks(scale="paper", seed=0):
    """The ``robustness_task`` parameters of Fig. 1 at ``scale`` (660 at paper scale)."""
    return _common.sweep_at(EXPERIMENT, SETTINGS, scale, seed)


def qn_tasks(scale="paper", seed=0):
    """The ``qn_socp_task`` parameters at ``scale`` (QN against the SOCP at the largest kappa)."""
    from .experiments import sweep_tasks

    return sweep_tasks(QN_EXPERIMENT, SETTINGS[scale], seed)[1]


def __getattr__(name):  # TASK without importing the experiments at module import (the ledger reads records only)
    if name == "TASK":
        from .experiments import robustness_task

        return robustness_task
    raise AttributeError(name)


def records(root=None, scale="paper", seed=0):
    """``{"growing": [...], "qn": [...]}``: the records of ``robustness_task(test_noise="kappa")`` (660 at paper
    scale) and of ``qn_socp_task`` (120) at ``scale``."""
    if scale not in SETTINGS:
        raise ValueError(f"scale must be one of {sorted(SETTINGS)}, got {scale!r}")
    S = SETTINGS[scale]
    where = dict(n_per_class=S["n_per_class"], n_samples=S["n_samples"], seed=seed)
    return {"growing": _common.records(EXPERIMENT, root, where=dict(where, iid=False, test_noise="kappa")),
            "qn": _common.records(QN_EXPERIMENT, root, where=dict(where, n_starts=S["n_starts_qnsoc"]))}


def for_page(scale="quick", seed=0, n_jobs=1, root=None):
    """The records the page shows at ``scale`` (computed first unless ``scale="paper"``): :func:`records`."""
    return _common.compute_or_read((EXPERIMENT, QN_EXPERIMENT), SETTINGS, records, scale, seed, n_jobs, root)


def qn_arrays(recs):
    """Records of ``qn_socp_task`` as arrays: per (noise, family), ``datasets`` and per key of the result
    (``RE_SOCP``, ``RE_QN<k>``, ``qn<k>_objective``, ``socp_objective``, ...) a vector over the data sets."""
    out = {}
    for r in recs:
        p = r["params"]
        out.setdefault((p["noise"], p["family"]), []).append(r)
    arr = {}
    for key, rs in out.items():
        rs = sorted(rs, key=lambda r: r["params"]["dataset"])
        arr[key] = {"datasets": [r["params"]["dataset"] for r in rs], "kappa": rs[0]["params"]["kappa"],
                    "keep": rs[0]["params"]["keep"],
                    **{k: np.array([r["result"][k] for r in rs]) for k in rs[0]["result"]}}
    return arr


#: Fewest complete data sets (every kappa cached) a claim rests on (the ledger's minimum number of pairs).
N_MIN = 10


def complete(A):
    """``A`` (:func:`_common.robustness_arrays`) restricted, per noise, to the data sets with every kappa and
    classifier cached; ``n_complete`` says how many (a sweep computed piecewise is judged on what is complete)."""
    out = {}
    for noise, a in A.items():
        keep = np.all([np.isfinite(v).all(axis=1) for v in a["values"].values()], axis=0)
        out[noise] = dict(a, values={m: v[keep] for m, v in a["values"].items()},
                          datasets=[d for d, k in zip(a["datasets"], keep) if k], n_complete=int(keep.sum()))
    return out


def _subset_note(a):
    n = a["n_complete"]
    return "" if n >= N_DATA else f" Judged on the {n} of {N_DATA} data sets whose runs are all cached."


def kappa0_claim(A, methods, cid, where, artefact, n_expected):
    """At kappa = 0 every RSVM classifier has the SVM's RobustErr on every data set and noise (an identity)."""
    stmt = "at kappa = 0 the RobustErr of RSVM and RSVM(g) is exactly that of the SVM"
    base = dict(paper=PAPER, id=cid, where=where, artefact=artefact, statement=stmt, paper_value=0.0,
                algorithm="; ".join(f"{label(m)}: {ALGORITHM[m]}" for m in methods))
    n_tasks = sum(a["n_tasks"] for a in A.values())
    if len(A) < len(NOISES) or min(a["n_complete"] for a in A.values()) < N_MIN:
        return ledger.Claim(**base, **_common.not_run(n_expected - n_tasks, n_expected))
    dev = [np.abs(a["values"][m][:, 0] - a["values"]["SVM"][:, 0]) for a in A.values() for m in methods
           if m != "SVM" and a["kappas"][0] == 0.0]
    dev = np.concatenate(dev)
    res = ledger.target(float(np.nanmax(dev)), 0.0, 1e-9, kind="abs", n_runs=int(dev.size))
    res["rule"] += " (largest |RobustErr(RSVM) - RobustErr(SVM)| at kappa = 0 over data sets, noises, classifiers)"
    return ledger.Claim(**base, **res, note=f"{dev.size} (data set, noise, classifier) cases at kappa = 0 ({n_tasks} of "
                                           f"{n_expected} tasks cached). {NO_CERT}")


def svm_grows_claim(A, noise, cid, where, artefact):
    """The SVM's RobustErr at the largest kappa minus at kappa = 0, paired over data sets (the paper: > 0)."""
    a = A.get(noise)
    name = NOISE_NAME[noise]
    base = dict(paper=PAPER, id=cid, where=where, artefact=artefact, condition=f"{name} noise",
                statement=f"the SVM's RobustErr grows with kappa under {name} noise",
                paper_value="RobustErr(kappa = 2.5) > RobustErr(kappa = 0)", algorithm=ALGORITHM["SVM"])
    n_exp = N_DATA * 11
    if a is None or a["n_complete"] < N_MIN:
        return ledger.Claim(**base, **_common.not_run(n_exp - (a["n_tasks"] if a else 0), n_exp))
    v = a["values"]["SVM"]
    res = ledger.paired(v[:, -1] - v[:, 0], runs_per_pair=2)
    res["rule"] += f"; pairs = {len(a['datasets'])} data sets"
    mono = int(np.sum(np.all(np.diff(v, axis=1) >= 0, axis=1)))
    note = (f"Our value: mean over data sets of the SVM's RobustErr (%) at kappa = {a['kappas'][-1]:g} minus at "
            f"kappa = 0 ({np.nanmean(v[:, 0]):.1f} -> {np.nanmean(v[:, -1]):.1f}); it never decreases along the "
            f"axis on {mono} of {len(a['datasets'])} data sets. {GROWING}{_subset_note(a)} {NO_CERT}")
    return ledger.Claim(**base, **res, note=note)


def below_svm_claim(A, noise, method, cid, where, artefact, stmt=None, paper_value="RSVM below the SVM"):
    """The SVM's RobustErr minus ``method``'s, averaged over kappa > 0 on each data set, paired over data sets."""
    a = A.get(noise)
    name = NOISE_NAME[noise]
    base = dict(paper=PAPER, id=cid, where=where, artefact=artefact, condition=f"{name} noise",
                statement=stmt or (f"{label(method)}'s RobustErr stays below the SVM's as kappa grows, "
                                   f"under {name} noise"),
                paper_value=paper_value, algorithm=f"{ALGORITHM[method]}; SVM: {ALGORITHM['SVM']}")
    n_exp = N_DATA * 11
    if a is None or a["n_complete"] < N_MIN:
        return ledger.Claim(**base, **_common.not_run(n_exp - (a["n_tasks"] if a else 0), n_exp))
    pos = a["kappas"] > 0
    diff = np.nanmean(a["values"]["SVM"][:, pos] - a["values"][method][:, pos], axis=1)
    res = ledger.paired(diff, runs_per_pair=2 * int(pos.sum()))
    res["rule"] += f"; pairs = {len(a['datasets'])} data sets, each the mean over the {int(pos.sum())} kappas > 0"
    at_max = float(np.nanmean(a["values"]["SVM"][:, -1] - a["values"][method][:, -1]))
    note = (f"Our value: mean RobustErr (%) of the SVM minus {label(method)}'s, averaged over kappa > 0 and data "
            f"sets ({at_max:.1f} points at kappa = {a['kappas'][-1]:g}). {GROWING}{_subset_note(a)} {NO_CERT}")
    return ledger.Claim(**base, **res, note=note)


def comparable_claim(A, noise, method, cid, where, artefact):
    """``method`` comparable with the SVM: the mean RobustErr difference over kappa > 0 inside ±margin."""
    a = A.get(noise)
    name = NOISE_NAME[noise]
    base = dict(paper=PAPER, id=cid, where=where, artefact=artefact, condition=f"{name} noise",
                statement=(f"{label(method)} performs comparably with the SVM (beta is not rank one), "
                           f"under {name} noise"),
                paper_value="comparable", algorithm=f"{ALGORITHM[method]}; SVM: {ALGORITHM['SVM']}")
    n_exp = N_DATA * 11
    if a is None or a["n_complete"] < N_MIN:
        return ledger.Claim(**base, **_common.not_run(n_exp - (a["n_tasks"] if a else 0), n_exp))
    pos = a["kappas"] > 0
    diff = np.nanmean(a["values"]["SVM"][:, pos] - a["values"][method][:, pos], axis=1)
    res = ledger.equivalent(diff, COMPARABLE_MARGIN, runs_per_pair=2 * int(pos.sum()))
    res["rule"] += (f" (points of RobustErr); pairs = {len(a['datasets'])} data sets, each the mean over the "
                    f"{int(pos.sum())} kappas > 0")
    note = (f"Our value: mean RobustErr (%) of the SVM minus {label(method)}'s over kappa > 0 and data sets. {GROWING}"
            f"{_subset_note(a)} {NO_CERT}")
    return ledger.Claim(**base, **res, note=note)


def _qn_vs_svm_claim(A, Q, noise, fam, cid):
    """QN's RobustErr below the SVM's at the largest kappa (the same test kernels), paired over data sets."""
    name, qn = NOISE_NAME[noise], f"{fam}_QN"
    base = dict(paper=PAPER, id=cid, where="Fig. 1", artefact=LABEL, condition=f"{name} noise",
                statement=f"{label(qn)}'s RobustErr stays below the SVM's as kappa grows, under {name} noise",
                paper_value="RSVM below the SVM",
                algorithm=f"{ALGORITHM[qn]} (5 starts); SVM: {ALGORITHM['SVM']}")
    a, q = A.get(noise), Q.get((noise, "fs" if fam == "RSVM" else "g"))
    n_have = (a["n_tasks"] if a else 0) + (len(q["datasets"]) if q else 0)
    both = [d for d in (q["datasets"] if q else []) if a is not None and d in a["datasets"]]
    if len(both) < N_MIN:
        return ledger.Claim(**base, **_common.not_run(N_DATA * 12 - n_have, N_DATA * 12))
    k = q["keep"][-1]
    rows = [q["datasets"].index(d) for d in both]
    svm = a["values"]["SVM"][[a["datasets"].index(d) for d in both], -1]
    ok = q[f"qn{k}_converged"].astype(bool)[rows]
    res = ledger.paired(svm - q[f"RE_QN{k}"][rows], certified=ok, runs_per_pair=2)
    res["n_runs"], res["n_certified"] = 2 * ok.size, ok.size + int(ok.sum())
    res["rule"] += f"; pairs = data sets, at kappa = {q['kappa']:g} only"
    note = (f"Our value: mean RobustErr (%) of the SVM minus {label(qn)}'s at kappa = {q['kappa']:g} (the largest of "
            f"the axis; QN is not run at the other kappas), best of {k} starts; {int((~ok).sum())} of {ok.size} QN "
            f"fits did not converge (left out); {len(both)} data sets with both runs cached. {GROWING} {NO_CERT}")
    return ledger.Claim(**base, **res, note=note)


def claims(records):
    """The claims of Fig. 1 (see the module docstring)."""
    A = complete(_common.robustness_arrays(records["growing"]))
    Q = qn_arrays(records["qn"])
    out = [kappa0_claim(A, ["RSVM_QP", "RSVM_SOCP", "RSVMg_QP", "RSVMg_SOCP"],
                        "f1-kappa0-equals-svm", "Fig. 1", LABEL, N_DATA * 11 * len(NOISES))]
    for noise in NOISES:
        out.append(svm_grows_claim(A, noise, f"f1-svm-grows-{noise}", "Fig. 1", LABEL))
        for m in ("RSVM_SOCP", "RSVMg_SOCP"):
            out.append(below_svm_claim(A, noise, m, f"f1-{m.lower().replace('_', '-')}-below-svm-{noise}",
                                       "Fig. 1", LABEL))
        for fam in ("RSVM", "RSVMg"):
            out.append(_qn_vs_svm_claim(A, Q, noise, fam, f"f1-{fam.lower()}-qn-below-svm-{noise}"))
        for m in ("RSVM_QP", "RSVMg_QP"):
            out.append(comparable_claim(A, noise, m, f"f1-{m.lower().replace('_', '-')}-comparable-svm-{noise}",
                                        "Fig. 1", LABEL))
    # QN sometimes above the SOCP of its family: a count over (data set, noise, family) at the largest kappa
    stmt = "RSVM_QN and RSVM(g)_QN sometimes give a higher RobustErr than the SOCP of their family"
    base = dict(paper=PAPER, id="f1-qn-sometimes-above-socp", where="§5.1.2, Fig. 1", artefact=LABEL,
                statement=stmt, paper_value="sometimes (at least once)",
                algorithm="; ".join(f"{label(m)}: {ALGORITHM[m]}" for m in
                                    ("RSVM_QN", "RSVM_SOCP", "RSVMg_QN", "RSVMg_SOCP")))
    n_exp = N_DATA * len(NOISES) * 2
    n_have = sum(len(q["datasets"]) for q in Q.values())
    if len(Q) < 2 * len(NOISES) or min(len(q["datasets"]) for q in Q.values()) < N_MIN:
        out.append(ledger.Claim(**base, **_common.not_run(n_exp - n_have, n_exp)))
        return out
    count, cases, n_ok, fam = 0, 0, 0, {}
    for (noise, f), q in Q.items():
        k = q["keep"][-1]
        ok = q[f"qn{k}_converged"].astype(bool)
        above = (q[f"RE_QN{k}"] > q["RE_SOCP"]) & ok
        count, cases, n_ok = count + int(above.sum()), cases + ok.size, n_ok + int(ok.sum())
        fam[f] = fam.get(f, 0) + int(above.sum())
    res = ledger.target(float(count), 1.0, 0.0, kind="at_least", n_runs=2 * cases, n_certified=cases + n_ok)
    res["rule"] += " (cases, data set x noise x family at the largest kappa, where QN's RobustErr exceeds the SOCP's)"
    note = (f"{count} of {cases} cases ({n_have} of {n_exp} runs cached; {fam.get('fs', 0)} for RSVM, {fam.get('g', 0)} for RSVM(g)) at kappa = "
            f"{next(iter(Q.values()))['kappa']:g}. The paper blames local optima; here QN solves eq. (15) with the "
            "true beta and the SOCP with its PSD part, two different problems, and QN reaches the higher value of "
            f"eq. (15) (see the §3 claims). {GROWING} {NO_CERT}")
    out.append(ledger.Claim(**base, **res, note=note))
    return out


def numbers(records):
    """What the page shows of Fig. 1: ``curves`` (mean RobustErr, %, per noise, kappa and classifier, over data
    sets), ``qn`` (per noise and family at the largest kappa: mean RobustErr of QN, its family's SOCP and the
    SVM, and how many QN fits converged), ``n_tasks``, ``n_datasets``."""
    import pandas as pd

    A = complete(_common.robustness_arrays(records["growing"]))
    rows = []
    for noise, a in A.items():
        for j, k in enumerate(a["kappas"]):
            rows.append({"noise": NOISE_NAME[noise], "kappa": float(k),
                         **{label(m): float(np.nanmean(a["values"][m][:, j])) for m in a["values"]}})
    curves = pd.DataFrame(rows).set_index(["noise", "kappa"]) if rows else pd.DataFrame()
    Q = qn_arrays(records["qn"])
    qrows = []
    for (noise, fam), q in sorted(Q.items()):
        k = q["keep"][-1]
        a = A.get(noise)
        # the data sets with both runs cached: QN's and the SOCP's, and the SVM's at the same kappa
        both = [d for d in q["datasets"] if a is not None and d in a["datasets"] and a["kappas"][-1] == q["kappa"]]
        rows = [q["datasets"].index(d) for d in both]
        svm = a["values"]["SVM"][[a["datasets"].index(d) for d in both], -1] if both else np.array([np.nan])
        fname = "RSVM" if fam == "fs" else "RSVM(g)"
        qrows.append({"noise": NOISE_NAME[noise], "family": fname, "kappa": q["kappa"], "data sets": len(both),
                      "QN": float(np.mean(q[f"RE_QN{k}"][rows])) if rows else np.nan,
                      "SOCP": float(np.mean(q["RE_SOCP"][rows])) if rows else np.nan,
                      "SVM": float(np.mean(svm)),
                      "QN converged": f"{int(q[f'qn{k}_converged'][rows].sum())} of {len(rows)}"})
    return {"curves": curves, "qn": pd.DataFrame(qrows), "n_tasks": len(records["growing"]),
            "qn_n": min((len(q["datasets"]) for q in Q.values()), default=0),
            "n_datasets": min((a["n_complete"] for a in A.values()), default=0)}


def draw_panels(A, methods, Q=None, ylabel="RobustErr (%)"):
    """Mean RobustErr against kappa per noise panel (Figs. 1-2); QN at the largest kappa as markers."""
    import matplotlib.pyplot as plt

    from ...plotting import METHOD_COLORS

    style = {"RSVM_QP": (METHOD_COLORS["qp"], "-"), "RSVM_SOCP": (METHOD_COLORS["socp"], "-"),
             "RSVMg_QP": (METHOD_COLORS["qp"], "--"), "RSVMg_SOCP": (METHOD_COLORS["socp"], "--"),
             "SVM": (METHOD_COLORS["svm"], ":")}
    tex = {"RSVM_QP": r"RSVM$_{QP}$", "RSVM_SOCP": r"RSVM$_{SOCP}$", "RSVMg_QP": r"RSVM$^{(g)}_{QP}$",
           "RSVMg_SOCP": r"RSVM$^{(g)}_{SOCP}$", "SVM": "Nominal SVM"}
    fig, axes = plt.subplots(1, len(NOISES), figsize=(3.3 * len(NOISES), 3.2), sharey=True)
    for ax, noise in zip(axes, NOISES):
        a = A.get(noise)
        if a is not None:
            for m in methods:
                color, ls = style[m]
                ax.plot(a["kappas"], np.nanmean(a["values"][m], axis=0), ls, marker="o", ms=3, color=color,
                        label=tex[m])
        for fam, marker in (("fs", "^"), ("g", "v")):
            q = (Q or {}).get((noise, fam))
            if q is not None:
                k = q["keep"][-1]
                ax.plot([q["kappa"]], [np.mean(q[f"RE_QN{k}"])], marker, color=METHOD_COLORS["qn"], ms=7,
                        label=r"RSVM$_{QN}$" if fam == "fs" else r"RSVM$^{(g)}_{QN}$", ls="none")
        ax.set_title(NOISE_NAME[noise].capitalize() if noise == "uniform" else NOISE_NAME[noise])
        ax.set_xlabel(r"$\kappa$")
    axes[0].set_ylabel(ylabel)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=max(1, len(labels)), fontsize=7, frameon=False)
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    return fig


def draw(records):
    """bhadra2010 Fig. 1 from the records: three panels (Gaussian, uniform, Beta(0.5, 0.5) noise), the legend
    below them."""
    return draw_panels(complete(_common.robustness_arrays(records["growing"])), METHODS, qn_arrays(records["qn"]))
