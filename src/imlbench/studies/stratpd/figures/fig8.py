"""Fig. 8 of Parr & Wilson (2021): sale price against the year made, on a substitute table
(Ames house prices against the year built, for the bulldozers' YearMade).

As in the paper: PD/ICE, SHAP and ALE of a forest (out-of-bag R^2 in the title) and StratPD,
the mean of 10 bootstrap trials (dots) with each trial (coloured lines). Differences: the
substitute data (named under the panels); the layout and averaging of :mod:`.dozer`;
beyond the paper, rows for xgboost, the SVM and kNN.
"""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.stratpd.figures.dozer import draw_feature


@figure("stratpd.fig8", methods=("pdp", "ice", "shap", "ale", "stratpd", "fit"))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    draw_feature(inputs, spec, out_png, out_pdf, "YearMade", "YearMade (year built)")
