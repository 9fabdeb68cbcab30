"""Figures of the book's chapter 2 (PDP and ICE on the Titanic passengers): the PDP of one
feature with a rug of the data or as points per level (Figs 2.1, 2.2) and ICE curves with the
PDP overlaid, plain or centred at the smallest grid value (Figs 2.5, 2.6). The 2-D PDPs
(Figs 2.3, 2.4) are the layer's ``surface``.

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
from imlbench.params import integer, items, text


def _rug(ax, inputs: FigureInputs, feature: str) -> None:
    """The first repetition's training values of ``feature`` as ticks at the bottom."""
    data = inputs.first_data()
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
        ax.errorbar(x, mean, yerr=2 * se, color=st.BOOK["pdp"], marker="o", markersize=7,
                    linestyle="-", linewidth=1.0, capsize=4, zorder=3)
        ax.set_xticks(x, [levels[int(k)] if int(k) < len(levels) else f"{k:g}" for k in x])
        ax.set_xlim(x.min() - 0.5, x.max() + 0.5)
    else:
        for _, curve in curves.iterrows():
            ax.plot(curve.index, curve.to_numpy(), color="0.6", linewidth=0.6)
        ax.plot(x, mean, color=st.BOOK["pdp"], linewidth=2.0)
        _rug(ax, inputs, feature)
    ax.set_xlabel(xlabel or feature)
    ax.set_ylabel(ylabel)
    ax.set_title(f"PDP of {feature}: {len(curves)} forests (seeds), "
                 f"{'mean ± 2 SE' if levels else 'each thin, mean thick; rug: the passengers'}")
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
    first = inputs.first_rep(est)
    wide = first.pivot_table(index="row", columns="x", values="value")
    step = max(1, -(-len(wide) // drawn))
    shown = wide.iloc[::step]
    fig, style = st.new_figure(spec, rows=1, width=6.8, panel_height=4.0)
    ax = fig.subplots()
    for _, curve in shown.iterrows():
        ax.plot(curve.index, curve.to_numpy(), color=st.ICE_GREY, linewidth=0.5, alpha=0.4)
    x, mean, _ = mean_band(rep_curves(est))
    ax.plot(x, mean, color=st.BOOK["overlay"], linewidth=2.6)
    _rug(ax, inputs, feature)
    ax.set_xlabel(xlabel or feature)
    ax.set_ylabel(ylabel)
    reps = est["rep"].nunique()
    distinct = len(np.unique(wide.to_numpy(float).round(9), axis=0))
    ax.set_title(f"{len(shown)} of {len(wide)} ICE curves of the first forest (grey; "
                 f"{distinct} distinct);\nyellow: their mean over {reps} forests, the PDP")
    st.save(fig, style, out_png, out_pdf)
