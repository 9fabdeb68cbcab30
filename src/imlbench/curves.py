"""Curves of a method over repetitions: how claims and figures read, align and anchor them.

An estimate table holds curves (columns rep, x, value; ICE and SHAP also ``row``, one curve
per explained row). The rules, used by every claim kind and every figure:

* **A repetition's curve** is the mean over its rows at each x (:func:`rep_curves`: an ICE's
  mean is its PD).
* **Between its points** a curve is read by linear interpolation and is undefined outside
  them (:func:`values_at`): the ALE estimator's own definition between interval edges, and
  the reading of every grid-point estimator between its grid points.
* **A common grid.** Repetitions whose x differ (quantile grids, StratPD at the data's values)
  are interpolated onto the range every repetition covers (:func:`on_common_grid`).
* **Mean and band.** The mean curve is the mean over repetitions, with its standard error (sd
  over repetitions / sqrt(R)) (:func:`mean_band`).
* **Anchoring.** PD, ALE and StratPD are defined up to an additive constant in some
  conventions, so curves that are compared share one anchor, truths included
  (:data:`ANCHORS`, :func:`anchored`): ``mean`` centres each curve at its mean over the shared
  span (the truth's grid range where a truth is drawn), ``first`` sets it to 0 at its
  smallest x (StratPD's own convention), ``none`` leaves it as it is.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

#: how curves are anchored before they are compared (see the module docstring)
ANCHORS = ("mean", "first", "none")
#: curves whose x differ between repetitions go onto this many equidistant points, unless
#: they take at most :data:`FEW_VALUES` distinct values (then onto those values)
GRID_SIZE = 200
FEW_VALUES = 50


def rep_curves(est: pd.DataFrame) -> pd.DataFrame:
    """One curve per repetition (rows ``rep``, columns x): the mean value at each x over the
    rows of a repetition (ICE rows, SHAP rows, bootstrap trials; a curve has one)."""
    return est.groupby(["rep", "x"])["value"].mean().unstack("x")


def values_at(curves: pd.DataFrame, x: np.ndarray | float) -> pd.DataFrame:
    """Every repetition's curve (rows of :func:`rep_curves`, x in columns; missing points
    left out) read at ``x`` by linear interpolation between its points, NaN outside them:
    one row per repetition, one column per value of ``x``."""
    x = np.atleast_1d(np.asarray(x, dtype=float))
    out = np.full((len(curves), len(x)), np.nan)
    for i, (_, row) in enumerate(curves.iterrows()):
        row = row.dropna()
        if row.empty:
            continue
        xs, vs = row.index.to_numpy(float), row.to_numpy(float)
        inside = (x >= xs[0]) & (x <= xs[-1])
        out[i, inside] = np.interp(x[inside], xs, vs)
    return pd.DataFrame(out, index=curves.index, columns=x)


def on_common_grid(curves: pd.DataFrame) -> pd.DataFrame:
    """The curves (rows) at x values they all cover. Curves on shared x come back as they are;
    otherwise each is interpolated linearly onto the range every curve covers: at the
    distinct x values there when they are few (:data:`FEW_VALUES`), else at
    :data:`GRID_SIZE` equidistant points."""
    if not curves.isna().to_numpy().any():
        return curves
    spans = [row.dropna() for _, row in curves.iterrows()]
    lo = max(float(s.index.min()) for s in spans)
    hi = min(float(s.index.max()) for s in spans)
    x = curves.columns.to_numpy(float)
    inside = x[(x >= lo) & (x <= hi)]
    grid = inside if len(x) <= FEW_VALUES else np.linspace(lo, hi, GRID_SIZE)
    values = [np.interp(grid, s.index.to_numpy(float), s.to_numpy(float)) for s in spans]
    return pd.DataFrame(values, index=curves.index, columns=grid)


def anchored(curves: pd.DataFrame, anchor: str,
             span: tuple[float, float] | None = None) -> pd.DataFrame:
    """The curves (rows, x in columns) anchored as ``anchor`` says: ``mean``: less their mean
    over the x in ``span`` (all x when none is inside or no span is given); ``first``: less
    their value at the smallest x; ``none``: as they are."""
    if anchor not in ANCHORS:
        raise ValueError(f"unknown anchor {anchor!r}; allowed: {', '.join(ANCHORS)}")
    if anchor == "none" or curves.empty:
        return curves
    if anchor == "first":
        return curves.sub(curves.iloc[:, 0], axis=0)
    x = curves.columns.to_numpy(float)
    inside = (x >= span[0]) & (x <= span[1]) if span is not None else x == x
    cols = curves.columns[inside] if inside.any() else curves.columns
    return curves.sub(curves[cols].mean(axis=1), axis=0)


def mean_band(curves: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """x, the mean over the curves (rows) and its standard error (0 with one curve)."""
    values = curves.to_numpy(float)
    se = (values.std(axis=0, ddof=1) / np.sqrt(len(values)) if len(values) > 1
          else np.zeros(values.shape[1]))
    return curves.columns.to_numpy(float), values.mean(axis=0), se
