"""The data-fidelity experiment of Molnar et al. (Sect. 8, Algorithm 2) as a method.

Run with the ``none`` learner: the method reads only the data. The scenario's ``n`` caps the
rows of a repetition (the paper's min(10,000, n)). The numerical work is in
:mod:`imlbench.explain.data_fidelity`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.explain.data_fidelity import (
    SAMPLERS_A,
    SAMPLERS_B,
    FidelitySettings,
    fidelity_repetition,
)
from imlbench.explain.methods import ExplainContext, method

SETTINGS = ("train_share", "test_share", "mmd", "cart", "trtr", "imp", "ko", "ale", "cvirf")


@method("data_fidelity", params={"samplers", "n_features", *SETTINGS}, kind="metric")
def _data_fidelity(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """-log MMD^2 between reference rows and test rows with x_j perturbed, for each sampler and
    each of the first ``n_features`` (10) features of an order shuffled once per data set
    (the same features in every repetition); one row per (feature, sampler)."""
    order = ctx.fixed_rng("data_fidelity-order:" + ",".join(ctx.feature_names)).permutation(
        len(ctx.feature_names))
    features = order[: int(params.get("n_features", 10))]
    settings = FidelitySettings(**{k: params[k] for k in SETTINGS if k in params})
    df = fidelity_repetition(ctx.X, ctx.y, features,
                             params.get("samplers", [*SAMPLERS_A, *SAMPLERS_B]), rng, settings)
    position = {int(j): i for i, j in enumerate(features)}
    df.insert(1, "position", [position[j] for j in df["feature"]])
    df["feature"] = [ctx.feature_names[j] for j in df["feature"]]
    return df
