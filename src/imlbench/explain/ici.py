"""Individual and partial permutation importance: ICI, PI, d-ICI (book ch. 10, after
Casalicchio et al. 2018).

For rows i and replacement values v_k of feature S (eq. 8):
  ICI_i(v_k) = L(y_i, f(v_k, x_C^(i))) - L(y_i, f(x^(i))),
an n x m matrix built from one ICE stack of the same rows. PI(v_k) = mean_i ICI_i(v_k) is the
partial importance curve; the mean of ICI_i over k is row i's share of the PFI (its integrated
ICI), and the mean of all entries is the PFI of eq. (4) when the v_k are the rows' own values.
d-ICI is the derivative of each ICI curve along v (a cubic smoothing spline per row, with the
smoothing chosen by generalised cross-validation, as sfsmisc::D1ss). Regressing the integrated
ICI on the other features with a depth-1 tree finds the feature that drives the heterogeneity
and its threshold; PI within the two sides of that split is the conditional importance plot.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from imlbench.explain.batching import DEFAULT_MAX_ROWS, Predict, predict_rows
from imlbench.explain.effects import ice
from imlbench.explain.importance import Loss


def individual_importance(
    predict: Predict,
    X: np.ndarray,
    y: np.ndarray,
    j: int,
    values: np.ndarray,
    loss: Loss,
    *,
    max_rows: int = DEFAULT_MAX_ROWS,
) -> np.ndarray:
    """The ICI matrix ICI_i(v_k), shape (len(X), len(values)); one stacked ICE evaluation."""
    base = loss(y, predict_rows(predict, X, max_rows))
    curves = ice(predict, X, j, np.asarray(values, dtype=float), max_rows=max_rows)
    return loss(y[:, None], curves) - base[:, None]


def derivative_ici(ici_matrix: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """d-ICI: the sorted distinct values and each row's smoothing-spline derivative there."""
    from scipy.interpolate import make_smoothing_spline

    order = np.argsort(values, kind="stable")
    v, first = np.unique(np.asarray(values, dtype=float)[order], return_index=True)
    if len(v) < 5:
        raise ValueError("d-ICI needs at least 5 distinct replacement values")
    curves = ici_matrix[:, order][:, first]
    return v, np.array([make_smoothing_spline(v, c).derivative()(v) for c in curves])


@dataclass(frozen=True)
class HeterogeneitySplit:
    """The depth-1 tree on the integrated ICI: feature (column of X), threshold, and the
    partial importance curves of the rows on each side."""

    feature: int
    threshold: float
    left: np.ndarray
    right: np.ndarray


def heterogeneity_split(
    ici_matrix: np.ndarray, X: np.ndarray, j: int, candidates: Sequence[int] | None = None
) -> HeterogeneitySplit:
    """Regress the integrated ICI on the other features with a stump (book ch. 10)."""
    from sklearn.tree import DecisionTreeRegressor

    others = [m for m in (candidates or range(X.shape[1])) if m != j]
    imp = ici_matrix.mean(axis=1)
    stump = DecisionTreeRegressor(max_depth=1).fit(X[:, others], imp)
    if stump.tree_.node_count < 3:
        raise ValueError("the integrated ICI has no split: importance is homogeneous")
    feature = others[int(stump.tree_.feature[0])]
    threshold = float(stump.tree_.threshold[0])
    side = X[:, feature] <= threshold
    return HeterogeneitySplit(feature, threshold, ici_matrix[side].mean(axis=0),
                              ici_matrix[~side].mean(axis=0))
