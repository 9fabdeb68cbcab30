"""Fig. 3 of Molnar et al., "Relating the PDP and PFI to the data generating process"
(Sect. 8): mean width against coverage of the learner-PD bands and PFI intervals at 15
refits, naive and corrected, for every DGP, n and learner; grey lines join the naive and
the corrected interval of one cell.
"""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.pd_pfi_dgp.figures.coverage import draw_width_vs_coverage


@figure("pd_pfi_dgp.fig3", tables=("summary",))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    draw_width_vs_coverage(inputs, spec, out_png, out_pdf, corrected_only=False)
