"""Fig. 14 of Molnar et al. (conditional subgroups): conditional PFI of x1 for random forests."""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.conditional_subgroups.figures.simulation import (
    ESTIMATORS,
    MODEL_TRUTH,
    violin_figure,
)


@figure("conditional_subgroups.fig_14", methods=(*ESTIMATORS, MODEL_TRUTH))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    violin_figure(inputs, spec, out_png, out_pdf, learner="rf", roles=tuple(ESTIMATORS))
