"""The generic curve claim kinds on synthetic estimates with known slopes, kinks, levels and
growth, and a known spread over repetitions: each reproduces when the claimed value is the
truth (or lies within its tolerance) and does not when it is clearly off; rows without data
say why."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from imlbench.metrics.claims import (
    CLAIM_KEYS,
    CLAIMS,
    INCONCLUSIVE,
    NO_DATA,
    NOT_REPRODUCED,
    NOT_RUN,
    REPRODUCED,
    Tables,
    evaluate,
)
from imlbench.metrics.curve_claims import ls_slope
from imlbench.params import ParamError, check_all
from imlbench.stats import t_multiplier

KINDS = ("curve_slope", "curve_kink", "curve_levels", "missing_at_max", "growth_exponent",
         "curve_error", "published_value", "curve_gap")
REPS = 8
RNG = np.random.default_rng(7)
#: per repetition, a slope deviation (sd 0.2) and a point noise (sd 0.05): the mean slope over
#: 8 reps has an SE of about 0.2 / sqrt(8) = 0.07, so t(3) SE (t = 5.4 at 7 df) is about 0.4
SLOPE_SD, POINT_SD = 0.2, 0.05


def _curve_rows(method: str, feature: str, x: np.ndarray, f, reps: int = REPS) -> list[dict]:
    """``f(x, rep)`` on the grid ``x`` for every repetition, with point noise."""
    return [{"scenario": "main", "learner": "rf", "method": method, "rep": r, "feature": feature,
             "x": xi, "value": v}
            for r in range(reps)
            for xi, v in zip(x, f(x, r) + RNG.normal(0, POINT_SD, len(x)), strict=True)]


SLOPE_DEV = RNG.normal(0, SLOPE_SD, REPS)
KINK_DEV = RNG.normal(0, SLOPE_SD, REPS)
GRID = np.arange(50.0, 80.5, 0.5)
LEVEL_GAPS = {0: 0.0, 1: 20.0, 2: 30.0, 3: 40.0, 4: 50.0}
LEVEL_DEV = RNG.normal(0, 1.0, (REPS, len(LEVEL_GAPS)))


def _height(x: np.ndarray, r: int) -> np.ndarray:
    """Slope 10 + dev below 70, 4 + dev + kink dev above: a slope change of -6 at 70."""
    s = 10.0 + SLOPE_DEV[r]
    return s * x + np.where(x > 70, (-6.0 + KINK_DEV[r]) * (x - 70), 0.0)


def _levels(x: np.ndarray, r: int) -> np.ndarray:
    return np.array([LEVEL_GAPS[int(c)] + LEVEL_DEV[r, int(c)] for c in x]) + 100.0 * r


def _timing_rows() -> list[dict]:
    """seconds = 1e-4 n^1.0 with multiplicative noise (sd 0.1 on the log scale), 3 reps."""
    return [{"scenario": "main", "learner": "rf", "method": "timing", "rep": r,
             "feature": "height", "n": n, "seconds": 1e-4 * n * np.exp(RNG.normal(0, 0.1))}
            for r in range(3) for n in (1000, 2000, 4000, 8000, 16000, 32000)]


OTHER = pd.DataFrame(
    _curve_rows("stratpd", "height", GRID[:-1], _height)  # no point at the largest 80
    + _curve_rows("pdp", "height", GRID, _height)
    + _curve_rows("stratpd", "state", np.arange(5.0), _levels)
    + _curve_rows("once", "height", GRID, _height, reps=1)
    + _timing_rows())
TABLES = Tables(ranked=pd.DataFrame(), truth={}, other=OTHER)


def _claim(kind: str, method: str = "stratpd", scenario: str = "main", **params) -> dict:
    return {"id": f"c-{kind}", "kind": kind, "figure": "fig", "text": "t", "published": "p",
            "source": "derived",
            "where": {"scenario": scenario, "learner": "rf", "method": method}, **params}


def _row(claim: dict, tables: Tables = TABLES) -> dict:
    check_all(CLAIMS.get(claim["kind"]).params,
              {k: v for k, v in claim.items() if k not in CLAIM_KEYS})
    (row,) = CLAIMS.get(claim["kind"])(claim, tables)
    return row


def _slopes(lo: float, hi: float) -> np.ndarray:
    inside = OTHER[(OTHER["method"] == "stratpd") & (OTHER["feature"] == "height")
                   & OTHER["x"].between(lo, hi)]
    return np.array([np.polyfit(g["x"], g["value"], 1)[0] for _, g in inside.groupby("rep")])


def _allowed(d: np.ndarray, k: float = 3.0) -> float:
    return float(t_multiplier(k, len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d)))


def test_the_kinds_are_generic_and_registered():
    for kind in KINDS:
        assert CLAIMS.owner(kind) is None
        assert CLAIMS.get(kind).evaluate.__module__ == "imlbench.metrics.curve_claims"


def test_ls_slope_is_the_least_squares_slope():
    x = np.array([0.0, 1.0, 3.0, 4.0])
    v = np.array([1.0, 2.5, 7.0, 9.5])
    assert ls_slope(x, v) == pytest.approx(np.polyfit(x, v, 1)[0], rel=1e-12)
    assert np.isnan(ls_slope(np.array([2.0, 2.0]), np.array([1.0, 3.0])))


def test_curve_slope_reproduces_the_true_slope_and_not_a_clearly_wrong_one():
    assert _row(_claim("curve_slope", feature="height", range=[50, 70], value=10))[
        "verdict"] == REPRODUCED
    # 11 is 1 off the true 10, about 14 SE (SE ~ 0.07): far beyond t(3) SE ~ 0.4
    row = _row(_claim("curve_slope", feature="height", range=[50, 70], value=11))
    assert row["verdict"] == NOT_REPRODUCED
    assert "7 df" in row["tolerance"] and "t(3)" in row["tolerance"]


def test_curve_slope_tolerance_is_t_times_the_se_over_repetitions():
    s = _slopes(50, 70)
    mean, allowed = s.mean(), _allowed(s)
    for factor, verdict in ((0.99, REPRODUCED), (1.01, NOT_REPRODUCED)):
        row = _row(_claim("curve_slope", feature="height", range=[50, 70],
                          value=float(mean + factor * allowed)))
        assert row["verdict"] == verdict, (factor, row)
    # atol widens it by its value
    row = _row(_claim("curve_slope", feature="height", range=[50, 70],
                      value=float(mean + allowed + 0.5), atol=0.51))
    assert row["verdict"] == REPRODUCED


def test_curve_kink_finds_the_slope_change():
    base = {"feature": "height", "at": 70, "range": [60, 80]}
    d = _slopes(70, 80) - _slopes(60, 70)
    assert abs(d.mean() + 6) < _allowed(d), "the synthetic kink lies within its tolerance"
    assert _row(_claim("curve_kink", **base, value=-6))["verdict"] == REPRODUCED
    assert _row(_claim("curve_kink", **base, value=0))["verdict"] == NOT_REPRODUCED
    # one-sided: the change is above -8 by far, not above -5 (1 above the truth, ~ 10 SE)
    at_least = {**base, "compare": "above"}
    assert _row(_claim("curve_kink", **at_least, value=-8))["verdict"] == REPRODUCED
    assert _row(_claim("curve_kink", **at_least, value=-5))["verdict"] == NOT_REPRODUCED
    # a straight line has no kink: the curve left of 70, split at 60
    straight = _row(_claim("curve_kink", feature="height", at=60, range=[50, 70], value=0))
    assert straight["verdict"] == REPRODUCED


def test_curve_kink_takes_a_known_comparison_and_at_inside_the_range():
    with pytest.raises(ParamError, match="compare"):
        _row(_claim("curve_kink", feature="height", at=70, range=[60, 80], value=-6,
                    compare="more"))
    outside = _row(_claim("curve_kink", feature="height", at=90, range=[60, 80], value=-6))
    assert outside["verdict"] == NO_DATA and "lo < at (90) < hi" in outside["reason"]


def test_curve_levels_match_the_true_gaps_and_not_wrong_ones():
    true = {str(c): g for c, g in LEVEL_GAPS.items() if c}
    row = _row(_claim("curve_levels", feature="state", reference=0, values=true))
    assert row["verdict"] == REPRODUCED, row
    # integer keys, as YAML reads them, name the same levels; one gap off by 10 (SE ~ 0.5)
    wrong = {c: g for c, g in LEVEL_GAPS.items() if c} | {3: 30.0}
    row = _row(_claim("curve_levels", feature="state", reference=0, values=wrong))
    assert row["verdict"] == NOT_REPRODUCED
    # the row states the test of every level, each with its own target
    for level, gap in wrong.items():
        assert f"level {level}: |mean - {gap:g}| <= t(3) SE + 0" in row["tolerance"], row
    # relative to another reference level: gaps shift by that level's gap
    shifted = {"0": -20.0, "4": 30.0}
    assert _row(_claim("curve_levels", feature="state", reference=1, values=shifted))[
        "verdict"] == REPRODUCED


def test_curve_levels_name_the_missing_level():
    row = _row(_claim("curve_levels", feature="state", reference=0, values={"7": 1.0,
                                                                           "AZ": 2.0}))
    assert row["verdict"] == NO_DATA
    assert "no level 7, AZ" in row["reason"] and "0, 1, 2, 3, 4" in row["reason"]


def test_missing_at_max_holds_for_stratpd_and_not_for_a_full_grid():
    claim = {"feature": "height", "max": 80}
    assert _row(_claim("missing_at_max", **claim))["verdict"] == REPRODUCED
    assert _row(_claim("missing_at_max", method="pdp", **claim))["verdict"] == NOT_REPRODUCED
    # a maximum above the data: no curve reaches it
    assert _row(_claim("missing_at_max", method="pdp", feature="height", max=81))[
        "verdict"] == REPRODUCED


def test_growth_exponent_of_linear_time():
    assert _row(_claim("growth_exponent", method="timing", range=[0.9, 1.1]))[
        "verdict"] == REPRODUCED
    # quadratic growth is ~ 1 off, the slope's SE about 0.1 / sqrt(18 * var(log n)) ~ 0.02
    row = _row(_claim("growth_exponent", method="timing", range=[1.8, 2.2]))
    assert row["verdict"] == NOT_REPRODUCED and "16 df" in row["tolerance"]
    r = OTHER[OTHER["method"] == "timing"]
    b = np.polyfit(np.log(r["n"]), np.log(r["seconds"]), 1)[0]
    assert f"{b:.3g}" in row["reproduced"]


def test_growth_exponent_without_the_column_or_sizes():
    row = _row(_claim("growth_exponent", method="timing", range=[0.9, 1.1], column="cpu"))
    assert row["verdict"] == NO_DATA and "no column cpu" in row["reason"]
    row = _row(_claim("growth_exponent", method="timing", range=[0.9, 1.1], feature="state"))
    assert row["verdict"] == NO_DATA and "has 0 rows at 0 sizes" in row["reason"]


@pytest.mark.parametrize("kind, params", [
    ("curve_slope", {"range": [50, 70], "value": 10}),
    ("curve_kink", {"at": 70, "range": [60, 80], "value": -6}),
    ("curve_levels", {"reference": 0, "values": {"1": 20}}),
    ("missing_at_max", {"max": 80}),
])
def test_a_missing_feature_is_named(kind, params):
    row = _row(_claim(kind, feature="weight", **params))
    assert row["verdict"] == NO_DATA
    assert "no curve of feature weight" in row["reason"] and "height" in row["reason"]


@pytest.mark.parametrize("kind, params", [
    ("curve_slope", {"feature": "height", "range": [50, 70], "value": 10}),
    ("curve_kink", {"feature": "height", "at": 70, "range": [60, 80], "value": -6}),
])
def test_one_repetition_gives_no_se(kind, params):
    row = _row(_claim(kind, method="once", **params))
    assert row["verdict"] == NO_DATA
    assert "2 repetitions or more" in row["reason"] and "in 1 of 1" in row["reason"]


def test_a_range_without_grid_points_says_so():
    row = _row(_claim("curve_slope", feature="height", range=[100, 200], value=10))
    assert row["verdict"] == NO_DATA and "2 grid points in [100, 200]" in row["reason"]
    assert "in 0 of 8" in row["reason"]


@pytest.mark.parametrize("kind, params", [
    ("curve_slope", {"feature": "height", "range": [50, 70], "value": 10}),
    ("curve_levels", {"feature": "state", "reference": 0, "values": {"1": 20}}),
    ("missing_at_max", {"feature": "height", "max": 80}),
    ("growth_exponent", {"range": [0.9, 1.1]}),
])
def test_missing_scenarios_get_the_callers_reason(kind, params):
    claims = [_claim(kind, scenario="absent", **params), _claim(kind, scenario="empty", **params)]
    card = evaluate(claims, TABLES, {"main", "empty"},
                    lambda claim, row: f"file of {row['scenario']}")
    assert list(card["verdict"]) == [NOT_RUN, NO_DATA]
    assert list(card["reason"]) == ["file of absent", "file of empty"]
    empty = evaluate(claims[1:], Tables(ranked=pd.DataFrame(), truth={}, other=pd.DataFrame()),
                     {"empty"}, lambda claim, row: "no estimates")
    assert list(empty["reason"]) == ["no estimates"]


def test_curves_of_rows_are_averaged_over_the_rows():
    """ICE-like rows with slopes 8 and 12 per row: their mean curve has slope 10."""
    rows = [{"scenario": "main", "learner": "rf", "method": "ice", "rep": r, "row": i,
             "feature": "height", "x": x, "value": s * x + SLOPE_DEV[r]}
            for r in range(REPS) for i, s in enumerate((8.0, 12.0)) for x in GRID]
    tables = Tables(ranked=pd.DataFrame(), truth={}, other=pd.DataFrame(rows))
    row = _row(_claim("curve_slope", method="ice", feature="height", range=[50, 80],
                      value=10, atol=1e-9), tables)
    # every repetition's mean curve is exactly of slope 10: SE 0, atol absorbs the rounding
    assert row["verdict"] == REPRODUCED and "slope of height on [50, 80]: 10 " in row[
        "reproduced"]


def test_one_sided_comparisons_of_slopes_and_levels():
    # the slope on [50, 70] is 10 with an SE of about 0.07 (see SLOPE_SD)
    slope = {"feature": "height", "range": [50, 70]}
    assert _row(_claim("curve_slope", **slope, value=9.0, compare="above"))[
        "verdict"] == REPRODUCED
    assert _row(_claim("curve_slope", **slope, value=10.0, compare="above"))[
        "verdict"] == INCONCLUSIVE  # the interval straddles the bound: a coin flip
    assert _row(_claim("curve_slope", **slope, value=11.0, compare="above"))[
        "verdict"] == NOT_REPRODUCED  # the whole interval lies below 11
    assert _row(_claim("curve_slope", **slope, value=11.0, compare="below"))[
        "verdict"] == REPRODUCED
    row = _row(_claim("curve_slope", **slope, value=9.0, compare="below"))
    assert row["verdict"] == NOT_REPRODUCED
    assert row["tolerance"].startswith("mean + t(3) SE < 9")
    # level gaps 20, 30, 40, 50 (SE about 1 / sqrt(8) per level)
    levels = {"feature": "state", "reference": 0}
    assert _row(_claim("curve_levels", **levels, values={"1": 25, "4": 55},
                       compare="below"))["verdict"] == REPRODUCED
    assert _row(_claim("curve_levels", **levels, values={"1": 25, "4": 45},
                       compare="below"))["verdict"] == NOT_REPRODUCED  # 50 is not below 45


def _error_reps(bias: float, noise: float = 0.01, reps: int = 6) -> pd.DataFrame:
    """truth_error_reps rows of one curve: truth x^2 on [-2, 2] (range 4), the estimate the
    truth plus ``bias`` x plus a constant (anchoring removes it) and point noise."""
    x = np.linspace(-2, 2, 21)
    rows = []
    for r in range(reps):
        est = x**2 + bias * x + 3.0 + RNG.normal(0, noise, len(x))
        rows += [{"scenario": "main", "learner": "rf", "method": "stratpd", "rep": r,
                  "feature": "x1", "x": xi, "estimand": "ale", "anchor": "none",
                  "estimate": e, "truth": t, "truth_se": 0.0, "error": e - t}
                 for xi, e, t in zip(x, est, x**2, strict=True)]
    return pd.DataFrame(rows)


def test_curve_error_anchors_both_curves_and_bounds_the_relative_error():
    claim = _claim("curve_error", feature="x1", max=0.05)
    close = Tables(ranked=pd.DataFrame(), truth={}, other=pd.DataFrame(),
                   truth_error_reps=_error_reps(bias=0.0))
    row = _row(claim, close)
    assert row["verdict"] == REPRODUCED  # a constant offset is no error once anchored
    assert "RMS" in row["reproduced"] and "sup" in row["reproduced"]
    # e(x) = 0.5 (x + 2) after anchoring at x = -2: RMS 0.5 sqrt(mean (x + 2)^2) = 1.18 on
    # this grid, 30% of the truth's range 4
    off = Tables(ranked=pd.DataFrame(), truth={}, other=pd.DataFrame(),
                 truth_error_reps=_error_reps(bias=0.5))
    assert _row(claim, off)["verdict"] == NOT_REPRODUCED
    assert _row({**claim, "max": 0.25}, off)["verdict"] == NOT_REPRODUCED
    assert _row({**claim, "max": 0.35}, off)["verdict"] == REPRODUCED
    sup = _row({**claim, "measure": "sup", "relative": False, "max": 2.1}, off)
    assert sup["verdict"] == REPRODUCED  # the largest error is 0.5 * 4 = 2 at x = 2
    # anchored at the middle (x = 0) the largest error halves
    assert _row({**claim, "measure": "sup", "relative": False, "max": 1.1, "at": 0.0},
                off)["verdict"] == REPRODUCED
    missing = _row(_claim("curve_error", feature="x9", max=0.05), close)
    assert missing["verdict"] == NO_DATA and "x9" in missing["reason"]


def test_published_value_uses_the_prediction_interval_of_one_run():
    values = np.array([0.990, 0.992, 0.994, 0.996, 0.998])  # mean 0.994, sd 0.00316
    fits = pd.DataFrame({"scenario": "main", "learner": "rf", "method": "fit",
                         "rep": range(5), "metric": "r2_train", "value": values})
    tables = Tables(ranked=pd.DataFrame(), truth={}, other=fits)
    allowed = float(t_multiplier(3.0, 4)) * values.std(ddof=1) * np.sqrt(1 + 1 / 5)
    near = 0.994 + 0.9 * allowed
    far = 0.994 + 1.1 * allowed
    claim = _claim("published_value", method="fit", metric="r2_train")
    assert _row({**claim, "value": near}, tables)["verdict"] == REPRODUCED
    assert _row({**claim, "value": far}, tables)["verdict"] == NOT_REPRODUCED
    other = _row({**claim, "metric": "r2_oob", "value": 0.99}, tables)
    assert other["verdict"] == NO_DATA and "r2_train" in other["reason"]


def test_curve_gap_between_two_methods_of_the_same_curve():
    # stratpd and pdp of height are the same curve per repetition plus independent point
    # noise (sd 0.05 each): their gap has an RMS of about 0.05 sqrt(2) = 0.071 per repetition
    gap = {"feature": "height", "than": "pdp", "measure": "rms"}
    row = _row(_claim("curve_gap", **gap, value=0.1, compare="below"))
    assert row["verdict"] == REPRODUCED and "rms gap of height to pdp" in row["reproduced"]
    assert _row(_claim("curve_gap", **gap, value=0.05, compare="above"))[
        "verdict"] == REPRODUCED
    assert _row(_claim("curve_gap", **gap, value=0.05, compare="below"))[
        "verdict"] == NOT_REPRODUCED
    # relative to the range of pdp's curve (about 240): far below 1%
    assert _row(_claim("curve_gap", **gap, relative=True, value=0.01, compare="below"))[
        "verdict"] == REPRODUCED
    row = _row(_claim("curve_gap", **{**gap, "than": "ale"}, value=0.1, compare="below"))
    assert row["verdict"] == NO_DATA and "rf/ale" in row["reason"]
