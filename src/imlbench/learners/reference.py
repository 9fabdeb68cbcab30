"""Reference models: the DGP's own f and the training mean. Each function builds the unfitted
estimator of one registered learner (:data:`imlbench.learners.LEARNERS`), from its study
parameters, seed and threads."""

from __future__ import annotations

from typing import Any


def truth(params: dict, random_state: int, threads: int) -> Any:
    """The DGP's own f (see :mod:`imlbench.learners.truth`); the fit stage binds the DGP."""
    from imlbench.learners.truth import TrueFunction

    if params:
        raise ValueError(f"the truth learner takes no parameters, got {', '.join(params)}")
    return TrueFunction()


def none(params: dict, random_state: int, threads: int) -> Any:
    """No model: the training mean. For methods that study the data alone (data fidelity)."""
    from sklearn.dummy import DummyRegressor

    if params:
        raise ValueError(f"the none learner takes no parameters, got {', '.join(params)}")
    return DummyRegressor(strategy="mean")
