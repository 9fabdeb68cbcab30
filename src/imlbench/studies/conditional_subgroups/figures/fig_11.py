"""Fig. 11 of Molnar et al. (conditional subgroups): PFI vs cs-PFI, and local cs-PFI."""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs

#: the roles: marginal PFI, cs-PFI and local cs-PFI, each with its quantiles
PFI, CS_PFI, LOCAL = "pfi", "cs_pfi", "local_cs_pfi"
FEATURES = ["temp", "yr", "season", "hum", "wind"]
MARGINAL, CONDITIONAL = "#555555", "#d95f02"


def _interval(ax, y: float, row, colour: str, marker: str, label: str | None = None) -> None:
    ax.plot([row["lower"], row["upper"]], [y, y], color=colour, linewidth=1.4)
    ax.plot(row["value"], y, marker=marker, color=colour, linestyle="none", markersize=6,
            label=label)


@figure("conditional_subgroups.fig_11", methods=(PFI, CS_PFI, LOCAL))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    pfi = inputs.estimates(PFI).set_index("feature")
    cs = inputs.estimates(CS_PFI).set_index("feature")
    local = inputs.estimates(LOCAL)
    local = local[local["feature"] == "temp"].sort_values("value")
    features = [f for f in FEATURES if f in pfi.index][::-1]

    fig, style = st.new_figure(spec, rows=1, width=12.0, panel_height=3.8)
    left, right = fig.subplots(1, 2, width_ratios=[1, 1.15])
    for k, feature in enumerate(features):
        _interval(left, k + 0.15, pfi.loc[feature], MARGINAL, "o",
                  "PFI" if k == 0 else None)
        _interval(left, k - 0.15, cs.loc[feature], CONDITIONAL, "s",
                  "cs-PFI" if k == 0 else None)
        split = cs.loc[feature, "split_on"] or "no split"
        left.annotate(f"| {split}", (cs.loc[feature, "upper"], k - 0.15), xytext=(4, 0),
                      textcoords="offset points", va="center", color=CONDITIONAL,
                      fontsize=style["font_size"] - 1.5)
    left.set_yticks(range(len(features)), features)
    left.set_xlabel("PFI and cs-PFI (increase of the test MAE; median, 5%-95% range)")
    left.set_title("marginal vs conditional PFI (label: features the subgroups split on)")
    left.legend(frameon=False, loc="lower right")
    left.margins(x=0.25)

    for k, (_, row) in enumerate(local.iterrows()):
        _interval(right, k, row, CONDITIONAL, "s")
    right.set_yticks(range(len(local)), [f"{r} (n = {n})" for r, n in
                                         zip(local["rule"], local["n"], strict=True)])
    right.axvline(0, color="0.5", linewidth=0.8)
    right.set_xlabel("local cs-PFI of temp (increase of the MAE within the subgroup)")
    right.set_title("temperature within its subgroups (test days)")
    st.save(fig, style, out_png, out_pdf)
