"""Fig. 14 of Molnar et al. (conditional subgroups) for xgboost, SVM and kNN (beyond the paper)."""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.conditional_subgroups.figures.simulation import (
    ESTIMATORS,
    MODEL_TRUTH,
    cell_panels,
    cell_truths,
    cells,
    estimator_roles,
)


@figure("conditional_subgroups.fig_14_beyond", methods=(*ESTIMATORS, MODEL_TRUTH))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    from matplotlib.lines import Line2D

    estimates = inputs.estimates(*ESTIMATORS)
    methods = estimator_roles(estimates)
    table = cells(estimates)
    table = table[(table["learner"] != "truth") & (table["feature"] == "x1")]
    truths = cell_truths(inputs, table)
    table["error2"] = [
        (v - truths.get((sc, lrn))) ** 2
        for v, sc, lrn in zip(table["value"], table["scenario"], table["learner"], strict=True)
    ]
    mse = table.groupby(["dependence", "n", "p", "learner", "role"])["error2"].mean()
    learners = st.learner_order(table["learner"])
    fig, style, panels = cell_panels(spec, table, ylabel="MSE (log)", sharex=True)
    for ax, dep, n, p, _, _ in panels:
        for lrn_i, learner in enumerate(learners):
            xs, ys = [], []
            for x, m in enumerate(methods):
                key = (dep, n, p, learner, m)
                if key in mse.index:
                    xs.append(x + st.dodge(lrn_i, len(learners), 0.5))
                    ys.append(mse[key])
            ax.plot(xs, ys, linestyle="none", marker="o", markersize=4,
                    color=st.look(learner).colour)
        ax.set_yscale("log")
        ax.set_xticks(range(len(methods)), [ESTIMATORS[m][0] for m in methods])
    handles = [Line2D([], [], linestyle="none", marker="o", color=st.look(lrn).colour,
                      label=st.look(lrn).label) for lrn in learners]
    st.legend_below(fig, handles, ncols=len(handles))
    st.save(fig, style, out_png, out_pdf)
