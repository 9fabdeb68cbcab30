"""Figures of the book's ch. 3.2 (bike rentals): the matrix of one association measure between
the day's variables, printed in its cells (Figs 3.3, 3.7), and a grid of PDPs each of one
feature in one model (Figs 3.4-3.6, 3.8-3.13: a feature alone in a model, and with its
associated feature).

Every repetition's curve is drawn thin (the forests differ by seed; the linear model and the
SVM give one curve), their mean thick; every panel of a figure shares the y-axis, so that a
flattened PDP reads as one.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from imlbench.curves import mean_band, rep_curves
from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.params import choice, integer, items, table, text

PDP_COLOUR = "#222222"
MEASURES = ("pearson", "kstar", "eta")


def association_matrix(metrics: pd.DataFrame, measure: str, variables: list[str]
                       ) -> pd.DataFrame:
    """The symmetric matrix of ``measure`` between ``variables`` from the metric rows
    ``<measure>:a:b`` (mean over repetitions), 1 on the diagonal, NaN where a pair has no
    row."""
    values = metrics.groupby("metric")["value"].mean()
    out = pd.DataFrame(np.eye(len(variables)), index=variables, columns=variables)
    for i, a in enumerate(variables):
        for b in variables[i + 1:]:
            v = values.get(f"{measure}:{a}:{b}", values.get(f"{measure}:{b}:{a}", np.nan))
            out.loc[a, b] = out.loc[b, a] = v
    return out


@figure("book_pdp.bike_association", methods=("association",), params={
    "measure": choice("pearson", MEASURES), "variables": items(text()),
    "label": text("association"),
})
def bike_association(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                     measure: str, variables: list[str], label: str) -> None:
    """A heat map of ``measure`` between ``variables`` (those the data lack are left out),
    its value printed in every cell."""
    est = inputs.estimates("association")
    held = {name for m in est["metric"] for name in m.split(":")[1:]}
    chosen = [v for v in variables if v in held]
    if len(chosen) < 2:
        raise ValueError(f"params.variables: fewer than 2 of {', '.join(variables)} have "
                         f"{measure} values; the metrics name {', '.join(sorted(held))}")
    matrix = association_matrix(est, measure, chosen)
    fig, style = st.new_figure(spec, rows=1, width=1.1 * len(chosen) + 2.4,
                               panel_height=1.0 * len(chosen) + 0.6)
    ax = fig.subplots()
    lo = -1.0 if measure == "pearson" else 0.0
    image = ax.imshow(matrix.to_numpy(float), cmap="RdBu_r" if lo < 0 else "Blues",
                      vmin=lo, vmax=1.0)
    for i in range(len(chosen)):
        for j in range(len(chosen)):
            v = matrix.iat[i, j]
            ax.text(j, i, "" if np.isnan(v) else f"{v:.2f}", ha="center", va="center",
                    color="white" if abs(v) > 0.6 else "black")
    ax.grid(False)
    ax.set_xticks(range(len(chosen)), chosen, rotation=45, ha="right")
    ax.set_yticks(range(len(chosen)), chosen)
    fig.colorbar(image, ax=ax, label=label, shrink=0.8)
    st.save(fig, style, out_png, out_pdf)


@figure("book_pdp.bike_pdp_panels", methods=("pdp",), params={
    "learner": text(), "panels": items(table({"scenario": text(), "feature": text(),
                                              "title": text("")})),
    "ncols": integer(2, minimum=1), "ylabel": text("predicted count (PDP)"),
    "levels": table(value=items(text()), default={}),
})
def bike_pdp_panels(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                    learner: str, panels: list[dict], ncols: int, ylabel: str,
                    levels: dict[str, list[str]]) -> None:
    """One panel per entry of ``panels`` (its scenario's PDP of its feature for ``learner``),
    ``ncols`` to a row, y-axis shared; a feature of ``levels`` (names of its codes 1, 2, ...)
    is drawn as points per level joined by lines, the others as curves."""
    est = inputs.estimates("pdp")
    est = est[est["learner"] == learner]
    if est.empty:
        raise ValueError(f"params.learner: {learner!r} has no estimates here")
    nrows = -(-len(panels) // ncols)
    fig, style = st.new_figure(spec, rows=nrows, width=3.4 * ncols + 0.8, panel_height=2.9)
    axes = fig.subplots(nrows, ncols, squeeze=False, sharey=True).ravel()
    for ax, panel in zip(axes, panels, strict=False):
        mine = est[(est["scenario"] == panel["scenario"]) & (est["feature"] == panel["feature"])]
        if mine.empty:
            ax.text(0.5, 0.5, "no estimates", transform=ax.transAxes, ha="center")
        else:
            curves = rep_curves(mine)
            x, mean, _ = mean_band(curves)
            names = levels.get(panel["feature"])
            marker = "o" if names else None
            for _, curve in curves.iterrows():
                ax.plot(curve.index, curve.to_numpy(), color="0.6", linewidth=0.6,
                        marker=marker, markersize=3)
            ax.plot(x, mean, color=PDP_COLOUR, linewidth=2.0, marker=marker, markersize=5)
            if names:
                ax.set_xticks(x, [names[int(k) - 1] if 0 < int(k) <= len(names) else f"{k:g}"
                                  for k in x], rotation=45 if len(x) > 4 else 0)
        ax.set_title(panel.get("title") or f"{panel['feature']} in {panel['scenario']}")
        ax.set_xlabel(panel["feature"])
    for ax in axes[len(panels):]:
        ax.set_visible(False)
    for ax in axes[::ncols]:
        ax.set_ylabel(ylabel)
    st.save(fig, style, out_png, out_pdf)
