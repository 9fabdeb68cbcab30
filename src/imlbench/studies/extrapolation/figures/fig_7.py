"""Fig. 7 of Hooker, Mentch & Zhou (2021): ranks under conditional and relearned importance."""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.extrapolation.figures import panels as pn


@figure("extrapolation.fig_7", methods=("pfi", "cpfi", "loco", "permute_relearn",
                                       "condition_relearn"),
        truths=("importance",), tables=("ranks",))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    import numpy as np
    from matplotlib.lines import Line2D

    table = inputs.ranks()
    theory = inputs.truth("importance")
    measures = [m for m in pn.MEASURES if m in set(table["role"])]
    learners = pn.learner_order(table["learner"])
    features = st.feature_order(table["feature"])
    x = np.arange(1, len(features) + 1)
    means = pn.mean_rank(table, ["scenario", "learner", "role", "feature"])
    panels = pn.rho_panels(table)

    fig, style = st.new_figure(spec, rows=len(panels), width=2.7 * len(learners),
                               panel_height=3.2)
    axes = fig.subplots(len(panels), len(learners), sharex=True, sharey=True, squeeze=False)
    for row, (scenario, rho) in enumerate(panels):
        for col, learner in enumerate(learners):
            ax = axes[row, col]
            for i, role in enumerate(measures):
                measure = pn.MEASURES[role]
                mean = means.loc[scenario, learner, role].reindex(features)
                ax.plot(x + st.dodge(i, len(measures), 0.7), mean.to_numpy(),
                        color=measure.colour, marker=measure.marker, markersize=3.5,
                        linewidth=0.5)
            pn.theory_ranks(ax, theory[theory["scenario"] == scenario], "pfi_conditional",
                            features)
            pn.rank_axes(ax, features)
            ax.tick_params(axis="x", labelrotation=90)
            pn.learner_title(ax, learner, f", ρ = {st.fmt(rho)}")
            if row < len(panels) - 1:
                ax.set_xlabel("")
            if col > 0:
                ax.set_ylabel("")
    handles = [Line2D([], [], color=pn.MEASURES[m].colour, marker=pn.MEASURES[m].marker,
                      markersize=4, linewidth=0.5, label=pn.MEASURES[m].label)
               for m in measures]
    handles.append(pn.theory_handle("theory (conditional ranks)", markers=True))
    st.legend_below(fig, handles, ncols=len(handles))
    st.save(fig, style, out_png, out_pdf)
