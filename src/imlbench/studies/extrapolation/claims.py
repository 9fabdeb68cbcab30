"""Claim kinds of Hooker, Mentch & Zhou (2021) on model-level theory and tests.

``matches_model_theory``  importance equals a model-level theoretical value (Theorem 1)
``rejection_rate``        a test rejects at the nominal level, or above it (Fig. 8)

The study's claims on ranks (mean ranks against the truth's theoretical ranks, Theorem 1 and
Figs. 1-2; one set of features outranking another, Figs. 1, 2, 7) use the layer's kinds
``ranks_match_theory`` and ``rank_order`` (:mod:`imlbench.metrics.rank_claims`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.metrics.claims import Check, Tables, claim_kind, claim_row, paired, per_combo
from imlbench.params import REQUIRED, choice, number, study_name
from imlbench.stats import mean_and_se

Z3 = {"z": number(3.0, minimum=0)}
#: floor of the tolerance of ``matches_model_theory``: an estimate that equals its theory by
#: an algebraic identity (drop-and-refit of a least-squares fit) has an SE of 0 and differs
#: from it by floating-point rounding only
ROUNDING = 1e-9


@claim_kind("matches_model_theory", params={**Z3, "theory_method": study_name("methods")})
def matches_model_theory(claim: dict, t: Tables) -> list[dict]:
    """Estimates equal a model-level theoretical value in expectation: per repetition the
    ratio sum_j estimate_j / sum_j theory_j, averaged over reps, is 1 within z SE over reps
    (plus :data:`ROUNDING`); verdict and power per :class:`imlbench.metrics.claims.Check`.
    (Summing over features keeps near-zero theory values, e.g. a null feature, from
    dominating the ratio.)"""
    z = claim["z"]

    def one(claim: dict, pair: tuple[pd.DataFrame, pd.DataFrame], learner: str, method: str
            ) -> dict:
        est, theory = pair
        m = est.merge(theory[["rep", "feature", "value"]], on=["rep", "feature"],
                      suffixes=("", "_theory"))
        sums = m.groupby("rep")[["value", "value_theory"]].sum()
        ratio = sums["value"] / sums["value_theory"]
        se = mean_and_se(ratio)[1]
        check = Check(float(ratio.mean()), z * se, "equal", 1.0, ROUNDING, scale=1.0)
        return claim_row(
            claim, learner, method,
            f"mean ratio estimate/theory {ratio.mean():.6g} (SE {se:.3g}, {len(ratio)} reps)",
            f"|ratio - 1| <= {z:g} SE + {ROUNDING:g} = {z * se + ROUNDING:.3g}", check,
        )

    return per_combo(claim, t, paired("ranked", "theory_method", "other"), one)


@claim_kind("rejection_rate", params={**Z3, "alpha": number(0.05, minimum=0, maximum=1),
                                 "expect": choice(REQUIRED, ("nominal", "above"))})
def rejection_rate(claim: dict, t: Tables) -> list[dict]:
    """Rejection rate of a test near the level (``expect: nominal``, |rate - alpha| <= z SE)
    or above it (``expect: above``, rate - alpha > z SE), SE = sqrt(alpha (1 - alpha) / reps);
    verdict and power per :class:`imlbench.metrics.claims.Check`."""
    z = claim["z"]
    alpha = claim["alpha"]

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict:
        rate = r["reject"].mean()
        se = np.sqrt(alpha * (1 - alpha) / len(r))
        check = Check(rate, z * se, "equal" if claim["expect"] == "nominal" else "above", alpha,
                      scale=alpha)
        return claim_row(
            claim, learner, method, f"rejection rate {rate:.3f} over {len(r)} reps",
            f"{'|rate - alpha|' if claim['expect'] == 'nominal' else 'rate - alpha'} vs "
            f"{z:g} SE = {z * se:.3f}", check,
        )

    return per_combo(claim, t, "other", one)
