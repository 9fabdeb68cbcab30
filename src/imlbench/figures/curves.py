"""Drawing the curves of a method over repetitions and their truths.

How curves are averaged, aligned and anchored is :mod:`imlbench.curves` (shared with the
claims); this module draws them: the mean over repetitions with a band of 2 SE, individual
curves in grey, and the true curve of an estimand in the truth's blue.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from imlbench.curves import anchored, mean_band, on_common_grid, rep_curves
from imlbench.figures.style import ICE_GREY, TRUTH

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

#: what of a method's curves is drawn: the mean over repetitions, every individual curve
#: (ICE rows of the first repetition, or each repetition's curve), or both
SHOW = ("average", "individual", "both")
#: the line style of each true curve, by estimand
TRUTH_STYLES = {"pd": "-", "conditional": "--", "ale": ":", "interventional": "-.", "ice": "-"}


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
            first = est[est["rep"] == est["rep"].min()]
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
