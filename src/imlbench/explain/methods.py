"""Explanation methods by name, as the study files and the explain stage use them.

Each registered method is a function ``(ctx, params, rng) -> tidy DataFrame``: the
context carries the fitted model's ``predict`` and the data; methods that need
more (a refit, the DGP's conditional sampler, the forest's trees) declare it in
``requires`` so the config validator can reject impossible combinations before any
job runs. The numerical work lives in the modules this one calls.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from imlbench.dgp.base import DGP
from imlbench.explain.ale import (
    ale_categorical,
    ale_edges,
    ale_first_order,
    ale_second_order,
    similarity_order,
)
from imlbench.explain.batching import DEFAULT_MAX_ROWS
from imlbench.explain.effects import (
    centered_ice,
    derivative_ice,
    ice,
    marginal_plot,
    partial_dependence,
)
from imlbench.explain.grids import make_grid
from imlbench.explain.ici import individual_importance
from imlbench.explain.importance import (
    conditional_importance,
    loss_named,
    permutation_importance,
    replacement_importance,
)
from imlbench.explain.learner_level import learner_pd_pfi, nadeau_bengio_c, resample_splits
from imlbench.explain.lime import lime_coefficients
from imlbench.explain.oob import oob_permutation_importance
from imlbench.explain.partitions import leaf_rectangles
from imlbench.explain.relearn import relearn_importance
from imlbench.explain.samplers import fit_sampler
from imlbench.explain.shapley import (
    ESTIMATORS,
    shapley_exact,
    shapley_permutation,
    shapley_tree,
)
from imlbench.explain.stratpd import catstratpd, stratpd
from imlbench.registry import Registry, import_modules


@dataclass
class ExplainContext:
    """What a method may use for one repetition of one (scenario, learner)."""

    model: Any
    X: np.ndarray
    y: np.ndarray
    feature_names: list[str]
    dgp: DGP
    fit: Callable[[np.ndarray, np.ndarray], Callable[[np.ndarray], np.ndarray]]
    fixed_rng: Callable[[str], np.random.Generator]
    X_test: np.ndarray | None = None
    y_test: np.ndarray | None = None
    max_rows: int = DEFAULT_MAX_ROWS
    #: random stream of a sampler fit, by the sampler's key: the same for every learner of the
    #: repetition, so that a fitted sampler is shared through ``samplers``.
    sampler_rng: Callable[[str], np.random.Generator] | None = None
    #: fitted samplers of this repetition by key, shared by the learners (a cache).
    samplers: dict = field(default_factory=dict)

    def predict(self, X: np.ndarray) -> np.ndarray:
        return self.model.predict(X)

    def index(self, name: str) -> int:
        if name not in self.feature_names:
            raise ValueError(f"feature {name!r} is not in the data; allowed: "
                             f"{', '.join(self.feature_names)}")
        return self.feature_names.index(name)

    def features(self, params: dict) -> list[int]:
        """Indices of ``params['features']`` (names), or of every feature."""
        names = params.get("features") or self.feature_names
        return [self.index(f) for f in names]

    def data(self, params: dict) -> tuple[np.ndarray, np.ndarray]:
        """The rows a method is evaluated on: ``train`` (default) or ``test``."""
        if params.get("data", "train") == "test":
            if self.X_test is None or len(self.X_test) == 0:
                raise ValueError("this scenario has no test rows (set n_test)")
            return self.X_test, self.y_test
        return self.X, self.y


Method = Callable[[ExplainContext, dict, np.random.Generator], pd.DataFrame]


@dataclass(frozen=True)
class MethodSpec:
    run: Method
    #: needs of the method: learner capabilities ("oob", "trees") or DGP abilities
    #: ("conditional": a known conditional sampler, "noise_block").
    requires: frozenset[str] = field(default_factory=frozenset)
    #: parameter names the method accepts (validated before any job runs).
    params: frozenset[str] = field(default_factory=frozenset)
    #: "importance" (one value per feature, ranked by compare), "theory" (a model-level
    #: truth), "test" (a hypothesis test per repetition), "effect" or "other".
    kind: str = "other"


METHODS: Registry[MethodSpec] = Registry("method")


def method(
    name: str, *, requires: set[str] = frozenset(), params: set[str] = frozenset(),
    kind: str = "other",
):
    def decorator(fn: Method) -> Method:
        METHODS.register(name)(MethodSpec(fn, frozenset(requires), frozenset(params), kind))
        return fn

    return decorator


def _draw_indices(n: int, k: int, rng: np.random.Generator) -> np.ndarray:
    """min(k, n) distinct indices of range(n), in random order."""
    return rng.choice(n, size=min(k, n), replace=False)


def named(ctx: ExplainContext, df: pd.DataFrame) -> pd.DataFrame:
    df["feature"] = [ctx.feature_names[j] for j in df["feature"]]
    return df


PFI_OPTIONS = {"loss", "contrast", "aggregate"}
AGGREGATES = ("mean", "median")


def _aggregate(df: pd.DataFrame, params: dict, by: Sequence[str] = ("feature",)) -> pd.DataFrame:
    """One value per ``by`` group: the mean (default) or median over the repeats."""
    how = params.get("aggregate", "mean")
    if how not in AGGREGATES:
        raise ValueError(f"aggregate {how!r} is not one of {', '.join(AGGREGATES)}")
    return df.groupby(list(by), as_index=False, sort=False)["value"].agg(how)


def over_repeats(
    ctx: ExplainContext, df: pd.DataFrame, params: dict, by: Sequence[str] = ("feature",)
) -> pd.DataFrame:
    """:func:`_aggregate`, with feature indices replaced by their names."""
    return named(ctx, _aggregate(df, params, by))


def loss_options(params: dict) -> dict:
    return {"loss": params.get("loss", "squared"), "contrast": params.get("contrast", "difference")}


@method("pfi", params={"features", "groups", "n_repeats", "data"} | PFI_OPTIONS,
        kind="importance")
def _pfi(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Permutation importance of each feature, or of each group in ``groups`` ({name: [features]},
    the group's columns permuted together), over the repeats."""
    X, y = ctx.data(params)
    groups = {name: tuple(ctx.index(f) for f in members)
              for name, members in params.get("groups", {}).items()}
    df = permutation_importance(
        ctx.predict, X, y, features=list(groups.values()) or ctx.features(params),
        n_repeats=int(params.get("n_repeats", 1)), rng=rng, max_rows=ctx.max_rows,
        **loss_options(params),
    )
    if not groups:
        return over_repeats(ctx, df, params)
    label = {cols: name for name, cols in groups.items()}
    df["feature"] = [label[c] for c in df["feature"]]
    return _aggregate(df, params)


@method(
    "cpfi", requires={"conditional"}, params={"features", "n_repeats", "data"} | PFI_OPTIONS,
    kind="importance",
)
def _cpfi(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    X, y = ctx.data(params)
    df = conditional_importance(
        ctx.predict, X, y, ctx.dgp.sample_conditional, features=ctx.features(params),
        n_repeats=int(params.get("n_repeats", 1)), rng=rng, max_rows=ctx.max_rows,
        **loss_options(params),
    )
    return over_repeats(ctx, df, params)


@method("oob_pfi", requires={"oob"}, params={"features", "scale"}, kind="importance")
def _oob(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    df = oob_permutation_importance(
        ctx.model, ctx.X, ctx.y, features=ctx.features(params), rng=rng,
        scale=bool(params.get("scale", True)),
    )
    return named(ctx, df)


def _relearn(scheme: str) -> Method:
    def run(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
        sampler = ctx.dgp.sample_conditional if scheme == "conditional" else None
        df = relearn_importance(
            ctx.fit, ctx.predict, ctx.X, ctx.y, scheme=scheme,
            features=ctx.features(params), rng=rng, sampler=sampler,
        )
        return named(ctx, df)

    return run


method("loco", params={"features"}, kind="importance")(_relearn("drop"))
method("permute_relearn", params={"features"}, kind="importance")(_relearn("permute"))
method("condition_relearn", requires={"conditional"}, params={"features"}, kind="importance")(
    _relearn("conditional")
)


ICE_CURVES = ("plain", "centered", "derivative")


def _curves_frame(feature: str, x: np.ndarray, curves: np.ndarray) -> pd.DataFrame:
    """One curve per row (rows x len(x) values) in long format: feature, row, x, value."""
    return pd.DataFrame({
        "feature": feature,
        "row": np.repeat(np.arange(len(curves)), len(x)),
        "x": np.tile(x, len(curves)),
        "value": curves.ravel(),
    })


def _effect_grid(ctx: ExplainContext, params: dict, j: int) -> np.ndarray:
    return make_grid(ctx.X[:, j], params.get("grid", {}), ctx.feature_names[j])


@method("pdp", params={"features", "grid", "data"}, kind="effect")
def _pdp(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    X, _ = ctx.data(params)
    frames = []
    for j in ctx.features(params):
        grid = _effect_grid(ctx, params, j)
        pd_ = partial_dependence(ctx.predict, X, j, grid, max_rows=ctx.max_rows)
        frames.append(pd.DataFrame({"feature": ctx.feature_names[j], "x": grid, "value": pd_}))
    return pd.concat(frames, ignore_index=True)


@method("ice", params={"features", "grid", "rows", "n_rows", "curve", "anchor"}, kind="effect")
def _ice(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """ICE at the DGP's fixed reference rows (``rows: reference``) or at training rows.

    ``curve``: ``plain`` (the predictions), ``centered`` (c-ICE: minus the value at grid
    index ``anchor``, default 0, the grid minimum) or ``derivative`` (d-ICE).
    """
    if params.get("rows", "reference") == "reference":
        rows = ctx.dgp.reference_rows(int(params.get("n_rows", 11)), ctx.fixed_rng("ice_rows"))
    else:
        rows = ctx.X[np.sort(_draw_indices(len(ctx.X), int(params.get("n_rows", 20)), rng))]
    curve = params.get("curve", "plain")
    if curve not in ICE_CURVES:
        raise ValueError(f"ice curve {curve!r} is not one of {', '.join(ICE_CURVES)}")
    frames = []
    for j in ctx.features(params):
        grid = _effect_grid(ctx, params, j)
        curves = ice(ctx.predict, rows, j, grid, max_rows=ctx.max_rows)
        if curve == "centered":
            curves = centered_ice(curves, int(params.get("anchor", 0)))
        elif curve == "derivative":
            curves = derivative_ice(curves, grid)
        frames.append(_curves_frame(ctx.feature_names[j], grid, curves))
    return pd.concat(frames, ignore_index=True)


@method("surface", params={"features", "grid"})
def _surface(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """2-D partial dependence on a product grid (the fitted surface when p = 2)."""
    j, k = ctx.features(params)
    gj, gk = _effect_grid(ctx, params, j), _effect_grid(ctx, params, k)
    G = np.array([(a, b) for a in gj for b in gk])
    value = partial_dependence(ctx.predict, ctx.X, [j, k], G, max_rows=ctx.max_rows)
    return pd.DataFrame({"x": G[:, 0], "z": G[:, 1], "value": value})


@method("permuted_queries", params={"features"})
def _queries(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """The points at which permutation VI of each feature evaluates the model."""
    frames = []
    for j in ctx.features(params):
        Q = ctx.X.copy()
        Q[:, j] = rng.permutation(Q[:, j])
        df = pd.DataFrame(Q, columns=ctx.feature_names)
        df.insert(0, "feature", ctx.feature_names[j])
        frames.append(df)
    return pd.concat(frames, ignore_index=True)


@method("leaf_boxes", requires={"trees"}, params={"features", "n_trees"})
def _leaf_boxes(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Leaves of ``n_trees`` randomly chosen trees over two features."""
    S = ctx.features(params)
    bounds = [(float(ctx.X[:, j].min()), float(ctx.X[:, j].max())) for j in S]
    trees = ctx.model.estimators_
    pick = _draw_indices(len(trees), int(params.get("n_trees", 10)), rng)
    frames = []
    for t in pick:
        df = leaf_rectangles(trees[t], S, bounds)
        df.insert(0, "tree", int(t))
        frames.append(df)
    return pd.concat(frames, ignore_index=True)


def categorical(ctx: ExplainContext, params: dict) -> list[int]:
    """Indices of the categorical features: the study's ``categorical`` list, else the DGP's."""
    names = params.get("categorical", getattr(ctx.dgp, "categorical", ()))
    return [ctx.index(f) for f in names]


@method("ale", params={"features", "intervals", "centering", "order", "categorical", "data"},
        kind="effect")
def _ale(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """First-order ALE at the interval edges (numeric) or at the levels (categorical)."""
    X, _ = ctx.data(params)
    cats = categorical(ctx, params)
    frames = []
    for j in ctx.features(params):
        if j in cats:
            order = (similarity_order(X, j, cats) if params.get("order", "similarity")
                     == "similarity" else np.unique(X[:, j]))
            x, value = order, ale_categorical(ctx.predict, X, j, order, max_rows=ctx.max_rows)[0]
        else:
            x = ale_edges(X[:, j], params.get("intervals", {}))
            value = ale_first_order(ctx.predict, X, j, x, max_rows=ctx.max_rows,
                                    centering=params.get("centering", "data"))[0]
        frames.append(pd.DataFrame({"feature": ctx.feature_names[j], "x": x, "value": value}))
    return pd.concat(frames, ignore_index=True)


@method("ale2", params={"features", "intervals", "data"})
def _ale2(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Second-order ALE of two numeric features on the product of their edges."""
    X, _ = ctx.data(params)
    j, k = ctx.features(params)
    spec = params.get("intervals", {})
    ej, ek = ale_edges(X[:, j], spec), ale_edges(X[:, k], spec)
    value = ale_second_order(ctx.predict, X, j, k, ej, ek, max_rows=ctx.max_rows)
    return pd.DataFrame({"x": np.repeat(ej, len(ek)), "z": np.tile(ek, len(ej)),
                         "value": value.ravel()})


@method("mplot", params={"features", "intervals", "data"}, kind="effect")
def _mplot(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Mean prediction per interval of x_j: the estimated conditional expectation curve."""
    X, _ = ctx.data(params)
    frames = []
    for j in ctx.features(params):
        edges = ale_edges(X[:, j], params.get("intervals", {}))
        x, value, count = marginal_plot(ctx.predict, X, j, edges, max_rows=ctx.max_rows)
        frames.append(pd.DataFrame({"feature": ctx.feature_names[j], "x": x, "value": value,
                                    "count": count}))
    return pd.concat(frames, ignore_index=True)


@method("stratpd", params={"features", "min_samples_leaf", "min_slopes_per_x", "ntrials",
                           "gaps", "reference", "anchor", "max_passes", "categorical"},
        kind="effect")
def _stratpd(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """StratPD (numeric) or CatStratPD (categorical) from the training data; no model calls."""
    cats = categorical(ctx, params)
    leaf = int(params.get("min_samples_leaf", 10))
    trials = int(params.get("ntrials", 1))
    frames = []
    for j in ctx.features(params):
        if j in cats:
            x, value = catstratpd(
                ctx.X, ctx.y, j, min_samples_leaf=leaf, ntrials=trials, rng=rng,
                reference=params.get("reference", "random"),
                anchor=params.get("anchor", "random"),
                max_passes=int(params.get("max_passes", 3)),
            )
        else:
            x, value = stratpd(
                ctx.X, ctx.y, j, min_samples_leaf=leaf, ntrials=trials, rng=rng,
                min_slopes_per_x=int(params.get("min_slopes_per_x", 5)),
                gaps=params.get("gaps", "span"),
            )
        frames.append(pd.DataFrame({"feature": ctx.feature_names[j], "x": x, "value": value}))
    return pd.concat(frames, ignore_index=True)


@method("shap", params={"features", "estimator", "n_background", "n_rows", "n_permutations",
                        "data"})
def _shap(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Interventional Shapley values of ``n_rows`` rows against ``n_background`` rows, long
    format (one row per explained row and feature, with the feature's value: plotted, the
    SHAP dependence curve)."""
    X, _ = ctx.data(params)
    rows = X[np.sort(_draw_indices(len(X), int(params.get("n_rows", 100)), rng))]
    background = X[_draw_indices(len(X), int(params.get("n_background", 100)), rng)]
    estimator = params.get("estimator", "exact")
    if estimator == "exact":
        phi = shapley_exact(ctx.predict, rows, background, max_rows=ctx.max_rows)
    elif estimator == "permutation":
        phi = shapley_permutation(ctx.predict, rows, background,
                                  int(params.get("n_permutations", 10)), rng,
                                  max_rows=ctx.max_rows)
    elif estimator == "tree":
        phi = shapley_tree(ctx.model, rows, background)
    else:
        raise ValueError(f"shap estimator {estimator!r} is not one of {', '.join(ESTIMATORS)}")
    S = ctx.features(params)
    return pd.DataFrame({
        "feature": np.tile([ctx.feature_names[j] for j in S], len(rows)),
        "row": np.repeat(np.arange(len(rows)), len(S)),
        "x": rows[:, S].ravel(),
        "value": phi[:, S].ravel(),
    })


@method("lime", params={"n_rows", "n_samples", "sampling", "local_sd", "distance",
                        "kernel_width", "n_features", "selection", "ridge", "categorical",
                        "data"})
def _lime(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """LIME coefficients of ``n_rows`` rows drawn from the data (one row per row and feature)."""
    X, _ = ctx.data(params)
    rows = X[np.sort(_draw_indices(len(X), int(params.get("n_rows", 10)), rng))]
    coef = lime_coefficients(
        ctx.predict, X, rows, rng, categorical=categorical(ctx, params),
        max_rows=ctx.max_rows,
        **{k: params[k] for k in ("n_samples", "sampling", "local_sd", "distance",
                                  "kernel_width", "n_features", "selection", "ridge")
           if k in params},
    )
    p = X.shape[1]
    return pd.DataFrame({
        "row": np.repeat(np.arange(len(rows)), p),
        "feature": np.tile(ctx.feature_names, len(rows)),
        "value": coef.ravel(),
    })


def fitted_sampler(ctx: ExplainContext, params: dict, j: int, rng: np.random.Generator):
    """The study's sampler for feature j, fitted on the training rows (``sampler``,
    ``sampler_params``); ``exact`` uses the DGP's conditional law.

    It depends on the training rows and the sampler's settings only, so it is fitted once per
    repetition (with a stream of its own when the context has one) and shared by the learners.
    """
    from imlbench.config import config_hash

    name = params.get("sampler", "subgroups")
    is_categorical = j in categorical(ctx, params)
    key = config_hash([name, params.get("sampler_params", {}), j, is_categorical])
    if key not in ctx.samplers:
        exact = ctx.dgp.sample_conditional if name == "exact" else None
        fit_rng = rng if ctx.sampler_rng is None else ctx.sampler_rng(key)
        ctx.samplers[key] = fit_sampler(name, ctx.X, j, fit_rng, params.get("sampler_params", {}),
                                        exact=exact, categorical=is_categorical)
    return ctx.samplers[key]


def _sampler_pfi(ctx: ExplainContext, params: dict, rng: np.random.Generator,
                 local: bool) -> pd.DataFrame:
    X, y = ctx.data(params)
    opts = {"n_repeats": int(params.get("n_repeats", 1)), "rng": rng,
            "max_rows": ctx.max_rows, **loss_options(params)}
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


@method("conditional_pfi",
        params={"features", "sampler", "sampler_params", "n_repeats", "data", "categorical"}
        | PFI_OPTIONS, kind="importance")
def _conditional_pfi(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """PFI with x_j replaced by a fitted sampler's draws (Molnar et al., eq. 2; cs-PFI with
    ``sampler: subgroups``, Algorithm 1), one value per feature over the repeats."""
    return _sampler_pfi(ctx, params, rng, local=False)


@method("cs_pfi_local",
        params={"features", "sampler_params", "n_repeats", "data"} | PFI_OPTIONS)
def _cs_pfi_local(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """The local cs-PFI of each subgroup (Molnar et al., eq. 5): x_j permuted within the
    subgroup's rows; one row per feature and subgroup (``group``, its row count ``n``). Their
    count-weighted mean estimates the global cs-PFI (Appendix A)."""
    return _sampler_pfi(ctx, {**params, "sampler": "subgroups"}, rng, local=True)


@method("ici", params={"features", "n_values", "loss", "data"})
def _ici(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """ICI curves (book ch. 10, eq. 8): the loss change of every row when x_j takes each of
    ``n_values`` values drawn from the rows; PI, d-ICI and the stump derive from them."""
    X, y = ctx.data(params)
    loss = loss_named(params.get("loss", "squared"))
    frames = []
    for j in ctx.features(params):
        values = X[np.sort(_draw_indices(len(X), int(params.get("n_values", 100)), rng)), j]
        mat = individual_importance(ctx.predict, X, y, j, values, loss, max_rows=ctx.max_rows)
        frames.append(_curves_frame(ctx.feature_names[j], values, mat))
    return pd.concat(frames, ignore_index=True)


@method("cs_pdp", params={"features", "sampler_params", "grid", "data"}, kind="effect")
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
            grid = make_grid(rows[:, j], params.get("grid", {}), ctx.feature_names[j])
            value = partial_dependence(ctx.predict, rows, j, grid, max_rows=ctx.max_rows)
            frames.append(pd.DataFrame({"feature": ctx.feature_names[j], "group": int(g),
                                        "n": len(rows), "x": grid, "value": value}))
    return pd.concat(frames, ignore_index=True)


@method("learner_pd_pfi", params={"features", "grid", "m", "scheme", "n_permutations", "alpha"})
def _learner_pd_pfi(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Learner-level PD and PFI over ``m`` refits on resampled rows, with naive (c = 0) and
    Nadeau-Bengio-corrected t intervals (Molnar et al., Sect. 7)."""
    scheme = params.get("scheme", "subsampling")
    S = ctx.features(params)
    grid_spec = params.get("grid", {"kind": "values", "values": [0.1, 0.3, 0.5, 0.7, 0.9]})
    grid = make_grid(ctx.X[:, S[0]], grid_spec, ctx.feature_names[S[0]])
    splits = resample_splits(len(ctx.X), int(params.get("m", 15)), scheme, rng)
    pd_est, pfi_est = learner_pd_pfi(
        ctx.fit, ctx.X, ctx.y, splits, features=S, grid=grid,
        n_permutations=int(params.get("n_permutations", 5)), rng=rng, max_rows=ctx.max_rows,
    )
    alpha = float(params.get("alpha", 0.05))
    frames = []
    for quantity, est, x in (("pd", pd_est, np.tile(grid, (len(S), 1))),
                             ("pfi", pfi_est, np.full(len(S), np.nan))):
        naive = est.interval(0.0, alpha)
        corrected = est.interval(nadeau_bengio_c(scheme), alpha)
        frames.append(pd.DataFrame({
            "quantity": quantity,
            "feature": np.repeat([ctx.feature_names[j] for j in S], x.size // len(S)),
            "x": x.ravel(), "value": est.mean.ravel(),
            "lower_naive": naive[0].ravel(), "upper_naive": naive[1].ravel(),
            "lower_corrected": corrected[0].ravel(), "upper_corrected": corrected[1].ravel(),
        }))
    return pd.concat(frames, ignore_index=True)


@method("model_pfi_truth", requires={"conditional"}, params={"features", "n_mc", "conditional"},
        kind="theory")
def _model_pfi_truth(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """The fitted model's own true PFI (conditional by default, else marginal) by Monte Carlo
    on ``n_mc`` fresh rows from the DGP, with its SE: the per-model truth of setting II of the
    conditional-subgroups simulation (:func:`imlbench.truth.monte_carlo.model_pfi_truth`)."""
    from imlbench.truth.monte_carlo import model_pfi_truth

    rows = []
    for j in ctx.features(params):
        value, se = model_pfi_truth(ctx.predict, ctx.dgp, j, int(params.get("n_mc", 100_000)),
                                    rng, conditional=bool(params.get("conditional", True)))
        rows.append({"feature": ctx.feature_names[j], "value": value, "se": se})
    return pd.DataFrame(rows)


SUBSTITUTES = ("permute", "conditional", "knockoff")


def _substitute_block(
    kind: str, ctx: ExplainContext, X: np.ndarray, block: list[int], rng: np.random.Generator,
    moments: tuple[np.ndarray, np.ndarray],
) -> np.ndarray:
    from imlbench.explain.knockoffs import knockoff_block

    Xs = X.copy()
    if kind == "permute":
        Xs[:, block] = X[rng.permutation(len(X))][:, block]
    elif kind == "conditional":
        Xs[:, block] = ctx.dgp.sample_conditional(X, block, rng)
    elif kind == "knockoff":
        mu, sigma = moments
        Xs[:, block] = knockoff_block(X, block, rng, mu=mu, sigma=sigma)
    else:
        raise ValueError(f"substitute {kind!r} is not one of {', '.join(SUBSTITUTES)}")
    return Xs


@method(
    "substitute_test", requires={"noise_block"}, params={"substitute", "alpha", "split"},
    kind="test",
)
def _substitute_test(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Hooker et al. (2021), Sect. 5 / Fig. 8: is the noise block x2 important?

    The full model (fitted on x1, x2) is compared with a model relearned on
    (x1, x2*), where x2* substitutes the block by a row permutation, a draw from the
    true conditional law, or second-order Gaussian knockoffs (moments estimated on
    the training rows). Both are scored on the external test rows (the substitute
    model on the test rows with their own substitute block) and the one-sided
    MSE-difference Wald test of Williamson et al. (2020) decides.
    """
    from imlbench.metrics.vim_test import mse_difference_test

    if ctx.X_test is None or len(ctx.X_test) == 0:
        raise ValueError("substitute_test needs test rows (set n_test)")
    block = list(ctx.dgp.noise_features)
    kind = params.get("substitute", "permute")
    moments = (ctx.X.mean(axis=0), np.cov(ctx.X, rowvar=False))
    Xs_train = _substitute_block(kind, ctx, ctx.X, block, rng, moments)
    Xs_test = _substitute_block(kind, ctx, ctx.X_test, block, rng, moments)
    reduced = ctx.fit(Xs_train, ctx.y)
    loss_full = (ctx.y_test - ctx.predict(ctx.X_test)) ** 2
    loss_reduced = (ctx.y_test - reduced(Xs_test)) ** 2
    res = mse_difference_test(
        loss_full, loss_reduced, alpha=float(params.get("alpha", 0.05)), rng=rng,
        split=bool(params.get("split", True)),
    )
    return pd.DataFrame([{"substitute": kind, **res}])


@method("linear_pfi_theory", requires={"linear"}, kind="theory")
def _linear_theory(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Theorem 1 of Hooker et al. (2021) for the fitted least-squares model:
    E_pi VI^pi_j = 2 beta_j^2 (1/N) sum_i (x_ij - mean_j)^2 (mean form of the printed sum),
    computed from the fitted coefficients and the training data, not by permuting."""
    beta = np.asarray(ctx.model.coef_, dtype=float)
    var = ctx.X.var(axis=0)
    return pd.DataFrame({"feature": ctx.feature_names, "value": 2.0 * beta**2 * var})


# the study-specific method modules (explain/methods_*.py) register theirs with `method`
import_modules("imlbench.explain", "methods_")
