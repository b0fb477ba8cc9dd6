"""Former home of the experiment engine, now :mod:`robustpapers.reproduce.engine` (this name is an alias)."""
import sys

from .reproduce import engine as _engine

sys.modules[__name__] = _engine
