"""Fig. 2 of Parr & Wilson (2021): how StratPD and CatStratPD stratify, against ALE."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.stratpd.figures import panels as pn

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.collections import PathCollection

ALE_INTERVALS = 5
CMAP = "GnBu"
BOOLEAN = ("F", "T")


def _rows(ax: Axes, strata: pd.DataFrame, cmap: str, stratified: bool) -> PathCollection:
    """The rows, x1 against x2 coloured by y; when ``stratified``, open where the leaf holds
    one x1 value (no slope or gap)."""
    single = (strata.groupby("leaf")["x"].transform("nunique") == 1) & stratified
    kept = strata[~single]
    dots = ax.scatter(kept["x"], kept["other"], c=kept["y"], cmap=cmap, s=36,
                      edgecolors="black", linewidths=0.4, zorder=3,
                      vmin=strata["y"].min(), vmax=strata["y"].max())
    ignored = strata[single]
    ax.scatter(ignored["x"], ignored["other"], facecolors="none", edgecolors="black", s=36,
               linewidths=0.8, zorder=3)
    ax.set_ylabel("x2")
    ax.set_ylim(strata["other"].min() - 0.5, strata["other"].max() + 0.5)
    return dots


def _leaf_bounds(strata: pd.DataFrame) -> np.ndarray:
    """The x2 values between neighbouring leaves (midpoints where the leaf changes, rows
    sorted by x2)."""
    import numpy as np

    rows = strata.sort_values("other")
    other, leaf = rows["other"].to_numpy(), rows["leaf"].to_numpy()
    change = np.flatnonzero(leaf[1:] != leaf[:-1])
    return (other[change] + other[change + 1]) / 2


def _bands(ax: Axes, strata: pd.DataFrame) -> None:
    """The leaves as horizontal bands: dashed bounds, every other band shaded."""
    import numpy as np

    lo, hi = ax.get_ylim()
    edges = np.concatenate([[lo], _leaf_bounds(strata), [hi]])
    for k, (a, b) in enumerate(zip(edges[:-1], edges[1:], strict=True)):
        if k % 2:
            ax.axhspan(a, b, color="0.93", zorder=0)
    for y in edges[1:-1]:
        ax.axhline(y, color="0.35", linestyle="--", linewidth=0.8, zorder=1)


def _wedges(ax: Axes, x: np.ndarray) -> None:
    """Wedges on the x axis at the curve's points."""
    ax.scatter(x, [0.0] * len(x), marker="^", s=55, color=pn.METHODS["stratpd"].colour,
               transform=ax.get_xaxis_transform(), clip_on=False, zorder=6)


def _edges(ax: Axes, x: np.ndarray, boolean: bool) -> None:
    """ALE's interval edges as vertical dashed lines: quantile intervals, or the two levels
    of a boolean."""
    import numpy as np

    from imlbench.explain.ale import ale_edges

    spec = ({"kind": "values", "values": np.unique(x)} if boolean
            else {"kind": "quantile", "size": ALE_INTERVALS})
    for edge in ale_edges(x, spec):
        ax.axvline(edge, color=pn.METHODS["ale"].colour, linestyle="--", linewidth=1.0)


def _boolean_axis(ax: Axes) -> None:
    ax.set_xticks([0, 1], BOOLEAN)
    ax.set_xlim(-0.6, 1.6)
    ax.set_xlabel("x1 (boolean)")


@figure("stratpd.fig_2", methods=("strata", "stratpd"))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    """The rows and leaves are the first repetition's estimates of role ``strata``, the curve points
    those of ``stratpd``; ALE's edges come from :func:`imlbench.explain.ale.ale_edges`
    (``ALE_INTERVALS`` quantile intervals, or the two levels of a boolean). CatStratPD in (c) needs
    x1 declared categorical by its scenario; a numeric 0/1 x1 gets StratPD, one point at F, and the
    panel title says so."""
    strata_all = inputs.estimates("strata")
    curves = inputs.estimates("stratpd")
    scenarios = [s for s in inputs.scenarios if s in set(strata_all["scenario"])]

    fig, style = st.new_figure(spec, rows=len(scenarios), width=10.0, panel_height=3.4)
    axes = fig.subplots(len(scenarios), 2, squeeze=False)
    for i, scenario in enumerate(scenarios):
        strata = strata_all[(strata_all["scenario"] == scenario) & (strata_all["rep"] == 0)]
        curve = curves[(curves["scenario"] == scenario) & (curves["rep"] == 0)].sort_values("x")
        boolean = strata["x"].nunique() <= 2
        left, right = axes[i]
        dots = _rows(left, strata, CMAP, stratified=True)
        _bands(left, strata)
        _wedges(left, curve["x"].to_numpy())
        _rows(right, strata, CMAP, stratified=False)
        _edges(right, strata["x"].to_numpy(), boolean)
        if boolean:
            if len(curve) == 2:
                gap = curve["value"].iloc[-1] - curve["value"].iloc[0]
                left.set_title(f"{pn.tag(2 * i)} CatStratPD: gaps of y from F to T within "
                               f"leaves, {gap:.2f}")
            else:  # x1 not declared categorical: numeric StratPD, no point at T
                left.set_title(f"{pn.tag(2 * i)} StratPD of a numeric 0/1 x1: "
                               f"{len(curve)} curve point")
            right.set_title(f"{pn.tag(2 * i + 1)} ALE: rows moved to F and to T, "
                            f"predictions compared")
            for ax in (left, right):
                _boolean_axis(ax)
        else:
            left.set_title(f"{pn.tag(2 * i)} StratPD: slopes within leaves, "
                           f"{len(curve)} curve points from {len(strata)} rows")
            right.set_title(f"{pn.tag(2 * i + 1)} ALE: {ALE_INTERVALS} quantile intervals "
                            f"of x1")
            for ax in (left, right):
                ax.set_xlabel("x1")
        fig.colorbar(dots, ax=[left, right], label="y", shrink=0.9, pad=0.01)

    from matplotlib.lines import Line2D

    st.legend_below(fig, [
        Line2D([], [], color="0.35", linestyle="--", label="leaf bounds of the tree on (x2, y)"),
        Line2D([], [], marker="^", linestyle="none", color=pn.METHODS["stratpd"].colour,
               markersize=8, label="curve points (StratPD / CatStratPD)"),
        Line2D([], [], color=pn.METHODS["ale"].colour, linestyle="--",
               label="ALE interval edges"),
        Line2D([], [], marker="o", linestyle="none", markerfacecolor="none",
               markeredgecolor="black", label="row whose leaf holds one x1 value (ignored)"),
    ], ncols=2)
    st.save(fig, style, out_png, out_pdf)
