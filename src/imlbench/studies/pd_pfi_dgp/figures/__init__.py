"""Figs. 1-14 of Molnar, Freiesleben, König, Herbinger, Reisinger, Casalicchio, Wright &
Bischl, "Relating the partial dependence plot and permutation feature importance to the data
generating process" (2023), and one beyond the paper, one module per figure; :mod:`.coverage`
holds what the coverage figures share."""

from imlbench.studies.pd_pfi_dgp.figures import (  # noqa: F401  (each registers its figure)
    fig1,
    fig2,
    fig3,
    fig4,
    fig5,
    fig6,
    fig7,
    fig8,
    fig9,
    fig10,
    fig11,
    fig12,
    fig13,
    fig14,
    fig_beyond,
)
