"""The classifier learners ``rf_classifier`` and ``gbm_classifier``: ``predict`` is the
probability of class 1, y must be 0/1, ``gbm_classifier`` stops early on its validation rows
only, the same seed gives the same model, and both run in a formula-DGP study with
``link: logistic`` (pdp and pfi)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
import yaml
from sklearn.ensemble import HistGradientBoostingClassifier

from imlbench import stages
from imlbench.cli import main as cli_main
from imlbench.config import load_study
from imlbench.learners import LEARNERS, make_learner

REPO = Path(__file__).resolve().parents[1]
SMALL = {"rf_classifier": {"n_estimators": 25}, "gbm_classifier": {"max_iter": 60}}


def logistic_data(n: int = 600, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """y ~ Bernoulli(sigmoid(2 x1 - x2)), x ~ N(0, I_3)."""
    r = np.random.default_rng(seed)
    X = r.normal(size=(n, 3))
    p = 1 / (1 + np.exp(-(2 * X[:, 0] - X[:, 1])))
    return X, (r.random(n) < p).astype(float)


@pytest.mark.parametrize("name", list(SMALL))
def test_predict_is_the_probability_of_class_one(name):
    X, y = logistic_data()
    model = make_learner(name, SMALL[name], random_state=1).fit(X, y)
    pred = model.predict(X)
    assert list(model.classes_) == [0, 1]
    np.testing.assert_array_equal(pred, model.predict_proba(X)[:, 1])
    assert pred.min() >= 0 and pred.max() <= 1 and len(np.unique(pred)) > 2
    # class 1, not class 0: larger where the true P(Y = 1 | x) = sigmoid(2 x1 - x2) is larger
    assert np.corrcoef(pred, 2 * X[:, 0] - X[:, 1])[0, 1] > 0.5


@pytest.mark.parametrize("name", list(SMALL))
@pytest.mark.parametrize("y, shown", [
    (np.tile([0.0, 1.0, 2.0], 20), "0.0, 1.0, 2.0"),
    (np.tile([-1, 1], 30), "-1, 1"),
    (np.full(60, 1.0), "1.0"),
    (np.tile(["0", "1"], 30), "0, 1"),
    (np.linspace(0, 1, 60), "0.0, 0.01694915254237288, "),
])
def test_a_y_that_is_not_zero_one_is_refused(name, y, shown):
    X = np.random.default_rng(3).normal(size=(60, 2))
    with pytest.raises(ValueError, match="needs y with both labels 0 and 1") as err:
        make_learner(name, SMALL[name], random_state=1).fit(X, y)
    assert f"got the values {shown}" in str(err.value) and "allowed: 0, 1" in str(err.value)


def test_booleans_and_integers_are_labels():
    X, y = logistic_data(200)
    as_float = make_learner("rf_classifier", SMALL["rf_classifier"], 1).fit(X, y).predict(X)
    for labels in (y.astype(bool), y.astype(int)):
        model = make_learner("rf_classifier", SMALL["rf_classifier"], 1).fit(X, labels)
        np.testing.assert_array_equal(model.predict(X), as_float)


def test_gbm_defaults_are_the_books_h2o_settings():
    model = make_learner("gbm_classifier", {}, random_state=1)
    params = model.get_params()
    assert {k: params[k] for k in ("max_iter", "learning_rate", "early_stopping",
                                   "validation_fraction", "n_iter_no_change", "tol", "scoring",
                                   "max_leaf_nodes")} == {
        "max_iter": 1000, "learning_rate": 0.1, "early_stopping": True,
        "validation_fraction": 0.15, "n_iter_no_change": 10, "tol": 0.005,
        "scoring": "roc_auc", "max_leaf_nodes": None}
    over = make_learner("gbm_classifier", {"max_depth": 2, "min_samples_leaf": 300}, 1)
    assert over.max_depth == 2 and over.min_samples_leaf == 300


def test_early_stopping_scores_the_validation_rows_only():
    """The validation rows are 15% of the rows, drawn with the seed; the boosting is fitted on
    the other rows, as scikit-learn's fit with explicit ``X_val``/``y_val``. Flipping the labels
    of the validation rows alone leaves every tree as it was (the staged predictions agree) but
    turns the validation AUC into 1 - AUC, below its start of 0.5 from the first tree on: the
    stopping rule ends after ``n_iter_no_change`` = 10 iterations, where the true labels go on."""
    X, y = logistic_data()
    model = make_learner("gbm_classifier", {}, random_state=7).fit(X, y)
    val = model.validation_rows_
    assert len(val) == 90 and len(np.unique(val)) == 90
    train = np.setdiff1d(np.arange(len(X)), val)
    direct = HistGradientBoostingClassifier(**model.get_params()).fit(
        X[train], y[train], X_val=X[val], y_val=y[val])
    assert direct.n_iter_ == model.n_iter_
    np.testing.assert_array_equal(direct.predict_proba(X)[:, 1], model.predict(X))

    flipped = y.copy()
    flipped[val] = 1 - flipped[val]
    wrong = make_learner("gbm_classifier", {}, random_state=7).fit(X, flipped)
    np.testing.assert_array_equal(wrong.validation_rows_, val)
    assert wrong.n_iter_ == 10 < model.n_iter_
    np.testing.assert_allclose(wrong.validation_score_, 1 - model.validation_score_[:11])
    for a, b in zip(wrong.staged_predict_proba(X), model.staged_predict_proba(X), strict=False):
        np.testing.assert_array_equal(a, b)
    # another seed draws other validation rows
    other = make_learner("gbm_classifier", {"max_iter": 5}, random_state=8).fit(X, y)
    assert set(other.validation_rows_) != set(val)


def test_without_early_stopping_every_row_is_fitted():
    X, y = logistic_data(300)
    model = make_learner("gbm_classifier", {"early_stopping": False, "max_iter": 30}, 1)
    model.fit(X, y)
    assert model.n_iter_ == 30 and not hasattr(model, "validation_rows_")


@pytest.mark.parametrize("name", list(SMALL))
def test_the_same_seed_gives_the_same_predictions(name):
    X, y = logistic_data()
    a, b, c = (make_learner(name, SMALL[name], seed, threads=2).fit(X, y).predict(X)
               for seed in (5, 5, 6))
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)


def test_registered_without_tree_capabilities():
    """The tree readers and out-of-bag methods read regression forests: none is claimed."""
    for name in SMALL:
        spec = LEARNERS.get(name)
        assert spec.capabilities == frozenset()
        assert set(SMALL[name]) <= set(spec.params())
    assert "random_state" not in LEARNERS.get("gbm_classifier").params()
    assert "n_jobs" not in LEARNERS.get("rf_classifier").params()


def test_a_logistic_formula_study_fits_and_explains_with_both(tmp_path: Path, capsys):
    shutil.copytree(REPO / "config", tmp_path / "config")
    shutil.copytree(REPO / "workflow" / "schemas", tmp_path / "workflow" / "schemas")
    study_file = tmp_path / "config" / "studies" / "classifiers.yaml"
    study_file.write_text(yaml.safe_dump({
        "title": "t", "reference": "r",
        "learners": {name: {"learner": name, "params": params} for name, params in SMALL.items()},
        "methods": {"pdp": {"method": "pdp", "params": {"features": ["x1"]}},
                    "pfi": {"method": "pfi", "params": {}}},
        "scenarios": {"main": {
            "dgp": "formula",
            "params": {"features": {"x1": {"law": "normal"}, "x2": {"law": "normal"},
                                    "x3": {"law": "normal"}},
                       "f": "3*x1 - x2", "link": "logistic"},
            "n": 400, "reps": 1, "learners": list(SMALL), "methods": ["pdp", "pfi"]}},
    }))
    check = ["--root", str(tmp_path), "--profile", "smoke", "check", "--study", str(study_file)]
    assert cli_main(check) == 0, capsys.readouterr().err
    study = load_study(study_file, "smoke")
    sc = study.scenarios["main"]
    df = stages.sample_chunk(study, sc, "c0", 1)
    assert set(df["y"].unique()) == {0.0, 1.0}
    for name in SMALL:
        fitted = stages.fit_chunk(study, sc, "c0", 1, df, name)
        out = stages.explain_chunk(study, sc, "c0", 1, df, name, ["pdp", "pfi"], fitted, {0: {}},
                                   max_rows=100_000)
        pdp = out["pdp"]
        assert pdp["value"].between(0, 1).all()
        # P(Y = 1 | x) rises with x1: the PD at the largest grid point exceeds that at the least
        ends = pdp.sort_values("x")["value"].to_numpy()
        assert ends[-1] - ends[0] > 0.3, name
        pfi = out["pfi"].set_index("feature")["value"]
        assert pfi["x1"] > pfi["x2"] > pfi["x3"], name
