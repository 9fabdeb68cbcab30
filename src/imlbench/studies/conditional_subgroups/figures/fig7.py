"""Fig. 7 of Molnar et al. (conditional subgroups): conditional PFI of x1 for the true model.

Setting I of Sect. 6: violins of the estimates of cs-PFI (CART and the distribution tree),
imputation, knockoffs and marginal PFI over the repetitions, per dependence scenario (rows)
and (n, p) (columns), with the closed-form truth and each method's MSE (Table 2).
"""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.conditional_subgroups.figures.simulation import (
    TRUE_MODEL_ESTIMATORS,
    TRUTH,
    violin_figure,
)


@figure("conditional_subgroups.fig7", methods=TRUE_MODEL_ESTIMATORS, truths=(TRUTH,))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    violin_figure(inputs, spec, out_png, out_pdf, learner="truth", roles=TRUE_MODEL_ESTIMATORS)
