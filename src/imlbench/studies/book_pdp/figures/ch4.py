"""Figures of the book's chapter 4 (PDP and causal interpretation): the ice-cream PDPs in
both directions (Fig. 4.1) and the grids of PDPs of X against the intervention curve
E[Y | do(X = x)] of each structural causal model (Figs 4.4, 4.6, 4.8, 4.10, 4.12: rows the
noise sd, columns the sample size N, a last column with the intervention curve). The DAGs
(Figs 4.3-4.11) and Fig. 4.2 are the layer's ``dag`` and ``curve_grid``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from imlbench.curves import mean_band, on_common_grid, rep_curves
from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.params import items, number, table, text

#: the book draws its PDPs in iml's default colour and the intervention curve in yellow
PDP_COLOUR = "#333333"
INTERVENTION_COLOUR = "#e6b800"


def _pdp_lines(ax, est: pd.DataFrame) -> None:
    """Every repetition's PDP as a thin line over its own grid, and their mean (over the
    span every repetition covers, :func:`imlbench.figures.curves.on_common_grid`) as a thick
    one."""
    curves = rep_curves(est)
    for _, curve in curves.iterrows():
        curve = curve.dropna()
        ax.plot(curve.index, curve.to_numpy(), color=PDP_COLOUR, linewidth=0.6, alpha=0.35)
    x, mean, _ = mean_band(on_common_grid(curves))
    ax.plot(x, mean, color=PDP_COLOUR, linewidth=2.0)


@figure("book_pdp.pdp_panels", methods=("pdp",), params={"labels": table(value=text(),
                                                                         default={})})
def pdp_panels(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
               labels: dict[str, str]) -> None:
    """One panel per scenario: the PDP of its one feature, every repetition and their mean;
    ``labels`` names features (x axis) and scenarios (the y axis: the model's target) in
    words (Fig. 4.1)."""
    est = inputs.estimates("pdp")
    fig, style = st.new_figure(spec, rows=1, width=4.2 * len(inputs.scenarios))
    axes = st.panel_grid(fig, len(inputs.scenarios), len(inputs.scenarios))
    for ax, scenario in zip(axes, inputs.scenarios, strict=True):
        mine = est[est["scenario"] == scenario]
        (feature,) = mine["feature"].unique()
        _pdp_lines(ax, mine)
        ax.set_xlabel(labels.get(feature, feature))
        ax.set_ylabel(f"PDP ({labels.get(scenario, scenario)})")
        ax.set_title(scenario)
    st.save(fig, style, out_png, out_pdf)


def _setting(est: pd.DataFrame, key: str) -> pd.Series:
    """The swept value ``key`` (``p_sd``, ``p_n``) of each estimate row."""
    if key not in est:
        raise ValueError(f"the estimates have no swept parameter {key[2:]!r}; a SEM grid needs "
                         f"scenarios swept over sd and n")
    return est[key].astype(float)


@figure("book_pdp.sem_grid", methods=("pdp",), truths=("effects",), params={
    "ylim": items(number(), [-2.0, 2.0], length=2),
})
def sem_grid(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
             ylim: list[float]) -> None:
    """Rows: the noise sd (increasing downwards); columns: the sample size N, each panel with
    every repetition's PDP of X overlaid (and their mean) and, dashed, the true intervention
    curve E[Y | do(X = x)] of the row's sd for reference; a last column with that curve alone,
    as the book draws it. The truth covers the 5% to 95% quantiles of X (the truth stage's
    grid). The y axis is ``ylim`` everywhere (the book's -2 to 2)."""
    est = inputs.estimates("pdp")
    truth = inputs.truth("effects")
    truth = truth[(truth["estimand"] == "interventional") & (truth["feature"] == "x")]
    est = est.assign(sd=_setting(est, "p_sd"), n=_setting(est, "p_n"))
    sds, ns = sorted(est["sd"].unique()), sorted(est["n"].unique())
    fig, style = st.new_figure(spec, rows=len(sds), width=2.6 * (len(ns) + 1) + 0.6,
                               panel_height=2.1)
    axes = fig.subplots(len(sds), len(ns) + 1, squeeze=False, sharex=True, sharey=True)
    for i, sd in enumerate(sds):
        rows = truth[np.isclose(truth["p_sd"].astype(float), sd)] if "p_sd" in truth \
            else truth.iloc[:0]
        one = rows[rows["scenario"] == rows["scenario"].iloc[0]].sort_values("x") \
            if len(rows) else rows
        for j, n in enumerate(ns):
            ax = axes[i, j]
            cell = est[(est["sd"] == sd) & (est["n"] == n)]
            ax.plot(one["x"], one["value"], color=INTERVENTION_COLOUR, linewidth=1.2,
                    linestyle="--", zorder=3)
            if len(cell):
                _pdp_lines(ax, cell)
                ax.set_title(f"N = {int(n):,}, {cell['rep'].nunique()} runs", fontsize=8)
        ax = axes[i, -1]
        ax.plot(one["x"], one["value"], color=INTERVENTION_COLOUR, linewidth=2.2)
        ax.set_title("intervention E[Y | do(X = x)]", fontsize=8)
        axes[i, 0].set_ylabel(f"sd = {st.fmt(sd)}")
    for ax in axes.ravel():
        ax.set_ylim(*ylim)
    for ax in axes[-1]:
        ax.set_xlabel("X")
    st.save(fig, style, out_png, out_pdf)
