"""The book's ch. 12 ("Introduction to LIME", Sect. 12.1 and 12.3): LIME on the 2-D data with a
sine-shaped class boundary (Fig. 12.1) and R lime's iris example (Fig. 12.2).

``book_lime.boundary`` writes the black box's predicted class-1 probability f on a grid over the
first two features (``part: grid``; the other features, if any, at their mean) and at the training
rows (``part: data``, with y): the black box's boundary is the contour f = 0.5.

Statistics per repetition for ``contrast`` claims (:mod:`imlbench.metrics.contrasts`), on the
LIME rows of the layer's ``lime`` method with ``surrogate_fit``, per repetition the first
explained point's first repeat (:func:`first_explanations`):

``book_lime.local_agreement``  the share of the ``nearest`` training rows (sd-standardised
                               Euclidean distance to the explained point; null: all rows)
                               where the surrogate's class, g > 0.5, equals the black box's,
                               f > 0.5 (f from the rows of the ``map`` method); local against
                               global agreement is a ``paired`` test with
                               ``than: {nearest: null}``
``book_lime.lime_fit``         the explanation's fit (the surrogate's weighted R^2)
``book_lime.weight_order``     min |coefficient| of ``above`` minus max |coefficient| of
                               ``below`` (above 0: every ``above`` feature weighs more)
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.explain.api import ExplainContext, method
from imlbench.metrics.claims import NoData, Tables
from imlbench.metrics.contrasts import Cell, Sample, statistic
from imlbench.params import feature_name, integer, items, study_name


@method("book_lime.boundary", kind="other", params={"grid_size": integer(60, minimum=2)})
def _a_boundary(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """The black box f on a grid over the first two features' range (``grid``) and at the
    training rows (``data``): columns part, row, x, z (the two features), y and value (f)."""
    X, n = ctx.X, params["grid_size"]
    gx, gz = (np.linspace(X[:, j].min(), X[:, j].max(), n) for j in (0, 1))
    G = np.tile(X.mean(axis=0), (n * n, 1))
    G[:, 0], G[:, 1] = np.repeat(gx, n), np.tile(gz, n)
    return pd.concat([
        pd.DataFrame({"part": "grid", "row": -1, "x": G[:, 0], "z": G[:, 1], "y": np.nan,
                      "value": ctx.predict(G)}),
        pd.DataFrame({"part": "data", "row": np.arange(len(X)), "x": X[:, 0], "z": X[:, 1],
                      "y": ctx.y, "value": ctx.predict(X)}),
    ], ignore_index=True)


def first_explanations(rows: pd.DataFrame) -> pd.DataFrame | NoData:
    """Per repetition the LIME rows of the first explained point's first repeat (one row per
    feature: point, x, value, intercept, r2)."""
    if not {"point", "repeat", "intercept", "r2"} <= set(rows):
        return NoData("the estimates are no LIME rows with surrogate_fit (point, intercept, r2)")
    first = rows["point"].iloc[0]
    return rows[(rows["point"] == first) & (rows["repeat"] == 0)]


def _first(cell: Cell, t: Tables) -> pd.DataFrame | NoData:
    """The cell's :func:`first_explanations` (``NoData()``: the cell has no rows)."""
    rows = cell.rows(t)
    return NoData() if rows.empty else first_explanations(rows)


@statistic("book_lime.local_agreement", params={
    "map": study_name("methods"), "nearest": integer(30, minimum=1, nullable=True)})
def local_agreement(cell: Cell, t: Tables) -> Sample | NoData:
    """The share of the ``nearest`` rows (all: null) where the surrogate's class agrees with
    the black box's, per repetition (see the module doc)."""
    lime = _first(cell, t)
    if isinstance(lime, NoData):
        return lime
    bb = Cell(cell.scenario, cell.learner, cell.params["map"]).rows(t)
    if bb.empty:
        return NoData()
    nearest = cell.params.get("nearest", 30)
    data = bb[bb["part"] == "data"] if "part" in bb else pd.DataFrame()
    if data.empty:
        return NoData(f"{cell.params['map']} writes no black-box rows (part data)")
    share = {}
    for rep, ex in lime.groupby("rep"):
        d = data[data["rep"] == rep]
        if len(ex) != 2 or d.empty:
            return NoData("needs a 2-feature LIME explanation and the black box per rep")
        a, (b1, b2), (p1, p2) = ex["intercept"].iloc[0], ex["value"], ex["x"]
        g = a + b1 * d["x"].to_numpy() + b2 * d["z"].to_numpy()
        same = (g > 0.5) == (d["value"].to_numpy() > 0.5)
        if nearest is not None:
            dist = ((d["x"] - p1) / d["x"].std()) ** 2 + ((d["z"] - p2) / d["z"].std()) ** 2
            same = same[np.argsort(dist.to_numpy(), kind="stable")[:nearest]]
        share[rep] = same.mean()
    rows = "all rows" if nearest is None else f"the {nearest} nearest rows"
    return Sample(pd.Series(share, dtype=float).rename_axis("rep"),
                  f"share of {rows} where g > 0.5 agrees with f > 0.5")


@statistic("book_lime.lime_fit")
def lime_fit(cell: Cell, t: Tables) -> Sample | NoData:
    """The explanation fit (weighted R^2 of the surrogate) per repetition."""
    ex = _first(cell, t)
    if isinstance(ex, NoData):
        return ex
    return Sample(ex.groupby("rep")["r2"].first(), "explanation fit (weighted R^2)")


@statistic("book_lime.weight_order", params={
    "above": items(feature_name()), "below": items(feature_name())})
def weight_order(cell: Cell, t: Tables) -> Sample | NoData:
    """min |coefficient| of ``above`` minus max |coefficient| of ``below`` per repetition."""
    ex = _first(cell, t)
    if isinstance(ex, NoData):
        return ex
    above, below = cell.params["above"], cell.params["below"]
    w = ex.pivot(index="rep", columns="feature", values="value").abs()
    missing = sorted(set(above + below) - set(w))
    if missing:
        return NoData(f"no coefficient of {', '.join(missing)}")
    means = w.mean().sort_values(ascending=False)
    return Sample(w[above].min(axis=1) - w[below].max(axis=1),
                  f"min |weight| of {', '.join(above)} - max |weight| of the others",
                  "; mean |weight| " + ", ".join(f"{f} {v:.3f}" for f, v in means.items()))
