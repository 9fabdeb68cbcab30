"""Fig. 1 of Hooker, Mentch & Zhou (2021): average permutation-importance rank per feature."""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.extrapolation.figures import panels as pn


@figure("extrapolation.fig_1", methods=("pfi", *pn.OOB_ROLES), truths=("importance",),
        tables=("ranks",))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    from matplotlib.lines import Line2D

    table = inputs.ranks()
    theory = inputs.truth("importance")
    features = st.feature_order(table["feature"])
    series = [(learner, "pfi") for learner in pn.learner_order(table["learner"])]
    series += sorted({(lr, r) for lr, r in zip(table["learner"], table["role"], strict=True)
                      if r in pn.OOB_ROLES})
    means = pn.mean_rank(table, ["scenario", "learner", "role", "feature"])

    fig, style = st.new_figure(spec, rows=1, width=13.0, panel_height=4.6)
    panels = pn.rho_panels(table)
    axes = fig.subplots(1, len(panels), sharey=True, squeeze=False)[0]
    for ax, (scenario, rho) in zip(axes, panels, strict=True):
        for i, (learner, role) in enumerate(series):
            look = pn.look(learner, role)
            mean = means.loc[scenario, learner, role].reindex(features)
            for x, rank in enumerate(mean, start=1):
                ax.text(x + st.dodge(i, len(series), 0.84), rank, look.letter,
                        color=look.colour, fontweight="bold", ha="center", va="center")
        pn.theory_ranks(ax, theory[theory["scenario"] == scenario], "pfi_marginal", features)
        pn.rank_axes(ax, features)
        ax.set_title(f"ρ = {st.fmt(rho)}")
    for ax in axes[1:]:
        ax.set_ylabel("")
    handles = [
        Line2D([], [], linestyle="none", marker=rf"$\mathbf{{{look.letter}}}$", markersize=7,
               color=look.colour, label=f"{look.letter}: {look.label}")
        for look in (pn.look(lr, m) for lr, m in series)
    ]
    handles.append(pn.theory_handle("theory (Theorem 1)", markers=True))
    st.legend_below(fig, handles, ncols=4)
    st.save(fig, style, out_png, out_pdf)
