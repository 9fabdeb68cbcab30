"""Fig. 9 of Parr & Wilson (2021): sale price against a discrete size, on a substitute table
(Ames house prices against the garage size in cars, 0-5, for the bulldozers' ProductSize).

As in the paper: PD/ICE, SHAP and ALE of the forest of Fig. 8 and StratPD, the mean of 10
bootstrap trials (dots), which has no point at the largest size because no forward
difference starts there. Differences: the substitute data (named under the panels); the
layout and averaging of :mod:`.dozer` (SHAP points jittered across each size); out-of-bag
R^2 in the title; beyond the paper, rows for xgboost, the SVM and kNN.
"""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.stratpd.figures.dozer import draw_feature


@figure("stratpd.fig9", methods=("pdp", "ice", "shap", "ale", "stratpd", "fit"))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    draw_feature(inputs, spec, out_png, out_pdf, "ProductSize", "ProductSize (garage cars)")
