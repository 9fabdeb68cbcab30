"""Least squares. Each function builds the unfitted estimator of one registered learner
(:data:`imlbench.learners.LEARNERS`), from its study parameters, seed and threads."""

from __future__ import annotations

from typing import Any


def lm(params: dict, random_state: int, threads: int) -> Any:
    from sklearn.linear_model import LinearRegression

    return LinearRegression(**params)


def ols(params: dict, random_state: int, threads: int) -> Any:
    """Least squares with an intercept, as ``lm`` without scikit-learn's input checks."""
    from imlbench.learners.compact import LeastSquares

    if params:
        raise ValueError(f"the ols learner takes no parameters, got {', '.join(params)}")
    return LeastSquares()
