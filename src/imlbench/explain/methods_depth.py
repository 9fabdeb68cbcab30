"""cs-PFI against the depth of the subgroup tree (Molnar et al., conditional subgroups, Sect. 7).

The number of subgroups trades interpretability against how well the permutation within
subgroups approximates the conditional law. One tree is grown to the deepest depth asked for
and cut back to each depth: a split depends only on its own node's rows, so the cut tree is the
tree grown to that depth (see :class:`imlbench.explain.samplers.FittedSampler`). Depth 0 is a
single group, i.e. marginal PFI.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.explain.importance import replacement_importance
from imlbench.explain.methods import (
    PFI_OPTIONS,
    ExplainContext,
    _fitted_sampler,
    _loss_options,
    _over_repeats,
    method,
)
from imlbench.explain.samplers import permute_within


@method("cs_pfi_by_depth",
        params={"features", "sampler_params", "depths", "n_repeats", "data"} | PFI_OPTIONS,
        kind="metric")
def _cs_pfi_by_depth(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """cs-PFI (eq. 2 with x_j permuted within subgroups, Algorithm 1) of each feature for the
    subgroup tree cut back to each of ``depths``; one row per (feature, depth) with the number
    of subgroups the cut tree has on the training rows (``n_groups``)."""
    X, y = ctx.data(params)
    depths = sorted({int(d) for d in params.get("depths", range(1, 11))})
    if depths[0] < 0:
        raise ValueError(f"depths must be >= 0, got {depths[0]}")
    sampler = {"sampler": "subgroups",
               "sampler_params": {**params.get("sampler_params", {}), "max_depth": depths[-1]}}
    opts = {"n_repeats": int(params.get("n_repeats", 1)), "rng": rng,
            "max_rows": ctx.max_rows, **_loss_options(params)}
    frames = []
    for j in ctx.features(params):
        fs = _fitted_sampler(ctx, sampler, j, rng)
        for depth in depths:
            groups = fs.groups(X, depth)

            def draw(X_: np.ndarray, _j: int, r: np.random.Generator, g=groups, j=j):
                return permute_within(X_[:, j], g, r)

            part = replacement_importance(ctx.predict, X, y, draw, features=[j], **opts)
            frames.append(part.assign(depth=depth,
                                      n_groups=len(np.unique(fs.groups(ctx.X, depth)))))
    return _over_repeats(ctx, pd.concat(frames, ignore_index=True), params,
                         ["feature", "depth", "n_groups"])
