"""Claim kinds of the book's chapter 2 (PDP and ICE on the Titanic passengers, Sect. 2.1-2.2):
the smallest grid value of a curve (the anchor of Fig. 2.6, the smallest age). The slices of
a 2-D partial dependence surface against each other (Figs 2.3, 2.4) are ``contrast`` claims
on the statistic ``book_pdp.surface_slice`` (:mod:`.statistics`); the share of centred ICE
curves that end above or below their anchor (Fig. 2.6) is the layer's ``ice_share``.

The centred ICE of row i is f(x_S, x_C^(i)) - f(x^a, x_C^(i)) with the anchor x^a the smallest
grid value.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.metrics.claims import Tables, claim_kind, claim_row, per_combo
from imlbench.metrics.curve_claims import feature_curves
from imlbench.params import feature_name, number


@claim_kind("book_pdp.grid_start", params={"feature": feature_name(), "value": number(),
                                  "atol": number(0.0, minimum=0)})
def grid_start(claim: dict, t: Tables) -> list[dict]:
    """The curves of ``feature`` start at ``value``: in every repetition the smallest x is
    within ``atol`` (the printed rounding) of it, e.g. the anchor of a centred ICE, the
    smallest value of the feature. Exact: no sampling error, every repetition is checked."""

    def one(claim: dict, curves: pd.DataFrame, learner: str, method: str) -> dict:
        start = curves.groupby("rep")["x"].min()
        ok = bool((np.abs(start - claim["value"]) <= claim["atol"]).all())
        return claim_row(claim, learner, method,
                         f"smallest x of {claim['feature']}: {start.min():.4g} to "
                         f"{start.max():.4g} over {len(start)} reps",
                         f"|smallest x - {claim['value']:g}| <= {claim['atol']:g} in every "
                         "repetition (exact)", ok)

    return per_combo(claim, t, feature_curves, one)
