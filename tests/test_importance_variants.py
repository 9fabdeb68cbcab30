"""PFI variants and the per-observation decomposition (ICI, PI, d-ICI; book ch. 10)."""

from __future__ import annotations

import numpy as np
import pytest


def rng(seed):
    return np.random.default_rng(seed)


# ---------------------------------------------------------------- ICI, PI, d-ICI


def _squared(y, pred):
    return (y - pred) ** 2


def test_mean_of_ici_with_the_rows_own_values_is_the_exhaustive_pfi():
    """Eq. (4): PFI = (1/n^2) sum_i sum_k [L(f(x_S^(k), x_C^(i)), y_i) - L(f(x_i), y_i)],
    computed here by an explicit double loop, equals the mean of the ICI matrix."""
    from imlbench.explain.ici import individual_importance

    r = rng(30)
    X = r.normal(size=(40, 3))
    y = X[:, 0] * X[:, 1] + r.normal(size=40)

    def f(Z_):
        return Z_[:, 0] * Z_[:, 1] + 0.5 * Z_[:, 2]

    brute = np.mean([[_squared(y[i], f(np.array([[X[k, 0], X[i, 1], X[i, 2]]]))[0])
                      - _squared(y[i], f(X[i:i + 1])[0]) for k in range(40)]
                     for i in range(40)])
    ici_ = individual_importance(f, X, y, 0, X[:, 0], _squared)
    assert ici_.mean() == pytest.approx(brute, rel=1e-12)
    np.testing.assert_allclose(np.diag(ici_), 0.0, atol=1e-12)  # own value: no change


def test_ici_and_d_ici_of_a_linear_effect_are_closed_form():
    """Noise-free y = f = 2 x1 + x2: ICI_i(v) = 4 (v - x1_i)^2, so d-ICI_i(v) = 8 (v - x1_i).
    The smoothing spline of a quadratic, sampled on 60 points, reproduces its derivative up
    to the spline's smoothing bias, largest at the two ends; inside, within 2% of the range."""
    from imlbench.explain.ici import derivative_ici, individual_importance

    r = rng(31)
    X = r.uniform(0, 1, size=(30, 2))

    def f(Z_):
        return 2 * Z_[:, 0] + Z_[:, 1]

    v = np.linspace(0, 1, 60)
    ici_ = individual_importance(f, X, f(X), 0, v, _squared)
    np.testing.assert_allclose(ici_, 4 * (v[None, :] - X[:, :1]) ** 2, atol=1e-12)
    grid, d = derivative_ici(ici_, v)
    want = 8 * (grid[None, :] - X[:, :1])
    inner = slice(6, -6)
    assert np.max(np.abs(d[:, inner] - want[:, inner])) <= 0.02 * 8


def test_stump_on_integrated_ici_finds_the_interacting_feature():
    """Book ch. 10, simulation 2: y = x1 + 5 x1 x3 + e with x3 in {0, 1}: x1 matters far more
    where x3 = 1, so the stump on the integrated ICI of x1 splits on x3 between 0 and 1, and
    the partial importance there is the larger one."""
    from imlbench.explain.ici import heterogeneity_split, individual_importance

    r = rng(32)
    n = 300
    X = np.column_stack([r.normal(size=n), r.normal(size=n), r.integers(0, 2, n)]).astype(float)

    def f(Z_):
        return Z_[:, 0] + 5 * Z_[:, 0] * Z_[:, 2]

    y = f(X) + r.normal(0, 0.5, n)
    split = heterogeneity_split(individual_importance(f, X, y, 0, X[:100, 0], _squared), X, 0)
    assert split.feature == 2 and 0 < split.threshold < 1
    assert split.right.mean() > 10 * split.left.mean()


# ---------------------------------------------------------------- truths and PFI variants


BETA = np.array([1.0, -2.0, 0.5])
SIGMA = np.array([[1.0, 0.8, 0.0], [0.8, 1.0, 0.3], [0.0, 0.3, 2.0]])
Z = 4.0


def _linear_gaussian(n, seed):
    r = rng(seed)
    X = r.multivariate_normal(np.zeros(3), SIGMA, size=n)
    return X, X @ BETA + r.normal(size=n)


def test_linear_gaussian_truths_equal_their_own_monte_carlo():
    """Each closed form against a direct simulation of its definition (Z SEs): independent
    copies for PFI, draws from the Gaussian conditional law for cPFI, and the loss of the
    best model without x_j, E[y | x_-j] (Gaussian regression), for LOCO."""
    from imlbench.truth.linear_gaussian import linear_gaussian_importance

    truth = linear_gaussian_importance(BETA, SIGMA)
    n = 400_000
    X, y = _linear_gaussian(n, 1)
    copy = rng(2).multivariate_normal(np.zeros(3), SIGMA, size=n)
    base = (y - X @ BETA) ** 2
    prec = np.linalg.inv(SIGMA)
    for j in range(3):
        others = [m for m in range(3) if m != j]
        coef = -prec[j, others] / prec[j, j]  # E[x_j | x_-j] = coef . x_-j
        cond_sd = np.sqrt(1 / prec[j, j])
        draws = {
            "marginal": copy[:, j],
            "conditional": X[:, others] @ coef + cond_sd * rng(3 + j).standard_normal(n),
        }
        for key, xj in draws.items():
            Xr = X.copy()
            Xr[:, j] = xj
            terms = (y - Xr @ BETA) ** 2 - base
            assert abs(terms.mean() - truth[key][j]) <= Z * terms.std() / np.sqrt(n), (key, j)
        # LOCO: E[y | x_-j] = (b_-j + b_j coef) . x_-j
        reduced = X[:, others] @ (BETA[others] + BETA[j] * coef)
        terms = (y - reduced) ** 2 - base
        assert abs(terms.mean() - truth["loco"][j]) <= Z * terms.std() / np.sqrt(n), ("loco", j)


def test_pfi_of_the_true_model_estimates_the_marginal_truth():
    from imlbench.explain.importance import permutation_importance
    from imlbench.truth.linear_gaussian import linear_gaussian_importance

    X, y = _linear_gaussian(20_000, 4)
    df = permutation_importance(lambda Z_: Z_ @ BETA, X, y, features=range(3), n_repeats=5,
                                rng=rng(5))
    est = df.groupby("feature")["value"].mean().to_numpy()
    truth = linear_gaussian_importance(BETA, SIGMA)["marginal"]
    # per-row terms b_j^2 (x~ - x)^2 + 2 b_j (x~ - x)(y - f) have SD below
    # b_j^2 sqrt(Var((x~-x)^2)) + 2 |b_j| sqrt(2 Var(x_j)) = b_j^2 sqrt(8) Var(x_j) + ...;
    # the repeats share rows, so the row count alone sets the SE
    se = (BETA**2 * np.sqrt(8) * np.diag(SIGMA) + 2 * np.abs(BETA) * np.sqrt(2 * np.diag(SIGMA))) \
        / np.sqrt(len(X))
    assert np.all(np.abs(est - truth) <= Z * se)


def test_ratio_contrast_is_the_quotient_of_the_same_losses():
    from imlbench.explain.importance import permutation_importance

    X, y = _linear_gaussian(500, 6)

    def f(Z_):
        return Z_ @ BETA

    diff = permutation_importance(f, X, y, features=range(3), n_repeats=3, rng=rng(7))
    ratio = permutation_importance(f, X, y, features=range(3), n_repeats=3, rng=rng(7),
                                   contrast="ratio")
    base = np.mean((y - f(X)) ** 2)
    np.testing.assert_allclose(ratio["value"], 1 + diff["value"] / base, rtol=1e-12)


def test_every_feature_and_repeat_gets_its_own_permutation():
    """Two identical columns with equal coefficients: a shared permutation (sklearn's) would
    give them identical importances; independent ones do not."""
    from imlbench.explain.importance import permutation_importance

    x = rng(8).normal(size=300)
    X = np.column_stack([x, x])
    y = 2 * x
    df = permutation_importance(lambda Z_: Z_.sum(axis=1), X, y, features=[0, 1], n_repeats=2,
                                rng=rng(9))
    assert len(set(np.round(df["value"], 12))) == 4


@pytest.mark.parametrize("loss, want", [
    ("squared", [0.25, 4.0]), ("absolute", [0.5, 2.0]),
    ("misclassification", [0.0, 1.0]),
    ("log_loss", [-np.log(0.5), -np.log(0.9)]),
])
def test_losses(loss, want):
    from imlbench.explain.importance import loss_named

    y = np.array([1.0, 0.0]) if loss != "log_loss" else np.array([1.0, 0.0])
    pred = {"squared": [0.5, 2.0], "absolute": [0.5, 2.0], "misclassification": [0.7, 0.6],
            "log_loss": [0.5, 0.1]}[loss]
    np.testing.assert_allclose(loss_named(loss)(y, np.array(pred)), want)


def test_unknown_loss_and_contrast_are_named():
    from imlbench.explain.importance import loss_named, permutation_importance

    with pytest.raises(ValueError, match="loss 'hinge' is not one of squared, absolute"):
        loss_named("hinge")
    with pytest.raises(ValueError, match="contrast 'log' is not one of difference, ratio"):
        permutation_importance(lambda Z_: Z_[:, 0], np.ones((4, 2)), np.ones(4), features=[0],
                               rng=rng(10), contrast="log")


def test_median_over_repeats_and_categorical_sampler_error():
    from true_model import true_model_context

    from imlbench.dgp.effect_examples import StratpdWeight
    from imlbench.explain.api import METHODS
    from imlbench.explain.importance import permutation_importance

    d = StratpdWeight()
    X = d.sample_features(400, rng(11))
    y = d.f(X)

    ctx = true_model_context(d, X, y)
    out = METHODS.get("pfi")(ctx, {"features": ["height"], "n_repeats": 5,
                                       "aggregate": "median"}, rng(12))
    per_repeat = permutation_importance(d.f, X, y, features=[2], n_repeats=5, rng=rng(12))
    assert out["value"].iloc[0] == pytest.approx(per_repeat["value"].median())
    with pytest.raises(ValueError, match="sampler 'gaussian' draws numeric values and cannot "
                                         "replace categorical feature 1"):
        METHODS.get("conditional_pfi")(ctx, {"features": ["pregnant"],
                                                 "sampler": "gaussian"}, rng(13))
    ici = METHODS.get("ici")(ctx, {"features": ["height"], "n_values": 20}, rng(14))
    assert len(ici) == 400 * 20 and set(ici.columns) == {"feature", "row", "x", "value"}


@pytest.mark.slow
def test_monte_carlo_model_truth_and_the_exact_sampler_estimate_agree_for_a_forest():
    """Setting II of the cs-PFI simulation: the true conditional PFI of a fitted forest has no
    closed form. A separate Monte Carlo on 200,000 fresh rows (truth) and our conditional PFI
    with the exact sampler on 2,000 other rows (estimate, 5 repeats) must agree within Z times
    their combined SE (the estimate's SE from the spread of its per-row terms over the repeats,
    bounded here by the truth's per-row SD scaled to 2,000 rows). The true model's MC truth
    equals the closed form 4 of the linear scenario within its SE."""
    from imlbench.explain.importance import conditional_importance
    from imlbench.learners import fit_quietly, make_learner
    from imlbench.studies.conditional_subgroups.dgp_simulation import ConditionalSubgroupsSimulation
    from imlbench.truth.monte_carlo import model_pfi_truth

    d = ConditionalSubgroupsSimulation("linear")
    value, se = model_pfi_truth(d.f, d, 0, 200_000, rng(15))
    assert abs(value - 4.0) <= Z * se
    train = d.sample(2000, rng(16))
    model = fit_quietly(make_learner("rf", {"n_estimators": 50}, 0),
                        train[d.feature_names].to_numpy(), train["y"].to_numpy())
    truth, truth_se = model_pfi_truth(model.predict, d, 0, 200_000, rng(17))
    test = d.sample(2000, rng(18))
    est = conditional_importance(model.predict, test[d.feature_names].to_numpy(),
                                 test["y"].to_numpy(), d.sample_conditional, features=[0],
                                 n_repeats=5, rng=rng(19))["value"].mean()
    est_se = truth_se * np.sqrt(200_000 / 2000)
    assert abs(est - truth) <= Z * np.hypot(est_se, truth_se), (est, truth)


def test_group_pfi_permutes_the_columns_together():
    """A group {x1, x2} permuted jointly: its true PFI is 2 b_G' Sigma_GG b_G = 3.6 here
    (the pair keeps its correlation). Per-row terms (b'D)^2 + 2 (b'D) e with b'D ~ N(0, 3.6)
    have SD sqrt(2 * 3.6^2 + 4 * 3.6) = 6.3, the SE over 20,000 rows; the repeats share rows."""
    from true_model import true_model_context

    from imlbench.explain.api import METHODS
    from imlbench.studies.conditional_subgroups.dgp_simulation import ConditionalSubgroupsSimulation

    X, y = _linear_gaussian(20_000, 20)
    d = ConditionalSubgroupsSimulation("independent")  # only names and f are used: override f
    ctx = true_model_context(d, X, y)
    ctx.model.predict = lambda Z_: Z_ @ BETA
    ctx.feature_names = ["x1", "x2", "x3"]
    out = METHODS.get("pfi")(ctx, {"groups": {"pair": ["x1", "x2"]}, "n_repeats": 3},
                                 rng(21))
    want = 2 * BETA[:2] @ SIGMA[:2, :2] @ BETA[:2]
    assert out["feature"].tolist() == ["pair"]
    assert abs(out["value"].iloc[0] - want) <= Z * np.sqrt(2 * want**2 + 4 * want) / np.sqrt(20_000)
    with pytest.raises(ValueError, match="feature 'x9' is not in the data"):
        METHODS.get("pfi")(ctx, {"groups": {"bad": ["x1", "x9"]}}, rng(22))
