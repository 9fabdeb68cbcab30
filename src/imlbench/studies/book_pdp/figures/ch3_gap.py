"""Figures of the book's chapter 3.1 and 3.4 (Kronseder): the toy data with the density of x2
at the side, complete or with the gap (Figs 3.1, 3.2); the PDPs of a random forest and an SVM
against the true PD, complete data above the data with the gap (Figs 3.25, 3.26); the potato
prediction function with its observations (Fig. 3.27) and its 2-D and 1-D PDPs (Fig. 3.28).
The categorical simulation (Figs 3.22-3.24) is a grid of cases (rows) and features (columns)
drawn with the layer's curve-grid panels, each column on its own axes (the features' ranges
differ: two levels, three levels, x3 from about -2 to 26).

A scatter or a surface shows the first data set (repetition); curves show every data set thin
and their mean thick.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from imlbench.curves import on_common_grid, rep_curves
from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.curve_grid import draw_repetitions, draw_truths
from imlbench.figures.inputs import FigureInputs
from imlbench.params import items, number, table, text

#: the book's colours of the learners' PDPs (random forest black, SVM blue), in the order of
#: the figure's ``learners``
LEARNER_COLOURS = ("black", "#1f5fd1", "#2ca02c", "#9467bd")
#: points at which the side density of x2 is drawn
DENSITY_POINTS = 200


def first_data(inputs: FigureInputs, scenario: str) -> pd.DataFrame:
    """The training rows of the first repetition of ``scenario``'s first data chunk."""
    data = inputs.data()
    data = data[data["scenario"] == scenario]
    if data.empty:
        raise ValueError(f"no data of scenario {scenario} among the figure's inputs")
    if "rep" in data:
        data = data[data["rep"] == data["rep"].min()]
    if "split" in data:
        data = data[data["split"] == "train"]
    return data


def _labels(given: list[str] | None, default: list[str], key: str) -> list[str]:
    if given is None:
        return default
    if len(given) != len(default):
        raise ValueError(f"params.{key}: {len(given)} labels for {len(default)}; allowed: one "
                         "label each")
    return list(given)


def _in_box(data: pd.DataFrame, box: list[float]) -> np.ndarray:
    """Rows with x1 in (lo1, hi1] and x2 in (lo2, hi2] (the book's gap)."""
    lo1, hi1, lo2, hi2 = box
    return ((data["x1"] > lo1) & (data["x1"] <= hi1) & (data["x2"] > lo2)
            & (data["x2"] <= hi2)).to_numpy()


@figure("book_pdp.gap_scatter", tables=("data",), params={
    "column_labels": items(text(), None, nullable=True),
    "box": items(number(), None, length=4, nullable=True)})
def gap_scatter(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                column_labels: list[str] | None, box: list[float] | None) -> None:
    """One panel per scenario: x2 against x1 of its first data set, and at its right the
    kernel density of x2 against the standard normal density (dashed); ``box`` (x1 from, to,
    x2 from, to) outlines the gap."""
    from matplotlib.patches import Rectangle
    from scipy.stats import gaussian_kde, norm

    scenarios = inputs.scenarios
    labels = _labels(column_labels, scenarios, "column_labels")
    fig, style = st.new_figure(spec, rows=1, width=5.2 * len(scenarios), panel_height=4.2)
    grid = fig.add_gridspec(1, 2 * len(scenarios), width_ratios=[4, 1] * len(scenarios))
    for i, (scenario, label) in enumerate(zip(scenarios, labels, strict=True)):
        data = first_data(inputs, scenario)
        ax = fig.add_subplot(grid[0, 2 * i])
        side = fig.add_subplot(grid[0, 2 * i + 1], sharey=ax)
        ax.scatter(data["x1"], data["x2"], s=5, color="black", alpha=0.5, linewidths=0)
        if box is not None:
            ax.add_patch(Rectangle((box[0], box[2]), box[1] - box[0], box[3] - box[2],
                                   fill=False, edgecolor=st.QUERY, linewidth=1.2))
        ax.set_xlabel("x1")
        ax.set_ylabel("x2")
        ax.set_title(f"{label} (n = {len(data)})")
        x2 = data["x2"].to_numpy(float)
        y = np.linspace(min(x2.min(), -3.5), max(x2.max(), 3.5), DENSITY_POINTS)
        side.plot(gaussian_kde(x2)(y), y, color="black", linewidth=1.4)
        side.plot(norm.pdf(y), y, color="0.5", linestyle="--", linewidth=1.0)
        side.set_xlabel("density of x2")
        side.tick_params(labelleft=False)
        side.set_xlim(left=0)
    st.save(fig, style, out_png, out_pdf)


@figure("book_pdp.gap_pdps", methods=("curves",), truths=("effects",), tables=("data",),
        params={"learners": items(text()), "learner_labels": items(text(), None, nullable=True),
                "row_labels": items(text(), None, nullable=True),
                "gap": items(number(), [0.0, 1.5, 0.0, 1.5], length=4)})
def gap_pdps(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
             learners: list[str], learner_labels: list[str] | None,
             row_labels: list[str] | None, gap: list[float]) -> None:
    """Rows of scenarios (complete data, data with the gap), columns of features: each
    learner's PDPs in its colour (each data set thin, their mean thick) and the true PD in red;
    the feature's range of the ``gap`` (x1 from, to, x2 from, to) is shaded in rows whose first
    data set has no row inside it."""
    from matplotlib.lines import Line2D

    est = inputs.estimates("curves")
    truth = inputs.truth("effects")
    unknown = [learner for learner in learners if learner not in set(est["learner"])]
    if unknown:
        raise ValueError(f"params.learners: no estimates of {', '.join(unknown)}; allowed: "
                         f"{', '.join(sorted(est['learner'].unique()))}")
    names = _labels(learner_labels, learners, "learner_labels")
    features = st.feature_order(est["feature"])
    rows = _labels(row_labels, inputs.scenarios, "row_labels")
    fig, style = st.new_figure(spec, rows=len(rows), width=4.2 * len(features) + 1.0,
                               panel_height=3.0)
    axes = fig.subplots(len(rows), len(features), squeeze=False)
    for r, (scenario, row) in enumerate(zip(inputs.scenarios, rows, strict=True)):
        empty_gap = not _in_box(first_data(inputs, scenario), gap).any()
        for c, feature in enumerate(features):
            ax = axes[r, c]
            for learner, colour in zip(learners, LEARNER_COLOURS, strict=False):
                mine = est[(est["scenario"] == scenario) & (est["feature"] == feature)
                           & (est["learner"] == learner)]
                if mine.empty:
                    continue
                curves = on_common_grid(rep_curves(mine))
                x = curves.columns.to_numpy(float)
                for _, curve in curves.iterrows():
                    ax.plot(x, curve.to_numpy(), color=colour, linewidth=0.5, alpha=0.3)
                ax.plot(x, curves.mean(axis=0).to_numpy(), color=colour, linewidth=2.0)
            draw_truths(ax, truth[(truth["scenario"] == scenario)
                                  & (truth["feature"] == feature)], ["pd"], "none")
            if empty_gap:
                lo, hi = gap[:2] if feature == "x1" else gap[2:]
                ax.axvspan(lo, hi, color="0.85", zorder=0)
            ax.set_title(f"{row}: PDP of {feature}")
            ax.set_xlabel(feature)
            ax.set_ylabel("partial dependence")
    handles = [Line2D([], [], color=colour, linewidth=2.0, label=name)
               for name, colour in zip(names, LEARNER_COLOURS, strict=False)]
    handles += [Line2D([], [], color="#d62728", linewidth=1.4, label="true PD"),
                Line2D([], [], color="0.85", linewidth=6, label="the gap's range")]
    st.legend_below(fig, handles, ncols=len(handles))
    st.save(fig, style, out_png, out_pdf)


@figure("book_pdp.case_pdps", methods=("curves",), truths=("effects",), params={
    "learner": text(), "features": items(text()),
    "row_labels": items(text(), None, nullable=True),
    "levels": table(value=items(text()), default={})})
def case_pdps(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *, learner: str,
              features: list[str], row_labels: list[str] | None,
              levels: dict[str, list[str]]) -> None:
    """Rows of scenarios (the cases), columns of ``features``: the PDPs of ``learner`` over the
    repetitions (grey each, black their mean +- sd) and the true PD (red); the axes are shared
    within a column; ``levels`` names the codes 0, 1, ... of a categorical feature's axis."""
    from matplotlib.lines import Line2D

    est = inputs.estimates("curves")
    est = est[est["learner"] == learner]
    if est.empty:
        raise ValueError(f"params.learner: {learner!r} has no estimates here; allowed: "
                         f"{', '.join(sorted(inputs.estimates('curves')['learner'].unique()))}")
    truth = inputs.truth("effects")
    rows = _labels(row_labels, inputs.scenarios, "row_labels")
    fig, style = st.new_figure(spec, rows=len(rows), width=3.4 * len(features) + 1.0,
                               panel_height=2.6)
    axes = fig.subplots(len(rows), len(features), squeeze=False, sharex="col", sharey="col")
    for r, (scenario, row) in enumerate(zip(inputs.scenarios, rows, strict=True)):
        for c, feature in enumerate(features):
            ax = axes[r, c]
            mine = est[(est["scenario"] == scenario) & (est["feature"] == feature)]
            if mine.empty:
                ax.text(0.5, 0.5, "no estimates", transform=ax.transAxes, ha="center")
            else:
                draw_repetitions(ax, mine, anchor="none", individual=True, error_bars="sd",
                                 error_points=12)
            draw_truths(ax, truth[(truth["scenario"] == scenario)
                                  & (truth["feature"] == feature)], ["pd"], "none")
            if feature in levels:
                ax.set_xticks(range(len(levels[feature])), levels[feature])
            if r == 0:
                ax.set_title(f"PDP of {feature}")
            if c == 0:
                ax.set_ylabel(f"{row}\npartial dependence")
            if r == len(rows) - 1:
                ax.set_xlabel(feature)
    handles = [Line2D([], [], color=st.ICE_GREY, linewidth=0.8, label="each data set"),
               Line2D([], [], color="black", linewidth=2.0, label="mean +- sd"),
               Line2D([], [], color="#d62728", linewidth=1.4, label="true PD")]
    st.legend_below(fig, handles, ncols=len(handles))
    st.save(fig, style, out_png, out_pdf)


def _first_surface(inputs: FigureInputs) -> pd.DataFrame:
    surface = inputs.estimates("surface")
    if "rep" in surface:
        surface = surface[surface["rep"] == surface["rep"].min()]
    return surface


def _draw_surface(fig, ax, surface: pd.DataFrame, label: str) -> None:
    x, z, v = st.surface_grid(surface, "mean")
    mesh = ax.pcolormesh(x, z, v, cmap=st.SURFACE_CMAP, shading="nearest")
    fig.colorbar(mesh, ax=ax, label=label)
    ax.set_xlabel("x1")
    ax.set_ylabel("x2")


@figure("book_pdp.potato_surface", methods=("surface",), tables=("data",))
def potato_surface(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    """The prediction function as a colour scale (its 2-D PDP on the grid of role
    ``surface``, first repetition) with the first data set's observations as points."""
    fig, style = st.new_figure(spec, rows=1, width=6.4, panel_height=5.0)
    ax = fig.subplots()
    _draw_surface(fig, ax, _first_surface(inputs), "prediction")
    data = first_data(inputs, inputs.scenarios[0])
    ax.scatter(data["x1"], data["x2"], s=12, color="white", edgecolors="black",
               linewidths=0.6)
    ax.set_title(f"prediction function and the {len(data)} observations of the first data set")
    ax.grid(False)
    st.save(fig, style, out_png, out_pdf)


@figure("book_pdp.potato_pdps", methods=("surface", "curves"))
def potato_pdps(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    """Three panels: the 2-D PDP of role ``surface`` (first repetition) as a colour scale, and
    the PDPs of x1 and x2 of role ``curves`` (each repetition thin, their mean thick)."""
    est = inputs.estimates("curves")
    features = st.feature_order(est["feature"])
    fig, style = st.new_figure(spec, rows=1, width=5.0 + 3.8 * len(features),
                               panel_height=3.8)
    axes = fig.subplots(1, 1 + len(features), squeeze=False,
                        width_ratios=[1.3] + [1.0] * len(features))[0]
    _draw_surface(fig, axes[0], _first_surface(inputs), "2-D partial dependence")
    axes[0].set_title("2-D PDP of x1 and x2")
    axes[0].grid(False)
    for ax, feature in zip(axes[1:], features, strict=True):
        curves = on_common_grid(rep_curves(est[est["feature"] == feature]))
        x = curves.columns.to_numpy(float)
        for _, curve in curves.iterrows():
            ax.plot(x, curve.to_numpy(), color=st.ICE_GREY, linewidth=0.5, alpha=0.5)
        ax.plot(x, curves.mean(axis=0).to_numpy(), color="black", linewidth=2.0)
        ax.axvline(0.5, color="0.6", linestyle=":", linewidth=1.0)
        ax.set_title(f"PDP of {feature} ({len(curves)} data sets)")
        ax.set_xlabel(feature)
        ax.set_ylabel("partial dependence")
    st.save(fig, style, out_png, out_pdf)
