"""Fig. 5 of Molnar et al. (2023, PDP/PFI and the DGP): the forest's PD bands against refits."""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.pd_pfi_dgp.figures.coverage import MEASURES, legend_handles, refit_curves


@figure("pd_pfi_dgp.fig_5", tables=("summary",))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    table = inputs.summary()
    cells = table[(table["learner"] == "rf") & (table["p_form"] == "nonlinear")
                  & (table["quantity"] == "pd")]
    fig, style = st.new_figure(spec, rows=1.0, width=10.0, panel_height=3.4)
    for ax, measure in zip(fig.subplots(1, 2), ("width", "coverage"), strict=True):
        refit_curves(ax, cells, measure)
        ax.set(xlabel="Number of model refits m", ylabel=MEASURES[measure])
    st.legend_below(fig, legend_handles(), ncols=6,
                    title=f"Sampling strategy (* corrected); {int(cells['reps'].min())} "
                    "repetitions, bands: 2 SE")
    st.save(fig, style, out_png, out_pdf)
