"""Evaluation grids for feature effects, built from a study-file specification.

A grid spec is a mapping with ``kind``: ``equidistant`` (``size`` points from the
data minimum to maximum, or over ``range``), ``quantile`` (``size`` empirical
quantiles, ends included; ``quantile_type`` 7, R's and numpy's default, interpolates between
the sorted values, 1 takes the sorted values themselves, as iml's ALE intervals do),
``values`` (the listed ``values``) or ``levels`` (every distinct value: the grid of a
categorical feature) or ``splits`` (one point per constant piece of a tree model's fit in the
feature, within ``range``: the split points the caller takes from the model,
:func:`imlbench.explain.tree_pd.split_grid`) or ``law_quantile`` (the quantiles of the
feature's law, the DGP's, at ``size`` probabilities equally spaced from ``probs[0]`` to
``probs[1]``, default 0.0001 to 0.9999 as Heiß et al. 2026 use; tied quantiles of a discrete
law collapse; the caller passes the law's quantile function, :func:`law_quantiles`: a grid
that does not depend on the rows). ``trim`` drops that many points at each end of the grid
(after it is computed, whatever its kind). ``within_data: true`` rejects a grid that leaves the
observed range.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from imlbench.dgp.base import LAW_PROBS
from imlbench.params import choice, flag, integer, items, number

#: the kinds built from the data alone
DATA_KINDS = ("equidistant", "quantile", "values", "levels")
#: the kind at the quantiles of the feature's law (:func:`law_quantiles`)
LAW_KIND = "law_quantile"
GRID_KINDS = (*DATA_KINDS, "splits", LAW_KIND)
#: the quantile function of a feature's law: probabilities in (0, 1) -> values
Law = Callable[[np.ndarray], np.ndarray]
#: the keys of a grid spec (defaults as in :func:`make_grid`)
GRID_FIELDS = {
    "kind": choice("equidistant", GRID_KINDS),
    "size": integer(21, minimum=1),
    "range": items(number(), length=2),
    "values": items(number(), unique=True),
    "within_data": flag(False),
    "quantile_type": choice(7, (7, 1)),
    "probs": items(number(above=0, below=1), list(LAW_PROBS), length=2),
    "trim": integer(0, minimum=0),
}
#: R's quantile types by their numpy names
QUANTILE_METHODS = {7: "linear", 1: "inverted_cdf"}


def make_grid(x: np.ndarray, spec: Mapping[str, Any], name: str = "the feature",
              splits: np.ndarray | None = None, *, law: Law | None = None) -> np.ndarray:
    """The grid of one feature (called ``name`` in errors) with observed values ``x``;
    ``splits``: the grid of kind ``splits``, from the fitted model; ``law``: the quantile
    function of the feature's law, for kind ``law_quantile``."""
    grid = _grid(x, spec, splits, law)
    grid = grid[inner(len(grid), int(spec.get("trim", 0)), f"grid.trim (grid of {name})")]
    lo, hi = float(np.min(x)), float(np.max(x))
    if spec.get("within_data", False) and (grid.min() < lo or grid.max() > hi):
        raise ValueError(
            f"grid of {name} spans [{grid.min():g}, {grid.max():g}] but its data lie in "
            f"[{lo:g}, {hi:g}] and within_data is true"
        )
    return grid


def inner(n: int, trim: int, key: str) -> slice:
    """The slice of ``n`` points less ``trim`` at each end, refusing a ``trim`` (the parameter
    ``key`` in errors) that leaves none."""
    if trim < 0 or 2 * trim >= n:
        raise ValueError(f"{key}: dropping {trim} points at each end of {n} leaves none; "
                         f"allowed: 0 <= trim < {n / 2:g}")
    return slice(trim, n - trim)


def interval_index(x: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """0-based index k of the interval ]z_k, z_{k+1}] holding each x (z_0 itself in interval 0)."""
    return np.clip(np.searchsorted(edges, x, side="left") - 1, 0, len(edges) - 2)


def rows_within(X: np.ndarray, j: int, edges: np.ndarray) -> np.ndarray:
    """The rows of X whose x_j lies within [z_0, z_K] (given edges may leave some out)."""
    return X[(X[:, j] >= edges[0]) & (X[:, j] <= edges[-1])]


def law_quantiles(spec: Mapping[str, Any], size: int, law: Law | None,
                  key: str = "grid") -> np.ndarray:
    """The distinct quantiles of a feature's ``law`` (its quantile function) at ``size``
    probabilities equally spaced from ``spec["probs"][0]`` to ``spec["probs"][1]`` (default
    :data:`LAW_PROBS`), in increasing order; ``key`` names the spec in errors."""
    if law is None:
        raise ValueError(f"{key}.kind: {LAW_KIND} needs the feature's law (the DGP's "
                         f"marginal_quantiles), which this method does not pass; allowed "
                         f"here: {', '.join(DATA_KINDS)}")
    probs = spec.get("probs", LAW_PROBS)
    if len(probs) != 2 or not 0 < probs[0] < probs[1] < 1:
        raise ValueError(f"{key}.probs: {list(probs)!r} are no two increasing probabilities; "
                         f"allowed: [p0, p1] with 0 < p0 < p1 < 1")
    return np.unique(np.asarray(law(np.linspace(probs[0], probs[1], size)), dtype=float))


def _grid(x: np.ndarray, spec: Mapping[str, Any], splits: np.ndarray | None,
          law: Law | None) -> np.ndarray:
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
    if kind == LAW_KIND:
        return law_quantiles(spec, int(spec.get("size", 21)), law)
    raise ValueError(f"grid kind {kind!r} is not one of {', '.join(GRID_KINDS)}")
