"""The book's ch. 14 ("LIME and sampling", Sects. 14.2-14.3): the sin(x/s) sketches
(Figs. 14.1-14.4) and the showcases of the spread of LIME weights over repeated explanations
of one point: Boston housing (Figs. 14.5-14.8) and the binned bike days (Figs. 14.9-14.11).

``m_bikes_binned`` is the daily bike data of ``bikeshare_daily`` (UCI columns) with the
numeric features cut into quantile classes and every feature categorical, and the count
divided by its sd (the book's code for Sect. 14.3.2): bins as the table DGP's ``bins``.

Claim kind ``m_sd_ratio``: the book's stability measure (the sd of each weight over the
``repeat`` column, averaged over features and points; Sect. 14.3) of a *cell* A (the claim's
scenario, learner, method and ``point``) over that of a cell B (``than_*``: the same cell
with those keys replaced), optionally divided by the same ratio of two other cells C / D
(``against_*`` replaces keys of A, ``against_than_*`` keys of C), against ``value``. The
test is on the log ratio; each cell's standard error is its jackknife over the repeats (leave
one repeat out of every point at once: the Monte Carlo error of the measure for the given
model and points), carried to the log by the delta method; the cells draw independent
samples, so the variances add.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from imlbench.data.bikeshare import UCI_DAY_LEVELS
from imlbench.dgp.base import DGPS
from imlbench.dgp.bikeshare import BikeDaily
from imlbench.dgp.table import quantile_bins
from imlbench.metrics.claims import Check, NoData, claim_kind, claim_row, per_combo
from imlbench.params import Param, ParamError, check, choice, integer, items, number, text
from imlbench.stats import t_multiplier


@DGPS.register("m_bikes_binned")
class BikesBinned(BikeDaily):
    """The daily bike rows (``columns: uci``, ``features`` as ``bikeshare_daily``) with every
    feature of ``bins`` replaced by its quantile class (``count`` classes, bins closed on the
    right; the table DGP's ``bins``), every feature categorical, and y = cnt / sd(cnt)."""

    def __init__(self, source: str | None = None, path: str | None = None,
                 features: Sequence[str] | None = None, bins: Sequence[str] = (),
                 count: int = 4) -> None:
        super().__init__(source, path, "uci", features)
        check(items(text()), list(bins), "bins")
        check(integer(minimum=2), count, "count")
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


#: the keys that pick a cell of LIME rows; a ``than_``/``against_``/``against_than_`` prefix
#: replaces the key of the cell it refers to
CELL_KEYS = ("scenario", "learner", "method", "point")


def _name(section: str | None) -> Param:
    return Param("text", None, refers=section, nullable=True)


_CELL = {"scenario": _name("scenarios"), "learner": _name("learners"),
         "method": _name("methods"), "point": text(None, nullable=True)}


def cell_sd(rows: pd.DataFrame) -> tuple[float, float, int]:
    """The average sd of the weights over repeats (Sect. 14.3: per point and feature the sd
    of ``value`` over ``repeat``, averaged over both), its jackknife SE over the repeats and
    the number of repeats. Failed explanations (NaN weights) are left out."""
    rows = rows[rows["value"].notna()]
    wide = rows.pivot_table(index=["point", "feature"], columns="repeat", values="value",
                            aggfunc="first")
    v = wide.to_numpy(float)
    n = np.sum(np.isfinite(v), axis=1)
    if n.size == 0 or n.min() < 3:
        raise ValueError("the sd over repeats and its jackknife need 3 repeats or more per "
                         "point and feature")
    v0 = np.nan_to_num(v)
    s1, s2 = v0.sum(axis=1), (v0**2).sum(axis=1)
    sd = np.sqrt(np.maximum(s2 - s1**2 / n, 0) / (n - 1)).mean()
    # leave repeat r out of every (point, feature): closed-form sums without v_r
    present = np.isfinite(v)
    m = n[:, None] - present
    t1, t2 = s1[:, None] - v0, s2[:, None] - v0**2
    loo = np.sqrt(np.maximum(t2 - t1**2 / m, 0) / (m - 1)).mean(axis=0)
    R = v.shape[1]
    se = float(np.sqrt((R - 1) / R * ((loo - loo.mean()) ** 2).sum()))
    return float(sd), se, int(n.min())


def _cells(claim: dict, learner: str, method: str) -> list[dict]:
    a = {"scenario": claim["where"]["scenario"], "learner": learner, "method": method,
         "point": claim["point"]}
    b = {k: claim[f"than_{k}"] if claim[f"than_{k}"] is not None else a[k] for k in CELL_KEYS}
    if all(claim[f"against_{k}"] is None for k in CELL_KEYS):
        return [a, b]
    c = {k: claim[f"against_{k}"] if claim[f"against_{k}"] is not None else a[k]
         for k in CELL_KEYS}
    d = {k: claim[f"against_than_{k}"] if claim[f"against_than_{k}"] is not None else c[k]
         for k in CELL_KEYS}
    return [a, b, c, d]


def _shown(cell: dict) -> str:
    return "/".join(str(cell[k]) for k in CELL_KEYS if cell[k] is not None)


def _rows_of(claim: dict, t, learner: str, method: str) -> list[pd.DataFrame] | NoData:
    df = t.other
    if df.empty or "repeat" not in df:
        return NoData()
    out = []
    for cell in _cells(claim, learner, method):
        r = df[(df["scenario"] == cell["scenario"]) & (df["learner"] == cell["learner"])
               & (df["method"] == cell["method"])]
        if cell["point"] is not None:
            r = r[r["point"] == cell["point"]]
        if r.empty:
            return NoData(f"no LIME rows of {_shown(cell)}")
        out.append(r)
    return out


@claim_kind("m_sd_ratio", params={
    **_CELL, **{f"than_{k}": p for k, p in _CELL.items()},
    **{f"against_{k}": p for k, p in _CELL.items()},
    **{f"against_than_{k}": p for k, p in _CELL.items()},
    "value": number(1.0, above=0), "compare": choice("above", ("above", "below", "equal")),
    "z": number(2.0, minimum=0),
})
def m_sd_ratio(claim: dict, t) -> list[dict]:
    """The ratio of average sds of two cells (or the ratio of two such ratios) against
    ``value`` (module doc)."""

    def one(claim: dict, parts: list[pd.DataFrame], learner: str, method: str
            ) -> dict | NoData:
        cells = _cells(claim, learner, method)
        stats = [cell_sd(r) for r in parts]
        sds = np.array([s[0] for s in stats])
        if (sds <= 0).any():
            return NoData("a cell's weights do not vary over the repeats (sd 0): no ratio")
        rel = np.array([s[1] / s[0] for s in stats])
        sign = np.array([1, -1, -1, 1][:len(stats)])
        log_ratio = float(sign @ np.log(sds))
        tk = float(t_multiplier(claim["z"], min(s[2] for s in stats) - 1))
        half = tk * float(np.sqrt((rel**2).sum()))
        shown = ", ".join(f"{_shown(c)} {s:.4g} (SE {se:.2g})"
                          for c, (s, se, _) in zip(cells, stats, strict=True))
        what = ("ratio of ratios" if len(cells) == 4 else "ratio")
        reproduced = (f"average sd {shown}; {what} {np.exp(log_ratio):.4g} "
                      f"[{np.exp(log_ratio - half):.4g}, {np.exp(log_ratio + half):.4g}]")
        tolerance = (f"log {what} {claim['compare']} log {claim['value']:g}, half-width "
                     f"t({claim['z']:g}) SE; SE of each log average sd its jackknife SE over "
                     f"the repeats / the average sd, independent cells")
        return claim_row(claim, learner, method, reproduced, tolerance,
                         Check(log_ratio, half, claim["compare"], float(np.log(claim["value"]))))

    return per_combo(claim, t, _rows_of, one)
