"""The data generating process contract.

A DGP draws a data set, knows its regression function ``f`` when it is known,
and draws a feature block from its conditional law given the other features when
that law is known. ``realize`` fixes any structure that is random per data set
(for example which original feature a noise feature is correlated with); the
data stage and every later stage realize the DGP from the same seed stream.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from imlbench.params import check, items, number
from imlbench.registry import Registry


class DGP:
    """Base class: a distribution of (x, y) with optional known truths."""

    #: whether ``f`` is known (simulations) or not (real data).
    has_truth: bool = True

    @property
    def has_conditional(self) -> bool:
        """Whether :meth:`sample_conditional` draws from the known conditional law (by
        default: whether the class defines it)."""
        return type(self).sample_conditional is not DGP.sample_conditional

    @property
    def feature_names(self) -> list[str]:
        raise NotImplementedError

    def realize(self, rng: np.random.Generator) -> DGP:
        """This DGP with its per-data-set random structure fixed (default: none)."""
        return self

    def sample_features(self, n: int, rng: np.random.Generator) -> np.ndarray:
        raise NotImplementedError

    def f(self, X: np.ndarray) -> np.ndarray:
        """The regression function E(y | x)."""
        raise NotImplementedError(f"{type(self).__name__} has no known regression function")

    def noise(self, n: int, rng: np.random.Generator) -> np.ndarray:
        raise NotImplementedError

    def sample(self, n: int, rng: np.random.Generator) -> pd.DataFrame:
        """Draw ``n`` rows: the features (named by ``feature_names``) and ``y``."""
        X = self.sample_features(n, rng)
        y = self.f(X) + self.noise(n, rng)
        df = pd.DataFrame(X, columns=self.feature_names)
        df["y"] = y
        return df

    def sample_conditional(
        self, X: np.ndarray, features: Sequence[int], rng: np.random.Generator
    ) -> np.ndarray:
        """Draw columns ``features`` from their joint law given the other columns of ``X``.

        Returns an array of shape ``(len(X), len(features))``.
        """
        raise NotImplementedError(f"{type(self).__name__} has no known conditional sampler")


class GaussianNoise:
    """Mixin of a DGP whose noise is additive N(0, noise_sd²), drawn for all rows in one call
    (also when noise_sd is 0, so that the random stream does not depend on it)."""

    noise_sd: float

    def noise(self, n: int, rng: np.random.Generator) -> np.ndarray:
        return rng.normal(0.0, self.noise_sd, size=n)


DGPS: Registry[type[DGP]] = Registry("DGP", providers=("imlbench.dgp.effect_examples",
                                                        "imlbench.dgp.formula",
                                                        "imlbench.dgp.table",
                                                        "imlbench.dgp.bikeshare",
                                                        "imlbench.dgp.titanic"))


def check_numbers(value: Any, key: str, *, length: int | None = None) -> None:
    """Raise :class:`~imlbench.params.ParamError` unless ``value``, a vector parameter of a DGP
    (a list from a study file, or an array from Python code), holds numbers only."""
    check(items(number(), length=length), value.tolist() if isinstance(value, np.ndarray)
          else value, key)


def make_dgp(name: str, params: dict) -> DGP:
    """Build the registered DGP ``name`` from its study-file parameters."""
    return DGPS.get(name)(**params)
