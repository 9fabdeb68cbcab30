"""Neural networks. Each function builds the unfitted estimator of one registered learner
(:data:`imlbench.learners.LEARNERS`), from its study parameters, seed and threads."""

from __future__ import annotations

import math
from typing import Any

from imlbench.params import Param, flag, integer, number, with_defaults

#: the hyperparameters of ``mlp``, R ``nnet``'s names: ``size`` hidden units, ``decay`` the
#: weight decay (>= 0, scikit-learn's ``alpha``), ``maxit`` the iteration cap (scikit-learn's
#: ``max_iter``, at least 1), ``scale`` whether the inputs are standardised first
PARAMS: dict[str, Param] = {
    "size": integer(20, minimum=1),
    "decay": number(0.0, minimum=0, below=math.inf),
    "maxit": integer(100, minimum=1),
    "scale": flag(False),
}


def mlp(params: dict, random_state: int, threads: int) -> Any:
    """One hidden layer of logistic units fitted by L-BFGS, as R's ``nnet``.

    ``decay`` is nnet's weight decay (sklearn's ``alpha``), ``maxit`` its iteration
    cap; ``scale: true`` standardises the inputs first (:data:`PARAMS`).
    """
    from sklearn.neural_network import MLPRegressor
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    p = with_defaults(PARAMS, params)
    net = MLPRegressor(
        hidden_layer_sizes=(int(p["size"]),),
        activation="logistic",
        solver="lbfgs",
        alpha=float(p["decay"]),
        max_iter=int(p["maxit"]),
        random_state=random_state,
    )
    return make_pipeline(StandardScaler(), net) if p["scale"] else net
