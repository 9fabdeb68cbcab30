"""k nearest neighbours. Each function builds the unfitted estimator of one registered learner
(:data:`imlbench.learners.LEARNERS`), from its study parameters, seed and threads."""

from __future__ import annotations

from typing import Any


def knn(params: dict, random_state: int, threads: int) -> Any:
    """k nearest neighbours on standardised inputs.

    Neighbours are found by brute force: on the batches explainers predict, BLAS
    distances are several times faster than a k-d tree and find the same neighbours.
    """
    from sklearn.neighbors import KNeighborsRegressor
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    defaults = {"n_neighbors": 10, "algorithm": "brute", "n_jobs": threads}
    return make_pipeline(StandardScaler(), KNeighborsRegressor(**{**defaults, **params}))
