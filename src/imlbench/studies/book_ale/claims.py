"""Claim kinds of the book's chapters 5-7 (ALE) that are exact, without sampling error: a 2-D
ALE that is 0 everywhere, the order of categorical levels, the number of distinct ICE curves.

Every other claim of the study is a layer kind (``closer_to_truth`` at the truth's points for
the error of an ALE between its edges) or a ``contrast`` (:mod:`imlbench.metrics.contrasts`) on
the layer's statistics or the study's (:mod:`.statistics`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.metrics.claims import (
    NoData,
    Tables,
    claim_kind,
    claim_row,
    estimates,
    per_combo,
)
from imlbench.metrics.contrasts import THAN, Cell
from imlbench.params import choice, feature_name, integer, number
from imlbench.studies.book_ale.statistics import surface_rows


def _cell(claim: dict, learner: str, method: str) -> Cell:
    return Cell(claim["where"]["scenario"], learner, method)


# ---------------------------------------------------------------------------------------
# 2-D surfaces (columns rep, x, z, value)


@claim_kind("book_ale.surface_flat", params={"max": number(minimum=0)})
def surface_flat(claim: dict, t: Tables) -> list[dict]:
    """The surface is 0 everywhere in every repetition: its largest |value| is at most ``max``
    (floating-point rounding; a function without a second-order effect gives second
    differences of exactly 0). Exact: no tolerance."""

    def rows_of(claim: dict, t: Tables, learner: str, method: str) -> pd.DataFrame | NoData:
        return surface_rows(_cell(claim, learner, method), t)

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict:
        top = float(r["value"].abs().max())
        return claim_row(claim, learner, method,
                         f"largest |value| over {r['rep'].nunique()} reps: {top:.3g}",
                         f"<= {claim['max']:g} (rounding; exact)", top <= claim["max"])

    return per_combo(claim, t, rows_of, one)


# ---------------------------------------------------------------------------------------
# categorical ALE: the order of the levels (rows of a repetition in the order used)


def _orders(r: pd.DataFrame, feature: str) -> dict:
    r = r[r["feature"] == feature]
    return {rep: tuple(g["x"].to_numpy(float)) for rep, g in r.groupby("rep", sort=True)}


@claim_kind("book_ale.order_differs", params={"feature": feature_name(), "than": THAN})
def order_differs(claim: dict, t: Tables) -> list[dict]:
    """The levels of a categorical ALE come in a different order than in the cell ``than``
    names (another method or scenario; the same learner), in every repetition both have; the
    order is a function of the data alone, so the test is exact. Reports Kendall's tau
    between the two orders of the first repetition."""
    from scipy.stats import kendalltau

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        other = _cell(claim, learner, method).moved(claim["than"])
        mine, theirs = _orders(r, claim["feature"]), _orders(other.rows(t), claim["feature"])
        reps = sorted(set(mine) & set(theirs))
        if not reps:
            return NoData(f"no repetition of {other.where} to compare with")
        a, b = mine[reps[0]], theirs[reps[0]]
        common = [v for v in a if v in set(b)]
        tau = kendalltau([a.index(v) for v in common], [b.index(v) for v in common])[0]
        differ = all(mine[k] != theirs[k] for k in reps)
        return claim_row(claim, learner, method,
                         f"orders differ in {sum(mine[k] != theirs[k] for k in reps)} of "
                         f"{len(reps)} reps; Kendall tau {tau:.3g}; first levels "
                         f"{', '.join(f'{v:g}' for v in a[:3])} against "
                         f"{', '.join(f'{v:g}' for v in b[:3])}",
                         "the orders differ (exact)", differ)

    return per_combo(claim, t, "other", one)


# ---------------------------------------------------------------------------------------
# ICE curves (columns rep, row, x, value)


def _ice(claim: dict, t: Tables, learner: str, method: str) -> pd.DataFrame | NoData:
    r = estimates("other")(claim, t, learner, method)
    if isinstance(r, NoData) or "row" not in r:
        return NoData() if isinstance(r, NoData) else NoData(
            f"the estimates of {_cell(claim, learner, method).where} are no ICE curves "
            f"(column row)")
    return r[r["feature"] == claim["feature"]]


@claim_kind("book_ale.distinct_curves", params={
    "feature": feature_name(), "value": integer(minimum=1),
    "compare": choice("equal", ("equal", "at_most")), "decimals": integer(6, minimum=0)})
def distinct_curves(claim: dict, t: Tables) -> list[dict]:
    """The number of distinct ICE curves (rounded to ``decimals`` relative digits) equals
    ``value`` (or is at most ``value``) in every repetition. Exact."""

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict:
        counts = []
        for _, g in r.groupby("rep"):
            wide = g.pivot(index="row", columns="x", values="value").to_numpy()
            scale = np.abs(wide).max() or 1.0
            counts.append(len(np.unique(np.round(wide / scale, claim["decimals"]), axis=0)))
        at_most = claim["compare"] == "at_most"
        holds = all(c <= claim["value"] if at_most else c == claim["value"] for c in counts)
        return claim_row(claim, learner, method,
                         f"distinct curves per repetition: {', '.join(map(str, counts))}",
                         f"{'at most' if at_most else 'equal to'} {claim['value']} (exact)",
                         holds)

    return per_combo(claim, t, _ice, one)
