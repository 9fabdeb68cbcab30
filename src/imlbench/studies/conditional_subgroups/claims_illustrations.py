"""Claim kinds of the illustrative figures of Molnar et al. (conditional subgroups, Figs. 1-5).

Each reads the estimates of one data set from ``tables.other`` and writes its tolerance (k
times a standard error that the statistics of that one data set give: the ICE rows, bootstrap
resamples, the binomial law of a share, Fisher's z; by default k = 2 for a one-sided test, 3
for an equality, :func:`default_k`) into the row. They are no ``contrast`` claims: there are
no repetitions to take an SE over. Fig. 2's
claim on a sampler's PFI against the marginal PFI is the layer's ``importance_change``
(:mod:`imlbench.metrics.rank_claims`).

``conditional_subgroups.pdp_exceeds_observed``
    (Fig. 1) at every grid value above ``above`` the PDP exceeds the largest observed prediction:
    PDP - max - k SE > 0, SE = SD of the ICE values / sqrt(n) (method
    ``conditional_subgroups.pdp_vs_predictions``).
``conditional_subgroups.effect_slope``
    (Figs. 2, 5) the least-squares slope of an effect curve is positive (slope - k SE > 0),
    negative, or equal to ``value`` (|slope - value| <= k SE), for every subgroup; SE from bootstrap
    resamples of the rows (method ``conditional_subgroups.effect_slopes``).
``conditional_subgroups.draw_share_outside``
    (Fig. 3) among the rows with ``given`` below ``below``, the share of the sampler's draws of the
    feature outside ``interval``, against its probability ``expected`` under the true conditional
    law: ``above``: share - k SE > expected; ``equal``: |share - expected| <= k SE; SE =
    sqrt(expected (1 - expected) / rows), the binomial SE of a share of that many independent draws
    from the true law (method ``conditional_subgroups.sampler_draws``).
``conditional_subgroups.draw_correlation``
    (Fig. 4) the Pearson correlation of the draws with feature ``with`` against ``value``, on
    Fisher's z scale with SE = 1 / sqrt(rows - 3): ``above``: z(r) - k SE > z(value); ``below``:
    z(r) + k SE < z(value); ``equal``: |z(r) - z(value)| <= k SE (method
    ``conditional_subgroups.sampler_draws``).

Every kind's verdict and power (margin + 2 half) per :class:`imlbench.metrics.claims.Check`
(an interval of a one-sided test that straddles its bound is ``inconclusive``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.metrics.claims import (
    Check,
    NoData,
    Tables,
    claim_kind,
    claim_row,
    default_k,
    estimates,
    per_combo,
)
from imlbench.params import REQUIRED, choice, feature_name, items, number

#: floor added to an equality tolerance: a curve that is exactly linear for every resample
#: has a bootstrap SE of 0 and its slope is still computed in floating point.
ROUNDING = 1e-9
EXPECTS = ("positive", "negative", "value")
#: the multiplier of the SE; by default 3 for an equality, 2 for a one-sided test
K_BY_EXPECT = {"k": number(None, minimum=0, nullable=True)}


def _feature_rows(claim: dict, t: Tables, learner: str, method: str) -> pd.DataFrame | NoData:
    """Selector (:func:`imlbench.metrics.claims.per_combo`): the claim's estimates of its
    ``feature``."""
    r = estimates("other")(claim, t, learner, method)
    if isinstance(r, NoData):
        return r
    r = r[r["feature"] == claim["feature"]]
    return r if len(r) else NoData()


def _draw_rows(claim: dict, t: Tables, learner: str, method: str) -> pd.DataFrame | NoData:
    """Selector: the rows of one repetition's draws of the claim's feature (columns: the
    features, ``draw``)."""
    r = _feature_rows(claim, t, learner, method)
    if isinstance(r, NoData) or "rep" not in r:
        return r
    return r[r["rep"] == r["rep"].min()]


@claim_kind("conditional_subgroups.pdp_exceeds_observed", params={
    "feature": feature_name(), "above": number(), "k": number(2.0, minimum=0)})
def pdp_exceeds_observed(claim: dict, t: Tables) -> list[dict]:
    k = claim["k"]
    above = claim["above"]

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        r = r[r["x"] > above]
        if r.empty:
            return NoData()
        margin = r["value"] - r["pred_max"]
        check = Check(margin.to_numpy(float), k * r["se"].to_numpy(float), "above", 0.0,
                      scale=float(r["pred_max"].iloc[0]))
        worst = int(np.argmin((margin / r["se"]).to_numpy()))
        return claim_row(
            claim, learner, method,
            f"PDP minus largest prediction ({r['pred_max'].iloc[0]:.3f}) at {len(r)} grid "
            f"values {claim['feature']} > {above:g}: {margin.min():.3f} to {margin.max():.3f}; "
            f"weakest at {r['x'].iloc[worst]:.2f}: {margin.iloc[worst]:.3f} "
            f"(SE {r['se'].iloc[worst]:.3f})",
            f"PDP - max - {k:g} SE > 0 at every grid value", check,
        )

    return per_combo(claim, t, _feature_rows, one)


@claim_kind("conditional_subgroups.effect_slope", params={
    "feature": feature_name(), "expect": choice(REQUIRED, EXPECTS), "value": number(0.0),
    **K_BY_EXPECT})
def effect_slope(claim: dict, t: Tables) -> list[dict]:
    expect = claim["expect"]
    k = default_k(claim, expect == "value")
    target = claim["value"]

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict:
        slope, se = r["slope"].to_numpy(float), r["se"].to_numpy(float)
        if expect == "positive":
            check, rule = Check(slope, k * se, "above", 0.0), f"slope - {k:g} SE > 0"
        elif expect == "negative":
            check, rule = Check(slope, k * se, "below", 0.0), f"slope + {k:g} SE < 0"
        else:
            check = Check(slope, k * se, "equal", target, ROUNDING, scale=target)
            rule = f"|slope - {target:g}| <= {k:g} SE (+{ROUNDING:g})"
        groups = "; ".join(
            (f"group {int(g)} (n = {int(n)}): " if len(r) > 1 else "") + f"{s:.4f} (SE {e:.4f})"
            for g, n, s, e in zip(r["group"], r["n"], slope, se, strict=True))
        return claim_row(claim, learner, method, f"slope of {claim['feature']}: {groups}",
                         f"{rule} for every curve; SE over {int(r['n_boot'].min())} bootstrap "
                         f"resamples", check)

    return per_combo(claim, t, _feature_rows, one)


@claim_kind("conditional_subgroups.draw_share_outside", params={
    "feature": feature_name(), "given": feature_name(), "below": number(),
    "interval": items(number(), length=2), "expected": number(minimum=0, maximum=1),
    "expect": choice(REQUIRED, ("above", "equal")), **K_BY_EXPECT})
def draw_share_outside(claim: dict, t: Tables) -> list[dict]:
    expect, p0 = claim["expect"], claim["expected"]
    k = default_k(claim, expect == "equal")
    lo, hi = claim["interval"]

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        if claim["given"] not in r:
            return NoData(f"the draws of {method} have no column {claim['given']}")
        r = r[r[claim["given"]] < claim["below"]]
        if r.empty:
            return NoData()
        share = float(((r["draw"] < lo) | (r["draw"] > hi)).mean())
        se = float(np.sqrt(p0 * (1 - p0) / len(r)))
        check = Check(share, k * se, expect, p0, scale=1.0)
        return claim_row(
            claim, learner, method,
            f"share of draws of {claim['feature']} outside [{lo:g}, {hi:g}] among the "
            f"{len(r)} rows with {claim['given']} < {claim['below']:g}: {share:.3f}",
            ("share - " if expect == "above" else "|share - expected| <= ")
            + f"{k:g} SE{' > expected' if expect == 'above' else ''}; expected {p0:.4f}, "
            f"binomial SE sqrt(expected (1 - expected) / {len(r)}) = {se:.4f}", check)

    return per_combo(claim, t, _draw_rows, one)


@claim_kind("conditional_subgroups.draw_correlation", params={
    "feature": feature_name(), "with": feature_name(), "value": number(minimum=-1, maximum=1),
    "expect": choice(REQUIRED, ("above", "below", "equal")), **K_BY_EXPECT})
def draw_correlation(claim: dict, t: Tables) -> list[dict]:
    expect, value = claim["expect"], claim["value"]
    k = default_k(claim, expect == "equal")

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        if len(r) < 4 or claim["with"] not in r:
            return NoData(f"{method}: a correlation with an SE needs 4 rows and a column "
                          f"{claim['with']}; it has {len(r)} rows")
        rho = float(np.corrcoef(r["draw"], r[claim["with"]])[0, 1])
        se = 1.0 / np.sqrt(len(r) - 3)
        gap = np.arctanh(np.clip(rho, -1 + 1e-12, 1 - 1e-12)) - np.arctanh(value)
        check = Check(gap, k * se, expect, 0.0)
        rule = {"above": f"z(r) - {k:g} SE > z({value:g})",
                "below": f"z(r) + {k:g} SE < z({value:g})",
                "equal": f"|z(r) - z({value:g})| <= {k:g} SE"}[expect]
        return claim_row(
            claim, learner, method,
            f"correlation of the draws of {claim['feature']} with {claim['with']}: {rho:.3f} "
            f"({len(r)} rows; Fisher z {gap + np.arctanh(value):.3f})",
            f"{rule}, Fisher's z scale, SE = 1 / sqrt(rows - 3) = {se:.3f}", check)

    return per_combo(claim, t, _draw_rows, one)
