"""Fig. 10 of Molnar et al. (conditional subgroups): cs-PFI by the maximum tree depth."""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs

#: the role: cs-PFI of every feature by the maximum depth, medians over the permutations
DEPTHS = "cs_pfi_by_depth"


@figure("conditional_subgroups.fig_10", methods=(DEPTHS,))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    import matplotlib.pyplot as plt

    est = inputs.estimates(DEPTHS)
    est = est[est["rep"] == 0]
    curves = est.pivot(index="depth", columns="feature", values="value")
    order = curves.iloc[0].sort_values(ascending=False).index
    colours = plt.get_cmap("tab10")

    fig, style = st.new_figure(spec, rows=1, width=7.5, panel_height=4.0)
    ax = fig.subplots()
    for i, feature in enumerate(order):
        ax.plot(curves.index, curves[feature], marker="o", markersize=3.5,
                color=colours(i % 10), label=feature)
    ax.set_xticks(curves.index)
    ax.set_xlabel("maximum depth of the subgroup trees (0 = marginal PFI)")
    ax.set_ylabel("cs-PFI: increase of the test MAE\n(median over permutations)")
    ax.legend(frameon=False, loc="upper right", ncols=2)
    st.save(fig, style, out_png, out_pdf)
