"""Claim kinds on the stability of LIME explanations, for every study.

Both kinds read the ``lime`` method's rows (``Tables.other``: ``point``, ``repeat``,
``feature``, ``value``; book ch. 14, Sect. 14.3) and condense each step of a *curve* into the
book's stability measure, the average sd of the weights over repeats with its standard error
over the explained points (:func:`imlbench.metrics.lime_stability.average_weight_sd`;
``selected_only`` as there).

A curve runs ``along`` one axis with the others fixed by the claim's ``where``:

- ``along: scenario``: the steps are ``scenarios`` (e.g. one data set per feature count);
- ``along: learner``: the steps are ``learners`` (e.g. forests ever smoother);
- ``along: method``: the steps are ``methods`` (e.g. one LIME method per sample size);
- ``along: <column>``: the steps are the values of a column of the rows (a sweep inside one
  method call, e.g. ``n_features``).

``statistic: prediction`` reads, instead of the weights, each explanation's own prediction at
its point (intercept + sum beta_j x_j; :func:`imlbench.metrics.lime_stability.prediction_rows`).
``at`` gives the x value of each named step (default 1, 2, ...); ``between: [lo, hi]`` keeps the
steps with lo <= x <= hi. A claim with several learners or methods in ``where`` (other than the
``along`` axis) gets one row per curve. Where the steps explain different points (each its own
draw of rows), their estimates are independent: a difference of two steps has SE sqrt(SE_a^2 +
SE_b^2). Where every step explains the same points (a sweep inside one call, or rows drawn
with lime's ``shared_rows``; the points' labels and ``rep`` agree), a contrast is taken point
by point and its SE is that over the points of their own contrasts
(:func:`imlbench.metrics.contrasts.contrast_se`): what a point's sd owes to the point
itself, the same at every step, drops out. The half-width is t' SE, t' the Student-t quantile
at Phi(k) with n - 1 df, n the smallest number of explained points.

``lime_sd_trend``     the shape of the curve (``trend``): ``decreasing`` / ``increasing``
                      (every consecutive difference below / above 0: monotone), ``falls`` /
                      ``rises`` (last minus first below / above 0), ``flat`` (the change
                      over the range of x of the least-squares line of the average sd on x,
                      steps weighted equally, equals 0: its interval covers 0), ``not_rising``
                      / ``not_falling`` (that change is not significantly above / below 0:
                      no growth / no decline), ``flattening`` (the drop over the first half of
                      the steps exceeds the drop over the second: s_0 - 2 s_h + s_last > 0, h
                      the middle step) and ``inverted_u`` (the mean of the middle third of
                      the steps above the means of the first and of the last third)
``lime_sd_contrast``  the curve against curves of other methods (``than_methods``; the
                      sampling options of one experiment), step by step: ``compare: above``
                      (the claim's method has the larger average sd at every step: the least
                      stable option), ``below``, or ``equal`` (no difference at any step).
                      With ``along: method`` the compared curves are ``than_methods`` read in
                      consecutive chunks as long as ``methods``; otherwise each of
                      ``than_methods`` replaces the claim's method with the same steps

``k`` defaults to 2 for one-sided tests and 3 for ``flat`` and ``equal``. Verdict and power per
:class:`imlbench.metrics.claims.Check`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from imlbench.metrics.claims import (
    Check,
    NoData,
    Tables,
    claim_kind,
    claim_row,
    default_k,
    per_combo,
)
from imlbench.metrics.contrasts import TRENDS, contrast_se, independent_se, trend_test
from imlbench.metrics.lime_stability import (
    point_keys,
    point_weight_sd,
    prediction_rows,
    summarise_points,
)
from imlbench.params import choice, flag, items, number, study_name, text
from imlbench.stats import t_multiplier

#: the named axes of a curve; any other ``along`` is a column of the rows
NAMED_AXES = ("scenario", "learner", "method")
#: the comparisons of ``lime_sd_contrast``
CONTRASTS = ("above", "below", "equal")

CURVE = {
    "along": text(), "scenarios": items(study_name("scenarios"), None, nullable=True),
    "learners": items(study_name("learners"), None, nullable=True),
    "methods": items(study_name("methods"), None, nullable=True),
    "at": items(number(), None, nullable=True),
    "between": items(number(), None, length=2, nullable=True),
    "selected_only": flag(False), "statistic": choice("weights", ("weights", "prediction")),
    "k": number(None, minimum=0, nullable=True),
}


@dataclass(frozen=True)
class Curve:
    """The average sd at each step of a curve: ``x``, ``sd``, ``se``, ``n_points``; and, when
    every step explains the same points, each point's average sd (``points``: one row per
    point, indexed by its keys, one column per step of ``table``; else None)."""

    label: str
    table: pd.DataFrame
    points: pd.DataFrame | None = None

    def paired(self, other: Curve) -> np.ndarray | None:
        """Per point and step this curve's average sd less ``other``'s, when both explain the
        same points at the same steps (None otherwise)."""
        if (self.points is None or other.points is None
                or not self.points.index.equals(other.points.index)
                or not self.points.columns.equals(other.points.columns)):
            return None
        return (self.points - other.points).to_numpy(float)


def _same_points(per_point: pd.DataFrame, keys: list[str], xs: pd.Series) -> pd.DataFrame | None:
    """The points x steps table of the per-point average sds when every step in ``xs`` has
    the same points (named by ``keys``), else None."""
    wide = per_point.pivot_table(index=keys, columns="x", values="sd", aggfunc="first")
    if wide.shape[1] != len(xs) or wide.isna().to_numpy().any():
        return None
    return wide[list(xs)]


def _steps(claim: dict) -> list[str] | None:
    along = claim["along"]
    return claim[f"{along}s"] if along in NAMED_AXES else None


def _at(claim: dict, steps: list[str]) -> list[float]:
    at = claim["at"] or list(range(1, len(steps) + 1))
    if len(at) != len(steps):
        raise ValueError(f"claim {claim['id']}: 'at' has {len(at)} values for {len(steps)} "
                         f"{claim['along']}s; allowed: one x value per step")
    return [float(a) for a in at]


def stability_curve(claim: dict, t: Tables, learner: str, method: str,
                    methods: list[str] | None = None) -> Curve | NoData:
    """The curve of ``claim`` through (scenario of ``where``, ``learner``, ``method``), the
    named axis replaced by its steps (``methods`` replaces the claim's ``methods``)."""
    along, where = claim["along"], claim["where"]
    steps = methods if (methods is not None and along == "method") else _steps(claim)
    fixed = {"scenario": where["scenario"], "learner": learner, "method": method}
    if along in NAMED_AXES:
        if not steps:
            return NoData(f"claim {claim['id']}: along {along} needs the list '{along}s'")
        keys = [{**fixed, along: s} for s in steps]
        xs = _at(claim, steps)
    else:
        keys, xs = [fixed], None
    df = t.other
    if df.empty or "point" not in df:
        return NoData()
    parts, points = [], []
    for key, x in zip(keys, xs or [None] * len(keys), strict=True):
        r = df[(df["scenario"] == key["scenario"]) & (df["learner"] == key["learner"])
               & (df["method"] == key["method"])]
        if r.empty:
            return NoData(f"no LIME rows of {key['scenario']}/{key['learner']}/{key['method']}")
        if claim.get("statistic", "weights") == "prediction":
            r = prediction_rows(r)
        if x is None:
            if along not in r:
                return NoData(f"the LIME rows of {key['method']} have no column {along!r}")
            pp = point_weight_sd(r, [along], selected_only=claim["selected_only"])
            s = summarise_points(pp, [along]).rename(columns={along: "x"})
            pp = pp.rename(columns={along: "x"})
        else:
            pp = point_weight_sd(r, [], selected_only=claim["selected_only"]).assign(x=x)
            s = summarise_points(pp, []).assign(x=x)
        parts.append(s)
        points.append(pp)
    table = pd.concat(parts, ignore_index=True).sort_values("x", kind="stable")
    if claim["between"] is not None:
        lo, hi = claim["between"]
        table = table[(table["x"] >= lo) & (table["x"] <= hi)]
    if len(table) < 2:
        return NoData(f"claim {claim['id']}: {len(table)} step(s) on the curve; a trend or "
                      f"contrast needs 2 or more")
    if (table["n_points"] < 2).any():
        return NoData("an SE over points needs 2 explained points or more")
    name = (f"{steps[0]} .. {steps[-1]}" if along in NAMED_AXES
            else f"{method} along {along}")
    per_point = pd.concat(points, ignore_index=True)
    per_point = per_point[per_point["x"].isin(table["x"])]
    keys = point_keys(per_point.drop(columns="x"), [])
    return Curve(name, table.reset_index(drop=True), _same_points(per_point, keys, table["x"]))


def _per_curve(claim: dict, t: Tables, one) -> list[dict]:
    """:func:`per_combo` over the curves of ``claim``: the axis ``along`` runs through is one
    entry of ``where`` (its steps joined by '/', the name of the row) and is not looped."""
    along, where = claim["along"], dict(claim["where"])
    if along in ("learner", "method"):
        where[along] = "/".join(claim[f"{along}s"] or [])
    return per_combo({**claim, "where": where}, t,
                     lambda c, t_, learner, method: stability_curve(claim, t_, learner, method),
                     one)


def _pairing(paired: bool) -> str:
    return ("paired: the same points at every step" if paired
            else "independent steps: SE = sqrt(SE_a^2 + SE_b^2)")


def _shown(c: Curve) -> str:
    return ", ".join(f"{x:g}: {s:.4g}" for x, s in zip(c.table["x"], c.table["sd"], strict=True))


@claim_kind("lime_sd_trend", params={**CURVE, "trend": choice("decreasing", TRENDS)})
def lime_sd_trend(claim: dict, t: Tables) -> list[dict]:
    """The average sd of the LIME weights has the shape ``trend`` along the curve (see the
    module doc)."""
    trend = claim["trend"]
    k = default_k(claim, trend == "flat")

    def one(claim_: dict, c: Curve, learner: str, method: str) -> dict:
        check, stat = trend_test(*(c.table[col].to_numpy(float) for col in ("x", "sd", "se")),
                                 trend, k, int(c.table["n_points"].min()) - 1,
                                 None if c.points is None else c.points.to_numpy(float))
        return claim_row(
            claim, learner, method, f"average sd by {claim['along']} {_shown(c)}; {stat}",
            f"{trend}: half-width t({k:g}) SE per difference (t: the t quantile at Phi({k:g}), "
            f"{int(c.table['n_points'].min()) - 1} df; SE over the explained points, "
            f"{_pairing(c.points is not None)})", check)

    return _per_curve(claim, t, one)


@claim_kind("lime_sd_contrast", params={
    **CURVE, "than_methods": items(study_name("methods")), "compare": choice("above", CONTRASTS)})
def lime_sd_contrast(claim: dict, t: Tables) -> list[dict]:
    """The claim's curve against those of ``than_methods``, step by step (see the module
    doc)."""
    compare = claim["compare"]
    k = default_k(claim, compare == "equal")
    than = claim["than_methods"]
    if claim["along"] == "method":
        steps = len(claim["methods"] or [])
        if steps == 0 or len(than) % steps:
            raise ValueError(f"claim {claim['id']}: along method, than_methods holds "
                             f"{len(than)} names for curves of {steps} steps; allowed: a "
                             f"multiple")
        others = [(None, than[i:i + steps]) for i in range(0, len(than), steps)]
    else:
        others = [(m, None) for m in than]

    def one(claim_: dict, a: Curve, learner: str, method: str) -> dict | NoData:
        curves = [stability_curve(claim, t, learner, m or method, methods=ms)
                  for m, ms in others]
        missing = next((c for c in curves if isinstance(c, NoData)), None)
        if missing is not None:
            return missing
        checks, texts, pairing = [], [], []
        for (m, ms), b in zip(others, curves, strict=True):
            j = a.table.merge(b.table, on="x", suffixes=("", "_b"))
            d = (j["sd"] - j["sd_b"]).to_numpy(float)
            df = int(min(j["n_points"].min(), j["n_points_b"].min())) - 1
            paired = a.paired(b)
            pairing.append(paired is not None)
            se = (contrast_se(np.eye(len(d)), j["se"].to_numpy(float), paired)
                  if paired is not None else independent_se(j["se"], j["se_b"]))
            h = float(t_multiplier(k, df)) * se
            checks.append(Check(d, h, compare, 0.0, scale=float(j["sd"].mean())))
            worst = int(np.argmin(d - h) if compare == "above" else
                        np.argmax(d + h) if compare == "below" else np.argmax(np.abs(d) - h))
            texts.append(f"minus {m or ms[0] + ' ..'}: {len(d)} steps, closest at "
                         f"x = {j['x'].iloc[worst]:g}: {d[worst]:+.4g} (+- {h[worst]:.3g})")
        return claim_row(
            claim, learner, method,
            f"average sd {_shown(a)}; " + "; ".join(texts),
            f"every step's difference {compare} 0 with half-width t({k:g}) SE over the "
            f"explained points, {_pairing(all(pairing))} (t: the t quantile at Phi({k:g}))",
            Check.joint(checks, scale=float(a.table["sd"].mean())))

    return _per_curve(claim, t, one)
