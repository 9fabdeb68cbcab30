"""Model fidelity of PDP, ALE and cs-PDPs (Molnar et al., conditional subgroups, Sect. 9):
the offline regression tables, the fidelity computation on cases with known answers, the
claim kinds and rerun determinism."""

from __future__ import annotations

import types

import numpy as np
import pandas as pd
import pytest

from imlbench.dgp.base import make_dgp
from imlbench.explain.api import METHODS, ExplainContext
from imlbench.metrics.claims import CLAIMS, Tables
from imlbench.stats import t_multiplier
from imlbench.studies.conditional_subgroups.dgp_regression_tables import TABLES, load_table
from imlbench.studies.conditional_subgroups.model_fidelity import (
    SUBGROUPS,
    grouped_mse,
    model_fidelity,
    on_curve,
)

SHAPES = {"pollen": (3848, 4), "quakes": (1000, 3), "rain": (4971, 11),
          "chicago": (5698, 38), "schools": (1848, 7), "concrete": (1030, 8)}


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_tables_load_numeric_without_missing_values(name):
    df = load_table(name)
    assert df.shape == (SHAPES[name][0], SHAPES[name][1] + 1)
    assert list(df.columns) == [*TABLES[name].features, "y"]
    assert all(np.issubdtype(t, np.floating) for t in df.dtypes)
    assert not df.isna().any().any()
    assert df["y"].var() > 0 and (df.drop(columns="y").var() > 0).all()


def test_regression_table_dgp_draws_rows_and_rejects_unknown_names():
    dgp = make_dgp("conditional_subgroups.regression_table", {"name": "quakes"})
    assert dgp.feature_names == ["lat", "long", "depth"]
    assert len(dgp.sample(300, np.random.default_rng(0))) == 300
    assert len(dgp.sample(None, np.random.default_rng(0))) == 1000
    with pytest.raises(ValueError, match="name: 'wine' is not allowed; allowed: pollen, "):
        make_dgp("conditional_subgroups.regression_table", {"name": "wine"})


def test_on_curve_interpolates_and_leaves_out_rows_outside_the_grid():
    out = on_curve(np.array([-1.0, 0.0, 0.5, 1.0, 2.0]), np.array([0.0, 1.0]),
                   np.array([1.0, 3.0]))
    np.testing.assert_array_equal(out, [np.nan, 1.0, 2.0, 3.0, np.nan])


def test_grouped_mse_weights_each_group_by_all_its_rows():
    # group 0: errors 1 and (left out); group 1: errors 2, 2 -> (2 x 1 + 2 x 4) / 4
    value, _, n_used = grouped_mse(np.array([1.0, np.nan, 2.0, 2.0]), np.zeros(4),
                                   np.array([0, 0, 1, 1]))
    assert value == pytest.approx(10 / 4) and n_used == 3


COMPONENTS = (lambda x: 2 * x, lambda x: np.sin(3 * x), lambda x: x**2)


def _additive(X: np.ndarray) -> np.ndarray:
    return sum(g(X[:, k]) for k, g in enumerate(COMPONENTS))


def test_additive_model_with_independent_features_has_the_known_loss():
    """f = sum_k g_k(x_k), features independent U(-1, 1): the PDP of x_j is g_j(x_j) plus the
    training mean of the other components r_j, and so is the ALE plus the mean prediction.
    The loss against f is then mean_test (r_j - mean_train r_j)^2, and against y = f + e that
    with e added, computed here from the same rows. Tolerance 0.001: the linear interpolation
    of sin(3x) between 20 grid points errs by at most d = 9 h^2 / 8 = 0.012 (h = 2/19), which
    moves the loss by about d^2 = 1.5e-4 plus a cross term with the test mean of r_j of the
    same order, as r_j is independent of x_j. The subgroup trees find no split (one group),
    so the cs-PDPs equal the PDP."""
    rng = np.random.default_rng(1)
    X = rng.uniform(-1, 1, size=(3000, 3))
    e = rng.normal(0, 0.5, 3000)
    train, test = slice(0, 2000), slice(2000, None)
    df = model_fidelity(_additive, X[train], X[test], _additive(X[test]) + e[test], range(3),
                        np.random.default_rng(2))
    assert set(df["effect"]) == {"pdp", "ale", *SUBGROUPS}
    assert (df["n_groups"] == 1).all() and (df["n_used"] == 1000).all()
    for row in df.itertuples():
        r = _additive(X) - COMPONENTS[row.feature](X[:, row.feature])
        resid = r[test] - r[train].mean() + (e[test] if row.against == "y" else 0.0)
        assert abs(row.value - np.mean(resid**2)) <= 0.001, row


def test_dependent_features_favour_cs_pdps():
    """f = x1 + x2 with x1 = x2 + e (sd 0.1), x2 ~ U(-1, 1): the PDP of x1 is x1 + E(x2), so
    its loss against f is Var(x2) = 1/3; subgroups of x1 split on x2 and leave only the
    variance of x2 within a subgroup, about 1/12 for two halves and 1/48 for four quarters.
    Tolerances: 4 test-split SEs for the PDP; 25% for the subgroups, whose splits are
    estimated (a split 0.1 off the middle changes 1/12 by 7%) and whose x1 ranges overlap."""
    rng = np.random.default_rng(3)
    x2 = rng.uniform(-1, 1, 3000)
    X = np.column_stack([x2 + rng.normal(0, 0.1, 3000), x2])

    def f(Z):
        return Z[:, 0] + Z[:, 1]

    df = model_fidelity(f, X[:2000], X[2000:], f(X[2000:]), [0], np.random.default_rng(4))
    loss = df[df["against"] == "model"].set_index("effect")
    assert abs(loss.loc["pdp", "value"] - 1 / 3) <= 4 * loss.loc["pdp", "se"]
    for tree in ("cart", "trtr"):
        assert loss.loc[f"{tree}1", "n_groups"] == 2 and loss.loc[f"{tree}2", "n_groups"] == 4
        assert loss.loc[f"{tree}1", "value"] == pytest.approx(1 / 12, rel=0.25)
        assert loss.loc[f"{tree}2", "value"] == pytest.approx(1 / 48, rel=0.25)


def _context(X, y, n_train):
    model = types.SimpleNamespace(predict=_additive)
    return ExplainContext(model=model, X=X[:n_train], y=y[:n_train],
                          feature_names=["a", "b", "c"], dgp=None, fit=None, fixed_rng=None,
                          X_test=X[n_train:], y_test=y[n_train:])


def test_registered_method_is_deterministic_and_declares_test_rows():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(600, 3))
    X[:, 0] += X[:, 1]
    y = _additive(X)
    spec = METHODS.get("conditional_subgroups.model_fidelity")
    assert spec.kind == "metric"
    params = {"features": ["a", "c"]}
    # the validator rejects a scenario without test rows before any job runs
    assert "test_rows" in spec.requirements(params)
    first = spec(_context(X, y, 400), params, np.random.default_rng(6))
    again = spec(_context(X, y, 400), params, np.random.default_rng(6))
    pd.testing.assert_frame_equal(first, again)
    assert set(first["feature"]) == {"a", "c"} and len(first) == 2 * 6 * 2


def _tables(losses: dict[str, list[float]], se: float = 0.1) -> Tables:
    """Estimates of one scenario/learner/method: one rep, one feature per list entry."""
    rows = [{"scenario": "s", "learner": "rf", "method": "mf", "rep": 0, "feature": f"x{i}",
             "effect": effect, "against": "y", "value": v, "se": se, "n_used": 100}
            for effect, values in losses.items() for i, v in enumerate(values)]
    return Tables(ranked=pd.DataFrame(), truth={}, other=pd.DataFrame(rows))


def _claim(**extra) -> dict:
    return {"id": "c", "text": "", "published": "", "against": "y",
            "where": {"scenario": "s", "learner": "rf", "method": "mf"}, **extra}


def test_fidelity_order_needs_a_difference_beyond_its_standard_error():
    t = _tables({"pdp": [5.0, 6.0, 7.0, 8.0], "cart2": [4.0, 5.1, 5.9, 7.0],
                 "same": [5.0, 6.0, 7.0, 8.0]})
    order = CLAIMS.get("conditional_subgroups.fidelity_order")
    lower = order(_claim(pairs=[["cart2", "pdp"], ["same", "pdp"]]), t)
    assert [r["verdict"] for r in lower] == ["reproduced", "not reproduced"]
    ties = order(_claim(pairs=[["same", "pdp"], ["pdp", "cart2"]], expect="not_higher"), t)
    assert [r["verdict"] for r in ties] == ["reproduced", "not reproduced"]


def test_fidelity_order_straddle():
    """d = pdp - near = (0.5, -0.3, 0.4, -0.2): mean 0.1, SE 0.204 (sd sqrt(0.5 / 3) /
    sqrt(4)). Strictly lower: 0.1 +- t(2) SE straddles 0, inconclusive (was: not reproduced);
    not higher: the interval does not lie wholly below 0, reproduced; both detect 2 t(2) SE,
    t(2) the t quantile at Phi(2) with 3 df (4 feature x rep units)."""
    t = _tables({"pdp": [5.0, 6.0, 7.0, 8.0], "near": [4.5, 6.3, 6.6, 8.2]})
    order = CLAIMS.get("conditional_subgroups.fidelity_order")
    for expect, verdict in (("lower", "inconclusive"), ("not_higher", "reproduced")):
        (row,) = order(_claim(pairs=[["near", "pdp"]], expect=expect), t)
        assert row["verdict"] == verdict
        sd = np.std([0.5, -0.3, 0.4, -0.2], ddof=1)
        assert row["detectable"] == pytest.approx(2 * float(t_multiplier(2, 3)) * sd / 2)


def test_fidelity_close_and_values():
    t = _tables({"pdp": [10.0, 10.0, 10.0], "ale": [10.1, 10.0, 10.2],
                 "far": [11.4, 11.5, 11.6], "near": [10.3, 10.5, 10.7]})
    close = CLAIMS.get("conditional_subgroups.fidelity_close")(
        _claim(pairs=[["ale", "pdp"], ["far", "pdp"], ["near", "pdp"]], margin=0.05), t)
    # near: |d| = 0.5 +- t(2) SE (SE 0.2 / sqrt(3), t(2) at 2 df) straddles the bound 0.05 x
    # 10 = 0.5: inconclusive (was: not reproduced); far: 1.5 - t(2) SE lies wholly above it
    assert [r["verdict"] for r in close] == ["reproduced", "not reproduced", "inconclusive"]
    assert close[2]["detectable"] == pytest.approx(2 * float(t_multiplier(2, 2)) * 0.2
                                                   / np.sqrt(3))
    # split SE 0.1 at one rep of 100 test rows, published 400: 3 x 0.1 x sqrt(1.25) = 0.34
    values = CLAIMS.get("conditional_subgroups.fidelity_values")(
        _claim(values={"ale": 10.4, "far": 10.9}, published_test_rows=400), t)
    assert [r["verdict"] for r in values] == ["reproduced", "not reproduced"]
    assert values[0]["detectable"] == pytest.approx(2 * 3 * 0.1 * np.sqrt(1.25))
