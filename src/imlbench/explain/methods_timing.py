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
from imlbench.params import integer, items, registered, table


def _timed_params(p: dict) -> dict:
    return METHODS.get(p["timed"]).params if p.get("timed") in METHODS else {}


@method("timing", params={
    **FEATURES, "timed": registered(METHODS), "timed_params": table(_timed_params, {}),
    "sizes": items(integer(minimum=2)), "times": integer(3, minimum=1),
})
def _timing(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Seconds per call of method ``timed`` (with ``timed_params``) explaining one feature on the
    first n of a random order of the training rows, for every n of ``sizes``, ``times`` times
    (:func:`imlbench.explain.timing.time_by_size`). Columns feature, n, repeat, seconds, and
    levels: the feature's distinct values among the n rows."""
    timed = METHODS.get(params["timed"])
    inner = dict(params["timed_params"])
    call_rng = np.random.default_rng(rng.integers(2**63))

    def run(rows: np.ndarray, j: int) -> object:
        sub = dataclasses.replace(ctx, X=ctx.X[rows], y=ctx.y[rows], samplers={})
        return timed(sub, {**inner, "features": [ctx.feature_names[j]]}, call_rng)

    return named(ctx, time_by_size(run, ctx.X, ctx.features(params), params["sizes"],
                                   params["times"], rng))
