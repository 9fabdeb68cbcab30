"""Fig. 14 of Molnar et al. (conditional subgroups): conditional PFI of x1 for random forests.

Setting II of Sect. 6 (Appendix D): as Fig. 7 for a forest fitted on the training rows, with
the forest's conditional importance (cvirf) added; the truth of a cell is the mean over the
repetitions of each forest's true conditional PFI (Table 7).
"""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import FIGURES
from imlbench.figures.conditional_subgroups.simulation import violin_figure


@FIGURES.register("conditional_subgroups.fig14")
def draw(inputs: dict[str, list[Path]], spec: dict, out_png: Path, out_pdf: Path) -> None:
    violin_figure(inputs, spec, out_png, out_pdf, learner="rf")
