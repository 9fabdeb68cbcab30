"""Claim kinds of the book's chapter 2 (PDP and ICE on the Titanic passengers, Sect. 2.1-2.2):
slices of a 2-D partial dependence surface against each other (Figs 2.3, 2.4) and the smallest
grid value of a curve (the anchor of Fig. 2.6, the smallest age); the share of centred ICE
curves that end above or below their anchor (Fig. 2.6) is the layer's ``ice_share``.

The 2-D PDP is f(x_S) = (1/n) sum_i f(x_j, x_l, x_C^(i)) (the book's PD estimator with
S = {j, l}); the centred ICE of row i is f(x_S, x_C^(i)) - f(x^a, x_C^(i)) with the anchor x^a
the smallest grid value. Each kind computes a statistic per repetition (forest seed) and
tests its mean with the layer's check (:func:`imlbench.metrics.curve_claims.compared`: t' SE
with SE = sd over the R repetitions / sqrt(R)), unless its doc says otherwise.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.metrics.claims import NoData, Tables, claim_kind, claim_row, estimates, per_combo
from imlbench.metrics.curve_claims import (
    COMPARE,
    RANGE,
    TOLERANCE,
    compared_row,
    feature_curves,
    ls_slope,
)
from imlbench.params import choice, feature_name, items, number


def _where(claim: dict, learner: str, method: str) -> str:
    return f"{claim['where']['scenario']}/{learner}/{method}"


def _surfaces(claim: dict, t: Tables, learner: str, method: str) -> pd.DataFrame | NoData:
    """Selector: the 2-D surface rows (rep, x, z, value) of the claim's scenario, learner and
    method."""
    r = estimates("other")(claim, t, learner, method)
    if isinstance(r, NoData):
        return r
    if not {"x", "z", "value"} <= set(r):
        return NoData(f"the estimates of {_where(claim, learner, method)} are no surface "
                      "(columns x, z)")
    return r if "rep" in r else r.assign(rep=0)


#: the statistic of one slice of a surface over x: its least-squares slope or its mean
SLICE_STATS = {"slope": ls_slope, "mean": lambda x, v: float(np.mean(v))}


def _slice_stat(rep: pd.DataFrame, z: float, lo: float, hi: float, stat: str) -> float:
    """``stat`` of the slice f(., z) of one repetition over its points with x in [lo, hi]
    (NaN with fewer than 2)."""
    s = rep[(rep["x"] >= lo) & (rep["x"] <= hi) & np.isclose(rep["z"], z)].sort_values("x")
    if len(s) < 2:
        return float("nan")
    return SLICE_STATS[stat](s["x"].to_numpy(float), s["value"].to_numpy(float))


@claim_kind("surface_slices", params={
    "at": number(), "than": number(None, nullable=True), "range": RANGE,
    "stat": choice("slope", tuple(SLICE_STATS)),
    "than_range": items(number(), default=None, length=2, nullable=True), "value": number(),
    **COMPARE, **TOLERANCE})
def surface_slices(claim: dict, t: Tables) -> list[dict]:
    """A slice of a 2-D PDP f(x, z), or two against each other: per repetition d =
    stat(f(., at)) over the grid points with x in ``range`` (``at``: the grid's z nearest to
    it), minus stat(f(., than)) when ``than`` is given; ``stat`` is the least-squares slope
    (e.g. the decline of survival with age for men less that for women) or the mean. With
    ``than_range``, d is that contrast minus the same contrast over ``than_range`` (e.g. the
    fare gap of adults beyond that of children). The mean of d is compared with ``value`` as
    ``compare`` says."""
    lo, hi = claim["range"]
    other, stat = claim["than_range"], claim["stat"]

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        zs = np.unique(r["z"].to_numpy(float))
        za, zb = (None if a is None else float(zs[np.argmin(np.abs(zs - a))])
                  for a in (claim["than"], claim["at"]))
        if za == zb:
            return NoData(f"claim {claim['id']}: at and than pick the same grid z {zb:g} "
                          f"(the surface's z: {', '.join(f'{z:g}' for z in zs)})")

        def contrast(g: pd.DataFrame, a: float, b: float) -> float:
            base = 0.0 if za is None else _slice_stat(g, za, a, b, stat)
            return _slice_stat(g, zb, a, b, stat) - base

        d = {rep: contrast(g, lo, hi) - (0.0 if other is None else contrast(g, *other))
             for rep, g in r.groupby("rep")}
        d = pd.Series(d, dtype=float).dropna()
        if len(d) < 2:
            return NoData(f"an SE over repetitions needs slices of 2 points or more in 2 "
                          f"repetitions; {_where(claim, learner, method)} has them in {len(d)}")
        what = f"{stat} over x in [{lo:g}, {hi:g}] at z = {zb:g}"
        if za is not None:
            what += f" minus at z = {za:g}"
        if other is not None:
            what += f", less the same over [{other[0]:g}, {other[1]:g}]"
        return compared_row(claim, learner, method, d, what, value=claim["value"],
                            compare=claim["compare"], atol=claim["atol"])

    return per_combo(claim, t, _surfaces, one)


@claim_kind("grid_start", params={"feature": feature_name(), "value": number(),
                                  "atol": number(0.0, minimum=0)})
def grid_start(claim: dict, t: Tables) -> list[dict]:
    """The curves of ``feature`` start at ``value``: in every repetition the smallest x is
    within ``atol`` (the printed rounding) of it, e.g. the anchor of a centred ICE, the
    smallest value of the feature. Exact: no sampling error."""

    def one(claim: dict, curves: pd.DataFrame, learner: str, method: str) -> dict:
        start = curves.groupby("rep")["x"].min()
        ok = bool((np.abs(start - claim["value"]) <= claim["atol"]).all())
        return claim_row(claim, learner, method,
                         f"smallest x of {claim['feature']}: {start.min():.4g} to "
                         f"{start.max():.4g} over {len(start)} reps",
                         f"|smallest x - {claim['value']:g}| <= {claim['atol']:g} in every "
                         "repetition (exact)", ok)

    return per_combo(claim, t, feature_curves, one)
