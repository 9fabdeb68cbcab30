"""Claim kinds of the book's chapter 4 (PDP and causal interpretation, Dassen): the count of
settings whose PDP slope is negative (Sec. 4.4, scenario 2: "four out of nine").

The PDP of X against the intervention curve E[Y | do(X = x)] (Pearl's back-door adjustment,
Sec. 4.3, which equals the PD when no feature of the complement descends from X) is scored by
the layer's kinds with ``truth: interventional``
(:func:`imlbench.metrics.curve_claims.curve_slope`), and the signs of the ICE slopes (Sec.
4.2, after Scholbeck 2018) by its ``ice_share``. The span of a PDP (Sec. 4.4, scenario 5) is
a ``contrast`` of the statistic ``book_pdp.span`` (:mod:`.statistics`), and the difference
of the PDP slopes of two settings of one SEM (scenario 3: "worst at N = 10,000 and sd 0.5") a
``contrast`` of the layer's ``curve_slope`` by ``difference``.
"""

from __future__ import annotations

import pandas as pd

from imlbench.metrics.claims import (
    REPRODUCED,
    Check,
    NoData,
    Tables,
    claim_kind,
    claim_row,
    per_combo,
)
from imlbench.metrics.contrasts import STATISTICS, Cell, compared, few
from imlbench.metrics.curve_claims import RANGE, TOLERANCE
from imlbench.params import choice, feature_name, items, number, text


def _sign(slopes: pd.Series, k: float) -> str:
    """``negative`` when the mean slope is significantly below 0, ``positive`` when above, else
    ``undecided`` (the kit's one-sample interval, :func:`imlbench.metrics.contrasts.compared`:
    mean -+ t' SE, t' on R - 1 df)."""
    for sign, compare in (("negative", "below"), ("positive", "above")):
        if compared(slopes, 0.0, k, 0.0, compare)[0].verdict() == REPRODUCED:
            return sign
    return "undecided"


@claim_kind("book_pdp.sem_negative_settings", params={
    "settings": items(text()), "feature": feature_name(), "range": RANGE, "value": number(),
    "compare": choice("equal", ("equal", "below", "above")), "k": TOLERANCE["k"]})
def sem_negative_settings(claim: dict, t: Tables) -> list[dict]:
    """How many of the scenarios ``settings`` (the claim's learner and method in each) have a
    negative PDP slope: per setting, the least-squares slope of the curve over the grid
    points in [lo, hi] per repetition (the layer's statistic ``curve_slope``); the setting
    counts as negative when mean + t' SE < 0, as positive when mean - t' SE > 0 (t' the
    Student-t quantile with R - 1 df at Phi(k)), else as undecided. The count is the interval
    [negatives, negatives + undecided]; with ``compare: equal`` it holds when ``value`` lies in
    it, with ``below`` (``above``) when the whole interval lies below (above) ``value``. A
    setting the profile does not run is named and counts as undecided (it widens the
    interval), as does one with one repetition. A count over settings, not a statistic per
    repetition: no ``contrast``."""
    lo, hi = claim["range"]
    k = claim["k"]
    slope = STATISTICS.get("curve_slope").compute

    def one(claim: dict, r: object, learner: str, method: str) -> dict | NoData:
        counts = {"negative": [], "positive": [], "undecided": []}
        absent = []
        for scenario in claim["settings"]:
            got = slope(Cell(scenario, learner, method,
                             {"feature": claim["feature"], "range": [lo, hi]}), t)
            s = pd.Series(dtype=float) if isinstance(got, NoData) else got.values
            if s.empty:
                absent.append(scenario)
            elif few(len(s), 2, "a slope", scenario):
                counts["undecided"].append(f"{scenario} ({s.mean():.3g}, 1 rep)")
            else:
                counts[_sign(s, k)].append(f"{scenario} ({s.mean():.3g})")
        run = len(claim["settings"]) - len(absent)
        if not run:
            return NoData(f"no setting of {', '.join(claim['settings'])} has estimates of "
                          f"{learner}/{method}")
        low = len(counts["negative"])
        high = low + len(counts["undecided"]) + len(absent)
        listed = "; ".join(f"{key}: {', '.join(v)}" for key, v in counts.items() if v)
        left = f"; not run: {', '.join(absent)}" if absent else ""
        return claim_row(
            claim, learner, method,
            f"{low} of {run} settings with a negative PDP slope of {claim['feature']} on "
            f"[{lo:g}, {hi:g}] ({len(counts['undecided'])} undecided) [{listed}]{left}",
            f"a setting is negative when mean slope + t({k:g}) SE < 0, positive when mean - "
            f"t({k:g}) SE > 0 (t: the Student-t quantile at Phi({k:g}) with reps - 1 df); "
            f"the count {claim['compare']} {claim['value']:g}",
            Check((low + high) / 2, (high - low) / 2, claim["compare"], claim["value"],
                  scale=float(run)))

    return per_combo(claim, t, lambda c, t_, lrn, m: t_, one)
