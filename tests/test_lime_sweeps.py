"""LIME kernel-width sweeps and the surrogate's fit (intercept, selection flags, weighted R^2)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import LinearRegression

from imlbench.dgp.effect_examples import AleBookCh6
from imlbench.explain.lime import default_kernel_width, lime_coefficients, lime_fits, weighted_ridge


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def _nonlinear(Z: np.ndarray) -> np.ndarray:
    return np.sin(2 * Z[:, 0]) + Z[:, 1] * Z[:, 2] + 0.5 * (Z[:, 3] == 1)


def _mixed_data(n: int = 400) -> np.ndarray:
    r = rng(40)
    return np.column_stack([r.normal(size=(n, 3)), r.integers(0, 3, n)]).astype(float)


@pytest.mark.parametrize("options", [
    {"sampling": "local", "local_sd": 0.5},
    {"sampling": "normal", "n_features": 2, "selection": "forward"},
    {"sampling": "quantile_bins", "n_features": 2, "selection": "highest_weights"},
])
def test_a_width_sweep_equals_separate_calls(options):
    """The sweep draws what one width draws, so each width's surrogate equals a separate call
    with the same seed; forward selection makes the chosen features depend on the width."""
    X = _mixed_data()
    widths = [0.2, 0.75, None, 5.0]
    sweep = lime_fits(_nonlinear, X, X[:3], rng(41), kernel_widths=widths, n_samples=300,
                      categorical=[3], **options)
    for v, width in enumerate(widths):
        one = lime_fits(_nonlinear, X, X[:3], rng(41), kernel_widths=[width], n_samples=300,
                        categorical=[3], **options)
        for name in ("coef", "intercept", "r2", "selected"):
            np.testing.assert_array_equal(getattr(sweep, name)[v], getattr(one, name)[0])
        np.testing.assert_array_equal(
            sweep.coef[v, 0, :, 0],
            lime_coefficients(_nonlinear, X, X[:3], rng(41), kernel_width=width, n_samples=300,
                              categorical=[3], **options))
    assert not np.allclose(sweep.coef[0], sweep.coef[-1])  # the widths do differ


def test_the_sweep_predicts_the_samples_once():
    X = _mixed_data()
    calls: list[int] = []

    def counted(Z: np.ndarray) -> np.ndarray:
        calls.append(len(Z))
        return _nonlinear(Z)

    lime_fits(counted, X, X[:2], rng(42), kernel_widths=list(np.linspace(0.1, 4, 41)),
              n_samples=200, categorical=[3])
    assert sum(calls) == 2 * 200


def test_linear_model_with_a_wide_kernel_recovers_its_coefficients_and_intercept():
    """f = X b + c: with a kernel so wide that every sample weighs the same, the surrogate is
    the OLS fit of f on the samples, exactly b and c with R^2 = 1 without penalty; glmnet's
    standardised penalty (default ridge 0.001) shrinks each slope by about 1 / (1 + ridge)
    on independently sampled features (their sample correlations are O(1/sqrt(2000)), so the
    factor holds to about 2e-4 relative, and a zero slope picks up lam r b_k of the others, at
    most about 1e-3 * 0.05 * 4 = 2e-4 in absolute terms)."""
    X = rng(43).normal(size=(500, 4)) * [1.0, 3.0, 0.5, 2.0]
    b, c = np.array([2.0, -0.5, 4.0, 0.0]), -1.5
    exact = lime_fits(lambda Z: Z @ b + c, X, X[:5], rng(1), kernel_widths=[1e6],
                      n_samples=2000, sampling="normal", ridge=0.0)
    np.testing.assert_allclose(exact.coef[0, 0, :, 0], np.tile(b, (5, 1)), atol=1e-9)
    np.testing.assert_allclose(exact.intercept[0, 0, :, 0], c, atol=1e-9)
    np.testing.assert_allclose(exact.r2[0, 0, :, 0], 1.0, atol=1e-12)
    assert exact.selected.all()
    shrunk = lime_fits(lambda Z: Z @ b + c, X, X[:5], rng(1), kernel_widths=[1e6],
                       n_samples=2000, sampling="normal")
    np.testing.assert_allclose(shrunk.coef[0, 0, :, 0], np.tile(b / 1.001, (5, 1)),
                               rtol=2e-4, atol=2e-4)


def test_selection_flags_mark_the_kept_features():
    r = rng(44)
    X = r.normal(size=(500, 5))
    b = np.array([0.0, 3.0, 0.0, -2.0, 0.0])
    for how in ("forward", "highest_weights"):
        fits = lime_fits(lambda Z: Z @ b, X, X[:3], r, n_samples=500, n_features=2,
                         selection=how, ridge=0.0)
        np.testing.assert_array_equal(fits.selected[0, 0, :, 0], np.tile(b != 0, (3, 1)))
        assert (fits.coef[~fits.selected] == 0).all()


def test_weighted_ridge_matches_sklearn_weighted_least_squares():
    """Intercept and weighted R^2 of ``weighted_ridge`` with ridge 0 are those of weighted
    least squares (sklearn's ``LinearRegression`` with ``sample_weight``)."""
    r = rng(45)
    D = r.normal(size=(200, 3))
    t = np.sin(D[:, 0]) + D[:, 1] ** 2 + r.normal(size=200)
    w = r.uniform(0.1, 1.0, 200)
    beta, a, r2 = weighted_ridge(D, t, w, 0.0)
    ols = LinearRegression().fit(D, t, sample_weight=w)
    np.testing.assert_allclose(beta, ols.coef_, atol=1e-10)
    assert a == pytest.approx(ols.intercept_, abs=1e-10)
    assert r2 == pytest.approx(ols.score(D, t, sample_weight=w), abs=1e-10)


def _context():
    from true_model import true_model_context

    dgp = AleBookCh6("multiplicative")
    df = dgp.sample(300, rng(46))
    return true_model_context(dgp, df[dgp.feature_names].to_numpy(), df["y"].to_numpy())


def _lime(params: dict) -> pd.DataFrame:
    from imlbench.explain.api import METHODS

    return METHODS.get("lime")(_context(), {"n_rows": 3, "n_samples": 200, **params}, rng(47))


def test_the_method_sweep_stacks_the_single_width_frames():
    default = _lime({})
    assert list(default.columns) == ["point", "repeat", "row", "feature", "x", "value"]
    widths = [0.5, None, 2.0]
    sweep = _lime({"kernel_width": widths, "n_features": 2})
    p = len(default) // 3
    assert sweep["kernel_width"].unique().tolist() == [0.5, default_kernel_width(p), 2.0]
    for width, part in sweep.groupby("kernel_width", sort=False):
        one = _lime({"kernel_width": width, "n_features": 2})
        pd.testing.assert_frame_equal(part.drop(columns="kernel_width").reset_index(drop=True),
                                      one)


def test_surrogate_fit_adds_columns_without_changing_the_coefficients():
    plain = _lime({"n_features": 1})
    fit = _lime({"n_features": 1, "surrogate_fit": True})
    pd.testing.assert_frame_equal(fit[plain.columns], plain)
    assert (fit.groupby("point")["selected"].sum() == 1).all()
    assert fit["r2"].between(0, 1).all() and np.isfinite(fit["intercept"]).all()
    assert (fit.loc[~fit["selected"], "value"] == 0).all()


def test_a_negative_width_in_the_sweep_is_named():
    from imlbench.explain.api import METHODS
    from imlbench.params import ParamError, check_all

    with pytest.raises(ParamError, match="kernel_width"):
        check_all(METHODS.get("lime").params, {"kernel_width": [1.0, -1.0]})


def test_shared_rows_come_from_the_studys_stream_not_the_methods():
    """``shared_rows``: the rows are drawn from the fixed stream ``lime_rows``, so calls with
    different method streams (other methods, learners, scenarios) explain the same rows."""
    from imlbench.explain.api import METHODS

    ctx = _context()
    ctx.fixed_rng = lambda label: rng(sum(map(ord, label)))

    def rows(shared: bool, seed: int) -> list[int]:
        out = METHODS.get("lime")(ctx, {"n_rows": 5, "n_samples": 50, "shared_rows": shared},
                                  rng(seed))
        return sorted(out["row"].unique())

    assert rows(True, 1) == rows(True, 2) == sorted(
        rng(sum(map(ord, "lime_rows"))).choice(300, 5, replace=False))
    assert rows(False, 1) != rows(False, 2)
