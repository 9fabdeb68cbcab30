"""Figures of the book's chapter 2 (PDP and ICE on the Titanic passengers): the PDP of one
feature with a rug of the data or as points per level (Figs 2.1, 2.2), the 2-D PDP as one
line per level of a categorical feature or as a colour scale (Figs 2.3, 2.4), and ICE curves
with the PDP overlaid, plain or centred at the smallest grid value (Figs 2.5, 2.6).

Every forest seed (repetition) is drawn thin where it adds to the picture, their mean thick.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from imlbench.curves import mean_band, rep_curves
from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.params import choice, integer, items, text

#: the book draws the PDP over the ICE curves in yellow, its other PDPs in iml's black
PDP_COLOUR = "#222222"
OVERLAY_COLOUR = "#f2b600"
LEVEL_COLOURS = ("#c0392b", "#2471a3", "#239b56")


def _rug(ax, inputs: FigureInputs, feature: str) -> None:
    """The first repetition's training values of ``feature`` as ticks at the bottom."""
    data = inputs.data()
    data = data[data["rep"] == data["rep"].min()] if "rep" in data else data
    if "split" in data:
        data = data[data["split"] == "train"]
    ax.vlines(data[feature].to_numpy(float), 0, 0.04, transform=ax.get_xaxis_transform(),
              color="black", alpha=0.25, linewidth=0.5)


def _one_feature(est: pd.DataFrame) -> str:
    features = est["feature"].unique()
    if len(features) != 1:
        raise ValueError(f"the figure draws one feature; its estimates hold "
                         f"{', '.join(map(str, features))}")
    return str(features[0])


@figure("book_pdp.titanic_pdp", methods=("pdp",), tables=("data",), params={
    "levels": items(text(), default=None, nullable=True),
    "xlabel": text(None, nullable=True), "ylabel": text("predicted survival probability"),
})
def titanic_pdp(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                levels: list[str] | None, xlabel: str | None, ylabel: str) -> None:
    """The PDP of the one feature of role ``pdp``: numeric, every repetition thin, their mean
    thick and a rug of the data (Fig. 2.1); with ``levels`` (the names of the codes 0, 1, ...),
    a categorical feature: the mean per level with a 2-SE bar and each repetition as a dot
    (Fig. 2.2)."""
    est = inputs.estimates("pdp")
    feature = _one_feature(est)
    curves = rep_curves(est)
    fig, style = st.new_figure(spec, rows=1, width=6.4, panel_height=3.8)
    ax = fig.subplots()
    x, mean, se = mean_band(curves)
    if levels:
        for _, curve in curves.iterrows():
            ax.scatter(curve.index, curve.to_numpy(), color="0.55", s=8, zorder=2)
        ax.errorbar(x, mean, yerr=2 * se, color=PDP_COLOUR, marker="o", markersize=7,
                    linestyle="-", linewidth=1.0, capsize=4, zorder=3)
        ax.set_xticks(x, [levels[int(k)] if int(k) < len(levels) else f"{k:g}" for k in x])
        ax.set_xlim(x.min() - 0.5, x.max() + 0.5)
    else:
        for _, curve in curves.iterrows():
            ax.plot(curve.index, curve.to_numpy(), color="0.6", linewidth=0.6)
        ax.plot(x, mean, color=PDP_COLOUR, linewidth=2.0)
        _rug(ax, inputs, feature)
    ax.set_xlabel(xlabel or feature)
    ax.set_ylabel(ylabel)
    ax.set_title(f"PDP of {feature}: {len(curves)} forests (seeds), "
                 f"{'mean ± 2 SE' if levels else 'each thin, mean thick; rug: the passengers'}")
    st.save(fig, style, out_png, out_pdf)


@figure("book_pdp.titanic_surface", methods=("surface",), params={
    "kind": choice("lines", ("lines", "colour")),
    "zname": text("z"),
    "levels": items(text(), default=None, nullable=True),
    "stands_in_for": text(None, nullable=True),
    "xlabel": text("age (years)"), "ylabel": text("predicted survival probability"),
})
def titanic_surface(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                    kind: str, zname: str, levels: list[str] | None,
                    stands_in_for: str | None, xlabel: str, ylabel: str) -> None:
    """The 2-D PDP f(x, z) of the method of role ``surface`` as one line per z (``kind:
    lines``, Fig. 2.3: the mean over repetitions with a 2-SE band) or as a colour scale over
    x and z (``colour``, Fig. 2.4: the mean over repetitions); ``zname`` names z in words and
    ``levels`` its codes 0, 1, ...; ``stands_in_for`` names the feature the book pairs with x
    when the data lack it, and the panel title says that the figure is a stand-in."""
    from matplotlib.lines import Line2D

    est = inputs.estimates("surface")
    zlevels = levels
    reps = est["rep"].nunique() if "rep" in est else 1
    fig, style = st.new_figure(spec, rows=1, width=6.8, panel_height=4.0)
    ax = fig.subplots()
    if kind == "lines":
        handles = []
        for i, (z, g) in enumerate(est.groupby("z")):
            x, mean, se = mean_band(rep_curves(g))
            colour = LEVEL_COLOURS[i % len(LEVEL_COLOURS)]
            ax.plot(x, mean, color=colour, linewidth=2.0)
            ax.fill_between(x, mean - 2 * se, mean + 2 * se, color=colour, alpha=0.2,
                            linewidth=0)
            label = zlevels[int(z)] if zlevels and int(z) < len(zlevels) else f"{z:g}"
            handles.append(Line2D([], [], color=colour, label=f"{zname} = {label}"))
        ax.set_ylabel(ylabel)
        ax.legend(handles=handles, frameon=False)
    else:
        x, z, value = st.surface_grid(est, "mean")
        mesh = ax.pcolormesh(x, z, value, cmap=st.SURFACE_CMAP, shading="nearest")
        fig.colorbar(mesh, ax=ax, label=ylabel)
        if zlevels:
            ax.set_yticks(z, [zlevels[int(k)] if int(k) < len(zlevels) else f"{k:g}"
                              for k in z])
        ax.set_ylabel(zname)
        ax.grid(False)
    ax.set_xlabel(xlabel)
    title = f"2-D PDP of {xlabel.split(' (')[0]} and {zname}, mean of {reps} forests"
    if stands_in_for:
        title += (f"\nstand-in: the data have no {stands_in_for}; drawn: "
                  f"{xlabel.split(' (')[0]} x {zname}")
    ax.set_title(title)
    st.save(fig, style, out_png, out_pdf)


@figure("book_pdp.titanic_ice", methods=("ice",), tables=("data",), params={
    "drawn": integer(150, minimum=1),
    "xlabel": text(None, nullable=True), "ylabel": text("predicted survival probability"),
})
def titanic_ice(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                drawn: int, xlabel: str | None, ylabel: str) -> None:
    """ICE curves of the one feature of role ``ice``: ``drawn`` of the first repetition's
    curves (every k-th row, so that the picture stays readable) in grey, with the number of
    distinct curves among all its rows (rows that differ only in the feature share one), and
    the PDP, their mean over all rows and repetitions, in yellow (Figs 2.5, 2.6; centred ICE
    curves are drawn as estimated, 0 at the anchor)."""
    est = inputs.estimates("ice")
    feature = _one_feature(est)
    first = est[est["rep"] == est["rep"].min()] if "rep" in est else est
    wide = first.pivot_table(index="row", columns="x", values="value")
    step = max(1, -(-len(wide) // drawn))
    shown = wide.iloc[::step]
    fig, style = st.new_figure(spec, rows=1, width=6.8, panel_height=4.0)
    ax = fig.subplots()
    for _, curve in shown.iterrows():
        ax.plot(curve.index, curve.to_numpy(), color=st.ICE_GREY, linewidth=0.5, alpha=0.4)
    x, mean, _ = mean_band(rep_curves(est))
    ax.plot(x, mean, color=OVERLAY_COLOUR, linewidth=2.6)
    _rug(ax, inputs, feature)
    ax.set_xlabel(xlabel or feature)
    ax.set_ylabel(ylabel)
    reps = est["rep"].nunique() if "rep" in est else 1
    distinct = len(np.unique(wide.to_numpy(float).round(9), axis=0))
    ax.set_title(f"{len(shown)} of {len(wide)} ICE curves of the first forest (grey; "
                 f"{distinct} distinct);\nyellow: their mean over {reps} forests, the PDP")
    st.save(fig, style, out_png, out_pdf)
