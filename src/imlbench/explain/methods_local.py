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
from imlbench.explain.lime import (
    DISTANCES,
    KERNELS,
    LOCAL_UNITS,
    POINT_AT,
    REPRESENTATIONS,
    SAMPLINGS,
    SELECTIONS,
    default_kernel_width,
    explained_points,
    lime_fits,
)
from imlbench.explain.shapley import ESTIMATORS, shapley_exact, shapley_permutation, shapley_tree
from imlbench.params import choice, either, flag, integer, items, number, table, text


@method("shap", kind="local",
        needs=lambda p: {"trees"} if p["estimator"].startswith("tree") else set(), params={
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
    "local_sd": number(0.1, above=0), "local_units": choice("sd", LOCAL_UNITS),
    "kernel": choice("lime", KERNELS), "distance": choice("euclidean", DISTANCES),
    "representation": choice("raw", REPRESENTATIONS),
    "selection": choice("auto", SELECTIONS), "ridge": number(0.001, minimum=0),
    "include_point": flag(True),
    "repeats": integer(1, minimum=1),
}
#: one item of ``points`` (:func:`imlbench.explain.lime.explained_points`)
LIME_POINT = table({
    "at": choice(None, POINT_AT), "values": table(value=number()),
    "row": integer(minimum=0), "draw": integer(minimum=1),
    "where": table(value=table({"below": number(), "above": number()})),
    "label": text(),
})


@method("lime", kind="local", params={
    "n_rows": integer(10, minimum=1), "shared_rows": flag(False),
    "points": items(LIME_POINT, None, nullable=True), **LIME_OPTIONS,
    "kernel_width": either(number(None, above=0, nullable=True),
                           items(number(above=0, nullable=True), unique=True), default=None),
    "n_features": either(integer(None, minimum=1, nullable=True),
                         items(integer(minimum=1, nullable=True), unique=True), default=None),
    "surrogate_fit": flag(False), **CATEGORICAL, **DATA,
})
def _lime(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """LIME coefficients (:mod:`imlbench.explain.lime`) of the ``points`` (constructed points,
    given rows or rows drawn under bounds; :func:`explained_points`), or else of ``n_rows``
    rows drawn from the data, each explained ``repeats`` times on fresh samples. The rows are
    drawn from the method's own stream, or with ``shared_rows`` from the study's fixed stream
    ``lime_rows``: then every scenario, learner, method and repetition whose data have as many
    rows explains the same rows (book ch. 14 draws its points once for all its runs), and the
    stability claims compare their steps point by point
    (:mod:`imlbench.metrics.lime_claims`).

    Long format, one row per (point, repeat, feature): ``point`` (its label), ``repeat``,
    ``row`` (its index in the data rows; -1 for a constructed point), ``feature``, ``x`` (the
    point's value of the feature) and ``value`` (the coefficient). A list ``kernel_width``
    or ``n_features`` is a sweep on the same samples and predictions (:func:`lime_fits`),
    with a ``kernel_width`` (a null width: the default, 0.75 sqrt(p)) or ``n_features``
    column (null: all features). ``surrogate_fit`` adds the columns ``intercept`` and ``r2``
    (the surrogate's weighted R^2, both repeated over the point's features) and ``selected``
    (the selection kept the feature)."""
    X, _ = ctx.data(params)
    cat = categorical(ctx, params)
    if params["points"] is None:
        draw = ctx.fixed_rng("lime_rows") if params["shared_rows"] else rng
        index = np.sort(draw_indices(len(X), params["n_rows"], draw))
        points = explained_points(X, [{"row": int(i)} for i in index], ctx.feature_names, cat,
                                  rng)
    else:
        points = explained_points(X, params["points"], ctx.feature_names, cat, rng)
    sweeps = {key: isinstance(params[key], list | tuple) for key in ("kernel_width",
                                                                    "n_features")}
    widths, ks = ([*params[key]] if sweeps[key] else [params[key]]
                  for key in ("kernel_width", "n_features"))
    fits = lime_fits(ctx.predict, X, points.X, rng, kernel_widths=widths, n_features=ks,
                     categorical=cat, max_rows=ctx.max_rows,
                     **{k: params[k] for k in LIME_OPTIONS})
    p, n, reps = X.shape[1], len(points.labels), params["repeats"]
    cells = len(widths) * len(ks)
    out = pd.DataFrame({
        "point": np.tile(np.repeat(points.labels, reps * p), cells),
        "repeat": np.tile(np.repeat(np.arange(reps), p), cells * n),
        "row": np.tile(np.repeat(points.rows, reps * p), cells),
        "feature": np.tile(ctx.feature_names, cells * n * reps),
        "x": np.tile(np.repeat(points.X, reps, axis=0).ravel(), cells),
        "value": fits.coef.ravel(),
    })
    if params["surrogate_fit"]:
        out["intercept"] = np.repeat(fits.intercept.ravel(), p)
        out["r2"] = np.repeat(fits.r2.ravel(), p)
        out["selected"] = fits.selected.ravel()
    block = n * reps * p
    if sweeps["n_features"]:
        named = np.array([p if k is None else k for k in ks], dtype=int)
        out.insert(0, "n_features", np.tile(np.repeat(named, block), len(widths)))
    if sweeps["kernel_width"]:
        widths = [default_kernel_width(p) if w is None else w for w in widths]
        out.insert(0, "kernel_width", np.repeat(np.array(widths, dtype=float),
                                                len(ks) * block))
    return out


#: what ``ici`` returns: the ICI curves, or what the book derives from them (d-ICI, stump and
#: conditional PI)
ICI_OUTPUTS = ("curves", "heterogeneity")


@method("ici", kind="effect", params={**FEATURES, "n_values": integer(100, minimum=1),
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
