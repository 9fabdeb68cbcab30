"""Claim kinds of the book's ch. 3.2 (bike rentals): PDPs of models that see one or both of two
associated features, and the association measures of the day's features.

``bike_pdp_vs`` compares the PDP of a feature in the claim's scenario (one model) with a PDP
in another scenario (another model of the same learner): per repetition (the repetitions of
two scenarios are paired by number; for the linear model and the SVM they are all the same
fit), one of

- ``range_ratio``: (max - min) of the curve over (max - min) of the other curve; below 1 when
  the feature's effect is flattened in the claim's model;
- ``shape_gap``: the RMS gap between the two curves, each read on its own range rescaled to
  [0, 1] (the equidistant grids of temp and atemp span the same days in different units),
  over the other curve's range: 0 for the same shape and height;
- ``rise_sum_ratio``: (rise of the curve + rise of ``plus_feature``'s curve in the claim's
  scenario) over the rise of the other curve, the rise being the value at the largest x less
  that at the smallest: 1 when two features share out one effect (a linear model's
  coefficients of two nearly collinear features);

and tests its mean over the R repetitions against ``value`` as the layer's curve kinds do
(:func:`imlbench.metrics.curve_claims.compared`: t' SE with SE = sd / sqrt(R); 0 for a
deterministic learner, whose statement is then exact).

``bike_metric`` tests one association measure (a metric of ``method: association``) against
a bound; ``bike_top_pair`` that one pair has the largest value of a measure and every other
pair stays below ``ratio`` times it ("the only exceptionally high" pair).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.metrics.claims import NoData, Tables, claim_kind, claim_row, per_combo, select_rows
from imlbench.metrics.curve_claims import COMPARE, TOLERANCE, compared_row
from imlbench.params import choice, feature_name, number, study_name, text

STATISTICS = ("range_ratio", "shape_gap", "rise_sum_ratio")
#: points of the rescaled [0, 1] axis at which ``shape_gap`` reads both curves
SHAPE_POINTS = 101


def _curves(t: Tables, scenario: str, learner: str, method: str, feature: str
            ) -> pd.DataFrame | NoData:
    """The curves of ``feature`` by repetition (rows rep, columns x), or why there are none."""
    r = select_rows(t.other, scenario, learner, method) if not t.other.empty else t.other
    if r.empty or "feature" not in r:
        return NoData(f"no estimates of {scenario}/{learner}/{method}")
    r = r[r["feature"] == feature].dropna(subset=["x", "value"])
    if r.empty:
        return NoData(f"the estimates of {scenario}/{learner}/{method} hold no curve of "
                      f"{feature}")
    return r.groupby(["rep", "x"])["value"].mean().unstack("x")


def _span(curve: pd.Series) -> float:
    return float(curve.max() - curve.min())


def _rise(curve: pd.Series) -> float:
    return float(curve.iloc[-1] - curve.iloc[0])


def _shape_gap(curve: pd.Series, other: pd.Series) -> float:
    u = np.linspace(0.0, 1.0, SHAPE_POINTS)

    def on_unit(c: pd.Series) -> np.ndarray:
        x = c.index.to_numpy(float)
        return np.interp(x.min() + u * (x.max() - x.min()), x, c.to_numpy(float))

    gap = on_unit(curve) - on_unit(other)
    return float(np.sqrt(np.mean(gap**2))) / _span(other)


@claim_kind("bike_pdp_vs", params={
    "feature": feature_name(), "statistic": choice("range_ratio", STATISTICS),
    "than_scenario": study_name("scenarios"), "than_feature": text(None, nullable=True),
    "than_method": study_name("methods", None),
    "plus_feature": text(None, nullable=True), "plus_method": study_name("methods", None),
    "value": number(), **COMPARE, **TOLERANCE})
def bike_pdp_vs(claim: dict, t: Tables) -> list[dict]:
    """The PDP of ``feature`` in the claim's scenario against that of ``than_feature`` (default
    the same) by ``than_method`` (default the claim's) in ``than_scenario``, same learner, by
    ``statistic`` (see the module doc); ``rise_sum_ratio`` adds the rise of ``plus_feature``
    (by ``plus_method``, default the claim's) in the claim's scenario."""
    stat_name, scenario = claim["statistic"], claim["where"]["scenario"]
    other_feature = claim["than_feature"] or claim["feature"]
    if stat_name == "rise_sum_ratio" and claim["plus_feature"] is None:
        raise ValueError(f"claim {claim['id']}: statistic rise_sum_ratio needs plus_feature")

    def one(claim: dict, curves: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        other = _curves(t, claim["than_scenario"], learner, claim["than_method"] or method,
                        other_feature)
        if isinstance(other, NoData):
            return other
        plus = None
        if stat_name == "rise_sum_ratio":
            plus = _curves(t, scenario, learner, claim["plus_method"] or method,
                           claim["plus_feature"])
            if isinstance(plus, NoData):
                return plus
        d = {}
        for rep in curves.index.intersection(other.index):
            a, b = curves.loc[rep].dropna(), other.loc[rep].dropna()
            if stat_name == "range_ratio":
                d[rep] = _span(a) / _span(b)
            elif stat_name == "shape_gap":
                d[rep] = _shape_gap(a, b)
            elif rep in plus.index:
                d[rep] = (_rise(a) + _rise(plus.loc[rep].dropna())) / _rise(b)
        d = pd.Series(d, dtype=float).dropna()
        if len(d) < 2:
            return NoData(f"an SE over repetitions needs the statistic in 2 repetitions or "
                          f"more; {scenario} and {claim['than_scenario']} of {learner} give "
                          f"it in {len(d)}")
        plus_text = f" + {claim['plus_feature']}" if plus is not None else ""
        what = (f"{stat_name} of {claim['feature']}{plus_text} in {scenario} to "
                f"{other_feature} in {claim['than_scenario']}")
        return compared_row(claim, learner, method, d, what, value=claim["value"],
                            compare=claim["compare"], atol=claim["atol"],
                            more=f", from {d.min():.4g} to {d.max():.4g}")

    def rows_of(claim: dict, t: Tables, learner: str, method: str) -> pd.DataFrame | NoData:
        return _curves(t, scenario, learner, method, claim["feature"])

    return per_combo(claim, t, rows_of, one)


def _metrics(claim: dict, t: Tables, learner: str, method: str) -> pd.DataFrame | NoData:
    """The method's metric rows (columns rep, metric, value) of the claim's scenario."""
    r = select_rows(t.other, claim["where"]["scenario"], learner, method) \
        if not t.other.empty else t.other
    if r.empty or "metric" not in r:
        return NoData()
    return r


@claim_kind("bike_metric", params={"metric": text(), "value": number(), **COMPARE,
                                   **TOLERANCE})
def bike_metric(claim: dict, t: Tables) -> list[dict]:
    """The association measure ``metric`` (one value per repetition) against ``value`` as
    ``compare`` says (equal up to ``atol``, above, below), t' SE over the repetitions."""

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        d = r.loc[r["metric"] == claim["metric"]].set_index("rep")["value"].dropna()
        if len(d) < 2:
            return NoData(f"an SE over repetitions needs metric {claim['metric']} in 2 "
                          f"repetitions or more; {claim['where']['scenario']}/{learner}/{method}"
                          f" has it in {len(d)}")
        return compared_row(claim, learner, method, d, claim["metric"], value=claim["value"],
                            compare=claim["compare"], atol=claim["atol"])

    return per_combo(claim, t, _metrics, one)


@claim_kind("bike_top_pair", params={"measure": text(), "pair": text(),
                                     "ratio": number(minimum=0, maximum=1)})
def bike_top_pair(claim: dict, t: Tables) -> list[dict]:
    """Among the metrics ``<measure>:a:b`` (mean over the repetitions), ``pair`` (``a:b``) is
    the largest and every other stays below ``ratio`` times it. The measure of a fixed table
    is the same in every repetition: the statement is exact."""
    prefix = f"{claim['measure']}:"

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        values = r[r["metric"].str.startswith(prefix)].groupby("metric")["value"].mean()
        top = prefix + claim["pair"]
        if top not in values.index or len(values) < 2:
            return NoData(f"the metrics hold no {top} and another {prefix} pair (they hold: "
                          f"{', '.join(values.index)})")
        others = values.drop(top).sort_values(ascending=False)
        ok = bool(others.iloc[0] < claim["ratio"] * values[top])
        return claim_row(
            claim, learner, method,
            f"{top}: {values[top]:.3f}; next {others.index[0]}: {others.iloc[0]:.3f} "
            f"({len(others)} other pairs)",
            f"every other pair < {claim['ratio']:g} x {top} (exact: a fixed table)", ok)

    return per_combo(claim, t, _metrics, one)
