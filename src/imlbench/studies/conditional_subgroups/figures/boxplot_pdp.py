"""The boxplot-style PDP of Molnar et al. (conditional subgroups, Sect. 4.3, Fig. 6), shared by
the figures that draw PDPs or cs-PDPs that way.

Over the x-range of the data a PDP is drawn thin between the whisker ends, bold between the
hinges, and the observations beyond the whiskers as points on the curve. The statistics are
those of R's ``boxplot.stats`` (as the original code): Tukey's hinges (``fivenum``) and
whiskers at the most extreme observations within 1.5 hinge spreads of the hinges.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from matplotlib.artist import Artist
    from matplotlib.axes import Axes

THIN, BOLD, POINT = 1.0, 3.2, 9


@dataclass(frozen=True)
class TukeyStats:
    """Whisker ends, hinges, median and the observations beyond the whiskers."""

    lower: float
    hinge_low: float
    median: float
    hinge_high: float
    upper: float
    outliers: np.ndarray


def tukey_stats(x: np.ndarray, coef: float = 1.5) -> TukeyStats:
    """R's ``boxplot.stats(x, coef)``: hinges from ``fivenum``, whiskers at the most extreme
    values within ``coef`` hinge spreads, the rest outliers."""
    v = np.sort(np.asarray(x, dtype=float))
    n = len(v)
    if n == 0:
        raise ValueError("boxplot statistics need at least one value")
    n4 = np.floor((n + 3) / 2) / 2
    d = np.array([n4, n + 1 - n4]) - 1  # 0-based positions of the hinges
    low, high = (0.5 * (v[np.floor(d).astype(int)] + v[np.ceil(d).astype(int)]))
    reach = coef * (high - low)
    inside = v[(v >= low - reach) & (v <= high + reach)]
    return TukeyStats(float(inside.min()), float(low), float(np.median(v)), float(high),
                      float(inside.max()), v[(v < inside.min()) | (v > inside.max())])


def draw_boxplot_pdp(ax: Axes, x_data: np.ndarray, grid: np.ndarray, values: np.ndarray,
                     colour: str, label: str | None = None) -> TukeyStats:
    """The PDP ``values`` on ``grid`` drawn boxplot-style over the observations ``x_data``
    (values between grid points by linear interpolation); returns the statistics."""
    s = tukey_stats(x_data)
    order = np.argsort(grid)
    g, v = np.asarray(grid, dtype=float)[order], np.asarray(values, dtype=float)[order]

    def segment(lo: float, hi: float) -> tuple[np.ndarray, np.ndarray]:
        z = np.concatenate([[lo], g[(g > lo) & (g < hi)], [hi]])
        return z, np.interp(z, g, v)

    ax.plot(*segment(s.lower, s.upper), color=colour, linewidth=THIN)
    ax.plot(*segment(s.hinge_low, s.hinge_high), color=colour, linewidth=BOLD, label=label,
            solid_capstyle="butt")
    ax.scatter(s.outliers, np.interp(s.outliers, g, v), s=POINT, color=colour, zorder=3)
    return s


def style_handles(colour: str = "black") -> list[Artist]:
    """Legend handles naming the three parts of :func:`draw_boxplot_pdp`."""
    from matplotlib.lines import Line2D

    return [
        Line2D([], [], color=colour, linewidth=THIN, label="PDP between the whisker ends"),
        Line2D([], [], color=colour, linewidth=BOLD, label="PDP between the hinges"),
        Line2D([], [], color=colour, marker="o", markersize=3, linestyle="none",
               label="outliers, on the PDP"),
    ]


def draw_boxplot(ax: Axes, s: TukeyStats) -> None:
    """A horizontal boxplot of the statistics ``s`` (the same hinges as the PDP above it)."""
    ax.bxp([{"whislo": s.lower, "q1": s.hinge_low, "med": s.median, "q3": s.hinge_high,
             "whishi": s.upper, "fliers": s.outliers}], orientation="horizontal", widths=0.6,
           flierprops={"markersize": 3})
