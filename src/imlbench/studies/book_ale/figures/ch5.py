"""Book ch. 5 (Figs. 5.1, 5.2) and Fig. 6.7: how ALE is built, drawn from real rows.

Fig. 5.1: the rows of one quantile interval moved to its two edges. Fig. 5.2: the ALE from
its interval edges: the mean change per interval, the accumulated (uncentred) values joined
linearly, and the centred curve against the true ALE. A first-order ALE estimate holds the
centred values at the edges (x, value); centring shifts every value by one constant, so the
differences of consecutive values are the intervals' mean prediction changes and their
running sum from 0 at the lowest edge is the uncentred ALE. Fig. 6.7: a cell of the 2-D ALE
grid with its corners a, b, c, d, on the edges of the ``ale2`` estimate.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from imlbench.explain.grids import interval_index
from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.curves import TRUTH_STYLES
from imlbench.figures.inputs import FigureInputs
from imlbench.params import integer, items, text

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

ALE = st.METHODS["ale"].colour


def first_curve(est: pd.DataFrame, feature: str) -> tuple[np.ndarray, np.ndarray]:
    """The edges and centred values of the first repetition's ALE of ``feature``."""
    est = FigureInputs.first_rep(est)
    curve = est[est["feature"] == feature].sort_values("x")
    return curve["x"].to_numpy(float), curve["value"].to_numpy(float)


def interval_of(x: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """The 1-based interval ]z_{k-1}, z_k] of each x; the lowest edge belongs to interval 1."""
    return interval_index(x, edges) + 1


def _edge_labels(ax: Axes, edges: np.ndarray, name: str = "z") -> None:
    """Vertical lines at the edges, named z0, z1, ... above the panel."""
    for k, z in enumerate(edges):
        ax.axvline(z, color="0.35", linestyle="--", linewidth=0.8, zorder=1)
        ax.text(z, 1.01, f"${name}_{{{k}}}$", transform=ax.get_xaxis_transform(),
                ha="center", va="bottom")


@figure("book_ale.ale_intuition", methods=("ale",), tables=("data",), params={
    "features": items(text(), default=["x1", "x2"], length=2),
    "interval": integer(4, minimum=1),
})
def ale_intuition(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                  features: list[str], interval: int) -> None:
    """Fig. 5.1: the rows of interval ``interval`` shifted to its lower and upper edge."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    edges, _ = first_curve(inputs.estimates("ale"), features[0])
    if not 1 <= interval < len(edges):
        raise ValueError(f"interval {interval} is not among the {len(edges) - 1} intervals")
    rows = inputs.first_data(inputs.scenarios[0])
    x, z = rows[features[0]].to_numpy(float), rows[features[1]].to_numpy(float)
    inside = interval_of(x, edges) == interval
    lo, hi = edges[interval - 1], edges[interval]

    fig, style = st.new_figure(spec, rows=1, width=7.5, panel_height=4.0)
    ax = fig.subplots()
    ax.axvspan(lo, hi, color=st.BOOK["cells"], zorder=0)
    _edge_labels(ax, edges)
    ax.scatter(x[~inside], z[~inside], s=18, color="0.55", zorder=2)
    ax.scatter(x[inside], z[inside], s=26, color=ALE, zorder=3)
    for xi, zi in zip(x[inside], z[inside], strict=True):
        for target in (lo, hi):
            ax.annotate("", xy=(target, zi), xytext=(xi, zi), zorder=2,
                        arrowprops={"arrowstyle": "->", "color": st.BOOK["moved"],
                                    "linewidth": 0.9, "shrinkA": 3, "shrinkB": 2})
        ax.scatter([lo, hi], [zi, zi], s=26, facecolors="white", edgecolors=st.BOOK["moved"],
                   zorder=3)
    ax.set_xlabel(features[0])
    ax.set_ylabel(features[1])
    ax.set_title(f"interval {interval} = ]z{interval - 1}, z{interval}]: "
                 f"{int(inside.sum())} of {len(x)} rows", pad=16)
    st.legend_below(fig, [
        Line2D([], [], marker="o", color="0.55", linestyle="none", label="row"),
        Line2D([], [], marker="o", color=ALE, linestyle="none",
               label=f"row in interval {interval}"),
        Line2D([], [], marker="o", markerfacecolor="white", markeredgecolor=st.BOOK["moved"],
               color=st.BOOK["moved"], label="the row moved to an edge (other features kept)"),
        Patch(color=st.BOOK["cells"], label=f"interval {interval}"),
    ], ncols=2)
    st.save(fig, style, out_png, out_pdf)


@figure("book_ale.ale_construction", methods=("ale",), truths=("effects",), tables=("data",),
        params={"feature": text("x1")})
def ale_construction(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                     feature: str) -> None:
    """Fig. 5.2: (a) the mean change of the prediction across each interval, (b) their running
    sum (uncentred ALE) at the edges, joined linearly, with the step function it interpolates,
    (c) the centred estimate against the true ALE centred on the same rows."""
    from matplotlib.lines import Line2D

    edges, centred = first_curve(inputs.estimates("ale"), feature)
    jumps = np.diff(centred)
    uncentred = centred - centred[0]
    rows = inputs.first_data(inputs.scenarios[0])[feature].to_numpy(float)
    counts = np.bincount(interval_of(rows, edges), minlength=len(edges))[1:]
    truth = inputs.truth_curve(inputs.scenarios[0], feature, "ale")
    tx, tv = truth.index.to_numpy(float), truth.to_numpy(float)
    tv = tv - np.interp(rows, tx, tv).mean()

    fig, style = st.new_figure(spec, rows=1, width=12.0, panel_height=3.4)
    a, b, c = st.panel_grid(fig, 3, 3, sharex=True)
    a.bar(edges[:-1], jumps, width=np.diff(edges), align="edge", color=ALE, alpha=0.55,
          edgecolor=ALE)
    for k, (z0, z1) in enumerate(zip(edges[:-1], edges[1:], strict=True)):
        a.text((z0 + z1) / 2, jumps[k], f"{jumps[k]:.3g}\nn={counts[k]}", ha="center",
               va="bottom" if jumps[k] >= 0 else "top", fontsize=style["font_size"] - 1.5)
    a.axhline(0, color="0.3", linewidth=0.6)
    a.set_title("(a) mean change of f across each interval")
    a.set_ylabel("mean of f(upper edge) − f(lower edge)")
    a.margins(y=0.2)

    b.plot(edges, uncentred, drawstyle="steps-pre", color="0.5", linewidth=0.9,
           linestyle=":")
    b.plot(edges, uncentred, color=ALE, marker="o", linewidth=1.8)
    b.axhline(-centred[0], color="0.3", linestyle="--", linewidth=0.8)
    b.set_title("(b) accumulated: uncentred ALE, 0 at z0")
    b.set_ylabel("uncentred ALE")

    c.plot(tx, tv, color=st.TRUTH, linestyle=TRUTH_STYLES["ale"], linewidth=1.4)
    c.plot(edges, centred, color=ALE, marker="o", linewidth=1.8)
    c.axhline(0, color="0.3", linewidth=0.6)
    c.set_title("(c) centred ALE against the true ALE")
    c.set_ylabel("centred ALE")
    for ax in (a, b, c):
        for z in edges:
            ax.axvline(z, color="0.8", linewidth=0.6, zorder=0)
        ax.set_xlabel(feature)
    st.legend_below(fig, [
        Line2D([], [], color=ALE, marker="o", label="ALE estimate at the edges (K = "
               f"{len(edges) - 1} quantile intervals, {len(rows)} rows)"),
        Line2D([], [], color="0.5", linestyle=":", label="accumulated steps before interpolation"),
        Line2D([], [], color="0.3", linestyle="--", label="constant removed by centring"),
        Line2D([], [], color=st.TRUTH, linestyle=TRUTH_STYLES["ale"],
               label="true ALE, centred to mean 0 over the same rows"),
    ], ncols=2)
    st.save(fig, style, out_png, out_pdf)


def _thinned(edges: np.ndarray, thin: int) -> np.ndarray:
    """Every ``thin``-th edge, the last one always kept."""
    out = edges[::thin]
    return out if out[-1] == edges[-1] else np.append(out, edges[-1])


@figure("book_ale.second_order_cells", methods=("ale2",), tables=("data",), params={
    "features": items(text(), default=["x1", "x2"], length=2),
    "thin": integer(4, minimum=1),
    "cell": items(integer(minimum=1), default=[4, 3], length=2),
})
def second_order_cells(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                       features: list[str], thin: int, cell: list[int]) -> None:
    """Fig. 6.7: the cells of the 2-D ALE (every ``thin``-th edge of the first repetition's
    grid), its rows, and cell ``cell`` = (k, m) with its corners and a row inside it."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch, Rectangle

    est = inputs.estimates("ale2")
    first = inputs.first_rep(est)
    ex, ez = _thinned(np.unique(first["x"]), thin), _thinned(np.unique(first["z"]), thin)
    k, m = cell
    if not (1 <= k < len(ex) and 1 <= m < len(ez)):
        raise ValueError(f"cell {cell} is outside the {len(ex) - 1} x {len(ez) - 1} grid")
    rows = inputs.first_data(inputs.scenarios[0])
    x, z = rows[features[0]].to_numpy(float), rows[features[1]].to_numpy(float)
    inside = (interval_of(x, ex) == k) & (interval_of(z, ez) == m)
    corners = {"a": (ex[k - 1], ez[m]), "b": (ex[k], ez[m]),
               "c": (ex[k - 1], ez[m - 1]), "d": (ex[k], ez[m - 1])}

    fig, style = st.new_figure(spec, rows=1, width=7.5, panel_height=4.6)
    ax = fig.subplots()
    ax.grid(False)
    ax.add_patch(Rectangle((ex[0], ez[0]), ex[k] - ex[0], ez[m] - ez[0], color=st.BOOK["cells"],
                           zorder=0))
    ax.add_patch(Rectangle((ex[k - 1], ez[m - 1]), ex[k] - ex[k - 1], ez[m] - ez[m - 1],
                           color=ALE, alpha=0.25, zorder=1))
    for e in ex:
        ax.axvline(e, color="0.45", linewidth=0.8, zorder=1)
    for e in ez:
        ax.axhline(e, color="0.45", linewidth=0.8, zorder=1)
    ax.scatter(x, z, s=10, color="0.45", zorder=2)
    ax.scatter(x[inside], z[inside], s=16, color=ALE, zorder=3)
    if inside.any():
        centre = np.array([(ex[k - 1] + ex[k]) / 2, (ez[m - 1] + ez[m]) / 2])
        scale = np.array([ex[k] - ex[k - 1], ez[m] - ez[m - 1]])
        pts = np.column_stack([x[inside], z[inside]])
        px, pz = pts[np.argmin((((pts - centre) / scale) ** 2).sum(axis=1))]
        for cx, cz in corners.values():
            ax.plot([px, cx], [pz, cz], color=st.BOOK["moved"], linewidth=0.9, linestyle="--",
                    zorder=3)
        ax.scatter([px], [pz], s=40, color=st.BOOK["moved"], zorder=4)
        ax.annotate("x", (px, pz), xytext=(5, 4), textcoords="offset points",
                    color=st.BOOK["moved"], fontweight="bold")
    for name, (cx, cz) in corners.items():
        ax.scatter([cx], [cz], s=30, facecolors="white", edgecolors="black", zorder=4)
        ax.annotate(name, (cx, cz), xytext=(4 if name in "bd" else -10, 4 if name in "ab" else -12),
                    textcoords="offset points", fontweight="bold", fontsize=style["font_size"] + 2)
    ax.set_xticks(ex, [f"$z_{{{i},1}}$" for i in range(len(ex))])
    ax.set_yticks(ez, [f"$z_{{{i},2}}$" for i in range(len(ez))])
    ax.set_xlim(ex[0], ex[-1])
    ax.set_ylim(ez[0], ez[-1])
    ax.set_xlabel(f"{features[0]} (quantile edges {ex[0]:.2f} to {ex[-1]:.2f})")
    ax.set_ylabel(f"{features[1]} (quantile edges {ez[0]:.2f} to {ez[-1]:.2f})")
    ax.set_title(f"cell N({k}, {m}) of a {len(ex) - 1} × {len(ez) - 1} grid: "
                 f"{int(inside.sum())} rows", pad=8)
    st.legend_below(fig, [
        Line2D([], [], marker="o", color="0.45", linestyle="none",
               label="row (first data set)"),
        Patch(color=ALE, alpha=0.25, label=f"cell N({k}, {m})"),
        Line2D([], [], marker="o", color=st.BOOK["moved"], linestyle="--",
               label="a row x of the cell, moved to the corners"),
        Patch(color=st.BOOK["cells"], label="cells accumulated up to corner b"),
    ], ncols=2)
    st.save(fig, style, out_png, out_pdf)
