"""Permutation and conditional feature importance of a fixed model.

Permutation VI (Breiman 2001; Hooker et al. 2021, Sect. 1):
    VI^pi_j = (1/N) sum_i [ L(y_i, f(x_i^{pi,j})) - L(y_i, f(x_i)) ],
with column j of X randomly permuted. Conditional VI (Hooker et al. 2021, Sect. 5):
the same with x_ij replaced by a draw from x_j | x_{-j} (VI^C_j). The paper sums
over the N rows; we report the mean, which leaves ranks unchanged. Each
(feature, repeat) gets its own permutation, and every permuted copy of the data is
evaluated in one stacked ``predict`` call (chunked by the row cap).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from imlbench.explain.batching import DEFAULT_MAX_ROWS, Predict, predict_rows

#: ``replace(X, j, rng)`` returns new values for column j of X.
Replacement = Callable[[np.ndarray, int, np.random.Generator], np.ndarray]


def squared_error(y: np.ndarray, pred: np.ndarray) -> np.ndarray:
    """Per-observation squared-error loss."""
    return (y - pred) ** 2


def replacement_importance(
    predict: Predict,
    X: np.ndarray,
    y: np.ndarray,
    replace: Replacement,
    *,
    features: Sequence[int],
    n_repeats: int,
    rng: np.random.Generator,
    max_rows: int = DEFAULT_MAX_ROWS,
) -> pd.DataFrame:
    """Mean loss increase when column j is replaced by ``replace``, per feature and repeat.

    Returns a tidy frame with columns ``feature`` (index), ``repeat`` and ``value``.
    """
    n = len(X)
    base = squared_error(y, predict_rows(predict, X, max_rows)).mean()
    jobs = [(j, r) for j in features for r in range(n_repeats)]
    per_block = max(1, max_rows // n)
    values = []
    for start in range(0, len(jobs), per_block):
        chunk = jobs[start : start + per_block]
        stacked = np.tile(X, (len(chunk), 1))
        for k, (j, _) in enumerate(chunk):
            stacked[k * n : (k + 1) * n, j] = replace(X, j, rng)
        pred = predict_rows(predict, stacked, max_rows).reshape(len(chunk), n)
        values.extend(squared_error(y[None, :], pred).mean(axis=1) - base)
    return pd.DataFrame(
        {
            "feature": [j for j, _ in jobs],
            "repeat": [r for _, r in jobs],
            "value": values,
        }
    )


def permute_column(X: np.ndarray, j: int, rng: np.random.Generator) -> np.ndarray:
    """Column j of X in a uniformly random order."""
    return rng.permutation(X[:, j])


def permutation_importance(
    predict: Predict,
    X: np.ndarray,
    y: np.ndarray,
    *,
    features: Sequence[int],
    n_repeats: int = 1,
    rng: np.random.Generator,
    max_rows: int = DEFAULT_MAX_ROWS,
) -> pd.DataFrame:
    """Permutation VI^pi_j (mean squared-error increase), one row per feature and repeat."""
    return replacement_importance(
        predict, X, y, permute_column,
        features=features, n_repeats=n_repeats, rng=rng, max_rows=max_rows,
    )


def conditional_importance(
    predict: Predict,
    X: np.ndarray,
    y: np.ndarray,
    sampler: Callable[[np.ndarray, Sequence[int], np.random.Generator], np.ndarray],
    *,
    features: Sequence[int],
    n_repeats: int = 1,
    rng: np.random.Generator,
    max_rows: int = DEFAULT_MAX_ROWS,
) -> pd.DataFrame:
    """Conditional VI^C_j with x_j drawn by ``sampler(X, [j], rng)`` given the other features."""

    def replace(X_: np.ndarray, j: int, rng_: np.random.Generator) -> np.ndarray:
        return sampler(X_, [j], rng_)[:, 0]

    return replacement_importance(
        predict, X, y, replace,
        features=features, n_repeats=n_repeats, rng=rng, max_rows=max_rows,
    )
