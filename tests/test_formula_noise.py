"""The ``formula`` DGP's ``noise:`` expression: heteroscedastic additive noise of mean zero given
x (the LMU book's ch. 13 |f(x)| / U(1, 100) noise), its checks, and the unchanged default
stream of ``noise_sd``."""

from __future__ import annotations

import pickle

import numpy as np
import pandas as pd
import pytest

from imlbench.dgp.base import make_dgp
from imlbench.params import ParamError
from imlbench.seeds import rng_for
from imlbench.truth import formula as ft

FEATURES = {"x1": {"law": "normal", "mean": 5, "sd": 1}, "x2": {"law": "uniform"}}
F = "2*x1 + x2"
BOOK = "abs(y) / uniform(1, 100) * normal(0, 1)"


def _dgp(**params):
    return make_dgp("formula", {"features": FEATURES, "f": F, **params})


def test_noise_has_the_written_conditional_law():
    """At a fixed row, e = |f| / U(1, 100) * Z: mean 0 and E[e^2] = f^2 E[U^-2] = f^2 / 100
    (E[U^-2] = (1 - 1/100) / 99 = 1 / 100 for U ~ U(1, 100))."""
    d = _dgp(noise=BOOK)
    n = 200_000
    X = np.tile([[5.0, 0.5]], (n, 1))
    e = d.response(X, np.random.default_rng(1)) - d.f(X)
    f = 10.5
    assert abs(e.mean()) < 4 * e.std() / np.sqrt(n)
    assert (e**2).mean() == pytest.approx(f**2 / 100, rel=0.05)


def test_noise_reads_the_features_and_y():
    """The sd follows the expression: noise sd x1 * 0.1 grows with x1; y = f exactly where the
    sd is 0 (x1 = 0)."""
    d = _dgp(noise="x1 * normal(0, 0.1)")
    rng = np.random.default_rng(2)
    X0 = np.column_stack([np.zeros(1000), np.full(1000, 0.3)])
    np.testing.assert_array_equal(d.response(X0, rng), d.f(X0))
    X1 = np.column_stack([np.full(50_000, 3.0), np.full(50_000, 0.3)])
    assert (d.response(X1, rng) - d.f(X1)).std() == pytest.approx(0.3, rel=0.03)


def test_regression_function_and_sample():
    """f is unchanged by the noise; sample draws rows whose y scatters around f."""
    d = _dgp(noise=BOOK)
    plain = _dgp()
    X = d.sample_features(100, np.random.default_rng(3))
    np.testing.assert_array_equal(d.f(X), plain.f(X))
    df = d.sample(5000, np.random.default_rng(4))
    assert list(df.columns) == ["x1", "x2", "y"]
    resid = df["y"] - d.f(df[["x1", "x2"]].to_numpy())
    assert resid.abs().max() > 0 and abs(resid.mean()) < 0.05


def test_pfi_ratio_is_switched_off():
    """No single noise sd: noise_sd is NaN, which the truths' ratio (noise_sd > 0) skips, and
    noise(n, rng), which cannot see the rows, refuses."""
    d = _dgp(noise=BOOK)
    assert np.isnan(d.noise_sd) and not d.noise_sd > 0
    with pytest.raises(NotImplementedError, match="response"):
        d.noise(10, np.random.default_rng(0))


def test_default_stream_unchanged():
    """Without noise: the draw equals f + N(0, noise_sd^2) drawn after the features, as before;
    noise_sd absent is 0."""
    d = _dgp(noise_sd=0.5)
    rng = np.random.default_rng(5)
    X = d.sample_features(300, rng)
    expected = d.f(X) + rng.normal(0.0, 0.5, size=300)
    np.testing.assert_array_equal(d.sample(300, np.random.default_rng(5))["y"], expected)
    assert _dgp().noise_sd == 0.0


def test_constants_and_pickle():
    """A declared constant stands for its number in noise; the DGP pickles with its noise."""
    d = _dgp(noise="abs(y) / uniform(1, top) * normal(0, 1)", constants={"top": 100})
    back = pickle.loads(pickle.dumps(d))
    X = d.sample_features(50, np.random.default_rng(6))
    np.testing.assert_array_equal(d.response(X, np.random.default_rng(7)),
                                  back.response(X, np.random.default_rng(7)))


@pytest.mark.parametrize(("params", "key", "message"), [
    ({"noise": BOOK, "noise_sd": 1.0}, "noise_sd", "either noise_sd"),
    ({"noise": BOOK, "noise_sd": 0}, "noise_sd", "either noise_sd"),
    ({"noise": "uniform(0, 1)"}, "noise", "mean zero"),
    ({"noise": "normal(1, 1)"}, "noise", "mean zero"),
    ({"noise": "x1 + normal(0, 1)"}, "noise", "mean zero"),
    ({"noise": "normal(0, 1) / normal(0, 1) + abs(y)"}, "noise", "mean zero"),
    ({"noise": "x3 * normal(0, 1)"}, "noise", "unknown name 'x3'"),
    ({"noise": "__import__('os')"}, "noise", "unknown function"),
    ({"noise": "sqrt(x1 - 5) * normal(0, 1)"}, "noise", "not finite"),
    ({"noise": BOOK, "link": "logistic"}, "noise", "logistic"),
])
def test_errors_name_the_key(params, key, message):
    with pytest.raises(ParamError, match=message) as err:
        _dgp(**params)
    assert err.value.key == key


@pytest.mark.parametrize("noise", [
    "normal(0, 1)", "uniform(-2, 2) * x2", "-normal(0, abs(y)) + x1 * uniform(-1, 1)",
    "abs(y) * normal(0, 1) / uniform(1, 100)", "normal(0, 1) * normal(0, 1)",
])
def test_centred_forms_are_accepted(noise):
    assert _dgp(noise=noise).noise_expression.centred()


def test_importance_truth_without_ratio():
    """The true PFI reads f only, so it equals that of the same f with Gaussian noise; the
    ratio, which needs the noise variance, is left out."""
    def fixed_rng(label: str) -> np.random.Generator:
        return rng_for(20261127, "test_formula_noise", label)

    hetero = ft.importance_table(_dgp(noise=BOOK), fixed_rng)
    gaussian = ft.importance_table(_dgp(noise_sd=1.0), fixed_rng)
    assert not hetero["estimand"].str.endswith("_ratio").any()
    assert gaussian["estimand"].str.endswith("_ratio").any()
    kept = gaussian[~gaussian["estimand"].str.endswith("_ratio")].reset_index(drop=True)
    pd.testing.assert_frame_equal(hetero, kept)
