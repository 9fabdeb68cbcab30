"""Fig. 9 of Molnar et al. (conditional subgroups): random-intercept estimates of data fidelity."""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.conditional_subgroups.figures.fidelity_panels import (
    CART_COLOUR,
    DEPTHS,
    FIDELITY,
    OTHER_COLOUR,
    SAMPLERS_A,
    TREE_SAMPLERS,
    TRTR_COLOUR,
    colour,
    fidelity_table,
)


@figure("conditional_subgroups.fig_9", methods=(FIDELITY,))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    import numpy as np
    from matplotlib.lines import Line2D

    from imlbench.studies.conditional_subgroups.summaries import random_intercept_effects

    table = fidelity_table(inputs)
    a = random_intercept_effects(table, SAMPLERS_A).sort_values("estimate")
    b = random_intercept_effects(table, ["perm", *TREE_SAMPLERS]).set_index("sampler")

    fig, style = st.new_figure(spec, rows=1, width=11.0, panel_height=3.8)
    ax_a, ax_b = fig.subplots(1, 2)
    y = np.arange(len(a))
    ax_a.errorbar(a["estimate"], y, xerr=[a["estimate"] - a["lower"], a["upper"] - a["estimate"]],
                  fmt="none", ecolor="black", elinewidth=1.0, capsize=2)
    ax_a.scatter(a["estimate"], y, c=[colour(s) for s in a["sampler"]], zorder=3, s=22)
    ax_a.set_yticks(y, a["sampler"])
    ax_a.set_title(f"A) samplers (n = {table['scenario'].nunique()} data sets)")

    for k, (tree, col) in enumerate((("cart", CART_COLOUR), ("trtr", TRTR_COLOUR))):
        rows = b.loc[[f"{tree}{d}" for d in DEPTHS]]
        pos = np.arange(len(DEPTHS)) + (k - 0.5) * 0.25
        ax_b.errorbar(rows["estimate"], pos,
                      xerr=[rows["estimate"] - rows["lower"], rows["upper"] - rows["estimate"]],
                      fmt="o", color=col, markersize=4, elinewidth=1.0, capsize=2)
    ax_b.set_yticks(np.arange(len(DEPTHS)), [str(d) for d in DEPTHS])
    ax_b.set_ylabel("maximum tree depth")
    ax_b.set_title("B) cs-permutation by tree type and depth")

    for ax in (ax_a, ax_b):
        ax.axvline(0.0, color=OTHER_COLOUR, linestyle=":", linewidth=1.0)
        ax.set_xlabel("data fidelity estimate vs perm (95% CI)")
    ax_a.set_ylabel("perturbation method")
    handles = [Line2D([], [], marker="o", linestyle="none", color=c, label=lab) for c, lab in
               ((CART_COLOUR, "CART"), (TRTR_COLOUR, "transformation-tree stand-in"),
                (OTHER_COLOUR, "other samplers"))]
    handles.append(Line2D([], [], color=OTHER_COLOUR, linestyle=":", label="perm (reference)"))
    st.legend_below(fig, handles, ncols=len(handles))
    st.save(fig, style, out_png, out_pdf)
