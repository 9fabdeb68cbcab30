"""Figs. 1-19 of Molnar, König, Bischl & Casalicchio, the conditional-subgroups paper, one module
per figure (Fig. 19 also drawn against the model, as ``fig_19_model`` of the study file), with
the shared helpers of the simulation, data-fidelity and boxplot-style figures."""

from imlbench.studies.conditional_subgroups.figures import (  # noqa: F401  (each registers)
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
    fig14_beyond,
    fig15,
    fig16,
    fig17,
    fig18,
    fig19,
)
