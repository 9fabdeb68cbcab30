"""Fig. 6 of Hooker, Mentch & Zhou (2021): PD and ICE of x1 and x2 for y = x1 + e."""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.extrapolation.figures import panels as pn


@figure("extrapolation.fig_6", methods=("pdp", "ice"), truths=("effects",))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    pdp = inputs.estimates("pdp")
    ice = inputs.estimates("ice")
    effects = inputs.truth("effects")
    learners = pn.learner_order(pdp["learner"])
    features = st.feature_order(ice["feature"])

    fig, style = st.new_figure(spec, rows=len(features), width=2.3 * len(learners),
                               panel_height=2.5)
    axes = fig.subplots(len(features), len(learners), sharey=True, squeeze=False)
    for col, learner in enumerate(learners):
        for row, feature in enumerate(features):
            ax = axes[row, col]
            pn.draw_ice(ax, ice[ice["learner"] == learner], pdp[pdp["learner"] == learner],
                        effects, feature, "pd")
        pn.learner_title(axes[0, col], learner)
    for row, feature in enumerate(features):
        axes[row, 0].set_ylabel(f"prediction, ICE and PD of {feature}\n(mean over reps)")
    st.legend_below(fig, pn.ice_legend("true PD"), ncols=4)
    st.save(fig, style, out_png, out_pdf)
