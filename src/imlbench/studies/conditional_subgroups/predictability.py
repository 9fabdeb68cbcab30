"""How well each feature is predicted by the others: the dependence summary of Molnar et al.
(conditional subgroups, Table 6).

A random forest predicts feature j from all other features with two-fold cross-fitting (fit on
one half, evaluate on the other, swap, average). Numeric features report R^2 = 1 - MSE / Var;
categorical ones 1 - MMCE(forest) / MMCE(predicting the most frequent class of the evaluated
half), the share of the loss of a constant prediction that the other features explain.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def feature_predictability(
    X: np.ndarray,
    j: int,
    rng: np.random.Generator,
    *,
    categorical: Sequence[int] = (),
    n_estimators: int = 100,
) -> float:
    """Share of the loss of a constant prediction of x_j explained by a forest on x_-j."""
    from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor

    others = [m for m in range(X.shape[1]) if m != j]
    half = rng.permutation(len(X))
    folds = (half[: len(X) // 2], half[len(X) // 2:])
    scores = []
    for train, test in (folds, folds[::-1]):
        seed = int(rng.integers(2**31 - 1))
        target = X[:, j]
        if j in categorical:
            model = RandomForestClassifier(n_estimators=n_estimators, random_state=seed)
            model.fit(X[np.ix_(train, others)], target[train].astype(int))
            pred = model.predict(X[np.ix_(test, others)])
            values, counts = np.unique(target[test].astype(int), return_counts=True)
            base = np.mean(target[test].astype(int) != values[np.argmax(counts)])
            err = np.mean(target[test].astype(int) != pred)
        else:
            model = RandomForestRegressor(n_estimators=n_estimators, random_state=seed)
            model.fit(X[np.ix_(train, others)], target[train])
            err = np.mean((target[test] - model.predict(X[np.ix_(test, others)])) ** 2)
            base = np.var(target[test])
        scores.append(1.0 - err / base if base > 0 else 1.0)
    return float(np.mean(scores))
