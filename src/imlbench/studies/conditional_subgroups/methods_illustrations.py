"""Methods behind the illustrative Figs. 1-6 of Molnar et al. (conditional subgroups).

``conditional_subgroups.sampler_draws``
    one draw of a fitted sampler at every training row, with the row's subgroup: the permuted points
    of Figs. 3 and 4 (marginal permutation, permutation within subgroups).
``conditional_subgroups.pfi_repeats``
    PFI with a fitted sampler, one value per repeat (eq. 2 before the mean over the M repeats), so
    claims can use the repeat SE (Fig. 2).
``conditional_subgroups.effect_slopes``
    least-squares slope of a PDP, M-plot or each cs-PDP with a bootstrap SE
    (:mod:`imlbench.studies.conditional_subgroups.curve_slopes`; Figs. 2 and 5).
``conditional_subgroups.pdp_vs_predictions``
    the PDP with its SE over rows next to the range of the observed predictions (Fig. 1).

The M-plot with overlapping windows (the paper's "conditional PDP", Figs. 2 and 5), the method
``mplot_window`` and the ``mplot`` curve of ``conditional_subgroups.effect_slopes``, is the layer's
(:mod:`imlbench.explain.window_mplot`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.explain.api import (
    CATEGORICAL,
    DATA,
    FEATURES,
    PFI_OPTIONS,
    SAMPLER,
    SUBGROUPS,
    ExplainContext,
    fitted_sampler,
    loss_options,
    method,
    named,
)
from imlbench.explain.batching import predict_rows
from imlbench.explain.effects import ice, partial_dependence
from imlbench.explain.grids import make_grid
from imlbench.explain.importance import replacement_importance
from imlbench.explain.window_mplot import (
    WIDTH,
    WINDOW_GRID,
    window_marginal_plot,
    window_width,
)
from imlbench.params import choice, flag, integer
from imlbench.studies.conditional_subgroups.curve_slopes import Curves, bootstrap_slopes

#: the effect curves' grid, the windowed M-plot's: by default 30 equidistant values over the
#: data range
CURVE_GRID = WINDOW_GRID
CURVES = ("pdp", "mplot", "cs_pdp")


def _grid(ctx: ExplainContext, params: dict, j: int, x: np.ndarray | None = None) -> np.ndarray:
    """The ``grid`` of feature j over ``x`` (default: the training column)."""
    x = ctx.X[:, j] if x is None else x
    return make_grid(x, params["grid"], ctx.feature_names[j])


@method("conditional_subgroups.sampler_draws", params={**FEATURES, **SAMPLER, **CATEGORICAL})
def _sampler_draws(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """The training rows (all features), each with one draw of the replacement of x_j by the
    fitted sampler (``draw``) and its subgroup (``group``, 0 without subgroups)."""
    frames = []
    for j in ctx.features(params):
        fs = fitted_sampler(ctx, params, j, rng)
        df = pd.DataFrame(ctx.X, columns=ctx.feature_names)
        df.insert(0, "feature", ctx.feature_names[j])
        df.insert(1, "row", np.arange(len(ctx.X)))
        df["group"] = fs.groups(ctx.X)
        df["draw"] = fs.draw(ctx.X, rng)
        frames.append(df)
    return pd.concat(frames, ignore_index=True)


@method("conditional_subgroups.pfi_repeats", kind="metric", params={
    **FEATURES, **SAMPLER, "n_repeats": integer(1, minimum=1), **DATA, **CATEGORICAL,
    **{k: p for k, p in PFI_OPTIONS.items() if k != "aggregate"},
})
def _pfi_repeats(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """PFI of each feature with x_j replaced by the fitted sampler's draws (``permutation``:
    marginal PFI; ``subgroups``: cs-PFI), one row per ``repeat``."""
    X, y = ctx.data(params)
    frames = []
    for j in ctx.features(params):
        fs = fitted_sampler(ctx, params, j, rng)
        frames.append(replacement_importance(
            ctx.predict, X, y, lambda X_, _j, r, fs=fs: fs.draw(X_, r), features=[j],
            n_repeats=params["n_repeats"], rng=rng, max_rows=ctx.max_rows,
            **loss_options(params),
        ))
    return named(ctx, pd.concat(frames, ignore_index=True))


def _curves(ctx: ExplainContext, params: dict, j: int,
            rng: np.random.Generator) -> tuple[Curves, dict[int, int]]:
    """The ``curve`` of feature j as a function of the model and the rows (grids fixed on the
    training rows): ``pdp``, ``mplot`` (windowed) or ``cs_pdp`` (one curve per subgroup of the
    tree fitted with ``sampler_params``, on the subgroup's range of x_j); with the training
    rows of each curve."""
    kind = params["curve"]
    if kind == "pdp":
        grid = _grid(ctx, params, j)
        return (lambda p, X: {0: (grid, partial_dependence(p, X, j, grid,
                                                           max_rows=ctx.max_rows))},
                {0: len(ctx.X)})
    if kind == "mplot":
        grid, width = _grid(ctx, params, j), window_width(ctx.X[:, j], params["width"])
        return (lambda p, X: {0: (grid, window_marginal_plot(p, X, j, grid, width,
                                                              max_rows=ctx.max_rows)[0])},
                {0: len(ctx.X)})
    fs = fitted_sampler(ctx, {**params, "sampler": "subgroups"}, j, rng)
    train_groups = fs.groups(ctx.X)
    grids = {int(g): _grid(ctx, params, j, ctx.X[train_groups == g, j])
             for g in np.unique(train_groups)}

    def per_group(p, X: np.ndarray) -> dict[int, tuple[np.ndarray, np.ndarray]]:
        groups = fs.groups(X)
        return {g: (grid, partial_dependence(p, X[groups == g], j, grid, max_rows=ctx.max_rows))
                for g, grid in grids.items() if (groups == g).any()}

    return per_group, {g: int((train_groups == g).sum()) for g in grids}


@method("conditional_subgroups.effect_slopes", kind="other", params={
    **FEATURES, "curve": choice("pdp", CURVES), **CURVE_GRID, **WIDTH, **SUBGROUPS,
    "n_boot": integer(100, minimum=2), "refit": flag(False),
})
def _effect_slopes(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Least-squares slope of each effect curve of x_j and its bootstrap SE over ``n_boot``
    row resamples (default 100), refitting the learner on each when ``refit`` is true; one row
    per feature and subgroup (``group``, its training rows ``n``)."""
    frames = []
    refit = ctx.fit if params["refit"] else None
    for j in ctx.features(params):
        curves, sizes = _curves(ctx, params, j, rng)
        df = bootstrap_slopes(curves, ctx.predict, ctx.X, ctx.y, rng=rng, fit=refit,
                              n_boot=params["n_boot"])
        df["n"] = df["group"].map(sizes)
        df.insert(0, "feature", ctx.feature_names[j])
        frames.append(df)
    return pd.concat(frames, ignore_index=True)


@method("conditional_subgroups.pdp_vs_predictions", kind="metric",
        params={**FEATURES, **CURVE_GRID, **DATA})
def _pdp_vs_predictions(ctx: ExplainContext, params: dict,
                        rng: np.random.Generator) -> pd.DataFrame:
    """PDP of x_j (eq. 4) at each grid value with its SE, the SD of the ICE values over rows
    / sqrt(n), and the largest and smallest prediction at the observed rows."""
    X, _ = ctx.data(params)
    observed = predict_rows(ctx.predict, X, ctx.max_rows)
    frames = []
    for j in ctx.features(params):
        grid = _grid(ctx, params, j)
        curves = ice(ctx.predict, X, j, grid, max_rows=ctx.max_rows)
        frames.append(pd.DataFrame({
            "feature": ctx.feature_names[j], "x": grid, "value": curves.mean(axis=0),
            "se": curves.std(axis=0, ddof=1) / np.sqrt(len(X)),
            "pred_max": float(np.max(observed)), "pred_min": float(np.min(observed)),
        }))
    return pd.concat(frames, ignore_index=True)
