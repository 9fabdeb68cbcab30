"""Fig. 5 of Hooker, Mentch & Zhou (2021): between-fit SD of the fitted surface, y = x1 + e.

As in the paper: the standard deviation of the fitted surface across repetitions with one
repetition's training data, showing that the fits vary most where there are no data.
Differences: one panel per learner (the paper shows the neural network) on one shared
colour scale, filled contours.
"""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import FIGURES
from imlbench.figures import style as st

NCOLS = 3


@FIGURES.register("extrapolation.fig5")
def draw(inputs: dict[str, list[Path]], spec: dict, out_png: Path, out_pdf: Path) -> None:
    surface = st.estimates(inputs, "surface")
    points = st.data(inputs)
    learners = st.learner_order(surface["learner"])
    grids = {lr: st.surface_grid(surface[surface["learner"] == lr], "std") for lr in learners}
    levels = st.contour_levels(g[2] for g in grids.values())
    reps = surface["rep"].nunique()

    fig, style = st.new_figure(spec, rows=st.panel_rows(len(learners), NCOLS), width=10.0,
                               panel_height=2.9)
    axes = st.panel_grid(fig, len(learners), NCOLS)
    for ax, learner in zip(axes, learners, strict=True):
        filled = st.surface_panel(ax, grids[learner], levels, points, cmap="YlOrRd")
        st.learner_title(ax, learner)
    fig.colorbar(filled, ax=axes, shrink=0.8,
                 label=f"SD of the fitted value across {reps} repetitions")
    st.legend_below(fig, [st.training_handle()], ncols=1)
    st.save(fig, style, out_png, out_pdf)
