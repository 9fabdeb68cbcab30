"""Linear model on uniform features with a Gaussian copula between x1 and x2.

Hooker, Mentch & Zhou (2021), eq. (2): y = sum_j beta_j x_j + eps with every x_j
marginally Uniform[0, 1], all independent except (x1, x2), which are joined by a
Gaussian copula with parameter rho: (z1, z2) ~ N(0, [[1, rho], [rho, 1]]),
x_k = Phi(z_k). The exact conditional law of x1 given x2 is
x1 = Phi(rho z2 + sqrt(1 - rho^2) u), u ~ N(0, 1), and symmetrically for x2.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy.special import ndtr, ndtri

from imlbench.dgp.base import DGP, DGPS, GaussianNoise
from imlbench.params import ParamError, items, number


@DGPS.register("extrapolation.copula_linear")
class CopulaLinear(GaussianNoise, DGP):
    """eq. (2) of Hooker et al. (2021); ``beta`` sets the number of features."""

    params = {"beta": items(number()), "rho": number(above=-1, below=1),
              "noise_sd": number(minimum=0)}

    def __init__(self, beta: Sequence[float], rho: float, noise_sd: float) -> None:
        if len(beta) < 2:
            raise ParamError("beta", f"{beta!r} has {len(beta)} items; allowed: a list of at "
                                     f"least two coefficients (x1 and x2)")
        self.beta = np.asarray(beta, dtype=float)
        self.rho = float(rho)
        self.noise_sd = float(noise_sd)

    @property
    def p(self) -> int:
        return len(self.beta)

    @property
    def feature_names(self) -> list[str]:
        return [f"x{j + 1}" for j in range(self.p)]

    def sample_features(self, n: int, rng: np.random.Generator) -> np.ndarray:
        z1 = rng.standard_normal(n)
        z2 = self.rho * z1 + np.sqrt(1.0 - self.rho**2) * rng.standard_normal(n)
        X = rng.uniform(size=(n, self.p))
        X[:, 0] = ndtr(z1)
        X[:, 1] = ndtr(z2)
        return X

    def f(self, X: np.ndarray) -> np.ndarray:
        return X @ self.beta

    def sample_conditional(
        self, X: np.ndarray, features: Sequence[int], rng: np.random.Generator
    ) -> np.ndarray:
        features = list(features)
        n = len(X)
        out = np.empty((n, len(features)))
        if 0 in features and 1 in features:  # the pair is independent of the rest
            pair = self.sample_features(n, rng)[:, :2]
        for k, j in enumerate(features):
            if j in (0, 1) and (1 - j) in features:
                out[:, k] = pair[:, j]
            elif j in (0, 1):
                z_other = ndtri(np.clip(X[:, 1 - j], 1e-12, 1 - 1e-12))
                s = np.sqrt(1.0 - self.rho**2)
                out[:, k] = ndtr(self.rho * z_other + s * rng.standard_normal(n))
            else:
                out[:, k] = rng.uniform(size=n)
        return out

    def conditional_band(self, j: int, x_other: np.ndarray, width: float = 2.0) -> np.ndarray:
        """The interval Phi(rho z +- width sqrt(1 - rho^2)) of x_j given the other copula feature.

        Returns shape ``(len(x_other), 2)``: the range of x_j within ``width`` conditional
        standard deviations on the Gaussian scale (the solid ICE segments of Figs. 3 and 6).
        """
        if j not in (0, 1):
            return np.tile([0.0, 1.0], (len(x_other), 1))
        z = ndtri(np.clip(x_other, 1e-12, 1 - 1e-12))
        s = np.sqrt(1.0 - self.rho**2)
        return np.column_stack([ndtr(self.rho * z - width * s), ndtr(self.rho * z + width * s)])

    def reference_rows(self, k: int, rng: np.random.Generator) -> np.ndarray:
        """k reference observations with x1 = x2 = (i - 1)/(k - 1), the rest drawn once."""
        R = rng.uniform(size=(k, self.p))
        R[:, 0] = R[:, 1] = np.linspace(0.0, 1.0, k)
        return R
