"""The LMU book "Limitations of Interpretable Machine Learning Methods" (Molnar et al., eds.,
2019), chapters 8-11: permutation importance and LOCO, correlated features, partial and
individual importance, training against test data.

One module per part registers the study's own entries (statistics for ``contrast`` claims,
claim kinds, data methods); the figure functions are in :mod:`.figures`. PFI, LOCO, ICI and
the model fit are the layers' methods; the data are the layer's table DGPs (Boston, bike days,
employee attrition) and formula DGPs (the simulations).
"""

from imlbench.studies.book_importance import (  # noqa: F401  (each module registers its entries)
    ch8_boston,
    ch9_sim,
    ch10,
    ch11,
)
