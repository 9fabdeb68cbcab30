"""Each feature-effect method run on the true f, checked against closed-form truths.

With the true f as the model, what remains is the method's own error: Monte Carlo error
of averaging over n rows and the discretisation of its grid or intervals. Each tolerance
states which of the two it covers and how it is computed.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import norm

from imlbench.dgp.effect_examples import AleBookCh6, AleBookCh7, StratpdSynthetic, StratpdWeight
from imlbench.explain.ale import (
    ale_categorical,
    ale_edges,
    ale_first_order,
    ale_second_order,
    similarity_order,
)
from imlbench.explain.effects import (
    centered_ice,
    derivative_ice,
    ice,
    marginal_plot,
    partial_dependence,
)
from imlbench.explain.lime import lime_coefficients
from imlbench.explain.shapley import shapley_exact, shapley_permutation
from imlbench.explain.stratpd import catstratpd, stratpd
from imlbench.truth.effects import ale_book_ch6_second_order, effect_truth

Z = 4.0  # two-sided |z| bound: a correct method fails a single check with probability 6e-5


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


# ---------------------------------------------------------------- PD, ICE, M-plot


def test_pdp_is_the_interventional_pd_not_the_conditional_curve():
    """x1 x2 x3 with x3 | x2 ~ N(x2, x1): PD_2 = m1 mu z is linear, E[f | x2] = m1 z^2 is not.

    Our PD at z is z * mean(x1 x3), so its Monte Carlo SE is |z| sd(x1 x3) / sqrt(n).
    """
    d = AleBookCh6("multiplicative")
    X = d.sample_features(20_000, rng(1))
    grid = np.linspace(-2, 6, 9)
    est = partial_dependence(d.f, X, 1, grid)
    se = np.abs(grid) * np.std(X[:, 0] * X[:, 2]) / np.sqrt(len(X))
    truth_pd = effect_truth(d, "pd", "x2")(grid)
    truth_cond = effect_truth(d, "conditional", "x2")(grid)
    assert np.all(np.abs(est - truth_pd) <= Z * se + 1e-12)
    # the known disagreement: away from 0 and mu the PD misses the conditional curve by
    # far more than its error (at z = 6: 3 against 9)
    far = np.abs(truth_pd - truth_cond) > 1.0
    assert far.sum() >= 4
    assert np.all(np.abs(est - truth_cond)[far] > 10 * se[far])


def test_marginal_plot_estimates_the_conditional_curve():
    """M-plot bin means of f against E[f | x2] = m1 x2^2 averaged over the same rows.

    Given the x2 values, f - m1 x2^2 has mean zero; its within-bin SD over sqrt(bin count)
    is the SE of each bin's mean.
    """
    d = AleBookCh6("multiplicative")
    X = d.sample_features(20_000, rng(2))
    edges = ale_edges(X[:, 1], {"kind": "quantile", "size": 10})
    centers, means, counts = marginal_plot(d.f, X, 1, edges)
    k = np.clip(np.searchsorted(edges, X[:, 1], side="left") - 1, 0, len(edges) - 2)
    cond = effect_truth(d, "conditional", "x2")(X[:, 1])
    truth = np.bincount(k, weights=cond) / counts
    resid = d.f(X) - cond
    se = np.sqrt(np.bincount(k, weights=resid**2) / counts) / np.sqrt(counts)
    assert np.all(np.abs(means - truth) <= Z * se)
    np.testing.assert_allclose(centers, (edges[:-1] + edges[1:]) / 2)


def test_ice_centered_and_derivative_of_an_additive_function_are_exact():
    """f = x1 + x2 - x3: every ICE curve of x1 is z plus a row constant; c-ICE at the
    minimum is z - z_min and the d-ICE is 1 everywhere, to rounding."""
    d = AleBookCh6("additive")
    X = d.sample_features(200, rng(3))
    grid = np.linspace(X[:, 0].min(), X[:, 0].max(), 11)
    curves = ice(d.f, X, 0, grid)
    np.testing.assert_allclose(curves - curves[:, :1], np.tile(grid - grid[0], (200, 1)),
                               atol=1e-12)
    np.testing.assert_allclose(centered_ice(curves, anchor=0), curves - curves[:, :1])
    np.testing.assert_allclose(derivative_ice(curves, grid), 1.0, atol=1e-9)


def test_derivative_ice_reveals_an_interaction():
    """f = x1 x2^2 (book Example 1, variant): d-ICE of x1 for row i is x2_i^2 exactly."""
    d = AleBookCh6("squared")
    X = d.sample_features(50, rng(4))
    grid = np.linspace(0, 0.5, 6)
    dice = derivative_ice(ice(d.f, X, 0, grid), grid)
    np.testing.assert_allclose(dice, np.tile(X[:, 1:2] ** 2, (1, len(grid))), rtol=1e-9)


# ---------------------------------------------------------------- ALE


def test_ale_of_an_additive_function_is_exact_at_the_edges():
    """Book ch. 7 Example 1: df/dx1 does not depend on x2, so every local difference is
    exactly g(z_k) - g(z_{k-1}); the uncentred ALE equals g(z) - g(z_0) at every edge."""
    d = AleBookCh7("additive")
    X = d.sample_features(1000, rng(5))
    g = effect_truth(d, "ale", "x1")
    for spec in ({"kind": "quantile", "size": 10}, {"kind": "equidistant", "size": 25}):
        edges = ale_edges(X[:, 0], spec)
        values, _ = ale_first_order(d.f, X, 0, edges, centering="none")
        np.testing.assert_allclose(values, g(edges) - g(edges[0]), rtol=1e-10, atol=1e-8)


@pytest.mark.parametrize("K", [10, 40])
def test_ale_under_dependence_matches_the_closed_form(K):
    """Book ch. 6 Example 1, x2: ALE_2(z) = m1 z^2 / 2 although PD_2 is linear.

    Row i in interval k contributes x1_i x3_i (z_k - z_{k-1}); given x2, E[x1 x3] = m1 x2.
    Error = Monte Carlo (interval SE of x1 x3 times the width, added in quadrature along
    the accumulation) + discretisation: each interval uses m1 * mean(x2 in it) instead of
    the integral of m1 t, off by at most m1 * width^2 / 2 per interval.
    """
    d = AleBookCh6("multiplicative")
    X = d.sample_features(100_000, rng(6))
    edges = ale_edges(X[:, 1], {"kind": "quantile", "size": K})
    values, counts = ale_first_order(d.f, X, 1, edges, centering="none")
    truth = effect_truth(d, "ale", "x2")
    want = truth(edges) - truth(edges[0])
    k = np.clip(np.searchsorted(edges, X[:, 1], side="left") - 1, 0, K - 1)
    prod = X[:, 0] * X[:, 2]
    var_k = np.bincount(k, weights=prod**2) / counts - (np.bincount(k, weights=prod) / counts) ** 2
    w = np.diff(edges)
    se = np.sqrt(np.concatenate([[0.0], np.cumsum(w**2 * var_k / counts)]))
    bias = np.concatenate([[0.0], np.cumsum(0.25 * w**2 / 2)])
    assert np.all(np.abs(values - want) <= Z * se + bias + 1e-12)
    # and the check has teeth: the (linear) PD's increments are far outside it
    pd_line = effect_truth(d, "pd", "x2")(edges) - effect_truth(d, "pd", "x2")(edges[0])
    assert np.max(np.abs(pd_line - want) - (Z * se + bias)) > 1.0


def test_ale_centering_conventions():
    d = AleBookCh7("additive")
    X = d.sample_features(500, rng(7))
    edges = ale_edges(X[:, 0], {"kind": "quantile", "size": 8})
    raw, counts = ale_first_order(d.f, X, 0, edges, centering="none")
    data, _ = ale_first_order(d.f, X, 0, edges, centering="data")
    integral, _ = ale_first_order(d.f, X, 0, edges, centering="integral")
    mids = (data[:-1] + data[1:]) / 2
    assert abs(np.sum(mids * counts)) < 1e-9 * np.abs(raw).max()
    mids = (integral[:-1] + integral[1:]) / 2
    assert abs(np.sum(mids * np.diff(edges))) < 1e-9 * np.abs(raw).max()
    np.testing.assert_allclose(data - integral, (data - integral)[0])


def _truncated_normal_second_moment(mu: float, sd: float, lo: float, hi: float) -> float:
    a, b = (lo - mu) / sd, (hi - mu) / sd
    mass = norm.cdf(b) - norm.cdf(a)
    m1 = (norm.pdf(a) - norm.pdf(b)) / mass
    m2 = 1 + (a * norm.pdf(a) - b * norm.pdf(b)) / mass  # E[Z^2] of the truncated N(0, 1)
    return mu**2 + 2 * mu * sd * m1 + sd**2 * m2


def test_second_order_ale_matches_eq_6_13():
    """Book eq. 6.13, ALE_12 = (1/2)(x1 - E x1)(x2^2 - E x2^2), on the box of the central
    80% of x2 (rows outside the edges are left out, so the moments are those of the box).

    Discretisation: a cell uses mean(x3) ~ mean(x2 in the cell) instead of the integral of
    x2 over it, off by at most dz1 dz2^2 / 2; summed over the cells this bounds the raw
    surface's error by (range of x1) * sum(dz2^2) / 2, and the two main-effect corrections
    and the centring (weighted means of raw values) at most triple it. Monte Carlo: x3 has
    conditional SD x1 <= 0.5, giving cell means with SE <= 0.5 / sqrt(count) times the cell
    area, accumulated over at most all cells.
    """
    d = AleBookCh6("multiplicative", mu=5.0, sd=1.0)
    X = d.sample_features(200_000, rng(8))
    lo, hi = np.quantile(X[:, 1], [0.1, 0.9])
    K = 12
    e1 = np.linspace(0.0, 0.5, K + 1)
    e2 = np.linspace(lo, hi, K + 1)
    est = ale_second_order(d.f, X, 0, 1, e1, e2)
    box = (X[:, 1] >= lo) & (X[:, 1] <= hi)
    m2 = _truncated_normal_second_moment(5.0, 1.0, lo, hi)
    want = 0.5 * (e1[:, None] - 0.25) * (e2[None, :] ** 2 - m2)
    dz1, dz2 = np.diff(e1), np.diff(e2)
    counts = np.histogram2d(X[box, 0], X[box, 1], bins=[e1, e2])[0]
    raw_bias = 0.5 * np.sum(dz2**2) / 2
    mc = np.sqrt(np.sum((np.outer(dz1, dz2) * 0.5) ** 2 / counts))
    tol = 4 * raw_bias + 4 * Z * mc
    assert np.max(np.abs(est - want)) <= tol
    # the closed form with the whole-distribution moments (eq. 6.13 verbatim) is the same
    # surface up to the box's moments; a sign error would miss by twice the signal
    assert np.max(np.abs(want)) > 3 * tol
    np.testing.assert_allclose(ale_book_ch6_second_order(d, e1[:, None], e2[None, :]),
                               0.5 * (e1[:, None] - 0.25) * (e2[None, :] ** 2 - 26))


def test_categorical_ale_recovers_a_level_effect():
    """Weight example: f adds 40 for pregnant; the ALE jump between the two levels of a
    boolean is exactly the mean prediction difference, here 40 for every row."""
    d = StratpdWeight()
    X = d.sample_features(2000, rng(9))
    values, counts = ale_categorical(d.f, X, 1, np.array([0.0, 1.0]))
    assert values[1] - values[0] == pytest.approx(40.0, abs=1e-9)
    assert np.sum(values * counts) == pytest.approx(0.0, abs=1e-8)


def test_similarity_order_sorts_levels_by_the_other_features():
    """Levels whose other features are distributed alike end up next to each other."""
    r = rng(10)
    level = r.integers(0, 4, 4000)
    shift = np.array([0.0, 3.0, 1.0, 2.0])[level]  # similarity order: 0, 2, 3, 1
    X = np.column_stack([level, shift + r.normal(0, 0.3, 4000), r.normal(size=4000)])
    assert similarity_order(X, 0).tolist() == [0.0, 2.0, 3.0, 1.0]


# ---------------------------------------------------------------- StratPD


def test_stratpd_is_exact_for_a_linear_effect_in_pure_leaves():
    """y = 3 x1 + h(x2) with x2 on 8 levels and leaves that isolate them: every leaf slope
    is exactly 3, so StratPD is 3 (z - min) at every retained x."""
    r = rng(11)
    x2 = r.integers(0, 8, 4000).astype(float)
    x1 = r.uniform(0, 1, 4000)
    y = 3 * x1 + np.sin(x2) * 5
    xs, pd_ = stratpd(np.column_stack([x1, x2]), y, 0, min_samples_leaf=10, rng=r)
    assert len(xs) > 3000
    np.testing.assert_allclose(pd_, 3 * (xs - xs[0]), atol=1e-8)


def test_stratpd_recovers_the_idealised_pd_of_a_noisy_quadratic():
    """Parr & Wilson Fig. 4: y = x1^2 + x2 + 10 + N(0, 0.5), PD_1(z) = z^2 + const.

    In the interior a leaf's forward difference over [a, b) estimates the slope at a
    uniformly placed x in it without bias, so over 20 independent data sets the mean error
    of PD(z) - PD(-1), z in {-0.5, 0, 0.5, 1}, must lie within Z standard errors of those
    20 errors. At the left edge the covering intervals reach further right than left,
    biasing the slope of a curve with positive curvature upwards; that known edge bias
    shows as a positive error of PD(-1) - PD(start) beyond its own Z standard errors.
    """
    d = StratpdSynthetic("quadratic", noise_sd=0.5)
    truth = effect_truth(d, "ale", "x1")
    points = np.array([-1.0, -0.5, 0.0, 0.5, 1.0])
    interior, edge = [], []
    for rep in range(20):
        r = rng(100 + rep)
        X = d.sample_features(2000, r)
        y = d.f(X) + d.noise(2000, r)
        xs, pd_ = stratpd(X, y, 0, min_samples_leaf=10, min_slopes_per_x=5, rng=r)
        est = np.interp(points, xs, pd_)
        interior.append((est[1:] - est[0]) - (truth(points[1:]) - truth(points[0])))
        edge.append(est[0] - (truth(points[0]) - truth(xs[0])))
    interior, edge = np.array(interior), np.array(edge)
    se = interior.std(axis=0, ddof=1) / np.sqrt(len(interior))
    assert np.all(np.abs(interior.mean(axis=0)) <= Z * se), (interior.mean(axis=0), se)
    assert edge.mean() > Z * edge.std(ddof=1) / np.sqrt(len(edge))


def test_catstratpd_is_exact_in_pure_leaves():
    """A level effect of 40 with the other features on a few discrete values: every leaf
    holding both levels sees exactly 40."""
    r = rng(12)
    n = 3000
    female = r.integers(0, 2, n)
    preg = np.where(female == 1, r.integers(0, 2, n), 0)
    height = r.integers(60, 64, n) + 4 * female
    X = np.column_stack([female, preg, height]).astype(float)
    y = 10 * height + 40 * preg
    for anchor in ("random", "mean"):
        for reference in ("random", "min"):
            levels, eff = catstratpd(X, y, 1, min_samples_leaf=5, rng=r,
                                     anchor=anchor, reference=reference)
            assert levels.tolist() == [0.0, 1.0]
            assert eff[1] - eff[0] == pytest.approx(40.0, abs=1e-9)


def test_catstratpd_finds_the_pregnancy_effect_the_conditional_curve_misses():
    """Parr & Wilson Fig. 7 with the true f (noise-free): only CatStratPD was reported to
    recover the 40 lb effect, the other methods showing about 30; the conditional means
    differ by about 16 (pregnancy implies female). The check resolves the published
    contrast: the estimate must lie within a quarter of the 10 lb gap (2.5 lb) of 40, and
    the observed conditional difference within 4 of its SEs of the closed form."""
    d = StratpdWeight()
    X = d.sample_features(2000, rng(13))
    y = d.f(X)
    _, eff = catstratpd(X, y, 1, min_samples_leaf=10, rng=rng(14))
    assert abs(eff[1] - eff[0] - 40) < 2.5
    cond = effect_truth(d, "conditional", "pregnant")(1.0)
    assert abs(cond - 40) > 20
    preg = X[:, 1] == 1
    se = np.sqrt(y[preg].var() / preg.sum() + y[~preg].var() / (~preg).sum())
    assert abs(y[preg].mean() - y[~preg].mean() - cond) <= Z * se


# ---------------------------------------------------------------- SHAP


def _pairwise_game(X, B):
    """f = x1 x2 + x3^2 - 2 x4: closed-form interventional Shapley values with background B."""
    b1, b2 = B[:, 0].mean(), B[:, 1].mean()
    b12 = (B[:, 0] * B[:, 1]).mean()
    x1, x2, x3, x4 = X.T
    phi1 = 0.5 * ((x1 * b2 - b12) + (x1 * x2 - x2 * b1))
    phi2 = 0.5 * ((x2 * b1 - b12) + (x1 * x2 - x1 * b2))
    phi3 = x3**2 - (B[:, 2] ** 2).mean()
    phi4 = -2 * (x4 - B[:, 3].mean())
    return np.column_stack([phi1, phi2, phi3, phi4])


def _f_pairwise(Z_):
    return Z_[:, 0] * Z_[:, 1] + Z_[:, 2] ** 2 - 2 * Z_[:, 3]


def test_exact_shapley_values_equal_the_closed_form():
    r = rng(15)
    X, B = r.normal(size=(30, 4)), r.normal(size=(25, 4))
    np.testing.assert_allclose(shapley_exact(_f_pairwise, X, B), _pairwise_game(X, B),
                               atol=1e-10)


def test_antithetic_permutation_sampling_is_exact_for_a_pairwise_game():
    """A game with interactions of order <= 2 is averaged exactly by any order together with
    its reverse, so two permutations already give the Shapley values."""
    r = rng(16)
    X, B = r.normal(size=(30, 4)), r.normal(size=(25, 4))
    phi = shapley_permutation(_f_pairwise, X, B, 2, r)
    np.testing.assert_allclose(phi, _pairwise_game(X, B), atol=1e-10)


def test_shapley_values_add_up_to_the_prediction_minus_the_background_mean():
    r = rng(17)
    X, B = r.normal(size=(10, 5)), r.normal(size=(20, 5))

    def f(Z_):
        return np.sin(Z_[:, 0] * Z_[:, 1] * Z_[:, 2]) + Z_[:, 3] * Z_[:, 4]

    for phi in (shapley_exact(f, X, B), shapley_permutation(f, X, B, 6, r)):
        np.testing.assert_allclose(phi.sum(axis=1), f(X) - f(B).mean(), atol=1e-10)


# ---------------------------------------------------------------- LIME


@pytest.mark.parametrize("sampling", ["local", "normal", "quantile_bins", "kde"])
def test_lime_recovers_the_coefficients_of_a_linear_function(sampling):
    r = rng(18)
    X = r.normal(size=(500, 3)) * [1.0, 2.0, 0.5]
    beta = np.array([1.5, -2.0, 0.25])
    coef = lime_coefficients(lambda Z_: Z_ @ beta + 1.0, X, X[:3], r, n_samples=400,
                             sampling=sampling, ridge=0.0)
    np.testing.assert_allclose(coef, np.tile(beta, (3, 1)), atol=1e-9)


def test_lime_local_sampling_recovers_the_gradient():
    """f = x1^2 + x2 at x: gradient (2 x1, 1). With local draws delta ~ N(0, s^2), the
    slope of (x1 + delta)^2 on delta is 2 x1 + cov(delta, delta^2) / var(delta); the error
    term has SD sqrt(var(delta^3 - s^2 delta) / n) / s^2 = sqrt(10 / n) s. The slope of x2
    is 1 plus the regression of the leftover delta1^2 (SD sqrt(2) s^2) on delta2, SD
    sqrt(2 / n) s. The kernel weights vary by under 5% over these draws, which changes
    those SDs negligibly."""
    r = rng(19)
    X = r.uniform(-2, 2, size=(1000, 2))
    rows = np.array([[0.5, 0.0], [-1.0, 1.0]])
    n, s = 20_000, 0.1
    coef = lime_coefficients(lambda Z_: Z_[:, 0] ** 2 + Z_[:, 1], X, rows, r, n_samples=n,
                             sampling="local", local_sd=s, ridge=0.0)
    sd1, sd2 = s * X[:, 0].std(), s * X[:, 1].std()
    assert np.all(np.abs(coef[:, 0] - 2 * rows[:, 0]) <= Z * np.sqrt(10 / n) * sd1)
    assert np.all(np.abs(coef[:, 1] - 1.0) <= Z * np.sqrt(2 / n) * sd1**2 / sd2)


def test_lime_feature_selection_keeps_the_relevant_features():
    r = rng(20)
    X = r.normal(size=(500, 6))
    beta = np.array([3.0, 0.0, -2.0, 0.0, 0.0, 0.0])
    for how in ("forward", "highest_weights", "auto"):
        coef = lime_coefficients(lambda Z_: Z_ @ beta, X, X[:2], r, n_samples=500,
                                 n_features=2, selection=how, ridge=0.0)
        assert set(np.flatnonzero(coef[0])) == {0, 2}


# ---------------------------------------------------------------- registry and bad input


def _context(dgp, n=300, seed=21):
    from true_model import true_model_context

    r = rng(seed)
    df = dgp.sample(n, r)
    X, y = df[dgp.feature_names].to_numpy(), df["y"].to_numpy()

    return true_model_context(dgp, X, y)


@pytest.mark.parametrize("method, params, columns", [
    ("ale", {"intervals": {"kind": "quantile", "size": 10}}, {"feature", "x", "value"}),
    ("ale2", {"features": ["x1", "x2"], "intervals": {"size": 5}}, {"x", "z", "value"}),
    ("mplot", {"intervals": {"size": 5}}, {"feature", "x", "value", "count"}),
    ("stratpd", {"min_samples_leaf": 10}, {"feature", "x", "value"}),
    ("shap", {"n_rows": 5, "n_background": 10}, {"feature", "row", "x", "value"}),
    ("shap", {"n_rows": 5, "n_background": 10, "estimator": "permutation"},
     {"feature", "row", "x", "value"}),
    ("lime", {"n_rows": 3, "n_samples": 200}, {"row", "feature", "value"}),
    ("ice", {"rows": "data", "n_rows": 4, "curve": "derivative", "grid": {"size": 5}},
     {"feature", "row", "x", "value"}),
])
def test_registered_methods_return_tidy_frames(method, params, columns):
    from imlbench.explain.api import METHODS

    ctx = _context(AleBookCh6("additive"))
    out = METHODS.get(method)(ctx, params, rng(22))
    assert columns <= set(out.columns) and len(out) > 0
    assert np.isfinite(out["value"]).all()


def test_categorical_features_come_from_the_dgp():
    from imlbench.explain.api import METHODS

    ctx = _context(StratpdWeight(), n=1000)
    ale = METHODS.get("ale")(ctx, {"features": ["pregnant"]}, rng(23))
    assert ale["x"].tolist() == [0.0, 1.0]
    assert ale["value"].diff().iloc[1] == pytest.approx(40.0)
    strat = METHODS.get("stratpd")(ctx, {"features": ["pregnant"]}, rng(24))
    assert strat["x"].tolist() == [0.0, 1.0]


def test_unknown_feature_is_named():
    from imlbench.explain.api import METHODS

    with pytest.raises(ValueError, match="feature 'x9' is not in the data; allowed: x1, x2, x3"):
        METHODS.get("ale")(_context(AleBookCh6()), {"features": ["x9"]}, rng(25))


def test_grid_outside_the_data_is_rejected_when_not_allowed():
    from imlbench.explain.grids import make_grid

    x = np.linspace(0.2, 0.8, 50)
    assert make_grid(x, {"kind": "equidistant", "range": [0, 1], "size": 5}).min() == 0
    with pytest.raises(ValueError, match=r"grid of x1 spans \[0, 1\] but its data lie in "
                                         r"\[0.2, 0.8\] and within_data is true"):
        make_grid(x, {"kind": "equidistant", "range": [0, 1], "size": 5, "within_data": True},
                  "x1")


def test_categorical_feature_with_one_level_is_rejected():
    X = np.column_stack([np.ones(50), rng(26).normal(size=50)])
    y = X[:, 1]
    for call in (lambda: similarity_order(X, 0),
                 lambda: ale_categorical(lambda Z_: Z_[:, 1], X, 0, np.array([1.0])),
                 lambda: catstratpd(X, y, 0, rng=rng(27))):
        with pytest.raises(ValueError, match="has only one level"):
            call()


def test_fewer_rows_than_ale_intervals_is_rejected():
    with pytest.raises(ValueError, match="ALE with 20 intervals needs at least 20 rows, got 12"):
        ale_edges(np.arange(12.0), {"kind": "quantile", "size": 20})


def test_pdp_of_a_categorical_feature_uses_its_levels():
    """Weight example: the PD over the levels of pregnant differs by exactly 40 (f is
    additive), although pregnant men never occur in the data."""
    from imlbench.explain.grids import make_grid

    d = StratpdWeight()
    X = d.sample_features(500, rng(28))
    levels = make_grid(X[:, 1], {"kind": "levels"})
    assert levels.tolist() == [0.0, 1.0]
    pd_ = partial_dependence(d.f, X, 1, levels)
    assert pd_[1] - pd_[0] == pytest.approx(40.0, abs=1e-9)


def test_lime_gives_a_categorical_level_its_effect():
    """f = x1 + 3 [c = 1]: explaining a row with c = 1, the surrogate's input for c is 'same
    level as the row', so its coefficient is exactly 3 (levels drawn with their data
    frequencies)."""
    r = rng(29)
    X = np.column_stack([r.normal(size=600), r.integers(0, 3, 600)]).astype(float)
    row = np.array([[0.3, 1.0]])

    def f(Z_):
        return Z_[:, 0] + 3 * (Z_[:, 1] == 1)

    for distance in ("euclidean", "gower"):
        coef = lime_coefficients(f, X, row, r, n_samples=500, sampling="normal",
                                 categorical=[1], distance=distance, ridge=0.0)
        np.testing.assert_allclose(coef[0], [1.0, 3.0], atol=1e-9)


def test_gower_proximity():
    """1 - Gower distance: mean over features of |difference| / range (numeric) and of
    'level differs' (categorical); no kernel."""
    from imlbench.explain.lime import _proximity

    X = np.array([[0.0, 0.0], [4.0, 1.0], [2.0, 2.0]])
    x = np.array([1.0, 1.0])
    Z_ = np.array([[1.0, 1.0], [3.0, 1.0], [1.0, 2.0], [5.0, 0.0]])
    np.testing.assert_allclose(_proximity(Z_, x, X, "gower", 1.0, [1]),
                               [1.0, 1 - 0.5 / 2, 1 - 1 / 2, 1 - (1 + 1) / 2])


def test_surface_takes_a_grid_per_feature():
    """``grids`` gives each feature of a surface its own spec: equidistant points of a numeric
    feature against the levels of a categorical one; a linear model's surface is then its
    plane at those points (the value is checked)."""
    from sklearn.linear_model import LinearRegression

    from imlbench.explain.api import METHODS, ExplainContext
    from imlbench.params import with_defaults

    r = np.random.default_rng(0)
    X = np.column_stack([r.uniform(0, 1, 60), r.integers(0, 3, 60)])
    y = X @ [1.0, 2.0]
    ctx = ExplainContext(model=LinearRegression().fit(X, y), X=X, y=y, feature_names=["a", "g"],
                         dgp=None, fit=None, fixed_rng=lambda label: r)
    params = with_defaults(METHODS.get("surface").params, {
        "features": ["a", "g"],
        "grids": [{"kind": "equidistant", "size": 4}, {"kind": "levels"}]})
    out = METHODS.get("surface")(ctx, params, r)
    assert sorted(set(out["z"])) == [0.0, 1.0, 2.0] and out["x"].nunique() == 4
    np.testing.assert_allclose(out["value"], out["x"] + 2 * out["z"], atol=1e-10)
