"""The ``formula`` DGP: its expression whitelist, its laws against their moments, its exact
conditional and interventional samplers, and its configuration errors through ``imlbench check``.

Statistical checks allow Z = 4 standard errors (two-sided: a correct DGP fails one check with
probability 6e-5); each SE is written next to its check.
"""

from __future__ import annotations

import copy
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml
from scipy import stats
from scipy.special import expit, ndtri

from imlbench.cli import main as cli_main
from imlbench.dgp.base import make_dgp
from imlbench.dgp.expressions import ExpressionError, parse
from imlbench.explain.samplers import fit_sampler
from imlbench.params import ParamError
from imlbench.studies.extrapolation.dgp_copula import CopulaLinear
from imlbench.validate import dgp_abilities

REPO = Path(__file__).resolve().parents[1]
Z = 4.0
N = 200_000


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


# --- the expression whitelist ---------------------------------------------------------------

COLS = {"x1": np.array([-1.0, 0.5, 2.0]), "x2": np.array([3.0, 1.0, 0.25])}


@pytest.mark.parametrize("text, expected", [
    ("2*x1 + x2 - 3", 2 * COLS["x1"] + COLS["x2"] - 3),
    ("-x1 ** 2 / x2 + +1", -COLS["x1"] ** 2 / COLS["x2"] + 1),
    ("exp(x1) + log(x2) + sqrt(x2) + sin(x1) + cos(x1) + abs(x1)",
     np.exp(COLS["x1"]) + np.log(COLS["x2"]) + np.sqrt(COLS["x2"]) + np.sin(COLS["x1"])
     + np.cos(COLS["x1"]) + np.abs(COLS["x1"])),
    ("minimum(x1, x2) + maximum(x1, 0)", np.minimum(COLS["x1"], COLS["x2"])
     + np.maximum(COLS["x1"], 0)),
    ("indicator(x1 > 0) + 10 * where(x1 <= x2, x1, x2)", np.array([-10.0, 6.0, 3.5])),
    ("(0 < x1 < 1) + (x1 == 2) + (x2 != 1) + (x2 >= 3)", np.array([2.0, 1.0, 2.0])),
    ("2 * pi", np.full(3, 2 * np.pi)),
])
def test_the_whitelist_evaluates_like_numpy(text, expected):
    expr = parse(text, ["x1", "x2"])
    np.testing.assert_allclose(expr(COLS, 3), expected)
    assert not expr.random


@pytest.mark.parametrize("text, fragments", [
    ("__import__('os')", ["unknown function '__import__'", "allowed: exp, log, sqrt"]),
    ("x1.__class__", ["'x1.__class__' (Attribute) is not allowed", "exp, log"]),
    ("x1 + x9", ["unknown name 'x9'", "allowed: x1, x2 (earlier features)"]),
    ("eval(x1)", ["unknown function 'eval'", "allowed: exp, log"]),
    ("x1 +", ["syntax error in 'x1 +'", "allowed: numbers, names"]),
    ("[x1, x2][0]", ["'[x1, x2][0]' (Subscript) is not allowed"]),
    ("(lambda: x1)()", ["call of 'lambda: x1' is not allowed"]),
    ("[x for x in (x1,)]", ["(ListComp) is not allowed"]),
    ("exp(x=x1)", ["keyword argument 'x' of exp", "allowed: positional arguments only"]),
    ("'text' + x1", ["constant 'text'", "allowed: numbers"]),
    ("x1 and x2", ["(BoolOp) is not allowed"]),
    ("exp(x1, x2)", ["exp with 2 argument(s)", "allowed: 1 positional argument(s)"]),
    ("sqrt", ["function 'sqrt' without arguments"]),
    ("normal(0, 1)", ["random term 'normal'", "only in structural equations"]),
    (3, ["3 is not an expression", "allowed: a string"]),
])
def test_unsafe_or_unknown_constructs_name_the_token(text, fragments):
    with pytest.raises(ExpressionError) as err:
        parse(text, ["x1", "x2"], label="earlier features")
    for fragment in fragments:
        assert fragment in str(err.value), str(err.value)


def test_the_parser_reports_the_features_used_and_the_random_terms():
    expr = parse("x1 * exp(x3) + normal(0, 1) + 2", ["x1", "x2", "x3"], random=True)
    assert expr.names == {"x1", "x3"} and expr.random
    draws = expr({"x1": np.zeros(N), "x3": np.zeros(N)}, N, rng(0))
    assert abs(draws.mean() - 2) <= Z / np.sqrt(N)  # SE 1/sqrt(n)


@pytest.mark.parametrize("text, affine", [
    ("2*x1 - x2/4 + 3", (3.0, {"x1": 2.0, "x2": -0.25}, 0.0)),
    ("sqrt(4) * (x1 - 1) + normal(x2, 2) - 3*normal(1, 1)", (-5.0, {"x1": 2.0, "x2": 1.0},
                                                            4.0 + 9.0)),
    ("x1 * x2", None), ("x1 ** 2", None), ("exp(x1)", None), ("uniform(0, 1) + x1", None),
    ("normal(0, x1)", None),
])
def test_the_affine_form(text, affine):
    form = parse(text, ["x1", "x2"], random=True).affine()
    if affine is None:
        assert form is None
    else:
        assert (form.const, {k: v for k, v in form.coefs.items() if v}, form.var) == affine


# --- laws and moments ------------------------------------------------------------------------

MIXED = {
    "features": {
        "x1": {"law": "normal", "mean": 0, "sd": 1},
        "x2": {"law": "normal", "mean": 1, "sd": 2},
        "x3": {"law": "uniform", "low": 0, "high": 1},
        "x4": {"law": "bernoulli", "p": 0.3},
        "x5": {"law": "categorical", "levels": ["a", "b", "c"], "p": [0.2, 0.3, 0.5]},
        "x6": {"law": "integers", "low": 0, "high": 5},
        "x7": {"law": "uniform", "low": -1, "high": 3},
    },
    "dependence": {"features": ["x1", "x2", "x7"],
                   "correlation": [[1, 0.9, 0.5], [0.9, 1, 0.3], [0.5, 0.3, 1]]},
    "f": "2*x1 + x2 - x3 + x1*x3",
    "noise_sd": 1.0,
}


def _dgp(params: dict, **changes):
    return make_dgp("formula", {**copy.deepcopy(params), **changes})


def test_mvn_block_means_and_covariances():
    d = _dgp(MIXED)
    X = d.sample_features(N, rng(1))
    x1, x2 = X[:, 0], X[:, 1]
    assert abs(x1.mean()) <= Z * 1 / np.sqrt(N)  # SE sd/sqrt(n)
    assert abs(x2.mean() - 1) <= Z * 2 / np.sqrt(N)
    assert abs(x2.var() - 4) <= Z * np.sqrt(2) * 4 / np.sqrt(N)  # SE sqrt(2) sd^2/sqrt(n)
    # SE of a sample covariance of a normal pair: sqrt((s1^2 s2^2 + c^2) / n)
    assert abs(np.cov(x1, x2)[0, 1] - 1.8) <= Z * np.sqrt((4 + 1.8**2) / N)


def test_copula_marginals_and_normal_score_correlation():
    d = _dgp(MIXED)
    X = d.sample_features(N, rng(2))
    # a correct marginal fails Kolmogorov-Smirnov at level 1e-4 with probability 1e-4
    assert stats.kstest(X[:, 6], stats.uniform(-1, 4).cdf).pvalue > 1e-4
    assert stats.kstest(X[:, 2], stats.uniform(0, 1).cdf).pvalue > 1e-4
    assert X[:, 6].min() >= -1 and X[:, 6].max() <= 3
    # the copula correlation is that of the normal scores: SE of a correlation (1 - r^2)/sqrt(n)
    z7 = ndtri((X[:, 6] + 1) / 4)
    for col, r in ((0, 0.5), (1, 0.3)):
        assert abs(np.corrcoef(X[:, col], z7)[0, 1] - r) <= Z * (1 - r * r) / np.sqrt(N)


def test_discrete_frequencies():
    d = _dgp(MIXED)
    X = d.sample_features(N, rng(3))
    for col, p in ((3, {0: 0.7, 1: 0.3}), (4, {0: 0.2, 1: 0.3, 2: 0.5}),
                   (5, dict.fromkeys(range(6), 1 / 6))):
        values, counts = np.unique(X[:, col], return_counts=True)
        assert set(values) == set(p)
        for v, c in zip(values, counts, strict=True):
            # SE of a frequency sqrt(p (1 - p) / n)
            assert abs(c / N - p[v]) <= Z * np.sqrt(p[v] * (1 - p[v]) / N), (col, v)
    assert d.categorical == ("x5",) and d.levels == {"x5": ("a", "b", "c")}


def test_target_mean_and_noise():
    d = _dgp(MIXED)
    df = d.sample(N, rng(4))
    resid = df["y"].to_numpy() - d.f(df[d.feature_names].to_numpy())
    assert abs(resid.mean()) <= Z / np.sqrt(N)  # SE noise_sd / sqrt(n)
    assert abs(resid.var() - 1) <= Z * np.sqrt(2 / N)  # SE sqrt(2) noise_sd^2 / sqrt(n)


SEM = {
    "features": {"x1": {"law": "normal"}, "x2": "x1 + normal(0, 0.1)",
                 "x3": "2*x2 - x1 + normal(1, 0.5)", "x4": {"law": "uniform"}},
    "f": "x1 + x2 * x4",
}


def test_structural_equation_moments_and_gaussian_form():
    d = _dgp(SEM)
    X = d.sample_features(N, rng(5))
    x1, x2 = X[:, 0], X[:, 1]
    # Var(x2) = 1 + 0.1^2, SE sqrt(2/n) Var; Cov(x1, x2) = 1, SE sqrt((1 * 1.01 + 1) / n)
    assert abs(x2.var() - 1.01) <= Z * np.sqrt(2 / N) * 1.01
    assert abs(np.cov(x1, x2)[0, 1] - 1) <= Z * np.sqrt((1.01 + 1) / N)
    assert d.gaussian() is None  # x4 is uniform
    g = _dgp(SEM, features={k: v for k, v in SEM["features"].items() if k != "x4"}, f="x1")
    mean, cov = g.gaussian()
    # x3 = 2 x2 - x1 + e = x1 + 2 e2 + e3: mean 1, Var 1 + 4 * 0.01 + 0.25
    np.testing.assert_allclose(mean, [0, 0, 1], atol=1e-12)
    np.testing.assert_allclose(cov, [[1, 1, 1], [1, 1.01, 1.02], [1, 1.02, 1.29]], atol=1e-12)
    Xg = g.sample_features(N, rng(6))
    # SE of a sample covariance sqrt((s_i^2 s_j^2 + c^2) / n)
    se = np.sqrt((np.outer(np.diag(cov), np.diag(cov)) + cov**2) / N)
    assert np.all(np.abs(np.cov(Xg.T) - cov) <= Z * se)


def test_conditional_law_is_offered_only_without_structural_equations():
    with_sem, plain = _dgp(SEM), _dgp(MIXED)
    assert not with_sem.has_conditional and "conditional" not in dgp_abilities(with_sem)
    with pytest.raises(NotImplementedError):
        with_sem.sample_conditional(with_sem.sample_features(5, rng(0)), [0], rng(0))
    # discrete copula features have no exact conditional here
    discrete = _dgp(MIXED, dependence={"features": ["x1", "x4"],
                                       "correlation": [[1, 0.5], [0.5, 1]]})
    assert not discrete.has_conditional
    assert plain.has_conditional and "conditional" in dgp_abilities(plain)


# --- the exact conditional law -----------------------------------------------------------------

PAIR = {"features": {"x1": {"law": "normal", "mean": 1, "sd": 2},
                     "x2": {"law": "normal", "mean": -1, "sd": 0.5}},
        "dependence": {"features": ["x1", "x2"], "correlation": [[1, 0.8], [0.8, 1]]},
        "f": "x1 + x2"}


def _check_normal_residuals(resid: np.ndarray, cov: np.ndarray) -> None:
    """Residuals of conditional draws from the closed-form conditional mean: mean 0 (SE
    sqrt(var/n)) and covariance ``cov`` (SE sqrt((v_i v_j + c^2) / n))."""
    n = len(resid)
    resid = resid.reshape(n, -1)
    v = np.diag(cov)
    assert np.all(np.abs(resid.mean(axis=0)) <= Z * np.sqrt(v / n)), resid.mean(axis=0)
    emp = np.atleast_2d(np.cov(resid.T))
    assert np.all(np.abs(emp - cov) <= Z * np.sqrt((np.outer(v, v) + cov**2) / n)), emp


def test_conditional_of_a_correlated_normal_pair():
    d = _dgp(PAIR)
    X = d.sample_features(N, rng(7))
    # x1 | x2 ~ N(1 + 0.8 * 2 / 0.5 (x2 + 1), 4 (1 - 0.64))
    draws = d.sample_conditional(X, [0], rng(8))[:, 0]
    _check_normal_residuals(draws - (1 + 3.2 * (X[:, 1] + 1)), np.array([[4 * 0.36]]))
    # both columns: the joint law, whatever X holds
    both = d.sample_conditional(np.zeros_like(X), [1, 0], rng(9))
    _check_normal_residuals(both - [-1, 1], np.array([[0.25, 0.8], [0.8, 4]]))


SIGMA3 = np.array([[1.0, 0.5, 0.3], [0.5, 2.0, -0.6], [0.3, -0.6, 1.5]])
MU3 = np.array([0.0, 1.0, -2.0])


def _mvn3():
    sd = np.sqrt(np.diag(SIGMA3))
    feats = {f"x{i + 1}": {"law": "normal", "mean": float(MU3[i]), "sd": float(sd[i])}
             for i in range(3)}
    return make_dgp("formula", {"features": feats, "f": "x1 + x2 + x3", "dependence": {
        "features": list(feats), "correlation": (SIGMA3 / np.outer(sd, sd)).tolist()}})


def _closed_form(S: list[int], X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean (rows of X) and covariance of x_S | x_G, G the other columns: mu_S + Sigma_SG
    Sigma_GG^-1 (x_G - mu_G), Sigma_SS - Sigma_SG Sigma_GG^-1 Sigma_GS."""
    G = [k for k in range(3) if k not in S]
    B = SIGMA3[np.ix_(S, G)] @ np.linalg.inv(SIGMA3[np.ix_(G, G)])
    mean = MU3[S] + (X[:, G] - MU3[G]) @ B.T
    return mean, SIGMA3[np.ix_(S, S)] - B @ SIGMA3[np.ix_(G, S)]


@pytest.mark.parametrize("S", [[0], [2], [0, 2]])
def test_conditional_of_a_three_variable_mvn(S):
    d = _mvn3()
    mean, cov = d.gaussian()
    np.testing.assert_allclose(mean, MU3)
    np.testing.assert_allclose(cov, SIGMA3)
    X = d.sample_features(N, rng(10))
    cond_mean, cond_cov = _closed_form(S, X)
    _check_normal_residuals(d.sample_conditional(X, S, rng(11)) - cond_mean, cond_cov)


def test_the_exact_sampler_draws_the_dgp_conditional():
    d = _mvn3()
    train, test = d.sample_features(1000, rng(12)), d.sample_features(N, rng(13))
    fitted = fit_sampler("exact", train, 1, rng(14), exact=d.sample_conditional)
    cond_mean, cond_cov = _closed_form([1], test)
    _check_normal_residuals(fitted.draw(test, rng(15)) - cond_mean[:, 0], cond_cov)


# --- interventions, link, determinism, closed forms ---------------------------------------------


def test_intervention_recomputes_downstream_equations_only():
    d = _dgp(SEM)
    X = d.sample_intervened(N, rng(16), 0, 1.0)  # do(x1 = 1)
    assert np.all(X[:, 0] == 1)
    # x2 ~ N(1, 0.01): SE 0.1/sqrt(n); x3 = 2 x2 - 1 + N(1, 0.25): mean 2, sd sqrt(0.04 + 0.25)
    assert abs(X[:, 1].mean() - 1) <= Z * 0.1 / np.sqrt(N)
    assert abs(X[:, 2].mean() - 2) <= Z * np.sqrt(0.29) / np.sqrt(N)
    X = d.sample_intervened(N, rng(17), 1, np.zeros(N))  # do(x2 = 0): x1 keeps its law
    assert np.all(X[:, 1] == 0)
    assert abs(X[:, 0].mean()) <= Z / np.sqrt(N) and abs(X[:, 0].var() - 1) <= Z * np.sqrt(2 / N)
    # x3 = -x1 + N(1, 0.25): Cov(x1, x3) = -1, SE sqrt((1 * 1.25 + 1) / n)
    assert abs(np.cov(X[:, 0], X[:, 2])[0, 1] + 1) <= Z * np.sqrt(2.25 / N)
    # a copula partner keeps its own law under do(x1 = 3): x2 ~ N(1, 4)
    Xc = _dgp(MIXED).sample_intervened(N, rng(18), 0, 3.0)
    assert abs(Xc[:, 1].mean() - 1) <= Z * 2 / np.sqrt(N)


def test_logistic_link():
    d = _dgp(PAIR, f="0.5 - 2*x2", link="logistic")
    df = d.sample(N, rng(19))
    X, y = df[d.feature_names].to_numpy(), df["y"].to_numpy()
    assert set(np.unique(y)) == {0.0, 1.0}
    p = d.f(X)
    np.testing.assert_allclose(p, expit(0.5 - 2 * X[:, 1]))
    # y - p has mean 0 given x: SE sqrt(E p(1-p) / n) <= 0.5/sqrt(n), also times x2 (sd 0.5)
    assert abs((y - p).mean()) <= Z * np.sqrt((p * (1 - p)).mean() / N)
    assert abs(((y - p) * (X[:, 1] + 1)).mean()) <= Z * np.sqrt(
        (p * (1 - p) * (X[:, 1] + 1) ** 2).mean() / N)
    assert d.linear() is None
    with pytest.raises(ParamError, match="noise_sd: 1.0 with link logistic"):
        _dgp(PAIR, link="logistic", noise_sd=1.0)


def test_a_fixed_seed_gives_the_same_data():
    d = _dgp(MIXED)
    a, b, c = d.sample(50, rng(20)), d.sample(50, rng(20)), d.sample(50, rng(21))
    assert a.equals(b) and not a.equals(c)
    sem = _dgp(SEM)
    np.testing.assert_array_equal(sem.sample_intervened(50, rng(22), 1, 0.5),
                                  sem.sample_intervened(50, rng(22), 1, 0.5))


def test_linear_and_independence():
    d = _dgp(SEM, f="3 - 2*x1 + x4/2")
    assert d.linear() == (3.0, {"x1": -2.0, "x2": 0.0, "x3": 0.0, "x4": 0.5})
    assert _dgp(SEM).linear() is None  # x2 * x4
    assert [d.independent_of(j) for j in range(4)] == [False, False, False, True]
    mixed = _dgp(MIXED)
    assert [mixed.independent_of(j) for j in range(7)] == [False, False, True, True, True, True,
                                                           False]


@pytest.mark.parametrize("change, message", [
    ({"dependence": {"features": ["x1", "x2", "x7"],
                     "correlation": [[1, 0.9, 0.9], [0.9, 1, -0.9], [0.9, -0.9, 1]]}},
     "dependence.correlation: not positive definite"),
    ({"dependence": {"features": ["x1", "x1"], "correlation": [[1, 0], [0, 1]]}},
     "dependence.features: ['x1', 'x1']"),
    ({"f": "log(x1)"}, "f: 'log(x1)' is not finite for"),
    ({"f": "x1 + normal(0, 1)"}, "f: random term 'normal'"),
    ({"features": {"x1": {"law": "uniform", "low": 1, "high": 1}}},
     "features.x1.high: 1 is not above low = 1"),
    ({"features": {"x1": {"law": "normal", "sdd": 1}}},
     "features.x1: unknown parameter(s) sdd of law 'normal'; allowed: law, mean, sd"),
    ({"features": {"x1": {"law": "normal"}, "exp": {"law": "normal"}}},
     "features.exp: feature name 'exp' is not allowed"),
    ({"features": {"x1": "normal(0, 1)", "x2": "x1 + x3"}},
     "features.x2: unknown name 'x3' in 'x1 + x3'; allowed: x1 (earlier features)"),
])
def test_constructor_errors_name_the_key(change, message):
    params = {**copy.deepcopy(MIXED), "f": "x1"}
    if "features" in change:
        params.pop("dependence")
    with pytest.raises(ParamError) as err:
        make_dgp("formula", {**params, **change})
    assert str(err.value).startswith(message), str(err.value)


# --- the extrapolation.copula_linear DGP, as a formula --------------------------------------

COPULA_AS_FORMULA = {
    "features": {f"x{j}": {"law": "uniform", "low": 0, "high": 1} for j in (1, 2, 3)},
    "dependence": {"features": ["x1", "x2"], "correlation": [[1, 0.7], [0.7, 1]]},
    "f": "1*x1 + 2*x2 - 1*x3",
    "noise_sd": 0.5,
}


def _same_means(a: np.ndarray, b: np.ndarray) -> None:
    """Columns of statistics with equal means in two independent samples: difference SE
    sqrt(var_a / n_a + var_b / n_b)."""
    se = np.sqrt(a.var(axis=0) / len(a) + b.var(axis=0) / len(b))
    assert np.all(np.abs(a.mean(axis=0) - b.mean(axis=0)) <= Z * se), (a.mean(0), b.mean(0))


def _statistics(D: np.ndarray) -> np.ndarray:
    """First and second moments of the columns of D, and every cross product."""
    i, j = np.triu_indices(D.shape[1])
    return np.column_stack([D, D[:, i] * D[:, j]])


def test_copula_linear_as_a_formula_has_the_same_joint_law():
    ours = make_dgp("formula", COPULA_AS_FORMULA)
    theirs = CopulaLinear(beta=[1, 2, -1], rho=0.7, noise_sd=0.5)
    a, b = ours.sample(N, rng(23)).to_numpy(), theirs.sample(N, rng(24)).to_numpy()
    _same_means(_statistics(a), _statistics(b))
    assert ours.linear() == (0.0, {"x1": 1.0, "x2": 2.0, "x3": -1.0})
    # the exact conditional of x1 given x2 (and of x3), on the same rows
    X = a[:, :3]
    for features in ([0], [2], [0, 1]):
        da = ours.sample_conditional(X, features, rng(25))
        db = theirs.sample_conditional(X, features, rng(26))
        _same_means(_statistics(np.column_stack([X[:, 1], da])),
                    _statistics(np.column_stack([X[:, 1], db])))


# --- configuration errors through imlbench check -------------------------------------------------

STUDY = {
    "title": "A formula study",
    "reference": "none",
    "learners": {"lm": {"learner": "lm"}},
    "methods": {"pfi": {"method": "pfi", "params": {"n_repeats": 2}},
                "cpfi": {"method": "cpfi"}},
    "scenarios": {"formula": {"dgp": "formula", "n": 200, "reps": 2, "learners": ["lm"],
                              "methods": ["pfi", "cpfi"], "params": {
                                  "features": {"x1": {"law": "normal"},
                                               "x2": {"law": "uniform"}},
                                  "dependence": {"features": ["x1", "x2"],
                                                 "correlation": [[1, 0.5], [0.5, 1]]},
                                  "f": "x1 + 2*x2"}}},
}


@pytest.fixture
def root(tmp_path: Path) -> Path:
    shutil.copytree(REPO / "config", tmp_path / "config")
    shutil.copytree(REPO / "workflow" / "schemas", tmp_path / "workflow" / "schemas")
    return tmp_path


def _study_file(root: Path, f: str | None = None, **features) -> Path:
    """The study above with ``f`` and the given features (added or replaced)."""
    study = copy.deepcopy(STUDY)
    params = study["scenarios"]["formula"]["params"]
    params["features"].update(features)
    params["f"] = f or params["f"]
    path = root / "config" / "studies" / "formula_toy.yaml"
    path.write_text(yaml.safe_dump(study, sort_keys=False))
    return path


def _check(root: Path, path: Path, capsys) -> tuple[int, str]:
    status = cli_main(["--root", str(root), "--profile", "smoke", "check", "--study", str(path)])
    return status, capsys.readouterr().err.strip()


def test_a_valid_formula_study_passes_the_check(root, capsys, monkeypatch):
    monkeypatch.setattr(os, "environ", dict(os.environ))
    assert _check(root, _study_file(root), capsys) == (0, "")


PREFIX = ("imlbench: configuration error: {path}: key scenarios.formula.params.{key}: DGP "
          "'formula' of scenario formula: ")


@pytest.mark.parametrize("key, value, fragments", [
    ("f", "__import__('os')", ["unknown function '__import__'", "allowed: exp, log"]),
    ("f", "x1.__class__", ["'x1.__class__' (Attribute) is not allowed", "allowed: numbers"]),
    ("f", "x1 + x9", ["unknown name 'x9' in 'x1 + x9'", "allowed: x1, x2, x3 (features)"]),
    ("f", "eval('1')", ["unknown function 'eval'", "allowed: exp, log, sqrt"]),
    ("f", "x1 +* 2", ["syntax error in 'x1 +* 2'", "allowed: numbers, names"]),
    ("x3", "x1 + x4", ["unknown name 'x4' in 'x1 + x4'", "allowed: x1, x2 (earlier features)"]),
])
def test_check_names_the_key_and_the_token(root, capsys, monkeypatch, key, value, fragments):
    monkeypatch.setattr(os, "environ", dict(os.environ))
    path = (_study_file(root, value, x3={"law": "normal"}) if key == "f"
            else _study_file(root, **{key: value}))
    status, err = _check(root, path, capsys)
    assert status == 2 and "\n" not in err, err
    where = "f" if key == "f" else f"features.{key}"
    assert err.startswith(PREFIX.format(path=path, key=where)), err
    for fragment in fragments:
        assert fragment in err, err


def test_check_refuses_the_exact_sampler_with_structural_equations(root, capsys, monkeypatch):
    monkeypatch.setattr(os, "environ", dict(os.environ))
    path = _study_file(root, x3="x1 + normal(0, 0.1)")
    status, err = _check(root, path, capsys)
    assert status == 2
    assert "key scenarios.formula.methods: method 'cpfi' needs conditional" in err, err


@pytest.mark.workflow
def test_python_m_imlbench_check_rejects_an_import(root):
    path = _study_file(root, "__import__('os').system('touch pwned')")
    res = subprocess.run([sys.executable, "-m", "imlbench", "--root", str(root), "--profile",
                          "smoke", "check", "--study", str(path)],
                         capture_output=True, text=True, timeout=120, cwd=root)
    assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr
    assert "key scenarios.formula.params.f:" in res.stderr
    assert "call of \"__import__('os').system\" is not allowed" in res.stderr, res.stderr
    assert not (root / "pwned").exists()


def test_a_formula_dgp_pickles_with_its_compiled_expressions():
    """The ``truth`` learner holds the DGP and is saved with the model files."""
    import pickle

    d = make_dgp("formula", COPULA_AS_FORMULA)
    X = d.sample_features(50, rng(31))
    again = pickle.loads(pickle.dumps(d))
    np.testing.assert_array_equal(again.f(X), d.f(X))
    np.testing.assert_array_equal(again.sample_features(50, rng(32)),
                                  d.sample_features(50, rng(32)))
