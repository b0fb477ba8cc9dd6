"""Error metrics of bental2012 §6.2 / bhadra2010 §4 and the draws of eta."""
import numpy as np
import pytest
from scipy import stats

from robustpapers.core import (
    majority_error, nominal_error, prediction_errors, robust_error, sample_positive_lp_ball,
)


def test_metrics_definitions():
    y = np.array([1.0, 1.0, -1.0, -1.0])
    f = np.array([2.0, -1.0, -3.0, 0.0])       # second wrong, fourth undecided (an error)
    F = np.array([[1, 1, -1, -1], [1, -1, -1, 1], [-1, -1, -1, -1]], dtype=float)
    assert nominal_error(y, f) == 0.5
    # votes: +1, -1, -1, -1 -> only the second is wrong
    assert majority_error(y, F) == 0.25
    # any wrong draw: points 1, 2 and 4
    assert robust_error(y, F) == 0.75
    assert prediction_errors(y, f, F) == {"NE": 0.5, "ME": 0.25, "RE": 0.75}


def test_metric_identities(rng):
    y = rng.choice([-1.0, 1.0], size=200)
    f = rng.normal(size=200)
    F = f[None, :] + rng.normal(scale=0.5, size=(31, 200))
    e = prediction_errors(y, f, F)
    assert e["RE"] >= e["ME"]
    same = prediction_errors(y, f, np.repeat(f[None], 5, axis=0))
    assert same["NE"] == same["ME"] == same["RE"]


def test_metrics_bad_input():
    with pytest.raises(ValueError, match="values in"):
        nominal_error(np.array([0, 1]), np.array([1.0, 1.0]))
    with pytest.raises(ValueError, match="NaN"):
        robust_error(np.array([1, -1]), np.array([[np.nan, 1.0]]))


@pytest.mark.parametrize("p", [1.0, 2.0, 3.5])
def test_lp_ball_draws_are_uniform(p):
    L, kappa = 4, 2.0
    eta = sample_positive_lp_ball(L, kappa, p=p, size=20000, random_state=3)
    norms = np.sum(eta**p, axis=1) ** (1 / p)
    assert eta.min() >= 0 and norms.max() <= kappa * (1 + 1e-12)
    # Uniform in an L-dimensional ball: P(||eta|| <= r kappa) = r^L.
    assert stats.kstest((norms / kappa) ** L, "uniform").pvalue > 1e-3
    # Symmetric in the coordinates.
    assert np.ptp(eta.mean(axis=0)) < 0.05 * eta.mean()


def test_lp_ball_bad_input():
    with pytest.raises(ValueError, match="p must be"):
        sample_positive_lp_ball(3, 1.0, p=0.5)
    with pytest.raises(ValueError, match="kappa"):
        sample_positive_lp_ball(3, -1.0)
    assert np.all(sample_positive_lp_ball(3, 0.0, size=4, random_state=0) == 0)
