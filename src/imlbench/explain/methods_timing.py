"""The generic timing method by name: the run time of another registered method against the
number of rows.

The adapter turns a study file's parameters (declared with type, default and allowed values;
see :mod:`imlbench.explain.api`) into calls of the timed method, and returns a tidy table.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from imlbench.explain.api import FEATURES, METHODS, ExplainContext, method, named
from imlbench.explain.timing import time_by_size
from imlbench.params import flag, integer, items, registered, table


def _timed_params(p: dict) -> dict:
    return METHODS.get(p["timed"]).params if p.get("timed") in METHODS else {}


@method("timing", params={
    **FEATURES, "timed": registered(METHODS), "timed_params": table(_timed_params, {}),
    "sizes": items(integer(minimum=2), unique=True), "times": integer(3, minimum=1),
    "together": flag(False), "refit": flag(False),
})
def _timing(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Seconds per call of method ``timed`` (with ``timed_params``) on the first n of a random
    order of the training rows, for every n of ``sizes``, ``times`` times
    (:func:`imlbench.explain.timing.time_by_size`): one feature at a time, or all ``features``
    in one call with ``together`` (a 2-D method's pair). With ``refit`` the learner is fitted
    again on the n rows before they are timed (untimed), so that the explained model is the one
    trained on n rows, as when each size is its own data set; without it, every size explains
    the model fitted on all training rows. Columns feature (the group's first), features (its
    size), n, repeat, seconds, and levels: the feature's distinct values among the n rows."""
    timed = METHODS.get(params["timed"])
    inner = dict(params["timed_params"])
    call_rng = np.random.default_rng(rng.integers(2**63))
    indices = ctx.features(params)
    groups = [tuple(indices)] if params["together"] else [(j,) for j in indices]
    current = {"model": ctx.model}

    def prepare(rows: np.ndarray) -> None:
        predict = ctx.fit(ctx.X[rows], ctx.y[rows])
        current["model"] = getattr(predict, "__self__", None) or _Predictor(predict)

    def run(rows: np.ndarray, group: tuple[int, ...]) -> object:
        sub = dataclasses.replace(ctx, model=current["model"], X=ctx.X[rows], y=ctx.y[rows],
                                  samplers={})
        return timed(sub, {**inner, "features": [ctx.feature_names[j] for j in group]},
                     call_rng)

    return named(ctx, time_by_size(run, ctx.X, groups, params["sizes"], params["times"], rng,
                                   prepare if params["refit"] else None))


@dataclasses.dataclass(frozen=True)
class _Predictor:
    """A bare prediction function as a model (what a refit returns when it is no bound
    method of an estimator)."""

    predict: object
