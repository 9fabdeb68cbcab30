"""Fig. 2 of Molnar et al. (conditional subgroups): conditional PDP and PFI, correlated x1, x2."""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs

#: the PFI roles and how they are drawn
SERIES = {"marginal_pfi": ("marginal PFI (permutation)", "#999999"),
          "conditional_pfi": ("conditional PFI (cs-permutation)", "#1b9e77")}


@figure("conditional_subgroups.fig_2", methods=("pdp", "mplot", *SERIES), tables=("data",))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    import numpy as np

    pdp = inputs.estimates("pdp")
    mplot = inputs.estimates("mplot")
    pfi = inputs.estimates(*SERIES)
    points = inputs.data()
    points = points[(points["rep"] == 0) & (points["split"] == "train")]

    fig, style = st.new_figure(spec, rows=1.2, width=10.0, panel_height=3.4)
    left, right = fig.subplots(1, 2)
    left.plot(pdp["x"], pdp["value"], color="black", linewidth=2.0, label="PDP")
    left.plot(mplot["x"], mplot["value"], color=st.QUERY, linewidth=2.0, marker="o",
              markersize=3, label="conditional PDP (M-plot)")
    left.plot(points["x2"], np.full(len(points), left.get_ylim()[0]), "|", color="0.5",
              markersize=6, alpha=0.5, label="observed x2")
    left.set(xlabel="Feature x2", ylabel="Average prediction",
             title="effect of x2 (coefficient -0.1)")
    left.legend(loc="upper left")

    features = st.feature_order(pfi["feature"])
    width = 0.38
    for k, (role, (label, colour)) in enumerate(SERIES.items()):
        mine = pfi[pfi["role"] == role]
        means = mine.groupby("feature")["value"].mean().reindex(features)
        pos = np.arange(len(features)) + (k - 0.5) * width
        right.bar(pos, means.to_numpy(), width=width * 0.95, color=colour, label=label)
        for i, f in enumerate(features):
            v = mine.loc[mine["feature"] == f, "value"].to_numpy()
            right.scatter(np.full(len(v), pos[i]), v, s=8, color="black", zorder=3)
    right.set_xticks(range(len(features)), features)
    right.set(xlabel="Feature", ylabel="PFI (increase in mean absolute error)",
              title=f"PFI, mean over {pfi['repeat'].nunique()} repeats (dots: repeats)")
    right.legend(loc="upper center")
    st.save(fig, style, out_png, out_pdf)
