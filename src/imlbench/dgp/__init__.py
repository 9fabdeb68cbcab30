"""Data generating processes, registered by name in ``DGPS``."""

from imlbench.dgp import (  # noqa: F401
    bike_daily,
    classification_tables,
    conditional_subgroups,
    copula_linear,
    effect_examples,
    gaussian_noise_features,
    illustrations,
    pd_pfi_simulation,
    pd_uncertainty_toy,
    pdpfi_application,
    real_data,
    regression_tables,
)
