"""The house style of every figure: colours, layout and saving.

Every learner is drawn with the same colour and letter in every figure. The letters are
the plot symbols of Hooker, Mentch & Zhou (2021): r = random forest, n = neural net,
l = linear model; ours for the learners beyond the paper: g = xgboost, s = SVM, k = kNN,
b = bagging. Blue is kept for the truth. A study may add looks of its own learner names
(the ``looks`` arguments).

A figure's ``style:`` entry in the study file overrides :data:`DEFAULTS` (``width`` and
``panel_height`` in inches, ``font_size`` in points, ``dpi``).

matplotlib and pandas are imported inside the functions only: the configuration check
imports every figure module, and matplotlib alone takes about two seconds to import.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd
    from matplotlib.artist import Artist
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

DEFAULTS: dict[str, Any] = {"width": 11.0, "panel_height": 3.0, "font_size": 9.0, "dpi": 150}
TRUTH = "#1f5fd1"
ICE_GREY = "#7a7a7a"
SURFACE_CMAP = "viridis"
QUERY = "#e8432e"
THEORY = {"color": "black", "linestyle": "--", "linewidth": 1.0}


@dataclass(frozen=True)
class Look:
    """How one series is drawn and named: its label, the letter that stands for it, its
    colour and its marker where it is drawn as points."""

    label: str
    letter: str
    colour: str
    marker: str = "o"


LEARNERS: dict[str, Look] = {
    "rf": Look("random forest", "r", "#d95f02"),
    "mlp": Look("neural net", "n", "#7570b3"),
    "lm": Look("linear model", "l", "#1b9e77"),
    "bagging": Look("bagging", "b", "#17becf"),
    "gbm": Look("xgboost", "g", "#e7298a"),
    "svm": Look("SVM", "s", "#a6761d"),
    "knn": Look("kNN", "k", "#444444"),
}


#: the methods' looks by registered method name, where a figure tells methods apart
METHODS: dict[str, Look] = {
    "pdp": Look("PD", "p", "#000000"),
    "ice": Look("ICE", "i", "#555555"),
    "ale": Look("ALE", "a", "#1b7837"),
    "stratpd": Look("StratPD", "s", "#b2182b"),
    "mplot": Look("M-plot", "m", "#e6ab02"),
    "cs_pdp": Look("cs-PDP", "c", "#66a61e"),
    "marginal_y": Look("marginal plot", "y", "#8c510a"),
    "shap": Look("SHAP", "h", "#7b3294"),
    "pfi": Look("PFI", "p", "#222222"),
    "cpfi": Look("conditional PFI", "c", "#1b9e77"),
    "conditional_pfi": Look("conditional PFI (sampler)", "k", "#d95f02"),
    "oob_pfi": Look("out-of-bag PFI", "o", "#66a61e"),
    "cvirf": Look("CVIRF", "v", "#a6761d"),
}


@dataclass(frozen=True)
class Hues:
    """The colours of one look, by what they draw: every layer drawer takes a ``look`` (a
    key of :data:`LOOKS`) and draws with these."""

    #: each repetition's curve (thin, with this alpha) and the mean over repetitions (thick)
    rep: str
    rep_alpha: float
    mean: str
    #: the first repetition, drawn besides the mean
    first: str
    #: the true curve of each estimand: colour and line style
    truths: Mapping[str, tuple[str, str]]
    #: series told apart within one panel (several learners), in order; empty: each
    #: learner's own colour (:data:`LEARNERS`)
    series: tuple[str, ...]
    #: one line per level of a categorical feature
    levels: tuple[str, ...]
    #: the training rows over a surface, a marked point and an arrow over it, a shaded range
    rows: str
    mark: str
    arrow: str
    shade: str
    #: colour maps of values of one sign and of values on both sides of 0 (0 in white)
    sequential: str
    diverging: str


#: the true curves in both looks (the book's own colours where it draws one)
_TRUTHS = {"pd": ("#d62728", "-"), "interventional": (TRUTH, "--"),
           "conditional": ("#7b3294", ":"), "ale": (TRUTH, "-")}
#: the LMU book's hues (Molnar et al., eds., 2019: R's iml and ggplot2 defaults as its figures
#: draw them), by what they draw: those of the look ``book`` (:data:`LOOKS`) and those of the
#: figures only a study draws, so that every book figure takes its colours from here
BOOK: dict[str, str] = {
    # ch. 2-4: iml's PDP line (each repetition and their mean), the PDP over ICE curves,
    # E[Y | do(X = x)]
    "pdp": "#222222", "overlay": "#f2b600", "intervention": "#e6b800",
    # ch. 5-7: one data set besides the mean, a row moved to an interval's edges, the cells
    # or the interval it moves in, the map of the step functions' regions, the map of ICE
    # curves by group
    "first": "#b2182b", "moved": "#d95f02", "cells": "0.93", "regions_map": "YlOrBr",
    "groups_map": "plasma",
    # ch. 9-10: a permuted row; PI and PFI; ICI curves; the rows of the largest, median and
    # smallest integrated ICI; the two sides of a split
    "mark": "#2b6cff", "pi": "black", "pfi": "#d62728", "ici": "#9a9a9a",
    "largest": "#1f5fbf", "median": "#2ca02c", "smallest": "#ff7f0e",
    "left": "#1f5fbf", "right": "#e08214",
    # ch. 12-14 (LIME): the explained row, the surrogate's line, a LIME line and their fan
    # over repeats, weights that support or contradict a class, the sine data, its true
    # surface and point
    "explained": "#f2c200", "surrogate": "#7b2cbf", "lime": "#d62728", "fan": "#b0b0b0",
    "supports": "#4682b4", "contradicts": "#b22222", "data": "0.6", "reference": "black",
    "point": "#2ca02c",
}
#: the book's series of colours, by what they tell apart
BOOK_PALETTES: dict[str, tuple[str, ...]] = {
    # ch. 3.4: the learners of one panel (random forest black, SVM blue, ...)
    "series": ("black", "#1f5fd1", "#2ca02c", "#9467bd"),
    # ch. 2: one line per level of a categorical feature
    "levels": ("#c0392b", "#2471a3", "#239b56"),
    # ch. 8-9: ggplot2's hues of three groups (the learners)
    "ggplot3": ("#f8766d", "#00ba38", "#619cff"),
    # ch. 7: the bands of x2 of a step function
    "bands": ("#1b9e77", "#d95f02", "#7570b3"),
    # ch. 12: the two classes
    "classes": ("#4575b4", "#d73027"),
    # ch. 13: kernel widths, features
    "widths": ("#d62728", "#ff7f0e", "#e6b800", "#2ca02c", "#17becf", "#1f77b4", "#9467bd",
               "#8c564b", "#e377c2"),
    "features": ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
                 "#17becf"),
    # ch. 14: sampling options beyond those of :data:`BOOK_SAMPLING`
    "more": ("#8c564b", "#e377c2", "#7f7f7f", "#bcbd22"),
}
#: the book's hue of each LIME sampling option (ch. 14)
BOOK_SAMPLING = {"bins": "#d62728", "normal": "#1f77b4", "KDE": "#2ca02c",
                 "categorical": "#9467bd"}

LOOKS: dict[str, Hues] = {
    "house": Hues(rep=ICE_GREY, rep_alpha=0.45, mean="black", first=BOOK["first"],
                  truths=_TRUTHS, series=(), levels=("#1b9e77", "#d95f02", "#7570b3"),
                  rows="black", mark=BOOK["mark"], arrow="white", shade="0.85",
                  sequential=SURFACE_CMAP, diverging="RdBu_r"),
    "book": Hues(rep=BOOK["pdp"], rep_alpha=0.35, mean=BOOK["pdp"], first=BOOK["first"],
                 truths={**_TRUTHS, "interventional": (BOOK["intervention"], "--")},
                 series=BOOK_PALETTES["series"], levels=BOOK_PALETTES["levels"], rows="black",
                 mark=BOOK["mark"], arrow="white", shade="0.85", sequential=SURFACE_CMAP,
                 diverging="RdBu_r"),
}


def look(learner: str, looks: Mapping[str, Look] = LEARNERS, kind: str | None = None) -> Look:
    """The look of a learner's series: its own in ``looks``, else that of the registered
    learner ``kind`` it is an instance of (a study's ``rf_weather`` is a random forest), else
    a grey default."""
    if learner in looks:
        return looks[learner]
    if kind in LEARNERS:
        return LEARNERS[kind]
    return Look(learner, learner[:1], "#333333")


def method_look(method: str, kind: str | None = None) -> Look:
    """The look of a study method's series: that of its registered method ``kind`` (in
    :data:`METHODS`), named by the study's method; grey when the kind has none."""
    known = METHODS.get(kind or method)
    return Look(method, known.letter if known else method[:1],
                known.colour if known else "#333333")


def learner_order(names: Iterable[str], looks: Mapping[str, Look] = LEARNERS) -> list[str]:
    """Learners in the order of ``looks`` (the paper's: rf, mlp, lm, bagging, then ours), then
    the others alphabetically."""
    known = list(looks)
    return sorted(set(names), key=lambda n: (known.index(n) if n in known else len(known), n))


def feature_order(names: Iterable[str]) -> list[str]:
    """Features ``x1, x2, ..., x10`` in numeric order; named features alphabetically."""

    def key(name: str) -> tuple[int, str]:
        m = re.fullmatch(r"x(\d+)", name)
        return (0, f"{int(m.group(1)):06d}") if m else (1, name)

    return sorted(set(names), key=key)


def fmt(value: float) -> str:
    """A swept parameter value as printed in panel titles and legends."""
    return f"{value:g}"


def filled(template: str, fields: Mapping[str, Any]) -> str:
    """A title ``template`` of a figure entry with its placeholders (``{reps}``, ...) filled
    from ``fields``; a ValueError naming the template and the placeholders allowed."""
    try:
        return template.format_map(fields)
    except (KeyError, ValueError, IndexError) as err:
        raise ValueError(f"title {template!r}: cannot fill {err}; allowed placeholders: "
                         f"{', '.join(fields)}") from None


# --- figure and output -------------------------------------------------------------------


def settings(spec: dict, **figure_defaults: Any) -> dict[str, Any]:
    """Style values: package defaults, then the figure's defaults, then ``spec['style']``."""
    return {**DEFAULTS, **figure_defaults, **spec.get("style", {})}


def new_figure(spec: dict, rows: float, **figure_defaults: Any) -> tuple[Figure, dict[str, Any]]:
    """An empty constrained-layout figure ``rows`` panels high, titled ``spec['title']``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    style = settings(spec, **figure_defaults)
    plt.rcParams.update({
        "font.size": style["font_size"],
        "axes.titlesize": style["font_size"],
        "axes.labelsize": style["font_size"],
        "legend.fontsize": style["font_size"] - 0.5,
        "xtick.labelsize": style["font_size"] - 1,
        "ytick.labelsize": style["font_size"] - 1,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "axes.grid": True,
        "grid.color": "0.92",
        "grid.linewidth": 0.5,
    })
    height = style["panel_height"] * rows + 1.0
    fig = plt.figure(figsize=(style["width"], height), layout="constrained")
    fig.suptitle(spec["title"], fontweight="bold", fontsize=style["font_size"] + 2)
    return fig, style


def panel_grid(fig: Figure, n: int, ncols: int, **subplot_kw: Any) -> list[Axes]:
    """``n`` panels in rows of ``ncols``; the unused cells of the last row are hidden."""
    axes = fig.subplots(panel_rows(n, ncols), ncols, squeeze=False, **subplot_kw).ravel()
    for ax in axes[n:]:
        ax.set_visible(False)
    return list(axes[:n])


def panel_rows(n: int, ncols: int) -> int:
    """Rows needed for ``n`` panels in rows of ``ncols``."""
    return -(-n // ncols)


def learner_title(ax: Axes, learner: str, extra: str = "",
                  looks: Mapping[str, Look] = LEARNERS) -> None:
    """A panel title naming the learner (and its letter) in its colour."""
    look_ = look(learner, looks)
    ax.set_title(f"{look_.label} ({look_.letter}){extra}", color=look_.colour,
                 fontweight="bold")


def legend_below(fig: Figure, handles: list[Artist], ncols: int, title: str | None = None) -> None:
    """A figure legend under the panels."""
    fig.legend(handles=handles, loc="outside lower center", ncols=ncols, frameon=False,
               title=title)


def save(fig: Figure, style: dict[str, Any], out_png: Path, out_pdf: Path) -> None:
    """Write the figure as PNG and PDF, each atomically, and close it. The constrained layout
    is solved once, for the PNG; the PDF keeps its positions (solving it again, as matplotlib
    would on every save, costs as much as drawing)."""
    import matplotlib.pyplot as plt

    from imlbench.io import atomic_path

    for path, kind in ((out_png, "png"), (out_pdf, "pdf")):
        with atomic_path(path) as tmp:
            fig.savefig(tmp, format=kind, dpi=style["dpi"])
        fig.set_layout_engine("none")
    plt.close(fig)


# --- shared panels -------------------------------------------------------------------------


def dodge(i: int, n: int, width: float = 0.6) -> float:
    """Horizontal offset of series ``i`` of ``n`` so that series at one x do not overlap."""
    return 0.0 if n == 1 else width * (i / (n - 1) - 0.5)


def surface_grid(surface: pd.DataFrame, stat: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Grid values x1, x2 and the statistic ``stat`` over repetitions (rows = x2)."""
    grid = surface.groupby(["z", "x"])["value"].agg(stat).unstack("x")
    return grid.columns.to_numpy(), grid.index.to_numpy(), grid.to_numpy()
