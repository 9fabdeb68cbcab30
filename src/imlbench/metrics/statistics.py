"""Statistics per repetition that every study may name in a ``contrast`` claim
(:mod:`imlbench.metrics.contrasts`).

Each reads its cell's rows (curves: ``Tables.other``, columns rep, feature, x, value, curves of
rows averaged over the rows, :func:`imlbench.curves.rep_curves`; importances: ``Tables.ranked``;
metrics: ``Tables.other`` with a ``metric`` column) and gives one value per repetition, or a
vector per repetition for a spread.

``curve_value``   the curve of ``feature`` at x = ``at``, minus its value at ``minus_at`` when
                  given (a step), read linearly between its points; repetitions whose curve
                  does not span the points are left out
``curve_slope``   the least-squares slope of the curve over its points with x in ``range``
                  (:func:`imlbench.metrics.curve_claims.slope_parts`)

Both may be compared with a closed-form value (the step of an exact ALE, the slope of a true
PD): they carry their floating-point floor (``Sample.truth``, a closed form having no Monte
Carlo SE; :func:`imlbench.metrics.truth_tolerance.fp_floor`), of the curve's largest |value|
times the sum of the |weights| of the values they combine (1 for a value, 2 for a step, sum
|w_i| for a slope), so that an exact curve equal to the value up to rounding reproduces.
``curve_points``  the curve at ``points`` equidistant x over ``range`` (default: the span
                  every repetition covers), one vector per repetition (for a spread)
``importance``    the importance of ``feature``
``metric``        the value of the metric row ``metric`` (e.g. a model's R^2, a run time)
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.curves import rep_curves, values_at
from imlbench.metrics.claims import NoData, Tables
from imlbench.metrics.contrasts import Cell, Sample, statistic
from imlbench.metrics.curve_claims import slope_parts
from imlbench.metrics.truth_tolerance import TruthPart, fp_floor
from imlbench.params import feature_name, integer, items, number, text

RANGE = items(number(), length=2)
SPAN = items(number(), None, length=2, nullable=True)


def cell_curves(cell: Cell, t: Tables) -> pd.DataFrame | NoData:
    """The curves of the cell's ``feature`` (:func:`imlbench.curves.rep_curves`: one row per
    repetition, x in columns), or why there are none (empty: the cell has no rows at all)."""
    r = cell.rows(t)
    if r.empty or not {"feature", "x", "value"} <= set(r):
        return NoData()
    feature = cell.params["feature"]
    c = r[r["feature"] == feature].dropna(subset=["x", "value"])
    if c.empty:
        held = ", ".join(map(str, dict.fromkeys(r["feature"])))
        return NoData(f"the estimates of {cell.where} hold no curve of feature {feature} "
                      f"(they have: {held})")
    return rep_curves(c)


def ls_slopes(curves: pd.DataFrame, lo: float, hi: float) -> pd.Series:
    """Per repetition (rows of :func:`imlbench.curves.rep_curves`), the least-squares slope
    of the curve over its points with x in [lo, hi] (repetitions with fewer than two such
    points left out)."""
    out = {}
    for rep, row in curves.iterrows():
        row = row.dropna()
        x = row.index.to_numpy(float)
        inside = (x >= lo) & (x <= hi)
        xs, vs = x[inside], row.to_numpy(float)[inside]
        if len(np.unique(xs)) >= 2:
            xc = xs - xs.mean()
            out[rep] = float(xc @ (vs - vs.mean()) / (xc @ xc))
    return pd.Series(out, dtype=float)


@statistic("curve_value", params={"feature": feature_name(), "at": number(),
                                  "minus_at": number(None, nullable=True)})
def curve_value(cell: Cell, t: Tables) -> Sample | NoData:
    """The curve at ``at`` (minus at ``minus_at``), per repetition (see the module doc)."""
    curves = cell_curves(cell, t)
    if isinstance(curves, NoData):
        return curves
    p = cell.params
    at, minus = p["at"], p.get("minus_at")
    v = values_at(curves, at).iloc[:, 0]
    if minus is not None:
        v = v - values_at(curves, minus).iloc[:, 0]
    what = f"value at {at:g}" if minus is None else f"change from {minus:g} to {at:g}"
    size = curves.abs().max(axis=1) * (1 if minus is None else 2)
    return Sample(v.dropna(), f"{p['feature']}: {what}",
                  truth=TruthPart.exact(pd.Series(fp_floor(size), index=curves.index)))


@statistic("curve_slope", params={"feature": feature_name(), "range": RANGE})
def curve_slope(cell: Cell, t: Tables) -> Sample | NoData:
    """The curve's least-squares slope over ``range``, per repetition (see the module doc)."""
    curves = cell_curves(cell, t)
    if isinstance(curves, NoData):
        return curves
    lo, hi = cell.params["range"]
    parts = slope_parts(curves.stack().dropna().rename("value").reset_index(), lo, hi)
    s = parts["slope"]
    return Sample(s, f"slope of {cell.params['feature']} on [{lo:g}, {hi:g}]",
                  f", from {s.min():.4g} to {s.max():.4g}" if len(s) else "",
                  truth=TruthPart.exact(parts["floor"]))


@statistic("curve_points", params={"feature": feature_name(), "range": SPAN,
                                   "points": integer(41, minimum=2)})
def curve_points(cell: Cell, t: Tables) -> Sample | NoData:
    """The curve at equidistant points, one vector per repetition (see the module doc)."""
    curves = cell_curves(cell, t)
    if isinstance(curves, NoData):
        return curves
    p = cell.params
    if p.get("range") is None:
        spans = [row.dropna().index.to_numpy(float) for _, row in curves.iterrows()]
        lo, hi = max(s.min() for s in spans), min(s.max() for s in spans)
    else:
        lo, hi = p["range"]
    wide = values_at(curves, np.linspace(lo, hi, p.get("points", 41))).dropna()
    return Sample(wide, f"{p['feature']} on [{lo:.3g}, {hi:.3g}]")


@statistic("importance", params={"feature": feature_name()})
def importance(cell: Cell, t: Tables) -> Sample | NoData:
    """The importance of ``feature`` per repetition (``Tables.ranked``)."""
    r = cell.rows(t, "ranked")
    if r.empty:
        return NoData()
    feature = cell.params["feature"]
    v = r.loc[r["feature"] == feature].set_index("rep")["value"]
    if v.empty:
        return NoData(f"the importances of {cell.where} hold no feature {feature} (they have: "
                      f"{', '.join(map(str, dict.fromkeys(r['feature'])))})")
    return Sample(v.astype(float), f"importance of {feature}")


@statistic("metric", params={"metric": text()})
def metric(cell: Cell, t: Tables) -> Sample | NoData:
    """The value of the metric row ``metric`` per repetition (``Tables.other``)."""
    r = cell.rows(t)
    if r.empty:
        return NoData()
    name = cell.params["metric"]
    held = r["metric"] if "metric" in r else pd.Series(dtype=str)
    v = r.loc[held == name]
    if v.empty:
        return NoData(f"the rows of {cell.where} hold no metric {name} (they have: "
                      f"{', '.join(map(str, held.unique())) or 'none'})")
    return Sample(v.set_index("rep")["value"].astype(float), name)
