"""Tests of the explainers: PD/ICE, permutation, out-of-bag and relearned importance, leaves.

PD and ICE are checked against scikit-learn's brute-force implementation and against
closed forms of a known linear f; importance measures against exact least-squares
identities and, where only an expectation is known, within Monte Carlo error stated
next to each check.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.ensemble import RandomForestRegressor
from sklearn.inspection import partial_dependence as sk_partial_dependence
from sklearn.linear_model import LinearRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVR

from imlbench.explain.effects import ice, partial_dependence
from imlbench.explain.importance import permutation_importance
from imlbench.explain.oob import oob_permutation_importance
from imlbench.explain.relearn import relearn_importance
from imlbench.studies.extrapolation.dgp_copula import CopulaLinear
from imlbench.studies.extrapolation.partitions import leaf_rectangles

BETA = np.array([1.0, 1.0, 0.5, 0.0, 1.5])
GRID = np.array([0.0, 0.05, 0.2, 0.33, 0.5, 0.61, 0.8, 0.95, 1.0])


@pytest.fixture(scope="module")
def data():
    dgp = CopulaLinear(beta=BETA, rho=0.9, noise_sd=0.1)
    df = dgp.sample(300, np.random.default_rng(11))
    return df[dgp.feature_names].to_numpy(), df["y"].to_numpy()


@pytest.fixture(scope="module")
def models(data):
    X, y = data
    rf = RandomForestRegressor(n_estimators=30, min_samples_leaf=5, random_state=0).fit(X, y)
    svr = make_pipeline(StandardScaler(), SVR(C=1.0, epsilon=0.05)).fit(X, y)
    return {"rf": rf, "svr": svr}


# --------------------------------------------------------------------------- PD and ICE


@pytest.mark.parametrize("name", ["rf", "svr"])
@pytest.mark.parametrize("j", [0, 1, 4])
def test_pd_and_ice_equal_sklearn_brute(models, data, name, j):
    X, _ = data
    model = models[name]
    ref = sk_partial_dependence(
        model, X, [j], custom_values={j: GRID}, method="brute", kind="both"
    )
    np.testing.assert_array_equal(ref["grid_values"][0], GRID)
    pd_ = partial_dependence(model.predict, X, j, GRID)
    ice_ = ice(model.predict, X, j, GRID)
    assert ice_.shape == (len(X), len(GRID))
    # same predictions on the same rows; only the order of summation may differ
    np.testing.assert_allclose(pd_, ref["average"][0], rtol=0, atol=1e-8)
    np.testing.assert_allclose(ice_, ref["individual"][0], rtol=0, atol=1e-8)


@pytest.mark.parametrize("name", ["rf", "svr"])
def test_two_feature_pd_equals_sklearn_brute(models, data, name):
    X, _ = data
    model = models[name]
    g0, g1 = GRID, GRID[::2]
    ref = sk_partial_dependence(
        model, X, [0, 1], custom_values={0: g0, 1: g1}, method="brute", kind="average"
    )
    G = np.array([(a, b) for a in g0 for b in g1])  # sklearn's product grid, 'ij' order
    pd_ = partial_dependence(model.predict, X, [0, 1], G)
    np.testing.assert_allclose(pd_.reshape(len(g0), len(g1)), ref["average"][0], atol=1e-8)
    # the features may be given in any order if the grid columns follow it
    pd_rev = partial_dependence(model.predict, X, [1, 0], G[:, ::-1])
    np.testing.assert_allclose(pd_rev, pd_, atol=1e-12)


@pytest.mark.parametrize("name", ["rf", "svr"])
def test_row_cap_does_not_change_results(models, data, name):
    X = data[0][:60]  # 60 rows keep the ~150 predict calls of 7 rows cheap
    model = models[name]
    for j in (0, 3):
        np.testing.assert_allclose(
            ice(model.predict, X, j, GRID, max_rows=7), ice(model.predict, X, j, GRID),
            rtol=0, atol=1e-12,
        )
    G = np.array([(a, b) for a in GRID for b in GRID[:3]])
    np.testing.assert_allclose(
        partial_dependence(model.predict, X, [0, 2], G, max_rows=7),
        partial_dependence(model.predict, X, [0, 2], G), rtol=0, atol=1e-12,
    )


def test_row_cap_bounds_every_predict_call(data):
    X, _ = data
    sizes = []

    def f(Z):
        sizes.append(len(Z))
        return Z @ BETA

    ice(f, X, 0, GRID, max_rows=50)
    assert max(sizes) <= 50 and sum(sizes) == len(X) * len(GRID)


def test_pd_of_true_f_is_closed_form(data):
    X, _ = data

    def f(Z):
        return Z @ BETA

    means = X.mean(axis=0)
    for j in range(X.shape[1]):
        expected = BETA[j] * GRID + (BETA @ means - BETA[j] * means[j])
        # exact up to floating-point rounding of sums of ~300 terms
        np.testing.assert_allclose(partial_dependence(f, X, j, GRID), expected, atol=1e-12)
        # every ICE curve is the row's prediction shifted along x_j
        expected_ice = (X @ BETA - BETA[j] * X[:, j])[:, None] + BETA[j] * GRID[None, :]
        np.testing.assert_allclose(ice(f, X, j, GRID), expected_ice, atol=1e-12)


def test_grid_covering_all_features_gives_predictions():
    rng = np.random.default_rng(3)
    X = rng.uniform(size=(200, 2))
    y = X[:, 0] + rng.normal(0, 0.05, 200)
    rf = RandomForestRegressor(n_estimators=20, min_samples_leaf=5, random_state=1).fit(X, y)
    G = rng.uniform(size=(40, 2))
    expected = rf.predict(G)
    np.testing.assert_allclose(partial_dependence(rf.predict, X, [0, 1], G), expected,
                               atol=1e-12)
    ice_ = ice(rf.predict, X, [0, 1], G)
    np.testing.assert_allclose(ice_, np.tile(expected, (len(X), 1)), atol=1e-12)
    # Feature order given by the caller: grid column k holds feature S[k]. With S = [1, 0]
    # and the grid columns swapped, the points are the same, so are the predictions.
    np.testing.assert_allclose(partial_dependence(rf.predict, X, [1, 0], G[:, ::-1]), expected,
                               atol=1e-12)
    # and it agrees with the generic path (a model with a third, ignored column)
    X3 = np.column_stack([X, rng.uniform(size=len(X))])

    def f3(Z):
        return rf.predict(Z[:, :2])

    np.testing.assert_allclose(partial_dependence(f3, X3, [1, 0], G[:, ::-1]), expected,
                               atol=1e-12)


def test_grid_with_wrong_width_is_rejected(data):
    X, _ = data
    with pytest.raises(ValueError):
        ice(lambda Z: Z @ BETA, X, [0, 1], GRID)


# --------------------------------------------------------------------------- permutation VI


def test_permutation_importance_of_true_f(data):
    """With the true f as the model, y - f = eps and f - f^pi = b_j (x_j - x_j^pi), so by the
    single-permutation identity E_pi VI_j = 2 b_j^2 V_j + 2 b_j mean(eps (x_j - mean_j))
    exactly given the data (V_j = mean((x_j - mean_j)^2))."""
    X, y = data

    def f(Z):
        return Z @ BETA

    R = 300
    vi = permutation_importance(f, X, y, features=range(X.shape[1]), n_repeats=R,
                                rng=np.random.default_rng(5))
    g = vi.groupby("feature")["value"].agg(["mean", "std"])
    eps = y - f(X)
    Xc = X - X.mean(axis=0)
    expected = 2 * BETA**2 * np.mean(Xc**2, axis=0) + 2 * BETA * (eps @ Xc) / len(X)
    # i.i.d. permutations given the data: SE = sd/sqrt(R); 4 SE (P(|z| > 4) = 6e-5 each).
    se = g["std"].to_numpy() / np.sqrt(R)
    assert np.all(np.abs(g["mean"].to_numpy() - expected) <= 4 * se + 1e-15)
    # b = 0 feature: f does not depend on it, so every repeat is exactly 0
    assert np.all(vi.loc[vi["feature"] == 3, "value"] == 0.0)
    # and the population value 2 b_j^2 / 12: the data-level terms differ from it by
    # O(1/sqrt(n)): V_j has SE sqrt(1/180/n) = 0.0043, the eps term SE 2 |b| 0.1 sqrt(1/12/n)
    # = 0.0033 |b|; 5 SE of their sum.
    tol = 5 * (2 * BETA**2 * np.sqrt(1 / 180 / len(X)) + 2 * np.abs(BETA) * 0.1 * np.sqrt(
        1 / 12 / len(X)))
    assert np.all(np.abs(expected - 2 * BETA**2 / 12) <= tol + 4 * se)


# --------------------------------------------------------------------------- OOB VI


def _independent(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    beta = np.array([1.0, 0.5, 0.25, 0.0])
    X = rng.uniform(size=(n, 4))
    return X, X @ beta + rng.normal(0, 0.1, n)


@pytest.fixture(scope="module")
def forest():
    rng = np.random.default_rng(0)
    X, y = _independent(1000, rng)
    Xt, yt = _independent(5000, rng)
    rf = RandomForestRegressor(n_estimators=100, max_features=1 / 3, min_samples_leaf=5,
                               random_state=0).fit(X, y)
    return rf, X, y, Xt, yt


def test_oob_ranks_irrelevant_feature_lowest(forest):
    rf, X, y, _, _ = forest
    for scale in (True, False):
        v = oob_permutation_importance(rf, X, y, features=range(4), rng=np.random.default_rng(1),
                                       scale=scale)["value"].to_numpy()
        assert np.argmin(v) == 3
        assert list(np.argsort(-v)) == [0, 1, 2, 3]  # ordered by |beta| = 1, 0.5, 0.25, 0
    # scaled: the irrelevant feature's z-score is noise, a relevant one's is large
    vs = oob_permutation_importance(rf, X, y, features=range(4), rng=np.random.default_rng(1))
    assert abs(vs["value"].iloc[3]) < 4 < vs["value"].iloc[2]


def test_oob_unscaled_is_near_test_permutation_importance(forest):
    """With independent features, a permuted OOB row is a fresh draw from the data law, and
    the mean over trees of a tree's loss increase equals the forest's up to terms in
    E_t(T - F) = 0 and E D(x')^2 - E D(x)^2 = 0 (same law of x and x'): both estimate the
    same number. Their difference is dominated by row sampling: the OOB value is in effect
    a permutation importance on the n = 1000 training rows, the test value on 5000 rows, so
    SE ~ sd_i(per-row loss increase) * sqrt(1/1000 + 1/5000). Over 10 data sets the
    z-scores under this SE had sd <= 1.5 (the approximation ignores the permutation and
    tree noise), so we allow 5 SE ("loose": about 3.3 sd of the actual spread)."""
    rf, X, y, Xt, yt = forest
    oob = oob_permutation_importance(rf, X, y, features=range(4), rng=np.random.default_rng(1),
                                     scale=False)["value"].to_numpy()
    base = (yt - rf.predict(Xt)) ** 2
    prng = np.random.default_rng(2)
    R = 4
    inc = np.empty((4, len(Xt)))
    for j in range(4):
        rows = []
        for _ in range(R):
            Xp = Xt.copy()
            Xp[:, j] = prng.permutation(Xt[:, j])
            rows.append((yt - rf.predict(Xp)) ** 2 - base)
        inc[j] = np.mean(rows, axis=0)
    vi = inc.mean(axis=1)
    se = inc.std(axis=1) * np.sqrt(1 / len(X) + 1 / len(Xt))
    assert np.all(np.abs(oob - vi) <= 5 * se), (oob, vi, se)
    # the check has power: the signal features' values are many SEs from 0
    assert np.all(vi[:3] > 10 * se[:3])


def test_oob_needs_bootstrap():
    rng = np.random.default_rng(0)
    X, y = _independent(100, rng)
    rf = RandomForestRegressor(n_estimators=5, bootstrap=False, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="bootstrap"):
        oob_permutation_importance(rf, X, y, features=[0], rng=rng)


# --------------------------------------------------------------------------- relearning


def _lm_fit(Xn, yn):
    return LinearRegression().fit(Xn, yn).predict


def test_drop_relearn_equals_ols_identity(data):
    """RSS_-j - RSS = b_j^2 ||delta_j||^2 (Frisch-Waugh-Lovell), delta_j the residual of x_j
    regressed (with intercept) on the other features; per row: b_j^2 mean(delta_j^2)."""
    X, y = data
    lm = LinearRegression().fit(X, y)
    vi = relearn_importance(_lm_fit, lm.predict, X, y, scheme="drop",
                            features=range(X.shape[1]), rng=np.random.default_rng(0))
    for j in range(X.shape[1]):
        others = np.delete(X, j, axis=1)
        delta = X[:, j] - LinearRegression().fit(others, X[:, j]).predict(others)
        expected = lm.coef_[j] ** 2 * np.mean(delta**2)
        assert vi["value"].iloc[j] == pytest.approx(expected, abs=1e-8)
    # x1, x2 are correlated 0.89: their delta is small, so dropping one costs far less
    # than dropping x3 (independent) with the same b would (compensation, Sect. 5).
    assert vi["value"].iloc[0] < 0.5 * 2 * BETA[0] ** 2 / 12


def test_permute_and_condition_relearn_are_nested_by_drop(data):
    """For least squares, the model relearned on (x_-j, x_j*) contains the dropped model,
    so its training RSS is at most RSS_-j: VI^piL_j, VI^CL_j <= VI^D_j exactly."""
    X, y = data
    dgp = CopulaLinear(beta=BETA, rho=0.9, noise_sd=0.1)
    lm = LinearRegression().fit(X, y)
    feats = range(X.shape[1])
    drop = relearn_importance(_lm_fit, lm.predict, X, y, scheme="drop", features=feats,
                              rng=np.random.default_rng(0))["value"].to_numpy()
    for scheme in ("permute", "conditional"):
        v = relearn_importance(_lm_fit, lm.predict, X, y, scheme=scheme, features=feats,
                               rng=np.random.default_rng(1),
                               sampler=dgp.sample_conditional)["value"].to_numpy()
        assert np.all(v <= drop + 1e-12)
    with pytest.raises(ValueError):
        relearn_importance(_lm_fit, lm.predict, X, y, scheme="conditional", features=[0],
                           rng=np.random.default_rng(0))
    with pytest.raises(ValueError):
        relearn_importance(_lm_fit, lm.predict, X, y, scheme="nope", features=[0],
                           rng=np.random.default_rng(0))


# --------------------------------------------------------------------------- leaves


def test_leaf_rectangles_tile_the_bounds():
    rng = np.random.default_rng(4)
    X = rng.uniform(size=(200, 2))
    X[:, 1] = 0.7 * X[:, 0] + 0.3 * X[:, 1]
    y = X[:, 0] + rng.normal(0, 0.05, 200)
    rf = RandomForestRegressor(n_estimators=10, min_samples_leaf=5, random_state=0).fit(X, y)
    bounds = [(X[:, 0].min(), X[:, 0].max()), (X[:, 1].min(), X[:, 1].max())]
    area = (bounds[0][1] - bounds[0][0]) * (bounds[1][1] - bounds[1][0])
    for tree in rf.estimators_:
        box = leaf_rectangles(tree, [0, 1], bounds)
        assert list(box.columns) == ["leaf", "lo_0", "hi_0", "lo_1", "hi_1", "value"]
        assert len(box) == tree.get_n_leaves()
        w0, w1 = box["hi_0"] - box["lo_0"], box["hi_1"] - box["lo_1"]
        assert (w0 >= 0).all() and (w1 >= 0).all()
        # disjoint boxes covering the bounds: areas add up (rounding only)
        assert (w0 * w1).sum() == pytest.approx(area, rel=1e-12)
        # every training point lies in the box of its leaf, whose value the tree predicts
        leaf_of = tree.apply(X.astype(np.float32))
        by_leaf = box.set_index("leaf")
        lo0, hi0 = by_leaf.loc[leaf_of, "lo_0"].to_numpy(), by_leaf.loc[leaf_of, "hi_0"].to_numpy()
        lo1, hi1 = by_leaf.loc[leaf_of, "lo_1"].to_numpy(), by_leaf.loc[leaf_of, "hi_1"].to_numpy()
        assert np.all((lo0 <= X[:, 0] + 1e-6) & (X[:, 0] <= hi0 + 1e-6))
        assert np.all((lo1 <= X[:, 1] + 1e-6) & (X[:, 1] <= hi1 + 1e-6))
        np.testing.assert_allclose(by_leaf.loc[leaf_of, "value"], tree.predict(X), atol=1e-12)
