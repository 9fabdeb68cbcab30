"""Figures of the book's chapter 3.1 (Kronseder): the toy data with the density of x2 at the
side, complete or with the gap (Figs 3.1, 3.2). The PDPs against the true PD (Figs 3.22-3.26,
3.28) are the layer's ``rep_curve_grid``, the potato prediction function with its
observations (Fig. 3.27) the layer's ``surface``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.params import items, number, text

#: points at which the side density of x2 is drawn
DENSITY_POINTS = 200


def _labels(given: list[str] | None, default: list[str], key: str) -> list[str]:
    if given is None:
        return default
    if len(given) != len(default):
        raise ValueError(f"params.{key}: {len(given)} labels for {len(default)}; allowed: one "
                         "label each")
    return list(given)


@figure("book_pdp.gap_scatter", tables=("data",), params={
    "column_labels": items(text(), None, nullable=True),
    "box": items(number(), None, length=4, nullable=True)})
def gap_scatter(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                column_labels: list[str] | None, box: list[float] | None) -> None:
    """One panel per scenario: x2 against x1 of its first data set, and at its right the
    kernel density of x2 against the standard normal density (dashed); ``box`` (x1 from, to,
    x2 from, to) outlines the gap."""
    from matplotlib.patches import Rectangle
    from scipy.stats import gaussian_kde, norm

    scenarios = inputs.scenarios
    labels = _labels(column_labels, scenarios, "column_labels")
    fig, style = st.new_figure(spec, rows=1, width=5.2 * len(scenarios), panel_height=4.2)
    grid = fig.add_gridspec(1, 2 * len(scenarios), width_ratios=[4, 1] * len(scenarios))
    for i, (scenario, label) in enumerate(zip(scenarios, labels, strict=True)):
        data = inputs.first_data(scenario)
        ax = fig.add_subplot(grid[0, 2 * i])
        side = fig.add_subplot(grid[0, 2 * i + 1], sharey=ax)
        ax.scatter(data["x1"], data["x2"], s=5, color="black", alpha=0.5, linewidths=0)
        if box is not None:
            ax.add_patch(Rectangle((box[0], box[2]), box[1] - box[0], box[3] - box[2],
                                   fill=False, edgecolor=st.QUERY, linewidth=1.2))
        ax.set_xlabel("x1")
        ax.set_ylabel("x2")
        ax.set_title(f"{label} (n = {len(data)})")
        x2 = data["x2"].to_numpy(float)
        y = np.linspace(min(x2.min(), -3.5), max(x2.max(), 3.5), DENSITY_POINTS)
        side.plot(gaussian_kde(x2)(y), y, color="black", linewidth=1.4)
        side.plot(norm.pdf(y), y, color="0.5", linestyle="--", linewidth=1.0)
        side.set_xlabel("density of x2")
        side.tick_params(labelleft=False)
        side.set_xlim(left=0)
    st.save(fig, style, out_png, out_pdf)
