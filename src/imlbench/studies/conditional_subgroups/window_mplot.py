"""The M-plot with a sliding window: the "conditional PDP" of Molnar et al. (conditional
subgroups, Figs. 2 and 5).

At each grid value z the curve is the mean prediction of the rows whose x_j lies in the window
[z - w/2, z + w/2]:
    M_j(z) = sum_i f(x_i) 1{|x_ij - z| <= w/2} / sum_i 1{|x_ij - z| <= w/2},
a local-average estimate of E[f(X) | X_j = z] (Apley & Zhu's marginal plot). Unlike the
interval M-plot of :func:`imlbench.explain.effects.marginal_plot`, neighbouring windows may
overlap (the paper's figures use 30 grid values and w = range/20 or range/10).
"""

from __future__ import annotations

import numpy as np

from imlbench.explain.batching import DEFAULT_MAX_ROWS, Predict, predict_rows


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
