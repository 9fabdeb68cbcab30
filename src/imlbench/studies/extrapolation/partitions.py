"""Leaf rectangles of the trees of a forest over two features.

Hooker, Mentch & Zhou (2021), Fig. 4 (middle) and eq. (3): a tree predicts the mean
response of the training points in the leaf L(x); drawing the leaves of a few
trees shows how far from the data a leaf reaches, i.e. which training points are
potential nearest neighbours of a permuted query point.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd


def leaf_rectangles(
    tree, features: Sequence[int], bounds: Sequence[tuple[float, float]]
) -> pd.DataFrame:
    """Every leaf of a fitted sklearn tree as a box over ``features`` clipped to ``bounds``.

    Splits on other features do not narrow the box. Returns columns ``leaf``,
    ``lo_0, hi_0, lo_1, hi_1`` (one pair per feature) and ``value`` (leaf mean).
    """
    t = tree.tree_
    k = len(features)
    rows = []
    stack = [(0, np.array([b[0] for b in bounds], float), np.array([b[1] for b in bounds], float))]
    while stack:
        node, lo, hi = stack.pop()
        left, right = t.children_left[node], t.children_right[node]
        if left == -1:
            box = np.ravel(np.column_stack([lo, hi]))
            rows.append([node, *box, float(t.value[node].ravel()[0])])
            continue
        f, thr = t.feature[node], t.threshold[node]
        lo_l, hi_l, lo_r, hi_r = lo.copy(), hi.copy(), lo.copy(), hi.copy()
        if f in features:
            i = list(features).index(f)
            hi_l[i] = min(hi[i], thr)
            lo_r[i] = max(lo[i], thr)
        stack.append((left, lo_l, hi_l))
        stack.append((right, lo_r, hi_r))
    cols = ["leaf"] + [f"{s}_{i}" for i in range(k) for s in ("lo", "hi")] + ["value"]
    return pd.DataFrame(rows, columns=cols)
