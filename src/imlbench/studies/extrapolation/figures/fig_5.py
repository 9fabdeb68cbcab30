"""Fig. 5 of Hooker, Mentch & Zhou (2021): between-fit SD of the fitted surface, y = x1 + e."""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.extrapolation.figures import panels as pn

NCOLS = 3


@figure("extrapolation.fig_5", methods=("surface",), tables=("data",))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    surface = inputs.estimates("surface")
    points = inputs.data()
    learners = pn.learner_order(surface["learner"])
    grids = {lr: st.surface_grid(surface[surface["learner"] == lr], "std") for lr in learners}
    levels = pn.contour_levels(g[2] for g in grids.values())
    reps = surface["rep"].nunique()

    fig, style = st.new_figure(spec, rows=st.panel_rows(len(learners), NCOLS), width=10.0,
                               panel_height=2.9)
    axes = st.panel_grid(fig, len(learners), NCOLS)
    for ax, learner in zip(axes, learners, strict=True):
        filled = pn.surface_panel(ax, grids[learner], levels, points, cmap="YlOrRd")
        pn.learner_title(ax, learner)
    fig.colorbar(filled, ax=axes, shrink=0.8,
                 label=f"SD of the fitted value across {reps} repetitions")
    st.legend_below(fig, [pn.training_handle()], ncols=1)
    st.save(fig, style, out_png, out_pdf)
