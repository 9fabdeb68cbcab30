"""Figures any study draws from YAML alone: estimated curves and importances against truths.

``curve_grid``: a grid of panels, one row per scenario and one column per feature. In each,
the curves of every method filling the role ``curves`` (PD, ICE, ALE, M-plot, StratPD, ...)
and every learner, as :mod:`imlbench.figures.curves` averages, anchors and draws them (the
mean over repetitions with a 2-SE band, the individual ICE or repetition curves, or both),
and the scenario's true curves in blue: by default those the drawn methods estimate (as
their registrations declare), or the estimands listed in ``truths``.

``importance_bars``: one panel per scenario: each feature's importance for every method
filling the role ``importance`` and every learner, as bars of the mean over repetitions with
a 2-SE bar (``kind: bars``) or boxes of the repetitions (``kind: box``), and the scenario's
true importances as open markers (marginal: circle, conditional: square).

Series are coloured by method when several methods are drawn, else by learner; both looks
come from the registered method or learner (:mod:`imlbench.figures.style`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from imlbench.curves import ANCHORS, on_common_grid, rep_curves
from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.curves import SHOW, TRUTH_STYLES, draw_curves, draw_truth
from imlbench.figures.inputs import FigureInputs
from imlbench.params import choice, items

#: the true curves a curve grid can draw, in the order drawn
CURVE_TRUTHS = ("pd", "conditional", "ale", "interventional")
#: the true importances and their markers
IMPORTANCE_TRUTHS = {"pfi_marginal": ("true marginal PFI", "o"),
                     "pfi_conditional": ("true conditional PFI", "s")}


def _series(est: pd.DataFrame) -> list[tuple[str, str]]:
    """The (method, learner) pairs of the estimates, methods in the order of their roles."""
    return sorted({(m, lrn) for m, lrn in zip(est["method"], est["learner"], strict=True)})


def _colours(inputs: FigureInputs, series: list[tuple[str, str]]) -> dict[tuple[str, str], str]:
    """A colour per series: its method's when several methods are drawn, else its learner's;
    series that would share one get the Dark2 colours instead (blue is the truth's)."""
    import matplotlib

    by_method = len({m for m, _ in series}) > 1
    colours = {key: (st.method_look(key[0], inputs.method_kinds.get(key[0])).colour if by_method
                     else st.look(key[1], kind=inputs.learner_kinds.get(key[1])).colour)
               for key in series}
    if len(set(colours.values())) < len(series):
        cmap = matplotlib.colormaps["Dark2"]
        colours = {key: cmap(i % 8) for i, key in enumerate(series)}
    return colours


def _covered(span: tuple[float, float] | None, curves: list[pd.DataFrame]
             ) -> tuple[float, float] | None:
    """``span`` (the truth's grid) narrowed to the x range every one of ``curves`` covers,
    so that the truth and the estimates are centred over the same x (a truth spanning more
    than the data would otherwise be centred over x where no estimate is)."""
    if span is None or not curves:
        return span
    lo, hi = span
    for est in curves:
        x = on_common_grid(rep_curves(est)).columns.to_numpy(float)
        lo, hi = max(lo, float(x.min())), min(hi, float(x.max()))
    return (lo, hi) if lo < hi else span


def _label(inputs: FigureInputs, key: tuple[str, str]) -> str:
    learner = st.look(key[1], kind=inputs.learner_kinds.get(key[1])).label
    return f"{key[0]}, {learner}"


@figure("curve_grid", methods=("curves",), truths=("effects",), params={
    "show": choice("average", SHOW),
    "anchor": choice("mean", ANCHORS),
    "truths": items(choice("pd", CURVE_TRUTHS), default=None, nullable=True),
})
def curve_grid(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *, show: str,
               anchor: str, truths: list[str] | None) -> None:
    """Rows: scenarios; columns: features; the methods' curves against the true ones."""
    from matplotlib.lines import Line2D

    est = inputs.estimates("curves")
    truth = inputs.truth("effects")
    estimated = {inputs.estimands.get(m) for m in est["method"]}
    wanted = truths if truths is not None else [e for e in CURVE_TRUTHS if e in estimated]
    features = st.feature_order(est["feature"])
    rows, cols = len(inputs.scenarios), len(features)
    series = _series(est)
    colours = _colours(inputs, series)
    width = max(8.0, 3.2 * cols + 1.0)
    fig, style = st.new_figure(spec, rows=rows, width=width, panel_height=2.8)
    axes = fig.subplots(rows, cols, squeeze=False)
    drawn: set[str] = set()
    for r, scenario in enumerate(inputs.scenarios):
        for c, feature in enumerate(features):
            ax = axes[r, c]
            mine = est[(est["scenario"] == scenario) & (est["feature"] == feature)]
            true = truth[(truth["scenario"] == scenario) & (truth["feature"] == feature)]
            span = (float(true["x"].min()), float(true["x"].max())) if len(true) else None
            curves = {key: mine[(mine["method"] == key[0]) & (mine["learner"] == key[1])]
                      for key in series}
            curves = {key: curve for key, curve in curves.items() if len(curve)}
            span = _covered(span, list(curves.values()))
            for key, curve in curves.items():
                draw_curves(ax, curve, colour=colours[key], show=show, anchor=anchor,
                            span=span)
            drawn |= {e for e in wanted if draw_truth(ax, true, e, anchor=anchor, span=span)}
            ax.set_title(f"{scenario}: {feature}")
            ax.set_xlabel(feature)
    anchored = {"mean": "centred at its mean over the grid", "first": "0 at its smallest x",
                "none": "as estimated"}[anchor]
    fig.supylabel(f"effect ({anchored})")
    handles = [Line2D([], [], color=colours[key], label=_label(inputs, key)) for key in series]
    handles += [Line2D([], [], color=st.TRUTH, linestyle=TRUTH_STYLES[e], label=f"true {e}")
                for e in CURVE_TRUTHS if e in drawn]
    st.legend_below(fig, handles, ncols=min(len(handles), max(1, int(style["width"] // 3.2))))
    st.save(fig, style, out_png, out_pdf)


@figure("importance_bars", methods=("importance",), truths=("importance",),
        params={"kind": choice("bars", ("bars", "box"))})
def importance_bars(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                    kind: str) -> None:
    """One panel per scenario: each feature's importance per method and learner, and the
    true importances."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    est = inputs.estimates("importance")
    truth = inputs.truth("importance")
    truth = truth[truth["estimand"].isin(list(IMPORTANCE_TRUTHS))]
    series = _series(est)
    colours = _colours(inputs, series)
    width = 0.8 / max(1, len(series))
    ncols = min(2, len(inputs.scenarios))
    fig, style = st.new_figure(spec, rows=st.panel_rows(len(inputs.scenarios), ncols))
    for ax, scenario in zip(st.panel_grid(fig, len(inputs.scenarios), ncols),
                            inputs.scenarios, strict=True):
        mine = est[est["scenario"] == scenario]
        features = st.feature_order(mine["feature"])
        position = {f: i for i, f in enumerate(features)}
        for i, key in enumerate(series):
            rows = mine[(mine["method"] == key[0]) & (mine["learner"] == key[1])]
            if rows.empty:
                continue
            by = rows.groupby("feature")["value"]
            x = np.array([position[f] for f in by.groups]) + st.dodge(i, len(series), 0.8)
            if kind == "bars":
                stats = by.agg(["mean", "std", "count"])
                se = (stats["std"] / np.sqrt(stats["count"])).fillna(0.0)
                ax.bar(x, stats["mean"], width=width, color=colours[key], alpha=0.8,
                       yerr=2 * se, error_kw={"elinewidth": 0.8, "capsize": 2})
            else:
                box = ax.boxplot([g.to_numpy() for _, g in by], positions=x, widths=width,
                                 patch_artist=True, showfliers=False,
                                 medianprops={"color": "black"}, manage_ticks=False)
                for patch in box["boxes"]:
                    patch.set(facecolor=colours[key], alpha=0.6)
        true = truth[(truth["scenario"] == scenario) & truth["feature"].isin(list(position))]
        for estimand, g in true.groupby("estimand"):
            ax.scatter([position[f] for f in g["feature"]], g["value"], zorder=3,
                       marker=IMPORTANCE_TRUTHS[estimand][1], facecolors="none",
                       edgecolors=st.TRUTH)
        ax.set_xticks(range(len(features)), features)
        ax.set_title(scenario)
    what = "mean over repetitions, ± 2 SE" if kind == "bars" else "over repetitions"
    fig.supylabel(f"importance ({what})")
    handles = [Patch(color=colours[key], label=_label(inputs, key)) for key in series]
    handles += [Line2D([], [], color=st.TRUTH, marker=marker, markerfacecolor="none",
                       linestyle="", label=label)
                for e, (label, marker) in IMPORTANCE_TRUTHS.items()
                if e in set(truth["estimand"])]
    st.legend_below(fig, handles, ncols=min(4, len(handles)))
    st.save(fig, style, out_png, out_pdf)
