"""The book's ch. 12 ("Introduction to LIME", Sect. 12.1 and 12.3): LIME on the 2-D data with a
sine-shaped class boundary (Fig. 12.1) and R lime's iris example (Fig. 12.2).

``a_boundary`` writes the black box's predicted class-1 probability f on a grid over the first
two features (``part: grid``; the other features, if any, at their mean) and at the training
rows (``part: data``, with y): the black box's boundary is the contour f = 0.5.

Claim kinds (LIME rows of the layer's ``lime`` method with ``surrogate_fit``; per repetition
the first explained point, first repeat):

``a_local_agreement``  the share of the ``nearest`` training rows (sd-standardised Euclidean
                       distance to the explained point) where the surrogate's class, g > 0.5,
                       equals the black box's, f > 0.5 (f from the ``map`` method's rows), per
                       repetition, against ``value`` or (``against: global``) minus the same
                       share over all training rows
``a_lime_fit``         the explanation's fit (the surrogate's weighted R^2) against ``value``
``a_lime_order``       min |coefficient| of ``above`` minus max |coefficient| of ``below``
                       against ``value`` (0: every ``above`` feature weighs more)
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.explain.api import ExplainContext, method
from imlbench.metrics.claims import NoData, claim_kind, paired, per_combo
from imlbench.metrics.curve_claims import COMPARE, TOLERANCE, compared_row
from imlbench.params import choice, feature_name, integer, items, number, study_name


@method("a_boundary", kind="other", params={"grid_size": integer(60, minimum=2)})
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


def _enough(d: pd.Series) -> NoData | None:
    return NoData(f"an SE needs 2 repetitions or more; {len(d)} here") if len(d) < 2 else None


@claim_kind("a_local_agreement", params={
    "map": study_name("methods"), "nearest": integer(30, minimum=1),
    "against": choice("value", ("value", "global")), "value": number(0.0), **COMPARE,
    **TOLERANCE})
def a_local_agreement(claim: dict, t) -> list[dict]:
    """The surrogate's class against the black box's near the explained point (module doc)."""

    def one(claim: dict, both: tuple, learner: str, method: str) -> dict | NoData:
        lime, bb = both
        lime = first_explanations(lime)
        if isinstance(lime, NoData):
            return lime
        data = bb[bb["part"] == "data"] if "part" in bb else pd.DataFrame()
        if data.empty:
            return NoData(f"{claim['map']} writes no black-box rows (part data)")
        local, overall = {}, {}
        for rep, ex in lime.groupby("rep"):
            d = data[data["rep"] == rep]
            if len(ex) != 2 or d.empty:
                return NoData("needs a 2-feature LIME explanation and the black box per rep")
            a, (b1, b2), (p1, p2) = ex["intercept"].iloc[0], ex["value"], ex["x"]
            g = a + b1 * d["x"].to_numpy() + b2 * d["z"].to_numpy()
            same = (g > 0.5) == (d["value"].to_numpy() > 0.5)
            dist = ((d["x"] - p1) / d["x"].std()) ** 2 + ((d["z"] - p2) / d["z"].std()) ** 2
            near = np.argsort(dist.to_numpy(), kind="stable")[:claim["nearest"]]
            local[rep], overall[rep] = same[near].mean(), same.mean()
        loc, glob = pd.Series(local).rename_axis("rep"), pd.Series(overall).rename_axis("rep")
        short = _enough(loc)
        if short:
            return short
        vs_global = claim["against"] == "global"
        return compared_row(
            claim, learner, method, loc - glob if vs_global else loc,
            f"share of the {claim['nearest']} nearest rows where g > 0.5 agrees with f > 0.5"
            + (" minus that share over all rows" if vs_global else ""),
            value=claim["value"], compare=claim["compare"], atol=claim["atol"],
            more=f"; local {loc.mean():.3f}, all rows {glob.mean():.3f}")

    return per_combo(claim, t, paired("other", "map"), one)


@claim_kind("a_lime_fit", params={"value": number(), **COMPARE, **TOLERANCE})
def a_lime_fit(claim: dict, t) -> list[dict]:
    """The explanation fit (weighted R^2 of the surrogate) per repetition against ``value``."""

    def one(claim: dict, rows: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        ex = first_explanations(rows)
        if isinstance(ex, NoData):
            return ex
        d = ex.groupby("rep")["r2"].first()
        return _enough(d) or compared_row(
            claim, learner, method, d, "explanation fit (weighted R^2)", value=claim["value"],
            compare=claim["compare"], atol=claim["atol"])

    return per_combo(claim, t, "other", one)


@claim_kind("a_lime_order", params={
    "above": items(feature_name()), "below": items(feature_name()), "value": number(0.0),
    **COMPARE, **TOLERANCE})
def a_lime_order(claim: dict, t) -> list[dict]:
    """min |coefficient| of ``above`` minus max |coefficient| of ``below`` per repetition."""

    def one(claim: dict, rows: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        ex = first_explanations(rows)
        if isinstance(ex, NoData):
            return ex
        w = ex.pivot(index="rep", columns="feature", values="value").abs()
        missing = sorted(set(claim["above"] + claim["below"]) - set(w))
        if missing:
            return NoData(f"no coefficient of {', '.join(missing)}")
        d = w[claim["above"]].min(axis=1) - w[claim["below"]].max(axis=1)
        means = w.mean().sort_values(ascending=False)
        return _enough(d) or compared_row(
            claim, learner, method, d,
            f"min |weight| of {', '.join(claim['above'])} - max |weight| of the others",
            value=claim["value"], compare=claim["compare"], atol=claim["atol"],
            more="; mean |weight| " + ", ".join(f"{f} {v:.3f}" for f, v in means.items()))

    return per_combo(claim, t, "other", one)
