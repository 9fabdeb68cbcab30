"""Neural networks. Each function builds the unfitted estimator of one registered learner
(:data:`imlbench.learners.LEARNERS`), from its study parameters, seed and threads."""

from __future__ import annotations

from typing import Any


def mlp(params: dict, random_state: int, threads: int) -> Any:
    """One hidden layer of logistic units fitted by L-BFGS, as R's ``nnet``.

    ``decay`` is nnet's weight decay (sklearn's ``alpha``), ``maxit`` its iteration
    cap; ``scale: true`` standardises the inputs first.
    """
    from sklearn.neural_network import MLPRegressor
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    p = {"size": 20, "decay": 0.0, "maxit": 100, "scale": False, **params}
    net = MLPRegressor(
        hidden_layer_sizes=(int(p["size"]),),
        activation="logistic",
        solver="lbfgs",
        alpha=float(p["decay"]),
        max_iter=int(p["maxit"]),
        random_state=random_state,
    )
    return make_pipeline(StandardScaler(), net) if p["scale"] else net
