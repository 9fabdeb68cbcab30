"""Fig. 1 of Molnar et al. (conditional subgroups): the PDP averages where no data are."""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs


@figure("conditional_subgroups.fig_1", methods=("surface", "pdp"), tables=("data",))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    surface = inputs.estimates("surface")
    pdp = inputs.estimates("pdp")
    points = inputs.data()
    points = points[(points["rep"] == 0) & (points["split"] == "train")]
    x1, x2, z = st.surface_grid(surface[surface["rep"] == 0], "mean")

    fig, style = st.new_figure(spec, rows=1.3, width=10.0, panel_height=3.6)
    left, right = fig.subplots(1, 2)
    tiles = left.pcolormesh(x1, x2, z, shading="nearest", cmap=st.SURFACE_CMAP)
    left.scatter(points["x1"], points["x2"], s=10, color="white", edgecolor="black",
                 linewidths=0.5, label="data (100 points)")
    left.plot([0, 1], [1, 0], color="white", linestyle="--", linewidth=1.0,
              label="x1 + x2 = 1 (edge of the data)")
    left.set(xlim=(0, 1), ylim=(0, 1), xlabel="Feature x1", ylabel="Feature x2",
             title="prediction surface f(x) = exp(x1 + x2) and data")
    left.set_aspect("equal")
    left.grid(False)
    left.legend(loc="upper right", fontsize=style["font_size"] - 1.5, framealpha=0.8)
    fig.colorbar(tiles, ax=left, label="prediction f(x)", shrink=0.85)

    curve = pdp[(pdp["rep"] == 0) & (pdp["feature"] == "x1")]
    top = points["y"].max()
    right.scatter(points["x1"], points["y"], s=10, color=st.ICE_GREY, alpha=0.7,
                  label="observed (x1, f(x)) pairs")
    right.plot(curve["x"], curve["value"], color="black", linewidth=2.0, label="PDP of x1")
    right.axhline(top, color=st.QUERY, linestyle="--", linewidth=1.0,
                  label=f"largest observed prediction ({top:.2f})")
    right.axvline(0.75, color="black", linestyle=":", linewidth=0.8, label="x1 = 0.75")
    right.set(xlim=(0, 1), xlabel="Feature x1", ylabel="Model prediction",
              title="PDP of x1 against the observed predictions")
    right.legend(loc="upper left", fontsize=style["font_size"] - 1.5)
    st.save(fig, style, out_png, out_pdf)
