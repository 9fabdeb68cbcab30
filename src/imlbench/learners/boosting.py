"""Gradient boosting (xgboost). Each function builds the unfitted estimator of one registered
learner (:data:`imlbench.learners.LEARNERS`), from its study parameters, seed and threads."""

from __future__ import annotations

from typing import Any


def gbm(params: dict, random_state: int, threads: int) -> Any:
    from xgboost import XGBRegressor

    defaults = {"n_estimators": 300, "max_depth": 4, "learning_rate": 0.05, "subsample": 0.8,
                "tree_method": "hist"}
    return XGBRegressor(**{**defaults, **params}, random_state=random_state, n_jobs=threads)
