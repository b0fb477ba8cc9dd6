"""One plotting style for every figure of the book."""
from __future__ import annotations

import matplotlib as mpl

__all__ = ["STYLE", "use_style", "METHOD_COLORS"]

#: rcParams applied by :func:`use_style`.
STYLE = {
    "figure.figsize": (6.4, 4.0),
    "figure.dpi": 100,
    "savefig.dpi": 100,
    "font.size": 10,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.frameon": False,
    "lines.linewidth": 1.6,
    "lines.markersize": 5,
    "image.cmap": "viridis",
    "svg.hashsalt": "robustpapers",
}

#: Colours used for the same method across chapters.
METHOD_COLORS = {
    "nominal": "#4d4d4d",
    "svm": "#4d4d4d",
    "robust": "#d62728",
    "socp": "#1f77b4",
    "mn": "#d62728",
    "fss": "#d62728",
    "rsvm": "#2ca02c",
    "qp": "#9467bd",
    "qn": "#ff7f0e",
}


def use_style() -> None:
    """Apply the book's matplotlib style (call once at the top of a notebook)."""
    mpl.rcParams.update(STYLE)
