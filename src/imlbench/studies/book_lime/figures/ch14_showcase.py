"""Figures of the book's ch. 14 sketches and showcases: LIME on sin(x/s) with repeated samples
(Figs. 14.1-14.4), the data against the target (Figs. 14.5, 14.9) and the mean weight with
its empirical 2.5% / 97.5% band over repeated explanations (Figs. 14.6-14.8, 14.10, 14.11)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.metrics.lime_summaries import coefficient_bands
from imlbench.params import choice, items, number, table, text

#: the book's colours: black box blue, surrogate red, explained point yellow
#: the book's colours (:data:`imlbench.figures.style.BOOK`): the LIME line, the explained
#: point, the fan of lines over repeats
SURROGATE, POINT, FAN = st.BOOK["lime"], st.BOOK["explained"], st.BOOK["fan"]


@figure("book_lime.sketch", methods=("lime",), tables=("data",), params={
    "scale": number(above=0), "kernel_width": number(above=0), "point": text("book")})
def m_sketch(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
             scale: float, kernel_width: float, point: str) -> None:
    """f(x) = sin(x / ``scale``) on the data's range, the explained ``point`` with x +-
    sqrt(``kernel_width``), and the surrogate lines a + b x of its repeated explanations: the
    first two (the book's two seeds) in red, the others in grey."""
    est = inputs.estimates("lime")
    ex = est[est["point"] == point].sort_values("repeat")
    if ex.empty or "intercept" not in ex:
        raise ValueError(f"figure {spec['title']!r}: no LIME rows of point {point!r} with "
                         "surrogate_fit")
    data = inputs.data()
    lo, hi = float(data["x"].min()), float(data["x"].max())
    xs = np.linspace(lo, hi, 800)
    x0 = float(ex["x"].iloc[0])
    half = np.sqrt(kernel_width)
    fig, style = st.new_figure(spec, rows=1, width=10, panel_height=3.6)
    axes = st.panel_grid(fig, 2, 2, sharey=True)
    lines = ex[["repeat", "intercept", "value"]].to_numpy()
    for k, ax in enumerate(axes):
        for _, a, b in lines[2:]:
            ax.plot(xs, a + b * xs, color=FAN, linewidth=0.5, alpha=0.4, zorder=1)
        ax.plot(xs, np.sin(xs / scale), color=st.TRUTH, linewidth=1.8, label="black box f")
        if k < len(lines):
            _, a, b = lines[k]
            ax.plot(xs, a + b * xs, color=SURROGATE, linewidth=1.8,
                    linestyle="-" if k == 0 else "--", label=f"surrogate, repeat {k + 1}")
        ax.scatter([x0], [np.sin(x0 / scale)], s=90, c=POINT, edgecolors="black", zorder=5,
                   label="explained point")
        for edge in (x0 - half, x0 + half):
            ax.axvline(edge, color="black", linestyle=":", linewidth=0.9)
        ax.set_ylim(-1.6, 1.6)
        ax.set_xlim(lo, hi)
        ax.set_xlabel("x")
        ax.set_title(f"repeat {k + 1} (seed {k + 1} in the book); grey: "
                     f"{max(len(lines) - 2, 0)} further repeats")
        ax.legend(loc="lower left", frameon=False)
    axes[0].set_ylabel(f"sin(x / {scale:g})")
    st.save(fig, style, out_png, out_pdf)


@figure("book_lime.data_panels", tables=("data",), params={
    "kind": choice("scatter", ("scatter", "box")), "target": text("y")})
def m_data_panels(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                  kind: str, target: str) -> None:
    """Every feature of the first scenario's data against y (named ``target``): scatter
    plots (``scatter``) or boxplots by level (``box``)."""
    data = inputs.data()
    data = data[data["scenario"] == inputs.scenarios[0]]
    features = [c for c in data.columns if c not in ("y", "rep", "split", "scenario", "chunk")]
    if not features:
        raise ValueError(f"figure {spec['title']!r}: no feature columns in the data")
    ncols = 4
    fig, style = st.new_figure(spec, rows=st.panel_rows(len(features), ncols), width=11,
                               panel_height=2.3)
    axes = st.panel_grid(fig, len(features), ncols, sharey=True)
    for ax, name in zip(axes, features, strict=True):
        if kind == "scatter":
            ax.scatter(data[name], data["y"], s=5, c="0.25", alpha=0.5, linewidths=0)
        else:
            levels = np.sort(data[name].unique())
            groups = [data.loc[data[name] == v, "y"].to_numpy() for v in levels]
            ax.boxplot(groups, positions=np.arange(len(levels)), widths=0.6,
                       flierprops={"markersize": 2})
            ax.set_xticks(np.arange(len(levels)), [f"{v:g}" for v in levels])
        ax.set_xlabel(name)
    for ax in axes[::ncols]:
        ax.set_ylabel(f"{target} / sd")
    st.save(fig, style, out_png, out_pdf)


PANEL = table({"method": text(), "learner": text(), "point": text(), "title": text("")})


@figure("book_lime.weight_bands", methods=("lime",), params={"panels": items(PANEL)})
def m_weight_bands(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                   panels: list[dict]) -> None:
    """One panel per item of ``panels`` (a study method, learner and point label): per
    feature the mean LIME weight over the repeats (point) and its empirical 2.5% - 97.5%
    band (bar), book ch. 14's weight-stability plot (Sect. 14.3 (a))."""
    est = inputs.estimates("lime")
    ncols = 2
    fig, style = st.new_figure(spec, rows=st.panel_rows(len(panels), ncols), width=10,
                               panel_height=3.2)
    axes = st.panel_grid(fig, len(panels), ncols, sharey=False)
    for ax, panel in zip(axes, panels, strict=True):
        rows = est[(est["method"] == panel["method"]) & (est["learner"] == panel["learner"])
                   & (est["point"] == panel["point"])]
        if rows.empty:
            raise ValueError(f"figure {spec['title']!r}: no LIME rows of method "
                             f"{panel['method']!r}, learner {panel['learner']!r}, point "
                             f"{panel['point']!r}")
        bands = coefficient_bands(rows, [], how="quantile")
        order = list(dict.fromkeys(rows["feature"]))
        bands = bands.set_index("feature").loc[order[::-1]]
        y = np.arange(len(bands))
        ax.hlines(y, bands["lo"], bands["hi"], color="0.35", linewidth=2.2)
        ax.scatter(bands["mean"], y, s=22, c=SURROGATE, zorder=3)
        ax.axvline(0, color="black", linewidth=0.6)
        ax.set_yticks(y, bands.index)
        ax.set_xlabel("LIME weight")
        ax.set_title(panel["title"] or f"{panel['learner']}, {panel['method']}, "
                     f"{panel['point']}")
    st.save(fig, style, out_png, out_pdf)
