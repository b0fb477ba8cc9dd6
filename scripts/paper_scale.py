"""Compute a chapter's paper-scale sweep piecewise, one task at a time, each cached as soon as it ends.

A thin wrapper of :mod:`robustpapers.reproduce.sweeps` (its docstring has the usage and the ways to share a sweep
between processes or machines), e.g.::

    python scripts/paper_scale.py chen2008 table1_certified --datasets sonar heart
"""
from __future__ import annotations

import sys

from robustpapers.reproduce.sweeps import main

if __name__ == "__main__":
    sys.exit(main())
