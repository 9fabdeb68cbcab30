"""Random forests and bagging (scikit-learn's, and the compact trees of :mod:`.compact` for refits
that only predict). Each function builds the unfitted estimator of one registered learner
(:data:`imlbench.learners.LEARNERS`), from its study parameters, seed and threads."""

from __future__ import annotations

from typing import Any

#: randomForest's regression defaults (ntree, mtry = floor(p / 3), nodesize), taken when a
#: study gives no node rule of its own
R_DEFAULTS = {"n_estimators": 500, "max_features": 1 / 3}
#: what R's forest (:class:`.nodesize.NodesizeForest`) takes; any other parameter is one of
#: scikit-learn's forest (its node rules ``min_samples_split`` and ``min_samples_leaf``, which
#: count distinct rows, among them)
R_FOREST_PARAMS = frozenset({"n_estimators", "max_features", "max_depth", "nodesize"})


def _node_rule(params: dict) -> dict:
    """``params`` with randomForest's ``nodesize: 5`` unless a parameter of scikit-learn's
    forest is given; ``nodesize`` with one of them is refused."""
    other = sorted(set(params) - R_FOREST_PARAMS)
    if "nodesize" in params and other:
        raise ValueError(f"nodesize (R's rule: nodes of nodesize or fewer bootstrap draws are "
                         f"not split) cannot be combined with {', '.join(other)} (scikit-learn's "
                         f"forest, whose node rules count distinct rows); with nodesize give "
                         f"only {', '.join(sorted(R_FOREST_PARAMS - {'nodesize'}))}")
    return params if other or "nodesize" in params else {**params, "nodesize": 5}


def rf(params: dict, random_state: int, threads: int) -> Any:
    """With ``nodesize`` (the default: 5), R's ``randomForest``
    (:class:`.nodesize.NodesizeForest`); with any parameter only scikit-learn's forest has
    (``min_samples_split``, ``min_samples_leaf``, ``max_samples``, ...), scikit-learn's
    ``RandomForestRegressor``."""
    from sklearn.ensemble import RandomForestRegressor

    from imlbench.learners.nodesize import NodesizeForest

    params = _node_rule({**R_DEFAULTS, **params})
    if "nodesize" in params:
        return NodesizeForest(**params, random_state=random_state, n_jobs=threads)
    return RandomForestRegressor(**params, bootstrap=True, random_state=random_state,
                                 n_jobs=threads)


def bagging(params: dict, random_state: int, threads: int) -> Any:
    return rf({**params, "max_features": 1.0}, random_state, threads)


#: the parameters of ``rf`` that :class:`.compact.CompactForest` takes as well
COMPACT_FOREST_PARAMS = frozenset({"n_estimators", "max_features", "min_samples_split",
                                   "min_samples_leaf", "max_depth", "nodesize"})


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

    return CompactForest(**_node_rule({**R_DEFAULTS, **params}), random_state=random_state)
