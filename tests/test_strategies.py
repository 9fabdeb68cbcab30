"""Estimation strategies (``data: train | test | holdout | cv``, ``model_effect_rows``), the
splits and refits a repetition's methods share, and the MSE decomposition of the truth
errors."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from demo_study import demo_study
from sklearn.linear_model import LinearRegression

from imlbench.dgp.base import make_dgp
from imlbench.explain.api import METHODS, ExplainContext
from imlbench.explain.strategies import fold_indices, holdout_rows, mean_of_frames
from imlbench.metrics.truth_errors import DECOMPOSITION, rep_errors, summarise_errors
from imlbench.metrics.truth_synthesis import _decomposed
from imlbench.validate import ConfigError, check_study

GRID = {"kind": "values", "values": [-1.0, 0.0, 0.5, 2.0]}
FEATURES = ["x1", "x2"]


def _dgp(f: str = "x1 + 2*x2 + x1*x2", noise_sd: float = 0.5):
    return make_dgp("formula", {
        "features": {"x1": {"law": "normal"}, "x2": {"law": "normal"}},
        "dependence": {"features": ["x1", "x2"], "correlation": [[1, 0.6], [0.6, 1]]},
        "f": f, "noise_sd": noise_sd})


def _ols(X: np.ndarray, y: np.ndarray):
    return LinearRegression().fit(X, y).predict


def _recording_fit(calls: list[int]):
    """An OLS ``fit`` that records the rows of every refit in ``calls``."""
    def fit(Xn, yn):
        calls.append(len(Xn))
        return _ols(Xn, yn)
    return fit


def _context(model, dgp, X, y, seed: int = 0) -> ExplainContext:
    return ExplainContext(model=model, X=X, y=y, feature_names=FEATURES, dgp=dgp, fit=_ols,
                          fixed_rng=lambda label: np.random.default_rng([seed, len(label)]))


def _ols_context(n: int, seed: int) -> tuple[ExplainContext, np.ndarray, np.ndarray]:
    """The context of an OLS fit on ``n`` rows of :func:`_dgp` drawn with ``seed``, and the
    rows."""
    dgp = _dgp()
    data = dgp.sample(n, np.random.default_rng(seed))
    X, y = data[FEATURES].to_numpy(), data["y"].to_numpy()
    return _context(LinearRegression().fit(X, y), dgp, X, y), X, y


def test_cv_pd_of_a_linear_model_is_the_hand_computed_cross_fitted_pd():
    ctx, X, y = _ols_context(203, 1)
    params = {"data": "cv", "folds": 5, "grid": GRID, "algorithm": "brute"}
    got = METHODS.get("pdp")(ctx, params, np.random.default_rng(7))
    # by hand: the same permutation of the rows, cut into 5 folds of 41 or 40 rows; the PD of
    # an OLS fit b0 + b1 x1 + b2 x2 at x1 = v on fold k is b0 + b1 v + b2 mean_k(x2)
    folds = np.array_split(np.random.default_rng(7).permutation(len(X)), 5)
    assert sorted(len(f) for f in folds) == [40, 40, 41, 41, 41]
    for j, name in enumerate(FEATURES):
        curves = []
        for fold in folds:
            rest = np.setdiff1d(np.arange(len(X)), fold)
            fit = LinearRegression().fit(X[rest], y[rest])
            others = X[np.ix_(fold, [1 - j])].mean(axis=0) @ fit.coef_[[1 - j]]
            curves.append(fit.intercept_ + fit.coef_[j] * np.array(GRID["values"]) + others)
        mine = got[got["feature"] == name]
        np.testing.assert_allclose(mine["x"], GRID["values"])
        np.testing.assert_allclose(mine["value"], np.mean(curves, axis=0), rtol=0, atol=1e-12)


def test_cv_refits_on_every_fold_and_train_and_test_use_the_fitted_model():
    calls = []
    ctx, X, y = _ols_context(100, 2)
    ctx.fit = _recording_fit(calls)
    ctx.X_test, ctx.y_test = X[:30], y[:30]
    pdp = METHODS.get("pdp")
    base = {"grid": GRID, "algorithm": "brute"}
    train = pdp(ctx, {**base, "data": "train"}, np.random.default_rng(0))
    test = pdp(ctx, {**base, "data": "test"}, np.random.default_rng(0))
    assert calls == []  # train and test: the fitted model, no refit
    assert not np.allclose(train["value"], test["value"])
    pdp(ctx, {**base, "data": "cv", "folds": 4}, np.random.default_rng(0))
    assert calls == [75, 75, 75, 75]


def test_holdout_pd_is_the_pd_of_the_refit_on_the_other_rows_at_the_held_out_rows():
    calls = []
    ctx, X, y = _ols_context(100, 3)
    ctx.fit = _recording_fit(calls)
    params = {"data": "holdout", "holdout_share": 0.2, "grid": GRID, "algorithm": "brute"}
    got = METHODS.get("pdp")(ctx, params, np.random.default_rng(5))
    assert calls == [80]
    held = np.sort(np.random.default_rng(5).permutation(100)[:20])
    rest = np.setdiff1d(np.arange(100), held)
    refit = LinearRegression().fit(X[rest], y[rest])
    for j, name in enumerate(FEATURES):
        Z = np.repeat(X[held], len(GRID["values"]), axis=0)
        Z[:, j] = np.tile(GRID["values"], len(held))
        want = refit.predict(Z).reshape(len(held), -1).mean(axis=0)
        np.testing.assert_allclose(got.loc[got["feature"] == name, "value"], want, atol=1e-12)


def test_holdout_rows_refuse_a_share_that_holds_out_none_or_all():
    assert holdout_rows(10, 0.2, np.random.default_rng(0)).tolist() == sorted(
        np.random.default_rng(0).permutation(10)[:2].tolist())
    for share in (0.01, 0.99):
        with pytest.raises(ValueError, match="holdout_share"):
            holdout_rows(10, share, np.random.default_rng(0))


def test_a_repetitions_methods_share_its_splits_and_refits():
    ctx, X, y = _ols_context(120, 4)
    refits: dict[bytes, LinearRegression] = {}

    def refit(rows: np.ndarray) -> LinearRegression:
        key = rows.tobytes()
        if key not in refits:
            refits[key] = LinearRegression().fit(X[rows], y[rows])
        return refits[key]

    def split(label: str) -> np.random.Generator:
        return np.random.default_rng([11, len(label)])

    ctx.split, ctx.refit = split, refit
    ctx.fit = None  # a shared refit is the only route
    pd_cv = {"data": "cv", "folds": 4, "grid": GRID, "algorithm": "brute"}
    ale_cv = {"data": "cv", "folds": 4, "intervals": {"kind": "values", "values": GRID["values"]}}
    a = METHODS.get("pdp")(ctx, pd_cv, np.random.default_rng(1))
    b = METHODS.get("pdp")(ctx, pd_cv, np.random.default_rng(2))
    pd.testing.assert_frame_equal(a, b)  # the split comes from the strategy's stream
    METHODS.get("ale")(ctx, ale_cv, np.random.default_rng(3))
    assert len(refits) == 4  # ALE read the four fold models that PD fitted
    METHODS.get("pdp")(ctx, {**pd_cv, "data": "holdout", "holdout_share": 0.25},
                       np.random.default_rng(4))
    assert len(refits) == 5


def test_fold_indices_partition_the_rows_and_refuse_more_folds_than_rows():
    folds = fold_indices(11, 3, np.random.default_rng(0))
    assert sorted(np.concatenate(folds).tolist()) == list(range(11))
    assert sorted(map(len, folds)) == [3, 4, 4]
    with pytest.raises(ValueError, match="at least 12 rows"):
        fold_indices(11, 12, np.random.default_rng(0))


def test_folds_on_grids_that_differ_are_refused_with_the_remedy():
    a = pd.DataFrame({"feature": "x1", "x": [0.0, 1.0], "value": [1.0, 2.0]})
    b = a.assign(x=[0.0, 1.5])
    with pytest.raises(ValueError, match="law_quantile"):
        mean_of_frames([a, b], "method 'ale' with data: cv")
    np.testing.assert_allclose(mean_of_frames([a, a.assign(value=[3.0, 4.0])], "")["value"],
                               [2.0, 3.0])


def test_model_effect_rows_adds_the_models_own_effect_without_changing_the_estimate():
    ctx, X, y = _ols_context(150, 3)
    model, dgp = ctx.model, ctx.dgp
    base = {"grid": GRID, "algorithm": "brute"}
    plain = METHODS.get("pdp")(ctx, base, np.random.default_rng(0))
    both = METHODS.get("pdp")(ctx, {**base, "model_effect_rows": 4000},
                              np.random.default_rng(0))
    np.testing.assert_array_equal(both["value"], plain["value"])
    # the linear model's own PD: b0 + b_j v + b_-j E[x_-j] with E[x_-j] = 0, read on 4,000
    # fresh rows: mean(x_-j) there has sd 1/sqrt(4000) = 0.016, times |b_-j| < 3; 5 sd: 0.25
    fresh = dgp.sample(4000, ctx.fixed_rng("model_effect_rows"))[FEATURES].to_numpy()
    for j, name in enumerate(FEATURES):
        exact = (model.intercept_ + model.coef_[j] * np.array(GRID["values"])
                 + fresh[:, 1 - j].mean() * model.coef_[1 - j])
        own = both.loc[both["feature"] == name, "model_value"].to_numpy()
        np.testing.assert_allclose(own, exact, atol=1e-12)
        np.testing.assert_allclose(own, model.intercept_ + model.coef_[j]
                                   * np.array(GRID["values"]), atol=0.25)


def test_cv_reads_the_own_effect_of_each_fold_model_on_its_part_of_the_fresh_rows():
    """5 folds, 1,000 fresh rows: fold model k's own PD on rows 200k..200k+199, averaged."""
    ctx, X, y = _ols_context(100, 6)
    got = METHODS.get("pdp")(ctx, {"grid": GRID, "algorithm": "brute", "data": "cv",
                                   "folds": 5, "model_effect_rows": 1000},
                             np.random.default_rng(8))
    fresh = ctx.dgp.sample(1000, ctx.fixed_rng("model_effect_rows"))[FEATURES].to_numpy()
    folds = np.array_split(np.random.default_rng(8).permutation(100), 5)
    for j, name in enumerate(FEATURES):
        curves = []
        for k, fold in enumerate(folds):
            rest = np.setdiff1d(np.arange(100), fold)
            fit = LinearRegression().fit(X[rest], y[rest])
            part = fresh[200 * k:200 * (k + 1)]
            curves.append(fit.intercept_ + fit.coef_[j] * np.array(GRID["values"])
                          + part[:, 1 - j].mean() * fit.coef_[1 - j])
        np.testing.assert_allclose(got.loc[got["feature"] == name, "model_value"],
                                   np.mean(curves, axis=0), atol=1e-12)


class _TrueModel:
    """The regression function itself, as a fitted model (no model error but the fresh
    rows' Monte Carlo error)."""

    def __init__(self, dgp) -> None:
        self.dgp = dgp

    def predict(self, X: np.ndarray) -> np.ndarray:
        return self.dgp.f(X)


def test_the_mse_decomposition_adds_up_and_matches_its_closed_form():
    """f = x1 x2 with independent N(0, 1) features, the true f as the model: the PD of x1
    at v on n training rows is v mean(x2), the truth v E[x2] = 0, the models' own PD v m_f
    with m_f the mean of x2 over the fresh rows (the same in every repetition). So per point
    v: model bias v m_f, model variance 0, covariance 0, estimation bias -v m_f + v mean of
    the repetitions' mean(x2), and estimation variance v^2 / n in expectation."""
    dgp = make_dgp("formula", {"features": {"x1": {"law": "normal"}, "x2": {"law": "normal"}},
                               "f": "x1*x2", "noise_sd": 1.0})
    n, reps, grid = 50, 400, [-2.0, 1.0, 3.0]
    frames = []
    for rep in range(reps):
        data = dgp.sample(n, np.random.default_rng([11, rep]))
        X, y = data[FEATURES].to_numpy(), data["y"].to_numpy()
        ctx = _context(_TrueModel(dgp), dgp, X, y)
        est = METHODS.get("pdp")(ctx, {"grid": {"kind": "values", "values": grid},
                                       "algorithm": "brute", "model_effect_rows": 500},
                                 np.random.default_rng(rep))
        frames.append(est.assign(rep=rep))
    est = pd.concat(frames).assign(scenario="s", learner="truth", method="pd")
    truth = pd.DataFrame({"feature": np.repeat(FEATURES, 2), "row": -1,
                          "x": [-5.0, 5.0] * 2, "estimand": "pd", "value": 0.0, "se": 0.0})
    out = summarise_errors(rep_errors(est, truth, "pd"))
    out = out[(out["anchor"] == "none") & (out["feature"] == "x1")].set_index("x")
    parts = out[DECOMPOSITION]
    # exact by construction: the parts add up to the MSE up to rounding
    total = ((parts["model_bias"] + parts["estimation_bias"]) ** 2 + parts["model_variance"]
             + parts["estimation_variance"] + parts["covariance"])
    np.testing.assert_allclose(total, out["rmse"] ** 2, rtol=1e-12)
    np.testing.assert_allclose(parts["model_variance"], 0.0, atol=1e-12)
    np.testing.assert_allclose(parts["covariance"], 0.0, atol=1e-12)
    m_f = dgp.sample(500, np.random.default_rng([0, len("model_effect_rows")]))["x2"].mean()
    np.testing.assert_allclose(parts["model_bias"], np.array(grid) * m_f, atol=1e-12)
    # the estimation variance over 400 repetitions: v^2/n times a chi-square share whose
    # relative sd is sqrt(2/399) = 0.071; 4 sd: 28%
    np.testing.assert_allclose(parts["estimation_variance"], np.array(grid) ** 2 / n,
                               rtol=4 * np.sqrt(2 / (reps - 1)))
    # the synthesis over the grid (the site's table): the parts add up to its bias2 and
    # variance, whose sum is its mse
    summary = _decomposed(summarise_errors(rep_errors(est, truth, "pd")))
    for _, row in summary.iterrows():
        np.testing.assert_allclose(row["model_bias2"] + row["estimation_bias2"]
                                   + row["bias_cross"], row["bias2"], rtol=1e-10)
        np.testing.assert_allclose(row["model_variance"] + row["estimation_variance"]
                                   + row["covariance"], row["variance"], rtol=1e-10)
        np.testing.assert_allclose(row["bias2"] + row["variance"], row["mse"], rtol=1e-10)


# ---------------------------------------------------------------- the study check

#: a real data set (no law to draw from or read quantiles of)
TABLE = {"description": "Boston", "dgp": "table", "n": None, "reps": 1, "learners": ["lm"],
         "params": {"package": "MASS", "item": "Boston", "target": "medv",
                    "features": ["lstat", "rm"]}}


STRATEGIES = {
    "pd_cv": {"method": "pdp", "params": {"data": "cv", "folds": 5, "model_effect_rows": 1000,
                                          "grid": {"kind": "law_quantile", "size": 20}}},
    "ale_cv": {"method": "ale", "params": {"data": "cv", "intervals": {
        "kind": "law_quantile", "size": 20, "trim": 1}}},
    "pfi_cv": {"method": "pfi", "params": {"data": "cv", "folds": 3}},
    "pd_holdout": {"method": "pdp", "params": {"data": "holdout", "holdout_share": 0.25,
                                               "grid": {"kind": "law_quantile", "size": 20}}},
}


def test_strategies_pass_the_check_on_a_simulation(tmp_path):
    check_study(demo_study(tmp_path, STRATEGIES), "default", tmp_path)


@pytest.mark.parametrize(("params", "key", "allowed"), [
    ({"model_effect_rows": 1000}, "model_effect_rows", "null"),
    ({"grid": {"kind": "law_quantile"}}, "grid", "another kind"),
])
def test_the_law_of_real_data_is_refused_at_its_key(tmp_path, params, key, allowed):
    methods = {"pd": {"method": "pdp", "params": params}}
    with pytest.raises(ConfigError, match=rf"key methods\.pd\.params\.{key}: .*real data, "
                                          rf"with no law; allowed: {allowed}"):
        check_study(demo_study(tmp_path, methods, {"boston": TABLE}), "default", tmp_path)


@pytest.mark.parametrize(("params", "key"), [
    ({"data": "fitted"}, "data"), ({"folds": 1}, "folds"), ({"model_effect_rows": 0},
                                                            "model_effect_rows"),
    ({"holdout_share": 0}, "holdout_share"), ({"holdout_share": 1}, "holdout_share")])
def test_bad_strategy_values_are_refused_at_their_key(tmp_path, params, key):
    with pytest.raises(ConfigError, match=rf"key methods\.pd\.params\.{key}: "):
        check_study(demo_study(tmp_path, {"pd": {"method": "pdp", "params": params}}),
                    "default", tmp_path)
