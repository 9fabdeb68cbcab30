"""The LMU book "Limitations of Interpretable Machine Learning Methods" (Molnar et al., eds.,
2019), chapters 2-4: PDP and ICE, PDP under dependent features, PDP and causality.

One module per part registers the study's own entries (claim kinds, data methods), and
:mod:`.statistics` the statistics per repetition its ``contrast`` claims name; the figure
functions are in :mod:`.figures`. The PDP, ICE, the 2-D surface and the association measures
are the layers' methods; the data are the layer's table DGPs (Titanic, bike days, ice cream)
and formula DGPs (the simulations and the structural causal models).
"""

from imlbench.studies.book_pdp import (  # noqa: F401  (each module registers its entries)
    ch2,
    ch3_bike,
    ch3_gap,
    ch4,
    statistics,
)
