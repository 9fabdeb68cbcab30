"""The illustrative Figs. 1-6 of the conditional-subgroups paper: DGP laws, the new methods on
cases with known answers, the claim kinds, the boxplot statistics and determinism."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import LinearRegression

from imlbench.dgp.base import make_dgp
from imlbench.explain.api import METHODS, ExplainContext
from imlbench.metrics.claims import CLAIMS, Tables
from imlbench.studies.conditional_subgroups.curve_slopes import bootstrap_slopes, curve_slope
from imlbench.studies.conditional_subgroups.figures.boxplot_pdp import tukey_stats

Z = 4.0  # two-sided Monte Carlo bound: a correct law fails one check with probability 6e-5


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def within(values: np.ndarray, expected: float) -> bool:
    """|mean - expected| <= Z SE of the mean."""
    v = np.asarray(values, dtype=float)
    return abs(v.mean() - expected) <= Z * v.std(ddof=1) / np.sqrt(len(v))


# --- DGPs -----------------------------------------------------------------------------------


def test_triangle_law_and_conditionals():
    """x1 ~ U(0,1), x2 | x1 ~ U(0, 1 - x1): E x1 = 1/2, E x2 = 1/4, E x1 x2 = 1/12, support
    x1 + x2 <= 1. Redrawing either column from its conditional keeps these moments."""
    d = make_dgp("conditional_subgroups.triangle", {})
    X = d.sample_features(40_000, rng(1))
    assert (X.sum(axis=1) <= 1).all() and (X >= 0).all()
    for j in (None, 0, 1):
        Y = X.copy()
        if j is not None:
            Y[:, j] = d.sample_conditional(X, [j], rng(2 + j))[:, 0]
        assert within(Y[:, 0], 0.5) and within(Y[:, 1], 0.25)
        assert within(Y[:, 0] * Y[:, 1], 1 / 12), j
    np.testing.assert_allclose(d.f(X), np.exp(X.sum(axis=1)))


def test_collinear_correlation_and_conditional_variance():
    """corr(x1, x2) = 1 / sqrt(1.04) = 0.981 (the paper's 0.978); x1 | x2, x3 has mean
    x2 / 1.04 and variance 0.04 / 1.04; y = f without noise."""
    d = make_dgp("conditional_subgroups.collinear", {})
    df = d.sample(40_000, rng(3))
    X = df[d.feature_names].to_numpy()
    r = np.corrcoef(X[:, 0], X[:, 1])[0, 1]
    # SE of a sample correlation ~ (1 - r^2) / sqrt(n)
    assert abs(r - 1 / np.sqrt(1.04)) <= Z * (1 - r**2) / np.sqrt(len(X))
    resid = d.sample_conditional(X, [0], rng(4))[:, 0] - X[:, 1] / 1.04
    assert within(resid, 0.0)
    # Var of a sample variance of normal values: 2 s^4 / n
    s2 = 0.04 / 1.04
    assert abs(resid.var() - s2) <= Z * s2 * np.sqrt(2 / len(X))
    np.testing.assert_allclose(df["y"], X @ np.array([1.0, -0.1, 1.0]))


def test_mixture_law_and_conditional_of_x2():
    """x1 | x2 < 0.5 ~ N(0, 1), x1 | x2 >= 0.5 ~ N(4, 16); redrawing x2 given x1 keeps the
    joint law: P(x2 >= 0.5) = 1/2 and E[x1 | x2 >= 0.5] = 4."""
    d = make_dgp("conditional_subgroups.mixture", {})
    X = d.sample_features(40_000, rng(5))
    high = X[:, 1] >= 0.5
    assert within(X[~high, 0], 0.0) and within(X[high, 0], 4.0)
    assert abs(X[high, 0].std() - 4.0) <= Z * 4.0 / np.sqrt(2 * high.sum())
    Y = X.copy()
    Y[:, 1] = d.sample_conditional(X, [1], rng(6))[:, 0]
    high = Y[:, 1] >= 0.5
    assert within(high.astype(float), 0.5)
    assert within(Y[high, 0], 4.0) and within(Y[~high, 0], 0.0)


def test_bivariate_normal_covariance_and_conditional():
    d = make_dgp("conditional_subgroups.bivariate_normal", {"cov": 0.9})
    X = d.sample_features(40_000, rng(7))
    assert within(X[:, 0] * X[:, 1], 0.9)
    draw = d.sample_conditional(X, [1], rng(8))[:, 0]
    assert within(draw - 0.9 * X[:, 0], 0.0)
    assert within(draw * X[:, 0], 0.9)


def test_rounded_linear_values_and_correlation():
    """Every value has at most two decimals; corr(x1, x2) = 1/sqrt(2); y - x1 has variance
    1 (plus the rounding's 2 x 0.01^2 / 12)."""
    d = make_dgp("conditional_subgroups.rounded_linear", {"decimals": 2})
    df = d.sample(40_000, rng(9))
    np.testing.assert_allclose(df.to_numpy() * 100, np.round(df.to_numpy() * 100), atol=1e-6)
    r = np.corrcoef(df["x1"], df["x2"])[0, 1]
    assert abs(r - 1 / np.sqrt(2)) <= Z * (1 - r**2) / np.sqrt(len(df))
    e = (df["y"] - df["x1"]).to_numpy()
    assert abs(e.var() - 1.0) <= Z * np.sqrt(2 / len(e))


def test_gamma_log_moments_and_f():
    d = make_dgp("conditional_subgroups.gamma_log", {"shape": 1.0})
    df = d.sample(40_000, rng(10))
    assert within(df["x"], 1.0) and within((df["x"] - 1) ** 2, 1.0)
    np.testing.assert_allclose(df["y"], np.log(df["x"]) + 4.5)


# --- numerical pieces -----------------------------------------------------------------------


def test_curve_slope_and_bootstrap():
    """An exactly linear curve has its slope and a zero bootstrap SE; the bootstrap SE of a
    mean-of-noise M-plot is positive."""
    z = np.linspace(-1, 1, 11)
    assert curve_slope(z, 2.5 * z + 1) == pytest.approx(2.5)
    assert curve_slope(z, np.where(z > 0.5, np.nan, -z)) == pytest.approx(-1.0)
    X = rng(11).normal(size=(300, 2))
    y = X[:, 0] + rng(12).normal(size=300)

    def pdp(p, X_):
        return {0: (z, np.array([p(np.column_stack([np.full(len(X_), g), X_[:, 1]])).mean()
                                 for g in z]))}

    fixed = bootstrap_slopes(pdp, lambda A: 3 * A[:, 0] + A[:, 1], X, y, n_boot=20, rng=rng(1))
    assert fixed["slope"].iloc[0] == pytest.approx(3.0) and fixed["se"].iloc[0] < 1e-9

    def fit(Xn, yn):
        return LinearRegression().fit(Xn, yn).predict

    refit = bootstrap_slopes(pdp, fit(X, y), X, y, n_boot=200, rng=rng(2), fit=fit)
    # the refitted coefficient of x1 has SE about 1 / sqrt(300) = 0.058
    assert 0.03 < refit["se"].iloc[0] < 0.09
    assert abs(refit["slope"].iloc[0] - 1.0) <= Z * refit["se"].iloc[0]


def test_tukey_stats_match_r_boxplot_stats():
    """R: boxplot.stats(1:10)$stats = 1 3 5.5 8 10; boxplot.stats(c(1:4, 100)): 1 2 3 4 4,
    out 100."""
    s = tukey_stats(np.arange(1, 11.0))
    assert (s.lower, s.hinge_low, s.median, s.hinge_high, s.upper) == (1, 3, 5.5, 8, 10)
    s = tukey_stats(np.array([1, 2, 3, 4, 100.0]))
    assert (s.lower, s.hinge_low, s.hinge_high, s.upper) == (1, 2, 4, 4)
    np.testing.assert_array_equal(s.outliers, [100.0])


# --- methods --------------------------------------------------------------------------------


#: the prefix of the study's registered names
CS = "conditional_subgroups."


def context(name: str, params: dict, n: int, seed: int) -> ExplainContext:
    """A true-model context on ``n`` rows of the study's DGP ``name``."""
    from true_model import true_model_context

    d = make_dgp(CS + name, params)
    df = d.sample(n, rng(seed))
    return true_model_context(d, df[d.feature_names].to_numpy(), df["y"].to_numpy())


def run(method: str, ctx: ExplainContext, params: dict, seed: int = 0) -> pd.DataFrame:
    return METHODS.get(method)(ctx, params, rng(seed))


def kind(name: str):
    """The study's claim kind ``name``."""
    return CLAIMS.get(CS + name)


def test_pfi_repeats_with_the_exact_sampler_matches_closed_forms():
    """f = x1 - 0.1 x2 + x3, y = f, absolute loss: PFI_j = |b_j| E|x~_j - x_j| with
    E|D| = sd(D) sqrt(2 / pi): marginal x3: 2 / sqrt(pi); conditional x1 given x2:
    sqrt(2 x 0.04 / 1.04) sqrt(2 / pi). Bound: Z SE of the per-row terms over the rows."""
    ctx = context("collinear", {}, 4000, 13)
    marg = run(CS + "pfi_repeats", ctx, {"sampler": "permutation", "n_repeats": 3,
                                         "loss": "absolute"})
    cond = run(CS + "pfi_repeats", ctx, {"sampler": "exact", "n_repeats": 3, "loss": "absolute"})
    assert set(marg["repeat"]) == {0, 1, 2} and len(marg) == 9
    half_normal = np.sqrt(2 / np.pi)
    # per-row |D| has SD sd(D) sqrt(1 - 2 / pi)
    for table, feature, sd in ((marg, "x3", np.sqrt(2.0)), (cond, "x1", np.sqrt(0.08 / 1.04))):
        v = table.loc[table["feature"] == feature, "value"].mean()
        se = sd * np.sqrt(1 - 2 / np.pi) / np.sqrt(len(ctx.X))
        assert abs(v - sd * half_normal) <= Z * se, feature


def test_sampler_draws_permute_within_groups():
    ctx = context("bivariate_normal", {}, 200, 14)
    params = {"features": ["x2"], "sampler": "subgroups",
              "sampler_params": {"tree": "cart", "max_depth": 2, "min_node_size": 7}}
    out = run(CS + "sampler_draws", ctx, params)
    assert out["group"].nunique() == 4
    for _, g in out.groupby("group"):
        np.testing.assert_array_equal(np.sort(g["draw"]), np.sort(g["x2"]))
    # leaves of a tree on x1 alone are intervals of x1
    ranges = out.groupby("group")["x1"].agg(["min", "max"]).sort_values("min")
    assert (ranges["max"].to_numpy()[:-1] < ranges["min"].to_numpy()[1:]).all()
    perm = run(CS + "sampler_draws", ctx, {"features": ["x2"], "sampler": "permutation"})
    assert (perm["group"] == 0).all()
    np.testing.assert_array_equal(np.sort(perm["draw"]), np.sort(ctx.X[:, 1]))


def test_mplot_slope_of_collinear_x2():
    """E[f | x2] = (1 / 1.04 - 0.1) x2 = 0.8615 x2: the windowed M-plot's slope within Z
    bootstrap SEs; the PDP's slope is the coefficient -0.1 with a zero SE."""
    ctx = context("collinear", {}, 3000, 15)
    mplot = run(CS + "effect_slopes", ctx, {"features": ["x2"], "curve": "mplot", "width": 0.05,
                                            "n_boot": 50})
    assert abs(mplot["slope"].iloc[0] - (1 / 1.04 - 0.1)) <= Z * mplot["se"].iloc[0]
    pdp = run(CS + "effect_slopes", ctx, {"features": ["x2"], "curve": "pdp", "n_boot": 10})
    assert pdp["slope"].iloc[0] == pytest.approx(-0.1) and pdp["se"].iloc[0] < 1e-9
    curve = run("mplot_window", ctx, {"features": ["x2"], "width": 0.05})
    assert len(curve) == 30 and curve["count"].sum() > 0


def test_cs_pdp_slopes_of_a_refitted_linear_model():
    """Fig. 5: y = x1 + e, x2 ~ N(x1, 1); a refitted linear model's cs-PDP slopes of x2 are
    its coefficient of x2, 0 within Z bootstrap SEs, the same in every subgroup."""
    d = make_dgp("conditional_subgroups.rounded_linear", {})
    df = d.sample(2000, rng(16))
    X, y = df[d.feature_names].to_numpy(), df["y"].to_numpy()
    model = LinearRegression().fit(X, y)
    ctx = ExplainContext(model=model, X=X, y=y, feature_names=d.feature_names, dgp=d,
                         fit=lambda Xn, yn: LinearRegression().fit(Xn, yn).predict,
                         fixed_rng=lambda label: rng(0))
    out = run(CS + "effect_slopes", ctx, {"features": ["x2"], "curve": "cs_pdp", "refit": True,
                                          "n_boot": 50, "sampler_params": {"max_depth": 2}})
    assert len(out) == 4 and out["n"].sum() == len(X)
    np.testing.assert_allclose(out["slope"], model.coef_[1])
    assert (out["slope"].abs() <= Z * out["se"]).all()


def test_effect_slopes_reject_an_unknown_curve_and_a_single_resample():
    ctx = context("collinear", {}, 300, 15)
    with pytest.raises(ValueError, match="curve: 'ice' is not allowed; allowed: pdp, mplot"):
        run(CS + "effect_slopes", ctx, {"features": ["x2"], "curve": "ice"})
    with pytest.raises(ValueError, match="n_boot: 1 is out of range"):
        run(CS + "effect_slopes", ctx, {"features": ["x2"], "n_boot": 1})


def test_pdp_vs_predictions_on_the_triangle():
    """PDP(x1) = e^x1 mean_i e^(x2_i) exactly for f = exp(x1 + x2)."""
    ctx = context("triangle", {}, 100, 17)
    out = run(CS + "pdp_vs_predictions", ctx, {"grid": {"kind": "values", "values": [0.2, 0.9]}})
    out = out[out["feature"] == "x1"]
    np.testing.assert_allclose(out["value"], np.exp([0.2, 0.9]) * np.exp(ctx.X[:, 1]).mean())
    np.testing.assert_allclose(out["se"], np.exp([0.2, 0.9]) * np.exp(ctx.X[:, 1]).std(ddof=1)
                               / 10)
    assert out["pred_max"].iloc[0] == pytest.approx(np.exp(ctx.X.sum(axis=1)).max())


def test_methods_are_deterministic_given_the_seed():
    ctx = context("collinear", {}, 300, 18)
    params = {"sampler": "subgroups", "sampler_params": {"tree": "distribution"},
              "n_repeats": 2, "loss": "absolute"}
    pd.testing.assert_frame_equal(run(CS + "pfi_repeats", ctx, params, 5),
                                       run(CS + "pfi_repeats", ctx, params, 5))
    params = {"features": ["x2"], "curve": "mplot", "n_boot": 5}
    pd.testing.assert_frame_equal(run(CS + "effect_slopes", ctx, params, 6),
                                       run(CS + "effect_slopes", ctx, params, 6))
    for name in ("triangle", "mixture", "rounded_linear", "gamma_log"):
        d = make_dgp(f"conditional_subgroups.{name}", {})
        pd.testing.assert_frame_equal(d.sample(50, rng(7)), d.sample(50, rng(7)))


# --- claim kinds ----------------------------------------------------------------------------


def tables(rows: list[dict]) -> Tables:
    other = pd.DataFrame(rows).assign(scenario="s", learner="l")
    return Tables(ranked=pd.DataFrame(), truth={}, other=other)


CLAIM = {"id": "c", "text": "t", "published": "p",
         "where": {"scenario": "s", "learner": "l", "method": "m"}}


@pytest.mark.parametrize("slope, se, expect, verdict", [
    (0.5, 0.1, "positive", "reproduced"),
    # 0.15 +- 2 x 0.1 straddles 0: a coin flip, inconclusive (was: not reproduced)
    (0.15, 0.1, "positive", "inconclusive"),
    (-0.25, 0.1, "positive", "not reproduced"),  # the whole interval lies below 0
    (0.02, 0.01, "value", "reproduced"), (0.05, 0.01, "value", "not reproduced"),
])
def test_effect_slope_claim(slope, se, expect, verdict):
    t = tables([{"method": "m", "feature": "x2", "group": g, "n": 10, "slope": slope,
                 "se": se, "n_boot": 100} for g in (0, 1)])
    row = kind("effect_slope")({**CLAIM, "feature": "x2", "expect": expect}, t)[0]
    assert row["verdict"] == verdict
    # power: margin + 2 k SE, k = 2 one-sided, 3 for an equality (margin: the rounding floor)
    assert row["detectable"] == pytest.approx(
        2 * 2 * se if expect == "positive" else 1e-9 + 2 * 3 * se, rel=1e-12)


def test_pdp_exceeds_observed_claim():
    rows = [{"method": "m", "feature": "x1", "x": x, "value": v, "se": 0.05, "pred_max": 2.7,
             "pred_min": 1.0} for x, v in ((0.5, 2.0), (0.8, 2.9), (1.0, 3.5))]
    claim = {**CLAIM, "feature": "x1", "above": 0.75}
    row = kind("pdp_exceeds_observed")(claim, tables(rows))[0]
    assert row["verdict"] == "reproduced"
    assert row["detectable"] == pytest.approx(2 * 2 * 0.05)  # 2 k SE, k = 2
    claim["above"] = 0.4
    assert kind("pdp_exceeds_observed")(claim, tables(rows))[0]["verdict"] == \
        "not reproduced"


def _draws(corr_draw: float, n: int = 200, seed: int = 8) -> pd.DataFrame:
    """x1 ~ N(0, 1), x2 ~ U(0, 1); the draw of x1 is corr_draw * x1 + noise, and 20% of the
    rows with x2 < 0.5 get a draw of 10 (outside [-3, 3])."""
    g = rng(seed)
    x1, x2 = g.normal(size=n), g.uniform(size=n)
    draw = corr_draw * x1 + np.sqrt(1 - corr_draw**2) * g.normal(size=n)
    return pd.DataFrame({"method": "m", "feature": "x1", "rep": 0, "row": np.arange(n),
                         "x1": x1, "x2": x2, "draw": draw})


def test_draw_share_outside_claim():
    """A share of 0 vs the expected 0.0027 (SE 0.0052 over about 100 rows) is equal; 20% is
    far above it."""
    clean = _draws(0.5)
    claim = {**CLAIM, "feature": "x1", "given": "x2", "below": 0.5, "interval": [-3, 3],
             "expected": 0.0027}
    share = kind("draw_share_outside")
    equal = share({**claim, "expect": "equal"}, tables(clean))[0]
    assert equal["verdict"] == "reproduced"
    se = np.sqrt(0.0027 * (1 - 0.0027) / (clean["x2"] < 0.5).sum())
    assert equal["detectable"] == pytest.approx(2 * 3 * se)  # 2 k SE, k = 3 (equality)
    # 0 +- 2 SE straddles 0.0027: inconclusive (was: not reproduced)
    assert share({**claim, "expect": "above"}, tables(clean))[0]["verdict"] == "inconclusive"
    far = clean.copy()
    low = far.index[far["x2"] < 0.5]
    far.loc[low[: len(low) // 5], "draw"] = 10.0
    assert share({**claim, "expect": "above"}, tables(far))[0]["verdict"] == "reproduced"
    assert share({**claim, "expect": "equal"}, tables(far))[0]["verdict"] == "not reproduced"


@pytest.mark.parametrize("corr, expect, value, verdict", [
    (0.8, "above", 0.0, "reproduced"), (0.8, "below", 0.95, "reproduced"),
    (0.0, "equal", 0.0, "reproduced"), (0.8, "equal", 0.0, "not reproduced"),
    # r = -0.03: -0.03 +- 2 x 0.071 straddles z(0) = 0, inconclusive (was: not reproduced)
    (0.0, "above", 0.0, "inconclusive"),
    (0.8, "below", 0.0, "not reproduced"),  # wholly above z(0)
])
def test_draw_correlation_claim(corr, expect, value, verdict):
    """200 rows: SE 1 / sqrt(197) = 0.071 on Fisher's z scale; the check detects 2 k SE."""
    claim = {**CLAIM, "feature": "x1", "with": "x1", "value": value, "expect": expect}
    row = kind("draw_correlation")(claim, tables(_draws(corr)))[0]
    assert row["verdict"] == verdict, row
    k = 3.0 if expect == "equal" else 2.0
    assert row["detectable"] == pytest.approx(2 * k / np.sqrt(197))
