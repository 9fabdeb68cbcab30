"""The simulation DGPs of Molnar et al., "Relating the partial dependence plot and permutation
feature importance to the data generating process" (2023), Sect. 8.

Features are independent U(0, 1); y = f(x) + eps with eps ~ N(0, 1):

- ``linear``: f(x) = x1 - x2 (two features);
- ``nonlinear``: f(x) = x1 - sqrt(1 + s x2) + x3 x4 + (x4 / 10)^2 (four features), where the
  paper's text has s = -1 and the authors' code s = +1 (``sign``).

With independent features the conditional law of a feature block is its marginal, so
``sample_conditional`` draws fresh uniforms. :meth:`PdPfiSimulation.dgp_pd` and
:meth:`PdPfiSimulation.dgp_pfi` are the closed forms of the paper's DGP-PD (Definition 1)
and DGP-PFI under squared loss (Definition 2; App. F: E[(f(X) - f(X~_j, X_-j))^2]).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from imlbench.dgp.base import DGP, DGPS
from imlbench.params import choice, number

FORMS = ("linear", "nonlinear")


@DGPS.register("pd_pfi_dgp.simulation")
class PdPfiSimulation(DGP):
    #: ``sign``: -1 as the paper's text, 1 as the authors' code
    params = {"form": choice("linear", FORMS), "sign": choice(-1, (-1, 1)),
              "noise_sd": number(1.0, minimum=0)}

    def __init__(self, form: str = "linear", sign: int = -1, noise_sd: float = 1.0) -> None:
        self.form, self.sign, self.noise_sd = form, int(sign), float(noise_sd)

    @property
    def feature_names(self) -> list[str]:
        return ["x1", "x2"] if self.form == "linear" else ["x1", "x2", "x3", "x4"]

    def sample_features(self, n: int, rng: np.random.Generator) -> np.ndarray:
        return rng.uniform(0.0, 1.0, (n, len(self.feature_names)))

    def f(self, X: np.ndarray) -> np.ndarray:
        if self.form == "linear":
            return X[:, 0] - X[:, 1]
        return (X[:, 0] - np.sqrt(1.0 + self.sign * X[:, 1]) + X[:, 2] * X[:, 3]
                + (X[:, 3] / 10.0) ** 2)

    def noise(self, n: int, rng: np.random.Generator) -> np.ndarray:
        return rng.normal(0.0, self.noise_sd, n)

    def sample_conditional(
        self, X: np.ndarray, features: Sequence[int], rng: np.random.Generator
    ) -> np.ndarray:
        return rng.uniform(0.0, 1.0, (len(X), len(features)))

    def _sqrt_moments(self) -> tuple[float, float]:
        """E and Var of sqrt(1 + s U), U ~ U(0, 1): E = (2/3) |(1 + s)^{3/2} - 1|, E of the
        square = 1 + s / 2."""
        mean = 2.0 / 3.0 * abs((1.0 + self.sign) ** 1.5 - 1.0)
        return mean, 1.0 + self.sign / 2.0 - mean**2

    def dgp_pd(self, j: int, x: np.ndarray) -> np.ndarray:
        """DGP-PD_j(x) = E_{X_-j}[f(x, X_-j)] (Definition 1), for U(0, 1) features."""
        x = np.asarray(x, dtype=float)
        if self.form == "linear":
            return x - 0.5 if j == 0 else 0.5 - x
        e_sqrt, _ = self._sqrt_moments()
        e_sq4 = 1.0 / 300.0  # E[(U / 10)^2]
        parts = {0: x - e_sqrt + 0.25 + e_sq4,
                 1: 0.5 - np.sqrt(1.0 + self.sign * x) + 0.25 + e_sq4,
                 2: 0.5 - e_sqrt + x / 2.0 + e_sq4,
                 3: 0.5 - e_sqrt + x / 2.0 + (x / 10.0) ** 2}
        return parts[j]

    def dgp_pfi(self, j: int) -> float:
        """DGP-PFI_j = E[(f(X) - f(X~_j, X_-j))^2] = 2 Var_{X_j}(f | X_-j) averaged over
        X_-j, for independent features (App. F, squared loss)."""
        var_u = 1.0 / 12.0
        if self.form == "linear" or j == 0:
            return 2.0 * var_u
        if j == 1:
            return 2.0 * self._sqrt_moments()[1]
        if j == 2:
            return 2.0 * var_u * (1.0 / 3.0)  # Var(x3 x4 | x4) = x4^2 / 12, E x4^2 = 1/3
        # x4 enters as x3 x4 + x4^2 / 100: Var over x4 of (x3 x4 + x4^2 / 100), averaged over x3
        e_x3, e_x3sq = 0.5, 1.0 / 3.0
        m1, m2, m3, m4 = 0.5, 1.0 / 3.0, 0.25, 0.2  # moments of U
        second = e_x3sq * m2 + 2 * e_x3 * m3 / 100.0 + m4 / 1e4
        first_sq = e_x3sq * m1**2 + 2 * e_x3 * m1 * m2 / 100.0 + m2**2 / 1e4
        return 2.0 * (second - first_sq)
