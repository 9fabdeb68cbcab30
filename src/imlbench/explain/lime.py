"""LIME for tabular data (Ribeiro et al. 2016; book chapters 12-14).

For an explained row x: draw ``n_samples`` points z, weight each by its proximity pi_x(z),
and fit a weighted linear surrogate g to f(z) (book eq. in ch. 14:
g* = argmin_g sum_i pi_x(z_i) (f(z_i) - g(z_i))^2 + lambda |beta|^2). The surrogate's
coefficients are the explanation: for a numeric feature, the local slope of f in the
feature's own units; for a categorical feature, the effect of having x's level.

Sampling (each feature drawn independently, as R's and Python's lime do, except ``local``):
``local`` (normal around x with sd ``local_sd`` times the feature's sd; Laugel et al. 2018),
``normal`` (the feature's normal approximation), ``quantile_bins`` (a quartile bin drawn
with its data frequency, then uniform within it), ``kde`` (a Gaussian kernel density
estimate of the feature). Categorical features always draw levels with their data
frequencies.

Proximity: Euclidean distance on features standardised by the data sd (categorical: 0 if
equal to x's level, else 1) with the kernel sqrt(exp(-d^2 / w^2)) and width ``kernel_width``
(default 0.75 sqrt(p)); or ``gower``: one minus the Gower distance, no kernel (R lime).

Feature selection (``n_features`` of p): ``forward`` (greedy, by weighted R^2),
``highest_weights`` (largest |coefficient| of the full weighted ridge fit), ``auto``
(forward if n_features <= 6, else highest weights, as R lime), or ``none``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from imlbench.explain.batching import DEFAULT_MAX_ROWS, Predict, predict_rows

SAMPLINGS = ("local", "normal", "quantile_bins", "kde")
DISTANCES = ("euclidean", "gower")
SELECTIONS = ("auto", "forward", "highest_weights", "none")


def _sample(
    X: np.ndarray, x: np.ndarray, n: int, sampling: str, local_sd: float,
    categorical: Sequence[int], rng: np.random.Generator,
) -> np.ndarray:
    p = X.shape[1]
    Z = np.empty((n, p))
    for j in range(p):
        col = X[:, j]
        if j in categorical:
            levels, counts = np.unique(col, return_counts=True)
            Z[:, j] = rng.choice(levels, size=n, p=counts / counts.sum())
        elif sampling == "local":
            Z[:, j] = x[j] + local_sd * col.std() * rng.standard_normal(n)
        elif sampling == "normal":
            Z[:, j] = col.mean() + col.std() * rng.standard_normal(n)
        elif sampling == "quantile_bins":
            edges = np.unique(np.quantile(col, [0, 0.25, 0.5, 0.75, 1.0]))
            k = np.clip(np.searchsorted(edges, col, side="left") - 1, 0, len(edges) - 2)
            freq = np.bincount(k, minlength=len(edges) - 1) / len(col)
            b = rng.choice(len(edges) - 1, size=n, p=freq)
            Z[:, j] = rng.uniform(edges[b], edges[b + 1])
        elif sampling == "kde":
            from scipy.stats import gaussian_kde

            Z[:, j] = gaussian_kde(col).resample(n, seed=rng)[0]
        else:
            raise ValueError(f"LIME sampling {sampling!r} is not one of {', '.join(SAMPLINGS)}")
    return Z


def _proximities(
    Z: np.ndarray, x: np.ndarray, X: np.ndarray, distance: str, kernel_widths: Sequence[float],
    categorical: Sequence[int],
) -> list[np.ndarray]:
    """The proximity weights of the samples Z to x, one array per kernel width (the distances
    are computed once; Gower has no kernel, so every width gets the same weights)."""
    numeric = [j for j in range(X.shape[1]) if j not in categorical]
    cat = list(categorical)
    if distance == "euclidean":
        sd = X[:, numeric].std(axis=0)
        sd = np.where(sd > 0, sd, 1.0)
        d2 = (((Z[:, numeric] - x[numeric]) / sd) ** 2).sum(axis=1)
        d2 += (Z[:, cat] != x[cat]).sum(axis=1)
        return [np.sqrt(np.exp(-d2 / width**2)) for width in kernel_widths]
    if distance == "gower":
        rng_ = np.ptp(X[:, numeric], axis=0)
        rng_ = np.where(rng_ > 0, rng_, 1.0)
        parts = np.abs(Z[:, numeric] - x[numeric]) / rng_
        total = parts.sum(axis=1) + (Z[:, cat] != x[cat]).sum(axis=1)
        return [1.0 - total / X.shape[1]] * len(kernel_widths)
    raise ValueError(f"LIME distance {distance!r} is not one of {', '.join(DISTANCES)}")


def _proximity(
    Z: np.ndarray, x: np.ndarray, X: np.ndarray, distance: str, kernel_width: float,
    categorical: Sequence[int],
) -> np.ndarray:
    return _proximities(Z, x, X, distance, [kernel_width], categorical)[0]


def _design(Z: np.ndarray, x: np.ndarray, categorical: Sequence[int]) -> np.ndarray:
    """Surrogate inputs: numeric values as they are, categorical as 'same level as x'."""
    D = Z.copy()
    for j in categorical:
        D[:, j] = (Z[:, j] == x[j]).astype(float)
    return D


def weighted_ridge(
    D: np.ndarray, t: np.ndarray, w: np.ndarray, lam: float
) -> tuple[np.ndarray, float, float]:
    """Coefficients, intercept and weighted R^2 of argmin sum w (t - a - D b)^2 + lam |b|^2."""
    sw = w.sum()
    mu = w @ D / sw
    mt = w @ t / sw
    Dc, tc = D - mu, t - mt
    A = (Dc * w[:, None]).T @ Dc + lam * np.eye(D.shape[1])
    beta = np.linalg.solve(A, (Dc * w[:, None]).T @ tc)
    resid = tc - Dc @ beta
    tss = w @ tc**2
    r2 = 1.0 - (w @ resid**2) / tss if tss > 0 else 1.0
    return beta, float(mt - mu @ beta), float(r2)


def _select(D: np.ndarray, t: np.ndarray, w: np.ndarray, k: int, how: str, lam: float) -> list:
    p = D.shape[1]
    if how == "auto":
        how = "forward" if k <= 6 else "highest_weights"
    if how == "none" or k >= p:
        return list(range(p))
    if how == "highest_weights":
        beta, _, _ = weighted_ridge(D, t, w, lam)
        return sorted(np.argsort(-np.abs(beta), kind="stable")[:k].tolist())
    if how == "forward":
        chosen: list[int] = []
        for _ in range(k):
            best = max((j for j in range(p) if j not in chosen),
                       key=lambda j: weighted_ridge(D[:, chosen + [j]], t, w, lam)[2])
            chosen.append(best)
        return sorted(chosen)
    raise ValueError(f"LIME feature selection {how!r} is not one of {', '.join(SELECTIONS)}")


@dataclass(frozen=True)
class LimeFits:
    """The surrogates of every (kernel width, explained row): ``coef`` (widths, rows, p; 0 for
    an unselected feature), ``intercept`` and ``r2`` (widths, rows; the weighted R^2 of the
    surrogate on its selected features, the explanation's fit as in R lime), ``selected``
    (widths, rows, p; the features the selection kept)."""

    coef: np.ndarray
    intercept: np.ndarray
    r2: np.ndarray
    selected: np.ndarray


def default_kernel_width(p: int) -> float:
    """0.75 sqrt(p), the default of R's and Python's lime for p standardised features."""
    return 0.75 * np.sqrt(p)


def lime_fits(
    predict: Predict,
    X: np.ndarray,
    rows: np.ndarray,
    rng: np.random.Generator,
    *,
    kernel_widths: Sequence[float | None] = (None,),
    n_samples: int = 5000,
    sampling: str = "local",
    local_sd: float = 0.1,
    distance: str = "euclidean",
    n_features: int | None = None,
    selection: str = "auto",
    ridge: float = 0.001,
    categorical: Sequence[int] = (),
    max_rows: int = DEFAULT_MAX_ROWS,
) -> LimeFits:
    """LIME surrogates of each explained row for each kernel width (None: the default width).

    The samples and their predictions are drawn and made once per row and shared by all
    widths (only the proximity weights, hence selection and fit, change), so a sweep draws
    from ``rng`` exactly what one width does. All rows' samples are predicted in stacked calls.
    """
    p = X.shape[1]
    widths = [default_kernel_width(p) if w is None else float(w) for w in kernel_widths]
    k = p if n_features is None else int(n_features)
    samples = [_sample(X, x, n_samples, sampling, local_sd, categorical, rng) for x in rows]
    f = predict_rows(predict, np.concatenate(samples), max_rows).reshape(len(rows), n_samples)
    coef = np.zeros((len(widths), len(rows), p))
    selected = np.zeros((len(widths), len(rows), p), dtype=bool)
    intercept = np.zeros((len(widths), len(rows)))
    r2 = np.zeros((len(widths), len(rows)))
    for i, (x, Z) in enumerate(zip(rows, samples, strict=True)):
        D = _design(Z, x, categorical)
        weights = _proximities(Z, x, X, distance, widths, categorical)
        for v, w in enumerate(weights):
            keep = _select(D, f[i], w, k, selection, ridge)
            coef[v, i, keep], intercept[v, i], r2[v, i] = weighted_ridge(D[:, keep], f[i], w,
                                                                          ridge)
            selected[v, i, keep] = True
    return LimeFits(coef, intercept, r2, selected)


def lime_coefficients(
    predict: Predict,
    X: np.ndarray,
    rows: np.ndarray,
    rng: np.random.Generator,
    *,
    kernel_width: float | None = None,
    **options,
) -> np.ndarray:
    """Local surrogate coefficients for each explained row, shape (len(rows), p), for one
    kernel width; unselected features get coefficient 0 (``options``: those of
    :func:`lime_fits`)."""
    return lime_fits(predict, X, rows, rng, kernel_widths=[kernel_width], **options).coef[0]
