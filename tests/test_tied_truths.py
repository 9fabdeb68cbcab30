"""Ties of true importances: Monte Carlo noise must not order importances that are equal.

Truths equal within their Monte Carlo error (|a - b| <= 3 (se_a + se_b)) or to rounding get
tied (average) ranks (:func:`imlbench.metrics.ranks.truth_ranks`); exchangeable features of a
formula DGP share one pooled Monte Carlo estimate (an exact tie,
:func:`imlbench.truth.formula.exchangeable_classes`); and ``ranks_match_theory`` gives no
verdict, with a reason naming the claim and the tied truths, where its verdict would rest on
a tie that only the Monte Carlo error makes.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm

import imlbench.metrics.rank_claims  # noqa: F401  (registers the rank claim kinds)
from imlbench.dgp.base import make_dgp
from imlbench.explain.estimands import truth_frame
from imlbench.metrics.claims import CLAIMS, Tables
from imlbench.metrics.ranks import truth_ranks
from imlbench.seeds import rng_for
from imlbench.truth import formula as ft

NORMAL = {"law": "normal", "mean": 0.0, "sd": 1.0}
RHO = 0.5
REPS = 20


def fixed_rng(label: str) -> np.random.Generator:
    return rng_for(20260611, "test_tied_truths", label)


def pfi(features: list[str], value: list[float], se: list[float] | float) -> pd.DataFrame:
    return truth_frame("pfi_marginal", features, np.asarray(value, float), se=se)


# --------------------------------------------------------------------------- truth ranks


def test_truths_equal_within_their_monte_carlo_error_are_tied():
    """b - a = 0.006 <= 3 (0.01 + 0.01): a Monte Carlo tie, not an order."""
    t = pfi(["a", "b", "c", "d"], [2.003, 1.997, 4.0, 0.5], [0.01, 0.01, 0.01, 0.0])
    assert truth_ranks(t, "pfi_marginal").to_dict() == {"a": 2.5, "b": 2.5, "c": 4.0, "d": 1.0}


@pytest.mark.parametrize("gap, tied", [(0.059, True), (0.061, False)])
def test_the_tie_bound_is_three_summed_standard_errors(gap, tied):
    ranks = truth_ranks(pfi(["a", "b"], [2.0, 2.0 + gap], 0.01), "pfi_marginal")
    assert list(ranks) == ([1.5, 1.5] if tied else [1.0, 2.0])


def test_genuinely_different_truths_keep_their_ranks():
    # Monte Carlo values far apart, and closed forms (se 0) 1e-6 apart, stay ordered
    assert list(truth_ranks(pfi(["a", "b", "c"], [3.0, 1.0, 2.0], 0.01),
                            "pfi_marginal")) == [3.0, 1.0, 2.0]
    assert list(truth_ranks(pfi(["a", "b"], [0.3 + 1e-6, 0.3], 0.0),
                            "pfi_marginal")) == [2.0, 1.0]


def test_closed_forms_equal_to_rounding_are_tied():
    assert list(truth_ranks(pfi(["a", "b"], [0.1 + 0.2, 0.3], 0.0), "pfi_marginal")) == [1.5, 1.5]


# --------------------------------------------------------------------------- formula DGP


def exchangeable_dgp() -> object:
    """f = x1^2 + x2^2 + 2 x3^2 on standard normals, x1 and x2 correlated RHO (exchangeable),
    x3 independent: no closed form, so every PFI is a Monte Carlo estimate."""
    return make_dgp("formula", {
        "features": {"x1": NORMAL, "x2": NORMAL, "x3": NORMAL},
        "dependence": {"features": ["x1", "x2"], "correlation": [[1, RHO], [RHO, 1]]},
        "f": "x1**2 + x2**2 + 2*x3**2"})


@pytest.fixture(scope="module")
def exchangeable_truth() -> pd.DataFrame:
    return ft.importance_table(exchangeable_dgp(), fixed_rng)


def test_exchangeable_formula_features_get_tied_truth_ranks(exchangeable_truth):
    """Before pooling, the two Monte Carlo PFIs of x1 and x2 differ by noise and rank 1, 2."""
    for estimand in ("pfi_marginal", "pfi_conditional"):
        ranks = truth_ranks(exchangeable_truth, estimand)
        assert ranks.to_dict() == {"x1": 1.5, "x2": 1.5, "x3": 3.0}, estimand


def test_pooled_estimates_are_equal_and_unbiased(exchangeable_truth):
    """One value and SE per class, within the family-wise 3-sigma bound (k_4) of the closed
    forms: marginal PFI of c x^2 is c^2 2 Var(x^2) = 4 c^2; conditional PFI of x1^2 given x2
    is 2 E Var(x1^2 | x2) = 2 (2 s^4 + 4 RHO^2 s^2), s^2 = 1 - RHO^2 (x3: independent, 16)."""
    t = exchangeable_truth.set_index(["estimand", "feature"])
    for estimand in ("pfi_marginal", "pfi_conditional"):
        assert t.loc[(estimand, "x1"), "value"] == t.loc[(estimand, "x2"), "value"]
        assert t.loc[(estimand, "x1"), "se"] == t.loc[(estimand, "x2"), "se"] > 0
    s2 = 1 - RHO**2
    expected = {("pfi_marginal", "x1"): 4.0, ("pfi_marginal", "x3"): 16.0,
                ("pfi_conditional", "x1"): 2 * (2 * s2**2 + 4 * RHO**2 * s2),
                ("pfi_conditional", "x3"): 16.0}
    k = norm.isf(0.00135 / len(expected))
    for key, truth in expected.items():
        assert abs(t.loc[key, "value"] - truth) <= k * t.loc[key, "se"], key


@pytest.mark.parametrize("change, classes", [
    ({}, [[0, 1]]),
    ({"x2": {"law": "normal", "mean": 0.0, "sd": 2.0}}, []),  # another law
    ({"f": "x1**2 + 2*x2**2 + x3"}, []),  # f not symmetric in x1, x2
    ({"f": "x1**2 + x2**2 + x3**2"}, [[0, 1, 2]]),  # x3 joins: chained swaps
    ({"x4": "x1 + normal(0, 1)"}, []),  # a structural equation reads x1
])
def test_exchangeable_classes(change, classes):
    features = {"x1": NORMAL, "x2": NORMAL, "x3": NORMAL}
    features |= {k: v for k, v in change.items() if k != "f"}
    d = make_dgp("formula", {"features": features, "f": change.get("f", "x1**2 + x2**2 + x3")})
    assert ft.exchangeable_classes(d, fixed_rng("classes")) == classes


def test_exchangeability_needs_equal_copula_correlations():
    corr = [[1, 0.5, 0.3], [0.5, 1, 0.2], [0.3, 0.2, 1]]
    d = make_dgp("formula", {"features": {"x1": NORMAL, "x2": NORMAL, "x3": NORMAL},
                             "dependence": {"features": ["x1", "x2", "x3"], "correlation": corr},
                             "f": "x1**2 + x2**2 + x3"})
    assert ft.exchangeable_classes(d, fixed_rng("classes")) == []


def test_categorical_level_names_do_not_matter():
    d = make_dgp("formula", {"features": {
        "a": {"law": "categorical", "levels": ["u", "v", "w"], "p": [0.2, 0.3, 0.5]},
        "b": {"law": "categorical", "levels": ["p", "q", "r"], "p": [0.2, 0.3, 0.5]},
        "c": {"law": "categorical", "levels": ["p", "q", "r"]}}, "f": "a*b + c"})
    assert ft.exchangeable_classes(d, fixed_rng("classes")) == [[0, 1]]


# --------------------------------------------------------------------------- rank claims


CLAIM = {"id": "tied-pair-claim", "text": "t", "published": "p",
         "where": {"scenario": "s", "learner": "l", "method": "m"}}


def ranked(order: list[list[str]]) -> pd.DataFrame:
    """Estimated ranks: repetition r ranks the features of ``order[r % len(order)]`` 1, 2, ..."""
    return pd.DataFrame([{"scenario": "s", "learner": "l", "method": "m", "rep": r,
                          "feature": f, "value": float(i), "rank": float(i + 1)}
                         for r in range(REPS) for i, f in enumerate(order[r % len(order)])])


def claim(kind: str, table: pd.DataFrame, estimates: pd.DataFrame, **params) -> dict:
    """The one scorecard row of a claim of ``kind`` on scenario s, whose truth is ``table``."""
    t = Tables(ranked=estimates, truth={"s": table}, other=pd.DataFrame())
    rows = CLAIMS.get(kind)({**CLAIM, "kind": kind, **params}, t)
    assert len(rows) == 1
    return rows[0]


#: x1 and x2 equal within their Monte Carlo error, x3 far above
MC_TIE = pfi(["x1", "x2", "x3"], [2.003, 1.997, 4.0], [0.01, 0.01, 0.01])
#: every repetition x3 on top, x1 and x2 alternating below it
ALTERNATING = [["x1", "x2", "x3"], ["x2", "x1", "x3"]]


def test_a_claim_resting_on_a_monte_carlo_tie_has_no_verdict():
    row = claim("ranks_match_theory", MC_TIE, ranked(ALTERNATING))
    assert row["verdict"] == "no data", row
    for part in ("tied-pair-claim", "pfi_marginal", "x1 2.003 (SE 0.01)", "x2 1.997 (SE 0.01)",
                 "Monte Carlo error"):
        assert part in row["reason"], (part, row["reason"])


def test_a_miss_outside_the_tie_is_not_reproduced_whatever_the_tie():
    """x3, the most important, ranked least important: a miss whatever the order of x1, x2."""
    row = claim("ranks_match_theory", MC_TIE, ranked([["x3", "x1", "x2"], ["x3", "x2", "x1"]]))
    assert row["verdict"] == "not reproduced", row


def test_an_exact_tie_of_exchangeable_features_is_scored(exchangeable_truth):
    """The pooled formula truth ties x1 and x2 exactly: ranks alternating between them match."""
    row = claim("ranks_match_theory", exchangeable_truth, ranked(ALTERNATING))
    assert row["verdict"] == "reproduced", row
    row = claim("ranks_match_theory", exchangeable_truth, ranked(ALTERNATING), truth="conditional")
    assert row["verdict"] == "reproduced", row


def test_rank_order_does_not_read_the_truth():
    """``rank_order`` claims an order of the estimates, which may break a tie of the truth on
    purpose (Hooker et al.'s x1, x2 above x3-x5): scored whatever the truth says."""
    row = claim("rank_order", MC_TIE, ranked([["x2", "x1", "x3"]]), higher=["x1"], lower=["x2"])
    assert row["verdict"] == "reproduced", row
