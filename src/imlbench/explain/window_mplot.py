"""The M-plot with a sliding window: the "conditional PDP" of Molnar et al. (conditional
subgroups, Figs. 2 and 5), registered as the method ``mplot_window``.

At each grid value z the curve is the mean prediction of the rows whose x_j lies in the window
[z - w/2, z + w/2]:
    M_j(z) = sum_i f(x_i) 1{|x_ij - z| <= w/2} / sum_i 1{|x_ij - z| <= w/2},
a local-average estimate of E[f(X) | X_j = z] (Apley & Zhu's marginal plot). Unlike the
interval M-plot of :func:`imlbench.explain.effects.marginal_plot`, neighbouring windows may
overlap (the paper's figures use 30 grid values and w = range/20 or range/10).

``mplot_window`` params: ``features``, ``grid`` (default 30 equidistant values over the
training range of x_j), ``width`` (the window as a share of that range, default 0.05) and
``data`` (the rows averaged: ``train`` or ``test``). It returns one row per feature and grid
value: ``x``, ``value`` (NaN for an empty window) and ``count``, the rows in the window.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.explain.api import DATA, FEATURES, ExplainContext, method
from imlbench.explain.batching import DEFAULT_MAX_ROWS, Predict, predict_rows
from imlbench.explain.grids import GRID_FIELDS, make_grid
from imlbench.params import number, table

#: the curve's grid: by default 30 equidistant values over the training range of x_j
WINDOW_GRID = {"grid": table(GRID_FIELDS, {"kind": "equidistant", "size": 30})}
#: the window as a share of the range of x_j (the paper: 1/20 in Fig. 2, 1/10 in Fig. 5)
WIDTH = {"width": number(0.05, above=0)}


def window_means(
    x: np.ndarray, values: np.ndarray, grid: np.ndarray, width: float
) -> tuple[np.ndarray, np.ndarray]:
    """Mean of ``values`` over the rows with ``|x - z| <= width / 2`` for every grid value z,
    and the row counts (an empty window gives NaN)."""
    if width <= 0:
        raise ValueError(f"the window width must be positive, got {width}")
    inside = np.abs(np.asarray(x, dtype=float)[None, :] - np.asarray(grid, dtype=float)[:, None])
    inside = inside <= width / 2
    counts = inside.sum(axis=1)
    sums = inside @ np.asarray(values, dtype=float)
    means = np.divide(sums, counts, out=np.full(len(counts), np.nan), where=counts > 0)
    return means, counts


def window_marginal_plot(
    predict: Predict,
    X: np.ndarray,
    j: int,
    grid: np.ndarray,
    width: float,
    *,
    max_rows: int = DEFAULT_MAX_ROWS,
) -> tuple[np.ndarray, np.ndarray]:
    """The windowed M-plot of feature j at ``grid`` (see the module doc): means and counts."""
    return window_means(X[:, j], predict_rows(predict, X, max_rows), grid, width)


def window_width(x: np.ndarray, share: float) -> float:
    """The window: ``share`` times the range of ``x``."""
    return share * float(np.ptp(x))


@method("mplot_window", kind="effect", params={**FEATURES, **WINDOW_GRID, **WIDTH, **DATA})
def _mplot_window(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Mean prediction within ``width`` x range of x_j around each grid value."""
    X, _ = ctx.data(params)
    frames = []
    for j in ctx.features(params):
        grid = make_grid(ctx.X[:, j], params["grid"], ctx.feature_names[j])
        value, count = window_marginal_plot(ctx.predict, X, j, grid,
                                            window_width(ctx.X[:, j], params["width"]),
                                            max_rows=ctx.max_rows)
        frames.append(pd.DataFrame({"feature": ctx.feature_names[j], "x": grid, "value": value,
                                    "count": count}))
    return pd.concat(frames, ignore_index=True)
