"""Learners for many small refits: least squares, and scikit-learn's tree builder without its
per-tree Python overhead.

A scikit-learn forest of 100 trees on 63 rows spends over 90% of its fit time outside the
tree builder (parameter introspection, cloning, the parallel machinery of each tree). The
learner-level studies refit a forest tens of thousands of times, so these estimators call
the builder directly:

- :class:`RpartTree` is CART as R's ``rpart`` grows it: a split is made only if it lowers
  the residual sum of squares by at least ``cp`` times that of the root (rpart's complexity
  parameter), i.e. scikit-learn's ``min_impurity_decrease = cp * Var(y)``.
- :class:`CompactForest` draws exactly the trees of ``RandomForestRegressor`` with the same
  ``random_state`` (the same per-tree seeds, bootstrap counts and feature draws), so its
  predictions equal scikit-learn's; it keeps no out-of-bag bookkeeping. With ``nodesize`` it
  draws the trees of :class:`imlbench.learners.nodesize.NodesizeForest` (R's node-size rule).

- :class:`LeastSquares` is ordinary least squares with an intercept (R's ``lm``), the fit
  of ``LinearRegression`` without its input validation.

The tests check these equalities against scikit-learn's own estimators.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.tree._criterion import MSE
from sklearn.tree._splitter import BestSplitter
from sklearn.tree._tree import DepthFirstTreeBuilder, Tree

from imlbench.learners.rtree import grow_level_forest, tie_free

#: scikit-learn's bound for per-tree seeds (``np.iinfo(np.int32).max``)
MAX_SEED = np.iinfo(np.int32).max
#: scikit-learn's "no depth limit"
NO_DEPTH_LIMIT = np.iinfo(np.int32).max


def features_per_split(max_features: int | float | str | None, p: int) -> int:
    """scikit-learn's rule for the number of candidate features at each split."""
    if max_features is None:
        return p
    if max_features == "sqrt":
        return max(1, int(np.sqrt(p)))
    if max_features == "log2":
        return max(1, int(np.log2(p)))
    if isinstance(max_features, float):
        return max(1, int(max_features * p))
    return int(max_features)


def grow_tree(
    X: np.ndarray, y: np.ndarray, weights: np.ndarray | None, *, max_features: int,
    min_samples_split: int, min_samples_leaf: int, max_depth: int | None,
    min_impurity_decrease: float, rng: np.random.RandomState,
) -> Tree:
    """One CART regression tree (squared error, best split among ``max_features`` random
    features drawn from ``rng``) on float32 ``X`` (Fortran order) and float64 ``y`` of shape
    (n, 1)."""
    criterion = MSE(1, len(X))
    splitter = BestSplitter(criterion, max_features, min_samples_leaf, 0.0, rng, None)
    tree = Tree(X.shape[1], np.ones(1, dtype=np.intp), 1)
    builder = DepthFirstTreeBuilder(
        splitter, min_samples_split, min_samples_leaf, 0.0,
        NO_DEPTH_LIMIT if max_depth is None else max_depth, min_impurity_decrease,
    )
    builder.build(tree, X, y, weights, None)
    return tree


def tree_seeds(random_state: int | None, n_trees: int) -> list[int]:
    """The per-tree seeds of a scikit-learn forest: one draw each from the forest's stream."""
    forest_rng = np.random.RandomState(random_state)
    return [forest_rng.randint(MAX_SEED) for _ in range(n_trees)]


def bootstrap_rows(rng: np.random.RandomState, seed: int, n: int) -> np.ndarray:
    """The rows of one tree's bootstrap sample (n draws with replacement), as scikit-learn's
    forests draw them from the tree's seed; ``rng`` is reseeded at ``seed``."""
    rng.seed(seed)
    return rng.randint(0, n, n)


def nodesize_trees(X: np.ndarray, y: np.ndarray, seeds: list[int], *, mtry: int,
                   nodesize: int, max_depth: int | None) -> list[Tree]:
    """The trees of R's ``randomForest`` (:mod:`.rtree`), one per seed of ``seeds``, on float32
    ``X`` (Fortran order) and float64 ``y`` of shape (n, 1): each grown on its bootstrap
    sample's draws (:func:`bootstrap_rows` of its seed). scikit-learn's builder gives R's trees
    when ``X`` is tie-free or ``mtry`` is every feature, and is used then for speed."""
    n, p = X.shape
    rng = np.random.RandomState()
    samples = [bootstrap_rows(rng, seed, n) for seed in seeds]
    if mtry >= p or tie_free(X):
        trees = []
        for seed, rows in zip(seeds, samples, strict=True):
            rng.seed(seed)  # the splitter's stream, as the tree's own seed starts it
            trees.append(grow_tree(np.asfortranarray(X[rows]), y[rows], None, max_features=mtry,
                                   min_samples_split=nodesize + 1, min_samples_leaf=1,
                                   max_depth=max_depth, min_impurity_decrease=0.0, rng=rng))
        return trees
    return grow_level_forest(X, y[:, 0], samples, mtry=mtry, nodesize=nodesize,
                             max_depth=max_depth, rng=np.random.default_rng(seeds))


def as_inputs(X, y=None):
    Xf = np.asfortranarray(X, dtype=np.float32)
    if y is None:
        return Xf
    return Xf, np.ascontiguousarray(np.asarray(y, dtype=np.float64).reshape(-1, 1))


class RpartTree(RegressorMixin, BaseEstimator):
    """CART with rpart's stopping rules: ``minsplit`` rows to try a split, ``minbucket``
    rows per leaf, ``maxdepth`` levels, and the complexity parameter ``cp``."""

    def __init__(self, cp: float = 0.01, min_samples_split: int = 20,
                 min_samples_leaf: int = 7, max_depth: int = 30,
                 max_features: int | float | str | None = None, random_state: int = 0):
        self.cp = cp
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.max_depth = max_depth
        self.max_features = max_features
        self.random_state = random_state

    def fit(self, X, y, sample_weight=None) -> RpartTree:
        Xf, yf = as_inputs(X, y)
        w = None if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
        spread = float(np.cov(yf[:, 0], aweights=w, bias=True)) if len(yf) > 1 else 0.0
        self.n_features_in_ = Xf.shape[1]
        self.tree_ = grow_tree(
            Xf, yf, w, max_features=features_per_split(self.max_features, Xf.shape[1]),
            min_samples_split=self.min_samples_split, min_samples_leaf=self.min_samples_leaf,
            max_depth=self.max_depth, min_impurity_decrease=self.cp * spread,
            rng=np.random.RandomState(self.random_state),
        )
        return self

    def predict(self, X) -> np.ndarray:
        return self.tree_.predict(as_inputs(X))[:, 0]


class CompactForest(RegressorMixin, BaseEstimator):
    """A random forest for regression: bootstrap samples of n rows, ``max_features``
    candidate features per split; the mean of the trees' predictions. Equal to
    ``RandomForestRegressor`` with the same parameters and ``random_state``."""

    def __init__(self, n_estimators: int = 100, max_features: int | float | str | None = 1.0,
                 min_samples_split: int = 2, min_samples_leaf: int = 1,
                 max_depth: int | None = None, nodesize: int | None = None,
                 random_state: int = 0):
        self.n_estimators = n_estimators
        self.max_features = max_features
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.max_depth = max_depth
        self.nodesize = nodesize
        self.random_state = random_state

    def fit(self, X, y) -> CompactForest:
        Xf, yf = as_inputs(X, y)
        n, p = Xf.shape
        k = features_per_split(self.max_features, p)
        # scikit-learn draws one seed per tree from the forest's stream, then starts a stream
        # at that seed twice: for the bootstrap indices and for the tree's splitter (one
        # generator reseeded here: constructing one costs more than growing a small tree)
        self.n_features_in_ = p
        seeds = tree_seeds(self.random_state, self.n_estimators)
        if self.nodesize is not None:  # R's rule, on the drawn rows
            self.trees_ = nodesize_trees(Xf, yf, seeds, mtry=k, nodesize=self.nodesize,
                                         max_depth=self.max_depth)
            return self
        self.trees_ = []
        rng = np.random.RandomState()
        for seed in seeds:  # the bootstrap as weights: scikit-learn's counts of distinct rows
            counts = np.bincount(bootstrap_rows(rng, seed, n), minlength=n).astype(np.float64)
            rng.seed(seed)
            self.trees_.append(grow_tree(
                Xf, yf, counts, max_features=k, min_samples_split=self.min_samples_split,
                min_samples_leaf=self.min_samples_leaf, max_depth=self.max_depth,
                min_impurity_decrease=0.0, rng=rng,
            ))
        return self

    def predict(self, X) -> np.ndarray:
        Xf = as_inputs(X)
        out = np.zeros(len(Xf))
        for tree in self.trees_:
            out += tree.predict(Xf)[:, 0]
        return out / len(self.trees_)


class LeastSquares(RegressorMixin, BaseEstimator):
    """Ordinary least squares with an intercept: the minimum-norm solution of the centred
    normal equations, by LAPACK's least-squares solver."""

    def fit(self, X, y) -> LeastSquares:
        X = np.asarray(X, dtype=float)
        y = np.asarray(y, dtype=float)
        x_mean, y_mean = X.mean(axis=0), y.mean()
        self.coef_ = np.linalg.lstsq(X - x_mean, y - y_mean, rcond=None)[0]
        self.intercept_ = float(y_mean - x_mean @ self.coef_)
        self.n_features_in_ = X.shape[1]
        return self

    def predict(self, X) -> np.ndarray:
        return np.asarray(X, dtype=float) @ self.coef_ + self.intercept_
