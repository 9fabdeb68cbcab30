"""A 2-D estimate over two features (a 2-D PDP, a 2-D ALE, a model's prediction surface) with
the training rows: the LMU book's surface figures (Molnar et al., eds., 2019, ch. 2, 3.4, 6
and 9).

``surface``: one panel per entry of ``panels`` (default: one per scenario of the figure), each
the 2-D estimate (rows rep, x, z, value on a product grid) of one method of role ``surface``:

* ``stat``: ``mean`` over the repetitions (on their grid when they share one, else each
  interpolated bilinearly onto :data:`COMMON_SIZE` equidistant points per axis over the range
  every repetition covers, :func:`common_surface`), or the ``first`` repetition;
* ``plus``: a method of the role whose 1-D curves of both ``features`` are added to each
  repetition's surface at its grid points before the mean (the 2-D ALE plus its first-order
  ALEs, the book's Fig. 6.10), each read between its points as :func:`imlbench.curves.values_at`
  reads a curve;
* ``centre``: each surface less its mean over its grid points, on a diverging colour map;
* ``kind``: a colour per grid cell (``colour``), filled contours on round levels
  (``contour``), or one line per value of z over x with the mean's 2-SE band (``lines``, for a
  categorical z; ``levels`` names its codes);
* ``scale``: one colour scale for every panel (``shared``) or one per panel (``own``);
* ``points``: the first repetition's training rows of the panel's scenario (columns
  ``features``) as small ``dots`` or as white ``rings``; a panel's ``points: false`` leaves
  them out there; ``arrows`` ([x0, y0, x1, y1]) and ``marks`` ([x, y]) annotate every panel.

A panel's ``title`` may name ``{scenario}``, ``{method}``, ``{reps}`` (the repetitions
summarised), ``{rows}`` (the training rows drawn) and ``{range}`` (the values' range). Colours
come from the figure's ``look`` (:data:`imlbench.figures.style.LOOKS`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from imlbench.curves import mean_band, rep_curves, values_at
from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.params import choice, flag, items, number, table, text

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.cm import ScalarMappable
    from matplotlib.figure import Figure

#: points per axis of the common grid of a mean over repetitions on different grids
COMMON_SIZE = 41
#: filled-contour levels per colour scale
LEVELS = 21
KINDS = ("colour", "contour", "lines")
STATS = ("mean", "first")
POINTS = ("none", "dots", "rings")
PANEL = {"scenario": text(None, nullable=True), "method": text(None, nullable=True),
         "learner": text(None, nullable=True), "title": text(None, nullable=True),
         "stat": choice(None, STATS, nullable=True), "plus": text(None, nullable=True),
         "points": flag(True)}
PARAMS = {
    "panels": items(table(PANEL), None, nullable=True),
    "features": items(text(), ["x1", "x2"], length=2),
    "kind": choice("colour", KINDS),
    "stat": choice("mean", STATS),
    "centre": flag(False),
    "scale": choice("shared", ("shared", "own")),
    "points": choice("none", POINTS),
    "levels": items(text(), None, nullable=True),
    "arrows": items(items(number(), length=4), []),
    "marks": items(items(number(), length=2), []),
    "xlabel": text(None, nullable=True),
    "ylabel": text(None, nullable=True),
    "zlabel": text("estimate"),
    "look": choice("house", tuple(st.LOOKS)),
}

Grid = tuple[np.ndarray, np.ndarray, np.ndarray]  # x (columns), z (rows), values (z by x)


def rep_surfaces(est: pd.DataFrame) -> dict[int, Grid]:
    """Each repetition's surface on its own grid: x, z and the values (rows = z)."""
    return {int(rep): st.surface_grid(g, "mean") for rep, g in est.groupby("rep")}


def common_surface(grids: dict[int, Grid], size: int = COMMON_SIZE) -> Grid:
    """The surfaces interpolated bilinearly onto ``size`` equidistant points per axis over the
    range every one covers; values has one layer per repetition (reps, z, x)."""
    from scipy.interpolate import RegularGridInterpolator

    lo_x = max(float(g[0].min()) for g in grids.values())
    hi_x = min(float(g[0].max()) for g in grids.values())
    lo_z = max(float(g[1].min()) for g in grids.values())
    hi_z = min(float(g[1].max()) for g in grids.values())
    x, z = np.linspace(lo_x, hi_x, size), np.linspace(lo_z, hi_z, size)
    zz, xx = np.meshgrid(z, x, indexing="ij")
    layers = [RegularGridInterpolator((gz, gx), v)((zz, xx)) for gx, gz, v in grids.values()]
    return x, z, np.stack(layers)


def summarised(grids: dict[int, Grid], stat: str) -> Grid:
    """The first repetition's surface, or the mean over repetitions: on their grid when they
    share one, else on the common grid (:func:`common_surface`)."""
    if stat == "first":
        return grids[min(grids)]
    first = grids[min(grids)]
    if all(np.array_equal(g[0], first[0]) and np.array_equal(g[1], first[1])
           for g in grids.values()):
        return first[0], first[1], np.mean([g[2] for g in grids.values()], axis=0)
    x, z, layers = common_surface(grids)
    return x, z, layers.mean(axis=0)


def with_curves(grids: dict[int, Grid], curves: pd.DataFrame, features: list[str]
                ) -> dict[int, Grid]:
    """Each repetition's surface plus its own 1-D curves of ``features`` (x, then z) read at
    the grid points (the 2-D ALE plus its first-order ALEs)."""
    out = {}
    for rep, (x, z, values) in grids.items():
        added = values.copy()
        for feature, at, axis in ((features[0], x, 0), (features[1], z, 1)):
            mine = curves[(curves["rep"] == rep) & (curves["feature"] == feature)]
            if mine.empty:
                raise ValueError(f"no 1-D curve of {feature} in repetition {rep}")
            read = values_at(rep_curves(mine), at).iloc[0].to_numpy(float)
            added += read[None, :] if axis == 0 else read[:, None]
        out[rep] = (x, z, added)
    return out


def surface_levels(values: list[np.ndarray], centred: bool) -> np.ndarray:
    """Round contour levels spanning all ``values``; for centred surfaces symmetric about 0,
    with 0 in the middle of the (white) central band, so that a surface that is 0 up to
    rounding is drawn in one colour."""
    from matplotlib.ticker import MaxNLocator

    if centred:
        top = max(float(np.nanmax(np.abs(v))) for v in values) or 1.0
        lo, hi = -top, top
    else:
        lo = min(float(np.nanmin(v)) for v in values)
        hi = max(float(np.nanmax(v)) for v in values)
        hi = hi if hi > lo else lo + 1.0
    ticks = MaxNLocator(LEVELS - 1, symmetric=centred).tick_values(lo, hi)
    if not centred:
        return ticks
    half = (ticks[1] - ticks[0]) / 2
    return np.append(ticks - half, ticks[-1] + half)


def value_range(values: np.ndarray) -> str:
    """The range of a surface as printed in panel titles."""
    return f"values {np.nanmin(values):.3g} to {np.nanmax(values):.3g}"


def colour_bar(fig: Figure, mappable: ScalarMappable, ax: Axes | list[Axes], label: str
               ) -> None:
    """A colour bar with a few round ticks."""
    from matplotlib.ticker import MaxNLocator

    bar = fig.colorbar(mappable, ax=ax, shrink=0.85, label=label)
    bar.locator = MaxNLocator(7)
    bar.update_ticks()


def draw_surface(ax: Axes, grid: Grid, kind: str, scale: np.ndarray, centred: bool,
                 hues: st.Hues) -> ScalarMappable:
    """One surface: a colour per grid cell (``colour``, from the least to the greatest of
    ``scale``) or filled contours on the levels ``scale`` (``contour``); a diverging map when
    ``centred``."""
    x, z, values = grid
    cmap = hues.diverging if centred else hues.sequential
    ax.grid(False)
    if kind == "contour":
        return ax.contourf(x, z, values, levels=scale, extend="neither", cmap=cmap)
    return ax.pcolormesh(x, z, values, cmap=cmap, shading="nearest", vmin=scale[0],
                         vmax=scale[-1])


def draw_lines(ax: Axes, est: pd.DataFrame, levels: list[str] | None, name: str,
               hues: st.Hues) -> None:
    """One line per value of z over x: the mean over repetitions with a 2-SE band, coloured
    by the look's level hues; the legend names z (``name``) and its level (``levels``: the
    names of its codes in order)."""
    codes = sorted(est["z"].unique())
    if levels is not None and len(levels) != len(codes):
        raise ValueError(f"params.levels: {len(levels)} names for {len(codes)} values of z")
    for i, (code, g) in enumerate(est.groupby("z")):
        x, mean, se = mean_band(rep_curves(g))
        colour = hues.levels[i % len(hues.levels)]
        label = levels[i] if levels is not None else f"{code:g}"
        ax.plot(x, mean, color=colour, linewidth=2.0, label=f"{name} = {label}")
        ax.fill_between(x, mean - 2 * se, mean + 2 * se, color=colour, alpha=0.2, linewidth=0)
    ax.legend(frameon=False)


def scale_of(values: list[np.ndarray], kind: str, centred: bool) -> np.ndarray:
    """The colour scale of surfaces with ``values``: contour levels, or the least and the
    greatest value (symmetric about 0 when centred)."""
    if kind == "contour":
        return surface_levels(values, centred)
    lo = min(float(np.nanmin(v)) for v in values)
    hi = max(float(np.nanmax(v)) for v in values)
    if centred:
        top = max(abs(lo), abs(hi))
        return np.array([-top, top])
    return np.array([lo, hi])


def draw_rows(ax: Axes, rows: pd.DataFrame, features: list[str], marker: str, hues: st.Hues
              ) -> None:
    """Training rows over a surface: small dots or white rings."""
    x, z = rows[features[0]], rows[features[1]]
    if marker == "rings":
        ax.scatter(x, z, s=12, color="white", edgecolors=hues.rows, linewidths=0.6, zorder=3)
    else:
        ax.scatter(x, z, s=4, color=hues.rows, alpha=0.5, linewidths=0, zorder=3)


def _panels(inputs: FigureInputs, est: pd.DataFrame, panels: list[dict] | None) -> list[dict]:
    """The panels with every key filled: the given ones (a panel's scenario defaults to the
    figure's first, its method to the role's only one drawn there), else one per scenario."""
    given = panels if panels is not None else [{"scenario": s} for s in inputs.scenarios
                                               if s in set(est["scenario"])]
    out = []
    for i, panel in enumerate(given):
        p = {**{k: v.default for k, v in PANEL.items()}, **panel}
        p["scenario"] = p["scenario"] or inputs.scenarios[0]
        held = [m for m in inputs.roles["surface"]
                if len(est[(est["scenario"] == p["scenario"]) & (est["method"] == m)])]
        if p["method"] is None:
            if len(held) != 1:
                raise ValueError(f"params.panels[{i}]: the role surface has methods "
                                 f"{', '.join(held) or 'none'} in {p['scenario']}; "
                                 f"params.panels[{i}].method picks one")
            p["method"] = held[0]
        elif p["method"] not in held:
            raise ValueError(f"params.panels[{i}].method: {p['method']!r} has no estimates in "
                             f"{p['scenario']}; allowed: {', '.join(held)}")
        out.append(p)
    return out


def _estimate(est: pd.DataFrame, panel: dict, stat: str, features: list[str]
              ) -> tuple[Grid, int]:
    """A panel's surface (its ``plus`` curves added) summarised as ``stat``, and the number
    of repetitions summarised."""
    rows = est[(est["scenario"] == panel["scenario"]) & (est["method"] == panel["method"])]
    if panel["learner"] is not None:
        rows = rows[rows["learner"] == panel["learner"]]
    grids = rep_surfaces(rows)
    if panel["plus"] is not None:
        curves = est[(est["scenario"] == panel["scenario"]) & (est["method"] == panel["plus"])]
        grids = with_curves(grids, curves, features)
    use = panel["stat"] or stat
    return summarised(grids, use), 1 if use == "first" else len(grids)


@figure("surface", methods=("surface",), tables=("data",), params=PARAMS)
def surface(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
            panels: list[dict] | None, features: list[str], kind: str, stat: str,
            centre: bool, scale: str, points: str, levels: list[str] | None,
            arrows: list[list[float]], marks: list[list[float]], xlabel: str | None,
            ylabel: str | None, zlabel: str, look: str) -> None:
    """Panels side by side, each a 2-D estimate of role ``surface`` with the training rows
    (see the module doc)."""
    hues = st.LOOKS[look]
    est = inputs.estimates("surface")
    chosen = _panels(inputs, est, panels)
    n = len(chosen)
    fig, style = st.new_figure(spec, rows=1, width=min(12.0, 4.6 * n + 1.5),
                               panel_height=3.8)
    axes = st.panel_grid(fig, n, n, sharex=True, sharey=True)
    xlabel, ylabel = xlabel or features[0], ylabel or features[1]
    if kind == "lines":
        for ax, panel in zip(axes, chosen, strict=True):
            rows = est[(est["scenario"] == panel["scenario"])
                       & (est["method"] == panel["method"])]
            draw_lines(ax, rows, levels, ylabel, hues)
            fields = {"scenario": panel["scenario"], "method": panel["method"],
                      "reps": rows["rep"].nunique()}
            ax.set_title(st.filled(panel["title"] or "", fields))
            ax.set_xlabel(xlabel)
            ax.set_ylabel(zlabel)
        st.save(fig, style, out_png, out_pdf)
        return
    summaries = [_estimate(est, panel, stat, features) for panel in chosen]
    if centre:
        summaries = [((x, z, v - np.nanmean(v)), r) for (x, z, v), r in summaries]
    shared = scale_of([g[2] for g, _ in summaries], kind, centre)
    for ax, panel, (grid, reps) in zip(axes, chosen, summaries, strict=True):
        own = shared if scale == "shared" else scale_of([grid[2]], kind, centre)
        mappable = draw_surface(ax, grid, kind, own, centre, hues)
        fields = {"scenario": panel["scenario"], "method": panel["method"], "reps": reps,
                  "range": value_range(grid[2]), "rows": 0}
        if points != "none" and panel["points"]:
            rows = inputs.first_data(panel["scenario"])
            draw_rows(ax, rows, features, points, hues)
            fields["rows"] = len(rows)
            ax.set_xlim(grid[0].min(), grid[0].max())
            ax.set_ylim(grid[1].min(), grid[1].max())
        for x0, y0, x1, y1 in arrows:
            ax.annotate("", xy=(x1, y1), xytext=(x0, y0),
                        arrowprops={"arrowstyle": "-|>", "color": hues.arrow, "linewidth": 2.0})
        for x, y in marks:
            ax.plot(x, y, "o", color=hues.mark, markersize=7, markeredgecolor="white")
        if levels is not None:
            z = grid[1]
            if len(levels) != len(z):
                raise ValueError(f"params.levels: {len(levels)} names for {len(z)} values of "
                                 f"z")
            ax.set_yticks(z, levels)
        ax.set_title(st.filled(panel["title"] or "", fields))
        ax.set_xlabel(xlabel)
        if scale == "own":
            colour_bar(fig, mappable, ax, zlabel)
    axes[0].set_ylabel(ylabel)
    if scale == "shared":
        colour_bar(fig, mappable, axes, zlabel)
    st.save(fig, style, out_png, out_pdf)
