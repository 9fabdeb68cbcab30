"""Single regression trees. Each function builds the unfitted estimator of one registered learner
(:data:`imlbench.learners.LEARNERS`), from its study parameters, seed and threads."""

from __future__ import annotations

from typing import Any


def tree(params: dict, random_state: int, threads: int) -> Any:
    from sklearn.tree import DecisionTreeRegressor

    return DecisionTreeRegressor(**{"min_samples_leaf": 5, **params}, random_state=random_state)


def cart(params: dict, random_state: int, threads: int) -> Any:
    """CART with R rpart's stopping rules, cp included (see :mod:`.compact`)."""
    from imlbench.learners.compact import RpartTree

    return RpartTree(**params, random_state=random_state)
