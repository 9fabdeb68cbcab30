"""The toy DGP behind the bias / variance / Monte Carlo illustration of Molnar et al. (2023),
"Relating the partial dependence plot and permutation feature importance to the data
generating process", Fig. 2 (Sect. 5).

``pd_pfi_dgp.pdp_uncertainty_toy``: x1 ~ U(0, 10), x2 ~ N(0, 1), x3 ~ N(0, 1), independent;
f(x) = sin(x1) + 0.5 x1 + x2 + x2 x3^2 and y = f(x) + eps, eps ~ N(0, ``noise_sd``^2)
(``noise_sd`` = 5 by default).

Its DGP-PD (Definition 1 of the paper, DGP-PD_S(z) = E_{X_C}[f(z, X_C)]) is known in closed
form for every feature, because the features are independent:

* x1: E[X2] = 0 and E[X2 X3^2] = E[X2] E[X3^2] = 0, so DGP-PD_1(z) = sin(z) + 0.5 z.
* x2: E[sin X1] = (1 - cos 10) / 10, E[0.5 X1] = 2.5, E[1 + X3^2] = 2, so
  DGP-PD_2(z) = (1 - cos 10) / 10 + 2.5 + 2 z.
* x3: E[X2] = 0 kills both terms in x2, so DGP-PD_3(z) = (1 - cos 10) / 10 + 2.5 (flat).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from imlbench.dgp.base import DGP, DGPS
from imlbench.params import number

#: E[sin(X1)] for X1 ~ U(0, 10): the integral of sin over [0, 10] divided by 10.
MEAN_SIN_X1 = (1.0 - np.cos(10.0)) / 10.0


@DGPS.register("pd_pfi_dgp.pdp_uncertainty_toy")
class PdpUncertaintyToy(DGP):
    """x1 ~ U(0, 10), x2, x3 ~ N(0, 1); y = sin(x1) + 0.5 x1 + x2 + x2 x3^2 + N(0, sd^2)."""

    names = ("x1", "x2", "x3")

    params = {"noise_sd": number(5.0, minimum=0)}

    def __init__(self, noise_sd: float = 5.0) -> None:
        self.noise_sd = float(noise_sd)

    @property
    def feature_names(self) -> list[str]:
        return list(self.names)

    def sample_features(self, n: int, rng: np.random.Generator) -> np.ndarray:
        x1 = rng.uniform(0.0, 10.0, n)
        return np.column_stack([x1, rng.standard_normal(n), rng.standard_normal(n)])

    def f(self, X: np.ndarray) -> np.ndarray:
        x1, x2, x3 = X[:, 0], X[:, 1], X[:, 2]
        return np.sin(x1) + 0.5 * x1 + x2 + x2 * x3**2

    def noise(self, n: int, rng: np.random.Generator) -> np.ndarray:
        return rng.normal(0.0, self.noise_sd, n) if self.noise_sd > 0 else np.zeros(n)

    def sample_conditional(
        self, X: np.ndarray, features: Sequence[int], rng: np.random.Generator
    ) -> np.ndarray:
        """The features are independent: a draw of ``features`` from their marginal law."""
        return self.sample_features(len(X), rng)[:, list(features)]

    def dgp_pd(self, feature: str, z: np.ndarray) -> np.ndarray:
        """DGP-PD of ``feature`` at the values ``z`` (closed forms in the module doc)."""
        z = np.asarray(z, dtype=float)
        if feature == "x1":
            return np.sin(z) + 0.5 * z
        if feature == "x2":
            return MEAN_SIN_X1 + 2.5 + 2.0 * z
        if feature == "x3":
            return np.full(z.shape, MEAN_SIN_X1 + 2.5)
        raise KeyError(f"feature {feature!r} is not one of {', '.join(self.names)}")
