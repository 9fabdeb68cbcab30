"""Fig. 3 of Molnar et al. (conditional subgroups): subgroups remove extrapolation."""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs

GROUP_COLOURS = ("#1b9e77", "#d95f02")


@figure("conditional_subgroups.fig_3", methods=("permuted", "within_subgroups"))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    import numpy as np
    from scipy.stats import gaussian_kde

    perm = inputs.estimates("permuted")
    within = inputs.estimates("within_subgroups")
    perm, within = perm[perm["rep"] == 0], within[within["rep"] == 0]
    groups = sorted(within["group"].unique(), key=lambda g: within.loc[within["group"] == g,
                                                                       "x2"].min())
    bounds = [within.loc[within["group"] == g, "x2"] for g in groups]
    splits = [(a.max() + b.min()) / 2 for a, b in zip(bounds, bounds[1:], strict=False)]
    edges = [0.0, *splits, 1.0]
    labels = [f"x2 in [{lo:.2f}, {hi:.2f}]" for lo, hi in zip(edges, edges[1:], strict=False)]

    fig, style = st.new_figure(spec, rows=2.0, width=10.0, panel_height=2.8)
    axes = fig.subplots(2, 2, sharex=True, height_ratios=[1.6, 1.0])
    for ax, draws, title in ((axes[0, 0], perm, "x1 permuted over all rows"),
                             (axes[0, 1], within, "x1 permuted within the subgroups")):
        ax.scatter(draws["x1"], draws["x2"], s=10, color="black", label="data")
        ax.scatter(draws["draw"], draws["x2"], marker="x", s=16, linewidths=0.8,
                   color=st.QUERY, label="permuted x1")
        for s in splits:
            ax.axhline(s, color="0.3", linestyle="--", linewidth=0.8)
        ax.set(ylabel="Feature x2", title=title)
    axes[0, 0].legend(loc="lower right")

    x1 = perm["x1"].to_numpy()
    z = np.linspace(x1.min() - 2, x1.max() + 2, 300)
    axes[1, 0].plot(z, gaussian_kde(x1)(z), color="black")
    axes[1, 0].fill_between(z, gaussian_kde(x1)(z), color="0.85")
    axes[1, 0].set(xlabel="Feature x1", ylabel="density", title="marginal density of x1")
    for g, label, colour in zip(groups, labels, GROUP_COLOURS, strict=False):
        v = within.loc[within["group"] == g, "x1"].to_numpy()
        axes[1, 1].plot(z, gaussian_kde(v)(z), color=colour, linewidth=1.6,
                        label=f"{label} ({len(v)} rows)")
    axes[1, 1].set(xlabel="Feature x1", ylabel="density", title="density of x1 per subgroup")
    axes[1, 1].legend(loc="upper right")
    st.save(fig, style, out_png, out_pdf)
