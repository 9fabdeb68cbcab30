"""The generic explanation methods by name, as study files use them.

Each adapter turns a study file's parameters (declared here with type, default and allowed
values; see :mod:`imlbench.explain.api`) into a call of the numerical function that
implements the method, and returns a tidy table. The numerical work lives in the modules
this one calls; the estimand of each method is stated in its adapter's docstring and in the
README's method tables.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from imlbench.explain.ale import (
    ale_categorical,
    ale_edges,
    ale_first_order,
    ale_second_order,
    similarity_order,
)
from imlbench.explain.api import (
    CATEGORICAL,
    CENTERING,
    DATA,
    FEATURES,
    GRID,
    INTERVALS,
    METHODS,
    PFI_OPTIONS,
    SAMPLER,
    SUBGROUPS,
    ExplainContext,
    aggregate,
    categorical,
    draw_indices,
    fitted_sampler,
    loss_options,
    method,
    named,
    over_repeats,
)
from imlbench.explain.cvirf import conditional_oob_importance
from imlbench.explain.effects import (
    centered_ice,
    derivative_ice,
    ice,
    marginal_plot,
    partial_dependence,
)
from imlbench.explain.grids import DATA_KINDS, GRID_FIELDS, make_grid
from imlbench.explain.ici import individual_importance
from imlbench.explain.importance import (
    LOSSES,
    conditional_importance,
    loss_named,
    permutation_importance,
    replacement_importance,
)
from imlbench.explain.learner_level import SCHEMES, learner_pd_pfi, nadeau_bengio_c, resample_splits
from imlbench.explain.lime import DISTANCES, SAMPLINGS, SELECTIONS, lime_coefficients
from imlbench.explain.oob import oob_permutation_importance, oob_predictions
from imlbench.explain.relearn import relearn_importance
from imlbench.explain.shapley import ESTIMATORS, shapley_exact, shapley_permutation, shapley_tree
from imlbench.explain.stratpd import (
    ANCHORS,
    GAPS,
    REFERENCES,
    average_trials,
    catstratpd_trials,
    group_means,
    stratpd_trials,
)
from imlbench.explain.timing import time_by_size
from imlbench.explain.tree_pd import (
    TreeEnsemble,
    split_grid,
    tree_ice,
    tree_pd,
    tree_pd_path,
)
from imlbench.params import (
    choice,
    feature_name,
    flag,
    integer,
    items,
    number,
    registered,
    table,
)

N_REPEATS = {"n_repeats": integer(1, minimum=1)}
#: two features (second-order effects and surfaces)
TWO_FEATURES = {"features": items(feature_name(), length=2)}


@method("pfi", kind="importance", params={
    **FEATURES, **N_REPEATS, **DATA, **PFI_OPTIONS,
    "groups": table(value=items(feature_name()), default={}),
})
def _pfi(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Permutation importance E L(y, f(X~_j, X_-j)) - E L(y, f(X)) (Breiman; Fisher et al.) of
    each feature, or of each group in ``groups`` ({name: [features]}, the group's columns
    permuted together), over the repeats."""
    X, y = ctx.data(params)
    groups = {name: tuple(ctx.index(f) for f in members)
              for name, members in params["groups"].items()}
    df = permutation_importance(
        ctx.predict, X, y, features=list(groups.values()) or ctx.features(params),
        n_repeats=params["n_repeats"], rng=rng, max_rows=ctx.max_rows, **loss_options(params),
    )
    if not groups:
        return over_repeats(ctx, df, params)
    label = {cols: name for name, cols in groups.items()}
    df["feature"] = [label[c] for c in df["feature"]]
    return aggregate(df, params)


@method("cpfi", kind="importance", requires={"conditional"},
        params={**FEATURES, **N_REPEATS, **DATA, **PFI_OPTIONS})
def _cpfi(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Conditional PFI with x_j drawn from the DGP's exact conditional law given x_-j."""
    X, y = ctx.data(params)
    df = conditional_importance(
        ctx.predict, X, y, ctx.dgp.sample_conditional, features=ctx.features(params),
        n_repeats=params["n_repeats"], rng=rng, max_rows=ctx.max_rows, **loss_options(params),
    )
    return over_repeats(ctx, df, params)


@method("oob_pfi", kind="importance", requires={"oob"},
        params={**FEATURES, "scale": flag(True)})
def _oob(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """The forest's out-of-bag permutation importance, as randomForest's importance(type = 1);
    ``scale``: divided by its standard error over the trees (R's default)."""
    df = oob_permutation_importance(ctx.model, ctx.X, ctx.y, features=ctx.features(params),
                                    rng=rng, scale=params["scale"])
    return named(ctx, df)


@method("cvirf", kind="importance", requires={"oob", "trees"},
        params={**FEATURES, "threshold": number(0.95, minimum=0, maximum=1)})
def _cvirf(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """The forest's conditional permutation importance on its out-of-bag training rows (Strobl
    et al. 2008, as permimp computes it; :mod:`imlbench.explain.cvirf`), conditioning on the
    features whose association with x_j has 1 - p > ``threshold``."""
    df = conditional_oob_importance(ctx.model, ctx.X, ctx.y, features=ctx.features(params),
                                    threshold=params["threshold"], rng=rng)
    return named(ctx, df)


def _relearn(scheme: str):
    def run(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
        """The training-loss increase of the learner refitted without x_j (drop), with x_j
        permuted (permute) or drawn from its conditional law (conditional)."""
        sampler = ctx.dgp.sample_conditional if scheme == "conditional" else None
        df = relearn_importance(ctx.fit, ctx.predict, ctx.X, ctx.y, scheme=scheme,
                                features=ctx.features(params), rng=rng, sampler=sampler)
        return named(ctx, df)

    return run


method("loco", kind="importance", params=FEATURES)(_relearn("drop"))
method("permute_relearn", kind="importance", params=FEATURES)(_relearn("permute"))
method("condition_relearn", kind="importance", requires={"conditional"}, params=FEATURES)(
    _relearn("conditional"))


def _curves_frame(feature: str, x: np.ndarray, curves: np.ndarray) -> pd.DataFrame:
    """One curve per row (rows x len(x) values) in long format: feature, row, x, value."""
    return pd.DataFrame({
        "feature": feature,
        "row": np.repeat(np.arange(len(curves)), len(x)),
        "x": np.tile(x, len(curves)),
        "value": curves.ravel(),
    })


TREE_LEARNERS = "rf, bagging, tree, cart, forest, gbm"


def _tree_model(ctx: ExplainContext, key: str, allowed: str) -> TreeEnsemble:
    """The fitted model's trees, or an error naming the parameter that needs them."""
    ensemble = ctx.trees
    if ensemble is None:
        raise ValueError(f"{key} needs a tree model (learners {TREE_LEARNERS}), not "
                         f"{type(ctx.model).__name__}; allowed for it: {allowed}")
    return ensemble


def _effect_grid(ctx: ExplainContext, params: dict, j: int) -> np.ndarray:
    spec = params["grid"]
    splits = None
    if spec.get("kind") == "splits":  # the model's own pieces, within ``range`` or up to max x
        ensemble = _tree_model(ctx, "grid.kind: splits", ", ".join(DATA_KINDS))
        splits = split_grid(ensemble, j, *spec.get("range", (None, float(ctx.X[:, j].max()))))
    return make_grid(ctx.X[:, j], spec, ctx.feature_names[j], splits=splits)


#: how PD and ICE are computed: ``brute`` predicts the stacked rows, ``tree`` walks the
#: trees once per row (:mod:`imlbench.explain.tree_pd`), ``auto`` walks where that equals
#: ``predict`` to float64 rounding (scikit-learn trees) and brute force would predict at least
#: :data:`AUTO_MIN_ROWS` rows, and predicts otherwise; ``path`` is the path-dependent PD, a
#: different estimand
ALGORITHMS = ("auto", "brute", "tree", "path")
#: the walk's one-off start in a process (importing numba and loading its compiled kernel,
#: 0.5-0.7 s) is repaid once brute force would predict about this many rows (a forest of
#: 100-200 trees predicts 1-3 x 10^5 rows a second on one core)
AUTO_MIN_ROWS = 200_000


def _effect_trees(ctx: ExplainContext, algorithm: str, rows: int) -> TreeEnsemble | None:
    """The trees to walk for ``algorithm`` when brute force would predict ``rows`` stacked
    rows, or None to predict them."""
    if algorithm == "brute" or algorithm == "auto" and rows < AUTO_MIN_ROWS:
        return None
    if algorithm == "auto":
        ensemble = ctx.trees
        return ensemble if ensemble is not None and ensemble.matches_predict else None
    return _tree_model(ctx, f"algorithm: {algorithm}", "auto, brute")


@method("pdp", kind="effect", params={
    **FEATURES, "grid": GRID, **DATA, "algorithm": choice("auto", ALGORITHMS),
})
def _pdp(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Interventional partial dependence E over X_-j of f(z, X_-j), averaged over the rows
    (Friedman 2001); with ``algorithm: path`` the path-dependent PD of the trees instead
    (Friedman's weighted traversal, scikit-learn's ``method="recursion"``: no rows, the
    training covers)."""
    X, _ = ctx.data(params)
    frames = []
    for j in ctx.features(params):
        grid = _effect_grid(ctx, params, j)
        trees = _effect_trees(ctx, params["algorithm"], len(X) * len(grid))
        if params["algorithm"] == "path":
            pd_ = tree_pd_path(trees, j, grid)
        elif trees is not None:
            pd_ = tree_pd(trees, X, j, grid)
        else:
            pd_ = partial_dependence(ctx.predict, X, j, grid, max_rows=ctx.max_rows)
        frames.append(pd.DataFrame({"feature": ctx.feature_names[j], "x": grid, "value": pd_}))
    return pd.concat(frames, ignore_index=True)


ICE_ROWS = {"reference": 11, "data": 20}


@method("ice", kind="effect",
        needs=lambda p: {"reference_rows"} if p["rows"] == "reference" else set(),
        params={
            **FEATURES, "grid": GRID, "rows": choice("reference", tuple(ICE_ROWS)),
            "n_rows": integer(None, minimum=1, nullable=True),
            "curve": choice("plain", ("plain", "centered", "derivative")),
            "anchor": integer(0, minimum=0), "algorithm": choice("auto", ALGORITHMS[:-1]),
        })
def _ice(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """ICE f(z, x_i,-j) at the DGP's fixed reference rows (``rows: reference``, default 11) or
    at ``n_rows`` training rows (``rows: data``, default 20).

    ``curve``: ``plain`` (the predictions), ``centered`` (c-ICE: minus the value at grid
    index ``anchor``, default 0, the grid minimum) or ``derivative`` (d-ICE).
    ``algorithm``: as for ``pdp`` (``auto``, ``brute`` or ``tree``).
    """
    n_rows = params["n_rows"] or ICE_ROWS[params["rows"]]
    if params["rows"] == "reference":
        rows = ctx.dgp.reference_rows(n_rows, ctx.fixed_rng("ice_rows"))
    else:
        rows = ctx.X[np.sort(draw_indices(len(ctx.X), n_rows, rng))]
    frames = []
    for j in ctx.features(params):
        grid = _effect_grid(ctx, params, j)
        trees = _effect_trees(ctx, params["algorithm"], len(rows) * len(grid))
        curves = (ice(ctx.predict, rows, j, grid, max_rows=ctx.max_rows) if trees is None
                  else tree_ice(trees, rows, j, grid))
        if params["curve"] == "centered":
            curves = centered_ice(curves, params["anchor"])
        elif params["curve"] == "derivative":
            curves = derivative_ice(curves, grid)
        frames.append(_curves_frame(ctx.feature_names[j], grid, curves))
    return pd.concat(frames, ignore_index=True)


@method("surface", params={**TWO_FEATURES, "grid": GRID})
def _surface(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """2-D partial dependence on a product grid (the fitted surface when p = 2)."""
    j, k = ctx.features(params)
    gj, gk = _effect_grid(ctx, params, j), _effect_grid(ctx, params, k)
    G = np.array([(a, b) for a in gj for b in gk])
    value = partial_dependence(ctx.predict, ctx.X, [j, k], G, max_rows=ctx.max_rows)
    return pd.DataFrame({"x": G[:, 0], "z": G[:, 1], "value": value})


@method("ale", kind="effect", params={
    **FEATURES, "intervals": INTERVALS, "centering": CENTERING,
    "order": choice("similarity", ("similarity", "codes")), **CATEGORICAL, **DATA,
})
def _ale(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """First-order ALE (Apley & Zhu) at the interval edges (numeric) or at the levels
    (categorical, levels ordered by ``order``)."""
    X, _ = ctx.data(params)
    cats = categorical(ctx, params)
    frames = []
    for j in ctx.features(params):
        if j in cats:
            order = (similarity_order(X, j, cats) if params["order"] == "similarity"
                     else np.unique(X[:, j]))
            x, value = order, ale_categorical(ctx.predict, X, j, order, max_rows=ctx.max_rows)[0]
        else:
            x = ale_edges(X[:, j], params["intervals"])
            value = ale_first_order(ctx.predict, X, j, x, max_rows=ctx.max_rows,
                                    centering=params["centering"])[0]
        frames.append(pd.DataFrame({"feature": ctx.feature_names[j], "x": x, "value": value}))
    return pd.concat(frames, ignore_index=True)


@method("ale2", params={**TWO_FEATURES, "intervals": INTERVALS, **DATA})
def _ale2(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Pure second-order ALE of two numeric features on the product of their edges."""
    X, _ = ctx.data(params)
    j, k = ctx.features(params)
    ej, ek = ale_edges(X[:, j], params["intervals"]), ale_edges(X[:, k], params["intervals"])
    value = ale_second_order(ctx.predict, X, j, k, ej, ek, max_rows=ctx.max_rows)
    return pd.DataFrame({"x": np.repeat(ej, len(ek)), "z": np.tile(ek, len(ej)),
                         "value": value.ravel()})


@method("mplot", kind="effect", params={**FEATURES, "intervals": INTERVALS, **DATA})
def _mplot(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Mean prediction per interval of x_j: the estimated conditional expectation curve
    E[f(X) | x_j] (the M-plot)."""
    X, _ = ctx.data(params)
    frames = []
    for j in ctx.features(params):
        edges = ale_edges(X[:, j], params["intervals"])
        x, value, count = marginal_plot(ctx.predict, X, j, edges, max_rows=ctx.max_rows)
        frames.append(pd.DataFrame({"feature": ctx.feature_names[j], "x": x, "value": value,
                                    "count": count}))
    return pd.concat(frames, ignore_index=True)


@method("stratpd", kind="effect", params={
    **FEATURES, **CATEGORICAL,
    "min_samples_leaf": integer(10, minimum=1), "min_slopes_per_x": integer(5, minimum=1),
    "ntrials": integer(1, minimum=1), "gaps": choice("span", GAPS),
    "reference": choice("random", REFERENCES), "anchor": choice("random", ANCHORS),
    "max_passes": integer(3, minimum=1), "trials": choice("mean", ("mean", "each")),
})
def _stratpd(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """StratPD (numeric) or CatStratPD (categorical) from the training data, no model calls
    (Parr & Wilson, Algorithms 1 and 2). With ``ntrials`` > 1, ``trials: mean`` gives the
    average of the bootstrap trials per x, ``each`` every trial's curve (column ``row``: the
    trial; their mean per x is that average)."""
    cats = categorical(ctx, params)
    options = {"min_samples_leaf": params["min_samples_leaf"], "ntrials": params["ntrials"],
               "rng": rng}
    frames = []
    for j in ctx.features(params):
        if j in cats:
            curves = catstratpd_trials(ctx.X, ctx.y, j, reference=params["reference"],
                                       anchor=params["anchor"],
                                       max_passes=params["max_passes"], **options)
        else:
            curves = stratpd_trials(ctx.X, ctx.y, j, gaps=params["gaps"],
                                    min_slopes_per_x=params["min_slopes_per_x"], **options)
        name = ctx.feature_names[j]
        if params["trials"] == "mean":
            x, value = average_trials(curves)
            frames.append(pd.DataFrame({"feature": name, "x": x, "value": value}))
        else:
            frames += [pd.DataFrame({"feature": name, "row": t, "x": x, "value": v}).dropna()
                       for t, (x, v) in enumerate(curves)]
    return pd.concat(frames, ignore_index=True)


@method("shap", needs=lambda p: {"trees"} if p["estimator"].startswith("tree") else set(), params={
    **FEATURES, "estimator": choice("exact", ESTIMATORS),
    "n_background": integer(100, minimum=1), "n_rows": integer(100, minimum=1),
    "n_permutations": integer(10, minimum=1), **DATA,
})
def _shap(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Interventional Shapley values of ``n_rows`` rows against ``n_background`` rows (or, with
    ``estimator: tree_path``, the path-dependent values of a tree ensemble, no background),
    long format (one row per explained row and feature, with the feature's value: plotted,
    the SHAP dependence curve)."""
    X, _ = ctx.data(params)
    rows = X[np.sort(draw_indices(len(X), params["n_rows"], rng))]
    background = X[draw_indices(len(X), params["n_background"], rng)]
    if params["estimator"] == "exact":
        phi = shapley_exact(ctx.predict, rows, background, max_rows=ctx.max_rows)
    elif params["estimator"] == "permutation":
        phi = shapley_permutation(ctx.predict, rows, background, params["n_permutations"], rng,
                                  max_rows=ctx.max_rows)
    else:
        phi = shapley_tree(ctx.model, rows,
                           background if params["estimator"] == "tree" else None)
    S = ctx.features(params)
    return pd.DataFrame({
        "feature": np.tile([ctx.feature_names[j] for j in S], len(rows)),
        "row": np.repeat(np.arange(len(rows)), len(S)),
        "x": rows[:, S].ravel(),
        "value": phi[:, S].ravel(),
    })


LIME_OPTIONS = {
    "n_samples": integer(5000, minimum=1), "sampling": choice("local", SAMPLINGS),
    "local_sd": number(0.1, minimum=0), "distance": choice("euclidean", DISTANCES),
    "kernel_width": number(None, minimum=0, nullable=True),
    "n_features": integer(None, minimum=1, nullable=True),
    "selection": choice("auto", SELECTIONS), "ridge": number(0.001, minimum=0),
}


@method("lime", params={"n_rows": integer(10, minimum=1), **LIME_OPTIONS, **CATEGORICAL, **DATA})
def _lime(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """LIME coefficients of ``n_rows`` rows drawn from the data (one row per row and feature)."""
    X, _ = ctx.data(params)
    rows = X[np.sort(draw_indices(len(X), params["n_rows"], rng))]
    coef = lime_coefficients(ctx.predict, X, rows, rng, categorical=categorical(ctx, params),
                             max_rows=ctx.max_rows, **{k: params[k] for k in LIME_OPTIONS})
    p = X.shape[1]
    return pd.DataFrame({
        "row": np.repeat(np.arange(len(rows)), p),
        "feature": np.tile(ctx.feature_names, len(rows)),
        "value": coef.ravel(),
    })


def _sampler_pfi(ctx: ExplainContext, params: dict, rng: np.random.Generator,
                 local: bool) -> pd.DataFrame:
    X, y = ctx.data(params)
    opts = {"n_repeats": params["n_repeats"], "rng": rng, "max_rows": ctx.max_rows,
            **loss_options(params)}
    frames = []
    for j in ctx.features(params):
        fs = fitted_sampler(ctx, params, j, rng)

        def draw(X_, _j, r, fs=fs):
            return fs.draw(X_, r)

        if not local:
            frames.append(replacement_importance(ctx.predict, X, y, draw, features=[j], **opts))
            continue
        groups = fs.groups(X)
        for g in np.unique(groups):
            rows = groups == g
            part = replacement_importance(ctx.predict, X[rows], y[rows], draw, features=[j],
                                          **opts)
            frames.append(part.assign(group=int(g), n=int(rows.sum())))
    by = ["feature", "group", "n"] if local else ["feature"]
    return over_repeats(ctx, pd.concat(frames, ignore_index=True), params, by)


@method("conditional_pfi", kind="importance",
        params={**FEATURES, **SAMPLER, **N_REPEATS, **DATA, **CATEGORICAL, **PFI_OPTIONS})
def _conditional_pfi(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """PFI with x_j replaced by the draws of the fitted ``sampler`` (Molnar et al., conditional
    subgroups, eq. 2; cs-PFI with ``sampler: subgroups``, Algorithm 1; marginal PFI with
    ``permutation``), one value per feature over the repeats. The sampler must be named: it
    decides the estimand."""
    return _sampler_pfi(ctx, params, rng, local=False)


@method("cs_pfi_local", params={**FEATURES, **SUBGROUPS, **N_REPEATS, **DATA, **PFI_OPTIONS})
def _cs_pfi_local(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """The local cs-PFI of each subgroup (Molnar et al., eq. 5): x_j permuted within the
    subgroup's rows; one row per feature and subgroup (``group``, its row count ``n``). Their
    count-weighted mean estimates the global cs-PFI (Appendix A)."""
    return _sampler_pfi(ctx, {**params, "sampler": "subgroups"}, rng, local=True)


@method("ici", params={**FEATURES, "n_values": integer(100, minimum=1),
                       "loss": choice("squared", tuple(LOSSES)), **DATA})
def _ici(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """ICI curves (book ch. 10, eq. 8): the loss change of every row when x_j takes each of
    ``n_values`` values drawn from the rows; PI, d-ICI and the stump derive from them."""
    X, y = ctx.data(params)
    loss = loss_named(params["loss"])
    frames = []
    for j in ctx.features(params):
        values = X[np.sort(draw_indices(len(X), params["n_values"], rng)), j]
        mat = individual_importance(ctx.predict, X, y, j, values, loss, max_rows=ctx.max_rows)
        frames.append(_curves_frame(ctx.feature_names[j], values, mat))
    return pd.concat(frames, ignore_index=True)


@method("cs_pdp", kind="effect", params={**FEATURES, **SUBGROUPS, "grid": GRID, **DATA})
def _cs_pdp(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """cs-PDP (Molnar et al., Sect. 4.3): the PDP of x_j within each subgroup of the
    conditional-subgroups tree, on the grid restricted to the subgroup's range of x_j."""
    X, _ = ctx.data(params)
    frames = []
    for j in ctx.features(params):
        fs = fitted_sampler(ctx, {**params, "sampler": "subgroups"}, j, rng)
        groups = fs.groups(X)
        for g in np.unique(groups):
            rows = X[groups == g]
            grid = make_grid(rows[:, j], params["grid"], ctx.feature_names[j])
            value = partial_dependence(ctx.predict, rows, j, grid, max_rows=ctx.max_rows)
            frames.append(pd.DataFrame({"feature": ctx.feature_names[j], "group": int(g),
                                        "n": len(rows), "x": grid, "value": value}))
    return pd.concat(frames, ignore_index=True)


@method("learner_pd_pfi", params={
    **FEATURES,
    "grid": table(GRID_FIELDS, {"kind": "values", "values": [0.1, 0.3, 0.5, 0.7, 0.9]}),
    "m": integer(15, minimum=2), "scheme": choice("subsampling", SCHEMES),
    "n_permutations": integer(5, minimum=1), "alpha": number(0.05, minimum=0, maximum=1),
})
def _learner_pd_pfi(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Learner-level PD and PFI over ``m`` refits on resampled rows, with naive (c = 0) and
    Nadeau-Bengio-corrected t intervals (Molnar et al., Sect. 7)."""
    S = ctx.features(params)
    grid = make_grid(ctx.X[:, S[0]], params["grid"], ctx.feature_names[S[0]])
    splits = resample_splits(len(ctx.X), params["m"], params["scheme"], rng)
    pd_est, pfi_est = learner_pd_pfi(
        ctx.fit, ctx.X, ctx.y, splits, features=S, grid=grid,
        n_permutations=params["n_permutations"], rng=rng, max_rows=ctx.max_rows,
    )
    alpha = params["alpha"]
    frames = []
    for quantity, est, x in (("pd", pd_est, np.tile(grid, (len(S), 1))),
                             ("pfi", pfi_est, np.full(len(S), np.nan))):
        naive = est.interval(0.0, alpha)
        corrected = est.interval(nadeau_bengio_c(params["scheme"]), alpha)
        frames.append(pd.DataFrame({
            "quantity": quantity,
            "feature": np.repeat([ctx.feature_names[j] for j in S], x.size // len(S)),
            "x": x.ravel(), "value": est.mean.ravel(),
            "lower_naive": naive[0].ravel(), "upper_naive": naive[1].ravel(),
            "lower_corrected": corrected[0].ravel(), "upper_corrected": corrected[1].ravel(),
        }))
    return pd.concat(frames, ignore_index=True)


def _r2(y: np.ndarray, pred: np.ndarray) -> float:
    ok = ~np.isnan(pred)
    y, pred = y[ok], pred[ok]
    return float(1 - ((y - pred) ** 2).sum() / ((y - y.mean()) ** 2).sum())


@method("model_fit", kind="metric")
def _model_fit(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """How well the fitted model predicts: R^2 = 1 - SSE / SST on the training rows
    (``r2_train``), on the test rows when the scenario has them (``r2_test``), and for a
    bagged forest on the out-of-bag predictions (``r2_oob``, the rows some tree left out).
    Columns metric, value."""
    out = {"r2_train": _r2(ctx.y, ctx.predict(ctx.X))}
    if ctx.X_test is not None and len(ctx.X_test):
        out["r2_test"] = _r2(ctx.y_test, ctx.predict(ctx.X_test))
    if getattr(ctx.model, "estimators_samples_", None) is not None:
        out["r2_oob"] = _r2(ctx.y, oob_predictions(ctx.model, ctx.X))
    return pd.DataFrame({"metric": list(out), "value": list(out.values())})


@method("marginal_y", kind="effect", params={**FEATURES, **DATA})
def _marginal_y(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """The marginal plot of the data: mean y per unique value of x_j (no model; it mixes in
    the effects of the features that x_j is correlated with). Columns feature, x, value,
    count."""
    X, y = ctx.data(params)
    frames = []
    for j in ctx.features(params):
        ux, means, counts = group_means(X[:, j], y)
        frames.append(pd.DataFrame({"feature": ctx.feature_names[j], "x": ux, "value": means,
                                    "count": counts}))
    return pd.concat(frames, ignore_index=True)


def _timed_params(p: dict) -> dict:
    return METHODS.get(p["timed"]).params if p.get("timed") in METHODS else {}


@method("timing", params={
    **FEATURES, "timed": registered(METHODS), "timed_params": table(_timed_params, {}),
    "sizes": items(integer(minimum=2)), "times": integer(3, minimum=1),
})
def _timing(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Seconds per call of method ``timed`` (with ``timed_params``) explaining one feature on the
    first n of a random order of the training rows, for every n of ``sizes``, ``times`` times
    (:func:`imlbench.explain.timing.time_by_size`). Columns feature, n, repeat, seconds, and
    levels: the feature's distinct values among the n rows."""
    timed = METHODS.get(params["timed"])
    inner = dict(params["timed_params"])
    call_rng = np.random.default_rng(rng.integers(2**63))

    def run(rows: np.ndarray, j: int) -> object:
        sub = dataclasses.replace(ctx, X=ctx.X[rows], y=ctx.y[rows], samplers={})
        return timed(sub, {**inner, "features": [ctx.feature_names[j]]}, call_rng)

    return named(ctx, time_by_size(run, ctx.X, ctx.features(params), params["sizes"],
                                   params["times"], rng))
