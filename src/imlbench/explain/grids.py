"""Evaluation grids for feature effects, built from a study-file specification.

A grid spec is a mapping with ``kind``: ``equidistant`` (``size`` points from the
data minimum to maximum, or over ``range``), ``quantile`` (``size`` empirical
quantiles, ends included) or ``values`` (the listed ``values``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

GRID_KINDS = ("equidistant", "quantile", "values")


def make_grid(x: np.ndarray, spec: Mapping[str, Any]) -> np.ndarray:
    """The grid of one feature with observed values ``x`` under ``spec``."""
    kind = spec.get("kind", "equidistant")
    if kind == "equidistant":
        lo, hi = spec.get("range", (float(np.min(x)), float(np.max(x))))
        return np.linspace(lo, hi, int(spec.get("size", 21)))
    if kind == "quantile":
        return np.unique(np.quantile(x, np.linspace(0.0, 1.0, int(spec.get("size", 21)))))
    if kind == "values":
        return np.asarray(spec["values"], dtype=float)
    raise ValueError(f"grid kind {kind!r} is not one of {', '.join(GRID_KINDS)}")
