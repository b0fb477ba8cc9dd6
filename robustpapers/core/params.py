"""Parameter rules declared once per estimator, checked at the start of ``fit``.

Every estimator of the library declares, in the class attribute ``_parameter_constraints``, the values each
constructor parameter may take (the pattern of scikit-learn's own estimators), and calls
``self._validate_params()`` before it looks at the data. A value outside its rules raises
:class:`InvalidParameterError` (a ``ValueError`` and a ``TypeError``) whose message names the parameter, the
estimator, what is allowed and what was given:

``The 'C' parameter of RSVMClassifier must be a float in (0, inf). Got -1.0 instead.``

This module is a small equivalent of ``sklearn.utils._param_validation`` rather than an import of it: that
module is private to scikit-learn (its classes, their arguments and its messages have changed between
releases without deprecation), and the library supports a range of scikit-learn versions. The spelling is kept
close to scikit-learn's (``Interval``, ``StrOptions``, ``None``, ``"boolean"``, ``"random_state"``, a type) so
that the declarations read the same.

Rules that tie two parameters together (``solver_options`` may be an ``FSSOptions`` only with
``solver="fss"``) stay next to the code they protect in ``fit``; input arrays are checked by the estimators'
``fit``/``predict`` (``validate_data``).
"""
from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

__all__ = ["InvalidParameterError", "Interval", "StrOptions", "validate_parameter_rules", "ParamsMixin"]


class InvalidParameterError(ValueError, TypeError):
    """A constructor parameter outside its declared rules (a ``ValueError``, and a ``TypeError`` for a bad type)."""


class Interval:
    """Real or integer numbers in an interval.

    Parameters
    ----------
    kind : numbers.Real or numbers.Integral
        ``Integral``: Python or numpy integers (never ``bool``); ``Real``: any real number (never ``bool``,
        never NaN).
    left, right : float or None
        Bounds (None: unbounded on that side).
    closed : {"both", "left", "right", "neither"}
    allow_inf : bool, default False
        Accept ``inf`` (when the interval is unbounded on that side); otherwise the number must be finite.
    """

    def __init__(self, kind: Any, left: float | None, right: float | None, closed: str = "both",
                 allow_inf: bool = False) -> None:
        if kind not in (numbers.Real, numbers.Integral):
            raise ValueError(f"kind must be numbers.Real or numbers.Integral, got {kind!r}")
        if closed not in ("both", "left", "right", "neither"):
            raise ValueError(f"closed must be 'both', 'left', 'right' or 'neither', got {closed!r}")
        self.kind, self.left, self.right, self.closed, self.allow_inf = kind, left, right, closed, allow_inf

    def is_satisfied_by(self, value: Any) -> Any:
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, self.kind):
            return False
        v = float(value)
        if math.isnan(v) or (math.isinf(v) and not self.allow_inf):
            return False
        if self.left is not None and (v < self.left or (v == self.left and self.closed in ("right", "neither"))):
            return False
        if self.right is not None and (v > self.right or (v == self.right and self.closed in ("left", "neither"))):
            return False
        return True

    def __str__(self):
        name = "an int" if self.kind is numbers.Integral else "a float"
        lo = "-inf" if self.left is None else f"{self.left:g}"
        hi = "inf" if self.right is None else f"{self.right:g}"
        lb = "[" if self.closed in ("both", "left") and self.left is not None else "("
        rb = "]" if (self.closed in ("both", "right") and self.right is not None) or (self.right is None
                                                                                      and self.allow_inf) else ")"
        return f"{name} in {lb}{lo}, {hi}{rb}"


class StrOptions:
    """One of a fixed set of strings."""

    def __init__(self, options: Any) -> None:
        self.options = tuple(options)

    def is_satisfied_by(self, value: Any) -> Any:
        return isinstance(value, str) and value in self.options

    def __str__(self):
        return "a str among " + ", ".join(repr(o) for o in self.options)


def _satisfied(rule, value):
    if rule is None:
        return value is None
    if rule == "boolean":
        return isinstance(value, (bool, np.bool_))
    if rule == "random_state":
        return value is None or isinstance(value, np.random.RandomState) or (
            isinstance(value, (numbers.Integral, np.integer)) and not isinstance(value, (bool, np.bool_))
            and 0 <= int(value) < 2**32)
    if rule is callable:
        return callable(value)
    if isinstance(rule, type):
        return isinstance(value, rule)
    return rule.is_satisfied_by(value)


def _describe(rule):
    if rule is None:
        return "None"
    if rule == "boolean":
        return "a bool"
    if rule == "random_state":
        return "an int in [0, 2**32), a RandomState instance or None"
    if rule is callable:
        return "a callable"
    if isinstance(rule, type):
        return f"an instance of {rule.__name__}"
    return str(rule)


def validate_parameter_rules(rules: dict[str, Any], params: dict[str, Any], caller: str) -> Any:
    """Check every entry of ``params`` against its list of ``rules``; raise :class:`InvalidParameterError`.

    Parameters
    ----------
    rules : dict
        Parameter name -> list of rules (a value is valid when it satisfies one of them): ``None``,
        ``"boolean"``, ``"random_state"``, the builtin ``callable``, a type (``isinstance``), an
        :class:`Interval` or a :class:`StrOptions`; or the string ``"no_validation"``.
    params : dict
        Parameter name -> value (``estimator.get_params(deep=False)``).
    caller : str
        Named in the message.
    """
    missing = sorted(set(params) - set(rules))
    if missing:  # a parameter added without its rule: a bug of the estimator, not of the caller
        raise RuntimeError(f"{caller} declares no rule for parameter(s) {missing}")
    for name, value in params.items():
        allowed = rules[name]
        if allowed == "no_validation" or any(_satisfied(r, value) for r in allowed):
            continue
        desc = [_describe(r) for r in allowed]
        text = desc[0] if len(desc) == 1 else ", ".join(desc[:-1]) + " or " + desc[-1]
        raise InvalidParameterError(f"The {name!r} parameter of {caller} must be {text}. Got {value!r} instead.")


class ParamsMixin:
    """``_validate_params()`` against the class's ``_parameter_constraints`` (call it first in ``fit``).

    It replaces scikit-learn's ``BaseEstimator._validate_params``, which expects scikit-learn's private rule
    classes; place the mixin before ``BaseEstimator`` in the bases.
    """

    _parameter_constraints: dict = {}

    def _validate_params(self):
        validate_parameter_rules(self._parameter_constraints, self.get_params(deep=False), type(self).__name__)
