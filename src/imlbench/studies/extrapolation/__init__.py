"""Hooker, Mentch & Zhou (2021), "Unrestricted permutation forces extrapolation: variable
importance requires at least one more model, or there is no free variable importance",
Statistics and Computing 31:82.

The study's DGPs (the linear model on copula-joined uniforms, eq. 2; Gaussian features with
conditionally null noise features, Sect. 5; the hourly bike rentals, Fig. 9), their closed-form
truths, its methods (permuted query points, leaf rectangles, the substitute test, Theorems 1
and 3), the statistics its ``contrast`` claims read (curves, surfaces, ICE errors, importances)
and its claim kind on rejection rates; the figures are in :mod:`.figures`.
"""

from imlbench.studies.extrapolation import (  # noqa: F401  (each module registers its entries)
    claims,
    dgp_bike,
    dgp_copula,
    dgp_noise_features,
    methods,
    statistics,
    truth,
)
