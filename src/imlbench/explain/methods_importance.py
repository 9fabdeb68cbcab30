"""The generic importance methods by name, as study files use them: permutation importance
(marginal, with the DGP's conditional law, with a fitted sampler; per subgroup), the forest's
out-of-bag and conditional importances, and the relearning importances (LOCO, permute or
condition and relearn).

Each adapter turns a study file's parameters (declared with type, default and allowed values;
see :mod:`imlbench.explain.api`) into a call of the numerical function that implements the
method, and returns a tidy table. Where a method's estimates are compared with a truth, its
registration declares the estimand (``estimand=``), as a function of its parameters.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

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
    aggregate,
    fitted_sampler,
    loss_options,
    method,
    named,
    over_repeats,
)
from imlbench.explain.cs_pfi import quantile_spread
from imlbench.explain.cvirf import conditional_oob_importance
from imlbench.explain.importance import (
    conditional_importance,
    permutation_importance,
    replacement_importance,
)
from imlbench.explain.oob import oob_permutation_importance
from imlbench.explain.relearn import relearn_importance
from imlbench.explain.strategies import DATA_STRATEGIES, STRATEGY
from imlbench.params import choice, feature_name, flag, integer, items, number, table

N_REPEATS = {"n_repeats": integer(1, minimum=1)}


def _pfi_like(estimand: str) -> Callable[[Mapping], str | None]:
    """The truth importances are squared-loss differences of single features (``groups``:
    none for a method without them)."""
    def of(p: Mapping) -> str | None:
        plain = (p.get("loss") == "squared" and p.get("contrast") == "difference"
                 and not p.get("groups"))
        return estimand if plain else None
    return of


def _sampler_estimand(p: Mapping) -> str | None:
    """PFI with a sampler: marginal with ``permutation``, else the conditional one."""
    return _pfi_like("pfi_marginal" if p["sampler"] == "permutation" else "pfi_conditional")(p)


@method("pfi", kind="importance", estimand=_pfi_like("pfi_marginal"), params={
    **FEATURES, **N_REPEATS, **PFI_OPTIONS, **STRATEGY,
    "data": choice("train", (*DATA_STRATEGIES, "fitted")),
    "groups": table(value=items(feature_name()), default={}),
    "quantiles": items(number(minimum=0, maximum=1), None, length=2, nullable=True),
})
def _pfi(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Permutation importance E L(y, f(X~_j, X_-j)) - E L(y, f(X)) (Breiman; Fisher et al.) of
    each feature, or of each group in ``groups`` ({name: [features]}, the group's columns
    permuted together), over the repeats; with ``quantiles`` [lo, hi] also their spread over
    the repeats (``lower``, ``upper``: iml's 5%-95% band of ``FeatureImp``)."""
    X, y = ctx.data(params)
    groups = {name: tuple(ctx.index(f) for f in members)
              for name, members in params["groups"].items()}
    df = permutation_importance(
        ctx.predict, X, y, features=list(groups.values()) or ctx.features(params),
        n_repeats=params["n_repeats"], rng=rng, max_rows=ctx.max_rows, **loss_options(params),
    )
    if groups:
        label = {cols: name for name, cols in groups.items()}
        df["feature"] = [label[c] for c in df["feature"]]
    else:
        df = named(ctx, df)
    out = aggregate(df, params)
    if params["quantiles"] is None:
        return out
    spread = quantile_spread(df, ["feature"], params["quantiles"])
    return out.merge(spread, on="feature", sort=False)


@method("cpfi", kind="importance", requires={"conditional"},
        estimand=_pfi_like("pfi_conditional"),
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
        """The training-loss increase of the learner refitted with x_j permuted (permute) or
        drawn from its conditional law (conditional)."""
        sampler = ctx.dgp.sample_conditional if scheme == "conditional" else None
        df = relearn_importance(ctx.fit, ctx.predict, ctx.X, ctx.y, scheme=scheme,
                                features=ctx.features(params), rng=rng, sampler=sampler)
        return named(ctx, df)

    return run


@method("loco", kind="importance", estimand=_pfi_like("loco"), params={
    **FEATURES, **DATA, **{k: PFI_OPTIONS[k] for k in ("loss", "contrast")}})
def _loco(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Leave one covariate out (Lei et al. 2018; Hooker et al. 2021, VI^D): the learner
    refitted on the training rows without x_j, its mean ``loss`` on the ``data`` rows minus
    (``contrast: difference``) or divided by (``ratio``) that of the fitted model."""
    test = ctx.data(params) if params["data"] == "test" else None
    df = relearn_importance(ctx.fit, ctx.predict, ctx.X, ctx.y, scheme="drop",
                            features=ctx.features(params), rng=rng, test=test,
                            **loss_options(params))
    return named(ctx, df)


method("permute_relearn", kind="importance", params=FEATURES)(_relearn("permute"))
method("condition_relearn", kind="importance", requires={"conditional"}, params=FEATURES)(
    _relearn("conditional"))


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


@method("conditional_pfi", kind="importance", estimand=_sampler_estimand,
        params={**FEATURES, **SAMPLER, **N_REPEATS, **DATA, **CATEGORICAL, **PFI_OPTIONS})
def _conditional_pfi(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """PFI with x_j replaced by the draws of the fitted ``sampler`` (Molnar et al., conditional
    subgroups, eq. 2; cs-PFI with ``sampler: subgroups``, Algorithm 1; marginal PFI with
    ``permutation``), one value per feature over the repeats. The sampler must be named: it
    decides the estimand."""
    return _sampler_pfi(ctx, params, rng, local=False)


@method("cs_pfi_local", kind="metric",
        params={**FEATURES, **SUBGROUPS, **N_REPEATS, **DATA, **PFI_OPTIONS})
def _cs_pfi_local(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """The local cs-PFI of each subgroup (Molnar et al., eq. 5): x_j permuted within the
    subgroup's rows; one row per feature and subgroup (``group``, its row count ``n``). Their
    count-weighted mean estimates the global cs-PFI (Appendix A)."""
    return _sampler_pfi(ctx, {**params, "sampler": "subgroups"}, rng, local=True)
