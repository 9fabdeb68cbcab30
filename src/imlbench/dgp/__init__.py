"""Data generating processes, registered by name in ``DGPS``."""

from imlbench.dgp import copula_linear, gaussian_noise_features, real_data  # noqa: F401
