"""Fig. 6 of Molnar et al. (conditional subgroups): the PDP drawn like a boxplot."""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.conditional_subgroups.figures.boxplot_pdp import (
    draw_boxplot,
    draw_boxplot_pdp,
    style_handles,
)


@figure("conditional_subgroups.fig_6", methods=("pdp",), tables=("data",))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    pdp = inputs.estimates("pdp")
    curve = pdp[pdp["rep"] == 0].sort_values("x")
    points = inputs.data()
    x = points.loc[(points["rep"] == 0) & (points["split"] == "train"), "x"].to_numpy()

    fig, style = st.new_figure(spec, rows=1.2, width=10.0, panel_height=3.4)
    left_fig, right_fig = fig.subfigures(1, 2)
    left = left_fig.subplots()
    left.plot(curve["x"], curve["value"], color="black", linewidth=1.6)
    left.set(xlabel="Feature x", ylabel="Average prediction", title="marginal PDP")
    top, bottom = right_fig.subplots(2, 1, sharex=True, height_ratios=[3.0, 1.0])
    s = draw_boxplot_pdp(top, x, curve["x"].to_numpy(), curve["value"].to_numpy(), "black")
    top.set(ylabel="Average prediction", title="PDP with boxplot-like emphasis")
    top.set_ylim(left.get_ylim())
    top.legend(handles=style_handles(), loc="lower right")
    draw_boxplot(bottom, s)
    bottom.set(xlabel="Feature x", yticks=[], title=f"boxplot of x ({len(s.outliers)} outliers)")
    st.save(fig, style, out_png, out_pdf)
