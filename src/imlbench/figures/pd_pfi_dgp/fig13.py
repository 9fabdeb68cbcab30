"""Fig. 13 of Molnar et al., "Relating the PDP and PFI to the data generating process"
(App. H): Coverage of the learner-PFI intervals against the number of refits, n = 1000; rows:
DGP, columns: learner; colours: sampling strategy, dashed: naive, solid: corrected variance.
"""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import FIGURES
from imlbench.figures.pd_pfi_dgp.coverage import draw_refit_grid


@FIGURES.register("pd_pfi_dgp.fig13")
def draw(inputs: dict[str, list[Path]], spec: dict, out_png: Path, out_pdf: Path) -> None:
    draw_refit_grid(inputs, spec, out_png, out_pdf, quantity="pfi", measure="coverage")
