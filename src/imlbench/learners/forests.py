"""Random forests and bagging (scikit-learn's, and the compact trees of :mod:`.compact` for refits
that only predict). Each function builds the unfitted estimator of one registered learner
(:data:`imlbench.learners.LEARNERS`), from its study parameters, seed and threads."""

from __future__ import annotations

from typing import Any


def rf(params: dict, random_state: int, threads: int) -> Any:
    from sklearn.ensemble import RandomForestRegressor

    defaults = {"n_estimators": 500, "max_features": 1 / 3, "min_samples_leaf": 5}
    return RandomForestRegressor(
        **{**defaults, **params}, bootstrap=True, random_state=random_state, n_jobs=threads
    )


def bagging(params: dict, random_state: int, threads: int) -> Any:
    return rf({**params, "max_features": 1.0}, random_state, threads)


#: the parameters of ``rf`` that :class:`.compact.CompactForest` takes as well
COMPACT_FOREST_PARAMS = frozenset(
    {"n_estimators", "max_features", "min_samples_split", "min_samples_leaf", "max_depth"})


def rf_refit(params: dict, random_state: int, threads: int) -> Any:
    """The trees of ``rf`` without scikit-learn's per-tree overhead (:class:`.compact.
    CompactForest`: the same trees and predictions) when the parameters allow, else ``rf``."""
    if set(params) <= COMPACT_FOREST_PARAMS:
        return forest(params, random_state, threads)
    return rf(params, random_state, threads)


def bagging_refit(params: dict, random_state: int, threads: int) -> Any:
    return rf_refit({**params, "max_features": 1.0}, random_state, threads)


def forest(params: dict, random_state: int, threads: int) -> Any:
    """The random forest of ``rf`` for many small refits: the same trees, without
    scikit-learn's per-tree overhead and out-of-bag bookkeeping (see :mod:`.compact`)."""
    from imlbench.learners.compact import CompactForest

    defaults = {"n_estimators": 500, "max_features": 1 / 3, "min_samples_leaf": 5}
    return CompactForest(**{**defaults, **params}, random_state=random_state)
