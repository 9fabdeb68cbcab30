"""The forest's conditional variable importance (CVIRF), a competitor of cs-PFI in setting II
of the conditional-subgroups simulation (Molnar et al., Sect. 6, Table 7, Fig. 14)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.explain.cvirf import conditional_oob_importance
from imlbench.explain.methods import ExplainContext, method, named


@method("cvirf", requires={"oob", "trees"}, params={"features", "threshold"}, kind="importance")
def _cvirf(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """permimp's conditional permutation importance of the fitted forest on its out-of-bag
    training rows (:func:`imlbench.explain.cvirf.conditional_oob_importance`), conditioning on
    the features whose association with x_j has 1 - p > ``threshold`` (default 0.95)."""
    df = conditional_oob_importance(
        ctx.model, ctx.X, ctx.y, features=ctx.features(params),
        threshold=params.get("threshold", 0.95), rng=rng,
    )
    return named(ctx, df)
