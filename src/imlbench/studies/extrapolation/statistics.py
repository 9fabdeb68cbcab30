"""Statistics of Hooker, Mentch & Zhou (2021) for ``contrast`` claims
(:mod:`imlbench.metrics.contrasts`): one value per repetition, or one vector per repetition
for a spread over repetitions (the test ``spread_ratio``).

``extrapolation.grid_curve``        (Fig. 3) the curve of ``feature`` at the estimate's own
                                    grid points (the mean over reference rows for curves of
                                    rows), one vector per repetition
``extrapolation.surface_region``    (Fig. 5) a surface (columns x, z) at its grid points in
                                    ``region``, one vector per repetition
``extrapolation.z_slope``           (Fig. 4) the mean |d surface / d z| over the grid points in
                                    ``region`` (finite differences between neighbouring z at
                                    one x, placed at their midpoint)
``extrapolation.band_error``        (Figs. 3, 6) the RMS error of the ICE curves of the
                                    reference rows against their true curves (the scenario's
                                    ``effects`` truth, interpolated onto the estimate's grid,
                                    not anchored) over the grid points ``outside`` or
                                    ``inside`` each row's conditional band [lo, hi], pooled
                                    over the rows; it carries how it reads the truth
                                    (``Sample.truth``: the truth's Monte Carlo SE and the
                                    floating-point floor widen the kit's tests)
``extrapolation.importance_ratio``  (Fig. 4) the importance of ``feature`` divided by that of
                                    ``relative_to``
``extrapolation.theory_ratio``      (Theorems 1, 3) sum_j importance_j / sum_j theory_j, the
                                    theory being the model-level value of the method
                                    ``theory_method`` on the same fit (summing over features
                                    keeps near-zero theory values, e.g. a null feature, from
                                    dominating the ratio)

The regions of a surface: ``corner``, the grid points with |x - z| >= ``corner`` (off the
diagonal, where the dependent features leave no data), and ``diagonal``, those with |x - z|
<= ``diagonal`` (the data).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.metrics.claims import NoData, Tables
from imlbench.metrics.contrasts import Cell, Sample, statistic
from imlbench.metrics.statistics import cell_curves
from imlbench.metrics.truth_errors import error_truth_part
from imlbench.params import REQUIRED, choice, feature_name, number, study_name

#: a region of a surface (see the module doc)
REGION = {"region": choice(REQUIRED, ("corner", "diagonal")), "corner": number(minimum=0),
          "diagonal": number(minimum=0)}


@statistic("extrapolation.grid_curve", params={"feature": feature_name()})
def grid_curve(cell: Cell, t: Tables) -> Sample | NoData:
    """The curve of ``feature`` at its grid points, per repetition (see the module doc)."""
    curves = cell_curves(cell, t)
    if isinstance(curves, NoData):
        return curves
    return Sample(curves, f"{cell.params['feature']} at its {curves.shape[1]} grid points")


def _surface_rows(cell: Cell, t: Tables) -> pd.DataFrame | NoData:
    """The cell's rows when they are a surface (columns x, z), else why not."""
    r = cell.rows(t)
    if r.empty or "z" not in r:
        return NoData("" if r.empty else f"the estimates of {cell.where} are no surface "
                                         f"(no column z)")
    return r


def _in_region(cell: Cell, gap: np.ndarray) -> np.ndarray:
    """Which points of distance ``gap`` = |x - z| from the diagonal lie in the cell's
    region."""
    p = cell.params
    return gap >= p["corner"] if p["region"] == "corner" else gap <= p["diagonal"]


def _region_text(cell: Cell) -> str:
    p = cell.params
    return (f"|x - z| >= {p['corner']:g}" if p["region"] == "corner"
            else f"|x - z| <= {p['diagonal']:g}")


@statistic("extrapolation.surface_region", params=REGION)
def surface_region(cell: Cell, t: Tables) -> Sample | NoData:
    """The surface at its grid points in ``region``, per repetition (see the module doc)."""
    r = _surface_rows(cell, t)
    if isinstance(r, NoData):
        return r
    wide = r.pivot_table(index="rep", columns=["x", "z"], values="value", aggfunc="mean")
    points = wide.columns
    gap = np.abs(points.get_level_values("x").to_numpy(float)
                 - points.get_level_values("z").to_numpy(float))
    inside = _in_region(cell, gap)
    if not inside.any():
        return NoData(f"the surface of {cell.where} has no grid point at {_region_text(cell)}")
    return Sample(wide.loc[:, inside], f"surface at {_region_text(cell)} "
                                       f"({int(inside.sum())} points)")


@statistic("extrapolation.z_slope", params=REGION)
def z_slope(cell: Cell, t: Tables) -> Sample | NoData:
    """The mean |d surface / d z| over ``region``, per repetition (see the module doc)."""
    r = _surface_rows(cell, t)
    if isinstance(r, NoData):
        return r
    r = r.sort_values(["rep", "x", "z"])
    g = r.groupby(["rep", "x"])
    slope = (g["value"].diff() / g["z"].diff()).abs()
    mid = (r["z"] + g["z"].shift()) / 2
    d = pd.DataFrame({"rep": r["rep"], "gap": (r["x"] - mid).abs(), "slope": slope}).dropna()
    v = d[_in_region(cell, d["gap"])].groupby("rep")["slope"].mean()
    return Sample(v, f"mean |d f / d z| at {_region_text(cell)}")


def _ice_truth(t: Tables, scenario: str, feature: str) -> pd.DataFrame:
    """The true ICE curves of the reference rows that have a band (columns row, x, value, lo,
    hi), from the scenario's ``effects`` truth."""
    e = t.truths.get((scenario, "effects"), pd.DataFrame())
    if e.empty:
        return pd.DataFrame()
    return e[(e["estimand"] == "ice") & (e["feature"] == feature)].dropna(subset=["lo", "hi"])


@statistic("extrapolation.band_error", params={
    "feature": feature_name(), "band": choice(REQUIRED, ("outside", "inside"))})
def band_error(cell: Cell, t: Tables) -> Sample | NoData:
    """The RMS error of the ICE curves ``outside`` or ``inside`` the rows' bands, per
    repetition (see the module doc)."""
    r = cell.rows(t)
    if r.empty:
        return NoData()
    feature, band = cell.params["feature"], cell.params["band"]
    truth = _ice_truth(t, cell.scenario, feature)
    if truth.empty or "row" not in r:
        return NoData(f"{cell.scenario} has no true ICE curves of {feature} with a band, or "
                      f"{cell.where} no curves of rows")
    est = r[r["feature"] == feature].dropna(subset=["x", "value"])
    parts = []
    for row, tr in truth.groupby("row"):
        e = est[est["row"] == row]
        tr = tr.sort_values("x")
        at = np.interp(e["x"], tr["x"], tr["value"])
        inside = (e["x"] >= tr["lo"].iloc[0]) & (e["x"] <= tr["hi"].iloc[0])
        keep = inside if band == "inside" else ~inside
        # each row's truth is its own curve: a point of the truth is (row, x)
        parts.append(pd.DataFrame({
            "rep": e["rep"], "feature": f"{feature} row {row}", "x": e["x"], "anchor": "none",
            "estimate": e["value"], "truth": at, "error": e["value"] - at,
            "truth_se": np.interp(e["x"], tr["x"], tr["se"])})[keep])
    points = pd.concat(parts, ignore_index=True)
    if points.empty:
        return NoData(f"no ICE point of {feature} of {cell.where} lies {band} the bands")
    return Sample((points["error"] ** 2).groupby(points["rep"]).mean() ** 0.5,
                  f"RMS error of the ICE of {feature} {band} the band",
                  truth=error_truth_part(points, "rmse", f"{cell.scenario} ice"))


@statistic("extrapolation.importance_ratio", params={"feature": feature_name(),
                                                     "relative_to": feature_name()})
def importance_ratio(cell: Cell, t: Tables) -> Sample | NoData:
    """The importance of ``feature`` over that of ``relative_to``, per repetition
    (``Tables.ranked``)."""
    r = cell.rows(t, "ranked")
    if r.empty:
        return NoData()
    f, rel = cell.params["feature"], cell.params["relative_to"]
    v = r.pivot_table(index="rep", columns="feature", values="value")
    missing = [x for x in (f, rel) if x not in v]
    if missing:
        return NoData(f"the importances of {cell.where} hold no feature "
                      f"{', '.join(missing)} (they have: {', '.join(map(str, v.columns))})")
    return Sample(v[f] / v[rel], f"importance of {f} / importance of {rel}")


@statistic("extrapolation.theory_ratio", params={"theory_method": study_name("methods")})
def theory_ratio(cell: Cell, t: Tables) -> Sample | NoData:
    """sum_j importance_j / sum_j theory_j, per repetition (see the module doc)."""
    est = cell.rows(t, "ranked")
    theory = Cell(cell.scenario, cell.learner, cell.params["theory_method"]).rows(t)
    if est.empty or theory.empty:
        return NoData()
    m = est.merge(theory[["rep", "feature", "value"]], on=["rep", "feature"],
                  suffixes=("", "_theory"))
    sums = m.groupby("rep")[["value", "value_theory"]].sum()
    return Sample(sums["value"] / sums["value_theory"], "ratio estimate/theory")
