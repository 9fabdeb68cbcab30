"""The per-model truth of setting II of the conditional-PFI simulation (Molnar et al.,
conditional subgroups, Sect. 6): each fitted model's own true PFI by Monte Carlo."""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.explain.api import FEATURES, ExplainContext, method
from imlbench.params import flag, integer
from imlbench.truth.monte_carlo import model_pfi_truth


@method("conditional_subgroups.model_pfi_truth", kind="theory", requires={"conditional"}, params={
    **FEATURES, "n_mc": integer(100_000, minimum=2), "conditional": flag(True)})
def _model_pfi_truth(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """The fitted model's own true PFI (conditional by default, else marginal) by Monte Carlo
    on ``n_mc`` fresh rows from the DGP, with its SE
    (:func:`imlbench.truth.monte_carlo.model_pfi_truth`)."""
    rows = []
    for j in ctx.features(params):
        value, se = model_pfi_truth(ctx.predict, ctx.dgp, j, params["n_mc"], rng,
                                    conditional=params["conditional"])
        rows.append({"feature": ctx.feature_names[j], "value": value, "se": se})
    return pd.DataFrame(rows)
