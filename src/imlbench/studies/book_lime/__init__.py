"""The LMU book "Limitations of Interpretable Machine Learning Methods" (Molnar et al., eds.,
2019), chapters 12-14: LIME, the kernel width of its neighbourhood, and its sampling.

One module per part registers the study's own entries (statistics for ``contrast`` claims,
claim kinds, data methods; the sweeps of ch. 14 need none: their claims are the layer's
:mod:`imlbench.metrics.lime_claims`); the figure functions are in :mod:`.figures`. LIME itself
is the layer's ``lime`` method, the black boxes are the layer's learners (``mars`` among them)
and the data the layer's formula and table DGPs.
"""

from imlbench.studies.book_lime import (  # noqa: F401  (each module registers its entries)
    ch12,
    ch13,
    ch14_showcase,
)
