"""Model-level importance truths by Monte Carlo, for fitted models whose PFI has no closed form.

For a fixed model f^ and a DGP that can draw fresh data and knows the conditional law of x_j,
the true marginal or conditional PFI of f^ (Molnar et al., conditional subgroups, eq. 1;
setting II of their Sect. 6) is E[L(Y, f^(X~_j, X_-j)) - L(Y, f^(X))] over fresh (X, Y), with
X~_j an independent copy of X_j (marginal) or a draw from X_j | X_-j (conditional). It is
estimated from n fresh rows, returned with its Monte Carlo standard error; no estimator under
test is involved.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from imlbench.dgp.base import DGP


def model_pfi_truth(
    predict: Callable[[np.ndarray], np.ndarray],
    dgp: DGP,
    j: int,
    n: int,
    rng: np.random.Generator,
    *,
    conditional: bool = True,
) -> tuple[float, float]:
    """(true PFI of ``predict`` for feature j under squared loss, its Monte Carlo SE)."""
    X = dgp.sample_features(n, rng)
    y = dgp.f(X) + dgp.noise(n, rng)
    Xr = X.copy()
    if conditional:
        Xr[:, j] = dgp.sample_conditional(X, [j], rng)[:, 0]
    else:
        Xr[:, j] = dgp.sample_features(n, rng)[:, j]
    terms = (y - predict(Xr)) ** 2 - (y - predict(X)) ** 2
    return float(terms.mean()), float(terms.std(ddof=1) / np.sqrt(n))
