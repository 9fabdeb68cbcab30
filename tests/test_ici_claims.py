"""The layer's claim kinds on partial and individual importance
(:mod:`imlbench.metrics.ici_claims`), each on a case that holds and one that fails, and the
shared smoothing spline of the d-ICI against scipy's."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from imlbench.explain.ici import smoothing_spline_fits
from imlbench.metrics.claims import CLAIMS, INCONCLUSIVE, NOT_REPRODUCED, REPRODUCED, Tables

GRID = np.linspace(-4, 4, 41)
REPS = 12


def _claim(kind: str, scenario: str = "s", **params) -> dict:
    return {"id": "c", "kind": kind, "text": "", "published": "",
            "where": {"scenario": scenario, "learner": "rf", "method": "m"}, **params}


def _rows(kind: str, est: pd.DataFrame, **params) -> list[dict]:
    return CLAIMS.get(kind)(_claim(kind, **params), Tables(pd.DataFrame(), {}, est))


def _verdict(kind: str, est: pd.DataFrame, **params) -> str:
    (row,) = _rows(kind, est, **params)
    return row["verdict"]


def _tag(df: pd.DataFrame, scenario: str = "s") -> pd.DataFrame:
    return df.assign(scenario=scenario, learner="rf", method="m", feature="x2")


def _dici(spike_at: float | None, scenario: str = "s", seed: int = 0) -> pd.DataFrame:
    """d-ICI rows of 5 rows per repetition: |d| grows mildly with |x|, plus a spike of 10 at
    ``spike_at`` (None: none)."""
    rng = np.random.default_rng(seed)
    rows = []
    for rep in range(REPS):
        for row in range(5):
            value = 1 + 0.1 * np.abs(GRID) + 0.2 * rng.random(len(GRID))
            if spike_at is not None:
                value = value + 10 * (np.abs(GRID - spike_at) < 0.1)
            rows.append(pd.DataFrame({"rep": rep, "row": row, "x": GRID, "value": value}))
    return _tag(pd.concat(rows).assign(part="dici"), scenario)


def test_dici_peak_location_holds_at_the_spike_and_fails_elsewhere():
    est = _dici(2.0)
    assert _verdict("dici_peak", est, feature="x2", value=2.0, atol=0.0) == REPRODUCED
    assert _verdict("dici_peak", est, feature="x2", value=-1.0, atol=0.5) == NOT_REPRODUCED
    # without a spike the peak lies at an end of the grid: not at 2
    assert _verdict("dici_peak", _dici(None), feature="x2", value=2.0,
                    atol=0.5) == NOT_REPRODUCED
    # a range that excludes the spike moves the peak
    assert _verdict("dici_peak", est, feature="x2", value=2.0, atol=0.5,
                    range=[-4, 1]) == NOT_REPRODUCED


def test_dici_peak_ratio_against_another_scenario():
    """A curve without a spike is less peaked than one with a spike (unpaired, over reps)."""
    est = pd.concat([_dici(None, "flat"), _dici(2.0, "spiky", seed=1)])
    flat_below = {"feature": "x2", "measure": "ratio", "value": 0.0, "compare": "below"}
    assert _verdict("dici_peak", est, scenario="flat", than_scenario="spiky",
                    **flat_below) == REPRODUCED
    assert _verdict("dici_peak", est, scenario="spiky", than_scenario="flat",
                    **flat_below) == NOT_REPRODUCED
    with pytest.raises(ValueError, match="measure location"):
        _rows("dici_peak", est, scenario="flat", feature="x2", value=2.0, compare="below")


def _curves(shift: float, slope_right: float = 1.0) -> pd.DataFrame:
    """ICI curves of 3 rows per repetition whose mean is (x - shift)^2 for x < shift and
    slope_right (x - shift)^2 above; 0.01 rep-to-rep noise."""
    rng = np.random.default_rng(2)
    rows = []
    for rep in range(REPS):
        base = np.where(GRID < shift, 1.0, slope_right) * (GRID - shift) ** 2
        for row, off in enumerate((-1.0, 0.0, 1.0)):
            rows.append(pd.DataFrame({"rep": rep, "row": row, "x": GRID,
                                      "value": base + off + 0.01 * rng.normal()}))
    return _tag(pd.concat(rows))


def test_pi_extreme_finds_the_minimum_of_the_mean_curve():
    est = _curves(0.0)
    assert _verdict("pi_extreme", est, feature="x2", value=0.0, atol=0.0) == REPRODUCED
    assert _verdict("pi_extreme", _curves(1.6), feature="x2", value=0.0,
                    atol=0.5) == NOT_REPRODUCED


def test_pi_region_compares_the_mean_pi_of_two_ranges():
    est = _curves(0.0, slope_right=2.0)  # steeper on the right
    right_above = {"feature": "x2", "range": [2, 4], "than_range": [-4, -2], "value": 0.0,
                   "compare": "above"}
    assert _verdict("pi_region", est, **right_above) == REPRODUCED
    flipped = {**right_above, "range": [-4, -2], "than_range": [2, 4]}
    assert _verdict("pi_region", est, **flipped) == NOT_REPRODUCED
    # the same from the pi rows of output heterogeneity (side all), curve rows ignored
    pi = est.groupby(["rep", "x"], as_index=False)["value"].mean()
    het = _tag(pi.assign(part="pi", side="all", row=-1, split_feature="x3", threshold=0.5))
    assert _verdict("pi_region", het, **right_above) == REPRODUCED
    assert _rows("pi_region", het, **right_above)[0]["reproduced"] == \
        _rows("pi_region", est, **right_above)[0]["reproduced"]


def _splits(features: list[str], thresholds: list[float]) -> pd.DataFrame:
    rows = [pd.DataFrame({"rep": rep, "row": np.arange(4), "x": np.nan, "value": 1.0,
                          "side": ["left", "left", "right", "right"], "part": "split",
                          "split_feature": f, "threshold": t})
            for rep, (f, t) in enumerate(zip(features, thresholds, strict=True))]
    return _tag(pd.concat(rows))


def test_stump_split_counts_the_chosen_feature_and_its_threshold():
    est = _splits(["x3"] * REPS, [0.5] * REPS)
    rows = _rows("stump_split", est, feature="x2", split_feature="x3", threshold=0.5, k=2)
    assert [r["verdict"] for r in rows] == [REPRODUCED, REPRODUCED]
    assert _verdict("stump_split", est, feature="x2", split_feature="x1") == NOT_REPRODUCED
    rows = _rows("stump_split", est, feature="x2", split_feature="x3", threshold=0.9, k=2)
    assert rows[1]["verdict"] == NOT_REPRODUCED
    # 7 of 12: more than half, but not significantly so
    half = _splits(["x3"] * 7 + ["x1"] * 5, [0.5] * REPS)
    assert _verdict("stump_split", half, feature="x2", split_feature="x3", k=2) == INCONCLUSIVE
    # thresholds that scatter around the value: a prediction interval of one run
    spread = _splits(["dis"] * REPS, list(2.0 + 0.2 * np.sin(np.arange(REPS))))
    rows = _rows("stump_split", spread, feature="x2", split_feature="dis", threshold=2.165)
    assert rows[1]["verdict"] == REPRODUCED


def _conditional(gap: float) -> pd.DataFrame:
    """PI rows: all at x^2, left gap above it, right gap below it."""
    rng = np.random.default_rng(3)
    rows = []
    for rep in range(REPS):
        for side, sign in (("all", 0.0), ("left", 1.0), ("right", -1.0)):
            rows.append(pd.DataFrame({"rep": rep, "row": -1, "x": GRID, "side": side,
                                      "value": GRID ** 2 + sign * gap + 0.1 * rng.normal(
                                          size=len(GRID)),
                                      "part": "pi", "split_feature": "x3",
                                      "threshold": 0.5}))
    return _tag(pd.concat(rows))


def test_split_pi_holds_in_every_bin_or_fails():
    est = _conditional(1.0)
    left_above = {"feature": "x2", "split_feature": "x3", "side": "left", "compare": "above",
                  "bins": 4}
    assert _verdict("split_pi", est, **left_above) == REPRODUCED
    assert _verdict("split_pi", est, **{**left_above, "side": "right"}) == NOT_REPRODUCED
    assert _verdict("split_pi", est, **{**left_above, "side": "right",
                                        "compare": "below"}) == REPRODUCED
    (row,) = _rows("split_pi", est, **{**left_above, "split_feature": "x1"})
    assert row["verdict"] == "no data" and "chose x1 in 0 of" in row["reason"]


def test_smoothing_spline_equals_scipys_at_a_given_smoothing():
    from scipy.interpolate import make_smoothing_spline

    rng = np.random.default_rng(4)
    v = np.sort(rng.uniform(0, 6, 40))
    curves = np.sin(v)[None, :] + 0.2 * rng.normal(size=(3, 40))
    # both solve the same ill-conditioned system in different bases (ours: the eigenvectors of
    # the penalty K), so their rounding differs by up to eps x cond(K) of the curves' scale
    # (cond(K) = 2.7e9 on these knots, 6e-7; BLAS kernels move the differences seen, 7e-8)
    from imlbench.explain.ici import _penalty

    k = _penalty(v)[0]
    cond = k.max() / k[k > 1e-12 * k.max()].min()
    atol = np.finfo(float).eps * cond * np.abs(curves).max()
    for lam in (1e-3, 0.1, 10.0):
        ours = smoothing_spline_fits(v, curves, lam=lam)
        theirs = np.array([make_smoothing_spline(v, c, lam=lam)(v) for c in curves])
        np.testing.assert_allclose(ours, theirs, rtol=0, atol=atol)


def test_gcv_smoothing_recovers_a_noisy_sine_better_than_the_data():
    """GCV picks a smoothing between interpolation and a straight line: the fit is closer
    to sin than the noisy values are."""
    rng = np.random.default_rng(5)
    v = np.sort(rng.uniform(0, 6, 80))
    noisy = np.sin(v)[None, :] + 0.3 * rng.normal(size=(4, 80))
    fits = smoothing_spline_fits(v, noisy)
    assert np.mean((fits - np.sin(v)) ** 2) < 0.3 * np.mean((noisy - np.sin(v)) ** 2)
