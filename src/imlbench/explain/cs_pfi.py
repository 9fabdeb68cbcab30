"""cs-PFI within given subgroups and the spread of importances over the permutations.

cs-PFI (Molnar et al., conditional subgroups, eq. 2 with x_j permuted within the subgroups,
Algorithm 1; summed over the subgroups it is eq. 5) replaces x_j by a permutation of its
values among the rows of the same subgroup. The subgroups are given per feature as one label
per row (the leaves of its subgroup tree, or one label for marginal PFI).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from imlbench.explain.batching import DEFAULT_MAX_ROWS, Predict
from imlbench.explain.importance import replacement_importance
from imlbench.explain.samplers import permute_within

#: the quantiles iml's FeatureImp reports around the median importance
DEFAULT_QUANTILES = (0.05, 0.95)


def subgroup_pfi(
    predict: Predict,
    X: np.ndarray,
    y: np.ndarray,
    groups: Mapping[int, np.ndarray],
    *,
    n_repeats: int,
    rng: np.random.Generator,
    max_rows: int = DEFAULT_MAX_ROWS,
    loss: str = "squared",
    contrast: str = "difference",
) -> pd.DataFrame:
    """cs-PFI of every feature j of ``groups`` on the rows X, y, with x_j permuted within
    ``groups[j]`` (the subgroup of each row of X); one row per feature index and repeat, all
    in one stacked evaluation (:func:`imlbench.explain.importance.replacement_importance`)."""
    return replacement_importance(
        predict, X, y, lambda X_, j, r: permute_within(X_[:, j], groups[j], r),
        features=list(groups), n_repeats=n_repeats, rng=rng, max_rows=max_rows, loss=loss,
        contrast=contrast,
    )


def quantile_spread(
    values: pd.DataFrame, by: Sequence[str], quantiles: Sequence[float] = DEFAULT_QUANTILES
) -> pd.DataFrame:
    """Per group of ``by`` (in order of appearance): the number of repeats (``n_repeats``),
    the ``quantiles`` of ``value`` over them (``lower``, ``upper``) and their levels
    (``lower_q``, ``upper_q``)."""
    lo, hi = quantiles
    g = values.groupby(list(by), sort=False)["value"]
    out = g.size().rename("n_repeats").reset_index()
    out["lower"] = g.quantile(lo).to_numpy()
    out["upper"] = g.quantile(hi).to_numpy()
    out["lower_q"], out["upper_q"] = float(lo), float(hi)
    return out
