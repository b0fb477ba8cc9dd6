"""Prediction rules and error metrics for classifiers under kernel uncertainty.

One implementation serves both kernel-uncertainty papers:

* bental2012 §6: NominalErr (nominal rule (25)), MajorityErr (27, majority
  vote (26) over R sampled kernels) and RobustErr (28, a point counts as an
  error if any of the R sampled kernels misclassifies it);
* bhadra2010 §4: NomErr (20), MajErr (18) and RobustErr (19) over n_s sampled
  test kernels — the same three quantities.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .validation import check_binary_labels, check_finite_array

__all__ = ["sign_labels", "nominal_error", "majority_error", "robust_error", "prediction_errors"]


def sign_labels(f: Any) -> Any:
    """Labels from decision values: +1 where f > 0, -1 where f < 0 and 0 (undecided) where f == 0."""
    return np.sign(np.asarray(f, dtype=float))


def nominal_error(y: np.ndarray, f_nominal: Any) -> Any:
    """Fraction of points whose nominal decision value has the wrong sign (f = 0 counts as an error)."""
    y = check_binary_labels(y, require_both=False)
    f = check_finite_array(f_nominal, "f_nominal", ndim=1)
    return float(np.mean(sign_labels(f) != y))


def majority_error(y: np.ndarray, F_samples: Any) -> Any:
    """MajorityErr: the majority vote over the R rows of ``F_samples`` (R, m) is wrong (a tie counts as an error)."""
    y = check_binary_labels(y, require_both=False)
    F = check_finite_array(F_samples, "F_samples", ndim=2)
    vote = sign_labels(sign_labels(F).sum(axis=0))
    return float(np.mean(vote != y))


def robust_error(y: np.ndarray, F_samples: Any) -> Any:
    """RobustErr: at least one of the R sampled decision values (rows of ``F_samples``) is wrong."""
    y = check_binary_labels(y, require_both=False)
    F = check_finite_array(F_samples, "F_samples", ndim=2)
    return float(np.mean(np.any(sign_labels(F) != y[None, :], axis=0)))


def prediction_errors(y: np.ndarray, f_nominal: Any, F_samples: Any) -> Any:
    """All three metrics as a dict ``{"NE", "ME", "RE"}``; RE >= ME is always true when NE's rule is one of the draws."""
    return {
        "NE": nominal_error(y, f_nominal),
        "ME": majority_error(y, F_samples),
        "RE": robust_error(y, F_samples),
    }
