"""Data fidelity (Molnar et al., Sect. 8): offline tables, samplers, MMD, method, claims."""

from __future__ import annotations

import zlib

import numpy as np
import pandas as pd
import pytest

from imlbench.explain.api import METHODS, ExplainContext
from imlbench.explain.samplers import permute_within
from imlbench.metrics.claims import CLAIMS, Tables
from imlbench.stats import mmd2 as unbiased_mmd2
from imlbench.stats import t_multiplier
from imlbench.studies.conditional_subgroups.data_fidelity import (
    RepDistances,
    ale_borders,
    fidelity_repetition,
    target_tree_leaves,
)
from imlbench.studies.conditional_subgroups.dgp_classification_tables import (
    TABLES,
    CC18Substitute,
    prepare,
)


@pytest.mark.parametrize("name", list(TABLES))
def test_table_loads_prepared(name):
    table = TABLES[name]
    data = CC18Substitute(name).data
    assert data.shape == (table.rows, table.features + 1)
    X = data.drop(columns="y")
    assert all(np.issubdtype(t, np.floating) for t in X.dtypes)
    assert not data.isna().any().any()
    assert (X.nunique() > 1).all()
    codes = np.unique(data["y"])
    assert len(codes) >= 2 and np.array_equal(codes, np.arange(len(codes)))


def test_prepare_keeps_numeric_complete_varying_columns():
    raw = pd.DataFrame({"a": [1.0, 2.0, np.nan, 4.0], "b": ["u", "v", "w", "x"],
                        "c": [7, 7, 7, 7], "d": [0, 1, 0, 1]})
    out = prepare(raw, pd.Series(["no", "yes", "no", "yes"]))
    assert list(out.columns) == ["a", "d", "y"]
    assert out["a"].tolist() == [1.0, 2.0, 4.0]
    assert out["y"].tolist() == [0.0, 1.0, 1.0]


def test_ale_borders_known_grid():
    # inverse-CDF quantiles of 0..9 at 0, 1/3, 2/3, 1 are 0, 3, 6, 9; intervals [z_k, z_k+1)
    x = np.array([-1.0, 0.0, 2.5, 3.0, 6.0, 8.9, 9.0, 12.0])
    left, right = ale_borders(np.arange(10.0), x, grid_size=4)
    assert left.tolist() == [0, 0, 0, 3, 6, 6, 6, 6]
    assert right.tolist() == [3, 3, 3, 6, 9, 9, 9, 9]
    left, right = ale_borders(np.full(5, 2.0), x, grid_size=4)
    assert (left == 2.0).all() and (right == 2.0).all()


def test_cvirf_leaves_follow_the_target():
    rng = np.random.default_rng(0)
    X = rng.uniform(size=(300, 2))
    y = (X[:, 0] > 0.5).astype(float)
    test = np.column_stack([np.r_[np.linspace(0.05, 0.4, 20), np.linspace(0.6, 0.95, 20)],
                            rng.uniform(size=40)])
    leaves = target_tree_leaves(X, y, test, max_depth=30, min_node_size=20, seed=1)
    # the pure halves are not split further: two leaves, exactly the two sides of 0.5
    assert len(np.unique(leaves)) == 2
    assert len(np.unique(leaves[:20])) == 1 and len(np.unique(leaves[20:])) == 1
    moved = permute_within(test[:, 0], leaves, rng)
    assert np.array_equal(moved > 0.5, test[:, 0] > 0.5)


def _direct_mmd2(A: np.ndarray, B: np.ndarray, biased: bool) -> tuple[float, float]:
    """Eq. 6 from the pooled Gram matrix; bandwidth = median distance over all pairs."""
    Z = np.vstack([A, B])
    D = np.sqrt(((Z[:, None, :] - Z[None, :, :]) ** 2).sum(-1))
    s = float(np.median(D[np.triu_indices(len(Z), 1)]))
    K = np.exp(-(D**2) / (2 * s * s))
    n, m = len(A), len(B)
    kxx, kyy, kxy = K[:n, :n], K[n:, n:], K[:n, n:]
    if biased:
        return float(kxx.mean() + kyy.mean() - 2 * kxy.mean()), s
    return float((kxx.sum() - n) / (n * (n - 1)) + (kyy.sum() - m) / (m * (m - 1))
                 - 2 * kxy.mean()), s


@pytest.mark.parametrize("doubled", [False, True])
def test_batched_mmd_equals_eq6(doubled):
    rng = np.random.default_rng(3)
    ref, test = rng.normal(size=(21, 3)), rng.normal(size=(16, 3))
    rows = np.r_[np.arange(16), np.arange(16)] if doubled else np.arange(16)
    xj = rng.normal(size=len(rows))
    perturbed = test[rows].copy()
    perturbed[:, 1] = xj
    dist = RepDistances(ref, test)
    dist.for_feature(1)
    v, s = _direct_mmd2(ref, perturbed, biased=True)
    assert dist.mmd2(rows, xj, "v") == pytest.approx(v, rel=1e-10)
    u, _ = _direct_mmd2(ref, perturbed, biased=False)
    assert dist.mmd2(rows, xj, "u") == pytest.approx(u, rel=1e-9, abs=1e-12)
    # the unbiased form is the project's MMD estimator at the same bandwidth
    assert u == pytest.approx(unbiased_mmd2(ref, perturbed, bandwidth=s), rel=1e-9, abs=1e-12)


def test_fidelity_ranks_none_exact_perm_on_dependent_gaussian():
    # x = (x0, x1) normal with correlation 0.9: the exact conditional draw keeps the joint law
    # (same expected MMD^2 as no perturbation), a permutation breaks it
    rho, reps = 0.9, 20
    rng = np.random.default_rng(11)
    fid = {"none": [], "exact": [], "perm": []}
    for _ in range(reps):
        x0 = rng.standard_normal(600)
        X = np.column_stack([x0, rho * x0 + np.sqrt(1 - rho**2) * rng.standard_normal(600)])
        ref, test = X[:300], X[300:]
        dist = RepDistances(ref, test)
        dist.for_feature(1)
        rows = np.arange(300)
        draws = {"none": test[:, 1],
                 "exact": rho * test[:, 0] + np.sqrt(1 - rho**2) * rng.standard_normal(300),
                 "perm": rng.permutation(test[:, 1])}
        for k, xj in draws.items():
            fid[k].append(-np.log(dist.mmd2(rows, xj)))
    f = {k: np.array(v) for k, v in fid.items()}

    def gap(a, b):  # mean difference and its SE over the repetitions
        d = f[a] - f[b]
        return d.mean(), d.std(ddof=1) / np.sqrt(reps)

    m, se = gap("exact", "perm")
    assert m - 3 * se > 0  # permutation extrapolates: lower fidelity than the exact law
    m, se = gap("none", "perm")
    assert m - 3 * se > 0
    m, se = gap("none", "exact")
    assert m + 3 * se >= 0  # no perturbation is not beaten by the exact law


def _context(n: int = 180) -> ExplainContext:
    dgp = CC18Substitute("pima")
    data = dgp.sample(n, np.random.default_rng(0))
    return ExplainContext(
        model=None, X=data.drop(columns="y").to_numpy(), y=data["y"].to_numpy(),
        feature_names=dgp.feature_names, dgp=dgp, fit=None,
        fixed_rng=lambda label: np.random.default_rng(zlib.crc32(label.encode())))


PARAMS = {"samplers": ["perm", "cart2", "trtr2", "trtr30", "ko", "imp", "ale", "cvirf", "none"],
          "n_features": 3, "imp": {"n_estimators": 25, "min_samples_leaf": 5}}


def test_method_is_rerun_deterministic():
    run = METHODS.get("conditional_subgroups.data_fidelity")
    ctx = _context()
    a = run(ctx, PARAMS, np.random.default_rng(7))
    b = run(ctx, PARAMS, np.random.default_rng(7))
    pd.testing.assert_frame_equal(a, b)
    assert len(a) == 3 * len(PARAMS["samplers"])
    assert sorted(a["position"].unique()) == [0, 1, 2]
    assert np.isfinite(a["value"]).all() and (a["mmd2"] > 0).all()
    c = run(ctx, PARAMS, np.random.default_rng(8))
    assert not np.allclose(a["value"], c["value"])


def test_sampler_streams_do_not_depend_on_the_other_samplers():
    ctx = _context()
    X, y = ctx.X, ctx.y
    full = fidelity_repetition(X, y, [0, 2], ["perm", "cart3", "ale", "none"],
                               np.random.default_rng(5))
    part = fidelity_repetition(X, y, [0, 2], ["cart3", "none"], np.random.default_rng(5))
    merged = part.merge(full, on=["feature", "sampler"], suffixes=("", "_full"))
    np.testing.assert_allclose(merged["value"], merged["value_full"])


def _fidelity_tables(rng: np.random.Generator,
                     levels: tuple = (("hi", 5.0), ("mid", 4.0), ("lo", 3.0))) -> Tables:
    rows = [{"scenario": f"e3_name{d}", "learner": "none", "method": "fid", "rep": r,
             "feature": f"x{f}", "sampler": s, "value": level + 0.1 * rng.standard_normal()}
            for d in ("a", "b") for r in range(3) for f in range(4)
            for s, level in levels]
    return Tables(ranked=pd.DataFrame(), truth={}, other=pd.DataFrame(rows))


def test_rank_and_order_claims():
    t = _fidelity_tables(np.random.default_rng(0))
    base = {"family": "e3", "text": "", "published": "",
            "where": {"scenario": "e3_namea", "learner": "none", "method": "fid"}}
    rank = CLAIMS.get("conditional_subgroups.data_fidelity_rank")(
        {**base, "id": "r", "samplers": ["hi", "mid", "lo"], "n_published": 100,
         "values": {"hi": {"mean": 1.0, "sd": 0.2}, "lo": {"mean": 1.0, "sd": 0.2}}}, t)
    assert [r["verdict"] for r in rank] == ["reproduced", "not reproduced"]
    order = CLAIMS.get("conditional_subgroups.data_fidelity_order")(
        {**base, "id": "o", "higher": ["hi", "mid"], "lower": ["lo"]}, t)
    assert order[0]["verdict"] == "reproduced"
    wrong = CLAIMS.get("conditional_subgroups.data_fidelity_order")(
        {**base, "id": "w", "higher": ["lo"], "lower": ["mid"]}, t)
    assert wrong[0]["verdict"] == "not reproduced"
    share = CLAIMS.get("conditional_subgroups.data_fidelity_share")(
        {**base, "id": "s", "baseline": "lo", "min_share": 0.4, "pairs": [["mid", "hi"]]}, t)
    assert share[0]["verdict"] == "reproduced"  # mid keeps half of hi's gain over lo


def test_monotone_and_share_claims_on_a_tie():
    """"tie" has the level of "mid": the step mid -> tie does not fall significantly, and
    "tie" beating "mid" is a coin flip: the interval of tie - mid straddles 0, inconclusive
    (was: not reproduced). A fall (hi -> lo) is not reproduced. Keeping at least the whole
    gain of "tie" over "lo" straddles D = 0 and passes (not significantly below the share)."""
    t = _fidelity_tables(np.random.default_rng(0), (("hi", 5.0), ("mid", 4.0), ("tie", 4.0),
                                                    ("lo", 3.0)))
    base = {"id": "m", "family": "e3", "text": "", "published": "",
            "where": {"scenario": "e3_namea", "learner": "none", "method": "fid"}}
    rows = CLAIMS.get("conditional_subgroups.data_fidelity_monotone")(
        {**base, "sequences": [["lo", "mid", "hi"], ["mid", "tie"], ["hi", "lo"]]}, t)
    assert [r["verdict"] for r in rows] == ["reproduced", "inconclusive", "not reproduced"]
    # the power of the tie's row: 2 t(2) SE of tie - mid over the 8 (data set, feature) pairs
    # (t(2) the t quantile at Phi(2) with 7 df)
    other = t.other.pivot_table(index=["scenario", "feature"], columns="sampler",
                                values="value")  # means over the 3 repetitions
    d = other["tie"] - other["mid"]
    assert rows[1]["detectable"] == pytest.approx(2 * float(t_multiplier(2, 7))
                                                  * d.std(ddof=1) / np.sqrt(8))
    # D = (mid - lo) - 1.0 (tie - lo) = -d: its interval straddles 0, and that passes
    assert abs(d.mean()) < 2 * d.std(ddof=1) / np.sqrt(8)
    share = CLAIMS.get("conditional_subgroups.data_fidelity_share")(
        {**base, "baseline": "lo", "min_share": 1.0, "pairs": [["mid", "tie"]]}, t)
    assert share[0]["verdict"] == "reproduced"
    assert share[0]["detectable"] == pytest.approx(rows[1]["detectable"])
