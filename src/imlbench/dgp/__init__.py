"""Data generating processes, registered by name in ``DGPS``."""

from imlbench.dgp import (  # noqa: F401
    conditional_subgroups,
    copula_linear,
    effect_examples,
    gaussian_noise_features,
    real_data,
)
