"""Methods of the bike-rental application of the conditional-subgroups paper (Molnar et al.,
Sect. 10): cs-PFI with quantiles over the permutations, local cs-PFI and cs-PDPs with the rule
of each subgroup (Figs. 11-13), the subgroup trees' splits, and the feature predictability of
Table 6. The depth sweep of Fig. 10 is ``conditional_subgroups.cs_pfi_depths``
(:mod:`imlbench.studies.conditional_subgroups.methods_depth`).

The subgroups come from :func:`imlbench.explain.subgroup_tree.fit_subgroup_tree`, fitted on
the training rows (``sampler_params``: ``max_depth`` (default 2), ``min_node_size`` (30),
``alpha`` (0.05), ``n_cuts`` (32)); a tree of depth 0 is one group, so its cs-PFI is the
marginal PFI and its cs-PDP the PDP. Categorical features (the study's ``categorical`` list,
else the DGP's) are split into sets of levels and described by the DGP's ``levels`` names.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from imlbench.explain.api import (
    CATEGORICAL,
    DATA,
    FEATURES,
    PFI_OPTIONS,
    ExplainContext,
    categorical,
    loss_options,
    method,
    named,
)
from imlbench.explain.cs_pfi import DEFAULT_QUANTILES, quantile_spread, subgroup_pfi
from imlbench.explain.effects import ice
from imlbench.explain.grids import GRID_FIELDS, make_grid
from imlbench.explain.samplers import SUBGROUP_PARAMS
from imlbench.explain.subgroup_tree import (
    Condition,
    SubgroupTree,
    describe,
    fit_subgroup_tree,
    node_depth,
)
from imlbench.params import choice, integer, items, number, table, with_defaults

#: the distribution tree's settings (``sampler_params``): those of the subgroups sampler, but
#: depth 2 by default (the paper's trees of Sect. 10)
TREE_PARAMS = {"max_depth": integer(2, minimum=0),
               **{k: SUBGROUP_PARAMS[k] for k in ("min_node_size", "alpha", "n_cuts")}}
#: the features, the subgroup trees and their categorical features, shared by every method
COMMON = {**FEATURES, "sampler_params": table(TREE_PARAMS, {}), **CATEGORICAL}
#: cs-PFI over ``n_repeats`` permutations with the ``quantiles`` of their spread
REPEATS = {
    "n_repeats": integer(50, minimum=1), **DATA,
    **{k: p for k, p in PFI_OPTIONS.items() if k != "aggregate"},
    "quantiles": items(number(minimum=0, maximum=1), list(DEFAULT_QUANTILES), length=2),
}


def _tree(ctx: ExplainContext, params: dict, j: int, X: np.ndarray | None = None) -> SubgroupTree:
    """The subgroup tree of feature j on the training rows (or on ``X``)."""
    spec = with_defaults(TREE_PARAMS, params["sampler_params"])
    return fit_subgroup_tree(ctx.X if X is None else X, j,
                             categorical=categorical(ctx, params), **spec)


def _levels(ctx: ExplainContext) -> dict:
    return getattr(ctx.dgp, "levels", {})


def _rule(ctx: ExplainContext, tree: SubgroupTree, leaf: int) -> str:
    return describe(tree.conditions(leaf), ctx.feature_names, _levels(ctx))


def _conditions_json(ctx: ExplainContext, conditions: dict[int, Condition]) -> str:
    """A leaf's rule for the claims: {feature: {"lo", "hi"} (None = unbounded) or {"levels"}}."""
    names = _levels(ctx)
    out = {}
    for m, cond in conditions.items():
        name = ctx.feature_names[m]
        if isinstance(cond, frozenset):
            out[name] = {"levels": [names.get(name, {}).get(int(v), f"{v:g}")
                                    for v in sorted(cond)]}
        else:
            out[name] = {k: (float(v) if np.isfinite(v) else None)
                         for k, v in zip(("lo", "hi"), cond, strict=True)}
    return json.dumps(out)


def _spread(df: pd.DataFrame, by: list[str], params: dict) -> pd.DataFrame:
    """Median (``value``) and mean of the per-repetition values with their spread, the
    ``quantiles`` (default 5% and 95%; :func:`imlbench.explain.cs_pfi.quantile_spread`), as
    iml's FeatureImp reports them."""
    out = df.groupby(by, sort=False)["value"].agg(value="median", mean="mean").reset_index()
    spread = quantile_spread(df, by, params["quantiles"])
    return pd.concat([out, spread.drop(columns=by)], axis=1)


def _importance(ctx: ExplainContext, params: dict, rng: np.random.Generator,
                groups: dict[int, np.ndarray], X: np.ndarray, y: np.ndarray) -> pd.DataFrame:
    """Per-repetition cs-PFI (Algorithm 1, eq. 5 summed over subgroups) of every feature of
    ``groups`` (its subgroup of each row of X) on the rows X, over ``n_repeats`` (default 50)."""
    return subgroup_pfi(ctx.predict, X, y, groups, n_repeats=params["n_repeats"],
                        rng=rng, max_rows=ctx.max_rows, **loss_options(params))


def _split_names(ctx: ExplainContext, tree: SubgroupTree) -> str:
    return ", ".join(ctx.feature_names[m] for m in tree.split_features())


@method("conditional_subgroups.cs_pfi_quantiles", kind="importance", params={**COMMON, **REPEATS})
def _cs_pfi_quantiles(ctx: ExplainContext, params: dict,
                      rng: np.random.Generator) -> pd.DataFrame:
    """cs-PFI (marginal PFI at ``max_depth: 0``) of each feature: median and quantiles over
    ``n_repeats`` permutations, with the features its subgroups split on (``split_on``)."""
    X, y = ctx.data(params)
    trees = {j: _tree(ctx, params, j) for j in ctx.features(params)}
    groups = {j: tree.leaves(X) for j, tree in trees.items()}
    out = _spread(_importance(ctx, params, rng, groups, X, y), ["feature"], params)
    out["split_on"] = [_split_names(ctx, trees[j]) for j in out["feature"]]
    out["n_groups"] = [len(trees[j].splits) + 1 for j in out["feature"]]
    return named(ctx, out)


@method("conditional_subgroups.cs_pfi_local_rules", kind="metric", params={**COMMON, **REPEATS})
def _cs_pfi_local_rules(ctx: ExplainContext, params: dict,
                        rng: np.random.Generator) -> pd.DataFrame:
    """Local cs-PFI (eq. 5) of each feature in each subgroup: x_j permuted among the
    subgroup's rows; median and quantiles over ``n_repeats``, with the subgroup's ``rule``,
    its ``conditions`` (JSON) and row count ``n``."""
    X, y = ctx.data(params)
    frames = []
    for j in ctx.features(params):
        tree = _tree(ctx, params, j)
        leaves = tree.leaves(X)
        for g in np.unique(leaves):
            rows = leaves == g
            part = _importance(ctx, params, rng, {j: leaves[rows]}, X[rows], y[rows])
            part = _spread(part, ["feature"], params)
            frames.append(part.assign(
                feature=ctx.feature_names[j], group=int(g), n=int(rows.sum()),
                rule=_rule(ctx, tree, int(g)),
                conditions=_conditions_json(ctx, tree.conditions(int(g))),
            ))
    return pd.concat(frames, ignore_index=True)


@method("conditional_subgroups.cs_pdp_rules", kind="effect",
        params={**COMMON, **DATA, "grid": table(GRID_FIELDS, {"size": 30})})
def _cs_pdp_rules(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """cs-PDPs (Sect. 4.3) with subgroup rules; the PDP itself at ``max_depth: 0``.

    Per feature and subgroup (``group``, ``n`` rows, ``rule`` and its ``conditions`` as JSON),
    in long format by ``kind``: ``pdp``, the subgroup's PDP on a grid over its own range of x_j
    (numeric; ``grid``, default 30 equidistant points) or at the levels it holds
    (categorical); ``ice``, every row's prediction at each grid value or level (the PDP is
    their mean; the paper draws their boxplots for a categorical feature; the claims take
    standard errors over the rows from them); ``row``, each row's own x_j and prediction (the
    subgroup's distribution of x_j, for the boxplot-style drawing, and the mean prediction).
    """
    X, _ = ctx.data(params)
    cats = categorical(ctx, params)
    fitted = ctx.predict(X)
    frames = []
    for j in ctx.features(params):
        tree = _tree(ctx, params, j)
        leaves = tree.leaves(X)
        name = ctx.feature_names[j]
        for g in np.unique(leaves):
            rows = np.flatnonzero(leaves == g)
            R = X[rows]
            label = {"feature": name, "group": int(g), "n": len(rows),
                     "rule": _rule(ctx, tree, int(g)),
                     "conditions": _conditions_json(ctx, tree.conditions(int(g)))}
            grid = (np.unique(R[:, j]) if j in cats
                    else make_grid(R[:, j], params["grid"], name))
            curves = ice(ctx.predict, R, j, grid, max_rows=ctx.max_rows)
            parts = [
                pd.DataFrame({**label, "kind": "row", "row": rows, "x": R[:, j],
                              "value": fitted[rows]}),
                pd.DataFrame({**label, "kind": "ice", "row": np.repeat(rows, len(grid)),
                              "x": np.tile(grid, len(rows)), "value": curves.ravel()}),
                pd.DataFrame({**label, "kind": "pdp", "row": -1, "x": grid,
                              "value": curves.mean(axis=0)}),
            ]
            frames.extend(parts)
    return pd.concat(frames, ignore_index=True)


@method("conditional_subgroups.subgroup_splits", kind="metric",
        params={**COMMON, "n_boot": integer(0, minimum=0),
                "rows": choice("train", ("train", "all")),
                "resample": choice("bootstrap", ("bootstrap", "split"))})
def _subgroup_splits(ctx: ExplainContext, params: dict,
                     rng: np.random.Generator) -> pd.DataFrame:
    """The splits of each feature's subgroup tree on the training rows (``rows: all``: the
    training and test rows together) (``boot = -1``) and on ``n_boot`` resamples of them
    (``boot = 0..``): ``bootstrap`` resamples (the sampling uncertainty of the split
    features and split points), or ``split``: random subsets of the training rows' size
    drawn without replacement (with ``rows: all``, fresh random training splits: how often
    the tree of one split has a structure). The trees describe the features' dependence, not
    a model, so with ``all`` their structure does not depend on the random training split.
    One row per split: node, depth, split feature, threshold (numeric) or left levels
    (categorical), node size, statistic; a tree without splits has no rows (``n_boot`` gives
    the count of resampled trees)."""
    n_boot = params["n_boot"]
    names = _levels(ctx)
    X = ctx.X
    if params["rows"] == "all" and ctx.X_test is not None and len(ctx.X_test):
        X = np.vstack([ctx.X, ctx.X_test])

    def resample() -> np.ndarray:
        if params["resample"] == "split":
            return X[rng.choice(len(X), size=len(ctx.X), replace=False)]
        return X[rng.integers(len(X), size=len(X))]

    rows = []
    for j in ctx.features(params):
        samples = [X] + [resample() for _ in range(n_boot)]
        for b, Xb in enumerate(samples, start=-1):
            tree = _tree(ctx, params, j, X=Xb)
            for node, s in sorted(tree.splits.items()):
                split_name = ctx.feature_names[s.feature]
                levels = ("" if s.left_levels is None else ", ".join(
                    names.get(split_name, {}).get(int(v), f"{v:g}")
                    for v in sorted(s.left_levels)))
                rows.append({"feature": ctx.feature_names[j], "boot": b, "n_boot": n_boot,
                             "node": node, "depth": node_depth(node),
                             "split_feature": split_name, "threshold": s.threshold,
                             "left_levels": levels, "n": s.n, "value": s.statistic})
    cols = ["feature", "boot", "n_boot", "node", "depth", "split_feature", "threshold",
            "left_levels", "n", "value"]
    return pd.DataFrame(rows, columns=cols)


@method("conditional_subgroups.feature_predictability", kind="metric", params={
    **FEATURES, **CATEGORICAL, "n_splits": integer(5, minimum=1),
    "n_estimators": integer(100, minimum=1),
})
def _feature_predictability(ctx: ExplainContext, params: dict,
                            rng: np.random.Generator) -> pd.DataFrame:
    """Table 6: the share of loss explained when a forest predicts each feature from the
    others (R^2, or 1 - MMCE ratio for categorical ones), two-fold cross-fitted on the
    training rows (:func:`.predictability.feature_predictability`), repeated over ``n_splits``
    random fold splits: mean (``value``) and SD (``sd``) over the splits."""
    from imlbench.studies.conditional_subgroups.predictability import feature_predictability

    cats = categorical(ctx, params)
    n_splits, trees = params["n_splits"], params["n_estimators"]
    rows = []
    for j in ctx.features(params):
        scores = [feature_predictability(ctx.X, j, rng, categorical=cats, n_estimators=trees)
                  for _ in range(n_splits)]
        rows.append({"feature": ctx.feature_names[j], "value": float(np.mean(scores)),
                     "sd": float(np.std(scores, ddof=1)) if n_splits > 1 else np.nan,
                     "n_splits": n_splits})
    return pd.DataFrame(rows)
