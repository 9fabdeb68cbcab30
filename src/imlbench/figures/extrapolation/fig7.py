"""Fig. 7 of Hooker, Mentch & Zhou (2021): ranks under conditional and relearned importance.

As in the paper (10 data sets of 200 rows): the average rank of each feature under
permutation (VI^pi), conditional (VI^C), drop-and-refit (VI^D), permute-and-relearn
(VI^piL) and condition-and-relearn (VI^CL) importance, top rho = 0, bottom rho = 0.9, with
the theoretical conditional ranks dashed. Differences: columns for xgboost, SVM and kNN,
and the measures of one feature spread sideways, joined by thin lines.
"""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import FIGURES
from imlbench.figures import style as st


@FIGURES.register("extrapolation.fig7")
def draw(inputs: dict[str, list[Path]], spec: dict, out_png: Path, out_pdf: Path) -> None:
    import numpy as np
    from matplotlib.lines import Line2D

    table = st.ranks(inputs)
    theory = st.truth(inputs, "importance")
    measures = [m for m in st.MEASURES if m in set(table["method"])]
    learners = st.learner_order(table["learner"])
    features = st.feature_order(table["feature"])
    x = np.arange(1, len(features) + 1)
    means = st.mean_rank(table, ["scenario", "learner", "method", "feature"])
    panels = st.rho_panels(table)

    fig, style = st.new_figure(spec, rows=len(panels), width=2.7 * len(learners),
                               panel_height=3.2)
    axes = fig.subplots(len(panels), len(learners), sharex=True, sharey=True, squeeze=False)
    for row, (scenario, rho) in enumerate(panels):
        for col, learner in enumerate(learners):
            ax = axes[row, col]
            for i, method in enumerate(measures):
                measure = st.MEASURES[method]
                mean = means.loc[scenario, learner, method].reindex(features)
                ax.plot(x + st.dodge(i, len(measures), 0.7), mean.to_numpy(),
                        color=measure.colour, marker=measure.marker, markersize=3.5,
                        linewidth=0.5)
            st.theory_ranks(ax, theory[theory["scenario"] == scenario], "rank_conditional",
                            features)
            st.rank_axes(ax, features)
            ax.tick_params(axis="x", labelrotation=90)
            st.learner_title(ax, learner, f", ρ = {st.fmt(rho)}")
            if row < len(panels) - 1:
                ax.set_xlabel("")
            if col > 0:
                ax.set_ylabel("")
    handles = [Line2D([], [], color=st.MEASURES[m].colour, marker=st.MEASURES[m].marker,
                      markersize=4, linewidth=0.5, label=st.MEASURES[m].label)
               for m in measures]
    handles.append(st.theory_handle("theory (conditional ranks)", markers=True))
    st.legend_below(fig, handles, ncols=len(handles))
    st.save(fig, style, out_png, out_pdf)
