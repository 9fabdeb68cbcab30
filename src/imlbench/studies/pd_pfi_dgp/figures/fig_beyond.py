"""Figs. 7 and 11 of Molnar et al. (2023, PDP/PFI and the DGP) for xgboost, SVM and kNN."""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.pd_pfi_dgp.figures.coverage import (
    FORMS,
    QUANTITIES,
    legend_handles,
    refit_curves,
)

LEARNERS = ("gbm", "svm", "knn")


@figure("pd_pfi_dgp.fig_beyond", tables=("summary",))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    table = inputs.summary()
    fig, style = st.new_figure(spec, rows=4.0, width=10.5, panel_height=2.3)
    axes = fig.subplots(4, len(LEARNERS), sharex=True, sharey=True)
    rows = [(f, q) for f in FORMS for q in QUANTITIES]
    for r, (form, q) in enumerate(rows):
        for c, learner in enumerate(LEARNERS):
            ax = axes[r, c]
            cells = table[(table["p_form"] == form) & (table["learner"] == learner)
                          & (table["quantity"] == q)]
            refit_curves(ax, cells, "coverage")
            ax.set_title(f"{FORMS[form]}, {QUANTITIES[q]}, {st.look(learner).label} "
                         f"({int(cells['reps'].min())} reps)")
            if c == 0:
                ax.set_ylabel("CI coverage")
            if r == len(rows) - 1:
                ax.set_xlabel("Number of model refits m")
    st.legend_below(fig, legend_handles(), ncols=6, title="Sampling strategy (* corrected)")
    st.save(fig, style, out_png, out_pdf)
