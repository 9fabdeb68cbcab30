"""Learners whose prediction path is our own must predict what the library predicts."""

import numpy as np
import pytest
from sklearn.neighbors import KNeighborsRegressor
from sklearn.svm import SVR

from imlbench.learners import make_learner
from imlbench.learners.kernel_svr import BlockRBFSVR, RScale


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


# --- coding of categorical features (coding: numeric | treatment) -------------------------


@pytest.fixture(scope="module")
def coded():
    """Columns: numeric, a 4-level factor (codes 0..3), numeric, a 3-level factor (codes
    1..3: the lowest level seen is the reference, whatever its code)."""
    r = np.random.default_rng(3)
    n = 200
    X = np.column_stack([r.normal(size=n), r.integers(0, 4, n), r.normal(size=n) * 5,
                         r.integers(1, 4, n)]).astype(float)
    y = X[:, 0] + np.array([0.0, 2, -1, 3])[X[:, 1].astype(int)] + 0.3 * X[:, 2] \
        + (X[:, 3] == 2) + r.normal(0, 0.1, n)
    return X, y, [1, 3]


def test_model_matrix_codes_factors_in_place_by_treatment_contrasts(coded):
    from imlbench.learners.model_matrix import ModelMatrix

    X, _, cats = coded
    mm = ModelMatrix(cats).fit(X)
    Z = mm.transform(X)
    np.testing.assert_array_equal(mm.assign_, [0, 1, 1, 1, 2, 3, 3])
    np.testing.assert_array_equal(Z[:, [0, 4]], X[:, [0, 2]])
    for j, start, levels in [(1, 1, [1, 2, 3]), (3, 5, [2, 3])]:
        expected = (X[:, [j]] == np.asarray(levels, dtype=float)).astype(float)
        np.testing.assert_array_equal(Z[:, start:start + len(levels)], expected)
    # without an intercept the first factor gets all its levels, the second its contrasts
    full = ModelMatrix(cats, intercept=False).fit(X)
    np.testing.assert_array_equal(full.assign_, [0, 1, 1, 1, 1, 2, 3, 3])
    np.testing.assert_array_equal(full.transform(X)[:, 1:5].sum(axis=1), 1.0)
    # scaling: the numeric columns by R's scale(), the dummies stay 0/1
    scaled = ModelMatrix(cats, intercept=False, scale=True).fit(X)
    S = scaled.transform(X)
    np.testing.assert_array_equal(scaled.scaled_, [1, 0, 0, 0, 0, 1, 0, 0])
    np.testing.assert_allclose(S[:, [0, 5]], RScale().fit_transform(X[:, [0, 2]]), rtol=1e-14)
    np.testing.assert_array_equal(S[:, ~scaled.scaled_], full.transform(X)[:, ~scaled.scaled_])


@pytest.mark.parametrize("name", ["lm", "svm_e1071"])
def test_an_unseen_level_raises_naming_the_column_and_level(coded, name):
    X, y, cats = coded
    model = make_learner(name, {"coding": "treatment"}, 0, categorical=cats).fit(X, y)
    Q = X[:5].copy()
    Q[2, 3] = 7.0
    with pytest.raises(ValueError, match="categorical column 3 has level 7 not seen"):
        model.predict(Q)
    Q[2, 3] = 0.5  # not a code at all
    with pytest.raises(ValueError, match="categorical column 3 has level 0.5 not seen"):
        model.predict(Q)


def test_numeric_coding_predicts_as_before(coded):
    """``coding: numeric`` (and no ``coding``, and ``treatment`` without categorical columns)
    is the learner as it was: the codes used as numbers, the same estimator, bit for bit."""
    from sklearn.compose import TransformedTargetRegressor
    from sklearn.linear_model import LinearRegression
    from sklearn.pipeline import make_pipeline

    from imlbench.learners.kernel_svr import SigestRBFSVR

    X, y, cats = coded
    Q = np.random.default_rng(1).permutation(X)[:50]
    before = {
        "lm": LinearRegression().fit(X, y).predict(Q),
        "svm_e1071": TransformedTargetRegressor(
            regressor=make_pipeline(RScale(), SigestRBFSVR(C=1.0, epsilon=0.1, gamma="auto",
                                                           random_state=0)),
            transformer=RScale()).fit(X, y).predict(Q),
    }
    for name, expected in before.items():
        for params, columns in [({}, cats), ({"coding": "numeric"}, cats),
                                ({"coding": "treatment"}, ())]:
            model = make_learner(name, params, 0, categorical=columns).fit(X, y)
            np.testing.assert_array_equal(model.predict(Q), expected)
        treated = make_learner(name, {"coding": "treatment"}, 0, categorical=cats).fit(X, y)
        assert np.abs(treated.predict(Q) - expected).max() > 1e-3
    # the other learners take no coding and ignore the categorical columns
    rf = make_learner("rf", {"n_estimators": 5}, 0, categorical=cats).fit(X, y)
    np.testing.assert_array_equal(
        rf.predict(Q), make_learner("rf", {"n_estimators": 5}, 0).fit(X, y).predict(Q))


def test_a_coding_outside_numeric_and_treatment_is_refused():
    with pytest.raises(ValueError, match="coding 'dummy' is not allowed; allowed: numeric, "
                                         "treatment"):
        make_learner("lm", {"coding": "dummy"}, 0)
    from imlbench.learners import LEARNERS

    assert "coding" in LEARNERS.get("lm").params()
    assert "coding" in LEARNERS.get("svm_e1071").params()
    assert "coding" not in LEARNERS.get("svm").params()


def test_treatment_coding_fits_lm_on_the_dummies(coded):
    """The treatment-coded ``lm`` recovers the level effects against the reference level
    (the lowest code seen), one coefficient per model-matrix column."""
    X, y, cats = coded
    model = make_learner("lm", {"coding": "treatment"}, 0, categorical=cats).fit(X, y)
    np.testing.assert_allclose(model[-1].coef_, [1, 2, -1, 3, 0.3, 1, 0], atol=0.1)
    # fit_intercept: false is lm(y ~ . - 1): the first factor's levels absorb the intercept
    no_intercept = make_learner("lm", {"coding": "treatment", "fit_intercept": False}, 0,
                                categorical=cats).fit(X, y)
    assert no_intercept[0].n_columns_ == 8
    np.testing.assert_allclose(no_intercept.predict(X), model.predict(X), atol=1e-10)


def test_the_stages_give_the_learner_the_dgps_categorical_columns(tmp_path):
    """fit_chunk and explain_chunk hand ``lm`` with ``coding: treatment`` the columns of the
    DGP's categorical features; LOCO's refits without a feature get the remaining ones."""
    import yaml

    from imlbench import stages
    from imlbench.config import load_study

    study_file = tmp_path / "coded.yaml"
    study_file.write_text(yaml.safe_dump({
        "title": "t", "reference": "r",
        "learners": {"lm": {"learner": "lm", "params": {"coding": "treatment"}}},
        "methods": {"loco": {"method": "loco"}},
        "scenarios": {"main": {
            "dgp": "formula",
            "params": {"features": {
                "x1": {"law": "normal", "mean": 0, "sd": 1},
                "x2": {"law": "categorical", "levels": ["a", "b", "c"], "p": [0.3, 0.3, 0.4]},
                "x3": {"law": "normal", "mean": 0, "sd": 1}},
                "f": "x1 + 2 * (x2 == 1) - (x2 == 2) + x3", "noise_sd": 0.1},
            "n": 200, "reps": 1, "learners": ["lm"], "methods": ["loco"]}},
    }))
    study = load_study(study_file, "smoke")
    sc = study.scenarios["main"]
    df = stages.sample_chunk(study, sc, "c0", 1)
    fitted = stages.fit_chunk(study, sc, "c0", 1, df, "lm")
    assert fitted[0][0].categorical == (1,) and fitted[0][0].n_columns_ == 4
    out = stages.explain_chunk(study, sc, "c0", 1, df, "lm", ["loco"], fitted, {0: {}},
                               max_rows=100_000)
    loco = out["loco"].set_index("feature")["value"]
    assert loco.notna().all() and loco.min() > 0.5  # every feature matters


def test_kept_columns_follows_a_dropped_feature():
    from imlbench.stages import kept_columns

    X = np.random.default_rng(0).normal(size=(20, 5))
    assert kept_columns(X, X, (1, 3)) == (1, 3)
    assert kept_columns(np.delete(X, 0, axis=1), X, (1, 3)) == (0, 2)
    assert kept_columns(np.delete(X, 1, axis=1), X, (1, 3)) == (2,)
    assert kept_columns(np.delete(X, 4, axis=1), X, (1, 3)) == (1, 3)
    assert kept_columns(X[:, :2], X[:, :2], ()) == ()
    with pytest.raises(ValueError, match="cannot tell the categorical columns"):
        kept_columns(np.delete(X, 1, axis=1)[::-1], X, (1, 3))


def test_lm_aliased_drop_keeps_the_first_of_aliased_columns():
    """``aliased: drop`` gives the earlier of two identical columns the whole effect and the
    later NaN (R's NA), predicting as the minimum-norm fit does; a column that is only nearly
    a copy (its residual far above 1e-7 of its norm) is kept; the value is checked."""
    from imlbench.learners.aliased import unaliased_columns

    r = np.random.default_rng(3)
    x1, x3 = r.normal(size=(2, 80))
    X = np.column_stack([x1, x1, x3])
    y = 2 * x1 + x3
    drop = make_learner("lm", {"aliased": "drop"}, 0).fit(X, y)
    np.testing.assert_allclose(drop.coef_[[0, 2]], [2.0, 1.0], atol=1e-10)
    assert np.isnan(drop.coef_[1])
    split = make_learner("lm", {}, 0).fit(X, y)
    np.testing.assert_allclose(split.coef_[:2], [1.0, 1.0], atol=1e-10)
    np.testing.assert_allclose(drop.predict(X), split.predict(X), atol=1e-10)
    near = np.column_stack([np.ones(80), x1, x1 + 1e-4 * x3])
    assert unaliased_columns(near).tolist() == [0, 1, 2]
    assert unaliased_columns(np.column_stack([np.ones(80), x1, 2 * x1 + 3])).tolist() == [0, 1]
    with pytest.raises(ValueError, match="takes only fit_intercept"):
        make_learner("lm", {"aliased": "drop", "positive": True}, 0)
    with pytest.raises(ValueError, match="allowed: split, drop"):
        make_learner("lm", {"aliased": "both"}, 0)
