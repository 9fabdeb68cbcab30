"""The GAM learner (``gam``, :mod:`imlbench.learners.gam`): its predictions are those of a
``pygam.LinearGAM`` of the same terms, its terms are those the module states, it fits an
additive truth, its partial dependence from the terms equals the brute force, and its
declarations refuse what pygam or the model cannot take."""

from __future__ import annotations

import numpy as np
import pytest
from pygam import LinearGAM, s, te
from sklearn.base import clone
from sklearn.metrics import r2_score

from imlbench.learners import LEARNERS, make_learner
from imlbench.learners.gam import Gam, spline_count, tensor_count
from imlbench.params import ParamError, check


def _data(n: int, p: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` rows of ``p`` uniform features on [-2, 2] and a smooth truth with an interaction
    of the first two, plus noise of SD 0.1."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-2, 2, (n, p))
    y = np.sin(X[:, 0]) + X[:, 1] ** 2 + 0.5 * X[:, 0] * X[:, 1] + rng.normal(0, 0.1, n)
    return X, y


@pytest.mark.parametrize("order", [1, 2])
def test_predictions_equal_pygams_own_gam(order):
    """p = 3, ``n_bases`` 21 (tensor terms of 5 x 5), ``lam`` 0.3: the terms written out with
    pygam's ``s`` and ``te`` give the same predictions on new rows, to 1e-10."""
    X, y = _data(200, 3, seed=1)
    X_new, _ = _data(50, 3, seed=2)
    terms = (s(0, n_splines=21, lam=0.3) + s(1, n_splines=21, lam=0.3)
             + s(2, n_splines=21, lam=0.3))
    if order == 2:
        terms += (te(0, 1, n_splines=5, lam=0.3) + te(0, 2, n_splines=5, lam=0.3)
                  + te(1, 2, n_splines=5, lam=0.3))
    direct = LinearGAM(terms, max_iter=1000).fit(X, y)
    ours = make_learner("gam", {"n_bases": 21, "lam": 0.3, "interaction_order": order}, 0)
    ours.fit(X, y)
    np.testing.assert_allclose(ours.predict(X_new), direct.predict(X_new), rtol=0, atol=1e-10)
    np.testing.assert_allclose(ours.predict(X), direct.predict(X), rtol=0, atol=1e-10)


@pytest.mark.parametrize("order", [1, 2])
def test_the_partial_dependence_from_the_terms_equals_the_brute_force(order):
    """Every feature of p = 4 (each in three tensor terms, first and second in them), a grid
    partly outside the rows' range: the PD from the terms equals the mean prediction over the
    rows with x_j set to each point, to rounding (1e-10), and the pdp method takes it."""
    from imlbench.explain.api import METHODS, ExplainContext
    from imlbench.explain.effects import partial_dependence

    X, y = _data(300, 4, seed=3)
    model = Gam(n_bases=12, lam=0.2, interaction_order=order).fit(X, y)
    grid = np.linspace(-2.5, 2.5, 17)
    for j in range(4):
        np.testing.assert_allclose(model.partial_dependence(X[:120], j, grid),
                                   partial_dependence(model.predict, X[:120], j, grid),
                                   rtol=0, atol=1e-10)
    ctx = ExplainContext(model=model, X=X, y=y, feature_names=["a", "b", "c", "d"], dgp=None,
                         fit=None, fixed_rng=lambda label: np.random.default_rng(0))
    spec = {"grid": {"kind": "values", "values": grid.tolist()}, "data": "train"}
    auto, brute = (METHODS.get("pdp")(ctx, {**spec, "algorithm": a}, np.random.default_rng(0))
                   for a in ("auto", "brute"))
    np.testing.assert_allclose(auto["value"], brute["value"], rtol=0, atol=1e-10)


@pytest.mark.parametrize("order, n_terms", [(1, 3 + 1), (2, 3 + 3 + 1)])
def test_the_terms_are_the_stated_ones(order, n_terms):
    """p = 3: a spline term per feature of ``n_bases`` 50 basis functions, with order 2 a
    tensor term per pair (in order) of round(sqrt(50)) = 7 along each feature, every term's
    penalty ``lam``, and pygam's intercept last."""
    X, y = _data(200, 3, seed=3)
    terms = Gam(n_bases=50, lam=0.2, interaction_order=order).fit(X, y).gam_.terms
    assert len(terms) == n_terms
    splines, tensors = terms[:3], terms[3:-1]
    assert [t.feature for t in splines] == [0, 1, 2]
    assert [t.n_splines for t in splines] == [50, 50, 50]
    assert [[int(j) for j in t.feature] for t in tensors] == ([[0, 1], [0, 2], [1, 2]]
                                                               if order == 2 else [])
    assert all(t.n_splines == [7, 7] for t in tensors)
    assert all(t.lam == [0.2] for t in splines)
    assert all(t.lam == [[0.2], [0.2]] for t in tensors)
    assert terms[-1].isintercept


def test_the_basis_counts():
    """``max(4, round(n_bases))`` for a spline, ``max(4, round(sqrt(n_bases)))`` along each
    feature of a tensor term (5 from n_bases 21 on, sqrt(21) = 4.58)."""
    assert [spline_count(n) for n in (4, 20, 21, 50)] == [4, 20, 21, 50]
    assert [tensor_count(n) for n in (4, 20, 21, 50)] == [4, 4, 5, 7]


def test_one_feature_has_no_tensor_term():
    X, y = _data(100, 2, seed=4)
    terms = Gam().fit(X[:, :1], y).gam_.terms
    assert len(terms) == 2 and terms[0].feature == 0 and terms[1].isintercept


def test_an_additive_truth_is_fitted():
    """y = sin(x1) + x2^2 + N(0, 0.1^2), x1, x2 ~ U(-2, 2), 500 rows, the learner's defaults:
    the test R^2 exceeds 0.95. The signal's variance is Var(sin x1) + Var(x2^2) = 0.59 + 1.42 =
    2.02 and the noise's 0.01, so a model that found f exactly would have a test R^2 of 0.995;
    the bound leaves 4.5% of the variance to the fit's error."""
    rng = np.random.default_rng(5)

    def draw(n: int) -> tuple[np.ndarray, np.ndarray]:
        X = rng.uniform(-2, 2, (n, 2))
        return X, np.sin(X[:, 0]) + X[:, 1] ** 2 + rng.normal(0, 0.1, n)

    X, y = draw(500)
    X_test, y_test = draw(1000)
    fit = make_learner("gam", {}, random_state=0).fit(X, y)
    assert r2_score(y_test, fit.predict(X_test)) > 0.95


def test_fits_are_deterministic_and_clonable():
    X, y = _data(150, 2, seed=6)
    one = make_learner("gam", {"n_bases": 10}, random_state=0).fit(X, y)
    two = clone(one).fit(X, y)
    assert two.get_params() == one.get_params() == Gam(n_bases=10).get_params()
    np.testing.assert_array_equal(one.predict(X), two.predict(X))


def test_an_interaction_order_above_2_is_refused_by_the_estimator():
    X, y = _data(50, 2, seed=7)
    with pytest.raises(ValueError, match="interaction_order must be 1 or 2"):
        Gam(interaction_order=3).fit(X, y)


@pytest.mark.parametrize("param, value, allowed", [
    ("n_bases", 3, "an integer >= 4"),
    ("n_bases", 20.5, "an integer >= 4"),
    ("lam", 0, "a number > 0 and < inf"),
    ("lam", -0.6, "a number > 0 and < inf"),
    ("interaction_order", 3, "1, 2"),
    ("max_iter", 0, "an integer >= 1"),
])
def test_the_declarations_refuse_broken_values(param, value, allowed):
    declared = LEARNERS.get("gam").declared()
    with pytest.raises(ParamError) as err:
        check(declared[param], value, f"learners.gam.params.{param}")
    assert f"allowed: {allowed}" in str(err.value), str(err.value)


def test_the_declarations_take_the_defaults_and_the_bounds():
    declared = LEARNERS.get("gam").declared()
    assert {k: d.default for k, d in declared.items()} == {
        "n_bases": 20, "lam": 0.6, "interaction_order": 2, "max_iter": 1000}
    for param, value in [("n_bases", 4), ("n_bases", 50), ("lam", 1e-9), ("lam", 100),
                         ("interaction_order", 1), ("interaction_order", 2), ("max_iter", 1)]:
        check(declared[param], value, param)
