"""Curves of a method over repetitions: how every figure averages, anchors and draws them.

An estimate table holds curves (columns rep, x, value; ICE and SHAP also ``row``, one curve
per explained row). The rules, used by every figure:

* **Averaging.** A repetition's curve is the mean over its rows at each x
  (:func:`rep_curves`: an ICE's mean is its PD). Repetitions whose x differ (quantile grids,
  StratPD at the data's values) are interpolated linearly onto the range every repetition
  covers (:func:`on_common_grid`). The mean curve is the mean over repetitions, with its
  standard error (sd over repetitions / sqrt(R)) for a band of 2 SE (:func:`mean_band`).
* **Anchoring.** PD, ALE and StratPD are defined up to an additive constant in some
  conventions, so a figure that compares curves picks one anchor for all of them, truths
  included (:data:`ANCHORS`): ``mean`` centres each curve at its mean over the shared span
  (the truth's grid range where a truth is drawn), ``first`` sets it to 0 at its smallest x
  (StratPD's own convention), ``none`` leaves it as it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from imlbench.figures.style import ICE_GREY, TRUTH

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd
    from matplotlib.axes import Axes

#: how curves are anchored before they are compared (see the module docstring)
ANCHORS = ("mean", "first", "none")
#: what of a method's curves is drawn: the mean over repetitions, every individual curve
#: (ICE rows of the first repetition, or each repetition's curve), or both
SHOW = ("average", "individual", "both")
#: curves whose x differ between repetitions go onto this many equidistant points, unless
#: they take at most :data:`FEW_VALUES` distinct values (then onto those values)
GRID_SIZE = 200
FEW_VALUES = 50
#: the line style of each true curve, by estimand
TRUTH_STYLES = {"pd": "-", "conditional": "--", "ale": ":", "interventional": "-.", "ice": "-"}


def rep_curves(est: pd.DataFrame) -> pd.DataFrame:
    """One curve per repetition (rows ``rep``, columns x): the mean value at each x over the
    rows of a repetition (ICE rows, SHAP rows, bootstrap trials; a curve has one)."""
    if "rep" not in est:
        est = est.assign(rep=0)
    return est.groupby(["rep", "x"])["value"].mean().unstack("x")


def on_common_grid(curves: pd.DataFrame) -> pd.DataFrame:
    """The curves (rows) at x values they all cover. Curves on shared x come back as they are;
    otherwise each is interpolated linearly onto the range every curve covers: at the
    distinct x values there when they are few (:data:`FEW_VALUES`), else at
    :data:`GRID_SIZE` equidistant points."""
    import numpy as np
    import pandas as pd

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
    import numpy as np

    values = curves.to_numpy(float)
    se = (values.std(axis=0, ddof=1) / np.sqrt(len(values)) if len(values) > 1
          else np.zeros(values.shape[1]))
    return curves.columns.to_numpy(float), values.mean(axis=0), se


def draw_curves(ax: Axes, est: pd.DataFrame, *, colour: str, show: str = "average",
                anchor: str = "mean", span: tuple[float, float] | None = None,
                band: bool = True, linewidth: float = 2.0) -> None:
    """The curves of one method and learner (one feature): with ``show`` ``average``, their
    mean over repetitions in ``colour`` (and a 2-SE band); with ``individual``, each ICE row
    of the first repetition (or, for curves without rows, each repetition's curve) in grey;
    ``both`` draws both. Every curve is anchored as ``anchor`` says over ``span``."""
    if show not in SHOW:
        raise ValueError(f"unknown show {show!r}; allowed: {', '.join(SHOW)}")
    curves = on_common_grid(rep_curves(est))
    if show in ("individual", "both"):
        if "row" in est and est["row"].nunique() > 1:
            first = est[est["rep"] == est["rep"].min()] if "rep" in est else est
            single = anchored(first.pivot_table(index="row", columns="x", values="value"),
                              anchor, span)
        else:
            single = anchored(curves, anchor, span)
        for _, curve in single.iterrows():
            ax.plot(curve.index, curve.to_numpy(), color=ICE_GREY, linewidth=0.5, alpha=0.35)
    if show in ("average", "both"):
        x, mean, se = mean_band(anchored(curves, anchor, span))
        ax.plot(x, mean, color=colour, linewidth=linewidth, alpha=0.85)
        if band and len(curves) > 1:
            ax.fill_between(x, mean - 2 * se, mean + 2 * se, color=colour, alpha=0.15,
                            linewidth=0)


def draw_truth(ax: Axes, truth: pd.DataFrame, estimand: str, *, anchor: str = "mean",
               span: tuple[float, float] | None = None) -> bool:
    """The true curve of ``estimand`` (rows of one feature of the long truth table; a curve
    of the feature, not of one row) in the truth's blue, anchored like the estimates;
    returns whether there was one."""
    curve = truth[(truth["estimand"] == estimand) & (truth["row"] < 0)]
    if curve.empty:
        return False
    line = anchored(curve.groupby("x")["value"].mean().to_frame().T, anchor, span).iloc[0]
    ax.plot(line.index, line.to_numpy(), color=TRUTH,
            linestyle=TRUTH_STYLES.get(estimand, "-"), linewidth=1.0)
    return True
