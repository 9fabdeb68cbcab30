"""The data-fidelity experiment of Molnar et al. (Sect. 8, Algorithm 2) as a method.

Run with the ``none`` learner: the method reads only the data. The scenario's ``n`` caps the
rows of a repetition (the paper's min(10,000, n)). The numerical work is in
:mod:`imlbench.studies.conditional_subgroups.data_fidelity`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.explain.api import ExplainContext, method
from imlbench.explain.knockoffs import METHODS as KNOCKOFF_CONSTRUCTIONS
from imlbench.explain.samplers import SAMPLERS, SUBGROUP_PARAMS
from imlbench.params import REQUIRED, choice, integer, items, number, table, text
from imlbench.studies.conditional_subgroups.data_fidelity import (
    KNOCKOFF_MOMENTS,
    MMD_ESTIMATORS,
    SAMPLERS_A,
    SAMPLERS_B,
    FidelitySettings,
    fidelity_repetition,
)

#: the paper's protocol: the defaults of :data:`SETTINGS`
PAPER = FidelitySettings()
#: the protocol's settings (:class:`FidelitySettings`); a mapping given replaces the paper's
#: as a whole, and the samplers' own defaults fill the keys it lacks
SETTINGS = {
    "train_share": number(PAPER.train_share, minimum=0, maximum=1),
    "test_share": number(PAPER.test_share, minimum=0, maximum=1),
    "mmd": choice(PAPER.mmd, MMD_ESTIMATORS),
    "cart": table({k: SUBGROUP_PARAMS[k] for k in ("min_node_size", "cp")}, dict(PAPER.cart)),
    "trtr": table({k: SUBGROUP_PARAMS[k] for k in ("min_node_size", "alpha", "n_cuts")},
                  dict(PAPER.trtr)),
    "imp": table({k: p for k, p in SAMPLERS.get("impute_rf").params.items()
                  if k != "residuals"}, dict(PAPER.imp)),
    "ko": table({"construction": choice(REQUIRED, KNOCKOFF_CONSTRUCTIONS),
                 "moments": choice(REQUIRED, KNOCKOFF_MOMENTS)}, dict(PAPER.ko)),
    "ale": table({"grid_size": integer(minimum=1)}, dict(PAPER.ale)),
    "cvirf": table({"max_depth": integer(minimum=1), "min_node_size": integer(minimum=1)},
                   dict(PAPER.cvirf)),
}


@method("conditional_subgroups.data_fidelity", kind="metric", params={
    "samplers": items(text(), [*SAMPLERS_A, *SAMPLERS_B]),
    "n_features": integer(10, minimum=1), **SETTINGS,
})
def _data_fidelity(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """-log MMD^2 between reference rows and test rows with x_j perturbed, for each sampler and
    each of the first ``n_features`` (10) features of an order shuffled once per data set
    (the same features in every repetition); one row per (feature, sampler)."""
    order = ctx.fixed_rng("data_fidelity-order:" + ",".join(ctx.feature_names)).permutation(
        len(ctx.feature_names))
    features = order[: params["n_features"]]
    settings = FidelitySettings(**{k: params[k] for k in SETTINGS})
    df = fidelity_repetition(ctx.X, ctx.y, features, params["samplers"], rng, settings)
    position = {int(j): i for i, j in enumerate(features)}
    df.insert(1, "position", [position[j] for j in df["feature"]])
    df["feature"] = [ctx.feature_names[j] for j in df["feature"]]
    return df
