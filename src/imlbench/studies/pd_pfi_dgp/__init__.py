"""Molnar, Freiesleben, König, Herbinger, Reisinger, Casalicchio, Wright & Bischl, "Relating
the partial dependence plot and permutation feature importance to the data generating
process", xAI 2023.

The study's DGPs (the toy of Sect. 5, the coverage simulation of Sect. 8, the application's
data), the toy's closed-form DGP-PD, its methods (the per-refit values of the coverage
simulation with their coverage summary, the toy's model-PD uncertainty, the application's
learner- and model-level intervals), the statistics its ``contrast`` claims name and its claim
kinds; the figures are in :mod:`.figures`.
"""

from imlbench.studies.pd_pfi_dgp import (  # noqa: F401  (each module registers its entries)
    claims_application,
    claims_coverage,
    claims_toy,
    dgp_application,
    dgp_simulation,
    dgp_toy,
    methods_application,
    methods_refits,
    methods_toy,
    statistics,
    truth,
)
