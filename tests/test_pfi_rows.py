"""The layer's ``pfi`` on the rows a learner fitted (``data: fitted``: the training rows less
the validation rows of early stopping) and with iml's spread over the permutation repeats
(``quantiles``)."""

from __future__ import annotations

import numpy as np
import pytest

from imlbench.explain.api import METHODS, ExplainContext
from imlbench.learners.classifiers import gbm_classifier

PFI = {"loss": "squared", "contrast": "ratio", "aggregate": "median", "n_repeats": 5,
       "features": None, "groups": {}, "quantiles": None}


class _Ignores:
    """A model that reads only feature 0 (a fixed probability curve of it)."""

    def predict(self, X: np.ndarray) -> np.ndarray:
        return 1 / (1 + np.exp(-2 * X[:, 0]))


def _ctx(model, X, y, X_test=None, y_test=None) -> ExplainContext:
    return ExplainContext(model=model, X=X, y=y, feature_names=["a", "b"], dgp=None, fit=None,
                          fixed_rng=lambda label: np.random.default_rng(0), X_test=X_test,
                          y_test=y_test)


def _logistic(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    return X, (rng.random(n) < 1 / (1 + np.exp(-2 * X[:, 0]))).astype(float)


def test_fitted_rows_leave_out_the_learners_validation_rows():
    X, y = _logistic(400, 1)
    model = gbm_classifier({"max_depth": 2, "validation_fraction": 0.25}, 0, 1).fit(X, y)
    Xf, yf = _ctx(model, X, y).data({"data": "fitted"})
    held = np.asarray(model.validation_rows_)
    assert len(Xf) == 400 - len(held) == 300
    kept = np.setdiff1d(np.arange(400), held)
    np.testing.assert_array_equal(Xf, X[kept])
    np.testing.assert_array_equal(yf, y[kept])
    assert len(_ctx(model, X, y).data({"data": "train"})[0]) == 400
    # a learner that holds no rows out fitted every training row
    assert len(_ctx(_Ignores(), X, y).data({"data": "fitted"})[0]) == 400


def test_pfi_is_one_for_an_unused_feature_and_reports_its_spread():
    X, y = _logistic(500, 2)
    Xt, yt = _logistic(300, 3)
    params = {**PFI, "data": "test", "quantiles": [0.05, 0.95]}
    out = METHODS.get("pfi")(_ctx(_Ignores(), X, y, Xt, yt), params,
                             np.random.default_rng(0)).set_index("feature")
    assert out.loc["b", "value"] == pytest.approx(1.0)  # permuting b changes no prediction
    assert out.loc["a", "value"] > 1.1
    assert out.loc["a", "lower"] <= out.loc["a", "value"] <= out.loc["a", "upper"]
    assert (out["n_repeats"] == 5).all()


def test_pfi_without_quantiles_keeps_its_columns():
    X, y = _logistic(300, 4)
    out = METHODS.get("pfi")(_ctx(_Ignores(), X, y), {**PFI, "data": "train"},
                             np.random.default_rng(0))
    assert list(out.columns) == ["feature", "value"]
