"""Statistics per repetition of the book's chapters 5-7 (ALE) for ``contrast`` claims
(:mod:`imlbench.metrics.contrasts`: the tests own the SE, the "too few repetitions" reason and
the tolerance).

Curves are the layer's (:func:`imlbench.metrics.statistics.cell_curves`: one row per
repetition, x in columns); surfaces are rows rep, x, z, value; timings are rows n, repeat,
seconds of the timing method. The values and steps of curves and their spread are the layer's
``curve_value``; the error of an ALE against its closed form between the interval edges is the
layer's ``closer_to_truth`` at the truth's points.

``book_ale.bump_seen``      1 when the curve shows a bump (its range exceeds ``threshold``), else 0
``book_ale.ale2_on_theory`` the slope of the 2-D ALE on its closed form (book eq. 6.13)
``book_ale.pd2_excess``     the 2-D PD where x2 < ``below`` over the PD of f = x1 x2 x3 there
``book_ale.level_gap``      how far a categorical ALE's level values move with the order of levels
``book_ale.call_seconds``   the mean seconds per timed call at size ``n`` of each repetition
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.metrics.claims import NoData, Tables
from imlbench.metrics.contrasts import Cell, Sample, statistic
from imlbench.metrics.statistics import cell_curves
from imlbench.metrics.truth_tolerance import TruthPart, fp_floor
from imlbench.params import feature_name, integer, number, study_name

# --- how often a narrow spike is seen ------------------------------------------------------


@statistic("book_ale.bump_seen", params={"feature": feature_name(), "threshold": number(minimum=0)})
def bump_seen(cell: Cell, t: Tables) -> Sample | NoData:
    """Per repetition, 1 when the curve's range (max - min) exceeds ``threshold``, else 0: the
    ALE of a function flat but for a spike is 0 unless an interval edge falls inside the
    spike. Its mean is the share of data sets that see the spike, and the SE over the
    repetitions is the binomial SE of a share."""
    curves = cell_curves(cell, t)
    if isinstance(curves, NoData):
        return curves
    threshold = cell.params["threshold"]
    seen = curves.apply(lambda row: float(np.ptp(row.dropna()) > threshold), axis=1)
    return Sample(seen.astype(float), f"share of data sets with a bump > {threshold:g}")


# --- 2-D surfaces (rows rep, x, z, value) --------------------------------------------------


def surface_rows(cell: Cell, t: Tables) -> pd.DataFrame | NoData:
    """The cell's surface (rows rep, x, z, value), or why there is none (empty: the cell has no
    rows at all)."""
    r = cell.rows(t)
    if r.empty:
        return NoData()
    if not {"x", "z", "value"} <= set(r):
        return NoData(f"the estimates of {cell.where} are no surface (columns x, z)")
    return r


@statistic("book_ale.ale2_on_theory", params={"a": number(), "b": number(), "mu": number(),
                                              "sd": number(minimum=0)})
def ale2_on_theory(cell: Cell, t: Tables) -> Sample | NoData:
    """Per repetition, the least-squares slope (through the origin, both centred) of the
    estimated 2-D ALE of (x1, x2) on its closed form over the estimate's grid, the book's eq.
    6.13, (1/2)(x1 - (a + b)/2)(x2^2 - mu^2 - sd^2) for f = x1 x2 x3 with x1 ~ U(a, b) and
    x2 ~ N(mu, sd^2): 1 when the estimate has the closed form's shape and amplitude. A closed
    form has no Monte Carlo error: the slope carries its floating-point floor alone
    (``Sample.truth``), of the surface's largest |value| times the sum of the slope's
    |weights| u / u'u on the values, so that an exact surface reproduces the slope 1 up to
    rounding."""
    r = surface_rows(cell, t)
    if isinstance(r, NoData):
        return r
    p = cell.params
    slopes, floors = {}, {}
    for rep, g in r.groupby("rep"):
        theory = 0.5 * (g["x"] - (p["a"] + p["b"]) / 2) * (g["z"] ** 2 - p["mu"] ** 2
                                                           - p["sd"] ** 2)
        u, v = theory - theory.mean(), g["value"] - g["value"].mean()
        slopes[rep] = float(u @ v / (u @ u))
        floors[rep] = float(fp_floor(g["value"].abs().max() * np.abs(u).sum() / (u @ u)))
    return Sample(pd.Series(slopes, dtype=float), "slope of the 2-D ALE on eq. 6.13",
                  truth=TruthPart.exact(pd.Series(floors, dtype=float)))


@statistic("book_ale.pd2_excess", params={"below": number(), "mu": number()})
def pd2_excess(cell: Cell, t: Tables) -> Sample | NoData:
    """Extrapolation of a 2-D PD of (x1, x2): per repetition, the mean of the surface over its
    grid points with x2 < ``below`` divided by the mean there of x1 x2 mu, the PD of
    f = x1 x2 x3 when E[x3] = mu (what the surface would be if f were not modified where no
    data lie); repetitions without such points (or a base <= 0) left out."""
    r = surface_rows(cell, t)
    if isinstance(r, NoData):
        return r
    below, mu = cell.params["below"], cell.params["mu"]
    ratio = {}
    for rep, g in r.groupby("rep"):
        low = g[g["z"] < below]
        base = (low["x"] * low["z"] * mu).mean()
        if len(low) and base > 0:
            ratio[rep] = float(low["value"].mean() / base)
    return Sample(pd.Series(ratio, dtype=float),
                  f"mean PD over x2 < {below:g} / mean of x1 x2 mu")


# --- categorical ALE: the level values under two orders ------------------------------------


@statistic("book_ale.level_gap", params={"feature": feature_name(),
                                         "versus": study_name("methods")})
def level_gap(cell: Cell, t: Tables) -> Sample | NoData:
    """Per repetition, the RMS over levels of the difference between the level values of the
    cell's method and of method ``versus`` (the same model and data set, the levels in
    another order; both centred by the level frequencies), divided by the range of the cell's
    values: 0 for a model additive in the feature, whose ALE does not depend on the order."""
    mine = cell_curves(cell, t)
    if isinstance(mine, NoData):
        return mine
    versus = cell.params["versus"]
    theirs = cell_curves(Cell(cell.scenario, cell.learner, versus, cell.params), t)
    if isinstance(theirs, NoData):
        return NoData(theirs.reason or f"no estimates of {versus}")
    d = {}
    for rep, gv in mine.iterrows():
        gv = gv.dropna()
        if rep not in theirs.index or np.ptp(gv) == 0:
            continue
        both = pd.concat([gv, theirs.loc[rep]], axis=1).dropna()
        if len(both):
            d[rep] = float(np.sqrt(np.mean((both.iloc[:, 0] - both.iloc[:, 1]) ** 2))
                           / np.ptp(gv))
    return Sample(pd.Series(d, dtype=float),
                  f"the level values' RMS difference from {versus}, over their range")


# --- run times (the timing method's rows: n, repeat, seconds) ------------------------------


@statistic("book_ale.call_seconds", params={"n": integer(minimum=1)})
def call_seconds(cell: Cell, t: Tables) -> Sample | NoData:
    """The mean seconds per timed call at size ``n`` of each repetition (one data set and its
    fitted model, timed ``times`` times): its mean over repetitions is the run time a paper
    prints for such a model, and a ``log_ratio`` of two cells is a ratio of run times whose SE
    is the delta-method SE of each log mean over the repetitions. The unit is the repetition,
    not the call: a call's cost depends on the fitted model (e.g. an SVM's support vectors),
    which the calls on one model do not vary."""
    r = cell.rows(t)
    if r.empty:
        return NoData()
    n = cell.params["n"]
    at = r.loc[r["n"] == n]
    if at.empty:
        return NoData(f"no timings of {cell.where} at n = {n} (sizes run in this profile: "
                      f"{sorted(set(r['n']))})")
    return Sample(at.groupby("rep")["seconds"].mean().astype(float),
                  f"seconds per call at n = {n}")
