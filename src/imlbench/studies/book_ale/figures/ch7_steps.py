"""Ch. 7 of the LMU book: piecewise-constant prediction functions and the rows behind a step.

``book_ale.step_sketch``: a step function of (x1, x2) over the square as filled regions with
their values, the first data set on top and, optionally, the interval edges of ALE methods
along x1 (Figs. 7.10, 7.12, 7.13).
``book_ale.step_points``: the rows of the first data set that lie in the ALE interval holding
a step, coloured by the band of x2 they fall into, and the step the interval's estimate
makes (Figs. 7.16, 7.17).

A region is [x1 from, x1 to, x2 from, x2 to, value]; the rest of the square has the value
``background``. The interval edges are the x values of a method's estimate (its edges).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.curve_grid import intervals
from imlbench.figures.inputs import FigureInputs
from imlbench.params import feature_name, flag, items, number, text
from imlbench.studies.book_ale.figures.ch7_intervals import ALE_COLOUR

if TYPE_CHECKING:
    from matplotlib.axes import Axes

REGIONS = items(items(number(), length=5), default=[])
SQUARE = items(number(), length=2, default=[0.0, 10.0])


def region_colour(value: float, levels: Sequence[float]) -> tuple:
    """The fill colour of a region of ``value`` among the function's ``levels``."""
    import matplotlib
    from matplotlib.colors import Normalize

    norm = Normalize(min(levels), max(levels) + 0.25 * (max(levels) - min(levels) or 1.0))
    return matplotlib.colormaps[st.BOOK["regions_map"]](norm(value))


def draw_regions(ax: Axes, regions: Sequence[Sequence[float]], background: float,
                 square: Sequence[float], alpha: float = 0.75, values: bool = True) -> None:
    """The step function's regions filled by value (and their values written in them, when
    ``values``; beside a region too narrow for it), over the square filled with
    ``background`` (named in a corner where the regions leave some of it; they should not
    overlap)."""
    from matplotlib.patches import Rectangle

    levels = [background, *[r[4] for r in regions]]
    lo, hi = square
    ax.add_patch(Rectangle((lo, lo), hi - lo, hi - lo, color=region_colour(background, levels),
                           alpha=alpha, linewidth=0, zorder=0))
    box = {"boxstyle": "round,pad=0.2", "facecolor": "white", "alpha": 0.8, "linewidth": 0}
    for a, b, c, d, v in regions:
        ax.add_patch(Rectangle((a, c), b - a, d - c, facecolor=region_colour(v, levels),
                               alpha=alpha, edgecolor="0.4", linewidth=0.6, zorder=1))
        if not values:
            continue
        label = f"f = {st.fmt(v)}"
        if b - a < 0.1 * (hi - lo):
            ax.annotate(label, ((a + b) / 2, c + 0.93 * (d - c)), xytext=(12, 0),
                        textcoords="offset points", ha="left", va="center", fontsize=9,
                        fontweight="bold", color="0.15", zorder=4, bbox=box,
                        arrowprops={"arrowstyle": "-", "color": "0.3", "linewidth": 0.8})
        else:
            ax.text((a + b) / 2, (c + d) / 2, label, ha="center", va="center", fontsize=9,
                    fontweight="bold", color="0.15", zorder=4, bbox=box)
    covered = sum((b - a) * (d - c) for a, b, c, d, _ in regions)
    if values and covered < 0.999 * (hi - lo) ** 2:  # some of the square has the background
        ax.text(lo + 0.02 * (hi - lo), hi - 0.02 * (hi - lo), f"f = {st.fmt(background)} "
                "elsewhere", ha="left", va="top", fontsize=8, color="0.25", zorder=4, bbox=box)
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)


def first_edges(est) -> np.ndarray:
    """The interval edges (sorted x) of the first repetition of one method's estimate."""
    return np.unique(FigureInputs.first_rep(est)["x"].to_numpy(float))


@figure("book_ale.step_sketch", methods=("edges",), tables=("data",), params={
    "regions": REGIONS,
    "background": number(0.0),
    "square": SQUARE,
    "x": feature_name("x1"),
    "y": feature_name("x2"),
    "labels": items(text(), default=None, nullable=True),
    "window": items(number(), length=2, default=None, nullable=True),
    "strips": flag(True),
})
def step_sketch(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                regions: list[list[float]], background: float, square: list[float], x: str,
                y: str, labels: list[str] | None, window: list[float] | None,
                strips: bool) -> None:
    """The step function's ``regions`` over the square and the first data set's rows of the
    (single) scenario; with ``strips``, a strip per method of role ``edges`` below: the
    rows' x (ticks), the regions' x ranges and the method's interval edges of the first data
    set, over ``window`` (default: the square). Without, the role is not read."""
    from matplotlib.lines import Line2D

    methods = inputs.roles["edges"] if strips else []
    est = inputs.estimates("edges") if methods else None
    scenario = inputs.scenarios[0]
    rows = inputs.first_data(scenario)
    if labels is not None and len(labels) != len(methods):
        raise ValueError(f"labels: {len(labels)} given for {len(methods)} methods")
    n_strips = len(methods)
    fig, style = st.new_figure(spec, rows=1.6 + 0.45 * n_strips,
                               width=7.0 if n_strips else 5.6, panel_height=3.0)
    grid = fig.add_gridspec(1 + n_strips, 1, height_ratios=[4.5] + [1.0] * n_strips)
    ax = fig.add_subplot(grid[0])
    draw_regions(ax, regions, background, square)
    ax.set_aspect("equal")
    ax.scatter(rows[x], rows[y], s=14, color="black", linewidths=0, zorder=3)
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    ax.set_title(f"{scenario}: the function and the first data set ({len(rows)} rows)")
    lo, hi = window or square
    levels = [background, *[r[4] for r in regions]]
    for i, method in enumerate(methods):
        strip = fig.add_subplot(grid[1 + i])
        mine = est[(est["scenario"] == scenario) & (est["method"] == method)]
        edges = first_edges(mine)
        for a, b, _, _, v in regions:
            strip.axvspan(a, b, color=region_colour(v, levels), alpha=0.5, linewidth=0)
        for edge in edges:
            strip.axvline(edge, color=ALE_COLOUR, linewidth=1.0)
        strip.scatter(rows[x], np.full(len(rows), 0.5), marker="|", s=120, color="black",
                      linewidths=1.0, zorder=3)
        strip.set_xlim(lo, hi)
        strip.set_ylim(0, 1)
        strip.set_yticks([])
        strip.grid(False)
        strip.set_title(labels[i] if labels else f"K = {intervals(mine)}: interval edges",
                        loc="left")
        strip.set_xlabel(x if i == n_strips - 1 else "")
    if n_strips:
        handles = [Line2D([], [], color=ALE_COLOUR, label="interval edges (first data set)"),
                   Line2D([], [], color="black", marker="|", linestyle="none", markersize=9,
                          label=f"rows' {x}")]
        st.legend_below(fig, handles, ncols=2)
    st.save(fig, style, out_png, out_pdf)


@figure("book_ale.step_points", methods=("ale",), tables=("data",), params={
    "steps": items(number()),
    "bands": items(number(), length=2),
    "regions": REGIONS,
    "background": number(0.0),
    "square": SQUARE,
    "margin": number(None, minimum=0, nullable=True),
    "x": feature_name("x1"),
    "y": feature_name("x2"),
})
def step_points(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                steps: list[float], bands: list[float], regions: list[list[float]],
                background: float, square: list[float], margin: float | None, x: str,
                y: str) -> None:
    """One panel per step location in ``steps`` (values of x): the interval of the first
    data set's ALE (role ``ale``, one method) that holds it, its rows coloured by the band
    of y (below ``bands[0]``, between, above ``bands[1]``), the other rows grey, the regions
    faintly, and in the title the step the estimate makes over the interval. ``margin``:
    show x only this far either side of the interval (default: the whole square)."""
    from matplotlib.lines import Line2D

    from imlbench.explain.grids import interval_index

    est = inputs.estimates("ale")
    est = est[est["feature"] == x]
    scenario = inputs.scenarios[0]
    rows = inputs.first_data(scenario)
    mine = inputs.first_rep(est[est["scenario"] == scenario])
    curve = mine.groupby("x")["value"].mean()
    edges = curve.index.to_numpy(float)
    values = curve.to_numpy(float)
    k = intervals(est[est["scenario"] == scenario])
    index = interval_index(rows[x].to_numpy(float), edges)
    fig, style = st.new_figure(spec, rows=1.6, width=4.6 * len(steps) + 0.6, panel_height=3.0)
    axes = st.panel_grid(fig, len(steps), len(steps))
    names = (f"{y} < {st.fmt(round(bands[0], 2))}", "between",
             f"{y} > {st.fmt(round(bands[1], 2))}")
    for ax, at in zip(axes, steps, strict=True):
        draw_regions(ax, regions, background, square, alpha=0.3, values=False)
        j = int(interval_index(np.array([at]), edges)[0])
        a, b = edges[j], edges[j + 1]
        ax.axvspan(a, b, color=ALE_COLOUR, alpha=0.12, linewidth=0, zorder=1)
        for edge in (a, b):
            ax.axvline(edge, color=ALE_COLOUR, linewidth=1.2, zorder=2)
        ax.axvline(at, color="black", linestyle=":", linewidth=1.0, zorder=2)
        inside = rows[index == j]
        ax.scatter(rows.loc[index != j, x], rows.loc[index != j, y], s=10, color="0.6",
                   linewidths=0, zorder=3)
        band = np.digitize(inside[y].to_numpy(float), bands)
        for level, colour in enumerate(st.BOOK_PALETTES["bands"]):
            pick = inside[band == level]
            ax.scatter(pick[x], pick[y], s=40, color=colour, edgecolors="black",
                       linewidths=0.5, zorder=4)
        ax.set_title(f"step at {x} = {at:.2f}: interval [{a:.2f}, {b:.2f}], {len(inside)} rows,"
                     f"\nestimated step {values[j + 1] - values[j]:+.2f}")
        if margin is not None:
            ax.set_xlim(max(square[0], a - margin), min(square[1], b + margin))
        ax.set_xlabel(x)
        ax.set_ylabel(y)
    handles = [Line2D([], [], color=c, marker="o", linestyle="none", markeredgecolor="black",
                      label=f"rows in the interval, {n}")
               for c, n in zip(st.BOOK_PALETTES["bands"], names, strict=True)]
    handles.append(Line2D([], [], color="0.6", marker="o", linestyle="none",
                          label="other rows"))
    handles.append(Line2D([], [], color=ALE_COLOUR, label=f"interval edges (K = {k})"))
    st.legend_below(fig, handles, ncols=3)
    st.save(fig, style, out_png, out_pdf)
