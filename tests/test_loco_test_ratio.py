"""LOCO measured on test rows and as a ratio (Lei et al. 2018, book ch. 9), by hand with numpy
least squares, through the registered ``loco`` method."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.linear_model import LinearRegression

from imlbench.dgp.effect_examples import StratpdSynthetic
from imlbench.explain.api import METHODS, ExplainContext
from imlbench.explain.relearn import relearn_importance

NAMES = ["x1", "x2", "x3"]


def _rows(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    X = rng.normal(size=(n, 3))
    return X, 1.0 + 2.0 * X[:, 0] - 1.0 * X[:, 1] + rng.normal(size=n)


def _lm_fit(X: np.ndarray, y: np.ndarray):
    return LinearRegression().fit(X, y).predict


def _ctx(X, y, X_test=None, y_test=None) -> ExplainContext:
    return ExplainContext(model=LinearRegression().fit(X, y), X=X, y=y, feature_names=NAMES,
                          dgp=StratpdSynthetic("quadratic"), fit=_lm_fit,
                          fixed_rng=lambda label: np.random.default_rng(0), X_test=X_test,
                          y_test=y_test)


def _ols_predict(X: np.ndarray, y: np.ndarray, X_new: np.ndarray) -> np.ndarray:
    """Ordinary least squares with an intercept, by numpy."""
    A = np.column_stack([np.ones(len(X)), X])
    beta = np.linalg.lstsq(A, y, rcond=None)[0]
    return np.column_stack([np.ones(len(X_new)), X_new]) @ beta


def _loco(params: dict, ctx: ExplainContext) -> dict[str, float]:
    out = METHODS.get("loco")(ctx, params, np.random.default_rng(0))
    return dict(zip(out["feature"], out["value"], strict=True))


def test_loco_ratio_on_test_rows_equals_the_ratio_of_test_mses_by_hand():
    rng = np.random.default_rng(3)
    (X, y), (Xt, yt) = _rows(200, rng), _rows(150, rng)
    got = _loco({"data": "test", "contrast": "ratio", "loss": "squared"}, _ctx(X, y, Xt, yt))
    full = np.mean((yt - _ols_predict(X, y, Xt)) ** 2)
    for j, name in enumerate(NAMES):
        reduced = np.mean((yt - _ols_predict(np.delete(X, j, 1), y, np.delete(Xt, j, 1))) ** 2)
        assert got[name] == pytest.approx(reduced / full, rel=1e-10)
    # x1 (slope 2) raises the test MSE about five-fold, the noise feature x3 hardly at all
    assert got["x1"] > 3 and abs(got["x3"] - 1) < 0.05


def test_loco_difference_with_absolute_loss_on_test_rows_by_hand():
    rng = np.random.default_rng(4)
    (X, y), (Xt, yt) = _rows(200, rng), _rows(150, rng)
    got = _loco({"data": "test", "contrast": "difference", "loss": "absolute"},
                _ctx(X, y, Xt, yt))
    full = np.mean(np.abs(yt - _ols_predict(X, y, Xt)))
    reduced = np.mean(np.abs(yt - _ols_predict(X[:, 1:], y, Xt[:, 1:])))
    assert got["x1"] == pytest.approx(reduced - full, rel=1e-10)


def test_loco_defaults_are_the_training_mse_increase():
    rng = np.random.default_rng(5)
    X, y = _rows(200, rng)
    ctx = _ctx(X, y)
    got = _loco({}, ctx)
    before = relearn_importance(_lm_fit, ctx.predict, X, y, scheme="drop", features=[0, 1, 2],
                                rng=np.random.default_rng(0))
    assert list(got.values()) == list(before["value"])
    full = np.mean((y - _ols_predict(X, y, X)) ** 2)
    reduced = np.mean((y - _ols_predict(X[:, 1:], y, X[:, 1:])) ** 2)
    assert got["x1"] == pytest.approx(reduced - full, rel=1e-10)


def test_loco_on_test_data_needs_test_rows_and_relearn_on_test_needs_drop():
    rng = np.random.default_rng(6)
    (X, y), (Xt, yt) = _rows(50, rng), _rows(20, rng)
    with pytest.raises(ValueError, match="no test rows"):
        _loco({"data": "test"}, _ctx(X, y))
    with pytest.raises(ValueError, match="scheme 'drop'"):
        relearn_importance(_lm_fit, _lm_fit(X, y), X, y, scheme="permute", features=[0],
                           rng=rng, test=(Xt, yt))
    with pytest.raises(ValueError, match="contrast 'quotient'"):
        relearn_importance(_lm_fit, _lm_fit(X, y), X, y, scheme="drop", features=[0],
                           rng=rng, contrast="quotient")
