"""Model fidelity of PDP, ALE and cs-PDPs (Molnar et al., conditional subgroups, Sect. 9)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.explain.methods import ExplainContext, method, named
from imlbench.explain.model_fidelity import model_fidelity


@method("model_fidelity", params={"features", "grid", "intervals", "subgroups"}, kind="metric")
def _model_fidelity(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Eq. 7 on the test rows for the PDP (``grid``), the ALE (``intervals``) and one cs-PDP
    per entry of ``subgroups`` (label -> subgroup-tree parameters), all fitted on the training
    rows; one row per feature, effect and target (``against``: ``y`` or ``model``)."""
    if ctx.X_test is None or len(ctx.X_test) == 0:
        raise ValueError("model_fidelity needs test rows (set test_fraction or n_test)")
    df = model_fidelity(
        ctx.predict, ctx.X, ctx.X_test, ctx.y_test, ctx.features(params), rng,
        grid=params.get("grid"), intervals=params.get("intervals"),
        subgroups=params.get("subgroups"), max_rows=ctx.max_rows,
    )
    return named(ctx, df)
