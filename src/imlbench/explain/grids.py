"""Evaluation grids for feature effects, built from a study-file specification.

A grid spec is a mapping with ``kind``: ``equidistant`` (``size`` points from the
data minimum to maximum, or over ``range``), ``quantile`` (``size`` empirical
quantiles, ends included; ``quantile_type`` 7, R's and numpy's default, interpolates between
the sorted values, 1 takes the sorted values themselves, as iml's ALE intervals do),
``values`` (the listed ``values``) or ``levels`` (every distinct value: the grid of a
categorical feature) or ``splits`` (one point per constant piece of a tree model's fit in the
feature, within ``range``: the split points the caller takes from the model,
:func:`imlbench.explain.tree_pd.split_grid`). ``within_data: true``
rejects a grid that leaves the observed range.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from imlbench.params import choice, flag, integer, items, number

#: the kinds built from the data alone
DATA_KINDS = ("equidistant", "quantile", "values", "levels")
GRID_KINDS = (*DATA_KINDS, "splits")
#: the keys of a grid spec (defaults as in :func:`_grid`)
GRID_FIELDS = {
    "kind": choice("equidistant", GRID_KINDS),
    "size": integer(21, minimum=1),
    "range": items(number(), length=2),
    "values": items(number(), unique=True),
    "within_data": flag(False),
    "quantile_type": choice(7, (7, 1)),
}
#: R's quantile types by their numpy names
QUANTILE_METHODS = {7: "linear", 1: "inverted_cdf"}


def make_grid(x: np.ndarray, spec: Mapping[str, Any], name: str = "the feature",
              splits: np.ndarray | None = None) -> np.ndarray:
    """The grid of one feature (called ``name`` in errors) with observed values ``x``;
    ``splits``: the grid of kind ``splits``, from the fitted model."""
    grid = _grid(x, spec, splits)
    lo, hi = float(np.min(x)), float(np.max(x))
    if spec.get("within_data", False) and (grid.min() < lo or grid.max() > hi):
        raise ValueError(
            f"grid of {name} spans [{grid.min():g}, {grid.max():g}] but its data lie in "
            f"[{lo:g}, {hi:g}] and within_data is true"
        )
    return grid


def interval_index(x: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """0-based index k of the interval ]z_k, z_{k+1}] holding each x (z_0 itself in interval 0)."""
    return np.clip(np.searchsorted(edges, x, side="left") - 1, 0, len(edges) - 2)


def rows_within(X: np.ndarray, j: int, edges: np.ndarray) -> np.ndarray:
    """The rows of X whose x_j lies within [z_0, z_K] (given edges may leave some out)."""
    return X[(X[:, j] >= edges[0]) & (X[:, j] <= edges[-1])]


def _grid(x: np.ndarray, spec: Mapping[str, Any], splits: np.ndarray | None) -> np.ndarray:
    kind = spec.get("kind", "equidistant")
    if kind == "equidistant":
        lo, hi = spec.get("range", (float(np.min(x)), float(np.max(x))))
        return np.linspace(lo, hi, int(spec.get("size", 21)))
    if kind == "quantile":
        probs = np.linspace(0.0, 1.0, int(spec.get("size", 21)))
        method = QUANTILE_METHODS[spec.get("quantile_type", 7)]
        return np.unique(np.quantile(x, probs, method=method))
    if kind == "values":
        return np.asarray(spec["values"], dtype=float)
    if kind == "levels":
        return np.unique(x)
    if kind == "splits":
        if splits is None:
            raise ValueError("grid.kind: splits needs a fitted tree model's split points "
                             "(methods pdp, ice, surface); allowed here: "
                             f"{', '.join(DATA_KINDS)}")
        return splits
    raise ValueError(f"grid kind {kind!r} is not one of {', '.join(GRID_KINDS)}")
