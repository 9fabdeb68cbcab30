"""Fig. 9 of Parr & Wilson (2021): sale price against a discrete size, on a substitute table."""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.stratpd.figures.dozer import draw_feature


@figure("stratpd.fig_9", methods=("pdp", "ice", "shap", "ale", "stratpd", "fit"))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    """The layout and averaging of :func:`.dozer.draw_feature`."""
    draw_feature(inputs, spec, out_png, out_pdf, "ProductSize", "ProductSize (garage cars)")
