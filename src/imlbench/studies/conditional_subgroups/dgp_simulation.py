"""The conditional-PFI simulation of Molnar et al. (conditional subgroups, Sect. 6).

y = x1 x2 + sum_{j<=10} x_j + eps, eps ~ N(0, noise_sd); x2..xp i.i.d. N(0, 1) (p >= 10;
x11..xp are noise) and x1 = g(x_-1) + e with

``independent``  g = 0, e ~ N(0, 1);
``linear``       g = x2, e ~ N(0, 1);
``nonlinear``    mean 3, sd 1 where x2 > 0; mean -3, sd 2 where x2 <= 0 < x3; mean 0, sd 5
                 where x2 <= 0 and x3 <= 0;
``multilinear``  g = x2 + ... + x10, e ~ N(0, 5^2).

The exact conditional law of x1 given the other features is this g and e.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from imlbench.dgp.base import DGP, DGPS, GaussianNoise
from imlbench.params import choice, integer, number

SCENARIOS = ("independent", "linear", "nonlinear", "multilinear")


@DGPS.register("conditional_subgroups.simulation")
class ConditionalSubgroupsSimulation(GaussianNoise, DGP):
    params = {"scenario": choice("linear", SCENARIOS),
              "p": integer(10, minimum=10),  # f uses x1..x10
              "noise_sd": number(1.0, minimum=0)}

    def __init__(self, scenario: str = "linear", p: int = 10, noise_sd: float = 1.0) -> None:
        self.scenario, self.p, self.noise_sd = scenario, int(p), float(noise_sd)

    @property
    def feature_names(self) -> list[str]:
        return [f"x{j + 1}" for j in range(self.p)]

    def conditional_moments(self, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Mean and SD of x1 given the other columns of ``X``."""
        x2, x3 = X[:, 1], X[:, 2]
        if self.scenario == "independent":
            return np.zeros(len(X)), np.ones(len(X))
        if self.scenario == "linear":
            return x2.copy(), np.ones(len(X))
        if self.scenario == "multilinear":
            return X[:, 1:10].sum(axis=1), np.full(len(X), 5.0)
        pos = x2 > 0
        mean = np.where(pos, 3.0, np.where(x3 > 0, -3.0, 0.0))
        sd = np.where(pos, 1.0, np.where(x3 > 0, 2.0, 5.0))
        return mean, sd

    def sample_features(self, n: int, rng: np.random.Generator) -> np.ndarray:
        X = rng.standard_normal((n, self.p))
        mean, sd = self.conditional_moments(X)
        X[:, 0] = mean + sd * rng.standard_normal(n)
        return X

    def f(self, X: np.ndarray) -> np.ndarray:
        return X[:, 0] * X[:, 1] + X[:, :10].sum(axis=1)

    def sample_conditional(
        self, X: np.ndarray, features: Sequence[int], rng: np.random.Generator
    ) -> np.ndarray:
        if list(features) != [0] and self.scenario != "independent":
            raise NotImplementedError("the exact conditional law is known for x1 only")
        out = rng.standard_normal((len(X), len(features)))
        for k, j in enumerate(features):
            if j == 0:
                mean, sd = self.conditional_moments(X)
                out[:, k] = mean + sd * out[:, k]
        return out
