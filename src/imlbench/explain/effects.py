"""Partial dependence, ICE and the M-plot.

PD and ICE are the interventional (brute-force) estimands.

ICE (Goldstein et al. 2015): ICE_i(x) = f(x with feature(s) S set to x, row i).
PD (Friedman 2001; Hooker et al. 2021, Sect. 1): PD_S(x) = (1/N) sum_i ICE_i(x),
the average of the ICE curves. A multi-feature grid gives the 2-D PD; when the
grid covers every feature of the model, all rows coincide and the PD is the
prediction surface itself (Figs. 4-5 of Hooker et al. 2021).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from imlbench.explain.batching import DEFAULT_MAX_ROWS, Predict, predict_rows, predict_stacked
from imlbench.explain.grids import interval_index, rows_within


def _as_grid(grid: np.ndarray, k: int) -> np.ndarray:
    g = np.asarray(grid, dtype=float)
    g = g.reshape(-1, 1) if g.ndim == 1 else g
    if g.shape[1] != k:
        raise ValueError(f"grid has {g.shape[1]} columns for {k} features")
    return g


def ice(
    predict: Predict,
    X: np.ndarray,
    features: int | Sequence[int],
    grid: np.ndarray,
    *,
    max_rows: int = DEFAULT_MAX_ROWS,
) -> np.ndarray:
    """ICE values ``f(x_i with x_S = grid[g])``, shape ``(len(X), len(grid))``.

    ``grid`` is 1-D for one feature or ``(G, |S|)`` for several. All n*G rows are
    evaluated in as few stacked ``predict`` calls as ``max_rows`` allows.
    """
    S = [features] if isinstance(features, int | np.integer) else list(features)
    g = _as_grid(grid, len(S))
    if sorted(S) == list(range(X.shape[1])):  # every feature set: all rows are one point
        Z = np.empty((len(g), X.shape[1]))
        Z[:, S] = g  # grid column k holds feature S[k], whatever the order of S
        return np.tile(predict_rows(predict, Z, max_rows), (len(X), 1))

    def fill(block: np.ndarray, rows: slice) -> None:
        n_rows = block.shape[0] // len(g)
        block[:, S] = np.tile(g, (n_rows, 1))

    return predict_stacked(predict, X, fill, len(g), max_rows)


def partial_dependence(
    predict: Predict,
    X: np.ndarray,
    features: int | Sequence[int],
    grid: np.ndarray,
    *,
    max_rows: int = DEFAULT_MAX_ROWS,
) -> np.ndarray:
    """The PD at every grid point: the mean over rows of :func:`ice`."""
    return ice(predict, X, features, grid, max_rows=max_rows).mean(axis=0)


def centered_ice(curves: np.ndarray, anchor: int = 0) -> np.ndarray:
    """c-ICE (Goldstein et al. 2015; book ch. 2): each curve minus its value at grid index
    ``anchor`` (0 = the grid minimum, the book's recommended anchor)."""
    return curves - curves[:, anchor : anchor + 1]


def derivative_ice(curves: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """d-ICE (Goldstein et al. 2015): the derivative of each ICE curve along the grid.

    Central differences inside the grid and one-sided ones at its ends (second-order
    accurate on uneven grids, ``numpy.gradient``); exact where the curve is linear.
    Without interactions of the feature all d-ICE curves coincide.
    """
    return np.gradient(curves, np.asarray(grid, dtype=float), axis=1)


def marginal_plot(
    predict: Predict,
    X: np.ndarray,
    j: int,
    edges: np.ndarray,
    *,
    max_rows: int = DEFAULT_MAX_ROWS,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The M-plot: mean prediction of the rows in each interval of x_j.

    Estimates the conditional expectation E[f(X) | X_j = z] (Apley & Zhu's marginal plot)
    at the interval centres; it mixes in the effects of features correlated with x_j.
    Intervals are ]z_k, z_{k+1}] with z_0 in the first; returns centres, means and counts
    (empty intervals give NaN).
    """
    edges = np.asarray(edges, dtype=float)
    X = rows_within(X, j, edges)
    k = interval_index(X[:, j], edges)
    f = predict_rows(predict, X, max_rows)
    counts = np.bincount(k, minlength=len(edges) - 1)
    sums = np.bincount(k, weights=f, minlength=len(edges) - 1)
    means = np.divide(sums, counts, out=np.full(len(counts), np.nan), where=counts > 0)
    return (edges[:-1] + edges[1:]) / 2, means, counts
