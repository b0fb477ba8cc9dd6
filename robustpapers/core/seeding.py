"""Deterministic child seeds from JSON-able keys (every draw of a sweep task comes from one)."""
from __future__ import annotations

import hashlib
import json
from typing import Any

import numpy as np

__all__ = ["canonical", "check_random_state", "derive_seed"]


def canonical(obj: Any) -> Any:
    """JSON-able canonical form (numpy scalars to Python, tuples to lists)."""
    if isinstance(obj, dict):
        return {str(k): canonical(v) for k, v in sorted(obj.items(), key=lambda kv: str(kv[0]))}
    if isinstance(obj, (list, tuple)):
        return [canonical(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return canonical(obj.tolist())
    if isinstance(obj, np.generic):
        return obj.item()
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    raise ValueError(f"value {obj!r} of type {type(obj).__name__} is not JSON-serialisable")


def derive_seed(seed: int, *keys: Any) -> int:
    """A child seed (int < 2**32) derived deterministically from ``seed`` and any JSON-able ``keys``."""
    h = hashlib.sha256(json.dumps(canonical([seed, list(keys)])).encode()).digest()
    return int.from_bytes(h[:4], "little")


def check_random_state(random_state: int | np.random.Generator | np.random.RandomState | None
                       ) -> np.random.Generator:
    """A numpy ``Generator`` from None, an int seed, a ``SeedSequence``, a ``Generator`` or a ``RandomState``.

    Unlike :func:`sklearn.utils.check_random_state` (which returns a legacy ``RandomState``), this returns
    a ``Generator``: a ``Generator`` is returned as is, a ``RandomState`` seeds a new ``Generator`` with one
    draw of ``randint(0, 2**32 - 1)``, anything else goes to :func:`numpy.random.default_rng`.

    Examples
    --------
    >>> import numpy as np
    >>> rng = check_random_state(0)
    >>> isinstance(rng, np.random.Generator), check_random_state(rng) is rng
    (True, True)
    """
    if isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, np.random.RandomState):
        return np.random.default_rng(random_state.randint(0, 2**32 - 1))
    return np.random.default_rng(random_state)
