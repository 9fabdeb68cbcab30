"""Exact partial dependence and ICE of tree ensembles by one traversal per row.

For a sum of trees the ICE curve of row i in feature j,
ICE_i(z) = f(z, x_i,-j) (Goldstein et al. 2015), is piecewise constant in z and needs no
stacked predictions: walking each tree with row i, a node that splits on x_j sends the grid
points z <= threshold left and the others right (a contiguous range of the sorted grid); any
other node sends the whole range down the row's own branch. A leaf adds its value to its
range of the curve through a difference array. The cost is one walk per (row, tree),
whatever the grid size, plus one pass over the output.

Estimands:

* :func:`tree_ice` and :func:`tree_pd`: the interventional ICE and PD (Friedman 2001,
  Sect. 8.2: PD_j(z) = (1/N) sum_i f(z, x_i,-j)), equal to the brute force of
  :mod:`imlbench.explain.effects` on the same rows;
* :func:`tree_pd_path`: the path-dependent PD (Friedman 2001, Sect. 8.2, the weighted tree
  traversal of scikit-learn's ``partial_dependence(method="recursion")``): at a node not
  splitting on x_j both children are followed, weighted by their share of the training
  cover; it uses no rows and differs from the interventional PD when features are dependent.

Grid points and rows are compared as the models compare them: scikit-learn trees take
``float32(x) <= threshold`` (float64 thresholds, held here rounded down to float32, which
sends every float32 x the same way), xgboost ``float32(x) < threshold`` (float32
thresholds, held here as ``<=`` the next float32 below).
Scikit-learn's trees are summed in float64 and equal ``predict`` to rounding (~1e-12);
xgboost sums its leaves in float32, so its ``predict`` differs from the float64 sums here by
float32 rounding (~1e-6 relative).
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

#: xgboost objectives whose prediction is the raw margin (identity link)
IDENTITY_OBJECTIVES = ("reg:squarederror", "reg:absoluteerror", "reg:pseudohubererror",
                       "reg:quantileerror", "reg:squaredlogerror")


#: one split node, 16 bytes: the walk reads one record per level (leaves: feature -1)
NODE = np.dtype([("left", np.int32), ("right", np.int32), ("feature", np.int32),
                 ("threshold", np.float32)])


@dataclass(frozen=True)
class TreeEnsemble:
    """All trees of a model as one flat node array; f(x) = base + (sum of the trees' leaf
    values) / divisor.

    Node k (a record of :data:`NODE`) sends x to child ``left`` when
    ``float32(x[feature]) <= threshold`` and to ``right`` otherwise; the float32 threshold is
    the largest one the model's own comparison agrees with for every float32 x. A leaf has
    ``feature == -1`` and the value ``value[k]``. ``cover`` is the weighted count of training
    rows that reached the node; ``roots`` are the offsets of the trees' roots.
    ``matches_predict``: the sums equal the model's ``predict`` to float64 rounding
    (scikit-learn), not only to float32 rounding (xgboost).
    """

    nodes: np.ndarray
    value: np.ndarray
    cover: np.ndarray
    roots: np.ndarray
    base: float
    divisor: float
    matches_predict: bool


def tree_model(model: Any) -> TreeEnsemble | None:
    """The tree ensemble of ``model`` (scikit-learn ``RandomForestRegressor``,
    ``DecisionTreeRegressor``, imlbench's ``RpartTree`` and ``CompactForest``, and xgboost's
    ``XGBRegressor`` with a tree booster and an identity link), or None for other models."""
    from sklearn.ensemble import RandomForestRegressor
    from sklearn.tree import DecisionTreeRegressor

    from imlbench.learners.compact import CompactForest, RpartTree

    if isinstance(model, RandomForestRegressor):
        trees = [est.tree_ for est in model.estimators_]
    elif isinstance(model, DecisionTreeRegressor | RpartTree):
        trees = [model.tree_]
    elif isinstance(model, CompactForest):
        trees = list(model.trees_)
    else:
        xgb = sys.modules.get("xgboost")  # a model of xgboost's has loaded it
        if xgb is not None and isinstance(model, xgb.XGBRegressor):
            return _xgboost_trees(model)
        return None
    if any(t.n_outputs != 1 for t in trees):
        return None
    # float32(x) <= t (t float64) holds exactly when float32(x) <= t rounded down to float32
    return _flatten(
        [(t.children_left, t.children_right, t.feature, _round_down(t.threshold),
          t.value[:, 0, 0], t.weighted_n_node_samples) for t in trees],
        base=0.0, divisor=float(len(trees)), matches_predict=True,
    )


def _round_down(t: np.ndarray) -> np.ndarray:
    """The largest float32 <= t, elementwise."""
    nearest = np.asarray(t, dtype=np.float64).astype(np.float32)
    return np.where(nearest.astype(np.float64) > t, np.nextafter(nearest, np.float32(-np.inf)),
                    nearest)


def _xgboost_trees(model: Any) -> TreeEnsemble | None:
    """The trees of a fitted XGBRegressor from its JSON model; None for boosters other than
    single-target gbtree with an identity-link objective, or fitted with early stopping."""
    raw = json.loads(model.get_booster().save_raw("json"))["learner"]
    booster = raw["gradient_booster"]
    if (booster["name"] != "gbtree" or raw["objective"]["name"] not in IDENTITY_OBJECTIVES
            or int(raw["learner_model_param"]["num_target"]) != 1
            or model.get_booster().attr("best_iteration") is not None):
        return None
    parts = []
    for t in booster["model"]["trees"]:
        cond = np.asarray(t["split_conditions"], dtype=np.float32)  # a leaf's: its value
        parts.append((t["left_children"], t["right_children"], t["split_indices"],
                      np.nextafter(cond, np.float32(-np.inf)),  # x < t: x <= the float32 below
                      cond, t["sum_hessian"]))
    base = float(np.float32(raw["learner_model_param"]["base_score"].strip("[]")))
    return _flatten(parts, base=base, divisor=1.0, matches_predict=False)


def _flatten(parts: list[tuple[Any, ...]], *, base: float, divisor: float,
             matches_predict: bool) -> TreeEnsemble:
    """One node array from per-tree (left, right, feature, float32 threshold, value, cover),
    children indexed within their tree (negative: a leaf)."""
    cols = [np.concatenate([np.asarray(p[k]) for p in parts]) for k in range(6)]
    sizes = np.array([len(p[0]) for p in parts], dtype=np.int64)
    roots = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    offset = np.repeat(roots, sizes)
    leaf = np.asarray(cols[0]) < 0
    nodes = np.zeros(len(leaf), dtype=NODE)
    nodes["left"] = np.where(leaf, -1, cols[0] + offset)
    nodes["right"] = np.where(leaf, -1, cols[1] + offset)
    nodes["feature"] = np.where(leaf, -1, cols[2])
    nodes["threshold"] = np.where(leaf, 0.0, cols[3])
    return TreeEnsemble(nodes, np.where(leaf, cols[4], 0.0).astype(np.float64),
                        cols[5].astype(np.float64), roots, base, divisor, matches_predict)


def split_grid(ensemble: TreeEnsemble, j: int, lo: float | None = None,
               hi: float | None = None) -> np.ndarray:
    """One grid point per constant piece of every curve in x_j: the PD and ICE on this grid
    are the fitted step functions exactly.

    The pieces are the float32 intervals ]t_{m-1}, t_m] between the distinct thresholds of
    x_j (as :class:`TreeEnsemble` holds them: what the model sends left); each is
    represented by its right end t_m, the last piece by the float32 just above the largest
    threshold. ``lo`` and ``hi`` restrict the grid to the pieces meeting [lo, hi], the last
    one then represented by ``hi``. Empty when the model never splits on x_j and ``hi`` is
    not given.
    """
    nodes = ensemble.nodes
    ends = np.unique(nodes["threshold"][nodes["feature"] == j])
    if hi is None:
        top = np.nextafter(ends[-1:], np.float32(np.inf))
    else:
        ends, top = ends[ends < np.float32(hi)], np.array([hi], dtype=np.float32)
    if lo is not None:
        ends = ends[ends >= np.float32(lo)]
    return np.concatenate([ends, top]).astype(np.float64)


def tree_ice(ensemble: TreeEnsemble, X: np.ndarray, j: int, grid: np.ndarray) -> np.ndarray:
    """Interventional ICE ``f(x_i with x_j = grid[g])``, shape ``(len(X), len(grid))``: the
    values of :func:`imlbench.explain.effects.ice` without evaluating the stacked rows."""
    return _curves(ensemble, X, j, grid, path=False, per_row=True, count=1)


def tree_pd(ensemble: TreeEnsemble, X: np.ndarray, j: int, grid: np.ndarray) -> np.ndarray:
    """Interventional PD (Friedman 2001): the mean over the rows of X of :func:`tree_ice`,
    accumulated in O(len(grid)) memory."""
    return _curves(ensemble, X, j, grid, path=False, per_row=False, count=len(X))[0]


def tree_pd_path(ensemble: TreeEnsemble, j: int, grid: np.ndarray) -> np.ndarray:
    """Path-dependent PD (Friedman 2001, Sect. 8.2; scikit-learn's ``method="recursion"``):
    at nodes not splitting on x_j both children, weighted by their share of the training
    cover. It reads no rows: the training data enter through the covers."""
    no_rows = np.zeros((1, 1))  # one pass that reads no row
    return _curves(ensemble, no_rows, j, grid, path=True, per_row=False, count=1)[0]


def _curves(ensemble: TreeEnsemble, X: np.ndarray, j: int, grid: np.ndarray, *,
            path: bool, per_row: bool, count: int) -> np.ndarray:
    """The curves of every row (``per_row``) or their sum over the rows divided by ``count``,
    at ``grid`` in its own order."""
    g = np.asarray(grid, dtype=np.float64).ravel().astype(np.float32)
    Xf = np.ascontiguousarray(X, dtype=np.float32)
    if np.isnan(g).any() or np.isnan(Xf).any():
        raise ValueError("tree PD/ICE takes no missing values (NaN) in the rows or the grid")
    e = ensemble
    points, where = np.unique(g, return_inverse=True)
    stack = int(np.diff(np.append(e.roots, len(e.nodes))).max())
    # the grid points <= a threshold of x_j go left: their count, per split node of x_j
    on_j = e.nodes["feature"] == j
    cut = np.zeros(len(e.nodes), dtype=np.int32)
    cut[on_j] = np.searchsorted(points, e.nodes["threshold"][on_j], side="right")
    out = _compiled()(e.nodes, e.value, e.cover, e.roots, Xf, j, cut, len(points), path,
                      per_row, stack)
    out /= e.divisor * count
    out += e.base
    return out if len(points) == len(g) and (where == np.arange(len(g))).all() else out[:, where]


@functools.cache
def _compiled() -> Callable[..., np.ndarray]:
    """:func:`_accumulate` compiled by numba (kept in numba's on-disk cache); numba is
    imported only here, so that importing this module costs a job nothing."""
    from numba import njit

    return njit(cache=True)(_accumulate)


def _accumulate(nodes, value, cover, roots, X, j, cut, G, path, per_row,
                stack_size):  # pragma: no cover - compiled
    """Sum of the leaf values over the trees at each of G sorted grid points, per row of X
    (``per_row``) or over the rows; tree-major, so each tree stays in cache. A split node
    of x_j sends grid points ``[:cut[node]]`` left."""
    n = X.shape[0]
    diff = np.zeros((n if per_row else 1, G + 1))
    s_node = np.empty(stack_size, dtype=np.int64)
    s_lo = np.empty(stack_size, dtype=np.int64)
    s_hi = np.empty(stack_size, dtype=np.int64)
    s_w = np.empty(stack_size)
    for root in roots:
        for i in range(n):
            d = diff[i if per_row else 0]
            x = X[i]
            s_node[0], s_lo[0], s_hi[0], s_w[0] = root, 0, G, 1.0
            top = 1
            while top > 0:
                top -= 1
                node, lo, hi, w = s_node[top], s_lo[top], s_hi[top], s_w[top]
                while True:
                    rec = nodes[node]
                    f = rec.feature
                    if f < 0:  # a leaf
                        v = w * value[node]
                        d[lo] += v
                        d[hi] -= v
                        break
                    if f == j:  # grid[lo:a] go left, grid[a:hi] right
                        a = min(max(cut[node], lo), hi)
                        if a == lo:
                            node = rec.right
                        elif a == hi:
                            node = rec.left
                        else:
                            s_node[top], s_lo[top], s_hi[top], s_w[top] = rec.right, a, hi, w
                            top += 1
                            node, hi = rec.left, a
                    elif path:
                        s_node[top], s_lo[top], s_hi[top] = rec.right, lo, hi
                        s_w[top] = w * cover[rec.right] / cover[node]
                        top += 1
                        w = w * cover[rec.left] / cover[node]
                        node = rec.left
                    else:  # the row's branch, as arithmetic: no jump to mispredict
                        node = rec.left + (rec.right - rec.left) * (x[f] > rec.threshold)
    for i in range(diff.shape[0]):  # the running sums, in place
        acc = 0.0
        for k in range(G):
            acc += diff[i, k]
            diff[i, k] = acc
    return diff[:, :G]
