"""Fig. 1 of Hooker, Mentch & Zhou (2021): average permutation-importance rank per feature.

As in the paper, one panel per rho (0 and 0.9), the learners' letters as plot symbols
(r, n, l, and o for the forest's out-of-bag importance; u is the same without R's
scaling by its standard error) and the theoretical ranks of
Theorem 1 dashed. Differences: the extra learners g, s, k, one colour per series, and the
letters of one feature spread sideways so that tied ranks stay readable.
"""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import FIGURES
from imlbench.figures import style as st


@FIGURES.register("extrapolation.fig1")
def draw(inputs: dict[str, list[Path]], spec: dict, out_png: Path, out_pdf: Path) -> None:
    from matplotlib.lines import Line2D

    table = st.ranks(inputs)
    table = table[table["method"].isin(["pfi", *st.OOB_METHODS])]
    theory = st.truth(inputs, "importance")
    features = st.feature_order(table["feature"])
    series = [(learner, "pfi") for learner in st.learner_order(table["learner"])]
    series += sorted({(lr, m) for lr, m in zip(table["learner"], table["method"], strict=True)
                      if m in st.OOB_METHODS})
    means = st.mean_rank(table, ["scenario", "learner", "method", "feature"])

    fig, style = st.new_figure(spec, rows=1, width=13.0, panel_height=4.6)
    panels = st.rho_panels(table)
    axes = fig.subplots(1, len(panels), sharey=True, squeeze=False)[0]
    for ax, (scenario, rho) in zip(axes, panels, strict=True):
        for i, (learner, method) in enumerate(series):
            look = st.look(learner, method)
            mean = means.loc[scenario, learner, method].reindex(features)
            for x, rank in enumerate(mean, start=1):
                ax.text(x + st.dodge(i, len(series), 0.84), rank, look.letter,
                        color=look.colour, fontweight="bold", ha="center", va="center")
        st.theory_ranks(ax, theory[theory["scenario"] == scenario], "rank_marginal", features)
        st.rank_axes(ax, features)
        ax.set_title(f"ρ = {st.fmt(rho)}")
    for ax in axes[1:]:
        ax.set_ylabel("")
    handles = [
        Line2D([], [], linestyle="none", marker=rf"$\mathbf{{{look.letter}}}$", markersize=7,
               color=look.colour, label=f"{look.letter}: {look.label}")
        for look in (st.look(lr, m) for lr, m in series)
    ]
    handles.append(st.theory_handle("theory (Theorem 1)", markers=True))
    st.legend_below(fig, handles, ncols=4)
    st.save(fig, style, out_png, out_pdf)
