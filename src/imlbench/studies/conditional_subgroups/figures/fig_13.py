"""Fig. 13 of Molnar et al. (conditional subgroups): the effect of season on rentals."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.conditional_subgroups.figures.boxplot_pdp import tukey_stats

#: the roles: PDP and cs-PDPs with subgroup rules and ICE values
#: (``conditional_subgroups.cs_pdp_rules``)
PDP, CS_PDP = "pdp", "cs_pdp"
FEATURE = "season"


def _boxes(ax, ice, positions: dict[float, float], colour: str, width: float) -> None:
    """Tukey boxplots of the ICE values per level at ``positions`` and the PDP (mean)."""
    stats, xs, means = [], [], []
    for level, values in ice.groupby("x")["value"]:
        s = tukey_stats(values.to_numpy())
        stats.append({"whislo": s.lower, "q1": s.hinge_low, "med": s.median,
                      "q3": s.hinge_high, "whishi": s.upper, "fliers": s.outliers})
        xs.append(positions[level])
        means.append(values.mean())
    ax.bxp(stats, positions=xs, widths=width, patch_artist=True,
           boxprops={"facecolor": colour, "alpha": 0.35, "edgecolor": colour},
           medianprops={"color": colour}, whiskerprops={"color": colour},
           capprops={"color": colour}, flierprops={"markersize": 2.5, "markeredgecolor": colour})
    ax.plot(xs, means, marker="D", color=colour, markersize=4.5, linewidth=0.8)


@figure("conditional_subgroups.fig_13", methods=(PDP, CS_PDP))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    from imlbench.data.bikeshare import DAILY_LEVELS as LEVELS

    pdp = inputs.estimates(PDP)
    pdp = pdp[(pdp["feature"] == FEATURE) & (pdp["rep"] == 0)]
    cs = inputs.estimates(CS_PDP)
    cs = cs[(cs["feature"] == FEATURE) & (cs["rep"] == 0)]
    levels = np.sort(pdp.loc[pdp["kind"] == "ice", "x"].unique())
    names = [LEVELS[FEATURE].get(int(v), f"{v:g}") for v in levels]

    fig, style = st.new_figure(spec, rows=1, width=12.0, panel_height=4.0)
    left, right = fig.subplots(1, 2, sharey=True, width_ratios=[1, 1.6])
    _boxes(left, pdp[pdp["kind"] == "ice"], {v: k for k, v in enumerate(levels)}, "0.3", 0.6)
    left.set_xticks(range(len(levels)), names)
    left.set(xlabel=FEATURE, ylabel="predicted bike rentals",
             title="PDP: ICE values per season (diamond = mean)")

    colours = plt.get_cmap("Dark2")
    groups = list(cs.groupby(["group", "rule"], sort=True))
    width = 0.8 / len(groups)
    handles = []
    for k, ((_, rule), part) in enumerate(groups):
        shift = (k - (len(groups) - 1) / 2) * width
        _boxes(right, part[part["kind"] == "ice"],
               {v: i + shift for i, v in enumerate(levels)}, colours(k % 8), width * 0.9)
        n = int(part["n"].iloc[0])
        handles.append(Patch(color=colours(k % 8), alpha=0.6, label=f"{rule} (n = {n})"))
    right.set_xticks(range(len(levels)), names)
    right.set_xlim(-0.6, len(levels) - 0.4)
    right.set(xlabel=FEATURE, title="cs-PDPs: ICE values per season within each subgroup")
    right.legend(handles=handles, frameon=False, loc="upper left",
                 fontsize=style["font_size"] - 1.5)
    st.save(fig, style, out_png, out_pdf)
