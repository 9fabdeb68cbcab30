"""Figures of the book's chapter 12 (introduction to LIME): the LIME steps on two classes
split by a sine (Fig. 12.1) and the bar plot of one explanation, R lime's ``plot_features``
(Fig. 12.2)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from imlbench.explain.lime import bin_of, proximity_weights, quartile_edges
from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.params import number, text
from imlbench.studies.book_lime.ch12 import first_explanations

#: the book's colours (:data:`imlbench.figures.style.BOOK`): the explained point, the
#: surrogate's line, the classes, weights that support or contradict the class
POINT, SURROGATE = st.BOOK["explained"], st.BOOK["surrogate"]
CLASSES = st.BOOK_PALETTES["classes"]
SUPPORTS, CONTRADICTS = st.BOOK["supports"], st.BOOK["contradicts"]


@figure("book_lime.sine_lime", methods=("lime", "map"), params={"kernel_width": number(above=0)})
def sine_lime(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
              kernel_width: float) -> None:
    """The first repetition: the data by class with the black box's boundary f = 0.5 and the
    explained point (left); the rows sized by their LIME weight (``kernel_width``, R lime's
    kernel) and the surrogate's line g = 0.5 (right)."""
    lime = first_explanations(inputs.estimates("lime"))
    if not isinstance(lime, pd.DataFrame) or lime.empty:
        raise ValueError(f"figure {spec['title']!r}: no LIME rows with surrogate_fit")
    ex = inputs.first_rep(lime)
    rep = ex["rep"].iloc[0]
    bb = inputs.estimates("map")
    bb = bb[bb["rep"] == rep]
    grid, data = bb[bb["part"] == "grid"], bb[bb["part"] == "data"]
    point = ex["x"].to_numpy()
    (b1, b2), a = ex["value"].to_numpy(), ex["intercept"].iloc[0]
    X = data[["x", "z"]].to_numpy()
    w = proximity_weights(X, point, X, kernel_width=kernel_width)
    gx, gz = np.unique(grid["x"]), np.unique(grid["z"])
    f = grid.sort_values(["x", "z"])["value"].to_numpy().reshape(len(gx), len(gz)).T
    fig, style = st.new_figure(spec, rows=1, width=10, panel_height=4.2)
    axes = st.panel_grid(fig, 2, 2, sharex=True, sharey=True)
    for k, ax in enumerate(axes):
        for label, colour in zip((0, 1), CLASSES, strict=True):
            mine = data["y"].to_numpy() == label
            size = 6 if k == 0 else 4 + 160 * w[mine]
            ax.scatter(X[mine, 0], X[mine, 1], s=size, c=colour, alpha=0.6, linewidths=0,
                       label=f"class {label}")
        ax.contour(gx, gz, f, levels=[0.5], colors="black", linewidths=1.5)
        ax.scatter(*point, s=140, c=POINT, edgecolors="black", zorder=5, label="explained row")
        ax.set_xlabel("x1")
        ax.set_xlim(gx[0], gx[-1])
        ax.set_ylim(gz[0], gz[-1])
    if abs(b2) > 0:
        xs = np.array([gx[0], gx[-1]])
        axes[1].plot(xs, (0.5 - a - b1 * xs) / b2, color=SURROGATE, linewidth=2,
                     label="surrogate g = 0.5")
    axes[0].plot([], [], color="black", label="black box f = 0.5")
    axes[0].set_ylabel("x2")
    axes[0].set_title("data, black-box boundary, explained row")
    axes[1].set_title(f"LIME weights (size) and the weighted linear fit (rep {rep})")
    axes[0].legend(loc="lower left", fontsize=7)
    axes[1].legend(loc="lower left", fontsize=7)
    st.save(fig, style, out_png, out_pdf)


def bin_label(name: str, edges: np.ndarray, value: float) -> str:
    """R lime's text of the quartile bin of ``value``: ``a < name <= b`` (the outer bins open)."""
    k = int(bin_of(edges, np.array([value]))[0])
    lo, hi = edges[k], edges[k + 1]
    if k == 0:
        return f"{name} <= {hi:.3g}"
    if k == len(edges) - 2:
        return f"{lo:.3g} < {name}"
    return f"{lo:.3g} < {name} <= {hi:.3g}"


@figure("book_lime.lime_bars", methods=("lime",), tables=("data",),
        params={"label": text("")})
def lime_bars(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
              label: str) -> None:
    """One bar per feature: the mean weight over repetitions of the first explained point's
    explanation (whiskers: the range over repetitions), named by the point's quartile bin as R
    lime names it (binned representation; from the first data chunk) and coloured by sign
    (supports / contradicts ``label``); the title gives the mean explanation fit."""
    lime = first_explanations(inputs.estimates("lime"))
    if not isinstance(lime, pd.DataFrame) or lime.empty:
        raise ValueError(f"figure {spec['title']!r}: no LIME rows with surrogate_fit")
    data = inputs.first_rep(inputs.data())
    stats = lime.groupby("feature", sort=False).agg(
        mean=("value", "mean"), low=("value", "min"), high=("value", "max"), x=("x", "first"))
    stats = stats.reindex(stats["mean"].abs().sort_values().index)
    names = [bin_label(f, quartile_edges(data[f].to_numpy(float)), row.x)
             if f in data else f for f, row in stats.iterrows()]
    fig, style = st.new_figure(spec, rows=1, width=7, panel_height=3.2)
    ax = fig.add_subplot()
    colours = [SUPPORTS if v >= 0 else CONTRADICTS for v in stats["mean"]]
    ys = np.arange(len(stats))
    ax.barh(ys, stats["mean"], color=colours)
    ax.errorbar(stats["mean"], ys, xerr=[stats["mean"] - stats["low"],
                                         stats["high"] - stats["mean"]],
                fmt="none", ecolor="black", capsize=3, linewidth=1)
    ax.set_yticks(ys, names)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlabel("weight")
    fit = lime.groupby("rep")["r2"].first()
    ax.set_title(f"Label: {label or 'class 1'}; explanation fit {fit.mean():.2f} "
                 f"(range {fit.min():.2f}-{fit.max():.2f}, {len(fit)} reps)")
    ax.bar(0, 0, color=SUPPORTS, label="supports")
    ax.bar(0, 0, color=CONTRADICTS, label="contradicts")
    ax.legend(loc="lower right", fontsize=7)
    st.save(fig, style, out_png, out_pdf)
