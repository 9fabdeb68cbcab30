"""Parr & Wilson (2021), "Partial dependence through stratification", Machine Learning with
Applications 6, 100146 (technical report of April 2020).

The study's DGPs (the synthetic weather data of Fig. 5; offline substitutes for the rent,
bulldozer and flight tables of Figs. 1 and 8-10, with loaders of the original files), their
truths and its method (the strata of the schematic, Fig. 2); the figures are in :mod:`.figures`.
Its claims are the layers' kinds and ``contrast`` claims on the layer's statistics. StratPD,
CatStratPD, PD, ICE, ALE and SHAP are the layers' methods.
"""

from imlbench.studies.stratpd import (  # noqa: F401  (each module registers its entries)
    dgp_tables,
    dgp_weather,
    methods,
)
