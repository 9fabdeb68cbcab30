"""Fig. 5 of Molnar et al. (conditional subgroups): conditional PDP vs cs-PDPs."""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.conditional_subgroups.figures.boxplot_pdp import (
    draw_boxplot_pdp,
    style_handles,
)


@figure("conditional_subgroups.fig_5", methods=("pdp", "mplot", "cs_pdp", "subgroups"))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    import matplotlib as mpl

    pdp = inputs.estimates("pdp")
    mplot = inputs.estimates("mplot")
    cs = inputs.estimates("cs_pdp")
    rows = inputs.estimates("subgroups")
    pdp, mplot, cs, rows = (d[d["rep"] == 0] for d in (pdp, mplot, cs, rows))
    if set(cs["group"]) != set(rows["group"]):
        raise ValueError("the cs-PDP subgroups and the rows' subgroups differ: the two "
                         "methods must share sampler_params")
    groups = sorted(set(cs["group"]), key=lambda g: rows.loc[rows["group"] == g, "x1"].min())
    colours = mpl.colormaps["Dark2"]

    fig, style = st.new_figure(spec, rows=1.2, width=10.0, panel_height=3.4)
    left, right = fig.subplots(1, 2, sharex=True)
    left.plot(pdp["x"], pdp["value"], color="black", linewidth=2.0, label="PDP")
    left.plot(mplot["x"], mplot["value"], color=st.QUERY, linewidth=2.0,
              label="conditional PDP (M-plot)")
    left.set(xlabel="Feature x2", ylabel="Average prediction",
             title="PDP and conditional PDP of x2")
    left.legend(loc="upper left")

    for k, g in enumerate(groups):
        mine = rows[rows["group"] == g]
        curve = cs[cs["group"] == g].sort_values("x")
        label = (f"x1 in [{mine['x1'].min():.2f}, {mine['x1'].max():.2f}] "
                 f"({len(mine)} rows)")
        draw_boxplot_pdp(right, mine["x2"].to_numpy(), curve["x"].to_numpy(),
                         curve["value"].to_numpy(), colours(k), label)
    right.set(xlabel="Feature x2", ylabel="Average prediction within the subgroup",
              title="cs-PDPs of x2 (subgroups by a CART tree on x1)")
    right.legend(loc="center left", title="subgroup", fontsize=style["font_size"] - 1.5)
    st.legend_below(fig, style_handles("0.3"), ncols=3)
    st.save(fig, style, out_png, out_pdf)
