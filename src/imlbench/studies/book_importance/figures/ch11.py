"""Figures of the book's chapter 11 (PFI on training against test data): the boosting
schematic (Fig. 11.1) and the schematic of what correlation does to the importances and to
the choice of rows (Fig. 11.12); they read no data. The importances of one fit regime on test
and on training rows (Figs 11.2-11.11 and the two unnumbered training panels) are entries of
the layer's ``importance_dots``.
"""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs

#: the schematics' box face and arrow colours
BOX_FACE = "#f2f2f2"
ARROW = "#333333"
MUTED = "#b2182b"


def _box(ax, x: float, y: float, label: str, *, width: float = 0.24, face: str = BOX_FACE,
         size: float = 9.0) -> None:
    """A rounded box centred at (x, y) in axis units with ``label`` inside."""
    ax.text(x, y, label, ha="center", va="center", fontsize=size, wrap=True,
            bbox={"boxstyle": "round,pad=0.6", "facecolor": face, "edgecolor": "black",
                  "linewidth": 1.0}, transform=ax.transAxes)


def _arrow(ax, start: tuple[float, float], end: tuple[float, float], *, colour: str = ARROW,
           style: str = "-", rad: float = 0.0, label: str = "", size: float = 8.5) -> None:
    """An arrow from ``start`` to ``end`` (axis units), with ``label`` at its middle."""
    ax.annotate("", xy=end, xytext=start, xycoords="axes fraction",
                arrowprops={"arrowstyle": "-|>", "color": colour, "linewidth": 1.5,
                            "linestyle": style, "connectionstyle": f"arc3,rad={rad}"})
    if label:
        mid = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2)
        ax.text(*mid, label, ha="center", va="bottom", fontsize=size, color=colour,
                transform=ax.transAxes)


@figure("book_importance.gbm_schematic")
def gbm_schematic(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    """Gradient boosting as a loop (Fig. 11.1): fit a small tree, take the residuals, fit a
    new tree to them and add it, repeat until the validation score stops improving."""
    fig, style = st.new_figure(spec, rows=1, width=9.5, panel_height=2.6)
    ax = fig.add_subplot()
    ax.axis("off")
    steps = [
        (0.12, 0.5, "1. fit a small tree\nF$_1$(x) to y"),
        (0.37, 0.5, "2. residuals\nr = y - F$_m$(x)\n(the loss's negative\ngradient)"),
        (0.63, 0.5, "3. fit a new tree h$_m$\nto the residuals;\nF$_{m+1}$ = F$_m$ + "
                    "learning rate x h$_m$"),
        (0.88, 0.5, "4. model: the sum\nof all trees"),
    ]
    for x, y, label in steps:
        _box(ax, x, y, label)
    _arrow(ax, (0.19, 0.5), (0.29, 0.5))
    _arrow(ax, (0.45, 0.5), (0.505, 0.5))
    _arrow(ax, (0.755, 0.5), (0.8, 0.5), label="stop")
    _arrow(ax, (0.63, 0.66), (0.37, 0.68), rad=0.35)
    ax.text(0.5, 0.9, "repeat while the validation AUC improves (by 0.005 within 10 trees)",
            ha="center", va="center", fontsize=9, transform=ax.transAxes)
    ax.text(0.5, 0.1, "deep trees or small leaves fit the training rows closely (overfit); "
            "large leaves make each tree crude (underfit)", ha="center", va="center",
            fontsize=8.5, color="#555555", transform=ax.transAxes)
    st.save(fig, style, out_png, out_pdf)


@figure("book_importance.correlation_schematic")
def correlation_schematic(inputs: FigureInputs, spec: dict, out_png: Path,
                          out_pdf: Path) -> None:
    """What correlated features change (Fig. 11.12): they distort the permutation
    importances, whereas the fit of the model, not the correlation, decides whether training
    and test importances differ."""
    fig, style = st.new_figure(spec, rows=1, width=8.5, panel_height=3.4)
    ax = fig.add_subplot()
    ax.axis("off")
    _box(ax, 0.15, 0.75, "correlated\nfeatures")
    _box(ax, 0.15, 0.25, "fit of the model:\nwell-, over- or\nunderfitted")
    _box(ax, 0.78, 0.75, "permutation importances:\nunrealistic permuted rows,\nimportance "
                         "shifted\nbetween correlated features")
    _box(ax, 0.78, 0.25, "training vs test data:\nhow far the two\nimportances differ")
    _arrow(ax, (0.26, 0.75), (0.6, 0.75), label="distort")
    _arrow(ax, (0.27, 0.25), (0.62, 0.25), label="decides")
    _arrow(ax, (0.25, 0.65), (0.62, 0.33), colour=MUTED, style="--")
    ax.text(0.47, 0.52, "no change of the choice", ha="left", va="center", fontsize=8.5,
            color=MUTED, transform=ax.transAxes)
    st.save(fig, style, out_png, out_pdf)
