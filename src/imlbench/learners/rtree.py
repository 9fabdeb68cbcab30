"""One tree of R's ``randomForest`` for regression, grown on a bootstrap sample's draws.

R's rule (``randomForest``'s ``regTree.c``, also ``ranger``'s): a node of ``nodesize`` or fewer
draws is a leaf; otherwise ``mtry`` features are drawn without replacement, and the node is
split at the best cut of the drawn features (the largest decrease of the residual sum of
squares, a cut halfway between two adjacent distinct values). A drawn feature that is constant
in the node uses up its draw: when every drawn feature is constant the node is a leaf.

scikit-learn's builder differs only there: it keeps drawing features until one varies in the
node. Both rules give the same trees in distribution when no node can hold two distinct rows
that agree on a feature, i.e. when every feature's values are distinct over the rows (or every
feature is tried at each split), so :func:`imlbench.learners.compact.nodesize_trees` grows
with scikit-learn's builder (counting draws) in that case and with :func:`grow_level_forest`,
R's rule in numpy, otherwise.
"""

from __future__ import annotations

import numpy as np
from sklearn.tree._tree import Tree

#: scikit-learn's markers of a leaf's children and feature
LEAF, UNDEFINED = -1, -2


def tie_free(X: np.ndarray) -> bool:
    """Whether no two distinct rows of ``X`` share a value of any feature (then no node of two
    or more distinct rows has a constant feature)."""
    n_rows = len(np.unique(X, axis=0))
    return all(len(np.unique(X[:, j])) == n_rows for j in range(X.shape[1]))


def _best_cuts(Xv: np.ndarray, Rv: np.ndarray, yv: np.ndarray, pair: np.ndarray,
               n_pairs: int, n_ranks: int) -> tuple[np.ndarray, np.ndarray]:
    """For each pair (a node and one of its drawn features) of the values ``Xv`` (with their
    dense ranks ``Rv`` among the feature's values, below ``n_ranks``) and targets ``yv`` (one
    entry per draw of the node), the largest decrease of the residual sum of squares over its
    cuts (-inf without a cut: a constant feature) and the cut's threshold."""
    order = np.argsort(pair * n_ranks + Rv)  # by pair, then value: one integer sort
    p, r, t = pair[order], Rv[order], yv[order]
    start = np.searchsorted(p, np.arange(n_pairs))
    end = np.append(start[1:], len(p))
    cs = np.cumsum(t)
    before = np.where(start > 0, cs[np.maximum(start - 1, 0)], 0.0)
    total = cs[end - 1] - before
    count = (end - start).astype(np.float64)
    nl = np.arange(len(p)) - start[p] + 1.0
    nr = count[p] - nl
    sl = cs - before[p]
    sr = total[p] - sl
    cut = np.zeros(len(p), dtype=bool)
    cut[:-1] = (p[:-1] == p[1:]) & (r[1:] > r[:-1])
    with np.errstate(divide="ignore", invalid="ignore"):
        gain = np.where(cut, sl * sl / nl + sr * sr / np.where(nr > 0, nr, 1.0)
                        - (total * total / count)[p], -np.inf)
    # the first best cut of each pair (R keeps the first of equal decreases)
    top = np.maximum.reduceat(gain, start)
    at_top = np.flatnonzero(gain == top[p])
    first = at_top[np.unique(p[at_top], return_index=True)[1]]
    v = Xv[order]
    lo, hi = v[first], v[np.minimum(first + 1, len(v) - 1)]
    threshold = lo / 2.0 + hi / 2.0
    threshold = np.where(threshold == hi, lo, threshold)  # scikit-learn's rounding guard
    return top, threshold


def grow_level_forest(X: np.ndarray, y: np.ndarray, samples: list[np.ndarray], *, mtry: int,
                      nodesize: int, max_depth: int | None, rng: np.random.Generator
                      ) -> list[Tree]:
    """Regression trees under R's rule, one per bootstrap sample of ``samples`` (row indices
    of float32 ``X`` and ``y``, duplicates included), returned as scikit-learn ``Tree`` objects
    (their predictions, leaves and the tree PD read them as any other). All trees grow
    together, one depth level at a time: each step handles every node of that depth in every
    tree with a few array operations."""
    p = X.shape[1]
    Xd = X.astype(np.float64)
    ranks = np.column_stack([np.unique(X[:, j], return_inverse=True)[1] for j in range(p)])
    n_ranks = int(ranks.max()) + 1
    rows = np.concatenate(samples)
    nid = np.repeat(np.arange(len(samples)), [len(s) for s in samples])  # each draw's node
    cap = 2 * len(rows) + len(samples)  # more nodes than any growth can make
    left = np.full(cap, LEAF)
    right = np.full(cap, LEAF)
    feature = np.full(cap, UNDEFINED)
    threshold = np.full(cap, float(UNDEFINED))
    value, impurity, size = np.zeros(cap), np.zeros(cap), np.zeros(cap, dtype=np.int64)
    tree_of, depth_of = np.zeros(cap, dtype=np.int64), np.zeros(cap, dtype=np.int64)
    tree_of[:len(samples)] = np.arange(len(samples))
    first_id, n_nodes, depth = 0, len(samples), 0
    while True:
        level = n_nodes - first_id
        local = nid - first_id
        yr = y[rows]
        cnt = np.bincount(local, minlength=level)
        s1 = np.bincount(local, weights=yr, minlength=level)
        s2 = np.bincount(local, weights=yr * yr, minlength=level)
        lo, hi = np.full(level, np.inf), np.full(level, -np.inf)
        np.minimum.at(lo, local, yr)
        np.maximum.at(hi, local, yr)
        ids = slice(first_id, n_nodes)
        value[ids] = s1 / cnt
        impurity[ids] = np.maximum(s2 / cnt - value[ids] ** 2, 0.0)
        size[ids] = cnt
        depth_of[ids] = depth
        if max_depth is not None and depth >= max_depth:
            break
        can = (cnt > nodesize) & (hi > lo)
        nodes = np.flatnonzero(can)
        if nodes.size == 0:
            break
        keep = can[local]
        rows, local = rows[keep], local[keep]
        k_of = np.full(level, -1)
        k_of[nodes] = np.arange(nodes.size)
        k = k_of[local]  # each draw's splittable node, 0..K-1
        K = nodes.size
        drawn = np.argsort(rng.random((K, p)), axis=1)[:, :mtry]
        pair = (k[:, None] * mtry + np.arange(mtry)).ravel()
        cols = drawn[k]
        gain, thr = _best_cuts(Xd[rows[:, None], cols].ravel(),
                               ranks[rows[:, None], cols].ravel(), np.repeat(y[rows], mtry),
                               pair, K * mtry, n_ranks)
        gain, thr = gain.reshape(K, mtry), thr.reshape(K, mtry)
        pick = np.argmax(gain, axis=1)  # the first drawn feature of the largest decrease
        split = gain[np.arange(K), pick] > 0
        if not split.any():
            break
        f, t = drawn[np.arange(K), pick], thr[np.arange(K), pick]
        child = np.full(K, -1)
        child[split] = n_nodes + 2 * np.arange(int(split.sum()))
        parent = first_id + nodes[split]
        left[parent], right[parent] = child[split], child[split] + 1
        feature[parent], threshold[parent] = f[split], t[split]
        tree_of[child[split]] = tree_of[child[split] + 1] = tree_of[parent]
        go = split[k]
        rows, k = rows[go], k[go]
        first_id = n_nodes
        nid = child[k] + np.where(X[rows, f[k]] <= t[k], 0, 1)
        n_nodes += 2 * int(split.sum())
        depth += 1
    tree_of = tree_of[:n_nodes]
    order = np.argsort(tree_of, kind="stable")  # each tree's nodes, in creation order
    bounds = np.searchsorted(tree_of[order], np.arange(len(samples) + 1))
    local = np.empty(n_nodes, dtype=np.int64)  # each node's number within its tree
    local[order] = np.arange(n_nodes) - bounds[tree_of[order]]
    return [_as_sklearn_tree(p, order[bounds[t]:bounds[t + 1]], local, left, right, feature,
                             threshold, value, impurity, size, depth_of)
            for t in range(len(samples))]


def _as_sklearn_tree(p: int, ids: np.ndarray, local: np.ndarray, left, right, feature,
                     threshold, value, impurity, size, depth_of) -> Tree:
    """A scikit-learn ``Tree`` (regression, one output) of the nodes ``ids`` of the forest's
    node arrays, numbered ``local`` within the tree."""
    tree = Tree(p, np.ones(1, dtype=np.intp), 1)
    nodes = np.zeros(len(ids), dtype=tree.__getstate__()["nodes"].dtype)
    nodes["left_child"] = np.where(left[ids] == LEAF, LEAF, local[np.maximum(left[ids], 0)])
    nodes["right_child"] = np.where(right[ids] == LEAF, LEAF, local[np.maximum(right[ids], 0)])
    nodes["feature"], nodes["threshold"] = feature[ids], threshold[ids]
    nodes["impurity"] = impurity[ids]
    nodes["n_node_samples"] = size[ids]
    nodes["weighted_n_node_samples"] = size[ids]
    tree.__setstate__({"max_depth": int(depth_of[ids].max()), "node_count": len(ids),
                       "nodes": nodes, "values": value[ids].reshape(-1, 1, 1).copy()})
    return tree
