"""A regression forest with the node rules of R's ``randomForest`` (and ``ranger``).

R grows each tree on its bootstrap sample itself, duplicates included, and a node of
``nodesize`` or fewer rows is not split (``randomForest``'s regression default 5; its children
may be smaller). The rows counted are draws: a row drawn three times counts three times.
scikit-learn's forests pass the bootstrap to the tree builder as weights instead, and its
``min_samples_split`` and ``min_samples_leaf`` count the distinct rows of a node, so with the
same numbers its trees stop earlier: on Boston with randomForest's defaults about 110 leaves
per tree against R's 168. R also makes a node a leaf when every one of its ``mtry`` drawn
features is constant in the node, where scikit-learn draws further (:mod:`.rtree`).

:class:`NodesizeForest` grows each tree under R's rules on the drawn rows (:func:`.compact.
nodesize_trees`), with scikit-learn's per-tree seeds and bootstrap draws, and stays a
``RandomForestRegressor`` for every reader of one: its trees (``estimators_``), their in-bag
rows (``estimators_samples_``, redrawn from the trees' seeds), predictions and the tree PD.
:class:`imlbench.learners.compact.CompactForest` with the same ``nodesize`` grows the same
trees for refits that only predict. ``tests/test_r_parity_forest.py`` compares the forests
with R's over seeds.
"""

from __future__ import annotations

import numpy as np
from sklearn.ensemble import RandomForestRegressor
from sklearn.tree import DecisionTreeRegressor

from imlbench.learners.compact import (
    as_inputs,
    bootstrap_rows,
    features_per_split,
    nodesize_trees,
    tree_seeds,
)


class NodesizeForest(RandomForestRegressor):
    """``randomForest(x, y, ntree = n_estimators, mtry = max_features, nodesize = nodesize)``
    for regression: bootstrap samples of n rows, ``max_features`` candidate features per split
    (a share of the columns, rounded down, as scikit-learn's), nodes of ``nodesize`` or fewer
    draws not split."""

    def __init__(self, n_estimators: int = 500, *, max_features: int | float | str = 1 / 3,
                 nodesize: int = 5, max_depth: int | None = None,
                 random_state: int | None = None, n_jobs: int | None = None) -> None:
        super().__init__(n_estimators=n_estimators, max_features=max_features,
                         min_samples_split=nodesize + 1, min_samples_leaf=1,
                         max_depth=max_depth, bootstrap=True, random_state=random_state,
                         n_jobs=n_jobs)
        self.nodesize = nodesize

    def fit(self, X, y, sample_weight=None) -> NodesizeForest:
        if sample_weight is not None:
            raise ValueError("NodesizeForest takes no sample weights: its trees count draws")
        if not isinstance(self.nodesize, int | np.integer) or self.nodesize < 1:
            raise ValueError(f"nodesize must be an integer >= 1, got {self.nodesize!r}")
        Xf, yf = as_inputs(X, y)
        n, p = Xf.shape
        mtry = features_per_split(self.max_features, p)
        seeds = tree_seeds(self.random_state, self.n_estimators)
        trees = nodesize_trees(Xf, yf, seeds, mtry=mtry, nodesize=self.nodesize,
                               max_depth=self.max_depth)
        self.estimators_ = [_fitted_shell(tree, p, mtry, self.nodesize, self.max_depth, seed)
                            for tree, seed in zip(trees, seeds, strict=True)]
        self.estimator_ = DecisionTreeRegressor()
        self.n_features_in_ = p
        self.n_outputs_ = 1
        self.n_samples_ = n
        return self

    @property
    def estimators_samples_(self) -> list[np.ndarray]:
        """Each tree's bootstrap rows (duplicates included), redrawn from its seed."""
        rng = np.random.RandomState()
        return [bootstrap_rows(rng, tree.random_state, self.n_samples_)
                for tree in self.estimators_]


def _fitted_shell(tree, p: int, mtry: int, nodesize: int, max_depth: int | None,
                  seed: int) -> DecisionTreeRegressor:
    """A fitted ``DecisionTreeRegressor`` holding ``tree`` (for the readers of a forest's
    ``estimators_``: predictions, leaves, ``random_state`` for the in-bag rows)."""
    shell = DecisionTreeRegressor(max_features=mtry, min_samples_split=nodesize + 1,
                                  min_samples_leaf=1, max_depth=max_depth, random_state=seed)
    shell.tree_ = tree
    shell.n_features_in_ = p
    shell.n_outputs_ = 1
    shell.max_features_ = mtry
    return shell
