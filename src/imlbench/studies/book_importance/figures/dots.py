"""The book's importance look (iml's ``FeatureImp`` plot): one row per feature, a dot at the
importance and a line over its 5%-95% range, features sorted by importance.

:func:`importance_dots` draws it on one axis for one or more groups (a scenario, a correlation,
training against test data), each group in its own colour and dodged vertically.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

#: the colours of the groups, in order (the book's ggplot2 hues)
GROUP_COLOURS = ["#f8766d", "#7cae00", "#00bfc4", "#c77cff", "#e69f00", "#555555"]


def importance_dots(ax: Axes, rows: pd.DataFrame, *, group: str | None = None,
                    order: Sequence[str] | None = None, labels: Mapping[str, str] | None = None,
                    colours: Mapping[str, str] | None = None, reference: float | None = 1.0,
                    xlabel: str = "feature importance (loss ratio)") -> list[str]:
    """Draw ``rows`` (columns ``feature``, ``centre``, ``low``, ``high`` and, with ``group``,
    that column) as dots with range lines; return the feature order drawn, top first.

    ``order`` fixes the features' order (default: by the largest centre over the groups,
    the most important on top); ``labels`` renames features on the axis; ``reference`` draws a
    dotted vertical line (1: no change of the loss, the ratio's null value; None: none).
    """
    import numpy as np

    groups = list(dict.fromkeys(rows[group])) if group else [None]
    if order is None:
        order = list(rows.groupby("feature")["centre"].max().sort_values(ascending=False).index)
    position = {f: len(order) - 1 - i for i, f in enumerate(order)}
    colours = dict(colours or {})
    step = 0.6 / max(1, len(groups))
    for i, g in enumerate(groups):
        mine = rows if g is None else rows[rows[group] == g]
        mine = mine[mine["feature"].isin(list(position))]
        y = np.array([position[f] for f in mine["feature"]], dtype=float)
        y += (i - (len(groups) - 1) / 2) * step
        colour = colours.get(g, GROUP_COLOURS[i % len(GROUP_COLOURS)]) if g is not None \
            else "black"
        ax.hlines(y, mine["low"], mine["high"], color=colour, linewidth=1.5)
        ax.plot(mine["centre"], y, "o", color=colour, markersize=4,
                label=None if g is None else str(g))
    if reference is not None:
        ax.axvline(reference, color="#999999", linestyle=":", linewidth=1.0)
    ax.set_yticks([position[f] for f in order], [(labels or {}).get(f, f) for f in order])
    ax.set_ylim(-0.6, len(order) - 0.4)
    ax.set_xlabel(xlabel)
    return list(order)
