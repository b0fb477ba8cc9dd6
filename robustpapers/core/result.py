"""The one result type returned by every iterative solver, and its trace."""
from __future__ import annotations

import time
import warnings
from typing import Any

import numpy as np
from scipy.optimize import OptimizeResult
from sklearn.exceptions import ConvergenceWarning

__all__ = ["SolverResult", "Trace", "ConvergenceWarning", "warn_not_converged"]


class Trace:
    """Per-iteration record of a solver: objective, gap (or certificate) and time.

    ``record`` stamps the elapsed wall time since the trace was created; extra
    named quantities (e.g. a stage number) may be recorded alongside. Columns
    are plain lists; :meth:`as_dict` returns them as arrays.
    """

    def __init__(self) -> None:
        self._t0 = time.perf_counter()
        self.columns: dict[str, list[Any]] = {"objective": [], "gap": [], "time": []}

    def record(self, objective: Any = np.nan, gap: Any = np.nan, **extra: Any) -> Any:
        """Append one iteration: objective, gap (or certificate), elapsed time and any extra columns."""
        self.columns["objective"].append(float(objective))
        self.columns["gap"].append(float(gap))
        self.columns["time"].append(time.perf_counter() - self._t0)
        n = len(self.columns["time"])
        for key, value in extra.items():
            col = self.columns.setdefault(key, [np.nan] * (n - 1))
            col.append(value)
        for key, col in self.columns.items():
            if len(col) < n:
                col.append(np.nan)

    def elapsed(self) -> Any:
        """Seconds since the trace was created (plus those of the run it resumed, see :meth:`resume`)."""
        return time.perf_counter() - self._t0

    def resume(self, columns: Any, elapsed: Any) -> Any:
        """Continue the trace of an interrupted run: its ``columns`` and ``elapsed`` seconds; times go on from there."""
        self.columns = {k: list(v) for k, v in columns.items()}
        self._t0 = time.perf_counter() - float(elapsed)

    def __len__(self):
        return len(self.columns["time"])

    def __getitem__(self, key):
        return np.asarray(self.columns[key])

    def as_dict(self) -> Any:
        """The columns as a dict of arrays."""
        return {k: np.asarray(v) for k, v in self.columns.items()}

    def __repr__(self):
        return f"Trace({len(self)} records: {', '.join(self.columns)})"


class SolverResult(OptimizeResult):
    """Result of an iterative solver (a dict with attribute access).

    Always present: ``x`` (the solution), ``success`` (bool), ``status``
    (int, 0 = converged), ``nit`` (iterations), ``message`` (str),
    ``objective`` (float) and ``trace`` (:class:`Trace`, possibly empty for
    one-shot conic solves). Solvers add named fields (e.g. ``alpha``, ``b``).
    """

    def __init__(self, x: np.ndarray | None = None, *, success: Any, nit: Any, message: Any,
                 objective: Any = np.nan, trace: Any = None, status: Any = None, **fields: Any) -> None:
        super().__init__(
            x=x, success=bool(success), nit=int(nit), message=str(message),
            objective=float(objective), trace=trace if trace is not None else Trace(),
            status=(0 if success else 1) if status is None else int(status), **fields,
        )


def warn_not_converged(solver: Any, knob: Any, detail: str = "") -> Any:
    """Emit a :class:`ConvergenceWarning` naming the parameter to change."""
    msg = f"{solver} stopped before converging{': ' + detail if detail else ''}; increase {knob}."
    warnings.warn(msg, ConvergenceWarning, stacklevel=3)
    return msg
