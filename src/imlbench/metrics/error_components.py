"""A printed component of an effect estimate's error over repetitions, against ours.

Heiß, Bögel, Bischl & Casalicchio (2026, *Analyzing error sources in global feature effect
estimation*) tabulate, per feature, the mean over a curve's grid points of the pointwise
error components over R repetitions. With e_rx = estimate_r(x) - truth(x) (both anchored at
their mean over the points, ``anchor: mean`` of :mod:`imlbench.metrics.truth_errors`) and
s_rx = estimate_r(x) - model_r(x), the estimate minus the models' own effect on rows drawn
afresh (column ``model`` of the truth-error repetitions), a component is

* ``mse``: mean_x mean_r e_rx^2;
* ``bias``: sqrt(mean_x b_x^2), b_x = mean_r e_rx (the paper's Bias: the root of the mean
  squared pointwise bias);
* ``variance``: mean_x var_r e_rx (divisor R - 1);
* ``estimation_variance``: mean_x var_r s_rx, the variance of the estimate around the fitted
  models' own effect (the paper's "MC variance", there measured by re-estimating each fitted
  model on fresh data sets of the estimation sample's size);
* ``model_variance``: variance - estimation_variance (the paper's residual "model variance").

The paper's squared bias includes var/R (the mean's own scatter); with another number of
repetitions ours is set to the expectation at the paper's ``runs``: mean_x (b_x^2 + v_x
(1/runs - 1/R)), v_x the pointwise variance, before the root. The bias is tested on that
squared scale (``bias2``), where the estimate is smooth and may fall below 0 when the bias is
small against the variance: the root would clip it at 0, and with it the spread of its
jackknife.

The test (claim kind ``error_component``): the claim's printed values (``values``: learner ->
method -> number) each against our component over the R repetitions we ran, as a prediction
interval of another study of ``runs`` repetitions: |ours - printed| <= t' SE sqrt(1 + R /
runs) + SE_truth + atol, SE the jackknife SE over our repetitions (:func:`imlbench.metrics.
contrasts.jackknife_se`; the printed value scatters by about SE sqrt(R / runs)), t' the
Student-t quantile with R - 1 df at Phi(k), SE_truth the truth's Monte Carlo SE carried into
the component to first order (:func:`imlbench.metrics.truth_tolerance.truth_se_of`; the
variances read no truth) and ``atol`` the printed rounding (half a unit of the 4th decimal);
the bias on its squared scale, against the printed bias squared within the square of its
rounding, (printed + atol)^2 - printed^2. One scorecard row per printed number.

Claim kind ``component_order``: a component of the claim's cell (its scenario, learner,
method and ``feature``) is below (``compare: below``) or above another cell's, ``than``
naming what differs (``method`` and/or ``feature``), on the repetitions both have (the same
data sets): d = component - component of ``than``, SE its jackknife SE over those
repetitions (the pair left out together), reproduced when d + t' SE < 0 (below; d - t' SE >
0 above), t' the Student-t quantile with R - 1 df at Phi(k). The bias is compared as its
square, as estimated (``runs`` = R): the two cells share R.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from imlbench.metrics.claims import (
    Check,
    NoData,
    Tables,
    as_list,
    claim_kind,
    claim_row,
    per_combo,
    select_rows,
)
from imlbench.metrics.contrasts import jackknife_se
from imlbench.metrics.truth_tolerance import truth_se_of
from imlbench.params import choice, feature_name, integer, number, study_name, table
from imlbench.stats import t_multiplier

#: the components (module doc) and whether each reads the models' own effect
COMPONENTS = {"mse": False, "bias": False, "variance": False, "estimation_variance": True,
              "model_variance": True}


def matrices(rows: pd.DataFrame, model: bool) -> tuple[np.ndarray, ...]:
    """From the truth-error repetitions of one curve (one feature, ``anchor: mean``): the
    errors e (repetitions x points), the estimation errors s (estimate - model; with
    ``model`` only, else empty) and each point's truth SE."""
    wide = rows.pivot_table(index="rep", columns="x", values="error", aggfunc="first")
    e = wide.to_numpy(float)
    s = (rows.assign(s=rows["estimate"] - rows["model"]).pivot_table(
        index="rep", columns="x", values="s", aggfunc="first").to_numpy(float)
        if model else np.empty((len(e), 0)))
    tse = rows.groupby("x")["truth_se"].first().reindex(wide.columns).to_numpy(float)
    return e, s, tse


def component(name: str, e: np.ndarray, s: np.ndarray, runs: int) -> float:
    """Component ``name`` (module doc; ``bias2``: the squared bias, not clipped at 0) of the
    errors ``e`` and estimation errors ``s`` (repetitions x points), the squared bias set to
    its expectation at ``runs`` repetitions."""
    var = e.var(axis=0, ddof=1)
    if name == "mse":
        return float(np.mean(e**2))
    if name in ("bias", "bias2"):
        b2 = float(np.mean(e.mean(axis=0) ** 2 + var * (1 / runs - 1 / len(e))))
        return b2 if name == "bias2" else float(np.sqrt(max(b2, 0.0)))
    if name == "variance":
        return float(var.mean())
    est = float(s.var(axis=0, ddof=1).mean())
    return est if name == "estimation_variance" else float(var.mean()) - est


def tested(name: str) -> str:
    """The component a test reads for ``name``: the squared bias for the bias (module doc)."""
    return "bias2" if name == "bias" else name


def truth_gradient(name: str, e: np.ndarray) -> np.ndarray:
    """The derivative of the tested component ``name`` (``mse``, ``bias2``, a variance) by
    each point's truth, to first order, centred over the points (the anchored truth moves
    with every raw value): -2 b_x / P for ``mse`` and ``bias2``; 0 for the variances."""
    if name not in ("mse", "bias2"):
        return np.zeros(e.shape[1])
    g = -2 * e.mean(axis=0) / e.shape[1]
    return g - g.mean()


def curve_rows(t: Tables, scenario: str, learner: str, method: str, feature: str,
               needs_model: bool) -> pd.DataFrame | NoData:
    """The truth-error repetitions of one curve (``anchor: mean``), or why there are none
    (empty reason: the caller of :func:`imlbench.metrics.claims.evaluate` tells)."""
    reps = t.truth_error_reps
    if reps.empty:
        return NoData()
    r = select_rows(reps, scenario, learner, method)
    r = r[(r["feature"] == feature) & (r["anchor"] == "mean")]
    if r.empty:
        return NoData()
    if needs_model and ("model" not in r or r["model"].isna().all()):
        return NoData(f"this component needs the models' own effect; method {method!r} has "
                      f"no model_effect_rows")
    return r


def _values_errors(claim: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Every (learner, method) of ``values`` must be one of the claim's ``where``."""
    where = claim.get("where") or {}
    learners, methods = (set(as_list(where.get(k, []))) for k in ("learner", "method"))
    out = []
    for learner, by_method in (claim.get("values") or {}).items():
        if learner not in learners:
            out.append((f"values.{learner}", f"learner {learner!r} is not in where.learner; "
                                              f"allowed: {', '.join(sorted(learners))}"))
        for method in by_method or {}:
            if method not in methods:
                out.append((f"values.{learner}.{method}",
                            f"method {method!r} is not in where.method; allowed: "
                            f"{', '.join(sorted(methods))}"))
    return out


@claim_kind("error_component", params={
    "component": choice("mse", tuple(COMPONENTS)), "feature": feature_name(),
    "values": table(value=table(value=number())), "runs": integer(30, minimum=2),
    "k": number(3.0, minimum=0), "atol": number(0.00005, minimum=0)}, errors=_values_errors)
def error_component(claim: dict, t: Tables) -> list[dict]:
    """Each printed value of ``values`` (learner -> method -> number) against our component of
    the feature's error (module doc): one row per printed number."""
    name, runs, k, atol = claim["component"], claim["runs"], claim["k"], claim["atol"]
    needs_model = COMPONENTS[name]

    def rows_of(claim: dict, t: Tables, learner: str, method: str) -> pd.DataFrame | NoData:
        return curve_rows(t, claim["where"]["scenario"], learner, method, claim["feature"],
                          needs_model)

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        printed = float(claim["values"][learner][method])
        e, s, tse = matrices(r, needs_model)
        R = len(e)
        if R < 3:
            return NoData(f"a jackknife SE needs 3 repetitions or more; "
                          f"{claim['where']['scenario']}/{learner}/{method} has {R}")
        test = tested(name)
        both, P = np.concatenate([e, s], axis=1), e.shape[1]  # s has no columns unless read
        stat = component(test, e, s, runs)
        se = jackknife_se(both, lambda m: component(test, m[:, :P], m[:, P:], runs))
        se_truth = truth_se_of(truth_gradient(test, e), tse)
        half = t_multiplier(k, R - 1) * se * np.sqrt(1 + R / runs) + se_truth
        squared = test != name
        target, margin = ((printed**2, (printed + atol) ** 2 - printed**2) if squared
                          else (printed, atol))
        scale = "its square " if squared else ""
        return claim_row(
            claim, learner, method,
            f"{name.replace('_', ' ')} of {claim['feature']}: "
            f"{component(name, e, s, runs):.4g} (paper {printed:.4g}"
            f"{f'; squared: {stat:.4g} against {target:.4g}' if squared else ''}; jackknife SE"
            f" {se:.3g} over {R} reps, {P} points)",
            f"|ours - paper| on {scale or 'the printed scale '}<= t({k:g}) SE sqrt(1 + {R}/"
            f"{runs}) + SE_truth + {margin:.3g} (t({k:g}): the t quantile at Phi({k:g}), "
            f"{R - 1} df; the paper's {runs} runs scatter by SE sqrt({R}/{runs}); SE_truth "
            f"{se_truth:.3g}, the truth's Monte Carlo SE carried into it; {margin:.3g}: the "
            f"printed rounding)",
            Check(stat, half, "equal", target, margin))

    rows = []
    for learner, by_method in claim["values"].items():
        for method in by_method:
            one_cell = {**claim, "where": {**claim["where"], "learner": learner,
                                           "method": method}}
            rows += per_combo(one_cell, t, rows_of, one)
    return rows


#: what ``than`` of ``component_order`` may change
THAN = {"method": study_name("methods", None), "feature": feature_name(None)}


@claim_kind("component_order", params={
    "component": choice("mse", tuple(COMPONENTS)), "feature": feature_name(),
    "than": table(THAN), "compare": choice("below", ("below", "above")),
    "k": number(2.0, minimum=0)})
def component_order(claim: dict, t: Tables) -> list[dict]:
    """A component of the claim's cell is below (above) that of the cell ``than`` names, paired
    over their repetitions (module doc)."""
    name, k, compare = claim["component"], claim["k"], claim["compare"]
    needs_model = COMPONENTS[name]
    than = {key: v for key, v in claim["than"].items() if v is not None}

    def rows_of(claim: dict, t: Tables, learner: str, method: str
                ) -> tuple[pd.DataFrame, pd.DataFrame] | NoData:
        scenario = claim["where"]["scenario"]
        a = curve_rows(t, scenario, learner, method, claim["feature"], needs_model)
        b = curve_rows(t, scenario, learner, than.get("method", method),
                       than.get("feature", claim["feature"]), needs_model)
        if isinstance(a, NoData):
            return a
        if isinstance(b, NoData):
            return NoData(b.reason or f"no estimates of {scenario}/{learner}/"
                                      f"{than.get('method', method)} to compare with")
        return a, b

    def one(claim: dict, ab: tuple[pd.DataFrame, pd.DataFrame], learner: str, method: str
            ) -> dict | NoData:
        common = _common(*ab)
        (ea, sa, _), (eb, sb, _) = (matrices(r[r["rep"].isin(common)], needs_model)
                                    for r in ab)
        R = len(ea)
        if R < 3:
            return NoData(f"a jackknife SE needs 3 common repetitions or more; {R} here")
        cuts = np.cumsum([m.shape[1] for m in (ea, sa, eb)])

        test = tested(name)

        def diff(m: np.ndarray) -> float:
            pa, qa, pb, qb = np.split(m, cuts, axis=1)
            return component(test, pa, qa, len(m)) - component(test, pb, qb, len(m))

        both = np.concatenate([ea, sa, eb, sb], axis=1)
        mine, theirs = component(test, ea, sa, R), component(test, eb, sb, R)
        se = jackknife_se(both, diff)
        other = ", ".join(f"{key} {v}" for key, v in than.items())
        below = compare == "below"
        return claim_row(
            claim, learner, method,
            f"{test.replace('_', ' ')} of {claim['feature']}: {mine:.4g} against {theirs:.4g} "
            f"({other}); difference {mine - theirs:.4g}, jackknife SE {se:.3g}, {R} paired "
            f"reps",
            f"difference {'+' if below else '-'} t({k:g}) SE {'<' if below else '>'} 0 "
            f"(t({k:g}): the t quantile at Phi({k:g}), {R - 1} df; both curves of a "
            f"repetition left out together)",
            Check(mine - theirs, t_multiplier(k, R - 1) * se, compare, 0.0))

    return per_combo(claim, t, rows_of, one)


def _common(a: pd.DataFrame, b: pd.DataFrame) -> np.ndarray:
    """The repetitions both curves' rows hold."""
    return np.intersect1d(a["rep"].unique(), b["rep"].unique())
