"""The generic local (per-row) methods by name, as study files use them: Shapley values,
LIME coefficients and ICI curves.

Each adapter turns a study file's parameters (declared with type, default and allowed values;
see :mod:`imlbench.explain.api`) into a call of the numerical function that implements the
method, and returns a tidy table.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.explain.api import (
    CATEGORICAL,
    DATA,
    FEATURES,
    ExplainContext,
    categorical,
    curves_frame,
    draw_indices,
    method,
)
from imlbench.explain.ici import (
    derivative_ici,
    heterogeneity_split,
    individual_importance,
    integrated_importance,
    partial_importance,
)
from imlbench.explain.importance import LOSSES, loss_named
from imlbench.explain.lime import DISTANCES, SAMPLINGS, SELECTIONS, default_kernel_width, lime_fits
from imlbench.explain.shapley import ESTIMATORS, shapley_exact, shapley_permutation, shapley_tree
from imlbench.params import choice, either, flag, integer, items, number


@method("shap", needs=lambda p: {"trees"} if p["estimator"].startswith("tree") else set(), params={
    **FEATURES, "estimator": choice("exact", ESTIMATORS),
    "n_background": integer(100, minimum=1), "n_rows": integer(100, minimum=1),
    "n_permutations": integer(10, minimum=1), **DATA,
})
def _shap(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Interventional Shapley values of ``n_rows`` rows against ``n_background`` rows (or, with
    ``estimator: tree_path``, the path-dependent values of a tree ensemble, no background),
    long format (one row per explained row and feature, with the feature's value: plotted,
    the SHAP dependence curve)."""
    X, _ = ctx.data(params)
    rows = X[np.sort(draw_indices(len(X), params["n_rows"], rng))]
    background = X[draw_indices(len(X), params["n_background"], rng)]
    if params["estimator"] == "exact":
        phi = shapley_exact(ctx.predict, rows, background, max_rows=ctx.max_rows)
    elif params["estimator"] == "permutation":
        phi = shapley_permutation(ctx.predict, rows, background, params["n_permutations"], rng,
                                  max_rows=ctx.max_rows)
    else:
        phi = shapley_tree(ctx.model, rows,
                           background if params["estimator"] == "tree" else None)
    S = ctx.features(params)
    return pd.DataFrame({
        "feature": np.tile([ctx.feature_names[j] for j in S], len(rows)),
        "row": np.repeat(np.arange(len(rows)), len(S)),
        "x": rows[:, S].ravel(),
        "value": phi[:, S].ravel(),
    })


LIME_OPTIONS = {
    "n_samples": integer(5000, minimum=1), "sampling": choice("local", SAMPLINGS),
    "local_sd": number(0.1, minimum=0), "distance": choice("euclidean", DISTANCES),
    "n_features": integer(None, minimum=1, nullable=True),
    "selection": choice("auto", SELECTIONS), "ridge": number(0.001, minimum=0),
}


@method("lime", params={
    "n_rows": integer(10, minimum=1), **LIME_OPTIONS,
    "kernel_width": either(number(None, minimum=0, nullable=True),
                           items(number(minimum=0, nullable=True)), default=None),
    "surrogate_fit": flag(False), **CATEGORICAL, **DATA,
})
def _lime(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """LIME coefficients of ``n_rows`` rows drawn from the data (one row per row and feature).

    A list ``kernel_width`` is a sweep: every width explains the same samples and predictions
    (:func:`lime_fits`), and a ``kernel_width`` column says which (a null width: the default,
    0.75 sqrt(p)).
    ``surrogate_fit`` adds the columns ``intercept`` and ``r2`` (the surrogate's weighted R^2,
    both repeated over the row's features) and ``selected`` (the selection kept the
    feature)."""
    X, _ = ctx.data(params)
    rows = X[np.sort(draw_indices(len(X), params["n_rows"], rng))]
    sweep = isinstance(params["kernel_width"], list | tuple)
    widths = list(params["kernel_width"]) if sweep else [params["kernel_width"]]
    fits = lime_fits(ctx.predict, X, rows, rng, kernel_widths=widths,
                     categorical=categorical(ctx, params), max_rows=ctx.max_rows,
                     **{k: params[k] for k in LIME_OPTIONS})
    p, n, v = X.shape[1], len(rows), len(widths)
    out = pd.DataFrame({
        "row": np.tile(np.repeat(np.arange(n), p), v),
        "feature": np.tile(ctx.feature_names, n * v),
        "value": fits.coef.ravel(),
    })
    if params["surrogate_fit"]:
        out["intercept"] = np.repeat(fits.intercept.ravel(), p)
        out["r2"] = np.repeat(fits.r2.ravel(), p)
        out["selected"] = fits.selected.ravel()
    if sweep:
        widths = [default_kernel_width(p) if w is None else w for w in widths]
        out.insert(0, "kernel_width", np.repeat(np.array(widths, dtype=float), n * p))
    return out


#: what ``ici`` returns: the ICI curves, or what the book derives from them (d-ICI, stump and
#: conditional PI)
ICI_OUTPUTS = ("curves", "heterogeneity")


@method("ici", params={**FEATURES, "n_values": integer(100, minimum=1),
                       "loss": choice("squared", tuple(LOSSES)),
                       "n_rows": integer(None, minimum=1, nullable=True),
                       "output": choice("curves", ICI_OUTPUTS),
                       "min_leaf": integer(7, minimum=1), **DATA})
def _ici(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """ICI curves (book ch. 10, eq. 8): the loss change of every row (or of ``n_rows`` rows
    drawn from the data) when x_j takes each of ``n_values`` values drawn from the rows; with
    ``output: heterogeneity`` what the book derives from them instead
    (:func:`heterogeneity_frame`)."""
    X, y = ctx.data(params)
    if params["n_rows"] is not None:
        keep = np.sort(draw_indices(len(X), params["n_rows"], rng))
        X, y = X[keep], y[keep]
    loss = loss_named(params["loss"])
    frames = []
    for j in ctx.features(params):
        values = X[np.sort(draw_indices(len(X), params["n_values"], rng)), j]
        mat = individual_importance(ctx.predict, X, y, j, values, loss, max_rows=ctx.max_rows)
        if params["output"] == "curves":
            frames.append(curves_frame(ctx.feature_names[j], values, mat))
        else:
            frames.append(heterogeneity_frame(ctx, X, j, values, mat, params["min_leaf"]))
    return pd.concat(frames, ignore_index=True)


def heterogeneity_frame(ctx: ExplainContext, X: np.ndarray, j: int, values: np.ndarray,
                        mat: np.ndarray, min_leaf: int) -> pd.DataFrame:
    """What the book derives from one ICI matrix, in long format with a ``part`` column:
    ``dici`` (each row's d-ICI curve: row, x, value), ``split`` (each row's integrated ICI as
    ``value`` with its ``side``, left (x <= threshold) or right, of the stump on the other
    features, its ``split_feature`` and ``threshold``) and ``pi`` (the PI curve of ``side``
    all, left and right: x, value; row -1)."""
    name = ctx.feature_names[j]
    grid, dici = derivative_ici(mat, values)
    split = heterogeneity_split(mat, X, j, min_leaf=min_leaf)
    on_left = X[:, split.feature] <= split.threshold
    stump = {"split_feature": ctx.feature_names[split.feature], "threshold": split.threshold}
    parts = [
        curves_frame(name, grid, dici).assign(part="dici"),
        pd.DataFrame({"feature": name, "row": np.arange(len(X)), "x": np.nan,
                      "value": integrated_importance(mat),
                      "side": np.where(on_left, "left", "right"), "part": "split"}),
    ]
    for side, curve in (("all", partial_importance(mat)), ("left", split.left),
                        ("right", split.right)):
        parts.append(pd.DataFrame({"feature": name, "row": -1, "x": values, "value": curve,
                                   "side": side, "part": "pi"}))
    return pd.concat(parts, ignore_index=True).assign(**stump)
