"""The stability of LIME explanations: the average standard deviation of the coefficients.

Book ch. 14 (Sect. 14.3, "sampling and stability"; Figs. 14.12-14.18) measures how much LIME
explanations of one point change from one run to the next: every point is explained R times on
fresh samples (the ``repeats`` of the ``lime`` method), each coefficient beta_{i,j} of point i
and feature j gets its standard deviation over the R repeats, and these are averaged over the
features and the points:

    avg_sd = 1/n sum_i [ 1/p sum_j sd_r(beta_{i,j,r}) ]

Smaller is more stable. Its standard error is the one over points: the n per-point means
1/p sum_j sd_r(beta_{i,j,r}) are independent given the model (fresh samples per point), so
SE = sd_i / sqrt(n). With several repetitions of the data and model (column ``rep``) a point
is a (rep, point) pair, and the SE over them includes the variation between models.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

#: the columns :func:`average_weight_sd` returns besides the ``by`` columns
STABILITY_COLUMNS = ["sd", "se", "n_points", "n_repeats"]


def point_keys(rows: pd.DataFrame, by: Sequence[str]) -> list[str]:
    """The columns that name one explained point within a group of ``by``: ``point``, and the
    repetition ``rep`` of the data and model when the rows have it and ``by`` does not hold it."""
    if "point" not in rows:
        raise ValueError("LIME rows without a 'point' column (the lime method's output names "
                         "the explained point in 'point')")
    return [c for c in ("rep", "point") if c in rows and c not in by]


def point_weight_sd(rows: pd.DataFrame, by: Sequence[str], *, selected_only: bool = False
                    ) -> pd.DataFrame:
    """Per group of ``by`` and explained point: the standard deviation (ddof 1) over the
    ``repeat`` column of every feature's coefficient ``value``, averaged over the features
    (column ``sd``), with the number of repeats (``n_repeats``, the smallest over features).
    ``selected_only``: see :func:`average_weight_sd`."""
    by = list(by)
    if "repeat" not in rows:
        raise ValueError("LIME rows without a 'repeat' column: the stability needs every point "
                         "explained several times (lime's 'repeats: R' with R >= 2)")
    if selected_only:
        if "selected" not in rows:
            raise ValueError("selected_only needs the 'selected' column (lime's "
                             "'surrogate_fit: true')")
        rows = rows[rows["selected"].astype(bool)]
    failed = rows["value"].isna()
    rows = rows[~failed]
    keys = [*by, *point_keys(rows, by)]
    per = rows.groupby([*keys, "feature"], sort=False)["value"].agg(["std", "count"])
    if selected_only or failed.any():
        per = per[per["count"] >= 2]
    elif (per["count"] < 2).any():
        raise ValueError("a point has a feature explained fewer than 2 times: the sd over "
                         "repeats needs 'repeats: R' with R >= 2")
    out = per.groupby(level=keys, sort=False).agg(sd=("std", "mean"), n_repeats=("count", "min"))
    return out.reset_index()


def average_weight_sd(rows: pd.DataFrame, by: Sequence[str], *, selected_only: bool = False
                      ) -> pd.DataFrame:
    """Book ch. 14's stability measure per group of ``by`` (e.g. ``["scenario", "learner",
    "method", "n_features"]``): the standard deviation over repeats of each (point, feature)
    coefficient, averaged over features and points (``sd``), its standard error over points
    (``se``: the sd of the per-point averages over sqrt(n); NaN with one point), the number
    of points (``n_points``) and of repeats (``n_repeats``, the smallest).

    ``rows`` are the ``lime`` method's long rows: ``point``, ``repeat``, ``feature``,
    ``value`` and the ``by`` columns (and ``rep``, see :func:`point_keys`). A feature the
    selection dropped has coefficient 0 in that repeat and counts with that 0; with
    ``selected_only`` (rows with lime's ``selected`` column) a feature's sd is taken over the
    repeats that selected it, and features selected fewer than twice for a point are left out
    of its average, as R lime returns the weights of the selected features only. A failed
    explanation (NaN weights: every sample weighted 0) is left out the same way."""
    return summarise_points(point_weight_sd(rows, by, selected_only=selected_only), by)


def summarise_points(per_point: pd.DataFrame, by: Sequence[str]) -> pd.DataFrame:
    """:func:`average_weight_sd` from the per-point table of :func:`point_weight_sd`."""
    by = list(by)
    g = per_point.groupby(by, sort=False) if by else per_point.groupby(lambda _: 0)
    out = g.agg(sd=("sd", "mean"), sd_points=("sd", "std"), n_points=("sd", "size"),
                n_repeats=("n_repeats", "min"))
    out["se"] = out["sd_points"] / np.sqrt(out["n_points"])
    out = out.reset_index(drop=not by)
    return out[[*by, *STABILITY_COLUMNS]]


def prediction_rows(rows: pd.DataFrame) -> pd.DataFrame:
    """The explanation's own prediction at its point, g(x) = intercept + sum_j beta_j x_j,
    one row per explanation (``feature`` "prediction", ``value`` g(x)), to be read by
    :func:`average_weight_sd` like weights: its sd over repeats says whether repeated
    explanations agree on the level of the surface at x, which the weights alone miss when a
    fit has (almost) no weighted samples (book ch. 14.5, Fig. 14.18). Needs lime's
    ``intercept`` and ``x`` columns (``surrogate_fit: true``)."""
    if "intercept" not in rows or "x" not in rows:
        raise ValueError("the explanation's prediction needs the 'intercept' and 'x' columns "
                         "(lime's 'surrogate_fit: true')")
    keys = [c for c in rows.columns if c not in ("feature", "value", "x", "intercept", "r2",
                                                  "selected", "row")]
    g = rows.assign(value=rows["value"] * rows["x"]).groupby(keys, sort=False, dropna=False)
    out = g.agg(value=("value", lambda v: v.sum(skipna=False)), intercept=("intercept", "first"))
    out["value"] = out["value"] + out["intercept"]
    return out.drop(columns="intercept").reset_index().assign(feature="prediction")

