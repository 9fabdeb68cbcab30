"""The LMU book "Limitations of Interpretable Machine Learning Methods" (Molnar et al., eds.,
2019), chapters 5-7: accumulated local effects, ALE against PDP, the choice of intervals and
categorical features.

The study's DGP (the run-time data sets of ch. 6), its statistics for ``contrast`` claims
(:mod:`.statistics`), its exact claim kinds and figures (:mod:`.figures`).
ALE, PDP, ICE, the 2-D methods and the timing are the layers' methods; the synthetic examples
are the layer's ``ale_book_ch6``/``ale_book_ch7`` DGPs and formula DGPs; the Munich rent data
is replaced by ``modeldata/ames`` through the layer's table DGP.
"""

from imlbench.studies.book_ale import (  # noqa: F401  (each module registers its entries)
    claims,
    dgp_runtime,
    methods,
    statistics,
)
