"""The StratPD study's own method: the strata behind the schematic of Fig. 2."""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.explain.api import FEATURES, ExplainContext, method
from imlbench.explain.stratpd import stratify
from imlbench.params import integer


@method("stratpd.strata", params={**FEATURES, "min_samples_leaf": integer(10, minimum=1)})
def strata(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Every training row with its stratum: the leaf of the regression tree that StratPD and
    CatStratPD fit to (X_-j, y) (Parr & Wilson, Algorithms 1-2, line 1). Columns feature,
    x (x_j), other (the first other feature), y, leaf."""
    frames = []
    for j in ctx.features(params):
        others = np.delete(ctx.X, j, axis=1)
        leaf = stratify(others, ctx.y, params["min_samples_leaf"], rng)
        frames.append(pd.DataFrame({"feature": ctx.feature_names[j], "x": ctx.X[:, j],
                                    "other": others[:, 0], "y": ctx.y, "leaf": leaf}))
    return pd.concat(frames, ignore_index=True)
