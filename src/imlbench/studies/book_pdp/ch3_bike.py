"""Claim kinds of the book's ch. 3.2 (bike rentals): PDPs of models that see one or both of two
associated features, and the association measures of the day's features.

``book_pdp.bike_pdp_vs`` compares the PDP of a feature in the claim's cell with the PDP of another
feature, method or scenario (``than``, what differs from the claim's own; the same learner):
per repetition (the repetitions of the two cells are paired by number; for the linear model
and the SVM they are all the same fit), one of

- ``shape_gap``: the RMS gap between the two curves, each read on its own range rescaled to
  [0, 1] (the equidistant grids of temp and atemp span the same days in different units),
  over the other curve's range: 0 for the same shape and height;
- ``rise_sum_ratio``: (rise of the curve + rise of the curve of the cell ``plus`` names,
  what differs from the claim's own) over the rise of the other curve, the rise being the
  value at the largest x less that at the smallest: 1 when two features share out one
  effect (a linear model's coefficients of two nearly collinear features);

and tests its mean over the R repetitions against ``value`` with the kit's one-sample test
(:func:`imlbench.metrics.contrasts.one_sample`: t' SE with SE = sd / sqrt(R); 0 for a
deterministic learner, whose statement is then exact). Both are distances between two cells'
curves within a repetition, not one statistic of a cell against the same in another, so
they are no ``contrast``. How much a dependent feature flattens a PDP is a ``contrast`` of
the statistic ``book_pdp.span`` by ``log_ratio`` (:mod:`.statistics`); one association
measure against a bound a ``contrast`` of the layer's ``metric``.

``book_pdp.bike_top_pair`` tests that one pair has the largest value of a measure and every other
pair stays below ``ratio`` times it ("the only exceptionally high" pair).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.metrics.claims import NoData, Tables, claim_kind, claim_row, per_combo, select_rows
from imlbench.metrics.contrasts import Cell, Sample, few, one_sample
from imlbench.metrics.curve_claims import COMPARE, TOLERANCE
from imlbench.metrics.statistics import cell_curves
from imlbench.params import choice, feature_name, number, study_name, table, text

STATISTICS = ("shape_gap", "rise_sum_ratio")
#: points of the rescaled [0, 1] axis at which ``shape_gap`` reads both curves
SHAPE_POINTS = 101
#: another curve of the claim: what differs from the claim's own (scenario, method, feature)
OTHER_CURVE = {"scenario": study_name("scenarios", None), "method": study_name("methods", None),
               "feature": text(None, nullable=True)}


def _curves(cell: Cell, t: Tables) -> pd.DataFrame | NoData:
    """The curves of the cell's feature by repetition (rows rep, columns x), or why there are
    none."""
    curves = cell_curves(cell, t)
    if isinstance(curves, NoData):
        return NoData(curves.reason or f"no estimates of {cell.where}")
    return curves


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


@claim_kind("book_pdp.bike_pdp_vs", params={
    "feature": feature_name(), "statistic": choice("shape_gap", STATISTICS),
    "than": table(OTHER_CURVE), "plus": table(OTHER_CURVE, None, nullable=True),
    "value": number(), **COMPARE, **TOLERANCE})
def bike_pdp_vs(claim: dict, t: Tables) -> list[dict]:
    """The PDP of ``feature`` in the claim's cell against that of the cell ``than`` names, by
    ``statistic`` (see the module doc); ``rise_sum_ratio`` adds the rise of the curve of the
    cell ``plus`` names."""
    stat_name, scenario = claim["statistic"], claim["where"]["scenario"]
    if stat_name == "rise_sum_ratio" and claim["plus"] is None:
        raise ValueError(f"claim {claim['id']}: statistic rise_sum_ratio needs plus")

    def cell_of(learner: str, method: str) -> Cell:
        return Cell(scenario, learner, method, {"feature": claim["feature"]})

    def rows_of(claim: dict, t: Tables, learner: str, method: str) -> pd.DataFrame | NoData:
        return _curves(cell_of(learner, method), t)

    def one(claim: dict, curves: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        cell = cell_of(learner, method)
        other = cell.moved(claim["than"])
        b = _curves(other, t)
        if isinstance(b, NoData):
            return b
        plus = None
        if stat_name == "rise_sum_ratio":
            plus = _curves(cell.moved(claim["plus"]), t)
            if isinstance(plus, NoData):
                return plus
        d = {}
        for rep in curves.index.intersection(b.index):
            mine, theirs = curves.loc[rep].dropna(), b.loc[rep].dropna()
            if stat_name == "shape_gap":
                d[rep] = _shape_gap(mine, theirs)
            elif rep in plus.index:
                d[rep] = (_rise(mine) + _rise(plus.loc[rep].dropna())) / _rise(theirs)
        d = pd.Series(d, dtype=float).dropna()
        why = few(len(d), 2, stat_name, f"{cell.where} with {other.where}")
        if why:
            return why
        plus_text = f" + {claim['plus'].get('feature', claim['feature'])}" if plus is not None \
            else ""
        what = (f"{stat_name} of {claim['feature']}{plus_text} in {scenario} to "
                f"{other.params['feature']} in {other.scenario}")
        judged = one_sample(Sample(d, what, f", from {d.min():.4g} to {d.max():.4g}"),
                            claim["value"], k=claim["k"], compare=claim["compare"],
                            atol=claim["atol"])
        return claim_row(claim, learner, method, judged.reproduced, judged.tolerance,
                         judged.check)

    return per_combo(claim, t, rows_of, one)


def _metrics(claim: dict, t: Tables, learner: str, method: str) -> pd.DataFrame | NoData:
    """The method's metric rows (columns rep, metric, value) of the claim's scenario."""
    r = select_rows(t.other, claim["where"]["scenario"], learner, method) \
        if not t.other.empty else t.other
    if r.empty or "metric" not in r:
        return NoData()
    return r


@claim_kind("book_pdp.bike_top_pair", params={"measure": text(), "pair": text(),
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
