"""Book ch. 6, Fig. 6.8: the two-dimensional ALE against its closed form. The 2-D ALE against
the 2-D PDP (Figs. 6.9-6.12) is the layer's ``surface`` (:mod:`imlbench.figures.surface`, whose
helpers serve this figure too).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.figures.surface import (
    colour_bar,
    draw_surface,
    rep_surfaces,
    summarised,
    surface_levels,
    value_range,
)
from imlbench.params import items, number, text


@figure("book_ale.ale2_theory", methods=("ale2",), params={
    "features": items(text(), default=["x1", "x2"], length=2),
    "a": number(0.0), "b": number(0.5), "mu": number(5.0), "sd": number(1.0, minimum=0),
})
def ale2_theory(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                features: list[str], a: float, b: float, mu: float, sd: float) -> None:
    """The closed-form pure second-order ALE of f = x1 x2 x3 (book eq. 6.13) next to the
    estimate of the first data set and the mean over data sets, on one colour scale."""
    from imlbench.dgp.effect_examples import AleBookCh6
    from imlbench.truth.effects import ale_book_ch6_second_order

    grids = rep_surfaces(inputs.estimates("ale2"))
    first = grids[min(grids)]
    mean = summarised(grids, "mean")
    law = AleBookCh6("multiplicative", a=a, b=b, mu=mu, sd=sd)
    xx, zz = np.meshgrid(mean[0], mean[1])
    theory = (mean[0], mean[1], ale_book_ch6_second_order(law, xx, zz))
    formula = f"½({features[0]} − {(a + b) / 2:g})({features[1]}² − {mu**2 + sd**2:g})"
    panels = [(theory, f"(a) closed form {formula}"),
              (first, "(b) estimate, first data set (K = 20)"),
              (mean, f"(c) estimate, mean over {len(grids)} data sets")]
    levels = surface_levels([g[2] for g, _ in panels], centred=True)

    fig, style = st.new_figure(spec, rows=1, width=12.0, panel_height=3.4)
    axes = st.panel_grid(fig, 3, 3, sharex=True, sharey=True)
    for ax, (grid, title) in zip(axes, panels, strict=True):
        filled = draw_surface(ax, grid, "contour", levels, True, st.LOOKS["house"])
        ax.set_title(f"{title}\n{value_range(grid[2])}")
        ax.set_xlabel(features[0])
    axes[0].set_ylabel(features[1])
    colour_bar(fig, filled, axes, "second-order ALE (one scale)")
    st.save(fig, style, out_png, out_pdf)
