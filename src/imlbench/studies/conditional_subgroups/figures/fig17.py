"""Fig. 17 of Molnar et al. (Appendix E.1): data fidelity per tree type and depth, the first half.

As in the paper: one panel per data set, boxplots of -log MMD^2 for cs-permutation with CART
and with (our stand-in for) transformation trees at depths 1-5 and 30, one point per feature
averaged over the repetitions, dotted lines at the medians of perm (lower bound) and none
(upper bound). Our offline tables stand in for the CC18 sets.
"""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.conditional_subgroups.figures.fidelity_panels import (
    FIDELITY,
    TREE_SAMPLERS,
    draw_boxplots,
)


@figure("conditional_subgroups.fig17", methods=(FIDELITY,))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    draw_boxplots(inputs, spec, out_png, out_pdf, TREE_SAMPLERS, part=0, bounds=True)
