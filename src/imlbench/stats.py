"""Statistics shared by the methods, the metrics and the studies.

* :func:`mean_and_se`: a mean over repetitions and its standard error, the unit of every
  Monte Carlo tolerance in the claims.
* :func:`t_halfwidth`: half-width t_{1 - alpha/2, m - 1} sqrt((1/m + c) s^2) of the t interval
  of a mean of m values with sample variance s^2; c = 0 is the naive interval, c = n_test /
  n_train the correction of Nadeau & Bengio (2003) for resampled values that share rows
  (Molnar et al., Relating the PDP and PFI to the data generating process, Sect. 7.3-7.4).
* :func:`mmd2`, :func:`data_fidelity`: maximum mean discrepancy with an RBF kernel and the data
  fidelity -log MMD of Molnar et al. (conditional subgroups, Sect. 8, Algorithm 2).
* :func:`mse_decomposition`: the mean squared error of estimates over repetitions split into
  the model's and the estimation's bias, variance and their covariance (Heiß et al. 2026).
* :func:`mse_difference_test`: the Wald test of zero MSE-based variable importance of
  Williamson et al. (2020), as Hooker et al. (2021, Fig. 8) apply it.

MMD^2(P, Q) = E k(x, x') + E k(y, y') - 2 E k(x, y) with the RBF kernel
k(x, y) = exp(-|x - y|^2 / (2 s^2)), s the median pairwise distance of the pooled rows (the
median heuristic). The unbiased estimator leaves out the diagonal terms.

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

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pandas as pd


def mean_and_se(values: pd.Series) -> tuple[float, float]:
    """Mean of the non-missing ``values`` and its standard error (inf with fewer than two)."""
    v = values.dropna()
    se = float(v.std(ddof=1) / np.sqrt(len(v))) if len(v) > 1 else np.inf
    return float(v.mean()), se


def t_halfwidth(var: np.ndarray | float, m: np.ndarray | int, c: float = 0.0,
                alpha: float = 0.05) -> np.ndarray:
    """t_{1 - alpha/2, m - 1} sqrt((1/m + c) var): the half-width of the (corrected) t interval
    of a mean of ``m`` values with sample variance ``var`` (``m`` may be an array)."""
    from scipy.stats import t as student_t

    return student_t.ppf(1 - alpha / 2, m - 1) * np.sqrt((1 / m + c) * var)


def t_multiplier(z: float, df: np.ndarray | int) -> np.ndarray:
    """The Student-t quantile with ``df`` degrees of freedom at the normal probability of ``z``
    (Phi(z)): what replaces ``z`` standard errors when the SE is estimated from df + 1 values
    (3 becomes 4.1 at 9 df and 236 at 1 df)."""
    from scipy.stats import norm
    from scipy.stats import t as student_t

    return student_t.ppf(norm.cdf(z), df)


def sq_dists(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    d = (A**2).sum(axis=1)[:, None] + (B**2).sum(axis=1)[None, :] - 2 * A @ B.T
    return np.maximum(d, 0.0)


def mmd2(X: np.ndarray, Y: np.ndarray, bandwidth: float | None = None) -> float:
    """Unbiased MMD^2 of the rows of X and Y with an RBF kernel (median heuristic by default)."""
    X, Y = np.asarray(X, dtype=float), np.asarray(Y, dtype=float)
    if len(X) < 2 or len(Y) < 2:
        raise ValueError("MMD needs at least two rows in each sample")
    if bandwidth is None:
        Z = np.vstack([X, Y])
        d = np.sqrt(sq_dists(Z, Z)[np.triu_indices(len(Z), k=1)])
        bandwidth = float(np.median(d[d > 0])) if (d > 0).any() else 1.0
    g = 1.0 / (2.0 * bandwidth**2)
    kxx, kyy, kxy = (np.exp(-g * sq_dists(A, B)) for A, B in ((X, X), (Y, Y), (X, Y)))
    m, n = len(X), len(Y)
    return float((kxx.sum() - np.trace(kxx)) / (m * (m - 1))
                 + (kyy.sum() - np.trace(kyy)) / (n * (n - 1)) - 2 * kxy.mean())


def data_fidelity(reference: np.ndarray, perturbed: np.ndarray) -> float:
    """-log MMD (Molnar et al., Algorithm 2); MMD^2 below 0 (sampling noise) is floored at 1e-12."""
    return float(-0.5 * np.log(max(mmd2(reference, perturbed), 1e-12)))


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
    from scipy.special import ndtr

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


def mse_decomposition(df: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """The MSE decomposition per group ``by`` of the repetitions ``df`` (columns estimate,
    truth and model, the models' own effect): with the model error m = model - truth and the
    estimation error s = estimate - model of each repetition, and means and variances over the
    repetitions (variances divided by their number, so that the parts add up exactly),

        MSE = mean (m + s)^2 = (model_bias + estimation_bias)^2
              + model_variance + estimation_variance + covariance,

    model_bias = mean m, estimation_bias = mean s, model_variance = var m,
    estimation_variance = var s, covariance = 2 cov(m, s) (Heiß et al. 2026's model and
    estimation error; the covariance is 0 in expectation when the rows an effect is estimated
    on are independent of the model's training rows and the estimator is unbiased for the
    model's own effect, as the PD on held-out rows)."""
    import pandas as pd

    e = pd.DataFrame({**{k: df[k] for k in by}, "m": df["model"] - df["truth"],
                      "s": df["estimate"] - df["model"]})
    g = e.groupby(by, sort=False)
    dm, ds = e["m"] - g["m"].transform("mean"), e["s"] - g["s"].transform("mean")
    e = e.assign(mm=dm * dm, ss=ds * ds, ms=2 * dm * ds)
    mean = e.groupby(by, sort=False)[["m", "s", "mm", "ss", "ms"]].mean()
    return mean.rename(columns={"m": "model_bias", "s": "estimation_bias",
                                "mm": "model_variance", "ss": "estimation_variance",
                                "ms": "covariance"}).reset_index()
