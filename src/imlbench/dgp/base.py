"""The data generating process contract.

A DGP draws a data set, knows its regression function ``f`` when it is known,
and draws a feature block from its conditional law given the other features when
that law is known; it gives the quantiles of each feature's marginal law (exact when it
knows them, else from a fixed Monte Carlo sample). ``realize`` fixes any structure that is
random per data set (for example which original feature a noise feature is correlated with);
the data stage and every later stage realize the DGP from the same seed stream.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from imlbench.params import Param, ParamError, check_all
from imlbench.registry import Registry

#: rows drawn by the default :meth:`DGP.marginal_quantiles`, from a generator of seed
#: :data:`QUANTILE_SEED` (not the run's, so that every job gets the same quantiles)
QUANTILE_ROWS = 200_000
QUANTILE_SEED = 0
#: the default probabilities of the first and last of a grid at the quantiles of a law
LAW_PROBS = (0.0001, 0.9999)


def quantile_probabilities(probs: np.ndarray) -> np.ndarray:
    """``probs`` as an array of floats, checked to lie in the open interval (0, 1) (where every
    quantile of a law with unbounded support is finite)."""
    probs = np.asarray(probs, dtype=float)
    if not np.all((probs > 0) & (probs < 1)):
        raise ValueError(f"probabilities {probs!r}; allowed: numbers in (0, 1)")
    return probs


class DGP:
    """Base class: a distribution of (x, y) with optional known truths."""

    #: whether ``f`` is known (simulations) or not (real data).
    has_truth: bool = True
    #: the parameters a study file may give, declared (:mod:`imlbench.params`): checked by
    #: :func:`make_dgp` before the constructor runs, whose defaults equal the declared ones;
    #: the constructor checks only what involves several parameters or the data
    params: ClassVar[Mapping[str, Param]] = {}

    @classmethod
    def declared(cls, given: Mapping[str, Any]) -> Mapping[str, Param]:
        """The declared parameters for the study file's ``given`` ones: :attr:`params`, unless
        a DGP's parameter names depend on the values given (``formula``'s constants)."""
        return cls.params

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

    def marginal_quantiles(self, j: int, probs: np.ndarray) -> np.ndarray:
        """The quantiles of the marginal law of feature j (column j of ``sample_features``) at
        the probabilities ``probs`` (each in (0, 1)), in the shape of ``probs``.

        By default an approximation: the empirical quantiles (the smallest drawn value whose
        empirical distribution function reaches p, the sample analogue of the ppf) of
        :data:`QUANTILE_ROWS` rows of ``sample_features`` drawn from a generator of seed
        :data:`QUANTILE_SEED`. The Monte Carlo standard error at p of a continuous feature is
        about sqrt(p (1 - p)) / (density(q_p) sqrt(QUANTILE_ROWS)). A DGP whose structure is
        random per data set gives those of the structure it holds (realize it first). A DGP
        that knows its marginal laws overrides this with the exact quantiles.
        """
        probs = quantile_probabilities(probs)
        if not 0 <= j < len(self.feature_names):
            raise IndexError(f"feature {j} of {len(self.feature_names)}")
        X = self.sample_features(QUANTILE_ROWS, np.random.default_rng(QUANTILE_SEED))
        return np.quantile(X[:, j], probs, method="inverted_cdf")


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


def make_dgp(name: str, params: dict) -> DGP:
    """Build the registered DGP ``name`` from its study-file parameters, checked against its
    declarations first (a :class:`~imlbench.params.ParamError` names the parameter)."""
    cls = DGPS.get(name)
    declared = cls.declared(params)
    unknown = [key for key in params if key not in declared]
    if unknown:  # keyed by the name, so that a swept one is reported at the sweep
        raise ParamError(str(unknown[0]), f"unknown parameter {unknown[0]!r} of DGP {name!r}; "
                                          f"allowed: {', '.join(declared) or 'none'}")
    check_all(declared, params)
    return cls(**params)
