"""The claim kind ``published_value`` on a feature's importance (one run's printed value, book
ch. 8-9): it reads the importance estimates (``Tables.ranked``) of the named feature and scores
their mean over the repetitions with the prediction interval of one run."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from imlbench.metrics.claims import CLAIM_KEYS, CLAIMS, NO_DATA, NOT_REPRODUCED, REPRODUCED, Tables
from imlbench.params import check_all
from imlbench.stats import t_multiplier

X1 = np.array([2.0, 2.2, 2.4, 2.6, 2.8])  # mean 2.4, sd 0.316
X2 = np.array([0.5, 0.6, 0.4, 0.55, 0.45])
RANKED = pd.DataFrame({
    "scenario": "main", "learner": "lm", "method": "pfi", "rep": [*range(5), *range(5)],
    "feature": ["x1"] * 5 + ["x2"] * 5, "value": [*X1, *X2],
    "rank": [2.0] * 5 + [1.0] * 5})
# a metric table of the same method: a feature claim must not read it
OTHER = pd.DataFrame({"scenario": "main", "learner": "lm", "method": "pfi", "rep": range(5),
                      "metric": "x1", "value": 100.0})
TABLES = Tables(ranked=RANKED, truth={}, other=OTHER)


def _claim(**params) -> dict:
    return {"id": "c-imp", "kind": "published_value", "figure": "fig", "text": "t",
            "published": "p", "source": "paper_number",
            "where": {"scenario": "main", "learner": "lm", "method": "pfi"}, **params}


def _row(claim: dict) -> dict:
    check_all(CLAIMS.get("published_value").params,
              {k: v for k, v in claim.items() if k not in CLAIM_KEYS})
    (row,) = CLAIMS.get("published_value")(claim, TABLES)
    return row


def test_published_importance_holds_within_the_prediction_interval_of_one_run():
    allowed = float(t_multiplier(3.0, 4)) * X1.std(ddof=1) * np.sqrt(1 + 1 / 5)
    near = _row(_claim(feature="x1", value=2.4 + 0.9 * allowed))
    assert near["verdict"] == REPRODUCED and "importance of x1: 2.4" in near["reproduced"]
    far = _row(_claim(feature="x1", value=2.4 + 1.1 * allowed))
    assert far["verdict"] == NOT_REPRODUCED


def test_published_importance_of_a_feature_the_method_lacks_has_no_data():
    row = _row(_claim(feature="x3", value=1.0))
    assert row["verdict"] == NO_DATA and "x1, x2" in row["reason"]


def test_published_value_needs_exactly_one_of_metric_and_feature():
    with pytest.raises(ValueError, match="exactly one of metric"):
        _row(_claim(feature="x1", metric="r2_train", value=1.0))
    with pytest.raises(ValueError, match="exactly one of metric"):
        _row(_claim(value=1.0))


def test_a_published_mean_of_several_runs_has_the_narrower_interval_of_that_mean():
    """A value printed as the mean of 10 runs (book ch. 9: 10 splits) is scored against the
    prediction interval of a mean of 10 further runs, sd sqrt(1/10 + 1/R)."""
    tk = float(t_multiplier(3.0, 4))
    of_one = tk * X1.std(ddof=1) * np.sqrt(1 + 1 / 5)
    of_ten = tk * X1.std(ddof=1) * np.sqrt(1 / 10 + 1 / 5)
    value = 2.4 + (of_one + of_ten) / 2  # inside the interval of one run, outside that of ten
    assert _row(_claim(feature="x1", value=value))["verdict"] == REPRODUCED
    row = _row(_claim(feature="x1", value=value, runs=10))
    assert row["verdict"] == NOT_REPRODUCED
    assert "sqrt(1/10 + 1/reps)" in row["tolerance"] and "the mean of 10 runs" in row["tolerance"]
    assert _row(_claim(feature="x1", value=2.4 + 0.9 * of_ten, runs=10))["verdict"] == REPRODUCED
