"""Figures of the book's ch. 9 simulations: the benchmark errors over the correlation rho
(Figs 9.2, 9.16). The forest's surface over (x1, x2) with a permuted point (Fig. 9.4) is an
entry of the layer's ``surface``; PFI or LOCO of one learner by rho with the mean places by
rho (Figs 9.3, 9.5-9.15, 9.17-9.22) are entries of the layer's ``importance_dots``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.params import table, text


def rho_label(rho: float) -> str:
    return f"rho = {rho:g}"


@figure("book_importance.sim_benchmark", methods=("fit",),
        params={"learners": table(value=text())})
def s_benchmark(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                learners: dict[str, str]) -> None:
    """Test MSE (top, log scale) and test R^2 (bottom) over the splits of each scenario (one
    box per learner, ``learners`` maps each to its label, in the book's ggplot2 hues)."""
    from matplotlib.patches import Patch

    est = inputs.estimates("fit")
    scenarios = [s for s in inputs.scenarios if s in set(est["scenario"])]
    fig, style = st.new_figure(spec, rows=2, width=8.5, panel_height=2.8)
    top, bottom = fig.subplots(2, 1, sharex=True)
    handles = []
    for ax, metric, label in ((top, "mse_test", "test MSE (log scale)"),
                              (bottom, "r2_test", "test R^2")):
        for i, (learner, name) in enumerate(learners.items()):
            values = [est[(est["scenario"] == s) & (est["learner"] == learner)
                          & (est["metric"] == metric)]["value"].to_numpy() for s in scenarios]
            where = np.arange(len(scenarios)) + st.dodge(i, len(learners))
            box = ax.boxplot(values, positions=where, widths=0.16, patch_artist=True,
                             manage_ticks=False, medianprops={"color": "black"})
            colour = st.BOOK_PALETTES["ggplot3"][i % 3]
            for patch in box["boxes"]:
                patch.set(facecolor=colour, alpha=0.8)
            if ax is top:
                handles.append(Patch(facecolor=colour, alpha=0.8, label=name))
        ax.set_ylabel(label)
    top.set_yscale("log")
    st.legend_below(fig, handles, ncols=len(handles))
    rho = est.drop_duplicates("scenario").set_index("scenario")["p_rho"]
    bottom.set_xticks(range(len(scenarios)), [rho_label(rho[s]) for s in scenarios])
    st.save(fig, style, out_png, out_pdf)
