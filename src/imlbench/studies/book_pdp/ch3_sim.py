"""The book's chapter 3.3 (Kronseder): PDPs of the numeric simulation settings 1-3 (eqs.
3.10-3.12) under independent, correlated (rho12 = 0.9) and duplicated (x2 := x1) features.

The data are formula DGPs and the PDPs the layer's; the claims are the layer's curve kinds
and two of this part's own, on a statistic per repetition (simulated data set):

``ch3sim_ratio``  a ratio of two means over repetitions of one statistic of the PDP of a
                  feature on [lo, hi]: its ``range`` (largest minus smallest value), its
                  ``spread`` (the RMS distance of the repetition's curve from the mean curve
                  over the repetitions, on 50 equidistant points of [lo, hi]) or its
                  ``error`` (the RMS distance from the scenario's true ``pd``, both centred at
                  their mean over the compared points), in the claim's scenario and learner
                  over the same in ``than_scenario`` and ``than_learner`` (default: the
                  claim's). The test is on the log scale: log(mean_A / mean_B) with the
                  delta-method SE sqrt((SE_A / mean_A)^2 + (SE_B / mean_B)^2), SE = sd over
                  the R repetitions / sqrt(R), against log(value) as ``compare`` says
                  (``at_most``: not significantly above it, ``at_least``: not below), t' the
                  Student-t quantile with min(R_A, R_B) - 1 df at Phi(k). The ``spread`` of a
                  repetition shares the mean curve with the others, so its repetitions are
                  slightly dependent (a correlation of order 1 / R, ignored).
``ch3sim_pull``   how far the PDP has moved from its own truth t(x) (the scenario's ``pd``)
                  toward a target curve g(x) (an expression in x, e.g. the book's common
                  effect ``x + sin(3*x)`` of a duplicated feature): per repetition the
                  least-squares fit curve = c + alpha t + lambda (g - t) over the curve's
                  points in [lo, hi] within the truth's range; lambda = 0 is the own effect
                  (scaled by alpha: a learner that flattens a sine has alpha < 1, which is
                  not a pull), lambda = 1 the target. When g - t is a multiple of t (a linear
                  own effect and a linear target, setting 1), alpha and lambda cannot be told
                  apart and alpha is fixed at 1: lambda is then the slope's excess over the
                  own one in units of g - t. Tested with the layer's check
                  (:func:`imlbench.metrics.curve_claims.compared`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.dgp.expressions import ExpressionError, parse
from imlbench.metrics.claims import Check, NoData, Tables, claim_kind, claim_row, per_combo
from imlbench.metrics.curve_claims import (
    COMPARE,
    RANGE,
    TOLERANCE,
    compared_row,
    feature_curves,
)
from imlbench.metrics.truth_errors import against_truth
from imlbench.params import choice, feature_name, number, study_name, text
from imlbench.stats import mean_and_se, t_multiplier

STATISTICS = ("range", "spread", "error")
#: the ratio's comparisons: the layer's, and ``at_most`` / ``at_least`` for "not larger" /
#: "not smaller" (:class:`imlbench.metrics.claims.Check`)
RATIO_COMPARES = ("equal", "above", "below", "at_least", "at_most")
#: the common points of [lo, hi] on which the repetitions' curves are compared (``spread``)
SPREAD_POINTS = 50


def _moved(claim: dict, scenario: str) -> dict:
    """The claim read at another scenario (its ``where`` moved)."""
    return {**claim, "where": {**claim["where"], "scenario": scenario}}


def _curves(claim: dict, t: Tables, scenario: str, learner: str, method: str
            ) -> pd.DataFrame | NoData:
    """The PDP curves (rep, x, value) of the claim's feature in ``scenario``."""
    return feature_curves(_moved(claim, scenario), t, learner, method)


def _on_points(curves: pd.DataFrame, x: np.ndarray) -> pd.DataFrame:
    """Each repetition's curve interpolated linearly at ``x`` (rows: repetitions; NaN where a
    repetition's grid does not reach)."""
    out = {}
    for rep, g in curves.groupby("rep"):
        g = g.sort_values("x")
        xs, vs = g["x"].to_numpy(float), g["value"].to_numpy(float)
        v = np.interp(x, xs, vs)
        v[(x < xs[0]) | (x > xs[-1])] = np.nan
        out[rep] = v
    return pd.DataFrame.from_dict(out, orient="index", columns=x)


def _statistic(claim: dict, t: Tables, scenario: str, learner: str, method: str
               ) -> pd.Series | NoData:
    """The claim's statistic per repetition in ``scenario`` (see the module doc)."""
    lo, hi = claim["range"]
    where = f"{scenario}/{learner}/{method}"
    if claim["statistic"] == "error":
        r = against_truth(_moved({**claim, "truth": "pd"}, scenario), t, learner, method)
        if isinstance(r, NoData):
            return r
        r = r[(r["anchor"] == "mean") & (r["feature"] == claim["feature"])
              & r["x"].between(lo, hi)]
        return (r["error"] ** 2).groupby(r["rep"]).mean().pow(0.5)
    curves = _curves(claim, t, scenario, learner, method)
    if isinstance(curves, NoData):
        return NoData(curves.reason or f"no estimates of {where}")
    if claim["statistic"] == "range":
        inside = curves[curves["x"].between(lo, hi)]
        return inside.groupby("rep")["value"].agg(lambda v: v.max() - v.min())
    wide = _on_points(curves, np.linspace(lo, hi, SPREAD_POINTS)).dropna()
    if len(wide) < 2:
        return NoData(f"a spread needs 2 repetitions covering [{lo:g}, {hi:g}]; {where} has "
                      f"{len(wide)}")
    return ((wide - wide.mean(axis=0)) ** 2).mean(axis=1).pow(0.5)


@claim_kind("ch3sim_ratio", params={
    "feature": feature_name(), "statistic": choice("range", STATISTICS), "range": RANGE,
    "than_scenario": study_name("scenarios", None), "than_learner": study_name("learners", None),
    "value": number(1.0, above=0), "compare": choice("equal", RATIO_COMPARES),
    "k": TOLERANCE["k"]})
def ratio(claim: dict, t: Tables) -> list[dict]:
    """The mean of the statistic over repetitions in the claim's scenario and learner over
    that in ``than_scenario`` and ``than_learner``, against ``value`` on the log scale (see
    the module doc)."""
    k, stat = claim["k"], claim["statistic"]

    def one(claim: dict, a: pd.Series, learner: str, method: str) -> dict | NoData:
        scen_b = claim["than_scenario"] or claim["where"]["scenario"]
        learner_b = claim["than_learner"] or learner
        b = _statistic(claim, t, scen_b, learner_b, method)
        if isinstance(b, NoData):
            return b
        a, b = a.dropna(), b.dropna()
        if min(len(a), len(b)) < 2 or a.mean() <= 0 or b.mean() <= 0:
            return NoData(f"a ratio with an SE needs positive means over 2 repetitions or more "
                          f"on each side; {len(a)} and {len(b)} here")
        (ma, sa), (mb, sb) = mean_and_se(a), mean_and_se(b)
        log_ratio = float(np.log(ma / mb))
        se = float(np.hypot(sa / ma, sb / mb))
        tk = float(t_multiplier(k, min(len(a), len(b)) - 1))
        check = Check(log_ratio, tk * se, claim["compare"], float(np.log(claim["value"])),
                      scale=1.0)
        other = f"{scen_b}/{learner_b}"
        return claim_row(
            claim, learner, method,
            f"{stat} of {claim['feature']} on [{claim['range'][0]:g}, {claim['range'][1]:g}]: "
            f"{ma:.4g} (SE {sa:.2g}, {len(a)} reps) over {mb:.4g} in "
            f"{other} (SE {sb:.2g}, {len(b)} reps): ratio {np.exp(log_ratio):.3g}",
            f"log ratio {claim['compare']} log {claim['value']:g} within t({k:g}) SE = "
            f"{tk * se:.3g} (t({k:g}) = {tk:.3g}, {min(len(a), len(b)) - 1} df; delta-method SE "
            f"of the log ratio of two means over repetitions)", check)

    def rows_of(claim: dict, t: Tables, learner: str, method: str) -> pd.Series | NoData:
        return _statistic(claim, t, claim["where"]["scenario"], learner, method)

    return per_combo(claim, t, rows_of, one)


def _target(claim: dict):
    try:
        return parse(claim["toward"], ["x"], label="the feature's value")
    except ExpressionError as err:
        raise ValueError(f"claim {claim['id']}: toward: {err}") from None


#: |correlation| of t and g - t above which the two are taken as collinear (alpha fixed at 1)
COLLINEAR = 0.999


def _centred(v: np.ndarray) -> np.ndarray:
    return v - v.mean()


def pull_coefficients(r: pd.DataFrame, target, lo: float, hi: float) -> pd.Series:
    """Per repetition, lambda of the fit estimate = c + alpha truth + lambda (target - truth)
    over the points of ``r`` (rows of :func:`imlbench.metrics.truth_errors.against_truth`,
    one feature, unanchored) with x in [lo, hi]; alpha is fixed at 1 when truth and
    target - truth are collinear (see the module doc)."""
    out = {}
    for rep, g in r[r["x"].between(lo, hi)].groupby("rep"):
        x = g["x"].to_numpy(float)
        own = _centred(g["truth"].to_numpy(float))
        est = _centred(g["estimate"].to_numpy(float))
        u = _centred(target({"x": x}, len(x))) - own
        if len(x) < 3 or not u @ u > 0:
            continue
        collinear = own @ own == 0 or abs(own @ u) >= COLLINEAR * np.sqrt((own @ own) * (u @ u))
        if collinear:
            out[rep] = float((est - own) @ u / (u @ u))
        else:
            coef = np.linalg.lstsq(np.column_stack([own, u]), est, rcond=None)[0]
            out[rep] = float(coef[1])
    return pd.Series(out, dtype=float)


@claim_kind("ch3sim_pull", params={
    "feature": feature_name(), "toward": text(), "range": RANGE, "value": number(0.0),
    **COMPARE, **TOLERANCE})
def pull(claim: dict, t: Tables) -> list[dict]:
    """lambda, how far the PDP moved from its true PD toward the curve ``toward`` (0: the
    PD, 1: the target), per repetition, against ``value`` as ``compare`` says (see the module
    doc)."""
    target = _target(claim)
    lo, hi = claim["range"]

    def rows_of(claim: dict, t: Tables, learner: str, method: str) -> pd.DataFrame | NoData:
        r = against_truth({**claim, "truth": "pd"}, t, learner, method)
        if isinstance(r, NoData):
            return r
        r = r[(r["anchor"] == "none") & (r["feature"] == claim["feature"])]
        return r if len(r) else NoData(f"no curve of {claim['feature']} within its pd truth")

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        lam = pull_coefficients(r, target, lo, hi)
        if len(lam) < 2:
            return NoData(f"an SE over repetitions needs lambda in 2 repetitions or more; "
                          f"{len(lam)} here")
        return compared_row(claim, learner, method, lam,
                            f"pull of {claim['feature']} from its PD toward {claim['toward']} "
                            f"on [{lo:g}, {hi:g}]", value=claim["value"],
                            compare=claim["compare"], atol=claim["atol"],
                            more=f", from {lam.min():.3g} to {lam.max():.3g}")

    return per_combo(claim, t, rows_of, one)
