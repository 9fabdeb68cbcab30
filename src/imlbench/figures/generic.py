"""Figures any study can draw from YAML alone: estimates against their truths.

``effects``: one panel per (scenario, feature): the curve of each method filling the role
``effects`` (PD, ALE, M-plot, ...), averaged over repetitions, one line per (method, learner),
against every true curve the scenario's ``effects`` truth holds for the feature (PD,
conditional expectation, ALE, interventional curve). Repetitions whose grids differ (quantile
grids of the data) are averaged point by point in grid order. Every curve is centred at its
mean over the true curves' grid (an estimate: at the mean of its points inside that range), so
that curves defined up to a constant (ALE) compare with the others.

``importance``: one panel per scenario: the importance of each feature for each method
filling the role ``importance`` and each learner (mean over repetitions with a 2-SE bar),
and the scenario's true importances (``importance`` truth) as open markers.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.metrics.truth_errors import grid_points

#: the truth columns that hold an importance (table ``importance``), as labelled
IMPORTANCE_TRUTHS = {"marginal": "true marginal PFI", "conditional": "true conditional PFI"}
#: true curves drawn, by estimand name, in this order
CURVES = ("pd", "conditional", "ale", "interventional")
TRUTH_STYLES = {"pd": "-", "conditional": "--", "ale": ":", "interventional": "-."}


def _estimand(truth: pd.DataFrame) -> pd.Series:
    """The estimand of each truth row (named ``kind`` or ``estimand`` by the truth)."""
    return truth["kind"] if "kind" in truth else truth["estimand"]


def _mean_curve(curve: pd.DataFrame) -> pd.DataFrame:
    """The mean curve of one method and learner over repetitions, point by point
    (:func:`imlbench.metrics.truth_errors.grid_points`; x is the mean of the points' x)."""
    df = curve.sort_values(["rep", "x"]).reset_index(drop=True)
    points = grid_points(df, ["method", "learner"])
    return df.groupby(points)[["x", "value"]].mean()


def _centred(curve: pd.DataFrame, lo: float, hi: float) -> np.ndarray:
    """``curve``'s values less their mean over the points with x in [lo, hi] (all points when
    none is)."""
    inside = curve["x"].between(lo, hi)
    base = curve.loc[inside if inside.any() else curve.index, "value"].mean()
    return curve["value"].to_numpy() - base


def _series_colours(keys: list[tuple[str, str]]) -> dict[tuple[str, str], str]:
    import matplotlib

    cmap = matplotlib.colormaps["Dark2"]  # no blue: blue is the truth's colour
    return {key: cmap(i % 8) for i, key in enumerate(keys)}


@figure("effects", methods=("effects",), truths=("effects",))
def effects(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    from matplotlib.lines import Line2D

    est = inputs.estimates("effects")
    truth = inputs.truth("effects")
    truth = truth.assign(estimand=_estimand(truth))
    truth = truth[truth["estimand"].isin(CURVES)]
    if "row" in truth:  # per-row truths (ICE) are not curves of the feature
        truth = truth[truth["row"] < 0]
    panels = [(sc, f) for sc in inputs.scenarios
              for f in st.feature_order(est.loc[est["scenario"] == sc, "feature"])]
    series = sorted({(m, lrn) for m, lrn in zip(est["method"], est["learner"], strict=True)})
    colours = _series_colours(series)
    ncols = min(4, len(panels))
    fig, style = st.new_figure(spec, rows=st.panel_rows(len(panels), ncols))
    drawn: set[str] = set()
    for ax, (scenario, feature) in zip(st.panel_grid(fig, len(panels), ncols), panels,
                                       strict=True):
        mine = est[(est["scenario"] == scenario) & (est["feature"] == feature)]
        true = truth[(truth["scenario"] == scenario) & (truth["feature"] == feature)]
        lo, hi = (true["x"].min(), true["x"].max()) if len(true) else (-np.inf, np.inf)
        for key in series:
            curve = mine[(mine["method"] == key[0]) & (mine["learner"] == key[1])]
            if len(curve):
                mean = _mean_curve(curve)
                ax.plot(mean["x"], _centred(mean, lo, hi), color=colours[key], linewidth=2.2,
                        alpha=0.8)
        for estimand in CURVES:
            curve = true[true["estimand"] == estimand].sort_values("x")
            if len(curve):
                drawn.add(estimand)
                ax.plot(curve["x"], _centred(curve, lo, hi), color=st.TRUTH,
                        linestyle=TRUTH_STYLES[estimand], linewidth=0.9)
        ax.set_title(f"{scenario}: {feature}")
        ax.set_xlabel(feature)
    fig.supylabel("effect, centred at its mean over the grid")
    handles = [Line2D([], [], color=colours[key], label=f"{key[0]}, {key[1]}")
               for key in series]
    handles += [Line2D([], [], color=st.TRUTH, linestyle=TRUTH_STYLES[e], label=f"true {e}")
                for e in CURVES if e in drawn]
    st.legend_below(fig, handles, ncols=min(4, len(handles)))
    st.save(fig, style, out_png, out_pdf)


@figure("importance", methods=("importance",), truths=("importance",))
def importance(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    from matplotlib.lines import Line2D

    est = inputs.estimates("importance")
    truth = inputs.truth("importance")
    series = sorted({(m, lrn) for m, lrn in zip(est["method"], est["learner"], strict=True)})
    colours = _series_colours(series)
    truths = [c for c in IMPORTANCE_TRUTHS if c in truth]
    markers = dict(zip(truths, ("o", "s"), strict=False))
    ncols = min(2, len(inputs.scenarios))
    fig, style = st.new_figure(spec, rows=st.panel_rows(len(inputs.scenarios), ncols))
    for ax, scenario in zip(st.panel_grid(fig, len(inputs.scenarios), ncols),
                            inputs.scenarios, strict=True):
        mine = est[est["scenario"] == scenario]
        features = st.feature_order(mine["feature"])
        position = {f: i for i, f in enumerate(features)}
        for i, key in enumerate(series):
            rows = mine[(mine["method"] == key[0]) & (mine["learner"] == key[1])]
            stats = rows.groupby("feature")["value"].agg(["mean", "std", "count"])
            if stats.empty:
                continue
            x = np.array([position[f] for f in stats.index]) + st.dodge(i, len(series))
            se = (stats["std"] / np.sqrt(stats["count"])).fillna(0.0)
            ax.errorbar(x, stats["mean"], yerr=2 * se, fmt=".", color=colours[key])
        true = truth[truth["scenario"] == scenario]
        for column in truths:
            ok = true["feature"].isin(position)
            ax.scatter([position[f] for f in true.loc[ok, "feature"]], true.loc[ok, column],
                       marker=markers[column], facecolors="none", edgecolors=st.TRUTH)
        ax.set_xticks(range(len(features)), features)
        ax.set_title(scenario)
    fig.supylabel("importance (mean over repetitions, ± 2 SE)")
    handles = [Line2D([], [], color=colours[key], marker=".", linestyle="",
                      label=f"{key[0]}, {key[1]}") for key in series]
    handles += [Line2D([], [], color=st.TRUTH, marker=markers[c], markerfacecolor="none",
                       linestyle="", label=IMPORTANCE_TRUTHS[c]) for c in truths]
    st.legend_below(fig, handles, ncols=min(4, len(handles)))
    st.save(fig, style, out_png, out_pdf)
