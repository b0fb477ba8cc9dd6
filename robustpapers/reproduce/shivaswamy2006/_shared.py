"""What the claim modules of shivaswamy2006 share: reading the committed records and the certificate note.

The task functions of this chapter still live in :mod:`robustpapers.shivaswamy2006.experiments`; until
they become artefact modules, the claims read their records with
:func:`robustpapers.reproduce.artefact.scan` and select the paper-scale ones by their parameters,
their task function and its version.
"""
from __future__ import annotations

import json

from ..artefact import scan

PAPER = "shivaswamy2006"

#: What every claim of this chapter says about certificates: the records store none.
CERT_NOTE = ("The records store no solver certificate: the SOCPs and QPs are solved by Clarabel through "
             "cvxpy, whose status is not kept (a non-optimal status only warns), nor is the convergence flag of "
             "EM where it imputes; as for every cvxpy run without a stored status, all runs count as certified.")

_CACHE = {}


def select(experiment, func, version, where=None, root=None):
    """The records of ``results/shivaswamy2006/<experiment>/`` made by ``func`` at ``version`` whose params match ``where``.

    Parameters
    ----------
    experiment : str
        The folder under ``results/shivaswamy2006/`` (``"uci_missing_paper"``).
    func : str
        The task function as the provenance names it (``"module:qualname"``).
    version : int
        The experiment version the page runs.
    where : dict, optional
        Parameter values a record must have.
    root : path, optional
        The results cache (default: the project's ``results/``).

    Returns
    -------
    list of dict
        The matching records (``params``, ``result``, ``provenance``), sorted by file name.
    """
    if not isinstance(experiment, str) or not experiment:
        raise ValueError(f"experiment must be a folder name, got {experiment!r}")
    key = (str(root), experiment, func, int(version), json.dumps(where, sort_keys=True))
    if key not in _CACHE:  # the test suite asks for the same records several times
        recs = scan(PAPER, experiment, root=root, where=where)
        _CACHE[key] = [r for r in recs if r.get("provenance", {}).get("func") == func
                       and r.get("provenance", {}).get("version") == version]
    return _CACHE[key]


def fmt_interval(rule_out, digits=3):
    """``mean [lo, hi]`` of a rule's output, for notes."""
    v, iv = rule_out.get("our_value"), rule_out.get("interval")
    if v is None:
        return "no certified pairs"
    if iv is None:
        return f"{v:.{digits}f}"
    return f"{v:.{digits}f} [{iv[0]:.{digits}f}, {iv[1]:.{digits}f}]"


def load_scale(mod, root=None, scale="paper", seed=0):
    """The cached record of each task of ``mod`` at ``scale`` (None where not cached), in task order, from the
    scale's own folder ``mod.EXPERIMENTS[scale]`` (this chapter keeps its quick and paper-scale records apart)."""
    from ..engine import load_cached

    return [load_cached(mod.TASK, t, mod.PAPER, mod.EXPERIMENTS[scale], mod.VERSION, root)
            for t in mod.tasks(scale, seed)]


def for_page(mod, scale, seed=0, n_jobs=1, root=None):
    """What :func:`robustpapers.reproduce.artefact.for_page` does, with the scale's own folder: the records
    computed (or read from the cache) at ``scale``, in task order, as ``mod.records`` returns them."""
    from ..engine import run_sweep

    run_sweep(mod.TASK, mod.tasks(scale, seed), paperkey=mod.PAPER, experiment=mod.EXPERIMENTS[scale],
              version=mod.VERSION, n_jobs=n_jobs, root=root, progress=False)
    return mod.records(root, scale, seed)
