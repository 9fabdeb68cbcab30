"""The figures of the StratPD study."""

from imlbench.studies.stratpd.figures import (  # noqa: F401
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
    fig_growth,
)
