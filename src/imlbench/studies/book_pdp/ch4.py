"""Claim kinds of the book's chapter 4 (PDP and causal interpretation, Dassen): the span of a
PDP (Sec. 4.4, scenario 5), the
count of settings whose PDP slope is negative (Sec. 4.4, scenario 2: "four out of nine") and
the difference of the PDP slopes of two settings of one SEM (scenario 3: "worst at N = 10,000
and sd 0.5").

The PDP of X against the intervention curve E[Y | do(X = x)] (Pearl's back-door adjustment,
Sec. 4.3, which equals the PD when no feature of the complement descends from X) is scored by
the layer's kinds with ``truth: interventional``
(:func:`imlbench.metrics.curve_claims.curve_slope`), and the signs of the ICE slopes (Sec.
4.2, after Scholbeck 2018) by its ``ice_share``; the kinds here read the estimates of
their claim's scenario, learner and method (``Tables.other``; curves as columns rep, feature,
x, value, and row for ICE) and test a statistic per repetition with the layer's check
(:func:`imlbench.metrics.curve_claims.compared`: mean over R repetitions, t' SE with SE =
sd / sqrt(R)).
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
    per_combo,
    select_rows,
)
from imlbench.metrics.curve_claims import (
    COMPARE,
    RANGE,
    TOLERANCE,
    compared_row,
    feature_curves,
    ls_slope,
)
from imlbench.params import choice, feature_name, items, number, text
from imlbench.stats import mean_and_se, t_multiplier


def _where(claim: dict, learner: str, method: str, scenario: str | None = None) -> str:
    return f"{scenario or claim['where']['scenario']}/{learner}/{method}"


@claim_kind("pdp_span", params={"feature": feature_name(), "value": number(), **COMPARE,
                                **TOLERANCE})
def pdp_span(claim: dict, t: Tables) -> list[dict]:
    """The span of the curve, largest minus smallest value over its grid, per repetition,
    compared with ``value`` as ``compare`` says, widened by ``atol`` (the layer's check over
    the repetitions)."""

    def one(claim: dict, curves: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        span = curves.groupby("rep")["value"].agg(lambda v: v.max() - v.min())
        if len(span) < 2:
            return NoData(f"an SE over repetitions needs 2 repetitions or more; "
                          f"{_where(claim, learner, method)} has {len(span)}")
        return compared_row(claim, learner, method, span, f"span of {claim['feature']}",
                            value=claim["value"], compare=claim["compare"], atol=claim["atol"])

    return per_combo(claim, t, feature_curves, one)


def _slopes_of(t: Tables, scenario: str, learner: str, method: str, feature: str,
               lo: float, hi: float) -> pd.Series:
    """Per repetition, the least-squares slope of the curve of ``feature`` over its points in
    [lo, hi] in the estimates of ``scenario``, ``learner`` and ``method`` (empty: none)."""
    est = t.other
    rows = select_rows(est, scenario, learner, method) if len(est) else est
    if rows.empty:
        return pd.Series(dtype=float)
    rows = rows[(rows["feature"] == feature) & rows["x"].between(lo, hi)]
    if "rep" not in rows:
        rows = rows.assign(rep=0)
    curves = rows.groupby(["rep", "x"], as_index=False)["value"].mean()
    return pd.Series({rep: ls_slope(g["x"], g["value"]) for rep, g in curves.groupby("rep")},
                     dtype=float).dropna()


@claim_kind("sem_negative_settings", params={
    "settings": items(text()), "feature": feature_name(), "range": RANGE, "value": number(),
    "compare": choice("equal", ("equal", "below", "above")), "k": TOLERANCE["k"]})
def sem_negative_settings(claim: dict, t: Tables) -> list[dict]:
    """How many of the scenarios ``settings`` (the claim's learner and method in each) have a
    negative PDP slope: per setting, the least-squares slope of the curve over the grid
    points in [lo, hi], per repetition; the setting counts as negative when mean + t' SE < 0,
    as positive when mean - t' SE > 0 (t' the Student-t quantile with R - 1 df at Phi(k)),
    else as undecided. The count is the interval [negatives, negatives + undecided]; with
    ``compare: equal`` it holds when ``value`` lies in it, with ``below`` (``above``) when
    the whole interval lies below (above) ``value``. A setting the profile does not run is
    named and counts as undecided (it widens the interval), as does one with one
    repetition."""
    lo, hi = claim["range"]
    k = claim["k"]

    def one(claim: dict, r: object, learner: str, method: str) -> dict | NoData:
        counts = {"negative": [], "positive": [], "undecided": []}
        absent = []
        for scenario in claim["settings"]:
            s = _slopes_of(t, scenario, learner, method, claim["feature"], lo, hi)
            if s.empty:
                absent.append(scenario)
                continue
            if len(s) < 2:
                counts["undecided"].append(f"{scenario} ({s.mean():.3g}, 1 rep)")
                continue
            mean, se = mean_and_se(s)
            half = float(t_multiplier(k, len(s) - 1)) * se
            key = "negative" if mean + half < 0 else "positive" if mean - half > 0 \
                else "undecided"
            counts[key].append(f"{scenario} ({mean:.3g})")
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


@claim_kind("sem_slope_difference", params={
    "than": text(), "feature": feature_name(), "range": RANGE, "value": number(), **COMPARE,
    **TOLERANCE})
def sem_slope_difference(claim: dict, t: Tables) -> list[dict]:
    """The PDP slope of the claim's scenario minus that of scenario ``than`` (two settings of
    one SEM, e.g. N = 10,000 and sd 0.5 against N = 100 and sd 0.1; the same learner and
    method): per repetition of each, the least-squares slope of the curve over its points in
    [lo, hi]; d = mean_1 - mean_2 with SE = sqrt(SE_1^2 + SE_2^2) (independent data sets),
    compared with ``value`` as ``compare`` says, widened by ``atol`` (equal), with the
    Student-t quantile at Phi(k) on min(R_1, R_2) - 1 df (conservative). Both settings share
    the intervention slope, so d is also the difference of their gaps to it."""
    lo, hi = claim["range"]
    k = claim["k"]

    def one(claim: dict, r: object, learner: str, method: str) -> dict | NoData:
        mine, than = claim["where"]["scenario"], claim["than"]
        a = _slopes_of(t, mine, learner, method, claim["feature"], lo, hi)
        b = _slopes_of(t, than, learner, method, claim["feature"], lo, hi)
        for name, s in ((mine, a), (than, b)):
            if len(s) < 2:
                return NoData(f"an SE needs 2 repetitions or more with 2 grid points in "
                              f"[{lo:g}, {hi:g}]; {name}/{learner}/{method} has {len(s)}")
        (ma, sa), (mb, sb) = mean_and_se(a), mean_and_se(b)
        d, se = ma - mb, float(np.hypot(sa, sb))
        tk = float(t_multiplier(k, min(len(a), len(b)) - 1))
        atol = claim["atol"] if claim["compare"] == "equal" else 0.0
        return claim_row(
            claim, learner, method,
            f"slope of {claim['feature']} on [{lo:g}, {hi:g}]: {mine} {ma:.4g} (SE {sa:.3g}, "
            f"{len(a)} reps) minus {than} {mb:.4g} (SE {sb:.3g}, {len(b)} reps) = {d:.4g} "
            f"(SE {se:.3g})",
            f"the difference {claim['compare']} {claim['value']:g} by mean -+ t({k:g}) SE "
            f"(t({k:g}) = {tk:.3g}: the t quantile at Phi({k:g}), {min(len(a), len(b)) - 1} "
            f"df), SE = sqrt(SE_1^2 + SE_2^2)" + (f", widened by {atol:g}" if atol else ""),
            Check(d, tk * se, claim["compare"], claim["value"], atol, scale=1.0))

    return per_combo(claim, t, lambda c, t_, lrn, m: t_, one)
