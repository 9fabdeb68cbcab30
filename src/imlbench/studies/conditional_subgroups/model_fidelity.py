"""Model fidelity of feature-effect curves (Molnar et al., conditional subgroups, Sect. 9).

The partial function f_j of an effect method predicts from x_j alone: the value of its curve
at the observed x_j. Its model fidelity (eq. 7, after Szepannek 2019) is the mean squared
error on the test rows

    MF(f^, f_j) = (1/n) sum_i (f^(x^(i)) - f_j(x_j^(i)))^2,

reported here both against the model's predictions f^(x^(i)) (eq. 7) and against the observed
targets y^(i) (what the authors' code computes and Table 5 reports). The curves follow the
authors' code:

``pdp``       the PDP on the training rows over an equidistant grid (20 points), linearly
              interpolated at the test x_j; test rows outside the grid are left out;
``ale``       the ALE on the training rows (20 quantile intervals, centred on the data) plus
              the mean training prediction (the paper's f_j^{ALE,adj}), interpolated likewise;
cs-PDPs       for each subgroup tree (CART or the distribution tree, fitted on the training
              rows to predict x_j from x_-j; Sect. 4), the PDP of the subgroup's training rows
              evaluated at the subgroup's test rows; a subgroup whose training rows hold one
              value of x_j predicts their mean prediction. The loss is
              sum_w n_w MSE_w / sum_w n_w over the subgroups w, n_w the subgroup's test rows
              (the curves are not aggregated into one conditional PDP).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from imlbench.explain.ale import ale_edges, ale_first_order
from imlbench.explain.batching import DEFAULT_MAX_ROWS, Predict, predict_rows
from imlbench.explain.effects import partial_dependence
from imlbench.explain.grids import make_grid
from imlbench.explain.samplers import fit_sampler

#: the authors' code: iml's default PDP grid and ALE intervals (20 each).
PDP_GRID: dict[str, Any] = {"kind": "equidistant", "size": 20}
ALE_INTERVALS: dict[str, Any] = {"kind": "quantile", "size": 20}
#: the subgroup trees of Table 5: CART with rpart's defaults (min leaf 7, cp 0.01) and the
#: distribution tree (our stand-in for transformation trees, min node 30), depths 1 and 2.
SUBGROUPS: dict[str, dict[str, Any]] = {
    f"{label}{d}": {"tree": tree, "max_depth": d, "min_node_size": size}
    for d in (1, 2) for label, tree, size in (("cart", "cart", 7), ("trtr", "distribution", 30))
}
TARGETS = ("y", "model")


def on_curve(x: np.ndarray, grid: np.ndarray, values: np.ndarray) -> np.ndarray:
    """The curve through (grid, values) at x, linear between grid points; NaN outside the grid
    (R's ``approx`` with ``rule = 1``, as iml's ``FeatureEffect$predict``)."""
    out = np.interp(x, grid, values)
    out[(x < grid[0]) | (x > grid[-1])] = np.nan
    return out


def grouped_mse(pred: np.ndarray, target: np.ndarray, groups: np.ndarray
                ) -> tuple[float, float, int]:
    """sum_w n_w MSE_w / sum_w n_w over the groups w with a prediction, MSE_w over the rows
    of w with a prediction (NaN = none), n_w all rows of w; its test-split standard error
    sd(squared errors) / sqrt(rows used); and the count of rows used."""
    ok = np.isfinite(pred)
    sq = (pred - target) ** 2
    total, weight = 0.0, 0
    for w in np.unique(groups):
        rows = groups == w
        used = rows & ok
        if used.any():
            total += rows.sum() * np.mean(sq[used])
            weight += int(rows.sum())
    n = int(ok.sum())
    se = float(np.std(sq[ok], ddof=1) / np.sqrt(n)) if n > 1 else np.nan
    return (total / weight if weight else np.nan), se, n


def _subgroup_curves(
    predict: Predict, X_train: np.ndarray, X_test: np.ndarray, f_train: np.ndarray, j: int,
    g_train: np.ndarray, g_test: np.ndarray, grid: Mapping[str, Any], max_rows: int,
) -> np.ndarray:
    """Each test row's value on the PDP of its subgroup's training rows (see module doc)."""
    pred = np.full(len(X_test), np.nan)
    for w in np.unique(g_test):
        tr, te = g_train == w, g_test == w
        xs = X_train[tr, j]
        if len(np.unique(xs)) == 1:
            pred[te] = f_train[tr].mean()
            continue
        g = make_grid(xs, grid)
        curve = partial_dependence(predict, X_train[tr], j, g, max_rows=max_rows)
        pred[te] = on_curve(X_test[te, j], g, curve)
    return pred


def model_fidelity(
    predict: Predict,
    X_train: np.ndarray,
    X_test: np.ndarray,
    y_test: np.ndarray,
    features: Sequence[int],
    rng: np.random.Generator,
    *,
    grid: Mapping[str, Any] | None = None,
    intervals: Mapping[str, Any] | None = None,
    subgroups: Mapping[str, Mapping[str, Any]] | None = None,
    max_rows: int = DEFAULT_MAX_ROWS,
) -> pd.DataFrame:
    """The model fidelity of the PDP, the ALE and the cs-PDPs of each feature (module doc).

    ``subgroups`` maps a label to the ``subgroups`` sampler parameters of one tree
    (:func:`imlbench.explain.samplers.fit_sampler`; default :data:`SUBGROUPS`). Returns one
    row per feature, effect and target (``against``: ``y`` or ``model``) with the loss
    (``value``), its test-split standard error (``se``), the test rows used (``n_used``) and
    the number of subgroups (``n_groups``).
    """
    grid = dict(PDP_GRID if grid is None else grid)
    intervals = dict(ALE_INTERVALS if intervals is None else intervals)
    subgroups = SUBGROUPS if subgroups is None else subgroups
    f_train = predict_rows(predict, X_train, max_rows)
    f_test = predict_rows(predict, X_test, max_rows)
    targets = dict(zip(TARGETS, (np.asarray(y_test, dtype=float), f_test), strict=True))
    one_group = np.zeros(len(X_test), dtype=int)
    rows = []
    for j in features:
        x = X_test[:, j]
        g = make_grid(X_train[:, j], grid)
        curves = {"pdp": (on_curve(x, g, partial_dependence(predict, X_train, j, g,
                                                             max_rows=max_rows)), one_group)}
        edges = ale_edges(X_train[:, j], intervals)
        ale = ale_first_order(predict, X_train, j, edges, max_rows=max_rows)[0]
        curves["ale"] = (on_curve(x, edges, ale) + f_train.mean(), one_group)
        for label, params in subgroups.items():
            fs = fit_sampler("subgroups", X_train, j, rng, params)
            g_train, g_test = fs.groups(X_train), fs.groups(X_test)
            curves[label] = (_subgroup_curves(predict, X_train, X_test, f_train, j, g_train,
                                              g_test, grid, max_rows), g_test)
        for effect, (pred, groups) in curves.items():
            for against, target in targets.items():
                value, se, n_used = grouped_mse(pred, target, groups)
                rows.append({"feature": j, "effect": effect, "against": against,
                             "value": value, "se": se, "n_used": n_used,
                             "n_groups": len(np.unique(groups))})
    return pd.DataFrame(rows)
