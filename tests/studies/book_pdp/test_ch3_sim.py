"""The claims of the book's ch. 3.3 simulations, ``contrast`` claims on the statistics
``book_pdp.span``, ``book_pdp.rms_spread``, ``book_pdp.rms_error`` and ``book_pdp.pull``
(:mod:`imlbench.studies.book_pdp.statistics`), each on a case that holds and one that fails,
from synthetic PDP curves and truth tables."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from imlbench.explain.estimands import TRUTH_COLUMNS
from imlbench.metrics.claims import CLAIMS, NO_DATA, NOT_REPRODUCED, REPRODUCED, Tables
from imlbench.studies.book_pdp import statistics  # noqa: F401  (registers them)

X = np.linspace(-3, 3, 50)
REPS = 20


def _curves(scenario: str, learner: str, values, feature: str = "x1") -> pd.DataFrame:
    """Curves (rep, x, value) of ``values(rep, x)`` for 20 repetitions, each on a grid that
    differs slightly (as PDP grids from min to max of each data set do)."""
    rows = []
    for rep in range(REPS):
        x = X * (1 + 0.01 * (rep % 3))
        rows.append(pd.DataFrame({"scenario": scenario, "learner": learner, "method": "pdp",
                                  "rep": rep, "feature": feature, "x": x,
                                  "value": values(rep, x)}))
    return pd.concat(rows, ignore_index=True)


def _truth(scenario: str, f, feature: str = "x1", points: int = 19) -> dict:
    grid = np.linspace(-1.6, 1.6, points)
    t = pd.DataFrame({"estimand": "pd", "feature": feature, "row": -1, "x": grid,
                      "value": f(grid), "se": 0.0, "lo": np.nan, "hi": np.nan})
    return {(scenario, "effects"): t[list(TRUTH_COLUMNS)]}


def _row(statistic: str, tables: Tables, scenario: str = "a", learner: str = "rf",
         **params) -> dict:
    claim = {"id": "c", "kind": "contrast", "figure": "f", "text": "t", "published": "p",
             "where": {"scenario": scenario, "learner": learner, "method": "pdp"},
             "statistic": f"book_pdp.{statistic}", "feature": "x1", "range": [-2.0, 2.0],
             **params}
    (row,) = CLAIMS.get("contrast")(claim, tables)
    return row


def _ratio(statistic: str, tables: Tables, **params) -> dict:
    """A ratio of the statistic's means over repetitions against another cell (``than``)."""
    return _row(statistic, tables, test="log_ratio", **params)


def _tables(*frames: pd.DataFrame, truths: dict | None = None) -> Tables:
    return Tables(ranked=pd.DataFrame(), truth={}, other=pd.concat(frames, ignore_index=True),
                  truths=truths or {})


def _number_after(prefix: str, text: str) -> float:
    return float(re.search(re.escape(prefix) + r"(-?[0-9.]+)", text).group(1))


def _noise(scale: float):
    rng = np.random.default_rng(int(scale * 1000))
    shifts = rng.normal(0, scale, REPS)
    slopes = rng.normal(0, scale, REPS)
    return shifts, slopes


def test_ratio_of_ranges_between_scenarios():
    # slope 1 against slope 0.5 (+- a little): ranges 4 and 2 on [-2, 2]
    _, s = _noise(0.02)
    wide = _curves("a", "rf", lambda r, x: (1 + s[r]) * x)
    narrow = _curves("b", "rf", lambda r, x: (0.5 + s[r]) * x)
    t = _tables(wide, narrow)
    holds = _ratio("span", t, scenario="b", than={"scenario": "a"},
                 value=1.0, compare="below")
    fails = _ratio("span", t, scenario="a", than={"scenario": "b"},
                 value=1.0, compare="below")
    assert holds["verdict"] == REPRODUCED
    assert _number_after("ratio ", holds["reproduced"]) == pytest.approx(0.5, abs=0.02)
    assert fails["verdict"] == NOT_REPRODUCED


def test_ratio_of_spreads_between_learners():
    a_shift, _ = _noise(0.3)
    b_shift, _ = _noise(0.05)
    t = _tables(_curves("a", "rf", lambda r, x: x + a_shift[r]),
                _curves("a", "lm", lambda r, x: x + b_shift[r]))
    holds = _ratio("rms_spread", t, than={"learner": "lm"}, compare="above")
    fails = _ratio("rms_spread", t, learner="lm", than={"learner": "rf"},
                 compare="above")
    assert holds["verdict"] == REPRODUCED
    assert fails["verdict"] == NOT_REPRODUCED


def test_ratio_of_errors_against_the_true_pd():
    _, s = _noise(0.02)
    truths = {**_truth("a", lambda g: g), **_truth("b", lambda g: g)}
    good = _curves("a", "rf", lambda r, x: (1 + s[r]) * x)  # close to its truth x
    bad = _curves("b", "rf", lambda r, x: (0.5 + s[r]) * x)  # half its slope
    t = _tables(good, bad, truths=truths)
    holds = _ratio("rms_error", t, scenario="b", than={"scenario": "a"},
                 compare="above")
    fails = _ratio("rms_error", t, scenario="b", than={"scenario": "a"},
                 value=1.0)  # "equally far": the errors differ tenfold
    assert holds["verdict"] == REPRODUCED
    assert fails["verdict"] == NOT_REPRODUCED


def test_ratio_without_the_other_side_has_no_data():
    t = _tables(_curves("a", "rf", lambda r, x: x))
    row = _ratio("span", t, than={"scenario": "b"})
    assert row["verdict"] == NO_DATA and row["reason"]


def test_pull_toward_a_common_effect():
    # own truth sin(3x); target x + sin(3x); curves halfway: lambda 0.5 (+- noise)
    _, s = _noise(0.05)
    truths = _truth("a", lambda g: np.sin(3 * g))
    half = _curves("a", "rf", lambda r, x: np.sin(3 * x) + (0.5 + s[r]) * x + 0.3)
    t = _tables(half, truths=truths)
    above = _row("pull", t, toward="x + sin(3*x)", value=0.0, compare="above")
    below = _row("pull", t, toward="x + sin(3*x)", value=1.0, compare="below")
    equal_zero = _row("pull", t, toward="x + sin(3*x)", value=0.0)
    assert above["verdict"] == REPRODUCED and below["verdict"] == REPRODUCED
    assert equal_zero["verdict"] == NOT_REPRODUCED
    assert _number_after("]: ", above["reproduced"]) == pytest.approx(0.5, abs=0.03)


def test_a_flattened_own_effect_is_not_a_pull():
    # the own effect sin(3x) at 60% of its amplitude, no x term: lambda 0, not the 0.4 x
    # share that a flatter sine has in common with x on [-1.6, 1.6] (a fine truth grid, so
    # that its linear interpolation does not differ from the sine)
    truths = _truth("a", lambda g: np.sin(3 * g), points=2001)
    flat = _curves("a", "rf", lambda r, x: (0.6 + 0.01 * r) * np.sin(3 * x))
    t = _tables(flat, truths=truths)
    holds = _row("pull", t, toward="x + sin(3*x)", value=0.0, atol=0.01)
    fails = _row("pull", t, toward="x + sin(3*x)", value=0.0, compare="above")
    assert holds["verdict"] == REPRODUCED and fails["verdict"] != REPRODUCED


def test_a_linear_pull_is_the_excess_slope():
    # own effect x, target 2x (collinear: alpha fixed at 1): slope 1.3 is lambda 0.3
    t = _tables(_curves("a", "rf", lambda r, x: (1.3 + 0.01 * (r % 5)) * x),
                truths=_truth("a", lambda g: g))
    row = _row("pull", t, toward="2*x", value=0.32, atol=0.01)
    assert row["verdict"] == REPRODUCED
    assert _row("pull", t, toward="2*x", value=1.0, compare="above")["verdict"] \
        == NOT_REPRODUCED


def test_ratio_not_larger():
    _, s = _noise(0.02)
    t = _tables(_curves("a", "rf", lambda r, x: (1 + s[r]) * x),
                _curves("b", "rf", lambda r, x: (0.5 + s[r]) * x))
    smaller = _ratio("span", t, scenario="b", than={"scenario": "a"},
                   compare="at_most")
    larger = _ratio("span", t, scenario="a", than={"scenario": "b"},
                  compare="at_most")
    assert smaller["verdict"] == REPRODUCED and larger["verdict"] == NOT_REPRODUCED


def test_pull_refuses_a_bad_target():
    t = _tables(_curves("a", "rf", lambda r, x: x), truths=_truth("a", lambda g: g))
    with pytest.raises(ValueError, match="toward"):
        _row("pull", t, toward="x + y1")


# ---- the truth's own Monte Carlo error (Sample.truth)


def _mc_truth(scenario: str, f, se: float, declared: float, points: int = 19) -> dict:
    """A Monte Carlo truth of x1: f at a grid of ``points`` on [-1.6, 1.6] plus its error,
    a fixed draw of sd ``se`` at each point (seeded), declared with SE ``declared``."""
    grid = np.linspace(-1.6, 1.6, points)
    miss = se * np.random.default_rng(11).standard_normal(points)
    t = pd.DataFrame({"estimand": "pd", "feature": "x1", "row": -1, "x": grid,
                      "value": f(grid) + miss, "se": declared, "lo": np.nan, "hi": np.nan})
    return {(scenario, "effects"): t[list(TRUTH_COLUMNS)]}


@pytest.mark.parametrize("declared, slope, verdict", [
    (0.02, 0.0, REPRODUCED),      # the pull the truth's own error fakes: within its SE
    (0.0, 0.0, NOT_REPRODUCED),   # the same miss, the truth's SE left out: a false departure
    (0.02, 0.3, NOT_REPRODUCED),  # a real pull of 0.3, 15 truth SEs: still a departure
])
def test_pull_allows_for_the_truths_monte_carlo_error(declared, slope, verdict):
    # the estimate is the true PD sin(3x) (+ a pull of ``slope`` x, + rounding-sized noise);
    # the truth misses sin(3x) by draws of sd 0.02 (its Monte Carlo error), so lambda against
    # it is off 0 by the error that error gives it, with a t' SE of the estimate of ~1e-5 only
    truths = _mc_truth("a", lambda g: np.sin(3 * g), 0.02, declared)
    curves = _curves("a", "rf", lambda r, x: np.sin(3 * x) + (slope + 1e-4 * (r % 3)) * x)
    row = _row("pull", _tables(curves, truths=truths), toward="x + sin(3*x)", value=0.0)
    assert row["verdict"] == verdict
    assert ("SE_truth" in row["tolerance"]) and "floating-point floor" in row["tolerance"]


@pytest.mark.parametrize("declared, factor, verdict", [
    (0.02, 1.0, REPRODUCED), (0.0, 1.0, NOT_REPRODUCED), (0.02, 1.5, NOT_REPRODUCED)])
def test_rms_error_ratio_allows_for_the_truths_monte_carlo_error(declared, factor, verdict):
    # both scenarios' estimates follow their true PD x (b: ``factor`` x, + small noise); b's
    # truth misses x by draws of sd 0.02: b's RMS error is ~0.02 against a's ~0.006, a ratio
    # that the truth's error alone explains (the estimates' own SE is far smaller)
    _, s = _noise(0.001)
    t = _tables(_curves("a", "rf", lambda r, x: (1 + s[r]) * x + 0.005 * np.sin(4 * x)),
                _curves("b", "rf", lambda r, x: (factor + s[r]) * x),
                truths={**_truth("a", lambda g: g),
                        **_mc_truth("b", lambda g: g, 0.02, declared)})
    row = _ratio("rms_error", t, scenario="b", than={"scenario": "a"}, value=1.0,
                 compare="at_most")
    assert row["verdict"] == verdict


@pytest.mark.parametrize("own, wiggle, collinear", [
    (lambda x: np.sin(3 * x), lambda x: 0.05 * np.cos(7 * x), False),
    (lambda x: x, lambda x: 0.01 * x**3, True)])
def test_the_pulls_derivative_by_the_truth_is_its_finite_difference(own, wiggle, collinear):
    """:func:`pull_fit`'s d lambda / dt (both branches: a sine's own effect against x + sine,
    and a linear one whose target 2x leaves own and u collinear) against central differences
    of lambda in each truth value (step 1e-6: the difference quotient's error is O(h^2) of
    lambda's curvature, its rounding 1e-16 / 1e-6; 1e-7 of the derivatives' scale covers
    both)."""
    from imlbench.studies.book_pdp.statistics import COLLINEAR, _centred, pull_fit

    x = np.linspace(-1.5, 1.5, 15)
    t = own(x) + wiggle(x)
    est = _centred(np.sin(3 * x) + 0.4 * x + 0.02 * np.cos(5 * x))
    g = x + own(x)
    o, u = _centred(t), _centred(g) - _centred(t)
    assert (abs(o @ u) >= COLLINEAR * np.sqrt((o @ o) * (u @ u))) == collinear

    def lam(tv: np.ndarray) -> float:
        return pull_fit(est, _centred(tv), _centred(g) - _centred(tv))[0]

    _, grad, _ = pull_fit(est, _centred(t), _centred(g) - _centred(t))
    h = 1e-6
    numeric = np.array([(lam(t + h * e) - lam(t - h * e)) / (2 * h) for e in np.eye(len(x))])
    assert np.abs(grad - numeric).max() <= 1e-7 * np.abs(numeric).max()
