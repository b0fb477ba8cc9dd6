"""Former home of the notebook pipeline, now :mod:`robustpapers.reproduce.pipeline` (this name is an alias)."""
import sys

from .reproduce import pipeline as _pipeline

sys.modules[__name__] = _pipeline
