"""The claim kind of Hooker, Mentch & Zhou (2021) that the comparison kit does not cover.

``extrapolation.rejection_rate``  a test rejects at the nominal level, or above it (Fig. 8)

The study's other claims use the layer's kinds: ``contrast`` with the study's statistics
(:mod:`.statistics`: curves, surfaces, ICE errors against the truth, importances and their
ratio to a model-level theory), ``ranks_match_theory``, ``rank_order`` and ``rank_shift``
(:mod:`imlbench.metrics.rank_claims`), ``curve_slope`` and ``curve_gap``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.metrics.claims import Check, Tables, claim_kind, claim_row, per_combo
from imlbench.params import REQUIRED, choice, number


@claim_kind("extrapolation.rejection_rate", params={"k": number(3.0, minimum=0),
                                      "alpha": number(0.05, minimum=0, maximum=1),
                                      "expect": choice(REQUIRED, ("nominal", "above"))})
def rejection_rate(claim: dict, t: Tables) -> list[dict]:
    """The rejection rate of a test over the repetitions (one decision each) near its level
    (``expect: nominal``, |rate - alpha| <= k SE) or above it (``expect: above``, rate -
    alpha > k SE), SE = sqrt(alpha (1 - alpha) / reps): the binomial SE of a rate under the
    null that the test holds its level, known rather than estimated from the repetitions (so
    ``k`` is a normal quantile, and a rate of 0 or 1 still has an interval); verdict and power
    per :class:`imlbench.metrics.claims.Check`."""
    k = claim["k"]
    alpha = claim["alpha"]

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict:
        rate = r["reject"].mean()
        se = np.sqrt(alpha * (1 - alpha) / len(r))
        check = Check(rate, k * se, "equal" if claim["expect"] == "nominal" else "above", alpha,
                      scale=alpha)
        return claim_row(
            claim, learner, method, f"rejection rate {rate:.3f} over {len(r)} reps",
            f"{'|rate - alpha|' if claim['expect'] == 'nominal' else 'rate - alpha'} vs "
            f"{k:g} SE = {k * se:.3f}", check,
        )

    return per_combo(claim, t, "other", one)
