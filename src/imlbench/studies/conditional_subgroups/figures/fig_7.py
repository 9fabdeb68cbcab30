"""Fig. 7 of Molnar et al. (conditional subgroups): conditional PFI of x1 for the true model."""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.conditional_subgroups.figures.simulation import (
    TRUE_MODEL_ESTIMATORS,
    violin_figure,
)


@figure("conditional_subgroups.fig_7", methods=TRUE_MODEL_ESTIMATORS, truths=("importance",))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    violin_figure(inputs, spec, out_png, out_pdf, learner="truth", roles=TRUE_MODEL_ESTIMATORS)
