"""Two numbers the book reads off its data rather than a model: a Pearson correlation of two
columns (the Munich living area against rooms, ch. 6) and the count of rows with a feature in
a range (the points inside the spike of ch. 7, Ex. 4)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.explain.api import DATA, ExplainContext, method
from imlbench.explain.methods_effects import TWO_FEATURES
from imlbench.params import feature_name, items, number


@method("book_ale.pearson", kind="metric", params={**TWO_FEATURES, **DATA})
def _pearson(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Pearson's correlation of the two ``features`` over the rows (metric ``pearson``)."""
    X, _ = ctx.data(params)
    j, k = ctx.features(params)
    r = float(np.corrcoef(X[:, j], X[:, k])[0, 1])
    return pd.DataFrame({"metric": ["pearson"], "value": [r]})


@method("book_ale.rows_within", kind="metric", params={"feature": feature_name(),
                                               "range": items(number(), length=2), **DATA})
def _rows_within(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """The number of rows whose ``feature`` lies in the closed ``range`` (metric
    ``rows_within``)."""
    X, _ = ctx.data(params)
    lo, hi = params["range"]
    x = X[:, ctx.index(params["feature"])]
    count = float(((x >= lo) & (x <= hi)).sum())
    return pd.DataFrame({"metric": ["rows_within"], "value": [count]})
