"""The execution backend shared by solvers and sweeps: joblib processes or a Dask cluster."""
from __future__ import annotations

from typing import Any, Callable, Iterable

import numpy as np

__all__ = ["parallel_map"]


def parallel_map(func: Callable[..., Any], items: Iterable[Any], *, n_jobs: int = 1,
                 scheduler: str | None = None, progress: bool = False, label: str | None = None) -> list[Any]:
    """``[func(item) for item in items]``, run by joblib processes or on a Dask cluster; nothing is cached.

    The execution backend of :func:`~robustpapers.reproduce.engine.run_sweep`, for tasks whose results are arrays used at once
    (a kernel matrix's blocks) rather than records worth caching.

    Parameters
    ----------
    func : callable
        Picklable (module-level) callable of one argument.
    items : iterable
        Arguments, one call each.
    n_jobs : int
        joblib processes (1: run in this process; ignored when ``scheduler`` is given).
    scheduler : str or distributed.Client, optional
        A Dask scheduler address or client; the calls then run on that cluster.
    progress : bool
        Show a tqdm progress bar.
    label : str, optional
        The progress bar's description.

    Returns
    -------
    list
        The results in the order of ``items``.

    Examples
    --------
    >>> parallel_map(abs, [-1, 2, -3])
    [1, 2, 3]
    """
    items = list(items)
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, (int, np.integer)) or n_jobs == 0:
        raise ValueError(f"n_jobs must be a non-zero integer, got {n_jobs!r}")
    if scheduler is not None:
        from distributed import Client, as_completed

        client = scheduler if isinstance(scheduler, Client) else Client(scheduler)
        try:
            futures = [client.submit(func, it, pure=False) for it in items]
            if progress:
                from tqdm.auto import tqdm

                for _ in tqdm(as_completed(futures), total=len(futures), desc=label):
                    pass
            return client.gather(futures)
        finally:
            if client is not scheduler:
                client.close()
    if progress:
        from tqdm.auto import tqdm

        items = tqdm(items, desc=label)
    if n_jobs == 1:
        return [func(it) for it in items]
    from joblib import Parallel, delayed

    return Parallel(n_jobs=int(n_jobs))(delayed(func)(it) for it in items)
