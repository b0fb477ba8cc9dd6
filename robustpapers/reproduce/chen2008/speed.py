"""The speed of Algorithm 1 here (``benchmarks/chen2008_siqclp_speed.py``, one run, all cases side by side)."""
from __future__ import annotations

from ..engine import benchmark_path, load_benchmark

__all__ = ["PAPER", "LABEL", "records", "claims", "numbers"]

PAPER = "chen2008"
LABEL = "chen2008 speed"
CASES = {"sonar, pruning": "Sonar (166 points), rho = 10, pruning",
         "sonar, no pruning (capped)": "the same without pruning (stopped at 400 iterations)",
         "sonar, pruning, max_kernels=20": "pruning and aggregation to at most 20 kernels",
         "sonar, pruning, slack_tol=0.01": "pruning only of constraints with slack above 0.01",
         "sonar, pruning, master_start=warm": "pruning, every master problem warm-started",
         "sonar, pruning, master_start=cold": "pruning, every master problem cold-started",
         "n=1000 (mnist35), pruning": "MNIST 3 vs 5 (1,000 points), pruning"}


def records(root=None, scale="paper", seed=0):
    """The stored benchmark (a dict), or None when it has not been run."""
    return load_benchmark("chen2008", "siqclp_speed") if benchmark_path("chen2008", "siqclp_speed").exists() else None


def numbers(records):
    """A table of the benchmark's main cases."""
    import pandas as pd

    if records is None:
        return {"table": pd.DataFrame()}
    rows = {r["case"]: r for r in records["rows"]}
    table = pd.DataFrame([{"case": label, "iterations": rows[c]["iterations"], "certified": rows[c]["converged"],
                           "largest set": rows[c]["max_kernels_seen"], "CPU seconds": round(rows[c]["cpu_s"], 2),
                           "share in eigendecompositions": round(rows[c]["eig_s"] / rows[c]["wall_s"], 2),
                           "share in master problems": round(rows[c]["master_s"] / rows[c]["wall_s"], 2)}
                          for c, label in CASES.items() if c in rows]).set_index("case")
    return {"table": table}


def claims(records):
    """The paper makes no claim about speed."""
    return []
