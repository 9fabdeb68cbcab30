"""Model fidelity of PDP, ALE and cs-PDPs (Molnar et al., conditional subgroups, Sect. 9)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.explain.ale import INTERVAL_FIELDS
from imlbench.explain.api import FEATURES, ExplainContext, method, named
from imlbench.explain.grids import GRID_FIELDS
from imlbench.explain.samplers import SUBGROUP_PARAMS
from imlbench.params import table
from imlbench.studies.conditional_subgroups.model_fidelity import (
    ALE_INTERVALS,
    PDP_GRID,
    SUBGROUPS,
    model_fidelity,
)


@method("conditional_subgroups.model_fidelity", kind="metric", requires={"test_rows"}, params={
    **FEATURES, "grid": table(GRID_FIELDS, PDP_GRID),
    "intervals": table(INTERVAL_FIELDS, ALE_INTERVALS),
    "subgroups": table(value=table(SUBGROUP_PARAMS), default=SUBGROUPS),
})
def _model_fidelity(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Eq. 7 on the test rows for the PDP (``grid``), the ALE (``intervals``) and one cs-PDP
    per entry of ``subgroups`` (label -> subgroup-tree parameters), all fitted on the training
    rows; one row per feature, effect and target (``against``: ``y`` or ``model``)."""
    df = model_fidelity(
        ctx.predict, ctx.X, ctx.X_test, ctx.y_test, ctx.features(params), rng,
        grid=params["grid"], intervals=params["intervals"], subgroups=params["subgroups"],
        max_rows=ctx.max_rows,
    )
    return named(ctx, df)
