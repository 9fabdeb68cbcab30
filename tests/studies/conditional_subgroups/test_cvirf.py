"""CVIRF: permimp's conditional permutation importance of a forest (Debeer & Strobl 2020),
the setting-II competitor of the conditional-subgroups simulation."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.ensemble import RandomForestRegressor

from imlbench.explain.cvirf import _within_cells, association, conditional_oob_importance
from imlbench.explain.oob import oob_permutation_importance


def _forest(X, y, seed=0, trees=50):
    return RandomForestRegressor(trees, max_features=0.5, min_samples_leaf=5,
                                 random_state=seed).fit(X, y)


def _data(seed, n=300, rho=0.0, p=2):
    r = np.random.default_rng(seed)
    X = r.standard_normal((n, p))
    X[:, 1] = rho * X[:, 0] + np.sqrt(1 - rho**2) * X[:, 1]
    return X, r


def test_association_is_pearsons_chi_squared_test():
    """1 - p of each column equals scipy's uncorrected chi-squared test of the contingency
    table; a column with one level (df = 0) is never associated (p = 1, as R's pchisq)."""
    from scipy.stats import chi2_contingency

    r = np.random.default_rng(0)
    bj = r.integers(0, 3, 200)
    others = np.column_stack([r.integers(0, 4, 200), (bj + r.integers(0, 2, 200)) % 3,
                              np.zeros(200, dtype=int)])
    got = association(bj, 3, others, np.array([4, 3, 1]))
    for c in range(2):
        table = np.zeros((3, int(others[:, c].max()) + 1))
        np.add.at(table, (bj, others[:, c]), 1)
        want = 1 - chi2_contingency(table, correction=False).pvalue
        assert got[c] == pytest.approx(want, rel=1e-10, abs=1e-12)
    assert got[1] > 0.999  # the dependent column
    assert got[2] == 0.0


def test_permutation_stays_within_cells_and_is_uniform():
    """Each row takes the value of a row of its own cell; in a cell of 3 rows all 3! = 6
    arrangements are equally likely: over 6000 draws each count is 1000 +- 4 binomial SDs
    (sd = sqrt(6000 * 1/6 * 5/6) = 28.9)."""
    r = np.random.default_rng(1)
    cells = np.array([2, 0, 2, 1, 0, 2, 1])
    counts: dict[tuple, int] = {}
    for _ in range(6000):
        src = _within_cells(cells, r.permutation(len(cells)))
        assert sorted(src) == list(range(len(cells)))
        assert np.array_equal(cells[src], cells)
        key = tuple(src[cells == 2])
        counts[key] = counts.get(key, 0) + 1
    assert len(counts) == 6
    assert all(abs(c - 1000) <= 4 * 28.9 for c in counts.values())


def test_without_conditioning_it_is_the_unscaled_oob_importance():
    """threshold = 1 conditions on nothing (1 - p never exceeds 1): CVIRF then permutes each
    tree's OOB rows with the very permutations the OOB importance draws from the same seed."""
    X, r = _data(2, p=4, rho=0.8)
    y = X[:, 0] + X[:, 1] + X[:, 2] + 0.5 * r.standard_normal(len(X))
    rf = _forest(X, y)
    got = conditional_oob_importance(rf, X, y, features=[0, 1, 3], threshold=1.0,
                                     rng=np.random.default_rng(7))
    want = oob_permutation_importance(rf, X, y, features=[0, 1, 3],
                                      rng=np.random.default_rng(7), scale=False)
    np.testing.assert_allclose(got["value"], want["value"], rtol=1e-12, atol=1e-14)
    assert (got["n_conditioning"] == 0).all()


@pytest.mark.slow
def test_independent_features_agree_with_oob_importance_in_expectation():
    """x1, x2 independent, y = x1 + x2 + e. Compared with the OOB importance drawn from the
    same permutations (threshold = 1, equal to it by the test above), CVIRF changes only the
    trees in which the chi-squared test conditions x1 on x2 by chance: nominally 5% of them;
    the test is liberal on these sparse tables (about 10% here), so we require 0 < share <=
    15%. In such a tree, under independence, a row keeps its own x1 with probability 1/k (k:
    its cell's size) instead of 1/m, which can only lower the tree's importance in
    expectation, and at most to 0. So over 30 forests the paired difference must not be
    positive beyond 3 standard errors, and its relative size must not exceed the share of
    conditioned trees by more than 3 standard errors."""
    diffs, marginal, conditioned = [], [], []
    for s in range(30):
        X, r = _data(100 + s)
        y = X[:, 0] + X[:, 1] + 0.5 * r.standard_normal(len(X))
        rf = _forest(X, y, seed=s, trees=40)
        c, o = (conditional_oob_importance(rf, X, y, features=[0], threshold=t,
                                           rng=np.random.default_rng(s)) for t in (0.95, 1.0))
        diffs.append(c["value"][0] - o["value"][0])
        marginal.append(o["value"][0])
        conditioned.append(c["n_conditioning"][0])
    diffs = np.array(diffs)
    se = diffs.std(ddof=1) / np.sqrt(len(diffs))
    share = np.mean(conditioned)
    assert 0.0 < share <= 0.15
    assert diffs.mean() <= 3 * se
    assert -diffs.mean() <= (share + 3 * se) * np.mean(marginal)


def test_correlated_feature_is_less_important_conditionally():
    """x2 = 0.95 x1 + noise, y depends on x1 only: given x2, x1 varies with sd
    sqrt(1 - 0.95^2) = 0.31, so its conditional importance is about 10% of the marginal one
    for a linear fit. Conditioning on x2's cells must at least halve the OOB importance."""
    X, r = _data(5, rho=0.95, p=3)
    y = X[:, 0] + 0.3 * r.standard_normal(len(X))
    rf = _forest(X, y, trees=100)
    c = conditional_oob_importance(rf, X, y, features=[0], threshold=0.95,
                                   rng=np.random.default_rng(1))
    o = oob_permutation_importance(rf, X, y, features=[0], rng=np.random.default_rng(1),
                                   scale=False)
    assert c["n_conditioning"][0] >= 0.9  # x2 is conditioned on in (nearly) every tree
    assert c["value"][0] < 0.5 * o["value"][0]


def test_rerun_is_identical_and_seed_matters():
    X, r = _data(6, p=5, rho=0.5)
    y = X[:, 0] * X[:, 1] + X[:, 2] + 0.5 * r.standard_normal(len(X))
    rf = _forest(X, y)

    def run(seed):
        return conditional_oob_importance(rf, X, y, features=[0, 1, 2], threshold=0.95,
                                          rng=np.random.default_rng(seed))

    a, b, c = run(3), run(3), run(4)
    assert a.equals(b)
    assert not np.allclose(a["value"], c["value"])


@pytest.mark.parametrize("bad", [1.5, -0.1, "high", None, True, float("nan")])
def test_bad_threshold_is_a_clear_error(bad):
    X, r = _data(8)
    y = X[:, 0] + r.standard_normal(len(X))
    with pytest.raises(ValueError, match=r"threshold must be a number in \[0, 1\]"):
        conditional_oob_importance(_forest(X, y, trees=5), X, y, features=[0], threshold=bad,
                                   rng=r)


def test_registered_method_names_features_and_rejects_bad_threshold():
    from imlbench.explain.api import METHODS, ExplainContext
    from imlbench.studies.conditional_subgroups.dgp_simulation import (
        ConditionalSubgroupsSimulation,
    )

    dgp = ConditionalSubgroupsSimulation("linear", 10)
    r = np.random.default_rng(9)
    X = dgp.sample_features(200, r)
    y = dgp.f(X) + dgp.noise(200, r)
    ctx = ExplainContext(model=_forest(X, y, trees=20), X=X, y=y,
                         feature_names=dgp.feature_names, dgp=dgp, fit=None, fixed_rng=None)
    spec = METHODS.get("cvirf")
    assert spec.kind == "importance" and spec.requires == {"oob", "trees"}
    df = spec(ctx, {"features": ["x1", "x3"]}, np.random.default_rng(0))
    assert list(df["feature"]) == ["x1", "x3"]
    with pytest.raises(ValueError, match="threshold"):
        spec(ctx, {"features": ["x1"], "threshold": 95}, np.random.default_rng(0))
