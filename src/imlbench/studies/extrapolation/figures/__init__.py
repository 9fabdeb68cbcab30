"""Figs. 1-9 of Hooker, Mentch & Zhou (2021), one module per figure."""

from imlbench.studies.extrapolation.figures import (  # noqa: F401  (each registers its figure)
    fig1,
    fig2,
    fig3,
    fig4,
    fig5,
    fig6,
    fig7,
    fig8,
    fig9,
)
