"""cs-PFI against the depth of the subgroup tree (Molnar et al., conditional subgroups, Sect. 7,
Fig. 8, and Sect. 10, Fig. 10).

The number of subgroups trades interpretability against how well the permutation within
subgroups approximates the conditional law. One tree is grown to the deepest depth asked for
and cut back to each depth: a split depends only on its own node's rows, so the cut tree is the
tree grown to that depth (see :class:`imlbench.explain.samplers.FittedSampler`). Depth 0 is a
single group, i.e. marginal PFI.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.explain.api import (
    CATEGORICAL,
    DATA,
    FEATURES,
    PFI_OPTIONS,
    SUBGROUPS,
    ExplainContext,
    categorical,
    fitted_sampler,
    loss_options,
    method,
    named,
    over_repeats,
)
from imlbench.explain.cs_pfi import quantile_spread, subgroup_pfi
from imlbench.params import integer, items, number

#: the quantiles of the importance over the permutations: a pair of levels, or none
QUANTILES = items(number(minimum=0, maximum=1), None, length=2, nullable=True)


@method("conditional_subgroups.cs_pfi_depths", kind="metric", params={
    **FEATURES, **SUBGROUPS, "depths": items(integer(minimum=0), list(range(1, 11)), unique=True),
    "n_repeats": integer(1, minimum=1), **DATA, **CATEGORICAL, **PFI_OPTIONS,
    "quantiles": QUANTILES,
})
def _cs_pfi_depths(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """cs-PFI (eq. 2 with x_j permuted within subgroups, Algorithm 1) of each feature for the
    subgroup tree (``sampler_params`` of the subgroups sampler, CART by default) cut back to
    each of ``depths`` (default 1..10). One row per (feature, depth): ``value``, the mean over
    the ``n_repeats`` permutations (or the median, ``aggregate: median``), and ``n_groups``, the
    number of subgroups of the cut tree on the training rows; with ``quantiles: [lo, hi]`` also
    their spread over the permutations (``n_repeats``, ``lower``, ``upper``, ``lower_q``,
    ``upper_q``). The distribution tree splits the categorical features (the study's
    ``categorical`` list, else the DGP's) into sets of levels. The features share one stacked
    evaluation per depth."""
    X, y = ctx.data(params)
    depths = sorted(set(params["depths"]))
    sampler = {**params, "sampler": "subgroups",
               "sampler_params": {**params["sampler_params"], "max_depth": depths[-1],
                                  "categorical_columns": categorical(ctx, params)}}
    fitted = {j: fitted_sampler(ctx, sampler, j, rng) for j in ctx.features(params)}
    frames = []
    for depth in depths:
        part = subgroup_pfi(
            ctx.predict, X, y, {j: fs.groups(X, depth) for j, fs in fitted.items()},
            n_repeats=params["n_repeats"], rng=rng, max_rows=ctx.max_rows,
            **loss_options(params),
        )
        n_groups = {j: len(np.unique(fs.groups(ctx.X, depth))) for j, fs in fitted.items()}
        frames.append(part.assign(depth=depth, n_groups=part["feature"].map(n_groups)))
    per_repeat = pd.concat(frames, ignore_index=True)
    out = over_repeats(ctx, per_repeat, params, ["feature", "depth", "n_groups"])
    if params["quantiles"] is None:
        return out
    spread = quantile_spread(per_repeat, ["feature", "depth"], params["quantiles"])
    return out.merge(named(ctx, spread), on=["feature", "depth"])
