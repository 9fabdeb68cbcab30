"""Theorem 1 of Hooker, Mentch & Zhou (2021) for permutation importance of a least-squares fit.

For f(x) = b0 + x'b fitted by least squares (with intercept) and squared loss,
    VI^pi_j = mean((f(x) - f(x^pi))^2) + 2 mean((y - f(x)) (f(x) - f(x^pi)))      (exact)
and f(x) - f(x^pi) = b_j (x_j - x_pi(j)). Over a uniformly random permutation,
E (x_ij - x_pi(i)j)^2 averaged over i is 2 V_j, V_j = mean((x_j - mean_j)^2), and the cross
term has expectation 2 b_j mean(e_i (x_ij - mean_j)) = 0 by the normal equations. Hence
    E_pi VI^pi_j = 2 b_j^2 V_j   exactly, for the fitted model on its training data.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.ensemble import RandomForestRegressor
from sklearn.linear_model import LinearRegression

from imlbench.explain.api import METHODS, ExplainContext
from imlbench.explain.importance import permutation_importance
from imlbench.studies.extrapolation.dgp_copula import CopulaLinear

BETA = [1, 1, 1, 1, 1, 0, 0.5, 0.8, 1.2, 1.5]
N = 500
N_REPEATS = 400


@pytest.fixture(scope="module")
def fitted():
    dgp = CopulaLinear(beta=BETA, rho=0.9, noise_sd=0.1)
    df = dgp.sample(N, np.random.default_rng(2021))
    X = df[dgp.feature_names].to_numpy()
    y = df["y"].to_numpy()
    model = LinearRegression().fit(X, y)
    return dgp, X, y, model


def test_theorem1_expectation_over_permutations(fitted):
    dgp, X, y, model = fitted
    p = X.shape[1]
    vi = permutation_importance(
        model.predict, X, y, features=range(p), n_repeats=N_REPEATS,
        rng=np.random.default_rng(7),
    )
    assert len(vi) == p * N_REPEATS
    stats = vi.groupby("feature")["value"].agg(["mean", "std", "count"])
    assert (stats["count"] == N_REPEATS).all()
    theory = 2 * model.coef_**2 * np.mean((X - X.mean(axis=0)) ** 2, axis=0)
    # The repeats are i.i.d. permutations given the data: SE of the mean over repeats is
    # sd/sqrt(R). 4 SE per feature: P(|z| > 4) = 6e-5, 6e-4 over the 10 features.
    se = stats["std"].to_numpy() / np.sqrt(N_REPEATS)
    dev = np.abs(stats["mean"].to_numpy() - theory)
    assert np.all(dev <= 4 * se), pd.DataFrame({"dev": dev, "se": se, "theory": theory})
    # The check has power: for the signal features the SE is small next to the value
    # (x6 has b = 0), so a wrong factor (e.g. b_j^2 V_j, half the value) fails by > 4 SE.
    signal = np.array(BETA) > 0
    assert np.all(theory[signal] / 2 > 4 * se[signal])


def test_theorem1_matches_linear_pfi_theory_method(fitted):
    dgp, X, y, model = fitted
    ctx = ExplainContext(
        model=model, X=X, y=y, feature_names=dgp.feature_names, dgp=dgp,
        fit=lambda Xn, yn: LinearRegression().fit(Xn, yn).predict,
        fixed_rng=lambda label: np.random.default_rng(0),
    )
    out = METHODS.get("extrapolation.linear_pfi_theory")(ctx, {}, np.random.default_rng(0))
    theory = 2 * model.coef_**2 * np.mean((X - X.mean(axis=0)) ** 2, axis=0)
    assert list(out["feature"]) == dgp.feature_names
    np.testing.assert_allclose(out["value"], theory, rtol=1e-12)


@pytest.mark.parametrize("learner", ["lm", "rf"])
def test_single_permutation_identity(fitted, learner):
    """VI = mean((f - f^pi)^2) + 2 mean((y - f)(f - f^pi)) for ONE permutation, any model."""
    dgp, X, y, lm = fitted
    if learner == "lm":
        model = lm
    else:
        model = RandomForestRegressor(n_estimators=20, min_samples_leaf=5, random_state=0)
        model.fit(X, y)
    f = model.predict(X)
    for j in range(X.shape[1]):
        seed = 100 + j
        vi = permutation_importance(
            model.predict, X, y, features=[j], n_repeats=1, rng=np.random.default_rng(seed)
        )["value"].iloc[0]
        # the same permutation, drawn from the same stream: one rng.permutation of column j
        Xp = X.copy()
        Xp[:, j] = np.random.default_rng(seed).permutation(X[:, j])
        fp = model.predict(Xp)
        identity = np.mean((f - fp) ** 2) + 2 * np.mean((y - f) * (f - fp))
        assert vi == pytest.approx(identity, abs=1e-10)
        if learner == "lm":
            # for the linear model, f - f^pi = b_j (x_j - x_j^pi) exactly
            d = model.coef_[j] * (X[:, j] - Xp[:, j])
            assert np.mean(d**2) + 2 * np.mean((y - f) * d) == pytest.approx(vi, abs=1e-10)


def test_normal_equations_kill_the_cross_term(fitted):
    """The step of the proof: sum_i e_i (x_ij - mean_j) = 0 for a least-squares fit."""
    _, X, y, model = fitted
    e = y - model.predict(X)
    # floating-point residue of the normal equations: ~1e-13 relative to |e| |x|
    assert np.max(np.abs(e @ (X - X.mean(axis=0)))) <= 1e-9


def test_repeats_use_distinct_permutations_and_row_cap_is_invisible(fitted):
    _, X, y, model = fitted
    a = permutation_importance(model.predict, X, y, features=[0, 1], n_repeats=5,
                               rng=np.random.default_rng(3))
    b = permutation_importance(model.predict, X, y, features=[0, 1], n_repeats=5,
                               rng=np.random.default_rng(3), max_rows=N + 1)
    c = permutation_importance(model.predict, X, y, features=[0, 1], n_repeats=5,
                               rng=np.random.default_rng(3), max_rows=37)
    pd.testing.assert_frame_equal(a, b, check_exact=False, rtol=0, atol=1e-12)
    pd.testing.assert_frame_equal(a, c, check_exact=False, rtol=0, atol=1e-12)
    # every (feature, repeat) gets its own permutation
    assert a.groupby("feature")["value"].nunique().eq(5).all()
