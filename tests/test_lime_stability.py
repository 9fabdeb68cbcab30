"""Book ch. 14's stability measure (:mod:`imlbench.metrics.lime_stability`) against values
computed by hand, and its errors on rows it cannot read."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from imlbench.metrics.lime_stability import average_weight_sd


def _rows(values: dict[tuple[str, str], list[float]], **cols) -> pd.DataFrame:
    """Long LIME rows from {(point, feature): coefficients of the repeats}."""
    out = [{"point": p, "feature": f, "repeat": r, "value": v, **cols}
           for (p, f), vs in values.items() for r, v in enumerate(vs)]
    return pd.DataFrame(out)


def test_average_of_sds_over_features_then_points() -> None:
    rows = _rows({("a", "x1"): [0, 2], ("a", "x2"): [1, 1],      # sds sqrt(2), 0
                  ("b", "x1"): [0, 4], ("b", "x2"): [3, 7]})     # sds 2 sqrt(2), 2 sqrt(2)
    (got,) = average_weight_sd(rows, []).to_dict("records")
    per_point = np.array([np.sqrt(2) / 2, 2 * np.sqrt(2)])
    assert got["sd"] == pytest.approx(per_point.mean())
    assert got["se"] == pytest.approx(per_point.std(ddof=1) / np.sqrt(2))
    assert (got["n_points"], got["n_repeats"]) == (2, 2)


def test_groups_and_repetitions_make_separate_points() -> None:
    one = _rows({("a", "x1"): [0, 2], ("b", "x1"): [0, 4]}, width=1.0, rep=0)
    two = _rows({("a", "x1"): [5, 5], ("b", "x1"): [1, 1]}, width=2.0, rep=0)
    again = _rows({("a", "x1"): [0, 6], ("b", "x1"): [0, 6]}, width=1.0, rep=1)
    got = average_weight_sd(pd.concat([one, two, again]), ["width"]).set_index("width")
    assert got.loc[2.0, "sd"] == 0.0
    assert got.loc[1.0, "n_points"] == 4  # (rep, point) pairs
    sds = np.sqrt(2) * np.array([1, 2, 3, 3])
    assert got.loc[1.0, "sd"] == pytest.approx(sds.mean())
    assert got.loc[1.0, "se"] == pytest.approx(sds.std(ddof=1) / 2)


def test_rows_it_cannot_read() -> None:
    rows = _rows({("a", "x1"): [1.0]})
    with pytest.raises(ValueError, match="R >= 2"):
        average_weight_sd(rows, [])
    with pytest.raises(ValueError, match="'repeat'"):
        average_weight_sd(rows.drop(columns="repeat"), [])
    with pytest.raises(ValueError, match="'point'"):
        average_weight_sd(rows.drop(columns="point"), [])


def test_selected_only_reads_the_repeats_that_kept_a_feature() -> None:
    rows = _rows({("a", "x1"): [1, 3, 0], ("a", "x2"): [0, 0, 5]})
    rows["selected"] = rows["value"] != 0
    (all_,) = average_weight_sd(rows, []).to_dict("records")
    (kept,) = average_weight_sd(rows, [], selected_only=True).to_dict("records")
    assert all_["sd"] == pytest.approx((np.std([1, 3, 0], ddof=1) + np.std([0, 0, 5], ddof=1))
                                       / 2)
    assert kept["sd"] == pytest.approx(np.sqrt(2))  # x1 over its 2 repeats; x2 kept once
    with pytest.raises(ValueError, match="'selected'"):
        average_weight_sd(rows.drop(columns="selected"), [], selected_only=True)


def test_failed_explanations_are_left_out() -> None:
    rows = _rows({("a", "x1"): [1, 3, np.nan], ("b", "x1"): [np.nan, np.nan, 2]})
    (got,) = average_weight_sd(rows, []).to_dict("records")
    assert (got["sd"], got["n_points"]) == (pytest.approx(np.sqrt(2)), 1)


def test_prediction_rows_evaluate_each_explanation_at_its_point() -> None:
    from imlbench.metrics.lime_stability import prediction_rows

    rows = pd.DataFrame({"point": "a", "repeat": [0, 0, 1, 1], "feature": ["x1", "x2"] * 2,
                         "value": [1.0, 2.0, 0.0, np.nan], "x": [3.0, 4.0] * 2,
                         "intercept": [0.5, 0.5, 1.0, np.nan]})
    got = prediction_rows(rows).set_index("repeat")["value"]
    assert got[0] == pytest.approx(0.5 + 3 + 8)
    assert np.isnan(got[1])
    with pytest.raises(ValueError, match="surrogate_fit"):
        prediction_rows(rows.drop(columns="intercept"))
