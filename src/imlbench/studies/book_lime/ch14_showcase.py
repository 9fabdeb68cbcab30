"""The book's ch. 14 ("LIME and sampling", Sects. 14.2-14.3): the sin(x/s) sketches
(Figs. 14.1-14.4) and the showcases of the spread of LIME weights over repeated explanations
of one point: Boston housing (Figs. 14.5-14.8) and the binned bike days (Figs. 14.9-14.11).

``book_lime.bikes_binned`` is the daily bike data of ``bikeshare_daily`` (UCI columns) with the
numeric features cut into quantile classes and every feature categorical, and the count
divided by its sd (the book's code for Sect. 14.3.2): bins as the table DGP's ``bins``.

The book's stability measure (Sect. 14.3) is the sd of each weight over the ``repeat`` column
(explanations of the same point by the same model), averaged over the features and points:
the kit's spread (:func:`imlbench.metrics.contrasts.spread`) of the weights with one row per
repeat. The showcases fit one model per setting (``reps: 1``), so its Monte Carlo error is
over the repeats.

Statistic ``book_lime.weight_sd``: a cell's weights, one row per repeat and one column per
feature and point (its ``point``; null: every point), for ``contrast`` claims with the kit's
``spread_ratio`` test: the measure of the cell over that of the cell ``than`` names (e.g.
``than: {point: mean}``), on the log scale with the kit's bootstrap SE over the repeats.

Claim kind ``book_lime.sd_ratio``: the ratio of two such ratios, A / B over C / D (``than`` moves A
to B, ``against`` moves A to C, ``against_than`` moves C to D, default as ``than``), e.g. how
much more the minority point scatters than the majority point on the bike days, against the
same for Boston's outlier and mean point. Each ratio is the kit's ``spread_ratio`` of its two
cells; A / B and C / D come from different data sets, so the log ratio of ratios is their
difference with half-width the root of the sum of the two half-widths squared
(:func:`imlbench.metrics.contrasts.independent_se`; the same t' when both have as many
repeats). Four cells are not the ``contrast`` shape, which compares two.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from imlbench.data.bikeshare import UCI_DAY_LEVELS
from imlbench.dgp.base import DGPS
from imlbench.dgp.bikeshare import BikeDaily
from imlbench.dgp.table import quantile_bins
from imlbench.metrics.claims import Check, NoData, Tables, claim_kind, claim_row, per_combo
from imlbench.metrics.contrasts import (
    Cell,
    K,
    Sample,
    independent_se,
    spread,
    spread_ratio,
    statistic,
)
from imlbench.params import (
    ParamError,
    choice,
    integer,
    items,
    number,
    study_name,
    table,
    text,
)


@DGPS.register("book_lime.bikes_binned")
class BikesBinned(BikeDaily):
    """The daily bike rows (``columns: uci``, ``features`` as ``bikeshare_daily``) with every
    feature of ``bins`` replaced by its quantile class (``count`` classes, bins closed on the
    right; the table DGP's ``bins``), every feature categorical, and y = cnt / sd(cnt)."""

    params = {"features": BikeDaily.params["features"],
              "bins": items(text(), (), unique=True), "count": integer(4, minimum=2)}

    def __init__(self, source: str | None = None, path: str | None = None,
                 features: Sequence[str] | None = None, bins: Sequence[str] = (),
                 count: int = 4) -> None:
        super().__init__(source, path, "uci", features)
        self.bins, self.count = list(bins), count
        self._bin_levels: dict[str, dict[int, str]] = {}

    def load(self) -> pd.DataFrame:
        data = super().load().copy()
        for k, name in enumerate(self.bins):
            if name not in data.columns or name == "y":
                raise ParamError(f"bins[{k}]", f"{name!r} is not a feature; allowed: "
                                               f"{', '.join(c for c in data if c != 'y')}")
            data[name], self._bin_levels[name] = quantile_bins(data[name].to_numpy(),
                                                                self.count)
        data["y"] = data["y"] / float(np.std(data["y"].to_numpy(), ddof=1))
        return data

    @property
    def categorical(self) -> tuple[str, ...]:
        """Every feature: the coded ones and the binned ones."""
        return tuple(self.feature_names)

    @property
    def levels(self) -> dict[str, dict[int, str]]:
        self.data  # noqa: B018  (the bins are made as the data are read)
        return {f: self._bin_levels[f] if f in self._bin_levels else UCI_DAY_LEVELS[f]
                for f in self.categorical}


def _shown(cell: Cell) -> str:
    point = cell.params.get("point")
    return cell.where + (f"/{point}" if point is not None else "")


@statistic("book_lime.weight_sd", params={"point": text(None, nullable=True)})
def weight_sd(cell: Cell, t: Tables) -> Sample | NoData:
    """The cell's LIME weights, one row per repeat and one column per (point, feature), whose
    spread is the book's stability measure (see the module doc). Failed explanations (NaN
    weights) are left out."""
    rows = cell.rows(t)
    if rows.empty or "repeat" not in rows:
        return NoData()
    point = cell.params.get("point")
    if point is not None:
        rows = rows[rows["point"] == point]
    if rows.empty:
        return NoData(f"no LIME rows of {_shown(cell)}")
    rows = rows[rows["value"].notna()]
    wide = rows.pivot_table(index="repeat", columns=["point", "feature"], values="value",
                            aggfunc="first")
    if len(wide) > 1 and not spread(wide) > 0:
        return NoData(f"the weights of {_shown(cell)} do not vary over the repeats (sd 0): "
                      f"no ratio")
    return Sample(wide, f"average sd over repeats of {_shown(cell)}", draws=True)


#: a cell relative to another: what differs (scenario, learner, method, point)
MOVE = {"scenario": study_name("scenarios", None), "learner": study_name("learners", None),
        "method": study_name("methods", None), "point": text(None, nullable=True)}


@claim_kind("book_lime.sd_ratio", params={
    "point": text(None, nullable=True), "than": table(MOVE), "against": table(MOVE),
    "against_than": table(MOVE, None, nullable=True), "value": number(1.0, above=0),
    "compare": choice("above", ("above", "below", "equal")), **K})
def m_sd_ratio(claim: dict, t: Tables) -> list[dict]:
    """The ratio of the measures' ratios A / B and C / D against ``value`` (see the module
    doc)."""

    def cells(learner: str, method: str) -> list[Cell]:
        a = Cell(claim["where"]["scenario"], learner, method, {"point": claim["point"]})
        c = a.moved(claim["against"])
        return [a, a.moved(claim["than"]), c, c.moved(claim["against_than"] or claim["than"])]

    def weights(claim: dict, t: Tables, learner: str, method: str) -> list[Sample] | NoData:
        out = []
        for cell in cells(learner, method):
            got = weight_sd(cell, t)
            if isinstance(got, NoData):
                return NoData(got.reason or f"no LIME rows of {_shown(cell)}")
            out.append(got)
        return out

    def one(claim: dict, w: list[Sample], learner: str, method: str) -> dict | NoData:
        a, b, c, d = cells(learner, method)
        ratios = [spread_ratio(w[i], w[i + 1], _shown(other), 1.0, k=claim["k"],
                               compare="equal", together=False)  # LIME repeats: draws
                  for i, cell, other in ((0, a, b), (2, c, d))]
        for r in ratios:
            if isinstance(r, NoData):
                return r
        ab, cd = (r.check for r in ratios)
        log_rr = ab.estimate - cd.estimate
        check = Check(log_rr, float(independent_se(ab.half, cd.half)), claim["compare"],
                      float(np.log(claim["value"])), scale=1.0)
        return claim_row(
            claim, learner, method,
            f"{ratios[0].reproduced}; {ratios[1].reproduced}; ratio of ratios "
            f"{np.exp(log_rr):.4g}",
            f"log ratio of ratios {claim['compare']} log {claim['value']:g}: each ratio as the "
            f"kit's spread_ratio ({ratios[0].tolerance}), the two from independent data sets: "
            f"half-width the root of the sum of their half-widths squared", check)

    return per_combo(claim, t, weights, one)
