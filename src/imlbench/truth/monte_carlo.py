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


def learner_pd_truth(
    fit: Callable[[np.ndarray, np.ndarray], Callable[[np.ndarray], np.ndarray]],
    sample: Callable[[int, np.random.Generator], tuple[np.ndarray, np.ndarray]],
    features: list[int],
    grid: np.ndarray,
    n_train: int,
    n_eval: int,
    n_fits: int,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray]:
    """The learner-PD E_F[PD(x)] (Molnar et al., Relating PD and PFI to the DGP, Sect. 8):
    the mean over ``n_fits`` models, each fitted on a fresh training set of ``n_train`` rows
    from ``sample`` and evaluated on a fresh set of ``n_eval`` rows; returns the mean, shape
    (features, grid), and its Monte Carlo SE."""
    from imlbench.explain.effects import partial_dependence

    per_fit = []
    for _ in range(n_fits):
        predict = fit(*sample(n_train, rng))
        X_eval, _ = sample(n_eval, rng)
        per_fit.append([partial_dependence(predict, X_eval, j, grid) for j in features])
    per_fit = np.asarray(per_fit)
    return per_fit.mean(axis=0), per_fit.std(axis=0, ddof=1) / np.sqrt(n_fits)
