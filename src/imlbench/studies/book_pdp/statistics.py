"""Statistics per repetition of the book's chapters 2-4, for ``contrast`` claims
(:mod:`imlbench.metrics.contrasts`; the test, its SE and the other cell ``than`` are the
kit's). Each gives one value per repetition (a forest seed, a simulated data set):

``book_pdp.surface_slice``  a slice f(., z) of a 2-D PDP f(x, z) over its grid points with x
    in ``range`` (``at``: the grid's z nearest to it): its least-squares slope or its mean
    (``stat``), less the same at ``minus_at`` when given (e.g. the decline of survival with
    age for men less that for women, Figs 2.3, 2.4). The fare gap of adults beyond that of
    children is a ``paired`` test with ``than: {range: [0, 12]}``.
``book_pdp.span``           the largest minus the smallest value of the curve over its grid
    points (with x in ``range`` when given): how far a PDP reaches (Sec. 4.4, scenario 5),
    or, with ``log_ratio`` against another model, how much a dependent feature flattens it
    (ch. 3.2, 3.3).
``book_pdp.rms_spread``     the RMS distance of the repetition's curve from the mean curve
    over the repetitions, on :data:`SPREAD_POINTS` equidistant points of ``range``
    (:func:`imlbench.curves.values_at`): how much the PDPs vary between data sets (ch. 3.3).
    The repetitions share the mean curve, so their values are slightly dependent (a
    correlation of order 1 / R, ignored).
``book_pdp.rms_error``      the RMS distance of the curve from the scenario's true ``pd`` over
    the points with x in ``range`` within the truth's range, both centred at their mean over
    those points (:func:`imlbench.metrics.truth_errors.against_truth`).
``book_pdp.pull``           how far the PDP moved from its own truth t(x) (the scenario's
    ``pd``) toward the curve g(x) ``toward`` (an expression in x, e.g. the book's common
    effect ``x + sin(3*x)`` of a duplicated feature): lambda of the least-squares fit curve =
    c + alpha t + lambda (g - t) over the curve's points in ``range`` within the truth's
    range; lambda = 0 is the own effect (scaled by alpha: a learner that flattens a sine has
    alpha < 1, which is not a pull), lambda = 1 the target. When g - t is a multiple of t (a
    linear own effect and a linear target, setting 1), alpha and lambda cannot be told apart
    and alpha is fixed at 1: lambda is then the slope's excess over the own one in units of
    g - t.

``rms_error`` and ``pull`` read a Monte Carlo truth: they carry how they move with it and
their floating-point floor (``Sample.truth``, :class:`imlbench.metrics.truth_tolerance.
TruthPart`), which widen the kit's tests by the truth's own Monte Carlo SE.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from imlbench.curves import values_at
from imlbench.dgp.expressions import ExpressionError, parse
from imlbench.metrics.claims import NoData, Tables
from imlbench.metrics.contrasts import Cell, Sample, statistic
from imlbench.metrics.curve_claims import ls_slope
from imlbench.metrics.statistics import RANGE, SPAN, cell_curves
from imlbench.metrics.truth_errors import against_truth, error_truth_part
from imlbench.metrics.truth_tolerance import TruthPart
from imlbench.params import choice, feature_name, number, text

#: the statistic of one slice of a surface over x: its least-squares slope or its mean
SLICE_STATS = {"slope": ls_slope, "mean": lambda x, v: float(np.mean(v))}
#: the common points of ``range`` on which ``rms_spread`` compares the repetitions' curves
SPREAD_POINTS = 50
#: |correlation| of t and g - t above which ``pull`` takes the two as collinear (alpha = 1)
COLLINEAR = 0.999


def _on(p: dict) -> str:
    """The claim's ``range`` as the scorecard names it."""
    lo, hi = p["range"]
    return f"on [{lo:g}, {hi:g}]"


# --- 2-D PDP slices (ch. 2) ------------------------------------------------------------------


def _slice_stat(rep: pd.DataFrame, z: float, lo: float, hi: float, stat: str) -> float:
    """``stat`` of the slice f(., z) of one repetition over its points with x in [lo, hi]
    (NaN with fewer than 2)."""
    s = rep[(rep["x"] >= lo) & (rep["x"] <= hi) & np.isclose(rep["z"], z)].sort_values("x")
    if len(s) < 2:
        return float("nan")
    return SLICE_STATS[stat](s["x"].to_numpy(float), s["value"].to_numpy(float))


@statistic("book_pdp.surface_slice", params={
    "at": number(), "minus_at": number(None, nullable=True), "range": RANGE,
    "stat": choice("slope", tuple(SLICE_STATS))})
def surface_slice(cell: Cell, t: Tables) -> Sample | NoData:
    """The slope or mean of the slice at ``at``, less that at ``minus_at``, per repetition
    (see the module doc)."""
    r = cell.rows(t)
    if r.empty:
        return NoData()
    if not {"x", "z", "value"} <= set(r):
        return NoData(f"the estimates of {cell.where} are no surface (columns x, z)")
    p = cell.params
    zs = np.unique(r["z"].to_numpy(float))
    zb, za = (None if a is None else float(zs[np.argmin(np.abs(zs - a))])
              for a in (p["at"], p.get("minus_at")))
    if za == zb:
        return NoData(f"at and minus_at pick the same grid z {zb:g} (the surface's z: "
                      f"{', '.join(f'{z:g}' for z in zs)})")
    (lo, hi), stat = p["range"], p.get("stat", "slope")
    d = {}
    for rep, g in (r if "rep" in r else r.assign(rep=0)).groupby("rep"):
        base = 0.0 if za is None else _slice_stat(g, za, lo, hi, stat)
        d[rep] = _slice_stat(g, zb, lo, hi, stat) - base
    what = f"{stat} over x in [{lo:g}, {hi:g}] at z = {zb:g}"
    return Sample(pd.Series(d, dtype=float),
                  what if za is None else f"{what} minus at z = {za:g}")


# --- curves (ch. 3, 4) -----------------------------------------------------------------------


@statistic("book_pdp.span", params={"feature": feature_name(), "range": SPAN})
def span(cell: Cell, t: Tables) -> Sample | NoData:
    """Largest minus smallest value of the curve (over ``range``), per repetition (see the
    module doc)."""
    curves = cell_curves(cell, t)
    if isinstance(curves, NoData):
        return curves
    p = cell.params
    what = f"span of {p['feature']}"
    if p.get("range") is not None:
        lo, hi = p["range"]
        x = curves.columns.to_numpy(float)
        curves = curves.loc[:, (x >= lo) & (x <= hi)]
        what += f" {_on(p)}"
    return Sample(curves.max(axis=1) - curves.min(axis=1), what)


@statistic("book_pdp.rms_spread", params={"feature": feature_name(), "range": RANGE})
def rms_spread(cell: Cell, t: Tables) -> Sample | NoData:
    """The RMS distance of each repetition's curve from the mean curve over ``range`` (see the
    module doc)."""
    curves = cell_curves(cell, t)
    if isinstance(curves, NoData):
        return curves
    lo, hi = cell.params["range"]
    wide = values_at(curves, np.linspace(lo, hi, SPREAD_POINTS)).dropna()
    if len(wide) < 2:
        return NoData(f"a spread needs 2 repetitions covering [{lo:g}, {hi:g}]; {cell.where} "
                      f"has {len(wide)}")
    return Sample(((wide - wide.mean(axis=0)) ** 2).mean(axis=1).pow(0.5),
                  f"spread of {cell.params['feature']} {_on(cell.params)}")


def _against_pd(cell: Cell, t: Tables, anchor: str) -> pd.DataFrame | NoData:
    """The cell's curve of its feature against the scenario's true ``pd`` per repetition and
    point (:func:`imlbench.metrics.truth_errors.against_truth`), anchored as ``anchor``."""
    r = against_truth({"where": {"scenario": cell.scenario}, "truth": "pd"}, t, cell.learner,
                      cell.method)
    if isinstance(r, NoData):
        return r
    return r[(r["anchor"] == anchor) & (r["feature"] == cell.params["feature"])]


@statistic("book_pdp.rms_error", params={"feature": feature_name(), "range": RANGE})
def rms_error(cell: Cell, t: Tables) -> Sample | NoData:
    """The RMS distance of the centred curve from the centred true PD over ``range``, per
    repetition (see the module doc)."""
    r = _against_pd(cell, t, "mean")
    if isinstance(r, NoData):
        return r
    r = r[r["x"].between(*cell.params["range"])]
    if r.empty:
        return NoData(f"no point of the curve of {cell.params['feature']} of {cell.where} "
                      f"{_on(cell.params)} lies within its pd truth")
    return Sample((r["error"] ** 2).groupby(r["rep"]).mean().pow(0.5),
                  f"error of {cell.params['feature']} {_on(cell.params)}",
                  truth=error_truth_part(r, "rmse", f"{cell.scenario} pd"))


def _centred(v: np.ndarray) -> np.ndarray:
    return v - v.mean()


def pull_fit(est: np.ndarray, own: np.ndarray, u: np.ndarray
             ) -> tuple[float, np.ndarray, np.ndarray]:
    """lambda of the fit est = alpha own + lambda u (all centred; u = target - own, u'u > 0;
    alpha fixed at 1 when own and u are collinear, see the module doc); its derivatives by
    the truth t at the points, first order (own = C t, u = C g - C t, C the centring); and
    its weights on ``est`` (lambda = w'est + const). Collinear: lambda = (est - own)'u / u'u,
    d lambda / dt = ((2 lambda - 1) u - (est - own)) / u'u. Otherwise, with X = [own, u],
    M = (X'X)^-1, beta = M X'est = (alpha, lambda) and the residual r: d lambda / dt =
    M_21 (r - (alpha - lambda) own) - M_22 (r + (alpha - lambda) u) (dbeta = M (dX'r -
    X'dX beta), dX = [C dt, -C dt]; r, own and u are centred, so C drops out)."""
    uu = u @ u
    if own @ own == 0 or abs(own @ u) >= COLLINEAR * np.sqrt((own @ own) * uu):
        lam = float((est - own) @ u / uu)
        return lam, ((2 * lam - 1) * u - (est - own)) / uu, u / uu
    x = np.column_stack([own, u])
    alpha, lam = np.linalg.lstsq(x, est, rcond=None)[0]
    m = np.linalg.inv(x.T @ x)
    r, shift = est - x @ np.array([alpha, lam]), alpha - lam
    return (float(lam), m[1, 0] * (r - shift * own) - m[1, 1] * (r + shift * u),
            m[1, 0] * own + m[1, 1] * u)


def pull_coefficients(r: pd.DataFrame, target: Callable, lo: float, hi: float, truth: str
                      ) -> tuple[pd.Series, TruthPart]:
    """Per repetition, lambda of the fit estimate = c + alpha truth + lambda (target - truth)
    over the points of ``r`` (rows of :func:`imlbench.metrics.truth_errors.against_truth`,
    one feature, unanchored) with x in [lo, hi] (:func:`pull_fit`); and how they read the
    truth (its values named ``truth``, then x), with the floor of the largest |estimate| or
    |truth| times the sum of lambda's |weights| on the estimate."""
    out, terms = {}, []
    for rep, g in r[r["x"].between(lo, hi)].groupby("rep"):
        x = g["x"].to_numpy(float)
        own = _centred(g["truth"].to_numpy(float))
        est = _centred(g["estimate"].to_numpy(float))
        u = _centred(target({"x": x}, len(x))) - own
        if len(x) < 3 or not u @ u > 0:
            continue
        out[rep], grad, w = pull_fit(est, own, u)
        size = float(np.maximum(g["estimate"].abs(), g["truth"].abs()).max())
        terms.append(pd.DataFrame({"rep": rep, "point": [f"{truth} x={v!r}" for v in x],
                                   "grad": grad, "truth_se": g["truth_se"].to_numpy(float),
                                   "scale": size * np.abs(w).sum()}))
    part = (TruthPart.of_terms(pd.concat(terms, ignore_index=True)) if terms else
            TruthPart.exact(pd.Series(dtype=float)))
    return pd.Series(out, dtype=float), part


@statistic("book_pdp.pull", params={"feature": feature_name(), "toward": text(),
                                    "range": RANGE})
def pull(cell: Cell, t: Tables) -> Sample | NoData:
    """lambda, how far the PDP moved from its true PD toward the curve ``toward`` (0: the PD,
    1: the target), per repetition (see the module doc)."""
    p = cell.params
    try:
        target = parse(p["toward"], ["x"], label="the feature's value")
    except ExpressionError as err:
        raise ValueError(f"statistic book_pdp.pull: toward: {err}") from None
    r = _against_pd(cell, t, "none")
    if isinstance(r, NoData):
        return r
    if r.empty:
        return NoData(f"no curve of {p['feature']} within its pd truth")
    lam, part = pull_coefficients(r, target, *p["range"], f"{cell.scenario} pd {p['feature']}")
    return Sample(lam, f"pull of {p['feature']} from its PD toward {p['toward']} {_on(p)}",
                  f", from {lam.min():.3g} to {lam.max():.3g}", truth=part)
