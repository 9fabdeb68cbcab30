"""Fig. 4 of Hooker, Mentch & Zhou (2021): how a random forest extrapolates for y = x1 + e."""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.extrapolation.figures import panels as pn

BIG = "rf"


@figure("extrapolation.fig_4", methods=("surface", "queries", "leaves"), tables=("data",))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    import matplotlib as mpl
    from matplotlib.lines import Line2D
    from matplotlib.patches import Rectangle

    surface = inputs.estimates("surface")
    queries = inputs.estimates("queries")
    queries = queries[queries["rep"] == 0]
    leaves = inputs.estimates("leaves")
    leaves = leaves[leaves["rep"] == 0]
    points = inputs.data()
    learners = pn.learner_order(surface["learner"])
    grids = {lr: st.surface_grid(surface[surface["learner"] == lr], "mean") for lr in learners}
    levels = pn.contour_levels([g[2] for g in grids.values()])

    others = [lr for lr in learners if lr != BIG]
    fig, style = st.new_figure(spec, rows=3.0, width=12.0, panel_height=2.6)
    top, bottom = fig.subfigures(2, 1, height_ratios=[2.3, 1.0])
    big, boxes = top.subplots(1, 2)
    filled = pn.surface_panel(big, grids[BIG], levels, points)
    mine = queries[queries["learner"] == BIG]
    big.scatter(mine["x1"], mine["x2"], s=5, color=st.QUERY, zorder=2)
    big.set_title(f"{pn.look(BIG).label}: mean fitted surface, data and permuted queries")
    pn.surface_panel(boxes, grids[BIG], levels, points)
    tree_colours = mpl.colormaps["tab10"]
    for i, (_, tree) in enumerate(leaves.groupby("tree")):
        for leaf in tree.itertuples():
            boxes.add_patch(Rectangle((leaf.lo_0, leaf.lo_1), leaf.hi_0 - leaf.lo_0,
                                      leaf.hi_1 - leaf.lo_1, fill=False, linewidth=0.8,
                                      edgecolor=tree_colours(i % 10), zorder=2))
    boxes.set_title(f"leaf rectangles of {leaves['tree'].nunique()} trees of one forest")
    top.colorbar(filled, ax=[big, boxes], shrink=0.8, label="mean prediction (all panels)")
    for ax, learner in zip(bottom.subplots(1, max(len(others), 1)), others, strict=False):
        pn.surface_panel(ax, grids[learner], levels, points)
        mine = queries[queries["learner"] == learner]
        ax.scatter(mine["x1"], mine["x2"], s=2, color=st.QUERY, zorder=2)
        pn.learner_title(ax, learner)

    st.legend_below(fig, [
        pn.training_handle(),
        Line2D([], [], marker="o", markersize=3, linestyle="none", color=st.QUERY,
               label="permuted queries for x2 (rep 0)"),
        Line2D([], [], color=tree_colours(0), linewidth=0.8,
               label="leaf rectangle (one colour per tree)"),
    ], ncols=3)
    st.save(fig, style, out_png, out_pdf)
