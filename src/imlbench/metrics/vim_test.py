"""Wald test of zero MSE-based variable importance (Williamson et al. 2020).

Williamson, Gilbert, Simon & Carone (2020), "A general framework for inference on
algorithm-agnostic variable importance", arXiv:2004.03683 (JASA 2023, 118:1645-1658).
The importance of a feature set s is the contrast of predictiveness V between the full
and the reduced prediction function (their Sect. 2, psi_{0,s} = V(f_0, P_0) - V(f_{0,s},
P_0)); with V = -MSE it reads

    psi = MSE(reduced) - MSE(full),   MSE(f) = E[(Y - f(X))^2].

Each MSE is estimated by a test-set mean of squared errors; the influence function of
that plug-in is (Y - f(X))^2 - MSE(f), so its variance is Var[(Y - f(X))^2] / n. Under
H0: psi = 0 the two influence functions coincide and the paired estimator's variance
degenerates; the sample-split version of Sect. 4 (their Algorithm 3) evaluates the full
model on one half and the reduced model on the other, so the two estimates are
independent and the null distribution of psi_hat / se stays N(0, 1). The test is
one-sided, H0: psi <= 0 vs H1: psi > 0 (the reduced model predicts worse).

Hooker, Mentch & Zhou (2021), Fig. 8, apply this test with the "reduced" model fitted on
(x, w*) for a substitute w* of the noise block w.
"""

from __future__ import annotations

import numpy as np
from scipy.special import ndtr


def mse_difference_test(
    loss_full: np.ndarray,
    loss_reduced: np.ndarray,
    *,
    alpha: float = 0.05,
    rng: np.random.Generator | None = None,
    split: bool = True,
) -> dict[str, float | bool]:
    """One-sided Wald test of H0: psi <= 0 for psi = MSE(reduced) - MSE(full).

    ``loss_full`` and ``loss_reduced`` are per-row squared errors of the two fitted
    models on the same external test rows.

    split=True (default; Williamson et al. 2020, Sect. 4, Algorithm 3): the rows are split
    at random by ``rng`` (required) into halves A (n_A = n // 2) and B;
        psi_hat = mean_B(loss_reduced) - mean_A(loss_full),
        se = sqrt(var_A(loss_full) / n_A + var_B(loss_reduced) / n_B),
    the sum of the influence-function variances of two independent MSE estimates.

    split=False (paired): d_i = loss_reduced_i - loss_full_i, psi_hat = mean(d),
    se = sd(d) / sqrt(n). When both fitted models tend to the same function, as under H0,
    d's first-order variance vanishes and this z need not be N(0, 1) (the reason for
    splitting, Williamson et al. 2020, Sect. 4).

    z = psi_hat / se, p = 1 - Phi(z), reject = p < alpha. Sample variances use ddof=1.
    If se == 0, z is +-inf by the sign of psi_hat, or 0 (p = 0.5) when psi_hat == 0 too.

    Returns dict(estimate, se, z, p_value, reject).
    """
    loss_full = np.asarray(loss_full, dtype=float)
    loss_reduced = np.asarray(loss_reduced, dtype=float)
    if loss_full.ndim != 1 or loss_reduced.ndim != 1:
        raise ValueError("loss_full and loss_reduced must be 1-D arrays")
    n = loss_full.shape[0]
    if loss_reduced.shape[0] != n:
        raise ValueError(
            f"loss_full and loss_reduced must have the same length, got {n} and "
            f"{loss_reduced.shape[0]}"
        )
    if n < 4:
        raise ValueError(f"loss_full and loss_reduced need at least 4 rows, got {n}")
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")

    if split:
        if rng is None:
            raise ValueError("rng is required when split=True (it draws the split)")
        perm = rng.permutation(n)
        a, b = perm[: n // 2], perm[n // 2 :]
        full_a, reduced_b = loss_full[a], loss_reduced[b]
        estimate = reduced_b.mean() - full_a.mean()
        se = np.sqrt(full_a.var(ddof=1) / a.size + reduced_b.var(ddof=1) / b.size)
    else:
        d = loss_reduced - loss_full
        estimate = d.mean()
        se = d.std(ddof=1) / np.sqrt(n)

    if se > 0.0:
        z = estimate / se
    else:
        z = float(np.sign(estimate) * np.inf) if estimate != 0.0 else 0.0
    p_value = float(ndtr(-z))  # = 1 - Phi(z), without cancellation for large z
    return {
        "estimate": float(estimate),
        "se": float(se),
        "z": float(z),
        "p_value": p_value,
        "reject": bool(p_value < alpha),
    }
