"""Claim kinds of the book's chapters 5-7 (ALE): values and steps of curves, the error of the
ALE against its closed form as K changes, the spread of curves over data sets, how often a
spike is seen, 2-D surfaces, run-time ratios, the order of categorical levels and ICE curves.

Every kind reads the estimates of its claim's scenario, learner and method (``Tables.other``;
curves as columns rep, feature, x, value) and tests a statistic per repetition (data set)
with the layer's check (:func:`imlbench.metrics.curve_claims.compared`: the mean over the R
repetitions against the claim's value, t' SE with SE = sd / sqrt(R)), unless its doc says
otherwise. Curves are read between their points by linear interpolation, which is the ALE
estimator's own definition between interval edges (book ch. 5).
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
    select_rows,
)
from imlbench.metrics.curve_claims import (
    COMPARE,
    RANGE,
    TOLERANCE,
    compared,
    compared_row,
    feature_curves,
)
from imlbench.params import choice, feature_name, flag, integer, number, study_name
from imlbench.stats import t_multiplier

#: the seed of the bootstrap over repetitions (:func:`_bootstrap_se`): fixed, so that reruns
#: give the same scorecard
BOOTSTRAP_SEED = 20190701
BOOTSTRAP_DRAWS = 400


def _where(claim: dict, learner: str, method: str, scenario: str | None = None) -> str:
    return f"{scenario or claim['where']['scenario']}/{learner}/{method}"


def _interp(rep: pd.DataFrame, x: np.ndarray | float) -> np.ndarray:
    """One repetition's curve at ``x`` (linear between its points; NaN outside them)."""
    rep = rep.sort_values("x")
    xs, vs = rep["x"].to_numpy(float), rep["value"].to_numpy(float)
    x = np.atleast_1d(np.asarray(x, dtype=float))
    out = np.interp(x, xs, vs)
    out[(x < xs[0]) | (x > xs[-1])] = np.nan
    return out


def _few(d: pd.Series, where: str, what: str) -> NoData | None:
    if len(d) >= 2:
        return None
    return NoData(f"an SE over repetitions needs {what} in 2 repetitions or more; {where} has "
                  f"it in {len(d)}")


def _bootstrap_se(stat, samples: list[np.ndarray]) -> float:
    """The bootstrap SE of ``stat(*samples)`` over the repetitions: the rows (repetitions) of
    every sample are resampled together (the samples share their repetitions), with a fixed
    seed."""
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    n = len(samples[0])
    draws = [stat(*(s[idx] for s in samples))
             for idx in (rng.integers(0, n, n) for _ in range(BOOTSTRAP_DRAWS))]
    return float(np.std(draws, ddof=1))


# ---------------------------------------------------------------------------------------
# values and steps of one curve


@claim_kind("curve_value", params={
    "feature": feature_name(), "at": number(), "minus_at": number(None, nullable=True),
    "value": number(), **COMPARE, **TOLERANCE})
def curve_value(claim: dict, t: Tables) -> list[dict]:
    """The curve's value at x = ``at`` (interpolated linearly between its points), minus its
    value at ``minus_at`` when given (a step across [minus_at, at]), per repetition, against
    ``value`` as ``compare`` says; repetitions whose curve does not span the points are left
    out."""
    at, minus = claim["at"], claim["minus_at"]

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        d = {}
        for rep, g in r.groupby("rep"):
            v = _interp(g, at)[0] - (_interp(g, minus)[0] if minus is not None else 0.0)
            if np.isfinite(v):
                d[rep] = v
        d = pd.Series(d, dtype=float)
        what = (f"value at {at:g}" if minus is None else
                f"change from {minus:g} to {at:g}")
        few = _few(d, _where(claim, learner, method), f"a curve spanning x = {at:g}")
        return few or compared_row(claim, learner, method, d, f"{claim['feature']}: {what}",
                                   value=claim["value"], compare=claim["compare"],
                                   atol=claim["atol"])

    return per_combo(claim, t, feature_curves, one)


# ---------------------------------------------------------------------------------------
# the ALE against its closed form between the interval edges


def _truth_curve(claim: dict, t: Tables) -> pd.DataFrame | NoData:
    table = t.truths.get((claim["where"]["scenario"], "effects"))
    if table is None:
        return NoData(f"no effects truth of scenario {claim['where']['scenario']}")
    tr = table[(table["estimand"] == claim["estimand"]) & (table["feature"] == claim["feature"])]
    if tr.empty:
        return NoData(f"the effects truth of {claim['where']['scenario']} has no "
                      f"{claim['estimand']} of {claim['feature']}")
    return tr.sort_values("x")


def interpolated_errors(claim: dict, curves: pd.DataFrame, truth: pd.DataFrame) -> pd.Series:
    """Per repetition, the RMS error of the curve (linear between its edges) against the true
    curve at the truth's points within ``range`` and within the curve's span, both centred
    by their mean over those points (the ALE is defined up to a constant), divided by the
    truth's range there (``relative``)."""
    lo, hi = claim["range"]
    out = {}
    for rep, g in curves.groupby("rep"):
        tr = truth[(truth["x"] >= max(lo, g["x"].min())) & (truth["x"] <= min(hi, g["x"].max()))]
        if len(tr) < 3:
            continue
        est = _interp(g, tr["x"].to_numpy())
        true = tr["value"].to_numpy(float)
        e = (est - est.mean()) - (true - true.mean())
        span = true.max() - true.min() if claim["relative"] else 1.0
        out[rep] = float(np.sqrt(np.mean(e**2)) / (span if span > 0 else 1.0))
    return pd.Series(out, dtype=float)


ERROR_PARAMS = {"feature": feature_name(), "range": RANGE,
                "estimand": choice("ale", ("ale", "pd", "conditional")),
                "relative": flag(True)}


@claim_kind("error_below", params={**ERROR_PARAMS, "than": study_name("methods"),
                                   "k": TOLERANCE["k"]})
def error_below(claim: dict, t: Tables) -> list[dict]:
    """The claim's method errs less against the closed form than method ``than`` (same
    scenario and learner) over ``range``: per repetition d = error - error of ``than``
    (:func:`interpolated_errors`, the same data set), mean(d) + t' SE < 0."""

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        truth = _truth_curve(claim, t)
        if isinstance(truth, NoData):
            return truth
        other = feature_curves(claim, t, learner, claim["than"])
        if isinstance(other, NoData):
            return NoData(other.reason or f"no estimates of {claim['than']}")
        mine, theirs = interpolated_errors(claim, r, truth), interpolated_errors(claim, other,
                                                                               truth)
        d = (mine - theirs).dropna()
        few = _few(d, _where(claim, learner, method), "errors of both methods")
        if few:
            return few
        check, se, tolerance = compared(d, 0.0, claim["k"], 0.0, "below")
        lo, hi = claim["range"]
        unit = " of the truth's range" if claim["relative"] else ""
        return claim_row(
            claim, learner, method,
            f"RMS error on [{lo:g}, {hi:g}]{unit}: {mine.mean():.3g} against {theirs.mean():.3g} "
            f"for {claim['than']} (difference {d.mean():.3g}, SE {se:.3g}, {len(d)} reps)",
            tolerance.replace("mean", "mean difference", 1), check)

    return per_combo(claim, t, feature_curves, one)


# ---------------------------------------------------------------------------------------
# the spread of curves over data sets


def _values_at(curves: pd.DataFrame, x: float, minus_at: float | None = None) -> pd.Series:
    """Per repetition, the curve at ``x``, minus its value at ``minus_at`` when given."""
    return pd.Series({rep: _interp(g, x)[0] - (0.0 if minus_at is None else
                                               _interp(g, minus_at)[0])
                      for rep, g in curves.groupby("rep")}, dtype=float)


@claim_kind("spread_at_above", params={
    "feature": feature_name(), "at": number(), "minus_at": number(None, nullable=True),
    "than": study_name("methods", None), "than_at": number(None, nullable=True),
    "k": TOLERANCE["k"]})
def spread_at_above(claim: dict, t: Tables) -> list[dict]:
    """Curves vary more over data sets at x = ``at`` (their step from ``minus_at`` to ``at``,
    when given) than those of method ``than`` (default: the same method) at ``than_at``
    (default: ``at``; the same step): the difference of the two standard
    deviations over the repetitions that span both points, above 0 by t' bootstrap SEs (the
    repetitions resampled together, :data:`BOOTSTRAP_DRAWS` draws with a fixed seed; the sd of
    a few heavy-tailed values has no simple SE)."""
    at = claim["at"]
    than_at = at if claim["than_at"] is None else claim["than_at"]

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        other_m = claim["than"] or method
        other = r if other_m == method else feature_curves(claim, t, learner, other_m)
        if isinstance(other, NoData):
            return NoData(other.reason or f"no estimates of {other_m}")
        minus = claim["minus_at"]
        both = pd.concat([_values_at(r, at, minus), _values_at(other, than_at, minus)],
                         axis=1).dropna()
        if len(both) < 3:
            return NoData(f"a spread needs curves spanning both points in 3 repetitions or more; "
                          f"{_where(claim, learner, method)} has {len(both)}")
        a, b = both[0].to_numpy(), both[1].to_numpy()

        def diff(u: np.ndarray, v: np.ndarray) -> float:
            return float(np.std(u, ddof=1) - np.std(v, ddof=1))

        d, se = diff(a, b), _bootstrap_se(diff, [a, b])
        tk = float(t_multiplier(claim["k"], len(a) - 1))
        return claim_row(
            claim, learner, method,
            f"sd over {len(a)} data sets: {np.std(a, ddof=1):.4g} at x = {at:g} against "
            f"{np.std(b, ddof=1):.4g} ({other_m} at x = {than_at:g}); max - min {np.ptp(a):.4g} "
            f"against {np.ptp(b):.4g}",
            f"sd difference - t({claim['k']:g}) SE > 0 (t = {tk:.3g}, bootstrap SE {se:.3g} "
            f"over repetitions)", Check(d, tk * se, "above", 0.0, scale=float(np.std(b))))

    return per_combo(claim, t, feature_curves, one)


# ---------------------------------------------------------------------------------------
# how often a narrow spike is seen


def _seen(curves: pd.DataFrame, threshold: float) -> pd.Series:
    """Per repetition, 1 when the curve's range (max - min) exceeds ``threshold``, else 0."""
    return curves.groupby("rep")["value"].agg(lambda v: float(np.ptp(v) > threshold))


@claim_kind("seen_rate", params={
    "feature": feature_name(), "threshold": number(minimum=0),
    "value": number(None, nullable=True), "than": study_name("methods", None),
    **COMPARE, "k": TOLERANCE["k"]})
def seen_rate(claim: dict, t: Tables) -> list[dict]:
    """The share of data sets whose curve shows a bump (its range exceeds ``threshold``; the
    ALE of a function that is flat but for a spike is 0 unless an interval edge falls inside
    the spike) against ``value`` as ``compare`` says, or, with ``than``, the paired difference
    of the shares against 0 (the same data sets); SE = sd over the repetitions / sqrt(R), the
    binomial SE of a share."""

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        mine = _seen(r, claim["threshold"])
        if claim["than"] is None:
            if claim["value"] is None:
                return NoData(f"claim {claim['id']}: give value or than")
            few = _few(mine, _where(claim, learner, method), "a curve")
            return few or compared_row(claim, learner, method, mine,
                                       f"share of data sets with a bump > {claim['threshold']:g}",
                                       value=claim["value"], compare=claim["compare"])
        other = feature_curves(claim, t, learner, claim["than"])
        if isinstance(other, NoData):
            return NoData(other.reason or f"no estimates of {claim['than']}")
        theirs = _seen(other, claim["threshold"])
        d = (mine - theirs).dropna()
        few = _few(d, _where(claim, learner, method), "curves of both methods")
        return few or compared_row(
            claim, learner, method, d,
            f"share with a bump {mine.mean():.3g} against {theirs.mean():.3g} for "
            f"{claim['than']}; difference", value=0.0, compare=claim["compare"])

    return per_combo(claim, t, feature_curves, one)


# ---------------------------------------------------------------------------------------
# 2-D surfaces (columns rep, x, z, value)


def _surfaces(claim: dict, t: Tables, learner: str, method: str) -> pd.DataFrame | NoData:
    r = estimates("other")(claim, t, learner, method)
    if isinstance(r, NoData) or not {"x", "z", "value"} <= set(r):
        return NoData() if isinstance(r, NoData) else NoData(
            f"the estimates of {_where(claim, learner, method)} are no surface (columns x, z)")
    return r


@claim_kind("surface_theory", params={"a": number(), "b": number(), "mu": number(),
                                      "sd": number(minimum=0), **TOLERANCE})
def surface_theory(claim: dict, t: Tables) -> list[dict]:
    """The estimated 2-D ALE of (x1, x2) is the closed form of the book's eq. 6.13,
    (1/2)(x1 - (a + b)/2)(x2^2 - mu^2 - sd^2) for f = x1 x2 x3 with x1 ~ U(a, b) and x2 ~
    N(mu, sd^2): per repetition, the least-squares slope (through the origin, both centred) of
    the estimate on the closed form over the estimate's grid is 1; a different shape or
    amplitude moves it."""

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        slopes = {}
        for rep, g in r.groupby("rep"):
            theory = 0.5 * (g["x"] - (claim["a"] + claim["b"]) / 2) * (
                g["z"] ** 2 - claim["mu"] ** 2 - claim["sd"] ** 2)
            u, v = theory - theory.mean(), g["value"] - g["value"].mean()
            slopes[rep] = float(u @ v / (u @ u))
        d = pd.Series(slopes, dtype=float)
        few = _few(d, _where(claim, learner, method), "a surface")
        return few or compared_row(claim, learner, method, d,
                                   "slope of the 2-D ALE on eq. 6.13", value=1.0,
                                   compare="equal", atol=claim["atol"])

    return per_combo(claim, t, _surfaces, one)


@claim_kind("surface_flat", params={"max": number(minimum=0)})
def surface_flat(claim: dict, t: Tables) -> list[dict]:
    """The surface is 0 everywhere in every repetition: its largest |value| is at most ``max``
    (floating-point rounding; a function without a second-order effect gives second
    differences of exactly 0). Exact: no tolerance."""

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict:
        top = float(r["value"].abs().max())
        return claim_row(claim, learner, method,
                         f"largest |value| over {r['rep'].nunique()} reps: {top:.3g}",
                         f"<= {claim['max']:g} (rounding; exact)", top <= claim["max"])

    return per_combo(claim, t, _surfaces, one)


@claim_kind("surface_excess", params={"below": number(), "mu": number(), "value": number(),
                                      **COMPARE, **TOLERANCE})
def surface_excess(claim: dict, t: Tables) -> list[dict]:
    """Extrapolation of a 2-D PD of (x1, x2): per repetition, the mean of the surface over its
    grid points with x2 < ``below`` divided by the mean there of x1 x2 mu, the PD of
    f = x1 x2 x3 when E[x3] = mu (what the surface would be if f were not modified where no
    data lie), against ``value`` as ``compare`` says."""

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        ratio = {}
        for rep, g in r.groupby("rep"):
            low = g[g["z"] < claim["below"]]
            base = (low["x"] * low["z"] * claim["mu"]).mean()
            if len(low) and base > 0:
                ratio[rep] = float(low["value"].mean() / base)
        d = pd.Series(ratio, dtype=float)
        few = _few(d, _where(claim, learner, method), f"grid points with x2 < {claim['below']:g}")
        return few or compared_row(claim, learner, method, d,
                                   f"mean PD over x2 < {claim['below']:g} / mean of x1 x2 mu",
                                   value=claim["value"], compare=claim["compare"],
                                   atol=claim["atol"])

    return per_combo(claim, t, _surfaces, one)


# ---------------------------------------------------------------------------------------
# run times (the timing method's rows: n, repeat, seconds)


def _log_mean_time(r: pd.DataFrame, n: int) -> tuple[float, float, int] | None:
    """log of the mean seconds at size n, its delta-method SE (sd / (mean sqrt(m))), and m."""
    s = r.loc[r["n"] == n, "seconds"].to_numpy(float)
    if len(s) == 0:
        return None
    se = float(np.std(s, ddof=1) / (s.mean() * np.sqrt(len(s)))) if len(s) > 1 else np.inf
    return float(np.log(s.mean())), se, len(s)


@claim_kind("time_ratio", params={
    "n": integer(minimum=1), "than": study_name("methods", None),
    "than_n": integer(None, minimum=1, nullable=True),
    "than_scenario": study_name("scenarios", None), "value": number(minimum=0),
    "margin": number(0.0, minimum=0), **COMPARE, "k": TOLERANCE["k"]})
def time_ratio(claim: dict, t: Tables) -> list[dict]:
    """A ratio of run times measured in one run: the mean seconds per call of the claim's
    method at size ``n`` over those of method ``than`` (default: the same) at ``than_n``
    (default: ``n``) in scenario ``than_scenario`` (default: the claim's), against ``value``
    on the log scale: |log ratio - log value| <= t' SE + log(1 + margin) (``equal``) or one-sided
    (``above``, ``below``). SE: the delta-method SE of each log mean from the spread of its
    repeated calls, combined as independent. ``margin`` is the spread of the published ratio
    itself (its ratio of medians against its ratio of means), written next to the claim."""

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        other_m = claim["than"] or method
        scen = claim["than_scenario"] or claim["where"]["scenario"]
        other = select_rows(t.other, scen, learner, other_m) if len(t.other) else t.other
        n_b = claim["than_n"] or claim["n"]
        a, b = _log_mean_time(r, claim["n"]), _log_mean_time(other, n_b)
        if a is None or b is None:
            missing = (f"{_where(claim, learner, method)} at n = {claim['n']}" if a is None
                       else f"{scen}/{learner}/{other_m} at n = {n_b}")
            return NoData(f"no timings of {missing} (sizes run in this profile: "
                          f"{sorted(set(r['n']))})")
        ratio, se = a[0] - b[0], float(np.hypot(a[1], b[1]))
        tk = float(t_multiplier(claim["k"], max(min(a[2], b[2]) - 1, 1)))
        target, margin = float(np.log(claim["value"])), float(np.log1p(claim["margin"]))
        check = Check(ratio, tk * se, claim["compare"], target,
                      margin if claim["compare"] == "equal" else 0.0, scale=1.0)
        return claim_row(
            claim, learner, method,
            f"time ratio {np.exp(ratio):.3g} ({np.exp(a[0]) * 1e3:.3g} ms over "
            f"{np.exp(b[0]) * 1e3:.3g} ms; log SE {se:.3g}, {a[2]} and {b[2]} calls)",
            f"log ratio against log {claim['value']:g}: {claim['compare']} within t({claim['k']:g})"
            f" SE = {tk * se:.3g}" + (f" + log(1 + {claim['margin']:g}), the published ratio's "
                                       "own spread" if claim["compare"] == "equal" else ""),
            check)

    return per_combo(claim, t, "other", one)


# ---------------------------------------------------------------------------------------
# categorical ALE: the order of the levels (rows of a repetition in the order used)


def _orders(r: pd.DataFrame, feature: str) -> dict:
    r = r[r["feature"] == feature]
    return {rep: tuple(g["x"].to_numpy(float)) for rep, g in r.groupby("rep", sort=True)}


@claim_kind("order_differs", params={"feature": feature_name(),
                                     "than": study_name("methods", None),
                                     "than_scenario": study_name("scenarios", None)})
def order_differs(claim: dict, t: Tables) -> list[dict]:
    """The levels of a categorical ALE come in a different order than in method ``than``
    (default: the same) of scenario ``than_scenario`` (default: the claim's), in every
    repetition both have; the order is a function of the data alone, so the test is exact.
    Reports Kendall's tau between the two orders of the first repetition."""
    from scipy.stats import kendalltau

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        scen = claim["than_scenario"] or claim["where"]["scenario"]
        other_m = claim["than"] or method
        other = select_rows(t.other, scen, learner, other_m)
        mine, theirs = _orders(r, claim["feature"]), _orders(other, claim["feature"])
        reps = sorted(set(mine) & set(theirs))
        if not reps:
            return NoData(f"no repetition of {scen}/{learner}/{other_m} to compare with")
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


@claim_kind("levels_differ", params={"feature": feature_name(), "than": study_name("methods"),
                                     "k": TOLERANCE["k"]})
def levels_differ(claim: dict, t: Tables) -> list[dict]:
    """The same model's categorical ALE changes with the order of the levels: per repetition,
    the RMS over levels of the difference between the level values of the claim's method and
    of ``than`` (both centred by the level frequencies), divided by the range of the claim's
    values, above 0 by t' SE (0 for a model additive in the feature, whose ALE does not
    depend on the order)."""

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        other = feature_curves(claim, t, learner, claim["than"])
        if isinstance(other, NoData):
            return NoData(other.reason or f"no estimates of {claim['than']}")
        d = {}
        for rep, g in r.groupby("rep"):
            h = other[other["rep"] == rep].set_index("x")["value"]
            gv = g.set_index("x")["value"]
            both = pd.concat([gv, h], axis=1).dropna()
            if len(both) and np.ptp(gv) > 0:
                d[rep] = float(np.sqrt(np.mean((both.iloc[:, 0] - both.iloc[:, 1]) ** 2))
                               / np.ptp(gv))
        d = pd.Series(d, dtype=float)
        few = _few(d, _where(claim, learner, method), "both orders")
        if few:
            return few
        return compared_row(claim, learner, method, d,
                            "RMS difference of the level values / their range", value=0.0,
                            compare="above")

    return per_combo(claim, t, feature_curves, one)


# ---------------------------------------------------------------------------------------
# ICE curves (columns rep, row, x, value)


def _ice(claim: dict, t: Tables, learner: str, method: str) -> pd.DataFrame | NoData:
    r = estimates("other")(claim, t, learner, method)
    if isinstance(r, NoData) or "row" not in r:
        return NoData() if isinstance(r, NoData) else NoData(
            f"the estimates of {_where(claim, learner, method)} are no ICE curves (column row)")
    return r[r["feature"] == claim["feature"]]


@claim_kind("distinct_curves", params={"feature": feature_name(), "value": integer(minimum=1),
                                       "compare": choice("equal", ("equal", "at_most")),
                                       "decimals": integer(6, minimum=0)})
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
