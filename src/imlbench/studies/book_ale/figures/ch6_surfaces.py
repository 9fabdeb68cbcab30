"""Book ch. 6, Figs. 6.8-6.12: two-dimensional ALE against its closed form and against the
2-D PDP.

A 2-D estimate (methods ``ale2`` and ``surface``) is a table rep, x, z, value on the product
grid of one repetition: the 21 quantile edges per axis of the 2-D ALE, or 21 equidistant
points from the minimum to the maximum for the 2-D PDP. The grids differ between
repetitions, so a mean over repetitions is taken on a common grid: every repetition's
surface is interpolated bilinearly onto :data:`COMMON_SIZE` equidistant points per axis over
the range that every repetition covers (:func:`common_surface`).

The helpers here (:func:`rep_surfaces`, :func:`common_surface`, :func:`surface_levels`,
:func:`draw_surface`) also serve Fig. 6.7 in :mod:`.ch5`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.params import choice, flag, items, number, table, text
from imlbench.studies.book_ale.figures.ch7_intervals import first_rows

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.cm import ScalarMappable
    from matplotlib.contour import QuadContourSet
    from matplotlib.figure import Figure

#: points per axis of the common grid of a mean over repetitions
COMMON_SIZE = 41
#: centred effects (values on both sides of 0) use a diverging map with 0 in white
DIVERGING = "RdBu_r"
#: filled-contour levels per colour scale
LEVELS = 21
#: what a panel of :func:`surface_compare` shows
SHOWS = ("pdp", "ale2", "ale_mains")
STATS = ("mean", "first")
POINTS = {"s": 4, "color": "black", "alpha": 0.6, "linewidths": 0}

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
    """The first repetition's surface on its own grid, or the mean over repetitions on the
    common grid."""
    if stat == "first":
        return grids[min(grids)]
    x, z, layers = common_surface(grids)
    return x, z, layers.mean(axis=0)


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


def colour_bar(fig: Figure, mappable: ScalarMappable, ax: Axes | list[Axes], label: str) -> None:
    """A colour bar with a few round ticks."""
    from matplotlib.ticker import MaxNLocator

    bar = fig.colorbar(mappable, ax=ax, shrink=0.85, label=label)
    bar.locator = MaxNLocator(7)
    bar.update_ticks()


def draw_surface(ax: Axes, grid: Grid, levels: np.ndarray, centred: bool) -> QuadContourSet:
    """Filled contours of one surface on the given levels (diverging map when centred)."""
    x, z, values = grid
    ax.grid(False)
    return ax.contourf(x, z, values, levels=levels, extend="neither",
                       cmap=DIVERGING if centred else st.SURFACE_CMAP)


def value_range(values: np.ndarray) -> str:
    """The range of a surface as printed in panel titles."""
    return f"values {np.nanmin(values):.3g} to {np.nanmax(values):.3g}"


def first_points(inputs: FigureInputs, features: list[str]) -> pd.DataFrame:
    """The first repetition's training rows of the figure's first scenario (``features``)."""
    return first_rows(inputs.data(), inputs.scenarios[0])[features]


@figure("book_ale.ale2_theory", methods=("ale2",), params={
    "features": items(text(), default=["x1", "x2"], length=2),
    "a": number(0.0), "b": number(0.5), "mu": number(5.0), "sd": number(1.0, minimum=0),
})
def ale2_theory(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                features: list[str], a: float, b: float, mu: float, sd: float) -> None:
    """The closed-form pure second-order ALE of f = x1 x2 x3 (book eq. 6.13) next to the
    estimate of the first data set and the mean over data sets, on one colour scale."""
    from imlbench.dgp.effect_examples import AleBookCh6
    from imlbench.truth.effects import ale_book_ch6_second_order

    grids = rep_surfaces(inputs.estimates("ale2"))
    first = grids[min(grids)]
    mean = summarised(grids, "mean")
    law = AleBookCh6("multiplicative", a=a, b=b, mu=mu, sd=sd)
    xx, zz = np.meshgrid(mean[0], mean[1])
    theory = (mean[0], mean[1], ale_book_ch6_second_order(law, xx, zz))
    formula = f"½({features[0]} − {(a + b) / 2:g})({features[1]}² − {mu**2 + sd**2:g})"
    panels = [(theory, f"(a) closed form {formula}"),
              (first, "(b) estimate, first data set (K = 20)"),
              (mean, f"(c) estimate, mean over {len(grids)} data sets")]
    levels = surface_levels([g[2] for g, _ in panels], centred=True)

    fig, style = st.new_figure(spec, rows=1, width=12.0, panel_height=3.4)
    axes = st.panel_grid(fig, 3, 3, sharex=True, sharey=True)
    for ax, (grid, title) in zip(axes, panels, strict=True):
        filled = draw_surface(ax, grid, levels, centred=True)
        ax.set_title(f"{title}\n{value_range(grid[2])}")
        ax.set_xlabel(features[0])
    axes[0].set_ylabel(features[1])
    colour_bar(fig, filled, axes, "second-order ALE (one scale)")
    st.save(fig, style, out_png, out_pdf)


def _mains(est1: pd.DataFrame, rep: int, feature: str, at: np.ndarray) -> np.ndarray:
    """One repetition's centred 1-D ALE of ``feature``, interpolated linearly at ``at``."""
    curve = est1[(est1["rep"] == rep) & (est1["feature"] == feature)].sort_values("x")
    if curve.empty:
        raise ValueError(f"no 1-D ALE of {feature} in repetition {rep}")
    return np.interp(at, curve["x"].to_numpy(float), curve["value"].to_numpy(float))


def _with_mains(grids: dict[int, Grid], est1: pd.DataFrame, features: list[str]
                ) -> dict[int, Grid]:
    """Each repetition's 2-D ALE plus its two 1-D ALEs at the grid points."""
    out = {}
    for rep, (x, z, values) in grids.items():
        added = (values + _mains(est1, rep, features[0], x)[None, :]
                 + _mains(est1, rep, features[1], z)[:, None])
        out[rep] = (x, z, added)
    return out


@figure("book_ale.surface_compare", methods=("pdp2", "ale2", "ale1"), tables=("data",),
        params={
            "features": items(text(), length=2),
            "panels": items(table({"show": choice("ale2", SHOWS), "points": flag(False)})),
            "stat": choice("mean", STATS),
            "centre": flag(True),
            "scale": choice("shared", ("shared", "own")),
        })
def surface_compare(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                    features: list[str], panels: list[dict], stat: str, centre: bool,
                    scale: str) -> None:
    """Panels side by side, each a 2-D surface of ``features``: ``pdp`` (2-D PDP, role pdp2),
    ``ale2`` (pure second-order ALE, role ale2) or ``ale_mains`` (the 2-D ALE plus both 1-D
    ALEs of role ale1 at its grid points); ``points`` adds the first data set's rows. ``stat``:
    the mean over repetitions (common grid) or the first repetition; ``centre``: each surface
    less its mean over its grid points (diverging map); ``scale``: one colour scale for all
    panels or one per panel."""
    surfaces: dict[str, Grid] = {}
    shows = [p.get("show", "ale2") for p in panels]
    if "pdp" in shows:
        surfaces["pdp"] = summarised(rep_surfaces(inputs.estimates("pdp2")), stat)
    if {"ale2", "ale_mains"} & set(shows):
        ale2 = rep_surfaces(inputs.estimates("ale2"))
        surfaces["ale2"] = summarised(ale2, stat)
        if "ale_mains" in shows:
            est1 = inputs.estimates("ale1")
            surfaces["ale_mains"] = summarised(_with_mains(ale2, est1, features), stat)
    if centre:
        surfaces = {k: (x, z, v - np.nanmean(v)) for k, (x, z, v) in surfaces.items()}
    names = {"pdp": "2-D PDP", "ale2": "2-D ALE (second order only)",
             "ale_mains": f"2-D ALE + ALE({features[0]}) + ALE({features[1]})"}
    points = first_points(inputs, features) if any(p.get("points") for p in panels) else None
    shared = surface_levels([surfaces[s][2] for s in shows], centre)

    what = "centred effect" if centre else "effect"
    n = len(panels)
    fig, style = st.new_figure(spec, rows=1, width=min(12.0, 4.2 * n + 1.5), panel_height=3.6)
    axes = st.panel_grid(fig, n, n, sharex=True, sharey=True)
    for i, (ax, panel, show) in enumerate(zip(axes, panels, shows, strict=True)):
        grid = surfaces[show]
        levels = shared if scale == "shared" else surface_levels([grid[2]], centre)
        filled = draw_surface(ax, grid, levels, centre)
        if panel.get("points") and points is not None:
            ax.scatter(points[features[0]], points[features[1]], **POINTS)
            ax.set_xlim(grid[0].min(), grid[0].max())
            ax.set_ylim(grid[1].min(), grid[1].max())
        extra = ", first data set's rows" if panel.get("points") else ""
        ax.set_title(f"({chr(97 + i)}) {names[show]}{extra}\n{value_range(grid[2])}")
        ax.set_xlabel(features[0])
        if scale == "own":
            colour_bar(fig, filled, ax, f"{what} (this panel's scale)")
    axes[0].set_ylabel(features[1])
    if scale == "shared":
        colour_bar(fig, filled, axes, f"{what} (one scale)")
    st.save(fig, style, out_png, out_pdf)
