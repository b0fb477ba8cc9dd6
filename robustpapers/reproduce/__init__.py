"""The reproduction layer: the experiment engine, one module per paper artefact, and the claims ledger.

``robustpapers.<paper>`` holds what a user imports (solvers, estimators, data generators);
``robustpapers.reproduce`` holds how the book reproduces each paper with them:

* :mod:`~robustpapers.reproduce.engine` -- sweeps of cached tasks (:func:`run_sweep`);
* :mod:`~robustpapers.reproduce.pipeline` -- executing the book's notebooks;
* ``robustpapers.reproduce.<paper>.<artefact>`` -- one module per figure or table of a paper
  (see :mod:`~robustpapers.reproduce.artefact`);
* :mod:`~robustpapers.reproduce.ledger` -- :func:`all_claims`, every claim of the five papers with its verdict.
"""
from .engine import cached_sweep, grid, load_cached, results_root, run_sweep
from .ledger import PAPERS, VERDICTS, Claim, all_claims, ledger_table, summary_table

__all__ = ["all_claims", "Claim", "VERDICTS", "PAPERS", "ledger_table", "summary_table",
           "run_sweep", "cached_sweep", "grid", "load_cached", "results_root"]
