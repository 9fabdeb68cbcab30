"""The layer's claim kinds on LIME stability (:mod:`imlbench.metrics.lime_claims`), each on a
case that holds and one that fails, on synthetic LIME rows whose coefficient sd is known."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from imlbench.metrics.claims import CLAIMS, INCONCLUSIVE, NOT_REPRODUCED, REPRODUCED, Tables

POINTS, REPEATS, FEATURES = 10, 10, ("x1", "x2")


def _lime(sd: float, seed: int, **cols) -> pd.DataFrame:
    """LIME rows of 10 points x 10 repeats x 2 features whose coefficients scatter with
    ``sd`` around a point's own mean."""
    rng = np.random.default_rng(seed)
    n = POINTS * REPEATS * len(FEATURES)
    return pd.DataFrame({
        "point": np.repeat([f"p{i}" for i in range(POINTS)], REPEATS * len(FEATURES)),
        "repeat": np.tile(np.repeat(np.arange(REPEATS), len(FEATURES)), POINTS),
        "feature": np.tile(FEATURES, POINTS * REPEATS),
        "value": np.repeat(rng.normal(size=POINTS), REPEATS * len(FEATURES))
        + sd * rng.standard_normal(n), "rep": 0, **cols})


def _curve(sds: list[float], *, along: str = "learner", method: str = "m", seed: int = 0
           ) -> pd.DataFrame:
    """One curve: step k has sd ``sds[k]`` (learner ``l<k>``, method ``method``, scenario s;
    along a column: the column ``n_features`` = k + 1 of one learner and method)."""
    frames = []
    for k, sd in enumerate(sds):
        if along == "learner":
            cols = {"scenario": "s", "learner": f"l{k}", "method": method}
        elif along == "method":
            cols = {"scenario": "s", "learner": "l", "method": f"{method}{k}"}
        else:
            cols = {"scenario": "s", "learner": "l", "method": method, "n_features": k + 1}
        frames.append(_lime(sd, seed * 100 + k, **cols))
    return pd.concat(frames, ignore_index=True)


def _verdict(kind: str, rows: pd.DataFrame, **params) -> str:
    claim = {"id": "c", "kind": kind, "text": "", "published": "", **params}
    (row,) = CLAIMS.get(kind)(claim, Tables(pd.DataFrame(), {}, rows))
    return row["verdict"]


def _trend(rows: pd.DataFrame, trend: str, k: int, along: str = "learner", **params) -> str:
    named = {"learner": {"learners": [f"l{i}" for i in range(k)]},
             "method": {"methods": [f"m{i}" for i in range(k)]}}.get(along, {})
    where = {"scenario": "s", "learner": "l0" if along == "learner" else "l",
             "method": "m0" if along == "method" else "m"}
    return _verdict("lime_sd_trend", rows, where=where, along=along, trend=trend,
                    **named, **params)


@pytest.mark.parametrize(("trend", "holds", "fails"), [
    ("decreasing", [1.0, 0.7, 0.5, 0.35], [1.0, 0.7, 0.9, 0.35]),
    ("increasing", [0.3, 0.5, 0.8, 1.2], [0.3, 0.5, 0.3, 1.2]),
    ("falls", [1.0, 1.1, 0.5], [0.5, 0.6, 1.0]),
    ("rises", [0.5, 0.4, 1.0], [1.0, 1.1, 0.5]),
    ("flat", [0.5, 0.5, 0.5, 0.5, 0.5], [0.3, 0.5, 0.7, 0.9, 1.1]),
    ("not_rising", [0.9, 0.8, 0.7, 0.6, 0.5], [0.3, 0.5, 0.7, 0.9, 1.1]),
    ("not_falling", [0.3, 0.5, 0.7, 0.9, 1.1], [0.9, 0.8, 0.7, 0.6, 0.5]),
    ("flattening", [1.0, 0.5, 0.3, 0.25, 0.2], [1.0, 0.9, 0.8, 0.5, 0.2]),
    ("inverted_u", [0.3, 0.3, 0.8, 0.8, 0.3, 0.3], [0.3, 0.4, 0.5, 0.6, 0.7, 0.8]),
])
def test_trend_holds_and_fails(trend: str, holds: list[float], fails: list[float]) -> None:
    assert _trend(_curve(holds), trend, len(holds)) == REPRODUCED
    assert _trend(_curve(fails), trend, len(fails)) == NOT_REPRODUCED


def test_trend_along_a_column_and_a_method_list_with_a_range() -> None:
    rows = _curve([1.0, 0.6, 0.4, 0.4, 0.4], along="n_features")
    assert _trend(rows, "decreasing", 5, along="n_features", between=[1, 3]) == REPRODUCED
    assert _trend(rows, "flat", 5, along="n_features", between=[3, 5]) == REPRODUCED
    rows = _curve([1.0, 0.6, 0.4], along="method")
    assert _trend(rows, "decreasing", 3, along="method", at=[1000, 2000, 4000]) == REPRODUCED


def test_trend_too_close_to_call_is_inconclusive() -> None:
    assert _trend(_curve([0.50, 0.49, 0.48]), "decreasing", 3) == INCONCLUSIVE


def _contrast(rows: pd.DataFrame, compare: str, **params) -> str:
    return _verdict("lime_sd_contrast", rows, along="learner", learners=["l0", "l1", "l2"],
                    where={"scenario": "s", "learner": "l0", "method": "bins"},
                    compare=compare, **params)


def test_contrast_worst_option_holds_and_fails() -> None:
    rows = pd.concat([_curve([1.0, 0.8, 0.6], method="bins", seed=1),
                      _curve([0.5, 0.4, 0.3], method="kde", seed=2),
                      _curve([0.5, 0.4, 1.2], method="normal", seed=3)])
    assert _contrast(rows, "above", than_methods=["kde"]) == REPRODUCED
    assert _contrast(rows, "above", than_methods=["kde", "normal"]) == NOT_REPRODUCED


def test_contrast_equal_options_and_chunked_method_curves() -> None:
    rows = pd.concat([_curve([0.5, 0.4, 0.3], method="kde", seed=2),
                      _curve([0.5, 0.4, 0.3], method="normal", seed=3),
                      _curve([0.9, 0.4, 0.3], method="bad", seed=4)])
    eq = {"where": {"scenario": "s", "learner": "l0", "method": "kde"}, "compare": "equal"}
    assert _verdict("lime_sd_contrast", rows, along="learner", learners=["l0", "l1", "l2"],
                    than_methods=["normal"], **eq) == REPRODUCED
    assert _verdict("lime_sd_contrast", rows, along="learner", learners=["l0", "l1", "l2"],
                    than_methods=["bad"], **eq) == NOT_REPRODUCED
    rows = pd.concat([_curve([1.0, 0.8], along="method", method="b", seed=5),
                      _curve([0.5, 0.4], along="method", method="k", seed=6)])
    assert _verdict("lime_sd_contrast", rows, along="method", methods=["b0", "b1"],
                    than_methods=["k0", "k1"], where={"scenario": "s", "learner": "l",
                                                      "method": "b0"}) == REPRODUCED
    with pytest.raises(ValueError, match="multiple"):
        _verdict("lime_sd_contrast", rows, along="method", methods=["b0", "b1"],
                 than_methods=["k0"], where={"scenario": "s", "learner": "l", "method": "b0"})


@pytest.mark.parametrize("steps", [2, 5])
def test_the_multiplier_along_methods_is_the_claims_not_the_number_of_steps(steps: int) -> None:
    """Curves along a list of methods take the claim's k (default 2 one-sided, 3 for equal)
    whatever the number of methods: the count of steps once stood in for the multiplier."""
    rows = pd.concat([_curve([1.0 - 0.1 * i for i in range(steps)], along="method",
                             method="b", seed=5),
                      _curve([0.5 - 0.05 * i for i in range(steps)], along="method",
                             method="k", seed=6)])
    claim = {"id": "c", "kind": "lime_sd_contrast", "text": "", "published": "",
             "along": "method", "methods": [f"b{i}" for i in range(steps)],
             "than_methods": [f"k{i}" for i in range(steps)],
             "where": {"scenario": "s", "learner": "l", "method": "b0"}}
    for compare, k in (("above", "t(2)"), ("equal", "t(3)")):
        (row,) = CLAIMS.get("lime_sd_contrast")({**claim, "compare": compare},
                                                Tables(pd.DataFrame(), {}, rows))
        assert f"half-width {k} SE" in row["tolerance"], row["tolerance"]


def test_missing_rows_say_why() -> None:
    rows = _curve([1.0, 0.5])
    claim = {"id": "c", "kind": "lime_sd_trend", "text": "", "published": "",
             "where": {"scenario": "s", "learner": "l0", "method": "m"}, "along": "learner",
             "learners": ["l0", "l9"], "trend": "decreasing"}
    (row,) = CLAIMS.get("lime_sd_trend")(claim, Tables(pd.DataFrame(), {}, rows))
    assert "s/l9/m" in row["reason"]


def _uneven_points(factors: list[float], *, shared: bool, seed: int = 7, points: int = 7,
                   repeats: int = 200) -> pd.DataFrame:
    """Steps (learners l<k>) whose 10 points differ tenfold in their own sd: point i has sd
    base_i * factors[k], each explained ``repeats`` times (its sd known within about 5%).
    ``shared``: every step explains the same points (labels p0..p9, one base per point); else
    each step its own points (labels s<k>p<i>, bases drawn anew). ``points`` seeds the shared
    bases, ``seed`` the rest."""
    bases = np.exp(np.random.default_rng(points).uniform(np.log(0.1), np.log(1.0), POINTS))
    rng = np.random.default_rng(seed)
    frames = []
    for k, f in enumerate(factors):
        b = bases if shared else np.exp(rng.uniform(np.log(0.1), np.log(1.0), POINTS))
        sd = np.repeat(b * f, repeats * len(FEATURES))
        labels = [f"p{i}" if shared else f"s{k}p{i}" for i in range(POINTS)]
        frames.append(pd.DataFrame({
            "point": np.repeat(labels, repeats * len(FEATURES)),
            "repeat": np.tile(np.repeat(np.arange(repeats), len(FEATURES)), POINTS),
            "feature": np.tile(FEATURES, POINTS * repeats),
            "value": sd * rng.standard_normal(len(sd)), "rep": 0,
            "scenario": "s", "learner": f"l{k}", "method": "m"}))
    return pd.concat(frames, ignore_index=True)


def test_steps_on_the_same_points_are_compared_point_by_point() -> None:
    """A 15% drop at every point is clear when both steps explain the same points (the
    points' own differences cancel) and lost in the points' spread when they do not."""
    factors = [1.0, 0.85]
    shared = _uneven_points(factors, shared=True)
    assert _trend(shared, "falls", 2) == REPRODUCED
    (row,) = CLAIMS.get("lime_sd_trend")(
        {"id": "c", "kind": "lime_sd_trend", "text": "", "published": "", "trend": "falls",
         "along": "learner", "learners": ["l0", "l1"],
         "where": {"scenario": "s", "learner": "l0", "method": "m"}},
        Tables(pd.DataFrame(), {}, shared))
    assert "paired" in row["tolerance"], row["tolerance"]
    assert _trend(_uneven_points(factors, shared=False), "falls", 2) == INCONCLUSIVE


def test_contrast_of_options_on_the_same_points_is_paired() -> None:
    """Two options, one 15% above the other at every point: on the same points the difference
    is found; on other points (drawn per step, or the same count of other points at every
    step) it is not."""
    def verdict(b: pd.DataFrame) -> str:
        a = _uneven_points([1.0, 1.0], shared=True).assign(method="bins")
        return _verdict("lime_sd_contrast", pd.concat([a, b.assign(method="k")]),
                        along="learner", learners=["l0", "l1"], compare="above",
                        where={"scenario": "s", "learner": "l0", "method": "bins"},
                        than_methods=["k"])

    assert verdict(_uneven_points([0.85, 0.85], shared=True, seed=8)) == REPRODUCED
    other = _uneven_points([0.85, 0.85], shared=True, seed=8, points=9)
    assert verdict(other.assign(point="o" + other["point"])) == INCONCLUSIVE
    assert verdict(_uneven_points([0.85, 0.85], shared=False, seed=8)) == INCONCLUSIVE
