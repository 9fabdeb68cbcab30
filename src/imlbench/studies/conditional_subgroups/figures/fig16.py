"""Fig. 16 of Molnar et al. (Appendix E.1): data fidelity per sampler,
the second half of the data sets.

As in the paper: one panel per data set, boxplots of -log MMD^2 per sampler (perm, cart30,
trtr30, ko, imp, ale, cvirf, none), one point per feature averaged (mean, as the caption says)
over the repetitions. Differences: our offline tables stand in for the CC18 sets (titles name
the set each covers or replaces) and "trtr" is our distribution tree.
"""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.conditional_subgroups.figures.fidelity_panels import (
    FIDELITY,
    SAMPLERS_A,
    draw_boxplots,
)


@figure("conditional_subgroups.fig16", methods=(FIDELITY,))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    draw_boxplots(inputs, spec, out_png, out_pdf, SAMPLERS_A, part=1, bounds=False)
