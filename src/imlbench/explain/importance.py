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
Loss = Callable[[np.ndarray, np.ndarray], np.ndarray]


def squared_error(y: np.ndarray, pred: np.ndarray) -> np.ndarray:
    """Per-observation squared-error loss."""
    return (y - pred) ** 2


def absolute_error(y: np.ndarray, pred: np.ndarray) -> np.ndarray:
    return np.abs(y - pred)


def log_loss(y: np.ndarray, pred: np.ndarray) -> np.ndarray:
    """Binary log loss of predicted probabilities of class 1 (clipped to [1e-15, 1 - 1e-15])."""
    p = np.clip(pred, 1e-15, 1 - 1e-15)
    return -(y * np.log(p) + (1 - y) * np.log(1 - p))


def misclassification(y: np.ndarray, pred: np.ndarray) -> np.ndarray:
    """0-1 loss of predicted probabilities (class 1 at 0.5 and above)."""
    return ((pred >= 0.5) != (y >= 0.5)).astype(float)


LOSSES: dict[str, Loss] = {"squared": squared_error, "absolute": absolute_error,
                           "log_loss": log_loss, "misclassification": misclassification}
CONTRASTS = ("difference", "ratio")


def loss_named(name: str) -> Loss:
    if name not in LOSSES:
        raise ValueError(f"loss {name!r} is not one of {', '.join(LOSSES)}")
    return LOSSES[name]


def replacement_importance(
    predict: Predict,
    X: np.ndarray,
    y: np.ndarray,
    replace: Replacement,
    *,
    features: Sequence[int | tuple[int, ...]],
    n_repeats: int,
    rng: np.random.Generator,
    max_rows: int = DEFAULT_MAX_ROWS,
    loss: str = "squared",
    contrast: str = "difference",
) -> pd.DataFrame:
    """Loss change when column j is replaced by ``replace``, per feature and repeat.

    A feature may be a tuple of columns (a group): ``replace`` then returns all of them.
    ``contrast``: ``difference`` (mean replaced loss minus mean loss; Molnar et al. eq. 2) or
    ``ratio`` (their quotient, iml's default). Returns a tidy frame with columns ``feature``
    (index), ``repeat`` and ``value``.
    """
    if contrast not in CONTRASTS:
        raise ValueError(f"contrast {contrast!r} is not one of {', '.join(CONTRASTS)}")
    L = loss_named(loss)
    n = len(X)
    jobs = [(j, r) for j in features for r in range(n_repeats)]
    # the unmodified rows (None) ride in the first stack, so one call also gives the baseline
    entries: list[tuple[int, int] | None] = [None, *jobs]
    per_block = max(1, max_rows // n)
    losses = []
    for start in range(0, len(entries), per_block):
        chunk = entries[start : start + per_block]
        stacked = np.tile(X, (len(chunk), 1))
        for k, job in enumerate(chunk):
            if job is not None:
                cols = list(job[0]) if isinstance(job[0], tuple) else job[0]
                stacked[k * n : (k + 1) * n, cols] = replace(X, job[0], rng)
        pred = predict_rows(predict, stacked, max_rows).reshape(len(chunk), n)
        losses.extend(L(y[None, :], pred).mean(axis=1))
    base, replaced = losses[0], np.array(losses[1:])
    values = replaced - base if contrast == "difference" else replaced / base
    return pd.DataFrame(
        {
            "feature": [j for j, _ in jobs],
            "repeat": [r for _, r in jobs],
            "value": values,
        }
    )


def permute_column(
    X: np.ndarray, j: int | tuple[int, ...], rng: np.random.Generator
) -> np.ndarray:
    """Column j of X in a uniformly random order; for a group of columns, one row permutation
    shared by all of them (the group moves together, keeping its internal dependence)."""
    if isinstance(j, tuple):
        return X[rng.permutation(len(X))][:, list(j)]
    return rng.permutation(X[:, j])


def permutation_importance(
    predict: Predict,
    X: np.ndarray,
    y: np.ndarray,
    *,
    features: Sequence[int | tuple[int, ...]],
    n_repeats: int = 1,
    rng: np.random.Generator,
    max_rows: int = DEFAULT_MAX_ROWS,
    loss: str = "squared",
    contrast: str = "difference",
) -> pd.DataFrame:
    """Permutation VI^pi_j (by default the mean squared-error increase), one row per feature
    and repeat; each (feature, repeat) gets its own permutation."""
    return replacement_importance(
        predict, X, y, permute_column, features=features, n_repeats=n_repeats, rng=rng,
        max_rows=max_rows, loss=loss, contrast=contrast,
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
    loss: str = "squared",
    contrast: str = "difference",
) -> pd.DataFrame:
    """Conditional VI^C_j with x_j drawn by ``sampler(X, [j], rng)`` given the other features."""

    def replace(X_: np.ndarray, j: int, rng_: np.random.Generator) -> np.ndarray:
        return sampler(X_, [j], rng_)[:, 0]

    return replacement_importance(
        predict, X, y, replace, features=features, n_repeats=n_repeats, rng=rng,
        max_rows=max_rows, loss=loss, contrast=contrast,
    )
