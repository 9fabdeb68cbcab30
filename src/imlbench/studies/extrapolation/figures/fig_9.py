"""Fig. 9 of Hooker, Mentch & Zhou (2021): bike sharing, out-of-bag vs relearned ranks."""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.extrapolation.figures import panels as pn

NCOLS = 2
#: the role of the relearned importance (y axis); x: the out-of-bag one, else permutation
RELEARN = "permute_relearn"


@figure("extrapolation.fig_9", methods=("pfi", "oob", "permute_relearn"), tables=("ranks",))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    table = inputs.ranks()
    means = pn.mean_rank(table, ["learner", "role", "feature"])
    learners = [lr for lr in pn.learner_order(table["learner"])
                if RELEARN in means.loc[lr].index.unique("role")]
    n_features = table["feature"].nunique()

    fig, style = st.new_figure(spec, rows=st.panel_rows(len(learners), NCOLS), width=10.0,
                               panel_height=4.6)
    for ax, learner in zip(st.panel_grid(fig, len(learners), NCOLS), learners, strict=True):
        roles = means.loc[learner].index.unique("role")
        base = "oob" if "oob" in roles else "pfi"
        pair = means.loc[learner].unstack("role")[[base, RELEARN]].dropna()
        ax.plot([0.5, n_features + 0.5], [0.5, n_features + 0.5], color="0.6", linewidth=0.8,
                zorder=0)
        ax.scatter(pair[base], pair[RELEARN], color=pn.look(learner).colour, s=22, zorder=2)
        for feature, (x, y) in pair.iterrows():
            ax.annotate(feature, (x, y), xytext=(4, 3), textcoords="offset points",
                        fontsize=style["font_size"] - 1)
        ticks = range(1, n_features + 1)
        ax.set_xticks(ticks)
        ax.set_yticks(ticks)
        ax.set_xlim(0.5, n_features + 1.5)
        ax.set_ylim(0.5, n_features + 0.8)
        ax.set_aspect("equal")
        ax.set_xlabel(f"rank under {pn.MEASURES[base].label} (1 = least important)")
        ax.set_ylabel(f"rank under {pn.MEASURES[RELEARN].label}")
        pn.learner_title(ax, learner)
    st.save(fig, style, out_png, out_pdf)
