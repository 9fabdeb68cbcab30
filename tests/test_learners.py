"""Learners whose prediction path is our own must predict what the library predicts."""

import numpy as np
import pytest
from sklearn.neighbors import KNeighborsRegressor
from sklearn.svm import SVR

from imlbench.learners import make_learner
from imlbench.learners.kernel_svr import BlockRBFSVR


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(600, 5))
    y = X[:, 0] + np.sin(X[:, 1]) + rng.normal(0, 0.1, 600)
    # more query rows than one block, so the blocking is exercised
    Q = rng.normal(size=(5000, 5)) * 1.5
    return X, y, Q


@pytest.mark.parametrize("gamma", ["scale", 0.3])
def test_block_svr_matches_libsvm(data, gamma):
    X, y, Q = data
    ours = BlockRBFSVR(C=2.0, epsilon=0.05, gamma=gamma).fit(X, y)
    ref = SVR(C=2.0, epsilon=0.05, gamma=gamma).fit(X, y)
    # identical fits; predictions differ only by the rounding of |x|^2 + |s|^2 - 2 x.s
    np.testing.assert_array_equal(ours.dual_coef_, ref.dual_coef_)
    np.testing.assert_allclose(ours.predict(Q), ref.predict(Q), rtol=0, atol=1e-10)


def test_block_svr_other_kernels_use_libsvm(data):
    X, y, Q = data
    ours = BlockRBFSVR(kernel="poly", degree=2).fit(X, y)
    ref = SVR(kernel="poly", degree=2).fit(X, y)
    np.testing.assert_array_equal(ours.predict(Q), ref.predict(Q))


def test_svm_learner_uses_block_predict(data):
    X, y, Q = data
    model = make_learner("svm", {"C": 1.0}, random_state=0).fit(X, y)
    assert isinstance(model[-1], BlockRBFSVR)


def test_knn_brute_force_finds_the_tree_neighbours(data):
    X, y, Q = data
    ours = make_learner("knn", {"n_neighbors": 7}, random_state=0).fit(X, y)
    tree = KNeighborsRegressor(n_neighbors=7, algorithm="kd_tree")
    tree.fit(ours[0].transform(X), y)
    np.testing.assert_allclose(ours.predict(Q), tree.predict(ours[0].transform(Q)), atol=1e-12)


def test_truth_learner_predicts_with_the_bound_dgp():
    from imlbench.dgp.effect_examples import AleBookCh6

    d = AleBookCh6("additive")
    X = d.sample_features(20, np.random.default_rng(0))
    model = make_learner("truth", {}, random_state=0)
    with pytest.raises(ValueError, match="cannot be refitted"):
        model.fit(X, X[:, 0]).predict(X)
    np.testing.assert_array_equal(model.bind(d).fit(X, X[:, 0]).predict(X), d.f(X))
    with pytest.raises(ValueError, match="takes no parameters, got depth"):
        make_learner("truth", {"depth": 1}, random_state=0)


@pytest.mark.parametrize("name, params", [
    ("rf", {"n_estimators": 20, "max_features": 0.3333, "min_samples_leaf": 5}),
    ("bagging", {"n_estimators": 15, "min_samples_leaf": 2}),
])
def test_refits_of_forests_predict_what_the_forest_predicts(name, params):
    r = np.random.default_rng(4)
    X, Xp = r.normal(size=(150, 6)), r.normal(size=(200, 6))
    y = X[:, 0] + X[:, 1] * X[:, 2] + r.normal(size=150)
    full = make_learner(name, params, 9).fit(X, y)
    refit = make_learner(name, params, 9, refit=True).fit(X, y)
    assert type(refit).__name__ == "CompactForest"
    np.testing.assert_array_equal(refit.predict(Xp), full.predict(Xp))


def test_refits_keep_the_forest_for_parameters_the_compact_forest_lacks():
    est = make_learner("rf", {"n_estimators": 5, "max_samples": 0.5}, 0, refit=True)
    assert type(est).__name__ == "RandomForestRegressor"


def test_the_sigest_width_is_drawn_with_the_learners_seed():
    """``gamma: sigest`` fits with kernlab's rule on the rows the SVR sees (x scaled as R's
    ``scale()``), drawn with the learner's seed: the same seed, the same width."""
    from imlbench.learners.kernel_svr import RScale, sigest_gamma

    r = np.random.default_rng(5)
    X, y = r.normal(size=(60, 3)), r.normal(size=60)
    fits = [make_learner("svm_e1071", {"gamma": "sigest"}, random_state=s).fit(X, y)
            for s in (4, 4, 5)]
    widths = [f.regressor_[-1].sigest_ for f in fits]
    assert widths[0] == widths[1] != widths[2]
    assert widths[0] == sigest_gamma(RScale().fit_transform(X), np.random.default_rng(4))
    assert fits[0].regressor_[-1]._gamma == widths[0]
