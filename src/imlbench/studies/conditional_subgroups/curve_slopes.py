"""Linear trends of effect curves with bootstrap standard errors.

Molnar et al. (conditional subgroups) read effect curves by their direction: the conditional
PDP (M-plot) of x2 rises in Figs. 2 and 5 although the model gives x2 a negative or no
coefficient, while the cs-PDPs of Fig. 5 are flat (Sect. 4.3). The summary of a curve v(z) on
its grid is its least-squares slope over the grid values. Its sampling error comes from
resampling the rows with replacement, recomputing every curve on the same grid and, when a
refit is given, refitting the learner on the resampled rows first (the model's own error).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from imlbench.explain.batching import Predict

#: ``curves(predict, X) -> {group: (grid, values)}``: the effect curves of one feature computed
#: from the rows X with the model ``predict`` (one group for a PDP or an M-plot).
Curves = Callable[[Predict, np.ndarray], dict[int, tuple[np.ndarray, np.ndarray]]]


def curve_slope(grid: np.ndarray, values: np.ndarray) -> float:
    """Least-squares slope of ``values`` over ``grid`` (NaN values, empty windows, skipped)."""
    ok = np.isfinite(values)
    if ok.sum() < 2:
        return float("nan")
    z, v = np.asarray(grid, dtype=float)[ok], np.asarray(values, dtype=float)[ok]
    zc = z - z.mean()
    return float(zc @ (v - v.mean()) / (zc @ zc))


def bootstrap_slopes(
    curves: Curves,
    predict: Predict,
    X: np.ndarray,
    y: np.ndarray,
    *,
    n_boot: int,
    rng: np.random.Generator,
    fit: Callable[[np.ndarray, np.ndarray], Predict] | None = None,
) -> pd.DataFrame:
    """Slope of each curve on the data and its bootstrap SE (SD over ``n_boot`` resamples).

    ``fit``: refit the learner on each resample (None keeps ``predict``). Returns one row per
    group: ``group``, ``slope``, ``se`` and ``n_boot`` (the resamples in which the group had
    rows).
    """
    if n_boot < 2:
        raise ValueError(f"a bootstrap SE needs at least 2 resamples, got {n_boot}")
    slopes = {g: curve_slope(*c) for g, c in curves(predict, X).items()}
    boot: dict[int, list[float]] = {g: [] for g in slopes}
    for _ in range(n_boot):
        idx = rng.integers(0, len(X), len(X))
        model = predict if fit is None else fit(X[idx], y[idx])
        for g, c in curves(model, X[idx]).items():
            boot[g].append(curve_slope(*c))
    return pd.DataFrame({
        "group": list(slopes),
        "slope": list(slopes.values()),
        "se": [float(np.nanstd(boot[g], ddof=1)) for g in slopes],
        "n_boot": [int(np.isfinite(boot[g]).sum()) for g in slopes],
    })
