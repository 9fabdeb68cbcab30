"""Ch. 7 of the LMU book: the ALE of a categorical feature under an order of its levels.

``book_ale.categorical_bars``: one panel per scenario and method of role ``ale``: the first
data set's ALE as bars, the levels in the order the estimate used (its rows' order; x is
the level's code), and the mean over data sets as dots (Figs. 7.18-7.20).

The estimates hold level codes only; the names come from the ``levels`` parameter (the
name of code i at position i), else the codes are printed.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.params import feature_name, integer, items, text
from imlbench.studies.book_ale.figures.ch7_intervals import ALE_COLOUR


def level_label(code: float, levels: list[str] | None) -> str:
    """The printed name of the level with ``code``."""
    i = int(round(code))
    return levels[i] if levels is not None and 0 <= i < len(levels) else str(i)


@figure("book_ale.categorical_bars", methods=("ale",), params={
    "feature": feature_name(),
    "levels": items(text(), default=None, nullable=True),
    "titles": items(text(), default=None, nullable=True),
    "ylabel": text("ALE (centred)"),
    "ncols": integer(1, minimum=1),
})
def categorical_bars(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                     feature: str, levels: list[str] | None, titles: list[str] | None,
                     ylabel: str, ncols: int) -> None:
    """Panels in the order scenarios x methods of role ``ale`` (those estimated), titled by
    ``titles`` (one per panel) or "<scenario>, <method>"."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    est = inputs.estimates("ale")
    est = est[est["feature"] == feature]
    panels = [(s, m) for s in inputs.scenarios for m in inputs.roles["ale"]
              if len(est[(est["scenario"] == s) & (est["method"] == m)])]
    if titles is not None and len(titles) != len(panels):
        raise ValueError(f"titles: {len(titles)} given for {len(panels)} panels")
    fig, style = st.new_figure(spec, rows=st.panel_rows(len(panels), ncols), width=11.0,
                               panel_height=3.2)
    axes = st.panel_grid(fig, len(panels), ncols)
    n_reps = 0
    for i, (ax, (scenario, method)) in enumerate(zip(axes, panels, strict=True)):
        mine = est[(est["scenario"] == scenario) & (est["method"] == method)]
        first = inputs.first_rep(mine)
        order = first["x"].to_numpy(float)
        mean = mine.groupby("x")["value"].mean().reindex(order)
        n_reps = max(n_reps, mine["rep"].nunique())
        at = np.arange(len(order))
        ax.bar(at, first["value"].to_numpy(float), color=ALE_COLOUR, alpha=0.75, width=0.75)
        if mine["rep"].nunique() > 1:
            ax.scatter(at, mean.to_numpy(float), color="black", s=14, zorder=3)
        ax.axhline(0.0, color="0.3", linewidth=0.8)
        ax.set_xticks(at, [level_label(c, levels) for c in order],
                      rotation=90 if levels is not None else 0)
        ax.set_xlim(-0.7, len(order) - 0.3)
        ax.set_title(titles[i] if titles else f"{scenario}, {method}")
        ax.set_xlabel(f"{feature} ({'level' if levels is not None else 'level code'}, "
                      f"in the order used)")
        ax.grid(axis="x", visible=False)
    fig.supylabel(ylabel)
    handles = [Patch(color=ALE_COLOUR, alpha=0.75, label="ALE, first data set")]
    if n_reps > 1:
        handles.append(Line2D([], [], color="black", marker="o", linestyle="none",
                              markersize=4, label=f"mean over {n_reps} data sets"))
    st.legend_below(fig, handles, ncols=len(handles))
    st.save(fig, style, out_png, out_pdf)
