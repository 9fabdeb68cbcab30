"""The small data sets behind the illustrative Figs. 1-6 of Molnar et al. (conditional
subgroups, Sects. 1-4).

``conditional_subgroups.triangle``
    Fig. 1: x1 ~ U(0, 1), x2 | x1 ~ U(0, 1 - x1); f = exp(x1 + x2), y = f (the figure shows a known
    model, no target).
``conditional_subgroups.collinear``
    Fig. 2: x1 ~ N(0, 1), x2 = x1 + N(0, ``sd2``^2), x3 ~ N(0, 1); f = b1 x1 + b2 x2 + b3 x3
    (``beta``, the paper's 1, -0.1, 1), y = f + N(0, ``noise_sd``^2). corr(x1, x2) = 1 / sqrt(1 +
    sd2^2).
``conditional_subgroups.mixture``
    Fig. 3: x2 ~ U(0, 1); x1 | x2 ~ N(0, 1) if x2 < ``cut`` (0.5), else N(``mean_high``,
    ``sd_high``^2) (4 and 4); no model (y = 0).
``conditional_subgroups.bivariate_normal``
    Fig. 4: (x1, x2) standard normal with covariance ``cov``; y = 0.
``conditional_subgroups.rounded_linear``
    Fig. 5: x1 ~ N(0, 1), x2 | x1 ~ N(x1, 1), y = x1 + N(0, 1), every value rounded to ``decimals``
    (2); f = x1. corr(x1, x2) = 1/sqrt(2).
``conditional_subgroups.gamma_log``
    Fig. 6: x ~ Gamma(shape ``shape``, scale 1); f = log(x) + 4.5, y = f.

Every conditional law is known and drawn exactly, except for the rounded Fig. 5 data, whose
law given a rounded value has no closed form (it has no ``sample_conditional``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from imlbench.dgp.base import DGP, DGPS
from imlbench.params import integer, items, number

if TYPE_CHECKING:
    import pandas as pd


def gaussian_conditional(
    X: np.ndarray, features: Sequence[int], cov: np.ndarray, rng: np.random.Generator
) -> np.ndarray:
    """Draw columns ``features`` of a centred normal vector with covariance ``cov`` given the
    other columns of ``X``: mean S_fo S_oo^-1 x_o, covariance S_ff - S_fo S_oo^-1 S_of."""
    f = list(features)
    o = [m for m in range(cov.shape[0]) if m not in f]
    S_ff = cov[np.ix_(f, f)]
    if o:
        coef = np.linalg.solve(cov[np.ix_(o, o)], cov[np.ix_(o, f)])  # (|o|, |f|)
        mean = X[:, o] @ coef
        S_ff = S_ff - cov[np.ix_(f, o)] @ coef
    else:
        mean = np.zeros((len(X), len(f)))
    chol = np.linalg.cholesky(S_ff)
    return mean + rng.standard_normal((len(X), len(f))) @ chol.T


class _Illustration(DGP):
    """Named features and Gaussian noise of sd ``noise_sd`` (0: y = f)."""

    names: tuple[str, ...] = ()
    noise_sd: float = 0.0

    @property
    def feature_names(self) -> list[str]:
        return list(self.names)

    def noise(self, n: int, rng: np.random.Generator) -> np.ndarray:
        return rng.normal(0.0, self.noise_sd, n) if self.noise_sd > 0 else np.zeros(n)


class _Gaussian(_Illustration):
    """Centred normal features with covariance ``cov``; exact conditional draws."""

    cov: np.ndarray

    def sample_features(self, n: int, rng: np.random.Generator) -> np.ndarray:
        return rng.standard_normal((n, len(self.cov))) @ np.linalg.cholesky(self.cov).T

    def sample_conditional(
        self, X: np.ndarray, features: Sequence[int], rng: np.random.Generator
    ) -> np.ndarray:
        return gaussian_conditional(X, features, self.cov, rng)


@DGPS.register("conditional_subgroups.triangle")
class Triangle(_Illustration):
    names = ("x1", "x2")

    def sample_features(self, n: int, rng: np.random.Generator) -> np.ndarray:
        x1 = rng.uniform(0.0, 1.0, n)
        return np.column_stack([x1, (1.0 - x1) * rng.uniform(0.0, 1.0, n)])

    def f(self, X: np.ndarray) -> np.ndarray:
        return np.exp(X[:, 0] + X[:, 1])

    def sample_conditional(
        self, X: np.ndarray, features: Sequence[int], rng: np.random.Generator
    ) -> np.ndarray:
        """x2 | x1 ~ U(0, 1 - x1); x1 | x2 has density 1 / ((1 - x1) (-log x2)) on
        (0, 1 - x2), drawn by inversion: x1 = 1 - x2^u, u ~ U(0, 1)."""
        f = sorted(features)
        u = rng.uniform(0.0, 1.0, len(X))
        if f == [0, 1]:
            return self.sample_features(len(X), rng)
        if f == [1]:
            return ((1.0 - X[:, 0]) * u)[:, None]
        if f == [0]:
            return (1.0 - X[:, 1] ** u)[:, None]
        raise ValueError(f"features {features} are not a subset of the two columns")


@DGPS.register("conditional_subgroups.collinear")
class Collinear(_Gaussian):
    names = ("x1", "x2", "x3")

    params = {"sd2": number(0.2, above=0), "beta": items(number(), (1.0, -0.1, 1.0), length=3),
              "noise_sd": number(0.0, minimum=0)}

    def __init__(self, sd2: float = 0.2, beta: Sequence[float] = (1.0, -0.1, 1.0),
                 noise_sd: float = 0.0) -> None:
        self.sd2, self.noise_sd = float(sd2), float(noise_sd)
        self.beta = np.asarray(beta, dtype=float)
        self.cov = np.array([[1.0, 1.0, 0.0], [1.0, 1.0 + self.sd2**2, 0.0], [0.0, 0.0, 1.0]])

    def f(self, X: np.ndarray) -> np.ndarray:
        return X @ self.beta


@DGPS.register("conditional_subgroups.mixture")
class Mixture(_Illustration):
    names = ("x1", "x2")

    params = {"cut": number(0.5, above=0, below=1), "mean_high": number(4.0),
              "sd_high": number(4.0, above=0)}

    def __init__(self, cut: float = 0.5, mean_high: float = 4.0, sd_high: float = 4.0) -> None:
        self.cut, self.mean_high, self.sd_high = float(cut), float(mean_high), float(sd_high)

    def _x1_given(self, x2: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        high = x2 >= self.cut
        sd = np.where(high, self.sd_high, 1.0)
        return np.where(high, self.mean_high, 0.0) + sd * rng.standard_normal(len(x2))

    def sample_features(self, n: int, rng: np.random.Generator) -> np.ndarray:
        x2 = rng.uniform(0.0, 1.0, n)
        return np.column_stack([self._x1_given(x2, rng), x2])

    def f(self, X: np.ndarray) -> np.ndarray:
        return np.zeros(len(X))

    def sample_conditional(
        self, X: np.ndarray, features: Sequence[int], rng: np.random.Generator
    ) -> np.ndarray:
        """x1 | x2 is the normal of x2's half; x2 | x1 is uniform on the half picked with
        probability proportional to its mass times the normal density of x1 there."""
        f = sorted(features)
        if f == [0, 1]:
            return self.sample_features(len(X), rng)
        if f == [0]:
            return self._x1_given(X[:, 1], rng)[:, None]
        if f != [1]:
            raise ValueError(f"features {features} are not a subset of the two columns")
        from scipy.stats import norm

        x1 = X[:, 0]
        low = self.cut * norm.pdf(x1)
        high = (1.0 - self.cut) * norm.pdf(x1, self.mean_high, self.sd_high)
        pick_low = rng.uniform(0.0, 1.0, len(X)) < low / (low + high)
        u = rng.uniform(0.0, 1.0, len(X))
        return np.where(pick_low, self.cut * u, self.cut + (1.0 - self.cut) * u)[:, None]


@DGPS.register("conditional_subgroups.bivariate_normal")
class BivariateNormal(_Gaussian):
    names = ("x1", "x2")

    params = {"cov": number(0.9, above=-1, below=1)}  # unit variances

    def __init__(self, cov: float = 0.9) -> None:
        self.cov = np.array([[1.0, cov], [cov, 1.0]])

    def f(self, X: np.ndarray) -> np.ndarray:
        return np.zeros(len(X))


@DGPS.register("conditional_subgroups.rounded_linear")
class RoundedLinear(_Illustration):
    names = ("x1", "x2")
    noise_sd = 1.0

    params = {"decimals": integer(2, minimum=0)}

    def __init__(self, decimals: int = 2) -> None:
        self.decimals = int(decimals)

    def sample_features(self, n: int, rng: np.random.Generator) -> np.ndarray:
        x1 = rng.standard_normal(n)
        return np.column_stack([x1, x1 + rng.standard_normal(n)])

    def f(self, X: np.ndarray) -> np.ndarray:
        return X[:, 0].copy()

    def sample(self, n: int, rng: np.random.Generator) -> pd.DataFrame:
        """Features and y = x1 + eps drawn unrounded, then every value rounded."""
        return super().sample(n, rng).round(self.decimals)


@DGPS.register("conditional_subgroups.gamma_log")
class GammaLog(_Illustration):
    names = ("x",)

    params = {"shape": number(1.0, above=0), "offset": number(4.5)}

    def __init__(self, shape: float = 1.0, offset: float = 4.5) -> None:
        self.shape, self.offset = float(shape), float(offset)

    def sample_features(self, n: int, rng: np.random.Generator) -> np.ndarray:
        return rng.gamma(self.shape, 1.0, (n, 1))

    def f(self, X: np.ndarray) -> np.ndarray:
        return np.log(X[:, 0]) + self.offset

    def sample_conditional(
        self, X: np.ndarray, features: Sequence[int], rng: np.random.Generator
    ) -> np.ndarray:
        """One feature: its conditional law is its marginal."""
        if list(features) != [0]:
            raise ValueError(f"features {features} are not the single column")
        return self.sample_features(len(X), rng)
