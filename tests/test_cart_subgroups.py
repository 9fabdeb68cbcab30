"""The CART subgroup tree splits as rpart does: a node needs minsplit rows to be split, which
rpart sets to 3 x minbucket when only minbucket is given (``rpart.control(minbucket = 30)``
gives minsplit 90), unless ``min_split`` says otherwise (rpart's default 20)."""

from __future__ import annotations

import numpy as np

from imlbench.explain.samplers import SUBGROUP_PARAMS, _cart_tree
from imlbench.params import with_defaults


def _leaves(n: int, **params) -> int:
    rng = np.random.default_rng(1)
    x = rng.uniform(size=(n, 1))
    xj = np.where(x[:, 0] < 0.5, 0.0, 10.0) + np.where(x[:, 0] % 0.5 < 0.25, 0.0, 3.0)
    apply = _cart_tree(x, xj, with_defaults(SUBGROUP_PARAMS, {"tree": "cart", **params}), 0)
    return len(np.unique(apply(x)))


def test_a_node_needs_three_min_leaves_to_be_split():
    # 160 rows, min leaf 30: the root (160 >= 90) splits into two nodes of 80, which rpart
    # (minsplit 90) does not split again; a min split of 60 lets them split
    assert _leaves(160, min_node_size=30) == 2
    assert _leaves(160, min_node_size=30, min_split=60) == 4
