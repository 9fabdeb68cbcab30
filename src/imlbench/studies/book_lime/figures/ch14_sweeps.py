"""Figures of the book's ch. 14.4-14.5 (LIME and sampling): the average sd of the LIME weights
along a sweep, one line per sampling option (Figs 14.12-14.14, 14.16, 14.17, the last with the
training error on a second axis), and LIME lines on the volatile one-feature surface
(Figs 14.15, 14.18).

The curves are those the claims test: :func:`imlbench.metrics.lime_claims.stability_curve`
(the average sd over repeats per point and feature, averaged; bars +- 1 SE over the points).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.metrics.claims import NoData, Tables
from imlbench.metrics.lime_claims import stability_curve
from imlbench.params import flag, items, number, table, text

#: one line of a panel: its label and its method (or, along ``method``, one method per step)
SERIES = table({"label": text(), "method": text(), "methods": items(text())})
#: one panel: a curve along ``along`` (as the claims define it) for each series
PANEL = table({
    "title": text(), "along": text(), "scenario": text(), "learner": text(),
    "scenarios": items(text()), "learners": items(text()), "at": items(number()),
    "xlabel": text(), "log2_x": flag(), "selected_only": flag(), "series": items(SERIES),
})
CURVE_PARAMS = {"panels": items(PANEL), "ylabel": text("average sd of the LIME weights")}
#: the book's colours for its sampling options (:data:`imlbench.figures.style.BOOK_SAMPLING`)
OPTION_COLOURS, FALLBACK = st.BOOK_SAMPLING, st.BOOK_PALETTES["more"]


def _curve(est: pd.DataFrame, panel: dict, series: dict) -> pd.DataFrame | None:
    """The series' average sd per step (``x``, ``sd``, ``se``), or None without rows."""
    claim = {"id": panel["title"], "along": panel["along"], "at": panel.get("at"),
             "scenarios": panel.get("scenarios"), "learners": panel.get("learners"),
             "methods": series.get("methods"), "between": None,
             "selected_only": panel.get("selected_only", False),
             "where": {"scenario": panel.get("scenario") or (panel.get("scenarios") or [""])[0]}}
    learner = panel.get("learner") or (panel.get("learners") or [""])[0]
    method = series.get("method") or (series.get("methods") or [""])[0]
    c = stability_curve(claim, Tables(pd.DataFrame(), {}, est), learner, method)
    return None if isinstance(c, NoData) else c.table


def _panel(ax, est: pd.DataFrame, panel: dict, ylabel: str) -> None:
    for k, series in enumerate(panel["series"]):
        c = _curve(est, panel, series)
        if c is None:
            continue
        colour = OPTION_COLOURS.get(series["label"], FALLBACK[k % len(FALLBACK)])
        ax.errorbar(c["x"], c["sd"], yerr=c["se"], color=colour, marker="o", markersize=3.5,
                    linewidth=1.4, capsize=2, label=series["label"])
    if panel.get("log2_x"):
        ax.set_xscale("log", base=2)
        if panel.get("at"):
            ax.set_xticks(panel["at"], [f"{a:g}" for a in panel["at"]])
            ax.minorticks_off()
    ax.set_title(panel["title"])
    ax.set_xlabel(panel.get("xlabel", panel["along"]))
    ax.set_ylabel(ylabel)
    ax.set_ylim(bottom=0)
    ax.legend(frameon=False, title="sampling")


def _fit_axis(ax, fits: pd.DataFrame, panel: dict) -> None:
    """The training MSE of each step's model on a second axis (along ``learner``)."""
    mse = fits[fits["metric"] == "mse_train"].groupby("learner")["value"].mean()
    learners = panel.get("learners") or []
    at = panel.get("at") or list(range(1, len(learners) + 1))
    x = [a for a, lrn in zip(at, learners, strict=True) if lrn in mse.index]
    y = [mse[lrn] for lrn in learners if lrn in mse.index]
    twin = ax.twinx()
    twin.plot(x, y, color="black", linestyle="--", linewidth=1.2, label="training MSE")
    twin.set_ylabel("training MSE (dashed)")
    twin.set_ylim(bottom=0)
    twin.grid(False)


def draw_curves(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, panels: list,
                ylabel: str, fits: pd.DataFrame | None = None) -> None:
    """One panel per entry of ``panels``, side by side."""
    est = inputs.estimates("lime")
    fig, style = st.new_figure(spec, rows=1, width=5.2 * len(panels))
    axes = fig.subplots(1, len(panels), squeeze=False)[0]
    for ax, panel in zip(axes, panels, strict=True):
        _panel(ax, est, panel, ylabel)
        if fits is not None:
            _fit_axis(ax, fits, panel)
    st.save(fig, style, out_png, out_pdf)


@figure("book_lime.sd_curves", methods=("lime",), params=CURVE_PARAMS)
def sd_curves(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *, panels: list,
              ylabel: str) -> None:
    """Figs 14.12-14.14, 14.16: the average sd of the LIME weights along a sweep, one line per
    sampling option, one panel per data set."""
    draw_curves(inputs, spec, out_png, out_pdf, panels, ylabel)


@figure("book_lime.sd_curves_fit", methods=("lime", "fit"), params=CURVE_PARAMS)
def sd_curves_fit(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                  panels: list, ylabel: str) -> None:
    """Fig. 14.17: :func:`sd_curves` along the learners, with each learner's training MSE
    (``model_fit``'s ``mse_train``) on a second axis."""
    draw_curves(inputs, spec, out_png, out_pdf, panels, ylabel, fits=inputs.estimates("fit"))


SURFACE_PANEL = table({"title": text(), "method": text(), "learner": text()})


def widest_plateau(rows: pd.DataFrame, data_x: np.ndarray) -> str:
    """The label of the explained point farthest from every other data row (a tree ensemble
    fitted to these rows is flat between its neighbours' midpoints: the widest plateau)."""
    points = rows.drop_duplicates("point")
    gap = [np.sort(np.abs(data_x - x))[1] if len(data_x) > 1 else np.inf
           for x in points["x"].to_numpy(float)]
    return str(points["point"].iloc[int(np.argmax(gap))])


@figure("book_lime.lime_surface", methods=("lime", "surface"), tables=("data",), params={
    "panels": items(SURFACE_PANEL), "feature": text(), "target": text("y"),
    "point": text(None, nullable=True),
    "xlim": items(number(), None, length=2, nullable=True)})
def lime_surface(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                 panels: list, feature: str, target: str, point: str | None,
                 xlim: list | None) -> None:
    """Figs 14.15, 14.18: the black box's prediction surface of one feature (its PDP, which
    for a one-feature model is the surface itself), the training rows, and one explained
    point's LIME lines (intercept + slope x) of every repeat, one panel per LIME method; the
    point is ``point`` (a label) or the one on the widest plateau (:func:`widest_plateau`)."""
    est, surface = inputs.estimates("lime"), inputs.estimates("surface")
    data = inputs.data()
    fig, style = st.new_figure(spec, rows=1, width=5.2 * len(panels))
    axes = fig.subplots(1, len(panels), squeeze=False)[0]
    for ax, panel in zip(axes, panels, strict=True):
        s = surface[surface["learner"] == panel["learner"]].sort_values("x")
        s = inputs.first_rep(s)
        ax.plot(s["x"], s["value"], color="#1f77b4", linewidth=1.4, label="black box")
        rows = inputs.first_rep(data)
        ax.scatter(rows[feature], rows[target], s=12, color="black", zorder=3, label="data")
        r = est[(est["method"] == panel["method"]) & (est["learner"] == panel["learner"])]
        label = point or widest_plateau(r, rows[feature].to_numpy(float))
        first = r[r["point"] == label]
        x0 = float(first["x"].iloc[0])
        grid = np.linspace(*(xlim or (s["x"].min(), s["x"].max())), 50)
        for k, (_, line) in enumerate(first.iterrows()):
            ax.plot(grid, line["intercept"] + line["value"] * grid, color="#d62728", alpha=0.5,
                    linewidth=1.0, label=f"LIME ({len(first)} repeats)" if k == 0 else None)
        ax.axvline(x0, color="#e6b800", linewidth=2, label="explained point")
        lo, hi = s["value"].min(), s["value"].max()
        pad = 0.3 * (hi - lo)
        ax.set_ylim(lo - pad, hi + pad)
        if xlim:
            ax.set_xlim(*xlim)
        ax.set_title(panel["title"])
        ax.set_xlabel(feature)
        ax.set_ylabel(target)
        ax.legend(frameon=False, fontsize=7, loc="upper right")
    st.save(fig, style, out_png, out_pdf)
