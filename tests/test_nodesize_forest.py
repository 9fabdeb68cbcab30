"""``rf`` with ``nodesize``: R's ``randomForest`` rules on the bootstrap draws (the R parity
over seeds is ``tests/test_r_parity_forest.py``; these tests need no R)."""

import numpy as np
import pytest
from sklearn.ensemble import RandomForestRegressor

from imlbench.learners import make_learner
from imlbench.learners.compact import as_inputs, bootstrap_rows, nodesize_trees, tree_seeds
from imlbench.learners.rtree import grow_level_forest, tie_free


def _tied(n: int = 300, seed: int = 4) -> tuple[np.ndarray, np.ndarray]:
    """Two continuous features and a 0/1 one (ties: the level-wise builder)."""
    r = np.random.default_rng(seed)
    X = np.column_stack([r.uniform(0, 10, n), r.uniform(0, 10, n), r.integers(0, 2, n)])
    return X, np.sin(X[:, 0]) + 0.3 * X[:, 1] + 2 * X[:, 2] + r.normal(size=n)


def test_level_builder_grows_the_greedy_tree_when_every_feature_is_tried():
    """With mtry = p nothing is random but the bootstrap: on its drawn rows each tree of the
    level-wise builder predicts what scikit-learn's builder (counting draws) predicts, up to
    rounding (cuts of equal gain may differ off the drawn rows)."""
    r = np.random.default_rng(1)
    X = r.normal(size=(200, 4))
    y = X[:, 0] + X[:, 1] * X[:, 2] + r.normal(size=200)
    Xf, yf = as_inputs(X, y)
    seeds = tree_seeds(3, 30)
    samples = [bootstrap_rows(np.random.RandomState(), s, 200) for s in seeds]
    ours = grow_level_forest(Xf, yf[:, 0], samples, mtry=4, nodesize=5, max_depth=None,
                             rng=np.random.default_rng(0))
    theirs = nodesize_trees(Xf, yf, seeds, mtry=4, nodesize=5, max_depth=None)
    for a, b, rows in zip(ours, theirs, samples, strict=True):
        assert a.node_count == b.node_count
        np.testing.assert_allclose(a.predict(Xf[rows]), b.predict(Xf[rows]), rtol=0, atol=1e-12)


def test_a_node_whose_drawn_features_are_constant_is_a_leaf():
    """R's rule: x0 is constant, so a root that draws only x0 (mtry 1 of 2: probability 1/2)
    is a leaf. Over 400 trees the share of one-node trees is 1/2 within 4 binomial SE (0.1);
    scikit-learn's builder, which draws on to x1, never stops at the root."""
    r = np.random.default_rng(2)
    X = np.column_stack([np.ones(100), r.normal(size=100)])
    y = X[:, 1] + r.normal(size=100)
    assert not tie_free(X)
    fit = make_learner("rf", {"n_estimators": 400, "max_features": 1, "nodesize": 5}, 5).fit(X, y)
    share = np.mean([t.tree_.node_count == 1 for t in fit.estimators_])
    assert abs(share - 0.5) <= 4 * np.sqrt(0.25 / 400)
    sk = RandomForestRegressor(50, max_features=1, random_state=5).fit(X, y)
    assert min(t.tree_.node_count for t in sk.estimators_) > 1


@pytest.mark.parametrize("data", ["tie_free", "tied"])
def test_refits_grow_the_trees_of_the_forest(data):
    """``rf`` and its refit (:class:`CompactForest`) with the same ``nodesize`` and seed
    predict the same, on either builder."""
    if data == "tied":
        X, y = _tied()
    else:
        r = np.random.default_rng(6)
        X = r.normal(size=(150, 6))
        y = X[:, 0] + r.normal(size=150)
    params = {"n_estimators": 25, "max_features": 0.34, "nodesize": 5}
    full = make_learner("rf", params, 9).fit(X, y)
    refit = make_learner("rf", params, 9, refit=True).fit(X, y)
    assert type(full).__name__ == "NodesizeForest"
    assert type(refit).__name__ == "CompactForest"
    np.testing.assert_array_equal(refit.predict(X), full.predict(X))


def test_in_bag_rows_are_scikit_learns_and_counted_as_draws():
    """The trees' bootstrap rows are scikit-learn's for the same seed (so out-of-bag readers
    are right), and the root holds every draw: n rows, duplicates included."""
    X, y = _tied(120)
    ours = make_learner("rf", {"n_estimators": 10, "nodesize": 5}, 3).fit(X, y)
    sk = RandomForestRegressor(10, max_features=1 / 3, random_state=3).fit(X, y)
    for a, b in zip(ours.estimators_samples_, sk.estimators_samples_, strict=True):
        np.testing.assert_array_equal(a, b)
    assert all(t.tree_.n_node_samples[0] == 120 for t in ours.estimators_)


def test_leaves_hold_at_least_one_draw_and_split_nodes_more_than_nodesize():
    X, y = _tied(200)
    fit = make_learner("rf", {"n_estimators": 20, "nodesize": 7}, 1).fit(X, y)
    for t in fit.estimators_:
        tr = t.tree_
        inner = tr.children_left >= 0
        assert (tr.n_node_samples[inner] > 7).all()
        assert (tr.n_node_samples[~inner] >= 1).all()


def test_node_rules_of_the_forest_are_one_or_the_other():
    """``nodesize`` is the default (randomForest's 5); scikit-learn's parameters select its
    forest; both together are refused, naming what may go with ``nodesize``."""
    assert make_learner("rf", {}, 0).nodesize == 5
    assert type(make_learner("rf", {"min_samples_leaf": 5}, 0)) is RandomForestRegressor
    assert type(make_learner("rf", {"max_samples": 0.5}, 0)) is RandomForestRegressor
    with pytest.raises(ValueError, match="cannot be combined with min_samples_leaf"):
        make_learner("rf", {"nodesize": 5, "min_samples_leaf": 2}, 0)
