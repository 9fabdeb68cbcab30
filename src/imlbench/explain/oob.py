"""Out-of-bag permutation importance of a bagged forest, as R's ``randomForest``.

Breiman (2001); Liaw & Wiener's ``importance(type = 1)``, used by Hooker et al.
(2021) as VI^o_j: for every tree t, the increase in squared error on its
out-of-bag rows when x_j is permuted among those rows,
    d_tj = MSE_t(OOB with x_j permuted) - MSE_t(OOB).
VI^o_j is the mean over trees of d_tj; with ``scale`` (R's default) it is divided
by its standard error sd_t(d_tj) / sqrt(ntree) (the "%IncMSE" z-score).
scikit-learn has no such measure; this implementation reads each tree's
bootstrap sample from the public ``estimators_samples_``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np
import pandas as pd


def _out_of_bag(forest, n: int) -> Iterator[tuple[object, np.ndarray]]:
    """Each tree of the forest with the rows (of the n training rows) its bootstrap sample
    left out, read from the public ``estimators_samples_``."""
    for tree, in_bag in zip(forest.estimators_, forest.estimators_samples_, strict=True):
        yield tree, np.setdiff1d(np.arange(n), in_bag)


def oob_permutation_importance(
    forest,
    X: np.ndarray,
    y: np.ndarray,
    *,
    features: Sequence[int],
    rng: np.random.Generator,
    scale: bool = True,
) -> pd.DataFrame:
    """VI^o_j of a fitted ``RandomForestRegressor`` (bootstrap) trained on ``(X, y)``.

    Each tree predicts its OOB rows and all their permuted copies in one call.
    Returns columns ``feature`` and ``value``.
    """
    if not getattr(forest, "bootstrap", False):
        raise ValueError("out-of-bag importance needs a forest fitted with bootstrap=True")
    n = len(X)
    features = list(features)
    X32 = np.asarray(X, dtype=np.float32)
    diffs = np.empty((len(forest.estimators_), len(features)))
    for t, (tree, oob) in enumerate(_out_of_bag(forest, n)):
        Xo, yo = X32[oob], y[oob]
        m = len(oob)
        stacked = np.tile(Xo, (len(features) + 1, 1))
        for k, j in enumerate(features, start=1):
            stacked[k * m : (k + 1) * m, j] = Xo[rng.permutation(m), j]
        pred = tree.predict(stacked, check_input=False).reshape(len(features) + 1, m)
        mse = ((yo[None, :] - pred) ** 2).mean(axis=1)
        diffs[t] = mse[1:] - mse[0]
    value = diffs.mean(axis=0)
    if scale:
        se = diffs.std(axis=0, ddof=1) / np.sqrt(len(diffs))
        value = np.divide(value, se, out=np.zeros_like(value), where=se > 0)
    return pd.DataFrame({"feature": features, "value": value})


def oob_predictions(forest, X: np.ndarray) -> np.ndarray:
    """Each training row's out-of-bag prediction: the mean prediction of the trees whose
    bootstrap sample left it out (NaN for a row every tree drew), as ``oob_prediction_``."""
    X32 = np.asarray(X, dtype=np.float32)
    total, count = np.zeros(len(X)), np.zeros(len(X))
    for tree, oob in _out_of_bag(forest, len(X)):
        total[oob] += tree.predict(X32[oob], check_input=False)
        count[oob] += 1
    return np.divide(total, count, out=np.full(len(X), np.nan), where=count > 0)
