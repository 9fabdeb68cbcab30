"""Fig. 4 of Molnar et al., "Relating the PDP and PFI to the data generating process"
(Sect. 8): as Fig. 3 for the corrected intervals only; grey lines join subsampling and
bootstrap of one cell (bootstrap: wider and closer to 0.95).
"""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.pd_pfi_dgp.figures.coverage import draw_width_vs_coverage


@figure("pd_pfi_dgp.fig4", tables=("summary",))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    draw_width_vs_coverage(inputs, spec, out_png, out_pdf, corrected_only=True)
