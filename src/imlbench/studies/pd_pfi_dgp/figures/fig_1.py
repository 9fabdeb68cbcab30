"""Fig. 1 of Molnar et al. (2023, PDP/PFI and the DGP): the chain of errors, a diagram."""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs

COLUMNS = ("ground truth (DGP)", "expected over models\n(the learner)", "one fitted model",
           "estimate from data")
ROWS = ("model", "partial\ndependence", "permutation\nfeature importance")
#: per row, the boxes of columns 0-3 (None: no box) and the labels of the arrows between them
BOXES = (
    (r"$f$" + "\ntrue function", r"$\mathbb{E}_F[\hat f\,]$" + "\nexpected model",
     r"$\hat f$" + "\nmodel", None),
    ("DGP-PD\n" + r"$\mathbb{E}_{X_C}[f(x, X_C)]$", "learner-PD\n" + r"$\mathbb{E}_F[PD_{\hat f}]$",
     "model-PD\n" + r"$\mathbb{E}_{X_C}[\hat f(x, X_C)]$",
     "estimate " + r"$\widehat{PD}$" + "\n" + r"$\frac{1}{n}\sum_i \hat f(x, x_C^{(i)})$"),
    ("DGP-PFI\n" + r"$PFI_f$", "learner-PFI\n" + r"$\mathbb{E}_F[PFI_{\hat f}]$",
     "model-PFI\n" + r"$PFI_{\hat f}$", "estimate " + r"$\widehat{PFI}$" + "\n(eq. 4)"),
)
EDGES = (("model bias", "model variance", None),
         ("bias", "variance\n(model variance)", "Monte Carlo\nerror"),
         ("bias", "variance\n(model variance)", "Monte Carlo\nerror"))
FILL = ("#e8eef9", "#eaf5ec", "#fbeee2")
EDGE_COLOURS = ("#1f5fd1", "#1b9e50", "#d95f02")


@figure("pd_pfi_dgp.fig_1")
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    """Draws the diagram of :data:`COLUMNS`, :data:`ROWS`, :data:`BOXES` and :data:`EDGES`; the
    figure declares no inputs and reads none (the study file attaches it to a scenario only because
    every figure needs one)."""
    fig, style = st.new_figure(spec, rows=1.5, width=10.5, panel_height=3.0)
    ax = fig.add_subplot()
    ax.set_xlim(-0.95, 3.55)
    ax.set_ylim(-0.55, 3.05)
    ax.axis("off")
    size = style["font_size"]
    for c, name in enumerate(COLUMNS):
        ax.text(c, 2.85, name, ha="center", va="center", fontsize=size, fontweight="bold",
                color="0.25")
    for r, (row, boxes, edges) in enumerate(zip(ROWS, BOXES, EDGES, strict=True)):
        y = 2.1 - r * 1.0
        ax.text(-0.62, y, row, ha="center", va="center", fontsize=size, fontweight="bold",
                rotation=0)
        texts = [None if b is None else ax.text(
            c, y, b, ha="center", va="center", fontsize=size, zorder=3,
            bbox={"boxstyle": "round,pad=0.45", "facecolor": FILL[r],
                  "edgecolor": EDGE_COLOURS[r], "linewidth": 1.2})
            for c, b in enumerate(boxes)]
        for c, label in enumerate(edges):
            if label is None:
                continue
            ax.annotate("", xy=(c + 1, y), xytext=(c, y), zorder=2, arrowprops={
                "arrowstyle": "-|>", "color": "0.2", "linewidth": 1.3, "shrinkA": 3,
                "shrinkB": 3, "patchA": texts[c].get_bbox_patch(),
                "patchB": texts[c + 1].get_bbox_patch()})
            ax.text(c + 0.5, y + 0.1, label, ha="center", va="bottom",
                    fontsize=size - 0.5, style="italic", color="0.15")
    ax.text(1.3, -0.45, "arrows point from the estimand to the estimate; each arrow is one "
            "source of error, which adds to those before it", ha="center", va="center",
            fontsize=size - 0.5, color="0.3")
    st.save(fig, style, out_png, out_pdf)
