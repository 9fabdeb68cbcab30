"""Molnar, König, Bischl & Casalicchio, "Model-agnostic feature importance and effects with
dependent features: a conditional subgroup approach", Data Mining and Knowledge Discovery
(2023).

The study's DGPs (the conditional-PFI simulation, the illustrations of Sects. 1-4, the offline
classification and regression tables), the simulation's closed-form truths, its methods (the
per-model Monte Carlo truth, the illustrations' curves and slopes, the depth sweep, the bike
application, data and model fidelity), the statistics of its ``contrast`` claims and its
claim kinds; the figures are in :mod:`.figures`. The daily bike rentals
(``bikeshare_daily``) and the windowed M-plot (``mplot_window``) are the layers'
(:mod:`imlbench.dgp.bikeshare`, :mod:`imlbench.explain.window_mplot`).
"""

from imlbench.studies.conditional_subgroups import (  # noqa: F401  (each module registers)
    claims_bike,
    claims_data_fidelity,
    claims_illustrations,
    claims_model_fidelity,
    claims_simulation,
    dgp_classification_tables,
    dgp_illustrations,
    dgp_regression_tables,
    dgp_simulation,
    methods_bike,
    methods_data_fidelity,
    methods_depth,
    methods_illustrations,
    methods_model_fidelity,
    methods_simulation,
    statistics,
    truth,
)
