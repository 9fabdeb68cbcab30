"""The automatic truths of the formula DGP (imlbench.truth.formula) against closed forms.

Every Monte Carlo value is checked against a value derived by hand from f and the law. A check
of n values at once uses the family-wise 3-sigma bound: each |estimate - truth| must stay below
k_n standard errors with k_n = Phi^-1(1 - 0.00135 / n), so that all n hold together with the
probability 0.9973 of a single 3-SE check (k_1 = 3).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm

from imlbench.dgp.base import make_dgp
from imlbench.dgp.formula import FormulaDGP
from imlbench.explain.estimands import TRUTH_COLUMNS
from imlbench.metrics.ranks import truth_ranks
from imlbench.seeds import rng_for
from imlbench.truth import TRUTHS
from imlbench.truth import formula as ft


def fixed_rng(label: str) -> np.random.Generator:
    return rng_for(20261124, "test_formula_truth", label)


def assert_within(estimate, se, truth, slack=0.0) -> None:
    """All |estimate - truth| <= k_n se + slack, k_n the family-wise 3-sigma bound."""
    estimate, se, truth = np.broadcast_arrays(*(np.asarray(a, dtype=float)
                                                for a in (estimate, se, truth)))
    k = norm.isf(0.00135 / estimate.size)
    excess = np.abs(estimate - truth) - (k * se + slack)
    assert np.all(excess <= 0), (
        f"off by more than {k:.2f} SE (+{slack:g}): worst excess {excess.max():.3g}")


def rows(table: pd.DataFrame, kind: str, feature: str) -> pd.DataFrame:
    out = table[(table["estimand"] == kind) & (table["feature"] == feature)]
    assert len(out), f"no {kind} rows of {feature}"
    return out


def wide(imp: pd.DataFrame) -> pd.DataFrame:
    """An ``importance`` truth by feature: columns marginal, marginal_se, marginal_ratio, ...
    (the estimands without their ``pfi_`` prefix, and their SEs)."""
    t = imp.assign(kind=imp["estimand"].str.removeprefix("pfi_"))
    value = t.pivot(index="feature", columns="kind", values="value")
    se = t.pivot(index="feature", columns="kind", values="se").add_suffix("_se")
    return pd.concat([value, se], axis=1).reset_index()


def normal_pair(rho: float, f: str, **extra) -> FormulaDGP:
    return make_dgp("formula", {
        "features": {"x1": {"law": "normal", "mean": 1.0, "sd": 1.0},
                     "x2": {"law": "normal", "mean": -0.5, "sd": 2.0}},
        "dependence": {"features": ["x1", "x2"], "correlation": [[1, rho], [rho, 1]]},
        "f": f, **extra})


RHO = 0.6
PAIR_COV = np.array([[1.0, RHO * 2.0], [RHO * 2.0, 4.0]])
PAIR_MEAN = np.array([1.0, -0.5])


@pytest.fixture(scope="module")
def linear_pair():
    """f = 1 + 2 x1 - x2 on a correlated normal pair; closed-form and Monte Carlo tables."""
    d = normal_pair(RHO, "1 + 2*x1 - x2", noise_sd=1.5)
    return (d, ft.effects_table(d, fixed_rng), ft.effects_table(d, fixed_rng, closed=False),
            ft.importance_table(d, fixed_rng),
            wide(ft.importance_table(d, fixed_rng, closed=False)))


def test_linear_pair_closed_forms(linear_pair):
    d, closed, _, long, _ = linear_pair
    imp = wide(long)
    b = np.array([2.0, -1.0])
    assert (closed["se"] == 0).all() and (imp.filter(like="_se") == 0).all().all()
    for j, name in enumerate(d.feature_names):
        z = rows(closed, "pd", name)["x"].to_numpy()
        pd_truth = 1 + b @ PAIR_MEAN + b[j] * (z - PAIR_MEAN[j])
        np.testing.assert_allclose(rows(closed, "pd", name)["value"], pd_truth)
        np.testing.assert_allclose(rows(closed, "ale", name)["value"], b[j] * (z - z[0]))
    # E[x2 | x1 = z] = mu2 + rho sd2 (z - mu1); E[x1 | x2 = z] = mu1 + rho (z - mu2) / sd2
    z1, z2 = rows(closed, "conditional", "x1")["x"], rows(closed, "conditional", "x2")["x"]
    np.testing.assert_allclose(rows(closed, "conditional", "x1")["value"],
                               1 + 2 * z1 - (-0.5 + RHO * 2 * (z1 - 1)))
    np.testing.assert_allclose(rows(closed, "conditional", "x2")["value"],
                               1 + 2 * (1 + RHO * (z2 + 0.5) / 2) - z2)
    # 2 b^2 Var(x_j) and 2 b^2 Var(x_j) (1 - rho^2); ratio (1.5^2 + PFI) / 1.5^2
    np.testing.assert_allclose(imp["marginal"], 2 * b**2 * np.diag(PAIR_COV))
    np.testing.assert_allclose(imp["conditional"], 2 * b**2 * np.diag(PAIR_COV) * (1 - RHO**2))
    np.testing.assert_allclose(imp["marginal_ratio"], (2.25 + imp["marginal"]) / 2.25)
    # 2 * 2^2 * 1 = 2 * 1^2 * 4: a tie, ranked by the average rank where ranks are read
    assert list(truth_ranks(long, "pfi_marginal")) == [1.5, 1.5]
    assert list(truth_ranks(long, "pfi_conditional")) == [1.5, 1.5]


def test_linear_pair_monte_carlo_agrees_with_closed_forms(linear_pair):
    d, closed, mc, long, imp_mc = linear_pair
    imp = wide(long)
    assert (mc.loc[mc["estimand"] != "ale", "se"] > 0).all()
    for name in d.feature_names:
        # the PD of a linear f on shared rows: the slope exactly, the level within its SE
        pd_mc, pd_cf = rows(mc, "pd", name), rows(closed, "pd", name)
        np.testing.assert_allclose(np.diff(pd_mc["value"]), np.diff(pd_cf["value"]),
                                   atol=1e-9)
        assert_within(pd_mc["value"].iloc[0], pd_mc["se"].iloc[0], pd_cf["value"].iloc[0])
        c_mc = rows(mc, "conditional", name)
        assert_within(c_mc["value"], c_mc["se"], rows(closed, "conditional", name)["value"])
        # df/dx_j = b_j on every row: the ALE is exact up to the central difference's rounding
        # (machine epsilon * |f| / step, below 1e-9 here)
        np.testing.assert_allclose(rows(mc, "ale", name)["value"],
                                   rows(closed, "ale", name)["value"], atol=1e-7)
    for kind in ("marginal", "conditional"):
        assert_within(imp_mc[kind], imp_mc[f"{kind}_se"], imp[kind])


@pytest.mark.slow
def test_mvn_interaction_by_monte_carlo():
    """f = x1 + 2 x2 + x1 x3 on a 3-feature normal: no closed form in the module, so every
    value is Monte Carlo; the hand derivations use Gaussian moments. With b = 1 + x3,
    f(X) - f(X~) = (x1 - x~1) b, and E[a^2 b^2] = s11 (s33 + E[b]^2) + 2 s13^2 for a = x1 - mu1:
    marginal PFI_1 = 2 s11 (s33 + E[b]^2) + 2 s13^2; conditional PFI_1 = 2 v1 (s33 + E[b]^2),
    v1 = Var(x1 | x2, x3); PFI_2 = 2 * 2^2 s22 (marginal), 8 Var(x2 | x1, x3) (conditional)."""
    mu = np.array([0.5, -1.0, 2.0])
    sd = np.array([1.0, 1.5, 0.5])
    R = np.array([[1.0, 0.5, 0.4], [0.5, 1.0, -0.3], [0.4, -0.3, 1.0]])
    S = R * np.outer(sd, sd)
    d = make_dgp("formula", {
        "features": {f"x{k + 1}": {"law": "normal", "mean": float(mu[k]), "sd": float(sd[k])}
                     for k in range(3)},
        "dependence": {"features": ["x1", "x2", "x3"], "correlation": R.tolist()},
        "f": "x1 + 2*x2 + x1*x3", "noise_sd": 1.0})
    assert d.linear() is None
    eff, imp = ft.effects_table(d, fixed_rng), wide(ft.importance_table(d, fixed_rng))
    pd1, pd3 = rows(eff, "pd", "x1"), rows(eff, "pd", "x3")
    assert_within(pd1["value"], pd1["se"], pd1["x"] * (1 + mu[2]) + 2 * mu[1])
    assert_within(pd3["value"], pd3["se"], mu[0] + 2 * mu[1] + pd3["x"] * mu[0])
    cond_var = 1 / np.diag(np.linalg.inv(S))
    eb2 = S[2, 2] + (1 + mu[2]) ** 2
    truth = {"marginal": [2 * S[0, 0] * eb2 + 2 * S[0, 2] ** 2, 8 * S[1, 1]],
             "conditional": [2 * cond_var[0] * eb2, 8 * cond_var[1]]}
    for kind, values in truth.items():
        assert_within(imp[kind][:2], imp[f"{kind}_se"][:2], values)


def test_pd_of_an_interaction_with_independent_features():
    """f = x1 x3, x1 ~ N(0.5, 1) independent of x3 ~ U(1, 3): PD_1(z) = z E[x3] = 2 z,
    PD_3(z) = z E[x1] = z / 2; with independent features the conditional curves are the PDs."""
    d = make_dgp("formula", {"features": {"x1": {"law": "normal", "mean": 0.5},
                                          "x3": {"law": "uniform", "low": 1, "high": 3}},
                             "f": "x1*x3"})
    eff = ft.effects_table(d, fixed_rng)
    for kind in ("pd", "conditional"):
        r1, r3 = rows(eff, kind, "x1"), rows(eff, kind, "x3")
        assert_within(r1["value"], r1["se"], 2 * r1["x"])
        assert_within(r3["value"], r3["se"], r3["x"] / 2)


@pytest.mark.slow
def test_conditional_expectation_of_a_correlated_pair():
    """E[x2 | x1 = z] = rho z for standard normals: the copula pair (exact conditional law)
    and the same law as a structural equation (binned), against rho z."""
    rho = 0.8
    copula = make_dgp("formula", {
        "features": {"x1": {"law": "normal"}, "x2": {"law": "normal"}},
        "dependence": {"features": ["x1", "x2"], "correlation": [[1, rho], [rho, 1]]},
        "f": "x2"})
    sem = make_dgp("formula", {"features": {"x1": {"law": "normal"},
                                            "x2": f"{rho}*x1 + normal(0, {np.sqrt(1 - rho**2)})"},
                               "f": "x2"})
    assert copula.has_conditional and not sem.has_conditional
    for d in (copula, sem):
        c = rows(ft.effects_table(d, fixed_rng, closed=False), "conditional", "x1")
        assert_within(c["value"], c["se"], rho * c["x"])
        exact = rows(ft.effects_table(d, fixed_rng), "conditional", "x1")
        np.testing.assert_allclose(exact["value"], rho * exact["x"], atol=1e-12)


def test_binned_conditional_of_a_curved_function():
    """x2 = x1 + N(0, 1), f = x2^2: E[f | x1 = z] = z^2 + 1. The binned estimate may be off by
    g'' h^2 / 6 = h^2 / 3 (module doc), h the window half-width: at most half the distance
    between the N(0, 1) quantiles q +- BIN_HALF_WIDTH over the grid (q in 0.05..0.95)."""
    d = make_dgp("formula", {"features": {"x1": {"law": "normal"}, "x2": "x1 + normal(0, 1)"},
                             "f": "x2**2"})
    c = rows(ft.effects_table(d, fixed_rng), "conditional", "x1")
    q = ft.GRID_QUANTILES
    h = np.max(norm.ppf(q + ft.BIN_HALF_WIDTH) - norm.ppf(q - ft.BIN_HALF_WIDTH)) / 2
    assert_within(c["value"], c["se"], c["x"] ** 2 + 1, slack=h**2 / 3)


@pytest.mark.parametrize("structural", [False, True])
def test_ale_of_a_product(structural):
    """f = x1 x2, E[x2 | x1 = t] = rho t (standard normals): ALE_1(z) = rho (z^2 - z0^2) / 2,
    through the exact conditional law (copula) and through binning (structural equation)."""
    rho = 0.5
    features = ({"x1": {"law": "normal"}, "x2": f"{rho}*x1 + normal(0, {np.sqrt(1 - rho**2)})"}
                if structural else {"x1": {"law": "normal"}, "x2": {"law": "normal"}})
    dependence = {} if structural else {
        "dependence": {"features": ["x1", "x2"], "correlation": [[1, rho], [rho, 1]]}}
    d = make_dgp("formula", {"features": features, "f": "x1*x2", **dependence})
    a = rows(ft.effects_table(d, fixed_rng), "ale", "x1")
    z = a["x"].to_numpy()
    assert_within(a["value"], a["se"], rho * (z**2 - z[0] ** 2) / 2)


def test_simpson_integration_is_exact_for_a_cubic():
    """f = x1^3 with x1 alone: dm/dx = 3 z^2 on every row (SE 0), and Simpson's rule integrates
    it exactly: ALE = z^3 - z0^3 up to the central difference's error step^2 (relative)."""
    d = make_dgp("formula", {"features": {"x1": {"law": "normal", "sd": 2.0}}, "f": "x1**3"})
    a = rows(ft.effects_table(d, fixed_rng), "ale", "x1")
    z = a["x"].to_numpy()
    np.testing.assert_allclose(a["value"], z**3 - z[0] ** 3, rtol=1e-6, atol=1e-6)


def test_interventional_curves_of_a_structural_equation():
    """x1 ~ N(1, 1), x2 = x1 + N(0, 1), f = x1 + x2: E[Y | do(x1 = z)] = 2 z (x2 follows),
    E[Y | do(x2 = z)] = z + E[x1] = z + 1, while PD_1(z) = z + E[x2] = z + 1."""
    d = make_dgp("formula", {"features": {"x1": {"law": "normal", "mean": 1.0},
                                          "x2": "x1 + normal(0, 1)"},
                             "f": "x1 + x2", "noise_sd": 0.5})
    eff = ft.effects_table(d, fixed_rng)
    i1, i2 = rows(eff, "interventional", "x1"), rows(eff, "interventional", "x2")
    assert_within(i1["value"], i1["se"], 2 * i1["x"])
    assert_within(i2["value"], i2["se"], i2["x"] + 1)
    np.testing.assert_allclose(rows(eff, "pd", "x1")["value"], rows(eff, "pd", "x1")["x"] + 1)


def test_discrete_copula_feature_uses_exact_levels():
    """x1 ~ N(0, 1) and x2 ~ Bernoulli(p) in a Gaussian copula with rho: x2 = 1 iff its normal
    score exceeds c = Phi^-1(1 - p). f = x1 + x2: E[f | x2 = 1] = rho phi(c) / p + 1,
    E[f | x2 = 0] = -rho phi(c) / (1 - p); E[f | x1 = z] = z + 1 - Phi((c - rho z) / sqrt(1 -
    rho^2)). The law has no known conditional sampler, so this is the binned path."""
    rho, p = 0.7, 0.3
    d = make_dgp("formula", {
        "features": {"x1": {"law": "normal"}, "x2": {"law": "bernoulli", "p": p}},
        "dependence": {"features": ["x1", "x2"], "correlation": [[1, rho], [rho, 1]]},
        "f": "x1 + x2"})
    assert not d.has_conditional and d.linear() is not None and d.gaussian() is None
    eff = ft.effects_table(d, fixed_rng)
    c2 = rows(eff, "conditional", "x2")
    assert list(c2["x"]) == [0.0, 1.0] and rows(eff, "pd", "x2")["x"].tolist() == [0.0, 1.0]
    assert eff[(eff["estimand"] == "ale") & (eff["feature"] == "x2")].empty
    c = norm.ppf(1 - p)
    assert_within(c2["value"], c2["se"], [-rho * norm.pdf(c) / (1 - p), rho * norm.pdf(c) / p + 1])
    c1 = rows(eff, "conditional", "x1")
    assert_within(c1["value"], c1["se"],
                  c1["x"] + 1 - norm.cdf((c - rho * c1["x"]) / np.sqrt(1 - rho**2)))


def test_registered_truths_and_table_columns():
    """The registry entry and the columns figures and claims read; the logistic link gives
    probabilities and no ratio (its y has no additive noise)."""
    spec = TRUTHS.get("formula")
    assert spec.names == ("effects", "importance")
    d = make_dgp("formula", {"features": {"x1": {"law": "normal"},
                                          "x2": {"law": "categorical", "levels": ["a", "b", "c"]}},
                             "f": "x1 - x2", "link": "logistic"})
    tables = spec.compute(d, fixed_rng)
    assert set(tables) == set(spec.names)
    eff, imp = tables["effects"], tables["importance"]
    assert list(eff.columns) == list(imp.columns) == list(TRUTH_COLUMNS)
    assert set(eff["estimand"]) == {"pd", "conditional", "ale"}
    assert eff["value"].between(0, 1).all() and (eff["se"] >= 0).all()
    assert rows(eff, "pd", "x2")["x"].tolist() == [0.0, 1.0, 2.0]
    assert set(imp["estimand"]) == {"pfi_marginal", "pfi_conditional"}
    assert imp["x"].isna().all() and (imp["row"] == -1).all()


def test_loco_is_derived_from_the_conditional_importance():
    """The truth stage's importance table (``TruthSpec.tables``) gains ``loco``: for a linear
    Gaussian f the closed form b_j^2 Var(x_j | x_-j) of
    :func:`imlbench.truth.linear_gaussian.linear_gaussian_importance` (itself checked against
    a simulation of leaving x_j out, ``tests/test_importance_variants.py``)."""
    from imlbench.truth.linear_gaussian import linear_gaussian_importance

    rho, sd = 0.6, 0.5
    d = normal_pair(rho, "2*x1 - x2", noise_sd=sd)
    imp = wide(TRUTHS.get("formula").tables(d, fixed_rng)["importance"])
    sigma = np.array([[1.0, 2 * rho], [2 * rho, 4.0]])
    loco = linear_gaussian_importance(np.array([2.0, -1.0]), sigma)["loco"]
    np.testing.assert_allclose(imp["loco"], loco, rtol=1e-12)
    assert (imp["loco_se"] == 0).all()


def test_loco_of_a_nonlinear_f_against_a_simulation_of_its_definition():
    """f = x1^2 + x2 on a correlated normal pair: ``loco`` of x1 is E[(f - E[f | x2])^2]
    with E[x1^2 | x2] = m(x2)^2 + s^2 (the Gaussian conditional law), simulated here apart from
    the truth's own Monte Carlo; both SEs enter the family-wise bound."""
    rho = 0.7
    d = normal_pair(rho, "x1**2 + x2", noise_sd=1.0)
    imp = TRUTHS.get("formula").tables(d, fixed_rng)["importance"]
    row = imp[(imp["estimand"] == "loco") & (imp["feature"] == "x1")].iloc[0]
    n = 400_000
    g = rng_for(20261127, "test_formula_truth", "loco")
    x2 = -0.5 + 2.0 * g.standard_normal(n)
    m = 1.0 + rho * 1.0 / 2.0 * (x2 + 0.5)  # E[x1 | x2]
    s2 = 1.0 - rho**2  # Var(x1 | x2)
    x1 = m + np.sqrt(s2) * g.standard_normal(n)
    terms = (x1**2 - (m**2 + s2)) ** 2
    se = np.hypot(terms.std() / np.sqrt(n), row["se"])
    assert_within(row["value"], se, terms.mean())
