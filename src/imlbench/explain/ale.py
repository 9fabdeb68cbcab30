"""Accumulated local effects (Apley & Zhu 2020).

First order, numeric feature j with interval edges z_0 < ... < z_K (book ch. 5):
  ALE~(z_k) = sum_{m<=k} (1/n_m) sum_{i in interval m} [f(z_m, x_i,-j) - f(z_{m-1}, x_i,-j)],
linear between edges; the lowest observation belongs to the first interval. Centering
subtracts the count-weighted mean of each interval's average of its two end values
(ALEPlot and iml), or the mean over [z_0, z_K] (``integral``, effector's convention). The
edges are quantiles of the data, equally spaced, given, or the quantiles of the feature's
law (:func:`ale_edges`); rows outside [z_0, z_K] are left out.

Second order, features (j, k) (book eqs. 6.4-6.7): the accumulated mean second differences
over the cells of the product grid, minus both accumulated main-effect corrections, then
centred by the cell-count-weighted mean of each cell's four corners. Empty cells take the
mean difference of the nearest non-empty cell (cell centres in interval-index units,
as ALEPlot and iml do) before accumulation.

Categorical feature: levels in a given order (the codes' order, or iml's order by the
similarity of the other features, :func:`similarity_order`); the jump between
neighbouring levels k, k+1 averages f(level k+1) - f(x) over the rows at level k and
f(x) - f(level k) over the rows at level k+1; the curve starts at 0 and is centred by
the level-frequency-weighted mean.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from imlbench.explain.batching import DEFAULT_MAX_ROWS, Predict, predict_stacked
from imlbench.explain.grids import (
    LAW_KIND,
    LAW_PROBS,
    Law,
    inner,
    interval_index,
    law_quantiles,
    make_grid,
    rows_within,
)
from imlbench.params import choice, integer, items, number

CENTERINGS = ("data", "integral", "none")
#: the keys of an interval spec (defaults as in :func:`ale_edges`; ``trim`` as in
#: :func:`trim_curve`)
INTERVAL_FIELDS = {
    "kind": choice("quantile", ("quantile", "equidistant", "values", LAW_KIND)),
    "size": integer(20, minimum=1),
    "values": items(number(), unique=True),
    "quantile_type": choice(7, (7, 1)),
    "probs": items(number(above=0, below=1), list(LAW_PROBS), length=2),
    "trim": integer(0, minimum=0),
}


def ale_edges(x: np.ndarray, spec: Mapping[str, Any], *, law: Law | None = None) -> np.ndarray:
    """Interval edges z_0..z_K of a feature: ``size`` = K intervals at quantiles (of R's
    ``quantile_type`` 7 or 1, :func:`imlbench.explain.grids.make_grid`) or equal width.

    ``{"kind": "values", "values": [...]}`` gives the edges themselves. ``law_quantile``: the
    K + 1 quantiles of the feature's law (``law``, its quantile function) at probabilities
    equally spaced from ``probs[0]`` to ``probs[1]`` (default 0.0001 to 0.9999;
    :func:`imlbench.explain.grids.law_quantiles`), whatever the rows ``x``. Tied quantiles
    collapse, so quantile intervals can be fewer than requested. ``trim`` leaves the edges
    whole (:func:`trim_curve` drops curve points).
    """
    kind = spec.get("kind", "quantile")
    if kind == "values":
        edges = np.unique(np.asarray(spec["values"], dtype=float))
    else:
        k = int(spec.get("size", 20))
        if k < 1:
            raise ValueError(f"ALE needs at least one interval, got size {k}")
        if kind == LAW_KIND:
            edges = law_quantiles(spec, k + 1, law, "intervals")
        elif len(x) < k:
            raise ValueError(f"ALE with {k} intervals needs at least {k} rows, got {len(x)}")
        else:
            edges = make_grid(x, {"kind": kind, "size": k + 1,
                                  "quantile_type": spec.get("quantile_type", 7)})
    if len(edges) < 2:
        raise ValueError("ALE needs at least two distinct interval edges (a constant feature?)")
    return edges


def trim_curve(edges: np.ndarray, values: np.ndarray,
               spec: Mapping[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """A first-order ALE curve (``values`` at ``edges``) less ``spec["trim"]`` points at each
    end (default 0). The curve is computed and centred on all edges first, so trimming only
    hides its ends (as Heiß et al. 2026 drop the first and last of 100 law-quantile edges)."""
    keep = inner(len(edges), int(spec.get("trim", 0)), "intervals.trim")
    return edges[keep], values[keep]


def _inside(X: np.ndarray, j: int, edges: np.ndarray) -> np.ndarray:
    """:func:`rows_within`, refusing edges that leave no row."""
    inside = rows_within(X, j, edges)
    if not len(inside):
        raise ValueError(f"no row has feature {j} within the ALE edges [{edges[0]}, {edges[-1]}]")
    return inside


def _center(values: np.ndarray, edges: np.ndarray, counts: np.ndarray, centering: str) -> float:
    """The constant subtracted from the uncentred ALE at the edges."""
    mids = (values[:-1] + values[1:]) / 2
    if centering == "data":
        return float(np.sum(mids * counts) / np.sum(counts))
    if centering == "integral":
        return float(np.sum(mids * np.diff(edges)) / (edges[-1] - edges[0]))
    if centering == "none":
        return 0.0
    raise ValueError(f"ALE centering {centering!r} is not one of {', '.join(CENTERINGS)}")


def ale_first_order(
    predict: Predict,
    X: np.ndarray,
    j: int,
    edges: np.ndarray,
    *,
    centering: str = "data",
    max_rows: int = DEFAULT_MAX_ROWS,
) -> tuple[np.ndarray, np.ndarray]:
    """The ALE of numeric feature ``j`` at the interval edges, and the interval counts.

    Costs 2n model evaluations, stacked into as few ``predict`` calls as ``max_rows`` allows.
    Rows outside the edges are left out.
    """
    X = _inside(X, j, edges)
    k = interval_index(X[:, j], edges)
    bounds = np.stack([edges[k], edges[k + 1]], axis=1)

    def fill(block: np.ndarray, rows: slice) -> None:
        block[:, j] = bounds[rows].ravel()

    f = predict_stacked(predict, X, fill, 2, max_rows)
    K = len(edges) - 1
    counts = np.bincount(k, minlength=K)
    sums = np.bincount(k, weights=f[:, 1] - f[:, 0], minlength=K)
    local = np.divide(sums, counts, out=np.zeros(K), where=counts > 0)
    values = np.concatenate([[0.0], np.cumsum(local)])
    return values - _center(values, edges, counts, centering), counts


def _fill_empty_cells(mean: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Give each empty cell the value of the nearest non-empty cell (Euclidean distance of the
    cell indices, by the exact distance transform: linear in the number of cells; ties as
    :func:`scipy.ndimage.distance_transform_edt` resolves them)."""
    from scipy.ndimage import distance_transform_edt

    empty = counts == 0
    if not empty.any() or empty.all():
        return mean
    rows, cols = distance_transform_edt(empty, return_distances=False, return_indices=True)
    return mean[rows, cols]


def ale_second_order(
    predict: Predict,
    X: np.ndarray,
    j: int,
    k: int,
    edges_j: np.ndarray,
    edges_k: np.ndarray,
    *,
    max_rows: int = DEFAULT_MAX_ROWS,
) -> np.ndarray:
    """The centred pure second-order ALE of (j, k) on the edge grid, shape (K_j + 1, K_k + 1).

    Costs 4n model evaluations. Rows outside the edges are left out.
    """
    X = _inside(_inside(X, j, edges_j), k, edges_k)
    a = interval_index(X[:, j], edges_j)
    b = interval_index(X[:, k], edges_k)
    corners = [(0, 0), (1, 0), (0, 1), (1, 1)]  # (lower/upper j, lower/upper k)
    vj = np.stack([edges_j[a + dj] for dj, _ in corners], axis=1)
    vl = np.stack([edges_k[b + dl] for _, dl in corners], axis=1)

    def fill(block: np.ndarray, rows: slice) -> None:
        block[:, j] = vj[rows].ravel()
        block[:, k] = vl[rows].ravel()

    f = predict_stacked(predict, X, fill, 4, max_rows)
    delta = (f[:, 3] - f[:, 2]) - (f[:, 1] - f[:, 0])
    Kj, Kl = len(edges_j) - 1, len(edges_k) - 1
    cell = a * Kl + b
    counts = np.bincount(cell, minlength=Kj * Kl).reshape(Kj, Kl).astype(float)
    sums = np.bincount(cell, weights=delta, minlength=Kj * Kl).reshape(Kj, Kl)
    mean = np.divide(sums, counts, out=np.zeros_like(sums), where=counts > 0)
    mean = _fill_empty_cells(mean, counts)
    raw = np.zeros((Kj + 1, Kl + 1))
    raw[1:, 1:] = mean.cumsum(axis=0).cumsum(axis=1)
    # main-effect corrections (eq. 6.6): accumulate the count-weighted mean increments of
    # the raw surface along each axis, averaging the two edges that bound each cell
    dj = np.diff(raw, axis=0)
    inc_j = (counts * (dj[:, :-1] + dj[:, 1:]) / 2).sum(axis=1)
    inc_j = np.divide(inc_j, counts.sum(axis=1), out=np.zeros(Kj), where=counts.sum(axis=1) > 0)
    dl = np.diff(raw, axis=1)
    inc_l = (counts * (dl[:-1, :] + dl[1:, :]) / 2).sum(axis=0)
    inc_l = np.divide(inc_l, counts.sum(axis=0), out=np.zeros(Kl), where=counts.sum(axis=0) > 0)
    corrected = (
        raw
        - np.concatenate([[0.0], np.cumsum(inc_j)])[:, None]
        - np.concatenate([[0.0], np.cumsum(inc_l)])[None, :]
    )
    cell_means = (
        corrected[:-1, :-1] + corrected[1:, :-1] + corrected[:-1, 1:] + corrected[1:, 1:]
    ) / 4
    return corrected - np.sum(counts * cell_means) / np.sum(counts)


def similarity_order(
    X: np.ndarray, j: int, categorical: Sequence[int] = (), n_quantiles: int = 100
) -> np.ndarray:
    """Levels of categorical feature ``j`` ordered by the similarity of the other features.

    iml's rule: for each pair of levels, add over the other features the Kolmogorov-Smirnov
    distance of their within-level distributions (ECDFs compared at ``n_quantiles``
    quantiles of the feature) for numeric features, or half the sum of absolute
    differences of the level frequencies for categorical ones; scale the distance matrix
    to one dimension (classical multidimensional scaling) and sort. The sign of the
    scaling axis is fixed so that the lowest code comes first among the two ends.
    """
    levels = np.unique(X[:, j])
    if len(levels) < 2:
        raise ValueError(f"categorical feature at column {j} has only one level")
    masks = [X[:, j] == v for v in levels]
    c = len(levels)
    D = np.zeros((c, c))
    for m in range(X.shape[1]):
        if m == j:
            continue
        col = X[:, m]
        if m in categorical:
            cats = np.unique(col)
            prof = np.array([[np.mean(col[mask] == v) for v in cats] for mask in masks])
            D += np.abs(prof[:, None, :] - prof[None, :, :]).sum(axis=2) / 2
        else:
            q = np.quantile(col, np.linspace(0, 1, n_quantiles))
            ecdf = np.array([np.searchsorted(np.sort(col[mask]), q, side="right") / mask.sum()
                             for mask in masks])
            D += np.abs(ecdf[:, None, :] - ecdf[None, :, :]).max(axis=2)
    J = np.eye(c) - 1.0 / c
    B = -0.5 * J @ (D**2) @ J
    w, v = np.linalg.eigh(B)
    coord = v[:, -1] * np.sqrt(max(w[-1], 0.0))
    order = np.argsort(coord, kind="stable")
    if order[-1] < order[0]:
        order = order[::-1]
    return levels[order]


def ale_categorical(
    predict: Predict,
    X: np.ndarray,
    j: int,
    order: np.ndarray,
    *,
    max_rows: int = DEFAULT_MAX_ROWS,
) -> tuple[np.ndarray, np.ndarray]:
    """The centred ALE at each level of categorical feature ``j`` (in ``order``), and counts."""
    if len(order) < 2:
        raise ValueError(f"categorical feature at column {j} has only one level")
    pos = {v: i for i, v in enumerate(order)}
    if set(np.unique(X[:, j])) - set(pos):
        raise ValueError(f"the order of column {j} misses levels present in the data")
    p = np.array([pos[v] for v in X[:, j]])
    c = len(order)
    up = order[np.minimum(p + 1, c - 1)]
    down = order[np.maximum(p - 1, 0)]
    subs = np.stack([X[:, j], up, down], axis=1)  # copy 0 is the row itself

    def fill(block: np.ndarray, rows: slice) -> None:
        block[:, j] = subs[rows].ravel()

    f = predict_stacked(predict, X, fill, 3, max_rows)
    base = f[:, 0]
    counts = np.bincount(p, minlength=c).astype(float)
    # jump k -> k+1: rows at k moved up, rows at k+1 moved down
    up_sum = np.bincount(p, weights=f[:, 1] - base, minlength=c)[:-1]
    down_sum = np.bincount(p, weights=base - f[:, 2], minlength=c)[1:]
    pair = counts[:-1] + counts[1:]
    jumps = np.divide(up_sum + down_sum, pair, out=np.zeros(c - 1), where=pair > 0)
    values = np.concatenate([[0.0], np.cumsum(jumps)])
    return values - np.sum(values * counts) / np.sum(counts), counts
