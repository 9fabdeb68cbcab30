"""Claim kinds on partial and individual importance (book ch. 10, after Casalicchio et al.
2018): where the PI curve and the d-ICI curves peak, which feature the stump on the
integrated ICI splits and where, and how the PI of its two sides lies against the PI of all
rows.

They read the estimates of the method ``ici`` (:mod:`imlbench.explain.methods_local`) from
``Tables.other``: its ICI curves (``output: curves``; columns rep, feature, row, x, value) or
what it derives from them (``output: heterogeneity``; a ``part`` column: ``dici`` curves,
``split`` rows with the stump's ``split_feature``, ``threshold`` and each row's ``side``, and
``pi`` curves of ``side`` all, left and right). Each kind computes one statistic per
repetition; the tolerance is t' SE (+ atol), SE = sd over the R repetitions / sqrt(R), t' the
Student-t quantile with R - 1 df at the normal probability of ``k``
(:func:`imlbench.metrics.curve_claims.compared`), or, for a number the book printed from its
one run, the prediction interval of one further run, t' sd sqrt(1 + 1/R); a location or a
split chosen in "most" repetitions is a share with its one-sided Clopper-Pearson bound.

``dici_peak``     ``measure: location``: the x where the mean |d-ICI| over the rows is largest
                  (within ``range``) lies within atol plus half the spacing of the replacement
                  values next to it (the precision with which a grid of random values places
                  a peak) of ``value`` in a share of the repetitions whose one-sided
                  Clopper-Pearson interval at Phi(k) lies above ``min_share`` (0.5: most).
                  ``ratio``: the largest mean |d-ICI| over its median along x (how distinct
                  the peak is), against ``value``, or with ``than_scenario`` minus that ratio
                  in another scenario (unpaired: SE = sqrt(SE_1^2 + SE_2^2), t' with the
                  smaller df)
``pi_extreme``    the x of the smallest (``which: min``) or largest PI (the ``pi`` rows of side
                  all, or the mean of the ICI curves over the rows) lies near ``value`` in
                  most repetitions (as ``dici_peak`` location)
``pi_region``     the mean PI over x in ``range`` minus that over x in ``than_range`` (default
                  every x) is compared with ``value`` as ``compare`` says
``stump_split``   the stump chose ``split_feature`` in a share of the repetitions whose
                  one-sided Clopper-Pearson interval at Phi(k) lies above ``min_share``; with
                  ``threshold``, a second row: the threshold of the repetitions that chose it
                  equals ``threshold`` within the prediction interval of one run + atol
``split_pi``      the PI of the stump's ``side`` (left: x <= threshold) minus the PI of all rows,
                  averaged within each of ``bins`` equal-count bins of x, lies above (below) 0
                  in every bin, over the repetitions whose stump chose ``split_feature``
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
from imlbench.metrics.contrasts import compared, independent_se
from imlbench.metrics.curve_claims import COMPARE, RANGE, TOLERANCE, compared_row
from imlbench.params import choice, feature_name, integer, items, number, text
from imlbench.stats import mean_and_se, t_multiplier

MEASURES = ("location", "ratio")


def _where(claim: dict, learner: str, method: str) -> str:
    return f"{claim['where']['scenario']}/{learner}/{method}"


def ici_part(r: pd.DataFrame, claim: dict, part: str | None) -> pd.DataFrame | NoData:
    """The rows of ``r`` of the claim's ``feature`` and of ``part`` (None: the ICI curves of
    ``output: curves``), or why there are none."""
    held = r["part"] if "part" in r else pd.Series(np.nan, index=r.index)
    r = r[held.isna()] if part is None else r[held == part]
    if r.empty:
        return NoData("these are what ici derives from the ICI curves (output: "
                      "heterogeneity), not the curves" if part is None else
                      f"these are ICI curves; {part} rows need ici's output: heterogeneity")
    mine = r[r["feature"] == claim["feature"]]
    if mine.empty:
        return NoData(f"no {part or 'ICI'} rows of feature {claim['feature']} (features: "
                      f"{', '.join(map(str, r['feature'].unique()))})")
    return mine


def within(df: pd.DataFrame, span: list[float] | None) -> pd.DataFrame:
    """The rows with x in [lo, hi] (all for None)."""
    return df if span is None else df[(df["x"] >= span[0]) & (df["x"] <= span[1])]


def pi_curves(r: pd.DataFrame, claim: dict) -> pd.DataFrame | NoData:
    """Per repetition and x, the PI of the claim's ``feature``: the ``pi`` rows of side all
    of ``output: heterogeneity``, or else the mean of the ICI curves over the rows."""
    if "part" in r and (r["part"] == "pi").any():
        pi = ici_part(r, claim, "pi")
        return pi if isinstance(pi, NoData) else _mean_curves(pi[pi["side"] == "all"])
    c = ici_part(r, claim, None)
    return c if isinstance(c, NoData) else _mean_curves(c)


def _mean_curves(df: pd.DataFrame, absolute: bool = False) -> pd.DataFrame:
    """Per repetition and x, the mean (of |value| when ``absolute``) over the rows."""
    v = df["value"].abs() if absolute else df["value"]
    return df.assign(value=v).groupby(["rep", "x"], as_index=False)["value"].mean()


def _extreme(curves: pd.DataFrame, which: str) -> pd.DataFrame:
    """Per repetition: the x of the largest (``max``) or smallest value of its curve, the
    largest over the median (``ratio``) and half the mean distance to the neighbouring x
    (``spacing``)."""
    out = []
    for rep, g in curves.groupby("rep"):
        g = g.sort_values("x")
        x, v = g["x"].to_numpy(float), g["value"].to_numpy(float)
        i = int(np.argmax(v) if which == "max" else np.argmin(v))
        near = np.diff(x[max(i - 1, 0):i + 2])
        out.append({"rep": rep, "x": x[i], "ratio": v[i] / np.median(v),
                    "spacing": float(near.mean() / 2) if near.size else np.nan})
    return pd.DataFrame(out).set_index("rep")


def _located(claim: dict, learner: str, method: str, peaks: pd.DataFrame, what: str
             ) -> dict | NoData:
    """The row of a peak location: the share of repetitions whose peak lies within atol plus
    half the grid's spacing there of the claim's ``value``, its one-sided Clopper-Pearson
    interval at Phi(k) against ``min_share``."""
    if len(peaks) < 2:
        return NoData(f"a share needs 2 repetitions or more; {_where(claim, learner, method)} "
                      f"has {len(peaks)}")
    near = (peaks["x"] - claim["value"]).abs() <= claim["atol"] + peaks["spacing"]
    share, lower = share_interval(int(near.sum()), len(peaks), claim["k"])
    return claim_row(
        claim, learner, method,
        f"{what}: within {claim['atol']:g} + half the grid spacing (mean "
        f"{peaks['spacing'].mean():.3g}) of {claim['value']:g} in {int(near.sum())} of "
        f"{len(peaks)} reps (share {share:.2f}); median {peaks['x'].median():.3g}, from "
        f"{peaks['x'].min():.3g} to {peaks['x'].max():.3g}",
        f"Clopper-Pearson lower bound at Phi({claim['k']:g}) = {lower:.3f} > "
        f"{claim['min_share']:g}",
        Check(share, share - lower, "above", claim["min_share"], scale=1.0))


def share_interval(hits: int, n: int, k: float) -> tuple[float, float]:
    """The share hits / n and its one-sided Clopper-Pearson lower bound at Phi(k)."""
    from scipy.stats import beta, norm

    alpha = 1 - float(norm.cdf(k))
    lower = float(beta.ppf(alpha, hits, n - hits + 1)) if hits else 0.0
    return hits / n, lower


def _dici_peaks(claim: dict, r: pd.DataFrame) -> pd.DataFrame | NoData:
    d = ici_part(r, claim, "dici")
    if isinstance(d, NoData):
        return d
    d = within(d, claim["range"])
    if d.empty:
        return NoData(f"no d-ICI points of {claim['feature']} in {claim['range']}")
    return _extreme(_mean_curves(d, absolute=True), "max")


#: the share of repetitions a location or a split must exceed ("most": 0.5)
SHARE = {"min_share": number(0.5, minimum=0, maximum=1)}
#: an optional [lo, hi] of x
SPAN = items(number(), None, length=2, nullable=True)


def _ratio_row(claim: dict, t: Tables, learner: str, method: str, peaks: pd.DataFrame
               ) -> dict | NoData:
    """The row of the peak ratio against ``value``, or minus that of ``than_scenario``."""
    d = peaks["ratio"]
    other = claim["than_scenario"]
    if other is None:
        if len(d) < 2:
            return NoData(f"an SE needs 2 repetitions or more; {len(d)} here")
        return compared_row(claim, learner, method, d, "largest / median mean |d-ICI|",
                            value=claim["value"], compare=claim["compare"], atol=claim["atol"])
    rows = select_rows(t.other, other, learner, method) if not t.other.empty else t.other
    if rows.empty:
        return NoData(f"no estimates of {other}/{learner}/{method} to compare with")
    theirs = _dici_peaks(claim, rows)
    if isinstance(theirs, NoData):
        return theirs
    e = theirs["ratio"]
    if min(len(d), len(e)) < 2:
        return NoData(f"an SE needs 2 repetitions or more in each scenario; {len(d)} and "
                      f"{len(e)} here")
    diff = float(d.mean() - e.mean())
    se = float(independent_se(mean_and_se(d)[1], mean_and_se(e)[1]))
    tk = float(t_multiplier(claim["k"], min(len(d), len(e)) - 1))
    compare = claim["compare"]
    check = Check(diff, tk * se, compare, claim["value"],
                  claim["atol"] if compare == "equal" else 0.0, scale=float(e.mean()))
    return claim_row(
        claim, learner, method,
        f"largest / median mean |d-ICI|: {d.mean():.3g} here, {e.mean():.3g} in {other}; "
        f"difference {diff:.3g} (SE {se:.3g}, {len(d)} and {len(e)} reps)",
        f"difference {compare} {claim['value']:g} by t({claim['k']:g}) SE = {tk * se:.3g} "
        f"(t with the smaller reps - 1 df; SE = sqrt(SE_1^2 + SE_2^2))", check)


@claim_kind("dici_peak", params={
    "feature": feature_name(), "measure": choice("location", MEASURES), "value": number(),
    "range": SPAN, **COMPARE, "than_scenario": text(None, nullable=True), **SHARE,
    **TOLERANCE})
def dici_peak(claim: dict, t: Tables) -> list[dict]:
    """Where the mean |d-ICI| over the rows peaks, or how distinct the peak is (see the
    module doc)."""
    if claim["measure"] == "location" and (claim["compare"] != "equal"
                                           or claim["than_scenario"]):
        raise ValueError(f"claim {claim['id']} (dici_peak): measure location compares the "
                         f"peak's x with value (compare: equal, no than_scenario)")

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        peaks = _dici_peaks(claim, r)
        if isinstance(peaks, NoData):
            return peaks
        if claim["measure"] == "location":
            return _located(claim, learner, method, peaks, "x of the largest mean |d-ICI|")
        return _ratio_row(claim, t, learner, method, peaks)

    return per_combo(claim, t, "other", one)


@claim_kind("pi_extreme", params={
    "feature": feature_name(), "which": choice("min", ("min", "max")), "value": number(),
    "range": SPAN, **SHARE, **TOLERANCE})
def pi_extreme(claim: dict, t: Tables) -> list[dict]:
    """The x of the smallest or largest PI equals ``value`` (see the module doc)."""

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        pi = pi_curves(r, claim)
        if isinstance(pi, NoData):
            return pi
        pi = within(pi, claim["range"])
        if pi.empty:
            return NoData(f"no PI points of {claim['feature']} in {claim['range']}")
        peaks = _extreme(pi, claim["which"])
        return _located(claim, learner, method, peaks, f"x of the {claim['which']} of the PI")

    return per_combo(claim, t, "other", one)


@claim_kind("pi_region", params={
    "feature": feature_name(), "range": RANGE, "than_range": SPAN, "value": number(0.0),
    **COMPARE, **TOLERANCE})
def pi_region(claim: dict, t: Tables) -> list[dict]:
    """The mean PI over ``range`` minus that over ``than_range`` (see the module doc)."""

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        pi = pi_curves(r, claim)
        if isinstance(pi, NoData):
            return pi
        a = within(pi, claim["range"]).groupby("rep")["value"].mean()
        b = within(pi, claim["than_range"]).groupby("rep")["value"].mean()
        d = (a - b).dropna()
        if len(d) < 2:
            return NoData(f"an SE needs both ranges in 2 repetitions or more; {len(d)} here")
        than = "every x" if claim["than_range"] is None else str(claim["than_range"])
        return compared_row(claim, learner, method, d,
                            f"mean PI on {claim['range']} minus on {than} "
                            f"(PI of all rows {pi['value'].mean():.3g})",
                            value=claim["value"], compare=claim["compare"], atol=claim["atol"])

    return per_combo(claim, t, "other", one)


def _stumps(claim: dict, r: pd.DataFrame) -> pd.DataFrame | NoData:
    """Per repetition, the stump's split feature and threshold."""
    s = ici_part(r, claim, "split")
    if isinstance(s, NoData):
        return s
    return s.groupby("rep")[["split_feature", "threshold"]].first()


@claim_kind("stump_split", params={
    "feature": feature_name(), "split_feature": feature_name(), **SHARE,
    "threshold": number(None, nullable=True),
    **TOLERANCE})
def stump_split(claim: dict, t: Tables) -> list[dict]:
    """The stump on the integrated ICI chooses ``split_feature`` in most repetitions, at
    ``threshold`` (see the module doc)."""
    want, k = claim["split_feature"], claim["k"]

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> list[dict] | NoData:
        s = _stumps(claim, r)
        if isinstance(s, NoData):
            return s
        n, hits = len(s), int((s["split_feature"] == want).sum())
        share, lower = share_interval(hits, n, k)
        counts = s["split_feature"].value_counts()
        rows = [claim_row(
            claim, learner, method,
            f"{want} chosen in {hits} of {n} reps (" + ", ".join(
                f"{f}: {c}" for f, c in counts.items()) + f"); share {share:.2f}",
            f"Clopper-Pearson lower bound at Phi({k:g}) = {lower:.3f} > {claim['min_share']:g}",
            Check(share, share - lower, "above", claim["min_share"], scale=1.0))]
        if claim["threshold"] is not None:
            th = s.loc[s["split_feature"] == want, "threshold"]
            if len(th) < 2:
                return NoData(f"a prediction interval needs {want} chosen in 2 reps or more; "
                              f"{len(th)} here")
            sd = float(th.std(ddof=1))
            tk = float(t_multiplier(k, len(th) - 1))
            half = tk * sd * np.sqrt(1 + 1 / len(th))
            value = claim["threshold"]
            rows.append(claim_row(
                claim, learner, method,
                f"threshold on {want}: mean {th.mean():.4g} (sd {sd:.3g} over {len(th)} reps, "
                f"from {th.min():.4g} to {th.max():.4g})",
                f"|mean - {value:g}| <= t({k:g}) sd sqrt(1 + 1/reps) + {claim['atol']:g} = "
                f"{half + claim['atol']:.3g} (the prediction interval of one run, "
                f"{len(th) - 1} df)",
                Check(float(th.mean()), half, "equal", value, claim["atol"], scale=abs(value))))
        return rows

    return per_combo(claim, t, "other", one)


@claim_kind("split_pi", params={
    "feature": feature_name(), "split_feature": feature_name(),
    "side": choice("left", ("left", "right")), "compare": choice("above", ("above", "below")),
    "bins": integer(3, minimum=1), "k": number(3.0, minimum=0)})
def split_pi(claim: dict, t: Tables) -> list[dict]:
    """The PI of one side of the stump against the PI of all rows, in every bin of x (see
    the module doc)."""

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        pi = ici_part(r, claim, "pi")
        if isinstance(pi, NoData):
            return pi
        chose = pi.groupby("rep")["split_feature"].first() == claim["split_feature"]
        pi = pi[pi["rep"].isin(chose[chose].index)]
        if pi["rep"].nunique() < 2:
            return NoData(f"the stump chose {claim['split_feature']} in "
                          f"{int(chose.sum())} of {len(chose)} reps; an SE needs 2 or more")
        wide = pi.pivot_table(index=["rep", "x"], columns="side", values="value")
        d = (wide[claim["side"]] - wide["all"]).rename("value").reset_index()
        edges = np.quantile(d["x"], np.linspace(0, 1, claim["bins"] + 1))
        d["bin"] = np.clip(np.searchsorted(edges, d["x"], side="right") - 1, 0,
                           claim["bins"] - 1)
        per = d.groupby(["bin", "rep"])["value"].mean().unstack("bin")
        checks, parts = [], []
        for b in per:
            check, se, test = compared(per[b].dropna(), 0.0, claim["k"], 0.0,
                                       claim["compare"])
            checks.append(check)
            parts.append(f"[{edges[b]:.3g}, {edges[b + 1]:.3g}]: {per[b].mean():.3g} "
                         f"(SE {se:.3g})")
        scale = float(wide["all"].abs().mean())
        return claim_row(
            claim, learner, method,
            f"PI of the {claim['side']} side minus PI of all rows, per bin of x: "
            + "; ".join(parts) + f" ({len(per)} reps)",
            f"every bin: {test}", Check.joint(checks, scale=scale))

    return per_combo(claim, t, "other", one)
