"""The bike-rental application of the conditional-subgroups paper (Sect. 10): the subgroup trees
with rules, the methods built on them and the claim kinds (the daily DGP ``bikeshare_daily`` is
the layers': tests/test_bikeshare_data.py; so are the importance kinds of Fig. 11:
tests/test_rank_claims_moved.py)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from imlbench.explain.api import METHODS, ExplainContext
from imlbench.explain.subgroup_tree import describe, fit_subgroup_tree
from imlbench.metrics.claims import CLAIMS, Tables

# ---------------------------------------------------------------- subgroup trees


def test_numeric_split_search_equals_scoring_every_candidate():
    """The vectorised search over numeric features, merged with the one-by-one scoring of the
    level sets, picks the split that scoring every candidate with the normal likelihood ratio
    picks (the highest statistic, ties to the lowest feature), at every node of the tree."""
    from scipy.stats import chi2

    from imlbench.explain.subgroup_tree import _candidates, _nll

    X = _levels_design(seed=7)
    X[:, 0] += 3 * (X[:, 2] > 0.5) + np.where(X[:, 2] > -0.5, 0.5, 2.0) * X[:, 0]
    tree = fit_subgroup_tree(X, 0, categorical=[1], max_depth=4)

    def reference(rows: np.ndarray, node: int, depth: int) -> None:
        y, best, tests = X[rows, 0], None, 0
        for m, c, levels, left in _candidates(X, rows, [1, 2], {1}, 32):
            if 30 <= left.sum() <= len(rows) - 30:
                tests += 1
                stat = _nll(y) - _nll(y[left]) - _nll(y[~left])
                if best is None or stat > best[0]:
                    best = (stat, m, c, levels, left)
        if depth >= 4 or len(rows) < 60 or best is None or tests * chi2.sf(best[0], 2) > 0.05:
            assert node not in tree.splits
            return
        s = tree.splits[node]
        assert (s.feature, s.left_levels) == (best[1], best[3])
        assert s.threshold == best[2] or np.isnan(s.threshold) and np.isnan(best[2])
        assert s.statistic == pytest.approx(best[0], rel=1e-9)
        reference(rows[best[4]], 2 * node + 1, depth + 1)
        reference(rows[~best[4]], 2 * node + 2, depth + 1)

    reference(np.arange(len(X)), 0, 0)
    assert len(tree.splits) >= 3 and {s.feature for s in tree.splits.values()} == {1, 2}


def test_samplers_distribution_tree_is_the_subgroup_tree():
    """fit_sampler's distribution tree hands its settings to the subgroup tree: the same leaves
    (heap ids), also cut back to each depth, with level sets for ``categorical_columns``."""
    from imlbench.explain.samplers import fit_sampler

    X = _levels_design(seed=4)
    X[:, 0] += 3 * (X[:, 2] > 0.5)
    settings = {"max_depth": 3, "min_node_size": 20, "alpha": 0.01, "n_cuts": 16}
    tree = fit_subgroup_tree(X, 0, categorical=[1], **settings)
    sampler = fit_sampler("subgroups", X, 0, np.random.default_rng(0),
                          {"tree": "distribution", "categorical_columns": [1], **settings})
    np.testing.assert_array_equal(sampler.groups(X), tree.leaves(X))
    for d in range(4):
        np.testing.assert_array_equal(sampler.groups(X, d), tree.truncated(d).leaves(X))
    assert any(s.left_levels is not None for s in tree.splits.values())


def _levels_design(n: int = 400, seed: int = 2) -> np.ndarray:
    """x0 depends on the 4-level x1: mean 5 at levels 1 and 3, 0 at levels 0 and 2 (not
    separable by one ordered cut of the codes)."""
    r = np.random.default_rng(seed)
    c = r.integers(0, 4, n).astype(float)
    return np.column_stack([np.where(np.isin(c, [1, 3]), 5.0, 0.0) + r.normal(size=n), c,
                            r.normal(size=n)])


def test_categorical_predictor_is_split_into_level_sets():
    X = _levels_design()
    tree = fit_subgroup_tree(X, 0, categorical=[1], max_depth=1)
    split = tree.splits[0]
    assert split.feature == 1 and np.isnan(split.threshold)
    assert {split.left_levels, frozenset({0.0, 1.0, 2.0, 3.0}) - split.left_levels} == {
        frozenset({1.0, 3.0}), frozenset({0.0, 2.0})}
    names = {"c": {0: "A", 1: "B", 2: "C", 3: "D"}}
    rules = {describe(tree.conditions(leaf), ["x", "c", "z"], names) for leaf in (1, 2)}
    assert rules == {"c in {A, C}", "c in {B, D}"}
    # a level unseen in training goes right
    assert tree.leaves(np.array([[0.0, 7.0, 0.0]]))[0] == 2


def test_categorical_target_uses_the_multinomial_law():
    """x0 is class 1 where x1 <= 0.3, else class 2 or 3 at random: the only informative cut is
    at 0.3; the candidate cuts are 1/33-quantiles, so it is found within one cut spacing."""
    r = np.random.default_rng(3)
    x1 = r.uniform(size=600)
    cls = np.where(x1 <= 0.3, 1.0, r.choice([2.0, 3.0], size=600))
    X = np.column_stack([cls, x1, r.normal(size=600)])
    tree = fit_subgroup_tree(X, 0, categorical=[0], max_depth=2)
    assert tree.splits[0].feature == 1
    assert abs(tree.splits[0].threshold - 0.3) <= 1 / 33 + 0.02
    assert 1 not in tree.splits  # the pure class-1 node is not split (one level)
    assert describe(tree.conditions(1), ["cls", "x1", "z"]).startswith("x1 <= 0.")


def test_truncation_equals_a_shallower_fit_and_rules_merge():
    X = _levels_design(seed=4)
    X[:, 0] += 3 * (X[:, 2] > 0.5)
    deep = fit_subgroup_tree(X, 0, categorical=[1], max_depth=3)
    for d in range(4):
        shallow = fit_subgroup_tree(X, 0, categorical=[1], max_depth=d)
        np.testing.assert_array_equal(deep.truncated(d).leaves(X), shallow.leaves(X))
    assert len(deep.truncated(0).splits) == 0 and set(deep.truncated(0).leaves(X)) == {0}
    leaf = int(deep.leaves(X)[0])
    conds = deep.conditions(leaf)
    assert all(np.all((X[deep.leaves(X) == leaf, m] > c[0]) & (X[deep.leaves(X) == leaf, m]
                                                                 <= c[1]))
               for m, c in conds.items() if not isinstance(c, frozenset))


# ---------------------------------------------------------------- methods on known models


class _Model:
    def __init__(self, f):
        self.predict = f


class _DGP:
    categorical = ("g",)
    levels = {"g": {0: "LOW", 1: "HIGH"}}


def _grouped(n: int = 300, seed: int = 5) -> np.ndarray:
    """x1 = 10 g + U(0, 0.1) with g in {0, 1} (so x1 is known within 0.1 given g); x2 ~ N(0, 1)."""
    r = np.random.default_rng(seed)
    g = r.integers(0, 2, n).astype(float)
    return np.column_stack([10 * g + r.uniform(0, 0.1, n), g, r.normal(size=n)])


def _ctx(f, X_train, X_test) -> ExplainContext:
    return ExplainContext(model=_Model(f), X=X_train, y=f(X_train), feature_names=["x1", "g", "x2"],
                          dgp=_DGP(), fit=None, fixed_rng=lambda label: np.random.default_rng(0),
                          X_test=X_test, y_test=f(X_test))


#: the prefix of the study's registered names
CS = "conditional_subgroups."


def _run(name, ctx, params, seed=0):
    return METHODS.get(name)(ctx, params, np.random.default_rng(seed))


def _f(Z):
    return Z[:, 0] + 0.0 * Z[:, 2]


PFI = {"n_repeats": 20, "loss": "absolute", "data": "test"}


def test_depth_zero_is_the_marginal_pfi():
    """One subgroup: the permutation stream is the PFI method's, value for value."""
    ctx = _ctx(_f, _grouped(), _grouped(seed=6))
    ours = _run(CS + "cs_pfi_quantiles", ctx, {**PFI, "sampler_params": {"max_depth": 0}}, seed=9)
    pfi = _run("pfi", ctx, {**PFI, "aggregate": "median"}, seed=9)
    np.testing.assert_allclose(ours["value"], pfi["value"], rtol=1e-12)
    assert (ours["split_on"] == "").all() and (ours["n_groups"] == 1).all()
    x2 = ours.set_index("feature").loc["x2"]  # not used by the model: exactly 0
    assert x2["value"] == x2["lower"] == x2["upper"] == 0.0
    x1 = ours.set_index("feature").loc["x1"]
    assert x1["lower"] <= x1["value"] <= x1["upper"] and x1["n_repeats"] == 20
    depths = _run(CS + "cs_pfi_depths", ctx, {**PFI, "depths": [0, 1], "aggregate": "median",
                                              "quantiles": [0.05, 0.95],
                                              "sampler_params": {"tree": "distribution"}}, seed=9)
    at0 = depths[depths["depth"] == 0].reset_index(drop=True)
    cols = ["feature", "value", "lower", "upper", "n_repeats", "n_groups"]
    pd.testing.assert_frame_equal(at0[cols], ours[cols], check_exact=False, rtol=1e-12)
    # depth 1 of x1 splits on the levels of g, as the tree of cs_pfi_quantiles does
    at1 = depths[depths["depth"] == 1].set_index("feature")
    assert at1.loc["x1", "n_groups"] == 2 and at1.loc["x1", "upper"] <= 0.1


def test_cs_pfi_permutes_within_the_level_groups():
    """y = f(x) = x1 and x1 is known within 0.1 given g: permuting x1 within the groups of g
    moves the MAE by at most 0.1; marginally by about 10 * 2 * 0.5 * 0.5 = 5."""
    ctx = _ctx(_f, _grouped(), _grouped(seed=6))
    cs = _run(CS + "cs_pfi_quantiles", ctx, {**PFI, "features": ["x1"]}).iloc[0]
    assert cs["split_on"] == "g" and cs["upper"] <= 0.1
    marginal = _run(CS + "cs_pfi_quantiles", ctx, {**PFI, "features": ["x1"],
                                                   "sampler_params": {"max_depth": 0}}).iloc[0]
    assert marginal["lower"] > 3.0
    local = _run(CS + "cs_pfi_local_rules", ctx, {**PFI, "features": ["x1"]})
    assert sorted(local["rule"]) == ["g = HIGH", "g = LOW"]
    assert local["n"].sum() == 300 and (local["upper"] <= 0.1).all()
    assert {tuple(json.loads(c)["g"]["levels"]) for c in local["conditions"]} == {
        ("LOW",), ("HIGH",)}


def test_cs_pdp_of_a_linear_model_is_exact_per_subgroup():
    """f = 2 x1 + x2: the PDP of x1 within a subgroup is 2 v + mean(x2 of its rows); ICE of the
    categorical g (unused by f) are the rows' own predictions at every level."""
    X = _grouped()

    def f(Z):
        return 2 * Z[:, 0] + Z[:, 2]

    ctx = _ctx(f, X, _grouped(seed=6))
    out = _run(CS + "cs_pdp_rules", ctx, {"features": ["x1", "g"], "data": "test"})
    Xt = ctx.X_test
    for (feature, _), part in out.groupby(["feature", "group"]):
        rows = part.loc[part["kind"] == "row", "row"].to_numpy()
        np.testing.assert_allclose(part.loc[part["kind"] == "row", "value"], f(Xt[rows]))
        pdp = part[part["kind"] == "pdp"]
        ice_ = part[part["kind"] == "ice"]
        assert len(ice_) == len(rows) * len(pdp)
        np.testing.assert_allclose(ice_.groupby("x")["value"].mean(), pdp["value"])
        if feature == "x1":
            assert len(pdp) == 30 and pdp["x"].min() == Xt[rows, 0].min()
            np.testing.assert_allclose(pdp["value"], 2 * pdp["x"] + Xt[rows, 2].mean())
            one = ice_[ice_["row"] == rows[0]]
            np.testing.assert_allclose(one["value"], 2 * one["x"] + Xt[rows[0], 2])
    assert set(out.loc[out["feature"] == "x1", "rule"]) == {"g = LOW", "g = HIGH"}
    x1 = out.loc[out["feature"] == "x1", "conditions"]
    assert {tuple(json.loads(c)["g"]["levels"]) for c in x1} == {("LOW",), ("HIGH",)}


def test_splits_and_bootstrap_refits():
    ctx = _ctx(_f, _grouped(), _grouped(seed=6))
    out = _run(CS + "subgroup_splits", ctx, {"features": ["x1"], "n_boot": 5})
    fitted = out[out["boot"] == -1]
    assert fitted["split_feature"].tolist() == ["g"] and fitted["left_levels"].tolist() == ["LOW"]
    assert set(out["boot"]) == set(range(-1, 5)) and (out["n_boot"] == 5).all()


def test_splits_on_all_rows_pool_the_training_and_test_rows():
    """``rows: all`` fits the trees on training and test rows together: the fitted tree's
    root holds every row, and the bootstrap resamples draw from all of them."""
    X, X_test = _grouped(), _grouped(seed=6)
    ctx = _ctx(_f, X, X_test)
    train = _run(CS + "subgroup_splits", ctx, {"features": ["x1"], "n_boot": 2})
    both = _run(CS + "subgroup_splits", ctx, {"features": ["x1"], "n_boot": 2, "rows": "all"})
    root = both[(both["boot"] == -1) & (both["node"] == 0)]
    assert root["n"].tolist() == [len(X) + len(X_test)]
    assert train.loc[(train["boot"] == -1) & (train["node"] == 0), "n"].tolist() == [len(X)]
    # resample: split draws fresh training splits: the training rows' size from all rows
    splits = _run(CS + "subgroup_splits", ctx, {"features": ["x1"], "n_boot": 3, "rows": "all",
                                                "resample": "split"})
    roots = splits[(splits["boot"] >= 0) & (splits["node"] == 0)]
    assert roots["n"].tolist() == [len(X)] * 3


def test_feature_predictability_of_a_copy_and_of_noise():
    """g replaced by a copy of x1: each is predicted from the other almost perfectly (R^2 near
    1); x2, independent noise, is not (out-of-sample R^2 <= 0 in expectation, SE about 0.1 on
    150 evaluated rows per fold)."""
    X = _grouped()
    X[:, 1] = X[:, 0]
    ctx = _ctx(_f, X, X[:10])
    ctx.dgp = type("D", (), {"categorical": ()})()
    out = _run(CS + "feature_predictability", ctx, {"n_splits": 2, "n_estimators": 20})
    value = out.set_index("feature")["value"]
    assert value["x1"] > 0.95 and value["g"] > 0.95 and value["x2"] < 0.3
    assert (out["n_splits"] == 2).all() and out["sd"].notna().all()


def test_methods_are_deterministic_given_the_seed():
    ctx = _ctx(_f, _grouped(), _grouped(seed=6))
    for name, params in [(CS + "cs_pfi_quantiles", PFI), (CS + "cs_pfi_local_rules", PFI),
                         (CS + "subgroup_splits", {"n_boot": 3})]:
        a, b = _run(name, ctx, params, seed=3), _run(name, ctx, params, seed=3)
        pd.testing.assert_frame_equal(a, b)
    c = _run(CS + "cs_pfi_quantiles", ctx, PFI, seed=4)
    assert not c["value"].equals(_run(CS + "cs_pfi_quantiles", ctx, PFI, seed=3)["value"])


# ---------------------------------------------------------------- claim kinds


def _tables(other=None, ranked=None):
    tag = {"scenario": "s", "learner": "l"}
    return Tables(ranked=pd.DataFrame() if ranked is None else ranked.assign(**tag),
                  truth={}, other=pd.DataFrame() if other is None else other.assign(**tag))


def _kind(name: str):
    """The study's claim kind ``name``."""
    return CLAIMS.get(CS + name)


def _claim(**kw):
    return {"id": "c", "text": "t", "published": "p",
            "where": {"scenario": "s", "learner": "l", "method": "m"}, **kw}


def test_predictability_claim_uses_the_split_noise():
    est = pd.DataFrame({"method": "m", "feature": ["temp", "hum"], "value": [0.70, 0.20],
                        "sd": [0.02, 0.02], "n_splits": 20})
    rows = _kind("predictability_table")(_claim(values={"temp": 66, "hum": 43, "yr": 8}),
                                              _tables(est))
    assert {r["claim"] for r in rows} == {"c"}  # one scorecard claim, a row per feature
    verdicts = {r["published"].split(":")[0]: r["verdict"] for r in rows}
    # the sd comes from 20 splits: t' = t_19 at Phi(3) = 3.447, tolerance t' * 2 * sqrt(1.05)
    # = 7.1 points: temp (4 off) passes, hum (23 off) fails
    t19 = 3.4472
    assert verdicts == {"temp": "reproduced", "hum": "not reproduced", "yr": "no data"}
    # power: twice the tolerance, relative to the published 66%
    assert rows[0]["detectable"] == pytest.approx(2 * t19 * 2 * np.sqrt(1.05), rel=1e-4)
    assert rows[0]["power"] == "departures of 14.1 (21.4% of 66) from the claimed value"


def test_local_importance_matches_subgroups_by_their_conditions():
    local_importance = _kind("local_importance")
    cond = [{"season": {"levels": ["SUMMER"]}, "hum": {"lo": 70.0, "hi": None}},
            {"season": {"levels": ["SUMMER"]}, "hum": {"lo": None, "hi": 70.0}},
            {"season": {"levels": ["WINTER"]}}]
    est = pd.DataFrame({"method": "m", "feature": "temp", "rule": ["a", "b", "c"],
                        "conditions": [json.dumps(c) for c in cond], "value": [2.0, 50, 300],
                        "lower": [-10.0, 30, 250], "upper": [15.0, 70, 350], "lower_q": 0.05,
                        "upper_q": 0.95, "n_repeats": 50})
    claim = _claim(feature="temp", match={"season": ["SUMMER"], "hum": "above"}, expect="zero")
    row = local_importance(claim, _tables(est))[0]
    assert row["verdict"] == "reproduced" and row["reproduced"].startswith("a: 2")
    claim["match"] = {"season": ["FALL"]}
    assert local_importance(claim, _tables(est))[0]["verdict"] == "not reproduced"


def _boot_splits(sets: list[tuple[str, ...]], method: str = "splits") -> pd.DataFrame:
    """Split rows of temp's subgroup trees (of ``method``): the fitted tree (boot -1) on the
    first set, bootstrap tree b on ``sets[b]`` (an empty tuple: a tree without splits)."""
    rows = [{"method": method, "feature": "temp", "boot": b, "n_boot": len(sets),
             "split_feature": f, "threshold": 1.0}
            for b, fs in [(-1, sets[0]), *enumerate(sets)] for f in fs]
    return pd.DataFrame(rows)


@pytest.mark.parametrize("hits, verdict", [(45, "reproduced"), (25, "inconclusive"),
                                           (10, "not reproduced")])
def test_split_features_is_decided_by_the_bootstrap_trees(hits, verdict):
    """50 bootstrap trees, ``hits`` of them on exactly {season, hum}: a share of 0.9 lies
    above one half by more than 2 binomial SE (0.04), 0.5 straddles it, 0.2 lies below."""
    sets = [("season", "hum")] * hits + [("season",)] * (50 - hits)
    claim = _claim(feature="temp", expect=["season", "hum"], k=2.0)
    row = _kind("split_features")(claim, _tables(_boot_splits(sets, "m")))[0]
    assert row["verdict"] == verdict
    assert row["reproduced"].startswith(f"{hits / 50:.0%} of 50 bootstrap trees")


@pytest.mark.parametrize("hits, verdict", [(45, "reproduced"), (25, "inconclusive"),
                                           (5, "inconclusive")])
def test_claims_on_unsettled_subgroups_are_inconclusive(hits, verdict):
    """A claim about the humid summer subgroup reads the one tree of the training split. When
    the trees of most of 50 random training splits (the premise method's) split temp on
    season and hum, the claim is evaluated (here it holds); when they do not, whether the
    run's tree has the subgroup is the draw of its split, and the row is inconclusive with
    that reason, whatever the one tree shows."""
    sets = [("season", "hum")] * hits + [("season",)] * (50 - hits)
    est = pd.concat([_ice_table({"humid": 0.0, "dry": -5.0, "winter": 10.0},
                                {"humid": 3000, "dry": 4000, "winter": 1000}),
                     _boot_splits(sets)], ignore_index=True)
    claim = _claim(feature="temp", match={"season": ["SUMMER"], "hum": "above"},
                   range=[0, 40], expect="zero", premise="splits")
    row = _kind("pdp_slope")(claim, _tables(est))[0]
    assert row["verdict"] == verdict
    if verdict == "inconclusive":
        assert f"the trees of temp on {hits} of 50 random training splits split on hum, " \
               "season" in row["reason"]


def test_split_points_claim_uses_the_bootstrap_spread():
    thresholds = {-1: [9.0, 21.0], 0: [8.0, 21.5], 1: [10.0, 20.5], 2: [9.0, 21.0]}
    est = pd.DataFrame([{"method": "m", "feature": "season", "boot": b, "n_boot": 3,
                         "split_feature": "temp", "threshold": v}
                        for b, vs in thresholds.items() for v in vs])
    claim = _claim(feature="season", split_feature="temp", points=[9.5, 30.0])
    rows = _kind("split_points")(claim, _tables(est))
    # SD of (8, 10, 9) = 1 and of (21.5, 20.5, 21) = 0.5: 9 is within 3, 21 is not near 30
    assert [r["verdict"] for r in rows] == ["reproduced", "not reproduced"]


def _ice_table(slopes: dict[str, float], levels: dict[str, float], n: int = 40,
               grid=(10.0, 20.0, 30.0)) -> pd.DataFrame:
    """ICE values of temp in three subgroups (humid summer, dry summer, winter): row i of a
    group has value level + slope * x + (i % 5) - 2 (the rows differ by their level only)."""
    cond = {"humid": {"season": {"levels": ["SUMMER"]}, "hum": {"lo": 70.0, "hi": None}},
            "dry": {"season": {"levels": ["SUMMER"]}, "hum": {"lo": None, "hi": 70.0}},
            "winter": {"season": {"levels": ["WINTER"]}}}
    rows = []
    for g, (name, c) in enumerate(cond.items()):
        for i in range(n):
            for x in grid:
                rows.append({"method": "m", "feature": "temp", "kind": "ice", "group": g,
                             "rule": name, "conditions": json.dumps(c), "row": 100 * g + i,
                             "x": x, "value": levels[name] + slopes[name] * x + i % 5 - 2})
    return pd.DataFrame(rows)


@pytest.mark.parametrize("match, expect, verdict", [
    ({"season": ["SUMMER"], "hum": "above"}, "zero", "reproduced"),
    ({"season": ["SUMMER"], "hum": "below"}, "negative", "reproduced"),
    ({"season": ["SUMMER"], "hum": "below"}, "zero", "not reproduced"),
    ({"season": ["WINTER"]}, "negative", "not reproduced"),
    ({"season": ["FALL"]}, "positive", "not reproduced"),
])
def test_pdp_slope_claim_per_matching_subgroup(match, expect, verdict):
    """Slopes 0, -5, +10 per degree; the rows' ICE slopes are equal, so their SE is 0 and the
    verdict is the slope's sign (no subgroup: not reproduced)."""
    est = _ice_table({"humid": 0.0, "dry": -5.0, "winter": 10.0},
                     {"humid": 3000, "dry": 4000, "winter": 1000})
    claim = _claim(feature="temp", match=match, range=[0, 40], expect=expect)
    assert _kind("pdp_slope")(claim, _tables(est))[0]["verdict"] == verdict


@pytest.mark.parametrize("expect, verdict", [("below", "reproduced"), ("above", "not reproduced")])
def test_pdp_group_level_claim(expect, verdict):
    """Humid 3000 vs dry 4000 (slope 0 both); the rows' levels spread by SD 1.4, SE 0.3."""
    est = _ice_table({"humid": 0.0, "dry": 0.0, "winter": 0.0},
                     {"humid": 3000, "dry": 4000, "winter": 1000})
    claim = _claim(feature="temp", match={"season": ["SUMMER"], "hum": "above"},
                   than_match={"season": ["SUMMER"], "hum": "below"}, expect=expect)
    assert _kind("pdp_group_level")(claim, _tables(est))[0]["verdict"] == verdict


@pytest.mark.parametrize("expect, value, atol, verdict", [
    ("above", 0, 0, "reproduced"), ("equal", 1000, 250, "reproduced"),
    ("equal", 1000, 0, "not reproduced"), ("above", 1000, 0, "not reproduced"),
])
def test_pdp_level_gap_claim(expect, value, atol, verdict):
    """ICE of season: winter (1) 1000 below spring and fall, 800 below summer, per row plus
    noise of SD 10 over 50 rows (SE of a difference about 2)."""
    rng = np.random.default_rng(0)
    gaps = {1: 0.0, 2: 1000.0, 3: 800.0, 4: 1000.0}
    est = pd.DataFrame([{"method": "m", "feature": "season", "kind": "ice", "group": 0,
                         "rule": "all", "conditions": "{}", "row": i, "x": float(level),
                         "value": 3000 + gap + rng.normal(0, 10)}
                        for i in range(50) for level, gap in gaps.items()])
    claim = _claim(feature="season", reference=1, levels=[2, 3, 4], expect=expect,
                   value=value, atol=atol)
    assert _kind("pdp_level_gap")(claim, _tables(est))[0]["verdict"] == verdict
