"""Gaussian AR(1) features plus correlated, conditionally null noise features.

Hooker, Mentch & Zhou (2021), Sect. 5 (Fig. 8): x ~ N(0, Sigma) with
Sigma_ij = rho^|i-j| on the original features, y = x' beta + eps with sigma set
so that var(x' beta) / sigma^2 equals ``snr``, and q noise features
w_k = c x_{a_k} + sqrt(1 - c^2) e_k, each tied to an original feature a_k drawn
uniformly at random per data set (c = 0.7 in the paper). Given x, the w_k are
independent of y, with the exact conditional law w_k | x ~ N(c x_{a_k}, 1 - c^2).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from imlbench.dgp.base import DGP, DGPS, GaussianNoise
from imlbench.params import integer, items, number


@DGPS.register("extrapolation.gaussian_noise_features")
class GaussianNoiseFeatures(GaussianNoise, DGP):
    #: (``anchors``, the original feature each noise feature follows, is drawn per data set
    #: by :meth:`realize`: no study-file parameter)
    params = {"beta": items(number()), "rho": number(minimum=0, below=1),
              "snr": number(above=0), "q": integer(minimum=1),
              "noise_corr": number(0.7, minimum=0, below=1)}

    def __init__(
        self,
        beta: Sequence[float],
        rho: float,
        snr: float,
        q: int,
        noise_corr: float = 0.7,
        anchors: Sequence[int] | None = None,
    ) -> None:
        self.beta = np.asarray(beta, dtype=float)
        self.rho = float(rho)
        self.snr = float(snr)
        self.q = int(q)
        self.noise_corr = float(noise_corr)
        self.anchors = None if anchors is None else np.asarray(anchors, dtype=int)
        p = len(self.beta)
        idx = np.arange(p)
        self.sigma_x = self.rho ** np.abs(idx[:, None] - idx[None, :])
        self.noise_sd = float(np.sqrt(self.beta @ self.sigma_x @ self.beta / self.snr))

    @property
    def p(self) -> int:
        return len(self.beta)

    @property
    def feature_names(self) -> list[str]:
        return [f"x{j + 1}" for j in range(self.p)] + [f"w{k + 1}" for k in range(self.q)]

    @property
    def noise_features(self) -> list[int]:
        """Column indices of the conditionally null noise features."""
        return list(range(self.p, self.p + self.q))

    def realize(self, rng: np.random.Generator) -> GaussianNoiseFeatures:
        anchors = rng.integers(0, self.p, size=self.q)
        return GaussianNoiseFeatures(
            self.beta, self.rho, self.snr, self.q, self.noise_corr, anchors=anchors
        )

    def _anchors(self) -> np.ndarray:
        if self.anchors is None:
            raise RuntimeError("realize() the DGP before sampling: the anchors are per data set")
        return self.anchors

    def sample_features(self, n: int, rng: np.random.Generator) -> np.ndarray:
        chol = np.linalg.cholesky(self.sigma_x)
        x = rng.standard_normal((n, self.p)) @ chol.T
        c = self.noise_corr
        w = c * x[:, self._anchors()] + np.sqrt(1 - c**2) * rng.standard_normal((n, self.q))
        return np.hstack([x, w])

    def covariance(self) -> np.ndarray:
        """The exact covariance matrix of (x, w)."""
        a = self._anchors()
        c = self.noise_corr
        cov_xw = c * self.sigma_x[:, a]
        cov_ww = c**2 * self.sigma_x[np.ix_(a, a)]
        np.fill_diagonal(cov_ww, 1.0)
        return np.block([[self.sigma_x, cov_xw], [cov_xw.T, cov_ww]])

    def f(self, X: np.ndarray) -> np.ndarray:
        return X[:, : self.p] @ self.beta

    def sample_conditional(
        self, X: np.ndarray, features: Sequence[int], rng: np.random.Generator
    ) -> np.ndarray:
        features = list(features)
        if not set(features) <= set(self.noise_features):
            raise NotImplementedError("the exact conditional is known for noise features only")
        a = self._anchors()[[j - self.p for j in features]]
        c = self.noise_corr
        return c * X[:, a] + np.sqrt(1 - c**2) * rng.standard_normal((len(X), len(features)))
