"""Closed-form truths of the copula linear model (Hooker, Mentch & Zhou 2021, eq. 2).

* Importance (population versions of Theorems 1 and 3, squared loss):
  marginal (permute-and-predict) VI_j = 2 beta_j^2 var(x_j), with var(x_j) = 1/12;
  conditional VI_j = 2 beta_j^2 E var(x_j | x_-j). For x1 given x2 under the Gaussian
  copula, with m = rho z2 and s^2 = 1 - rho^2, E(x1 | z2) = Phi(m / sqrt(1 + s^2)) and
  E(x1^2 | z2) = Phi_2(a, a; s^2 / (1 + s^2)), a = m / sqrt(1 + s^2) (the bivariate
  normal CDF), integrated over z2 ~ N(0, 1) by Gauss-Hermite quadrature (estimands
  pfi_marginal, pfi_conditional). Their theoretical ranks are computed where they are read
  (:func:`imlbench.metrics.ranks.truth_ranks`).
* Effects: the PD of feature j, beta_j x + sum_{k != j} beta_k / 2; the conditional
  expectation E(f | x_j = x) (for the copula pair, E(x2 | x1) = Phi(rho z1 / sqrt(2 - rho^2)));
  ICE of the reference rows, beta_j x + sum_{k != j} beta_k r_k, with the interval of
  x_j within two conditional standard deviations of its copula partner (``lo``, ``hi``;
  Figs. 3 and 6).

Both tables have the one shape of :mod:`imlbench.explain.estimands`; every value is exact.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
from scipy.special import ndtr, ndtri

from imlbench.studies.extrapolation.dgp_copula import CopulaLinear
from imlbench.truth import truth, truth_frame

N_ICE_ROWS = 11
TRUTH_GRID = np.linspace(0.0, 1.0, 101)


def copula_conditional_variance(rho: float, nodes: int = 80) -> float:
    """E var(x1 | x2) for uniforms joined by a Gaussian copula with parameter ``rho``."""
    from scipy.stats import multivariate_normal

    if rho == 0.0:
        return 1.0 / 12.0
    z, w = np.polynomial.hermite_e.hermegauss(nodes)
    w = w / w.sum()
    s2 = 1.0 - rho**2
    a = rho * z / np.sqrt(1.0 + s2)
    r = s2 / (1.0 + s2)
    m1 = ndtr(a)
    m2 = multivariate_normal(mean=[0.0, 0.0], cov=[[1.0, r], [r, 1.0]]).cdf(np.column_stack([a, a]))
    return float(np.sum(w * (m2 - m1**2)))


def copula_pearson(rho: float) -> float:
    """Pearson (= Spearman) correlation of the two copula uniforms: (6/pi) asin(rho/2)."""
    return 6.0 / np.pi * np.arcsin(rho / 2.0)


def importance_truth(dgp: CopulaLinear) -> pd.DataFrame:
    """The ``importance`` table: marginal and conditional PFI of every feature."""
    var = np.full(dgp.p, 1.0 / 12.0)
    cvar = var.copy()
    cvar[:2] = copula_conditional_variance(dgp.rho)
    return pd.concat([truth_frame("pfi_marginal", dgp.feature_names, 2.0 * dgp.beta**2 * var),
                      truth_frame("pfi_conditional", dgp.feature_names,
                                  2.0 * dgp.beta**2 * cvar)], ignore_index=True)


def _partner_mean(dgp: CopulaLinear, j: int, x: np.ndarray) -> np.ndarray:
    z = ndtri(np.clip(x, 1e-12, 1 - 1e-12))
    return ndtr(dgp.rho * z / np.sqrt(2.0 - dgp.rho**2))


def effects_truth(
    dgp: CopulaLinear, fixed_rng: Callable[[str], np.random.Generator]
) -> pd.DataFrame:
    x = TRUTH_GRID
    rest = dgp.beta.sum() / 2.0
    frames = []
    for j, name in enumerate(dgp.feature_names):
        pd_ = dgp.beta[j] * x + rest - dgp.beta[j] / 2.0
        frames.append(truth_frame("pd", name, pd_, x=x))
        cond = pd_.copy()
        if j < 2:
            k = 1 - j
            cond = cond - dgp.beta[k] / 2.0 + dgp.beta[k] * _partner_mean(dgp, j, x)
        frames.append(truth_frame("conditional", name, cond, x=x))
    rows = dgp.reference_rows(N_ICE_ROWS, fixed_rng("ice_rows"))
    for j in (0, 1):
        band = dgp.conditional_band(j, rows[:, 1 - j])
        for i, r in enumerate(rows):
            value = dgp.beta[j] * x + r @ dgp.beta - dgp.beta[j] * r[j]
            frames.append(truth_frame("ice", dgp.feature_names[j], value, x=x, row=i,
                                      lo=band[i, 0], hi=band[i, 1]))
    return pd.concat(frames, ignore_index=True)


@truth("extrapolation.copula_linear", ("importance", "effects"))
def copula_linear_truths(
    dgp: CopulaLinear, fixed_rng: Callable[[str], np.random.Generator]
) -> dict[str, pd.DataFrame]:
    return {"importance": importance_truth(dgp), "effects": effects_truth(dgp, fixed_rng)}
