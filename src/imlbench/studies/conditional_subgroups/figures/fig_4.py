"""Fig. 4 of Molnar et al. (conditional subgroups): CART subgroups reduce extrapolation."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs

if TYPE_CHECKING:
    import pandas as pd


@figure("conditional_subgroups.fig_4", methods=("permuted", "within_subgroups"))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    import matplotlib as mpl
    import numpy as np

    perm = inputs.estimates("permuted")
    within = inputs.estimates("within_subgroups")
    perm, within = perm[perm["rep"] == 0], within[within["rep"] == 0]
    groups = sorted(within["group"].unique(),
                    key=lambda g: within.loc[within["group"] == g, "x1"].min())
    ranges = [within.loc[within["group"] == g, "x1"] for g in groups]
    splits = [(a.max() + b.min()) / 2 for a, b in zip(ranges, ranges[1:], strict=False)]
    colours = mpl.colormaps["Dark2"]

    def corr(a: pd.Series, b: pd.Series) -> float:
        return float(np.corrcoef(a, b)[0, 1])

    fig, style = st.new_figure(spec, rows=1.25, width=11.0, panel_height=3.3)
    axes = fig.subplots(1, 3, sharex=True, sharey=True)
    axes[0].scatter(perm["x1"], perm["x2"], s=10, color="black")
    axes[0].set_title(f"data (correlation {corr(perm['x1'], perm['x2']):.2f})")
    axes[1].scatter(perm["x1"], perm["x2"], s=10, color="0.75", label="data")
    axes[1].scatter(perm["x1"], perm["draw"], marker="x", s=16, linewidths=0.8,
                    color=st.QUERY, label="permuted x2")
    axes[1].set_title(f"x2 permuted over all rows (corr. {corr(perm['x1'], perm['draw']):.2f})")
    axes[1].legend(loc="lower right")
    axes[2].scatter(within["x1"], within["x2"], s=10, color="0.75")
    for k, g in enumerate(groups):
        rows = within[within["group"] == g]
        axes[2].scatter(rows["x1"], rows["draw"], marker="x", s=16, linewidths=0.8,
                        color=colours(k), label=f"leaf {k + 1} ({len(rows)} rows)")
    for s in splits:
        axes[2].axvline(s, color="0.3", linestyle="--", linewidth=0.8)
    axes[2].set_title(f"x2 permuted within {len(groups)} CART leaves "
                      f"(corr. {corr(within['x1'], within['draw']):.2f})")
    axes[2].legend(loc="lower right", fontsize=style["font_size"] - 2)
    for ax in axes:
        ax.set_xlabel("Feature x1")
        ax.set_aspect("equal", adjustable="box")
    axes[0].set_ylabel("Feature x2")
    st.save(fig, style, out_png, out_pdf)
