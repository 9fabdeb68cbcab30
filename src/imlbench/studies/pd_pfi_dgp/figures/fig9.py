"""Fig. 9 of Molnar et al., "Relating the PDP and PFI to the data generating process"
(App. H): Coverage of the learner-PD bands against the number of refits, n = 1000; rows:
DGP, columns: learner; colours: sampling strategy, dashed: naive, solid: corrected variance.
"""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.pd_pfi_dgp.figures.coverage import draw_refit_grid


@figure("pd_pfi_dgp.fig9", tables=("summary",))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    draw_refit_grid(inputs, spec, out_png, out_pdf, quantity="pd", measure="coverage")
