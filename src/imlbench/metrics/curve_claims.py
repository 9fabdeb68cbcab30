"""Generic claim kinds on the shape of estimated curves and on growth rates, for every study.

They read the estimates of the claim's methods from ``Tables.other`` (columns scenario,
learner, method, rep, feature, x, value; curves of rows, column ``row``, are averaged over the
rows per x first, giving their mean curve; missing values are left out). Each kind computes a
statistic per repetition and compares its mean over the repetitions R with the claim's value;
the tolerance is t' SE + atol with SE = sd over the repetitions / sqrt(R) and t' the Student-t
quantile with R - 1 degrees of freedom at the normal probability of ``k``
(:func:`imlbench.stats.t_multiplier`), as the SE is estimated from the repetitions. Both are
written into the scorecard row. ``curve_slope`` and ``curve_error`` compare with a truth or a
closed form: their half-width is t' sqrt(SE^2 + SE_truth^2) + floor, the truth's Monte Carlo
SE carried into the statistic and the floating-point floor of its values
(:mod:`imlbench.metrics.truth_tolerance`), and their rows say so.

``curve_slope``      the least-squares slope over the grid points with x in [lo, hi] equals
                     ``value``: |mean - value| <= t' SE + atol; with ``truth``, the slope of
                     the curve minus that of a truth estimand at the same points
``curve_kink``       the slope change at ``at`` (slope on [at, hi] minus slope on [lo, at])
                     equals ``value`` (as above) or exceeds ``min_change``: mean - t' SE >
                     min_change
``curve_levels``     every level's difference to the ``reference`` level (estimate at the level
                     minus at the reference, per repetition) equals its given value, as above
``missing_at_max``   no repetition's curve has a point at the largest value ``max`` of the
                     feature (StratPD drops it: no slope spans it); exact, no tolerance
``curve_gap``        the RMS or sup gap between the curve and that of another method ``than``
                     (same scenario, learner and repetition) equals, exceeds or stays below
                     ``value``, as ``compare`` says
``ice_share``        the share of a repetition's ICE curves (rows) that fall (or rise) over
                     ``range`` (default: each curve's whole grid), read by their change between
                     its ends (``measure: change``) or their least-squares slope there
                     (``slope``), compared with ``value`` as ``compare`` says
``growth_exponent``  the least-squares slope b of log(column) against log(n) over the rows
                     (e.g. run time against the sample size) lies in [lo, hi]:
                     lo - t' SE <= b <= hi + t' SE, SE the slope's standard error and t' with
                     rows - 2 degrees of freedom

Rows without data say why (a feature the estimates lack, a range without grid points, too few
repetitions); when the estimates hold no rows of the scenario, learner and method at all, the
caller of :func:`imlbench.metrics.claims.evaluate` tells.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.metrics.claims import (
    Check,
    NoData,
    Tables,
    claim_kind,
    claim_row,
    estimates,
    per_combo,
)
from imlbench.metrics.contrasts import compared, prediction_check
from imlbench.metrics.truth_errors import TRUTH, against_truth
from imlbench.metrics.truth_tolerance import fp_floor, truth_se_of
from imlbench.params import (
    choice,
    feature_name,
    flag,
    integer,
    items,
    number,
    study_name,
    table,
    text,
)
from imlbench.stats import t_multiplier

#: the tolerance of every kind but ``missing_at_max``: k (a normal quantile, turned into the t
#: quantile of the repetitions) and an absolute floor
TOLERANCE = {"k": number(3.0, minimum=0), "atol": number(0.0, minimum=0)}
RANGE = items(number(), length=2)


def ls_slope(x: np.ndarray, v: np.ndarray) -> float:
    """Least-squares slope of ``v`` over ``x`` (NaN with fewer than two distinct x)."""
    x, v = np.asarray(x, dtype=float), np.asarray(v, dtype=float)
    if len(np.unique(x)) < 2:
        return float("nan")
    xc = x - x.mean()
    return float(xc @ (v - v.mean()) / (xc @ xc))


def _where(claim: dict, learner: str, method: str) -> str:
    return f"{claim['where']['scenario']}/{learner}/{method}"


def feature_curves(claim: dict, t: Tables, learner: str, method: str) -> pd.DataFrame | NoData:
    """Selector (:func:`imlbench.metrics.claims.per_combo`): the curves of the claim's
    ``feature`` of its scenario, ``learner`` and ``method`` in ``Tables.other`` (columns rep, x,
    value; the mean over rows per x for curves of rows; missing values left out), or why there
    are none (empty: the method has no rows at all)."""
    r = estimates("other")(claim, t, learner, method)
    if isinstance(r, NoData) or not {"feature", "x", "value"} <= set(r):
        return NoData()
    c = r[r["feature"] == claim["feature"]].dropna(subset=["x", "value"])
    if c.empty:
        held = ", ".join(map(str, dict.fromkeys(r["feature"])))
        return NoData(f"the estimates of {_where(claim, learner, method)} hold no curve of "
                      f"feature {claim['feature']} (they have: {held})")
    return c.groupby(["rep", "x"], as_index=False)["value"].mean()


def slope_parts(curves: pd.DataFrame, lo: float, hi: float) -> pd.DataFrame:
    """Per repetition (the index), over the curve's points with x in [lo, hi] (repetitions
    with fewer than two distinct such x left out): its least-squares slope sum_i w_i v_i,
    w_i = (x_i - mean x) / sum (x - mean x)^2 (``slope``); the truth's Monte Carlo SE
    carried into it, sum_i |w_i| se_i (``truth_se``, :func:`imlbench.metrics.
    truth_tolerance.truth_se_of`; 0 without a column ``truth_se``); and its floating-point
    floor, :func:`imlbench.metrics.truth_tolerance.fp_floor` of the largest value compared
    (column ``size``, else ``value``) times sum_i |w_i| (``floor``)."""
    inside = curves[(curves["x"] >= lo) & (curves["x"] <= hi)]
    rows = {}
    for rep, g in inside.groupby("rep"):
        x = g["x"].to_numpy(float)
        if len(np.unique(x)) < 2:
            continue
        xc = x - x.mean()
        w = xc / (xc @ xc)
        size = np.abs(g["size" if "size" in g else "value"].to_numpy(float)).max()
        tse = g["truth_se"].to_numpy(float) if "truth_se" in g else np.zeros(len(g))
        rows[rep] = {"slope": float(w @ g["value"].to_numpy(float)),
                     "truth_se": truth_se_of(w, tse),
                     "floor": float(fp_floor(size * np.abs(w).sum()))}
    return pd.DataFrame.from_dict(rows, orient="index",
                                  columns=["slope", "truth_se", "floor"]).dropna()


def _slopes(curves: pd.DataFrame, lo: float, hi: float) -> pd.Series:
    """Per repetition, the least-squares slope of the curve over its points with x in
    [lo, hi] (:func:`slope_parts`)."""
    return slope_parts(curves, lo, hi)["slope"]


def _few_reps(stat: pd.Series, of: str, curves: pd.DataFrame, where: str) -> str:
    """Why ``stat`` (per repetition) gives no SE, or empty when it has 2 repetitions or more."""
    if len(stat) >= 2:
        return ""
    return (f"an SE over repetitions needs {of} in 2 repetitions or more; {where} has it in "
            f"{len(stat)} of {curves['rep'].nunique()}")


COMPARES = ("equal", "above", "below")
#: ``compare``: two-sided equality, or a one-sided test that the mean is above or below
COMPARE = {"compare": choice("equal", COMPARES)}


def compared_row(claim: dict, learner: str, method: str, d: pd.Series, what: str, *,
                 value: float, compare: str, atol: float = 0.0, more: str = "",
                 truth: tuple[float, float] | None = None) -> dict:
    """The row of ``d`` (per repetition) against ``value`` as ``compare`` says
    (:func:`compared`, with the claim's ``k``; ``truth``: the truth's SE and the
    floating-point floor of a comparison with a truth or closed form): "<what>: mean (SE,
    reps<more>)"."""
    check, se, tolerance = compared(d, value, claim["k"], atol, compare, truth)
    return claim_row(claim, learner, method,
                     f"{what}: {d.mean():.4g} (SE {se:.3g}, {len(d)} reps{more})", tolerance,
                     check)


def _claimed_row(claim: dict, curves: pd.DataFrame, learner: str, method: str, d: pd.Series,
                 bad: str, of: str, what: str, more: str = "",
                 truth: tuple[float, float] | None = None) -> dict | NoData:
    """The row of ``d`` (per repetition, from ``curves``) against the claim's ``value`` as its
    ``compare`` says, widened by its ``atol`` (and by ``truth``, :func:`compared_row`);
    without data when the claim is ``bad`` (why) or ``d`` has fewer than 2 repetitions
    (those with ``of``)."""
    why = bad or _few_reps(d, of, curves, _where(claim, learner, method))
    if why:
        return NoData(why)
    return compared_row(claim, learner, method, d, what, value=claim["value"],
                        compare=claim["compare"], atol=claim["atol"], more=more, truth=truth)


def _bad_range(claim: dict, lo: float, hi: float, inner: float | None = None) -> str:
    """Why the claim's range is unusable (empty: it is usable)."""
    if inner is None and lo < hi or inner is not None and lo < inner < hi:
        return ""
    need = "lo < hi" if inner is None else f"lo < at ({inner:g}) < hi"
    return f"claim {claim['id']}: range [{lo:g}, {hi:g}] must have {need}"


def truth_gaps(claim: dict, t: Tables, learner: str, method: str) -> pd.DataFrame | NoData:
    """Selector: per repetition, the curve of the claim's ``feature`` minus the truth estimand
    its ``truth`` names, at the curve's points within the truth's range (columns rep, x,
    value; :func:`imlbench.metrics.truth_errors.against_truth`, unanchored)."""
    r = against_truth(claim, t, learner, method)
    if isinstance(r, NoData):
        return r
    r = r[(r["anchor"] == "none") & (r["feature"] == claim["feature"])]
    if r.empty:
        return NoData(f"the estimates of {_where(claim, learner, method)} hold no curve of "
                      f"feature {claim['feature']} within its {claim['truth']} truth")
    return r.assign(value=r["error"], size=np.maximum(r["estimate"].abs(), r["truth"].abs()))[
        ["rep", "x", "value", "truth_se", "size"]]


@claim_kind("curve_slope", params={"feature": feature_name(), "range": RANGE, "value": number(),
                                   **COMPARE, **TOLERANCE, **TRUTH})
def curve_slope(claim: dict, t: Tables) -> list[dict]:
    """The least-squares slope of the curve over its grid points with x in [lo, hi], per
    repetition, equals ``value`` (``compare: equal``): |mean - value| <= t' SE + atol, or lies
    above (``above``: mean - t' SE > value) or below it (``below``: mean + t' SE < value);
    SE = sd of the slopes over the R repetitions / sqrt(R), t' the Student-t quantile with
    R - 1 df at Phi(k). With ``truth`` (an estimand of the scenario's truths, e.g.
    ``interventional``), the statistic is the slope of curve minus truth at the curve's points
    (:func:`truth_gaps`): the curve's slope less the truth's, 0 when they are parallel. The
    half-width t' SE becomes t' sqrt(SE^2 + SE_truth^2) + floor (:func:`slope_parts`: the
    truth's Monte Carlo SE in the slope, 0 without ``truth``, and the floating-point floor,
    so that an exact slope equal to ``value`` up to rounding reproduces)."""
    lo, hi = claim["range"]
    less = "" if claim["truth"] is None else f" minus its {claim['truth']} truth"

    def one(claim: dict, curves: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        parts = slope_parts(curves, lo, hi)
        s = parts["slope"]
        return _claimed_row(claim, curves, learner, method, s, _bad_range(claim, lo, hi),
                            f"2 grid points in [{lo:g}, {hi:g}]",
                            f"slope of {claim['feature']}{less} on [{lo:g}, {hi:g}]",
                            f", from {s.min():.4g} to {s.max():.4g}",
                            truth=(float(parts["truth_se"].mean()), float(parts["floor"].max())))

    return per_combo(claim, t, feature_curves if claim["truth"] is None else truth_gaps, one)


@claim_kind("curve_kink", params={"feature": feature_name(), "at": number(), "range": RANGE,
                                  "value": number(), **COMPARE, **TOLERANCE})
def curve_kink(claim: dict, t: Tables) -> list[dict]:
    """The slope changes at ``at``: per repetition d = slope on [at, hi] - slope on [lo, at]
    (least squares over the grid points in each); with ``compare: equal``, |mean(d) - value|
    <= t' SE + atol; with ``above`` (``below``), mean(d) - t' SE > value (mean(d) + t' SE <
    value), one-sided; SE = sd of d over the R repetitions / sqrt(R), t' the Student-t
    quantile with R - 1 df at Phi(k)."""
    lo, hi = claim["range"]
    at = claim["at"]

    def one(claim: dict, curves: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        d = (_slopes(curves, at, hi) - _slopes(curves, lo, at)).dropna()
        return _claimed_row(claim, curves, learner, method, d, _bad_range(claim, lo, hi, at),
                            f"2 grid points on each side of {at:g}",
                            f"slope change of {claim['feature']} at {at:g} ([{lo:g}, {at:g}] "
                            f"to [{at:g}, {hi:g}])")

    return per_combo(claim, t, feature_curves, one)


def _level(key: object) -> float | None:
    """A level of the claim's ``values`` as the x the estimates hold (None: not a number)."""
    try:
        return float(str(key))
    except ValueError:
        return None


@claim_kind("curve_levels", params={"feature": feature_name(), "reference": number(),
                                    "values": table(value=number()), **COMPARE,
                                    **TOLERANCE})
def curve_levels(claim: dict, t: Tables) -> list[dict]:
    """Level differences of a categorical curve (levels are the codes the estimates hold as
    x): per repetition d_l = estimate at level l - estimate at level ``reference``; for every
    level l of ``values``, |mean(d_l) - values[l]| <= t' SE_l + atol (``compare: equal``), or
    mean(d_l) - t' SE_l > values[l] (``above``), or mean(d_l) + t' SE_l < values[l]
    (``below``); SE_l = sd of d_l over its R_l repetitions / sqrt(R_l), t' the Student-t
    quantile with R_l - 1 df at Phi(k)."""
    k, atol, ref = claim["k"], claim["atol"], claim["reference"]
    wanted = {key: _level(key) for key in claim["values"]}

    def one(claim: dict, curves: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        held = np.unique(curves["x"].to_numpy(float))
        named = ", ".join(f"{x:g}" for x in held)
        where = _where(claim, learner, method)
        bad = [str(key) for key, x in (*wanted.items(), ("reference", ref))
               if x is None or not np.isclose(held, x).any()]
        if bad:
            return NoData(f"the curves of {claim['feature']} of "
                            f"{where} hold no level {', '.join(bad)} (they hold: {named})")
        wide = curves.assign(level=curves["x"]).pivot_table(index="rep", columns="level",
                                                            values="value")
        at = {x: wide.columns[np.isclose(wide.columns.to_numpy(float), x)][0]
              for x in [ref, *wanted.values()]}
        parts, checks, reps, tests = [], [], [], []
        for key, x in wanted.items():
            d = (wide[at[x]] - wide[at[ref]]).dropna()
            if len(d) < 2:
                return NoData(_few_reps(
                    d, f"levels {key} and {ref:g}", curves, where))
            check, se, tol = compared(d, float(claim["values"][key]), k, atol, claim["compare"])
            parts.append(f"{key}: {d.mean():.4g} (SE {se:.3g})")
            checks.append(check)
            reps.append(len(d))
            tests.append(f"level {key}: {tol.split(' (t(', 1)[0]}")
        return claim_row(
            claim, learner, method,
            f"differences to level {ref:g} of {claim['feature']}: " + "; ".join(parts)
            + f" ({min(reps)} reps or more)",
            f"per level, of its difference d: {'; '.join(tests)}; t({k:g}) the t quantile at "
            f"Phi({k:g}) with the level's reps - 1 df, SE = sd over reps / sqrt(reps)",
            Check.joint(checks))

    return per_combo(claim, t, feature_curves, one)


@claim_kind("missing_at_max", params={"feature": feature_name(), "max": number()})
def missing_at_max(claim: dict, t: Tables) -> list[dict]:
    """The curve has no point at the largest value ``max`` of the feature (in its data): in
    every repetition the largest x with an estimate is below ``max`` and not equal to it up to
    floating-point rounding (:func:`numpy.isclose`). Exact: no tolerance."""
    top = claim["max"]

    def one(claim: dict, curves: pd.DataFrame, learner: str, method: str) -> dict:
        largest = curves.groupby("rep")["x"].max()
        at_max = (largest >= top) | np.isclose(largest, top)
        return claim_row(
            claim, learner, method,
            f"largest x of {claim['feature']} per repetition: {largest.min():.4g} to "
            f"{largest.max():.4g}; {int(at_max.sum())} of {len(largest)} reps reach {top:g}",
            f"largest x < {top:g} in every repetition (exact)", not bool(at_max.any()))

    return per_combo(claim, t, feature_curves, one)


DIRECTIONS = ("falling", "rising")


def _ice_rows(claim: dict, t: Tables, learner: str, method: str) -> pd.DataFrame | NoData:
    """Selector: the ICE curves (rep, row, x, value) of the claim's ``feature``."""
    r = estimates("other")(claim, t, learner, method)
    if isinstance(r, NoData):
        return r
    where = _where(claim, learner, method)
    if "row" not in r:
        return NoData(f"the estimates of {where} are no ICE curves (no column row)")
    r = r[r["feature"] == claim["feature"]].dropna(subset=["x", "value"])
    if r.empty:
        return NoData(f"the estimates of {where} hold no ICE curve of {claim['feature']}")
    return r


def _ice_changes(g: pd.DataFrame, measure: str, span: list[float] | None) -> np.ndarray | None:
    """Per row of one repetition's ICE curves: the value at the range's upper end minus at its
    lower end (read linearly; ``change``) or the least-squares slope over the grid points in
    it (``slope``); None when the grid does not span the range."""
    wide = g.pivot_table(index="row", columns="x", values="value", aggfunc="mean")
    xs = wide.columns.to_numpy(float)
    lo, hi = (xs.min(), xs.max()) if span is None else span
    if lo < xs.min() or hi > xs.max():
        return None
    v = wide.to_numpy(float)
    if measure == "change":
        return np.array([np.interp(hi, xs, row) - np.interp(lo, xs, row) for row in v])
    inside = (xs >= lo) & (xs <= hi)
    return np.array([ls_slope(xs[inside], row[inside]) for row in v])


@claim_kind("ice_share", params={"feature": feature_name(), "direction": choice("falling",
                                                                             DIRECTIONS),
                                 "measure": choice("change", ("change", "slope")),
                                 "range": items(number(), None, length=2, nullable=True),
                                 "value": number(), **COMPARE, **TOLERANCE})
def ice_share(claim: dict, t: Tables) -> list[dict]:
    """The share of ICE curves that fall (``direction: falling``: change or slope below 0) or
    rise (above 0) over ``range``, per repetition (repetitions whose grid does not span the
    range left out), compared with ``value`` as ``compare`` says; for centred ICE (0 at the
    smallest x) over the whole grid, the curves that end below or above their start."""
    sign = 1.0 if claim["direction"] == "rising" else -1.0

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        share, counts = {}, []
        for rep, g in r.groupby("rep"):
            c = _ice_changes(g, claim["measure"], claim["range"])
            if c is not None:
                share[rep] = float(np.mean(sign * c > 0))
                counts.append(len(c))
        d = pd.Series(share, dtype=float)
        if len(d) < 2:
            span = "" if claim["range"] is None else " spanning [{:g}, {:g}]".format(
                *claim["range"])
            return NoData(f"an SE over repetitions needs ICE curves{span} in 2 repetitions or "
                          f"more; {_where(claim, learner, method)} has them in {len(d)}")
        return compared_row(claim, learner, method, d,
                            f"share of {claim['direction']} ICE curves of {claim['feature']} "
                            f"(by their {claim['measure']})", value=claim["value"],
                            compare=claim["compare"], atol=claim["atol"],
                            more=f", {min(counts)} to {max(counts)} curves each")

    return per_combo(claim, t, _ice_rows, one)


@claim_kind("growth_exponent", params={"column": text("seconds"), "range": RANGE,
                                       "feature": feature_name(None), **TOLERANCE})
def growth_exponent(claim: dict, t: Tables) -> list[dict]:
    """The growth of ``column`` (e.g. run time in seconds) with the sample size ``n``: the
    least-squares slope b of log(column) on log(n) over the method's rows (every repetition
    and size; those of ``feature`` when given) lies in [lo, hi] up to its error:
    lo - t' SE <= b <= hi + t' SE, SE = sqrt(residual variance / sum (log n - mean)^2), t' the
    Student-t quantile with rows - 2 df at Phi(k), widened by ``atol``."""
    lo, hi = claim["range"]
    k, atol, col, feature = claim["k"], claim["atol"], claim["column"], claim["feature"]

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        where = _where(claim, learner, method)
        if not {"n", col} <= set(r):
            return NoData(f"the estimates of {where} have no column "
                            f"{'n' if 'n' not in r else col} (columns: {', '.join(r.columns)})")
        if feature is not None:
            r = r[r["feature"] == feature] if "feature" in r else r.iloc[:0]
        r = r[(r["n"] > 0) & (r[col] > 0)].dropna(subset=["n", col])
        if len(r) < 3 or r["n"].nunique() < 2:
            return NoData(f"a log-log slope with an SE needs 3 rows "
                            f"with positive n and {col} at 2 sizes or more; {where}"
                            f"{f' feature {feature}' if feature else ''} has {len(r)} rows at "
                            f"{r['n'].nunique()} sizes")
        x, y = np.log(r["n"].to_numpy(float)), np.log(r[col].to_numpy(float))
        b = ls_slope(x, y)
        resid = y - y.mean() - b * (x - x.mean())
        se = float(np.sqrt(resid @ resid / (len(x) - 2) / ((x - x.mean()) ** 2).sum()))
        tk = float(t_multiplier(k, len(x) - 2))
        check = Check(b, tk * se, "equal", (lo + hi) / 2, (hi - lo) / 2 + atol)
        return claim_row(
            claim, learner, method,
            f"log-log slope of {col} on n: {b:.3g} (SE {se:.3g}; {len(x)} rows, n from "
            f"{r['n'].min():g} to {r['n'].max():g})",
            f"{lo:g} - t({k:g}) SE - {atol:g} <= slope <= {hi:g} + t({k:g}) SE + {atol:g} "
            f"(t({k:g}) = {tk:.3g}: the t quantile at Phi({k:g}), {len(x) - 2} df), SE of the "
            f"least-squares slope", check)

    return per_combo(claim, t, "other", one)


def anchored_errors(rep: pd.DataFrame, at: float | None) -> tuple[np.ndarray, float]:
    """One repetition's curve against its truth (rows of ``truth_error_reps``, anchor
    ``none``), both shifted to 0 at x = ``at`` (None: the curve's smallest x; values there
    interpolated linearly): the errors at the curve's points and the truth's range there."""
    rep = rep.sort_values("x")
    x = rep["x"].to_numpy(float)
    est, truth = rep["estimate"].to_numpy(float), rep["truth"].to_numpy(float)
    x0 = x[0] if at is None else at
    est = est - np.interp(x0, x, est)
    truth = truth - np.interp(x0, x, truth)
    return est - truth, float(truth.max() - truth.min())


def measure_truth_se(rep: pd.DataFrame, at: float | None, e: np.ndarray, measure: str
                     ) -> float:
    """The truth's Monte Carlo SE carried into one repetition's error measure M (the RMS or
    the largest |e| of :func:`anchored_errors`' errors ``e``, before any division by the
    truth's range), first order: sum_j |dM/dt_j| se_j (:func:`imlbench.metrics.
    truth_tolerance.truth_se_of`), dM/dt_j = -(g_j - a_j sum_i g_i) with g = dM/de
    (e_i / (n RMS) for ``rms``; the sign of e at the largest |e| for ``sup``) and a_j the
    weight of point j in the truth read at the anchor (linear between the points)."""
    rep = rep.sort_values("x")
    x, n = rep["x"].to_numpy(float), len(e)
    x0 = x[0] if at is None else at
    a = np.array([np.interp(x0, x, unit) for unit in np.eye(n)])
    if measure == "rms":
        rms = float(np.sqrt(np.mean(e**2)))
        g = e / (n * rms) if rms > 0 else np.zeros(n)
    else:
        g = np.zeros(n)
        g[np.argmax(np.abs(e))] = np.sign(e[np.argmax(np.abs(e))])
    return truth_se_of(g - a * g.sum(), rep["truth_se"].to_numpy(float))


@claim_kind("curve_error", params={
    "feature": feature_name(), "measure": choice("rms", ("rms", "sup")), "max": number(minimum=0),
    "relative": flag(True), "at": number(None, nullable=True), "k": TOLERANCE["k"], **TRUTH})
def curve_error(claim: dict, t: Tables) -> list[dict]:
    """The curve is close to its closed-form truth (its own estimand, or the one ``truth``
    names): per repetition, both are shifted to 0 at
    x = ``at`` (default: the curve's smallest x, where StratPD is 0 by construction) and
    e(x) = curve(x) - truth(x) over the curve's points within the truth's range
    (``metrics/truth_error_reps.parquet``, or :func:`imlbench.metrics.truth_errors.
    against_truth`); the error is the RMS (``measure: rms``) or the
    largest |e| (``sup``), divided by the truth's range over those points when ``relative``.
    Holds when mean + t' sqrt(SE^2 + SE_truth^2) + floor < ``max`` (one-sided), SE = sd over
    the R repetitions / sqrt(R), t' the Student-t quantile with R - 1 df at Phi(k), SE_truth
    the truth's Monte Carlo SE carried into the measure (:func:`measure_truth_se`, averaged
    over the repetitions) and floor the floating-point floor of the values (largest over the
    repetitions). Both measures are reported."""
    k, bound, at = claim["k"], claim["max"], claim["at"]

    def compared_curve(claim: dict, t: Tables, learner: str, method: str
                       ) -> pd.DataFrame | NoData:
        r = (estimates("truth_error_reps") if claim["truth"] is None else against_truth)(
            claim, t, learner, method)
        if not isinstance(r, NoData):
            r = r[(r["anchor"] == "none") & (r["feature"] == claim["feature"])]
        if isinstance(r, NoData) or r.empty:
            return NoData("" if t.truth_error_reps.empty else (
                f"metrics/truth_error_reps.parquet holds no curve of {claim['feature']} of "
                f"{_where(claim, learner, method)} compared with a truth"))
        return r

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        stats = {"rms": [], "sup": [], "truth_se": [], "floor": []}
        for _, rep in r.groupby("rep"):
            e, span = anchored_errors(rep, at)
            scale = span if claim["relative"] and span > 0 else 1.0
            stats["rms"].append(float(np.sqrt(np.mean(e**2))) / scale)
            stats["sup"].append(float(np.abs(e).max()) / scale)
            stats["truth_se"].append(measure_truth_se(rep, at, e, claim["measure"]) / scale)
            size = np.maximum(rep["estimate"].abs(), rep["truth"].abs()).max()
            stats["floor"].append(float(fp_floor(size / scale)))
        d = pd.Series(stats[claim["measure"]])
        if len(d) < 2:
            return NoData(_few_reps(
                d, "a curve", r, _where(claim, learner, method)))
        ok, se, tol = compared(d, bound, k, 0.0, "below",
                               (float(np.mean(stats["truth_se"])), max(stats["floor"])))
        unit = " of the truth's range" if claim["relative"] else ""
        rms, sup = np.mean(stats["rms"]), np.mean(stats["sup"])
        return claim_row(
            claim, learner, method,
            f"{claim['measure']} error of {claim['feature']}{unit}: {d.mean():.3g} (SE "
            f"{se:.3g}, {len(d)} reps; RMS {rms:.3g}, sup {sup:.3g}), anchored at "
            f"{'the smallest x' if at is None else f'x = {at:g}'}",
            f"{claim['measure']} error: {tol}", ok)

    return per_combo(claim, t, compared_curve, one)


@claim_kind("published_value", params={"metric": text(None), "feature": feature_name(None),
                                       "value": number(), "runs": integer(1, minimum=1),
                                       **TOLERANCE})
def published_value(claim: dict, t: Tables) -> list[dict]:
    """A number the paper reports from one run (e.g. a model's R^2, or a feature's importance),
    or the mean of ``runs`` runs, is what as many runs of ours give: the method's rows with
    ``metric`` equal to the claim's, or with ``feature`` its importance estimates
    (``Tables.ranked``), hold one value per repetition; holds when |mean - value| <= t' sd
    sqrt(1/runs + 1/R) + atol, the prediction interval of the mean of ``runs`` further runs (sd
    over the R repetitions, t' the Student-t quantile with R - 1 df at Phi(k)). Exactly one of
    ``metric`` and ``feature`` is given."""
    k, atol, value, runs = claim["k"], claim["atol"], claim["value"], claim["runs"]
    if (claim["metric"] is None) == (claim["feature"] is None):
        raise ValueError(f"claim {claim['id']} (published_value): give exactly one of metric "
                         f"(a metric row) and feature (a feature's importance); got metric "
                         f"{claim['metric']!r}, feature {claim['feature']!r}")
    column, wanted = ("metric", claim["metric"]) if claim["feature"] is None else (
        "feature", claim["feature"])

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        held = r[column] if column in r else pd.Series(dtype=str)
        v = r.loc[held == wanted, "value"].dropna()
        if len(v) < 2:
            return NoData(
                f"a prediction interval needs {column} {wanted} in 2 repetitions or more; "
                f"{_where(claim, learner, method)} has it in {len(v)} ({column}s: "
                f"{', '.join(map(str, held.unique()))})")
        label = wanted if column == "metric" else f"importance of {wanted}"
        check, test = prediction_check(v, value, k, atol, runs)
        return claim_row(
            claim, learner, method,
            f"{label}: {v.mean():.4g} (sd {v.std():.3g} over {len(v)} reps, from {v.min():.4g} "
            f"to {v.max():.4g})", test, check)

    return per_combo(claim, t, "other" if column == "metric" else "ranked", one)


@claim_kind("curve_gap", params={
    "feature": feature_name(), "than": study_name("methods"),
    "measure": choice("rms", ("rms", "sup")),
    "relative": flag(False), "value": number(), **COMPARE, **TOLERANCE})
def curve_gap(claim: dict, t: Tables) -> list[dict]:
    """Two estimators of the same curve differ by a given amount: per repetition, the gap
    g(x) = curve(x) - curve of method ``than`` (same scenario and learner) at the x both
    hold; its RMS (``measure: rms``) or largest |g| (``sup``), divided by the range of
    ``than``'s curve when ``relative``, is compared with ``value`` as ``compare`` says
    (equal: |mean - value| <= t' SE + atol; above: mean - t' SE > value; below: mean + t' SE <
    value), SE = sd over the R repetitions / sqrt(R), t' the Student-t quantile with R - 1 df
    at Phi(k)."""
    k, atol, value, than = claim["k"], claim["atol"], claim["value"], claim["than"]

    def one(claim: dict, curves: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        other = feature_curves(claim, t, learner, than)
        where = _where(claim, learner, method)
        if isinstance(other, NoData):
            return NoData(other.reason or (
                f"no estimates of {_where(claim, learner, than)} to compare {where} with"))
        both = curves.merge(other, on=["rep", "x"], suffixes=("", "_than"))
        stat = {}
        for rep, g in both.groupby("rep"):
            gap = (g["value"] - g["value_than"]).to_numpy(float)
            size = float(np.sqrt(np.mean(gap**2))) if claim["measure"] == "rms" \
                else float(np.abs(gap).max())
            span = float(g["value_than"].max() - g["value_than"].min())
            stat[rep] = size / span if claim["relative"] and span > 0 else size
        d = pd.Series(stat, dtype=float)
        why = _few_reps(d, f"points shared with {than}", curves, where)
        if why:
            return NoData(why)
        ok, se, tol = compared(d, value, k, atol, claim["compare"])
        unit = f" of the range of {than}" if claim["relative"] else ""
        return claim_row(
            claim, learner, method,
            f"{claim['measure']} gap of {claim['feature']} to {than}{unit}: {d.mean():.3g} "
            f"(SE {se:.3g}, {len(d)} reps, largest {d.max():.3g})", tol, ok)

    return per_combo(claim, t, feature_curves, one)
