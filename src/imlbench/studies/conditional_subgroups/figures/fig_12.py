"""Fig. 12 of Molnar et al. (conditional subgroups): the effect of temperature on rentals."""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.conditional_subgroups.figures.boxplot_pdp import draw_boxplot_pdp

#: the roles: PDP and cs-PDPs with subgroup rules (``conditional_subgroups.cs_pdp_rules``) and
#: the ALE
PDP, CS_PDP, ALE = "pdp", "cs_pdp", "ale"
FEATURE = "temp"


@figure("conditional_subgroups.fig_12", methods=(PDP, CS_PDP, ALE))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    import matplotlib.pyplot as plt

    pdp = inputs.estimates(PDP)
    pdp = pdp[(pdp["feature"] == FEATURE) & (pdp["rep"] == 0)]
    cs = inputs.estimates(CS_PDP)
    cs = cs[(cs["feature"] == FEATURE) & (cs["rep"] == 0)]
    ale = inputs.estimates(ALE)
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
