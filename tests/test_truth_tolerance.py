"""The one tolerance of estimate-vs-truth comparisons (:mod:`imlbench.metrics.truth_tolerance`):
an exact estimate equal to its truth up to rounding reproduces and one off by more than
rounding does not; a truth's own Monte Carlo SE widens every comparison with it
(``matches_truth``, ``curve_slope`` with ``truth:``, ``curve_error``, ``closer_to_truth``)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from imlbench.explain.estimands import truth_frame
from imlbench.metrics.claims import (
    CLAIMS,
    INCONCLUSIVE,
    NO_DATA,
    NOT_REPRODUCED,
    REPRODUCED,
    Tables,
)
from imlbench.metrics.truth_errors import long_truths, rep_errors, summarise_errors
from imlbench.metrics.truth_tolerance import FP_ATOL, FP_RTOL, fp_floor, truth_se_of
from imlbench.stats import t_multiplier

GRID = np.linspace(-1.0, 1.0, 9)
REPS = 5
#: the least-squares slope weights of GRID: sum |w_i| = sum |x_i| / sum x_i^2 = 5 / 3.75
SLOPE_W = GRID / (GRID @ GRID)


def _truths(values: np.ndarray, se: float) -> dict[tuple[str, str], pd.DataFrame]:
    """A truth ``interventional`` of x with ``values`` at GRID and Monte Carlo SE ``se``."""
    return {("sc", "effects"): truth_frame("interventional", "x", values, x=GRID, se=se)}


def _curves(method: str, curve, wiggle: np.ndarray | None = None) -> pd.DataFrame:
    """REPS repetitions of ``curve`` at GRID, plus ``wiggle[r] * sin(3 x + r)`` in rep r."""
    w = np.zeros(REPS) if wiggle is None else wiggle
    return pd.DataFrame([{"scenario": "sc", "learner": "truth", "method": method, "rep": r,
                          "feature": "x", "x": x, "value": curve(x) + w[r] * np.sin(3 * x + r)}
                         for r in range(REPS) for x in GRID])


def _tables(other: pd.DataFrame, values: np.ndarray, se: float = 0.0) -> Tables:
    truths = _truths(values, se)
    reps = rep_errors(other, long_truths(truths)["sc"], "interventional")
    return Tables(ranked=pd.DataFrame(), truth={}, other=other, truths=truths,
                  truth_error_reps=reps, truth_errors=summarise_errors(reps))


def _row(kind: str, tables: Tables, method: str = "ale", **params) -> dict:
    claim = {"id": "c", "kind": kind, "text": "", "published": "",
             "where": {"scenario": "sc", "learner": "truth", "method": method}, **params}
    (row,) = CLAIMS.get(kind)(claim, tables)
    return row


def test_the_floor_is_relative_to_the_scale_plus_an_absolute_floor():
    assert fp_floor(0.0) == FP_ATOL
    assert fp_floor(-2.0) == pytest.approx(2.0 * FP_RTOL + FP_ATOL, rel=1e-12)
    # any correlation between the truth's points: the SE is at most sum |g_i| se_i
    assert truth_se_of([0.5, -0.25], [0.1, 0.2]) == pytest.approx(0.1)


@pytest.mark.parametrize("off, verdict", [(1e-12, REPRODUCED), (1e-6, NOT_REPRODUCED)])
def test_an_exact_estimate_reproduces_up_to_rounding_only(off, verdict):
    # the ALE of the true f on its own grid in every repetition: SE 0, closed-form truth 2x
    t = _tables(_curves("ale", lambda x: 2 * x + off), 2 * GRID)
    assert t.truth_errors["se"].max() == 0.0 and t.truth_errors["truth_se"].max() == 0.0
    row = _row("matches_truth", t, anchor="none")
    assert row["verdict"] == verdict
    assert "SE_truth" in row["tolerance"] and "floating-point floor" in row["tolerance"]


def test_an_exact_estimate_with_a_rounding_sized_spread_reproduces():
    # errors of 1e-12 +- 1e-13 over the repetitions (rounding of a deterministic method):
    # t' SE alone (about 6e-13) would call the 1e-12 bias a departure; rounding explains it
    wiggle = np.array([1e-13, -1e-13, 2e-13, -2e-13, 0.0])
    t = _tables(_curves("ale", lambda x: 2 * x + 1e-12, wiggle), 2 * GRID)
    point = t.truth_errors.query("anchor == 'none'")
    assert (point["bias"].abs() > t_multiplier(3.0, REPS - 1) * point["se"]).any()
    assert _row("matches_truth", t, anchor="none")["verdict"] == REPRODUCED


@pytest.mark.parametrize("off, verdict", [(1e-12, REPRODUCED), (1e-6, NO_DATA)])
def test_one_repetition_reproduces_within_rounding_and_has_no_se_beyond(off, verdict):
    other = _curves("ale", lambda x: 2 * x + off).query("rep == 0")
    row = _row("matches_truth", _tables(other, 2 * GRID), anchor="none")
    assert row["verdict"] == verdict
    if verdict == NO_DATA:
        assert "2 repetitions" in row["reason"]


@pytest.mark.parametrize("off, verdict", [(1e-13, REPRODUCED), (1e-6, NOT_REPRODUCED)])
def test_an_exact_slope_against_its_closed_form_value(off, verdict):
    # slope exactly 2 in every repetition (SE 0): rounding off the claimed 2 reproduces
    t = _tables(_curves("ale", lambda x: (2 + off) * x), 2 * GRID)
    row = _row("curve_slope", t, feature="x", range=[-1, 1], value=2.0)
    assert row["verdict"] == verdict
    assert "floating-point floor" in row["tolerance"]


def _slope_truth(miss: float) -> np.ndarray:
    """A Monte Carlo truth of the true curve x whose slope is off by ``miss``."""
    return GRID * (1.0 + miss)


def test_a_slope_missing_its_truth_by_the_truths_own_error_is_not_a_miss():
    se = 0.01
    truth_slope_se = se * np.abs(SLOPE_W).sum()  # 0.0133: the bound over correlations
    claim = {"feature": "x", "range": [-1, 1], "value": 0.0, "truth": "interventional"}
    exact = _curves("ale", lambda x: x)  # the true f's curve, SE 0 over repetitions
    # the truth's slope misses by 2 of its SEs: within t' SE_truth (t' > 4 at 4 df)
    near = _tables(exact, _slope_truth(2 * truth_slope_se), se=se)
    row = _row("curve_slope", near, **claim)
    assert row["verdict"] == REPRODUCED
    assert f"largest {truth_slope_se:.3g}" in row["tolerance"]
    # the same miss against a closed-form truth (SE 0) is a departure
    exact_truth = _tables(exact, _slope_truth(2 * truth_slope_se), se=0.0)
    assert _row("curve_slope", exact_truth, **claim)["verdict"] == NOT_REPRODUCED
    # a miss of far more than the truth's error still is
    far = _tables(exact, _slope_truth(0.5), se=se)  # 37 truth SEs
    assert _row("curve_slope", far, **claim)["verdict"] == NOT_REPRODUCED


def test_curve_error_counts_the_truths_error_in_its_bound():
    # the true curve x against a truth off by 0.02 x: RMS error about 0.013 in every rep
    other = _curves("ale", lambda x: x)
    claim = {"feature": "x", "max": 0.02, "relative": False, "at": 0.0}
    assert _row("curve_error", _tables(other, GRID * 1.02), **claim)["verdict"] == REPRODUCED
    # a truth with Monte Carlo SE 0.01 cannot tell 0.013 from the bound 0.02
    row = _row("curve_error", _tables(other, GRID * 1.02, se=0.01), **claim)
    assert row["verdict"] == INCONCLUSIVE and "SE_truth" in row["tolerance"]


def test_closer_to_truth_counts_the_truths_error_in_the_paired_difference():
    wiggle = np.full(REPS, 0.001) * np.arange(REPS)
    other = pd.concat([_curves("ale", lambda x: x, wiggle),
                       _curves("pdp", lambda x: 1.05 * x, wiggle)], ignore_index=True)
    claim = {"than": "pdp", "truth": "interventional", "anchor": "none", "k": 2.0}
    assert _row("closer_to_truth", _tables(other, GRID), **claim)["verdict"] == REPRODUCED
    # the truth one SE of 0.05 away at each point could as well lie nearer the PDP
    row = _row("closer_to_truth", _tables(other, GRID, se=0.05), **claim)
    assert row["verdict"] == INCONCLUSIVE and "SE_truth" in row["tolerance"]
