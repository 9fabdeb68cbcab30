"""Fig. 3 of Hooker, Mentch & Zhou (2021): PD and ICE of x1 at rho = 0 and rho = 0.9."""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.extrapolation.figures import panels as pn

FEATURE = "x1"
LINESTYLES = ["-", "--", ":"]


@figure("extrapolation.fig_3", methods=("pdp", "ice"), truths=("effects",))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    from matplotlib.lines import Line2D

    pdp = inputs.estimates("pdp")
    pdp = pdp[pdp["feature"] == FEATURE]
    ice = inputs.estimates("ice")
    effects = inputs.truth("effects")
    panels = pn.rho_panels(pdp)
    dependent, rho_max = panels[-1]
    learners = pn.learner_order(pdp["learner"])

    fig, style = st.new_figure(spec, rows=3, width=2.3 * len(learners), panel_height=2.4)
    axes = fig.subplots(3, len(learners), sharex=True, sharey="row", squeeze=False)
    for col, learner in enumerate(learners):
        look = pn.look(learner)
        mine = pdp[pdp["learner"] == learner]
        for (scenario, _), ls in zip(panels, LINESTYLES, strict=False):
            curves = mine[mine["scenario"] == scenario].groupby("x")["value"]
            mean, sd = curves.mean(), curves.std()
            axes[0, col].plot(mean.index, mean.to_numpy(), color=look.colour, linestyle=ls)
            axes[1, col].plot(sd.index, sd.to_numpy(), color=look.colour, linestyle=ls)
            true = effects[(effects["scenario"] == scenario) & (effects["estimand"] == "pd")
                           & (effects["feature"] == FEATURE)]
            axes[0, col].plot(true["x"], true["value"], color=st.TRUTH, linestyle=ls,
                              linewidth=0.9)
        pn.learner_title(axes[0, col], learner)
        pn.draw_ice(axes[2, col], ice[(ice["scenario"] == dependent)
                                      & (ice["learner"] == learner)],
                    mine[mine["scenario"] == dependent],
                    effects[effects["scenario"] == dependent], FEATURE, "ice")
    axes[0, 0].set_ylabel(f"PD of {FEATURE}\n(mean over reps)")
    axes[1, 0].set_ylabel(f"SD of the PD of {FEATURE}\nacross reps")
    axes[2, 0].set_ylabel(f"ICE of {FEATURE}, ρ = {st.fmt(rho_max)}\n(mean over reps)")

    handles = [Line2D([], [], color="0.3", linestyle=ls, label=f"PD, ρ = {st.fmt(rho)}")
               for (_, rho), ls in zip(panels, LINESTYLES, strict=False)]
    handles.append(Line2D([], [], color=st.TRUTH, label="true PD"))
    handles += pn.ice_legend(f"true ICE (ρ = {st.fmt(rho_max)})")
    st.legend_below(fig, handles, ncols=4)
    st.save(fig, style, out_png, out_pdf)
