"""The generic feature-effect methods by name, as study files use them: PD and ICE (brute
force or walking the trees), the 2-D surface, first- and second-order ALE, the M-plot,
StratPD, the cs-PDP and the marginal plot of the data.

Each adapter turns a study file's parameters (declared with type, default and allowed values;
see :mod:`imlbench.explain.api`) into a call of the numerical function that implements the
method, and returns a tidy table. Where a method's estimates are compared with a truth, its
registration declares the estimand (``estimand=``).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from imlbench.explain.ale import (
    ale_categorical,
    ale_edges,
    ale_first_order,
    ale_second_order,
    similarity_order,
    trim_curve,
)
from imlbench.explain.api import (
    CATEGORICAL,
    CENTERING,
    DATA,
    FEATURES,
    GRID,
    INTERVALS,
    SUBGROUPS,
    ExplainContext,
    categorical,
    curves_frame,
    draw_indices,
    fitted_sampler,
    method,
)
from imlbench.explain.effects import (
    centered_ice,
    derivative_ice,
    ice,
    marginal_plot,
    partial_dependence,
)
from imlbench.explain.grids import DATA_KINDS, GRID_FIELDS, Law, make_grid
from imlbench.explain.strategies import STRATEGY
from imlbench.explain.stratpd import (
    ANCHORS,
    GAPS,
    REFERENCES,
    average_trials,
    catstratpd_trials,
    group_means,
    stratpd_trials,
)
from imlbench.explain.tree_pd import TreeEnsemble, split_grid, tree_ice, tree_pd, tree_pd_path
from imlbench.params import choice, feature_name, integer, items, table

#: two features (second-order effects and surfaces)
TWO_FEATURES = {"features": items(feature_name(), length=2)}

TREE_LEARNERS = "rf, bagging, tree, cart, forest, gbm"


def _tree_model(ctx: ExplainContext, key: str, allowed: str) -> TreeEnsemble:
    """The fitted model's trees, or an error naming the parameter that needs them."""
    ensemble = ctx.trees
    if ensemble is None:
        raise ValueError(f"{key} needs a tree model (learners {TREE_LEARNERS}), not "
                         f"{type(ctx.model).__name__}; allowed for it: {allowed}")
    return ensemble


def _law(ctx: ExplainContext, j: int) -> Law:
    """The quantile function of the law of feature ``j`` (a column of the data), the DGP's
    :meth:`~imlbench.dgp.base.DGP.marginal_quantiles` at its own index of the feature (which
    hidden features shift); the DGP is read only when the function is called. Real data
    (a DGP without ``has_truth``) have no law."""

    def quantiles(probs: np.ndarray) -> np.ndarray:
        name = ctx.feature_names[j]
        if not ctx.dgp.has_truth:
            raise ValueError(f"kind law_quantile needs the law of feature {name!r}, and DGP "
                             f"{type(ctx.dgp).__name__} is real data with no law; allowed: "
                             f"{', '.join(DATA_KINDS)}")
        if name not in ctx.dgp.feature_names:
            raise ValueError(f"feature {name!r} is no feature of the DGP's law; allowed: "
                             f"{', '.join(ctx.dgp.feature_names)}")
        return ctx.dgp.marginal_quantiles(ctx.dgp.feature_names.index(name), probs)

    return quantiles


def _effect_grid(ctx: ExplainContext, params: dict, j: int) -> np.ndarray:
    spec = params["grid"]
    splits = None
    if spec.get("kind") == "splits":  # the model's own pieces, within ``range`` or up to max x
        ensemble = _tree_model(ctx, "grid.kind: splits", ", ".join(DATA_KINDS))
        splits = split_grid(ensemble, j, *spec.get("range", (None, float(ctx.X[:, j].max()))))
    return make_grid(ctx.X[:, j], spec, ctx.feature_names[j], splits=splits, law=_law(ctx, j))


#: how PD and ICE are computed: ``brute`` predicts the stacked rows, ``tree`` walks the
#: trees once per row (:mod:`imlbench.explain.tree_pd`), ``auto`` walks where that equals
#: ``predict`` to float64 rounding (scikit-learn trees) and brute force would predict at least
#: :data:`AUTO_MIN_ROWS` rows, takes the PD of a model that computes its own exactly from its
#: structure (a ``partial_dependence(X, j, grid)`` method: the GAM's terms,
#: :mod:`imlbench.learners.gam`), and predicts otherwise; ``path`` is the path-dependent PD, a
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


def _tree_needs(p: dict) -> set[str]:
    """The learner must be a tree ensemble (one :func:`imlbench.explain.tree_pd.tree_model`
    reads) for a tree algorithm or a grid at its splits, so that the check refuses any other
    learner before a job runs."""
    trees = p["algorithm"] in ("tree", "path") or p["grid"].get("kind") == "splits"
    return {"tree_ensemble"} if trees else set()


# compared with the PD whatever the algorithm, ``path`` too (whose estimand differs)
@method("pdp", kind="effect", estimand="pd", needs=_tree_needs, params={
    **FEATURES, "grid": GRID, **STRATEGY, "algorithm": choice("auto", ALGORITHMS),
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
        elif params["algorithm"] == "auto" and callable(getattr(ctx.model, "partial_dependence",
                                                                None)):
            pd_ = ctx.model.partial_dependence(X, j, grid)
        else:
            pd_ = partial_dependence(ctx.predict, X, j, grid, max_rows=ctx.max_rows)
        frames.append(pd.DataFrame({"feature": ctx.feature_names[j], "x": grid, "value": pd_}))
    return pd.concat(frames, ignore_index=True)


ICE_ROWS = {"reference": 11, "data": 20}


def _ice_estimand(p: Mapping) -> str | None:
    """Plain ICE: of the reference rows, their true curves; of data rows, the mean is a PD."""
    if p["curve"] != "plain":
        return None
    return "ice" if p["rows"] == "reference" else "pd"


@method("ice", kind="effect", estimand=_ice_estimand,
        needs=lambda p: _tree_needs(p) | ({"reference_rows"} if p["rows"] == "reference"
                                          else set()),
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
        frames.append(curves_frame(ctx.feature_names[j], grid, curves))
    return pd.concat(frames, ignore_index=True)


@method("surface", kind="surface", params={**TWO_FEATURES, "grid": GRID,
                            "grids": items(table(GRID_FIELDS), default=None, length=2,
                                           nullable=True)})
def _surface(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """2-D partial dependence on a product grid (the fitted surface when p = 2): ``grid``
    for both features, or ``grids``, one spec per feature in the order of ``features`` (e.g.
    equidistant points of a numeric feature against the levels of a categorical one)."""
    j, k = ctx.features(params)
    specs = params["grids"] or [params["grid"], params["grid"]]
    gj, gk = (_effect_grid(ctx, {**params, "grid": spec}, col)
              for spec, col in zip(specs, (j, k), strict=True))
    G = np.array([(a, b) for a in gj for b in gk])
    value = partial_dependence(ctx.predict, ctx.X, [j, k], G, max_rows=ctx.max_rows)
    return pd.DataFrame({"x": G[:, 0], "z": G[:, 1], "value": value})


@method("ale", kind="effect", estimand="ale", params={
    **FEATURES, "intervals": INTERVALS, "centering": CENTERING,
    "order": choice("similarity", ("similarity", "codes")), **CATEGORICAL, **STRATEGY,
})
def _ale(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """First-order ALE (Apley & Zhu) at the interval edges (numeric; ``intervals.trim`` edges
    left out at each end of the curve computed on all of them) or at the levels (categorical,
    levels ordered by ``order``)."""
    X, _ = ctx.data(params)
    cats = categorical(ctx, params)
    frames = []
    for j in ctx.features(params):
        if j in cats:
            order = (similarity_order(X, j, cats) if params["order"] == "similarity"
                     else np.unique(X[:, j]))
            x, value = order, ale_categorical(ctx.predict, X, j, order, max_rows=ctx.max_rows)[0]
        else:
            edges = ale_edges(X[:, j], params["intervals"], law=_law(ctx, j))
            value = ale_first_order(ctx.predict, X, j, edges, max_rows=ctx.max_rows,
                                    centering=params["centering"])[0]
            x, value = trim_curve(edges, value, params["intervals"])
        frames.append(pd.DataFrame({"feature": ctx.feature_names[j], "x": x, "value": value}))
    return pd.concat(frames, ignore_index=True)


@method("ale2", kind="surface", params={**TWO_FEATURES, "intervals": INTERVALS, **DATA})
def _ale2(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Pure second-order ALE of two numeric features on the product of their edges."""
    X, _ = ctx.data(params)
    j, k = ctx.features(params)
    ej, ek = ale_edges(X[:, j], params["intervals"]), ale_edges(X[:, k], params["intervals"])
    value = ale_second_order(ctx.predict, X, j, k, ej, ek, max_rows=ctx.max_rows)
    return pd.DataFrame({"x": np.repeat(ej, len(ek)), "z": np.tile(ek, len(ej)),
                         "value": value.ravel()})


@method("mplot", kind="effect", estimand="conditional",
        params={**FEATURES, "intervals": INTERVALS, **DATA})
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


# its idealised PD is the ALE (Parr & Wilson eq. 1)
@method("stratpd", kind="effect", estimand="ale", params={
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
