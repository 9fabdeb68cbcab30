"""The model-fit, marginal-plot and timing methods, the per-trial StratPD curves and the
path-dependent SHAP variant, through their registered adapters."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.ensemble import RandomForestRegressor
from sklearn.linear_model import LinearRegression

from imlbench.dgp.effect_examples import StratpdSynthetic, StratpdWeight
from imlbench.explain.api import METHODS, ExplainContext
from imlbench.explain.stratpd import average_trials, stratpd_trials


def _ctx(model, X, y, names, dgp, X_test=None, y_test=None) -> ExplainContext:
    return ExplainContext(model=model, X=X, y=y, feature_names=names, dgp=dgp, fit=None,
                          fixed_rng=lambda label: np.random.default_rng(0), X_test=X_test,
                          y_test=y_test)


def _quadratic(n: int, seed: int, noise: float = 0.0):
    dgp = StratpdSynthetic("quadratic", noise_sd=noise)
    df = dgp.sample(n, np.random.default_rng(seed))
    return dgp, df[dgp.feature_names].to_numpy(), df["y"].to_numpy()


def test_model_fit_reports_r2_on_training_test_and_out_of_bag_rows():
    dgp, X, y = _quadratic(600, 1, noise=0.5)
    _, Xt, yt = _quadratic(400, 2, noise=0.5)
    lm = LinearRegression().fit(X, y)
    out = METHODS.get("model_fit")(_ctx(lm, X, y, dgp.feature_names, dgp, Xt, yt), {},
                                   np.random.default_rng(0))
    r2 = dict(zip(out["metric"], out["value"], strict=True))
    # no forest, no out-of-bag R^2
    assert set(r2) == {"r2_train", "r2_test", "mse_train", "mse_test"}
    assert r2["r2_train"] == pytest.approx(lm.score(X, y), abs=1e-12)
    assert r2["r2_test"] == pytest.approx(lm.score(Xt, yt), abs=1e-12)
    assert r2["mse_train"] == pytest.approx(np.mean((y - lm.predict(X)) ** 2), rel=1e-12)
    assert r2["mse_test"] == pytest.approx(np.mean((yt - lm.predict(Xt)) ** 2), rel=1e-12)
    # the MSE is SSE / n, so R^2 = 1 - MSE / (population variance of y)
    assert r2["r2_test"] == pytest.approx(1 - r2["mse_test"] / yt.var(), abs=1e-12)
    forest = RandomForestRegressor(50, oob_score=True, random_state=0).fit(X, y)
    out = METHODS.get("model_fit")(_ctx(forest, X, y, dgp.feature_names, dgp), {},
                                   np.random.default_rng(0))
    r2 = dict(zip(out["metric"], out["value"], strict=True))
    assert "mse_test" not in r2 and "mse_train" in r2  # no test rows, no test MSE
    # scikit-learn's own out-of-bag R^2 of the same forest (every row is out of bag for
    # some of 50 trees: P(in every bag) = (1 - 1/n)^(50 n) ~ e^-50)
    assert r2["r2_oob"] == pytest.approx(forest.oob_score_, abs=1e-9)
    assert r2["r2_oob"] < r2["r2_train"]


def test_marginal_y_is_the_mean_of_y_per_value():
    X = np.array([[1.0, 0.0], [1.0, 5.0], [2.0, 1.0], [3.0, 2.0], [3.0, 2.0], [3.0, 8.0]])
    y = np.array([1.0, 3.0, 10.0, 0.0, 3.0, 6.0])
    dgp = StratpdSynthetic("quadratic")
    out = METHODS.get("marginal_y")(_ctx(None, X, y, ["x1", "x2"], dgp),
                                     {"features": ["x1"]}, np.random.default_rng(0))
    assert out["x"].tolist() == [1.0, 2.0, 3.0]
    assert out["value"].tolist() == [2.0, 10.0, 3.0]
    assert out["count"].tolist() == [2, 1, 3]


def test_timing_times_each_feature_and_size_on_nested_subsets():
    dgp, X, y = _quadratic(800, 3)
    params = {"timed": "stratpd", "timed_params": {"min_samples_leaf": 5},
              "sizes": [100, 400, 5000], "times": 2}
    out = METHODS.get("timing")(_ctx(None, X, y, dgp.feature_names, dgp), params,
                                np.random.default_rng(4))
    assert sorted(set(out["n"])) == [100, 400]  # 5000 is more than the 800 rows
    assert len(out) == 2 * 2 * 2  # features x sizes x times
    assert (out["seconds"] > 0).all()
    assert set(out["feature"]) == {"x1", "x2"}
    # x is continuous: every row has its own value
    assert (out["levels"] == out["n"]).all()
    with pytest.raises(ValueError, match="at most the 800 training rows"):
        METHODS.get("timing")(_ctx(None, X, y, dgp.feature_names, dgp),
                              {**params, "sizes": [1000]}, np.random.default_rng(4))


def test_timing_times_a_pair_together_and_refits_per_size():
    """``together`` times one call over both features (a 2-D method's pair); ``refit`` fits
    the learner again on each size's rows before timing them, so the explained model is the
    one trained on those rows."""
    dgp, X, y = _quadratic(600, 7)
    fitted_sizes = []

    def fit(Xn, yn):
        fitted_sizes.append(len(Xn))
        return LinearRegression().fit(Xn, yn).predict

    ctx = ExplainContext(model=LinearRegression().fit(X, y), X=X, y=y,
                         feature_names=dgp.feature_names, dgp=dgp, fit=fit,
                         fixed_rng=lambda label: np.random.default_rng(0))
    params = {"timed": "ale2", "timed_params": {"intervals": {"kind": "quantile", "size": 5}},
              "sizes": [100, 300], "times": 2, "together": True, "refit": True}
    out = METHODS.get("timing")(ctx, params, np.random.default_rng(1))
    assert len(out) == 2 * 2  # one group x sizes x times
    assert set(out["feature"]) == {"x1"} and set(out["features"]) == {2}
    assert fitted_sizes == [100, 300]  # one untimed refit per size, smallest first
    apart = METHODS.get("timing")(ctx, {**params, "timed": "ale", "together": False,
                                        "refit": False}, np.random.default_rng(1))
    assert set(apart["feature"]) == {"x1", "x2"} and set(apart["features"]) == {1}
    assert fitted_sizes == [100, 300]  # no refit without ``refit``


def test_stratpd_trials_each_gives_every_bootstrap_curve_and_their_mean():
    dgp, X, y = _quadratic(500, 5, noise=0.5)
    ctx = _ctx(None, X, y, dgp.feature_names, dgp)
    base = {"features": ["x1"], "ntrials": 4}
    each = METHODS.get("stratpd")(ctx, {**base, "trials": "each"}, np.random.default_rng(6))
    mean = METHODS.get("stratpd")(ctx, {**base, "trials": "mean"}, np.random.default_rng(6))
    assert sorted(each["row"].unique()) == [0, 1, 2, 3]
    by_x = each.groupby("x")["value"].mean()
    np.testing.assert_allclose(mean.set_index("x")["value"], by_x.loc[mean["x"]], rtol=1e-12)
    # the same as the library's average of the same trials
    curves = stratpd_trials(X, y, 0, ntrials=4, rng=np.random.default_rng(6))
    np.testing.assert_allclose(average_trials(curves)[1], mean["value"], rtol=1e-12)


def test_path_dependent_shap_sums_to_the_prediction_minus_the_mean_prediction():
    """Tree path dependent SHAP values add up (local accuracy) to f(x) minus the trees'
    expected value over the training rows, which is not the interventional game's base."""
    dgp = StratpdWeight()
    df = dgp.sample(600, np.random.default_rng(8))
    X, y = df[dgp.feature_names].to_numpy(), df["y"].to_numpy()
    forest = RandomForestRegressor(20, max_features=0.9, random_state=0).fit(X, y)
    ctx = _ctx(forest, X, y, dgp.feature_names, dgp)
    out = METHODS.get("shap")(ctx, {"estimator": "tree_path", "n_rows": 50},
                              np.random.default_rng(9))
    phi = out.pivot(index="row", columns="feature", values="value")[dgp.feature_names]
    rows = X[np.sort(np.random.default_rng(9).choice(len(X), 50, replace=False))]
    base = np.mean([t.tree_.value[0, 0, 0] for t in forest.estimators_])
    np.testing.assert_allclose(phi.sum(axis=1).to_numpy(), forest.predict(rows) - base,
                               atol=1e-6 * np.abs(y).max())
