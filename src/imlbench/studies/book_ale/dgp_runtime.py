"""The run-time data sets of the book's ch. 6 (its ``get_numeric_sampling``).

``features`` = p columns: p - 2 numeric ones V2, ..., V(p-1), each N(mean, sd) with mean ~
U(0, 100) and sd ~ U(5, 10) drawn per data set (:meth:`RuntimeTable.realize`), then
``multi_fact``, the codes 0..9 recycled along the rows (10 levels), and ``V_bin``, Bernoulli(q)
with q ~ U(0, 1) per data set. The target recycles 1..p along the rows, unrelated to the
features, as in the book's code: the data sets only serve to time explanation methods, so
there is no truth.
"""

from __future__ import annotations

import copy

import numpy as np
import pandas as pd

from imlbench.dgp.base import DGP, DGPS
from imlbench.params import integer

LEVELS = 10


@DGPS.register("book_ale.runtime")
class RuntimeTable(DGP):
    """See the module doc."""

    has_truth = False
    categorical = ("multi_fact", "V_bin")

    params = {"features": integer(5, minimum=4)}

    def __init__(self, features: int = 5) -> None:
        self.p = int(features)
        self.means = self.sds = np.empty(0)
        self.p_bin = 0.5

    @property
    def feature_names(self) -> list[str]:
        return [f"V{k}" for k in range(2, self.p)] + ["multi_fact", "V_bin"]

    def realize(self, rng: np.random.Generator) -> RuntimeTable:
        """The per-data-set column means, SDs and Bernoulli probability."""
        k = self.p - 2
        out = copy.copy(self)
        out.means, out.sds, out.p_bin = rng.uniform(0, 100, k), rng.uniform(5, 10, k), \
            rng.uniform(0, 1)
        return out

    def sample_features(self, n: int, rng: np.random.Generator) -> np.ndarray:
        if len(self.means) != self.p - 2:
            raise ValueError("draw from a realized run-time table (RuntimeTable.realize)")
        numeric = rng.normal(self.means, self.sds, size=(n, self.p - 2))
        factor = np.arange(n) % LEVELS
        binary = rng.random(n) < self.p_bin
        return np.column_stack([numeric, factor, binary]).astype(float)

    def sample(self, n: int, rng: np.random.Generator) -> pd.DataFrame:
        """``n`` rows; y recycles 1..p along them."""
        df = pd.DataFrame(self.sample_features(n, rng), columns=self.feature_names)
        df["y"] = (np.arange(n) % self.p + 1).astype(float)
        return df
