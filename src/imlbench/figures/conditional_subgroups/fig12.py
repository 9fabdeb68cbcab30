"""Fig. 12 of Molnar et al. (conditional subgroups): the effect of temperature on rentals.

As in the paper: left, the PDP and the ALE of temperature, the ALE shifted by the mean
prediction so both are on the scale of the predicted rentals; right, the cs-PDPs in the
subgroups of temperature, each drawn like a boxplot of the subgroup's temperatures (thin
between the whisker ends, bold between the hinges, outlying days as points; Fig. 6 style)
and labelled by the subgroup's rule.
"""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import FIGURES
from imlbench.figures import style as st
from imlbench.figures.conditional_subgroups.boxplot_pdp import draw_boxplot_pdp

PDP, CS_PDP, ALE = "e5_pdp", "e5_cs_pdp", "e5_ale"
FEATURE = "temp"


@FIGURES.register("conditional_subgroups.fig12")
def draw(inputs: dict[str, list[Path]], spec: dict, out_png: Path, out_pdf: Path) -> None:
    import matplotlib.pyplot as plt

    pdp = st.estimates(inputs, PDP)
    pdp = pdp[(pdp["feature"] == FEATURE) & (pdp["rep"] == 0)]
    cs = st.estimates(inputs, CS_PDP)
    cs = cs[(cs["feature"] == FEATURE) & (cs["rep"] == 0)]
    ale = st.estimates(inputs, ALE)
    ale = ale[(ale["feature"] == FEATURE) & (ale["rep"] == 0)].sort_values("x")
    rows = pdp[pdp["kind"] == "row"]
    curve = pdp[pdp["kind"] == "pdp"].sort_values("x")
    mean_prediction = rows["value"].mean()

    fig, style = st.new_figure(spec, rows=1, width=12.0, panel_height=4.0)
    left, right = fig.subplots(1, 2, sharey=True)
    left.plot(curve["x"], curve["value"], color="black", linewidth=1.6, label="PDP")
    left.plot(ale["x"], ale["value"] + mean_prediction, color="#1b9e77", linewidth=1.6,
              linestyle="--", label="ALE + mean prediction")
    left.plot(rows["x"], [curve["value"].min()] * len(rows), "|", color="0.5", markersize=6,
              label="test days")
    left.set(xlabel="temperature (°C)", ylabel="predicted bike rentals", title="PDP and ALE")
    left.legend(frameon=False, loc="lower right")

    colours = plt.get_cmap("Dark2")
    for k, ((_, rule), part) in enumerate(cs.groupby(["group", "rule"], sort=True)):
        line = part[part["kind"] == "pdp"].sort_values("x")
        x = part.loc[part["kind"] == "row", "x"].to_numpy()
        draw_boxplot_pdp(right, x, line["x"].to_numpy(), line["value"].to_numpy(),
                         colours(k % 8), label=f"{rule} (n = {len(x)})")
    right.set(xlabel="temperature (°C)", title="cs-PDPs in the subgroups of temperature")
    right.legend(frameon=False, loc="lower right", fontsize=style["font_size"] - 1.5)
    st.save(fig, style, out_png, out_pdf)
