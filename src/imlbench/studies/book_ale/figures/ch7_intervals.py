"""Ch. 7 of the LMU book: the number K of ALE intervals on smooth, shaky and spiky functions.

``book_ale.scatter``: the data of a scenario's first repetition (Figs. 7.1, 7.7).
``book_ale.envelope`` and ``book_ale.envelope_width``: the range of the estimates over the data
sets (Figs. 7.5, 7.6). ``book_ale.k_error``: the error of ALE against K (beyond the book). The
estimates against the true ALE, one panel per K (Figs. 7.2-7.4, 7.8, 7.9, 7.11, 7.14, 7.15),
are the layer's ``rep_curve_grid``.

Anchoring: an ALE is defined up to a constant. Every curve of a panel (each repetition's
estimate and the truth) is centred at its mean over one span: the x range that every
repetition covers, within the truth's grid. The means are integrals of the piecewise-linear
curves (not means over their points), so curves with different edges are centred alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.curve_grid import intervals
from imlbench.figures.inputs import FigureInputs
from imlbench.params import choice, feature_name, flag, integer, items, number, table, text

if TYPE_CHECKING:
    import pandas as pd

ALE_COLOUR = st.METHODS["ale"].colour
#: the true ALE: the house blue, solid (dotted or dashed lines break up on shaky curves)
TRUTH_LINE = {"color": st.TRUTH, "linestyle": "-", "linewidth": 1.3, "alpha": 0.9, "zorder": 6}
LIMITS = items(number(), length=2, default=None, nullable=True)


# --- shared helpers ------------------------------------------------------------------------


def rep_lines(est: pd.DataFrame, first: int | None = None,
              ) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """Each repetition's curve (x sorted, value) of one method and feature; of the ``first``
    repetitions only, when given."""
    out = {}
    for rep, g in est.groupby("rep"):
        if first is not None and len(out) == first:
            break
        curve = g.groupby("x")["value"].mean()
        out[int(rep)] = (curve.index.to_numpy(float), curve.to_numpy(float))
    return out


def integral_mean(x: np.ndarray, y: np.ndarray, lo: float, hi: float) -> float:
    """The mean over [lo, hi] of the piecewise-linear curve through (x, y) (constant beyond
    its ends)."""
    if hi <= lo:
        return float(np.interp(lo, x, y))
    at = np.unique(np.concatenate([[lo, hi], x[(x > lo) & (x < hi)]]))
    return float(np.trapezoid(np.interp(at, x, y), at) / (hi - lo))


def common_span(lines: Mapping[int, tuple[np.ndarray, np.ndarray]],
                limit: tuple[float, float] | None = None) -> tuple[float, float]:
    """The x range every curve covers, within ``limit`` (the truth's grid) where given."""
    lo = max(float(x[0]) for x, _ in lines.values())
    hi = min(float(x[-1]) for x, _ in lines.values())
    if limit is not None and max(lo, limit[0]) < min(hi, limit[1]):
        lo, hi = max(lo, limit[0]), min(hi, limit[1])
    return lo, hi


def centred_reps(lines: Mapping[int, tuple[np.ndarray, np.ndarray]],
                 span: tuple[float, float]) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """The curves, each less its mean over ``span``."""
    return {r: (x, y - integral_mean(x, y, *span)) for r, (x, y) in lines.items()}


def truth_line(truth: pd.DataFrame, scenario: str, feature: str) -> tuple[np.ndarray,
                                                                           np.ndarray] | None:
    """The closed-form ALE curve (x, value) of ``feature`` in ``scenario``; None without one."""
    sel = truth[(truth["scenario"] == scenario) & (truth["feature"] == feature)
                & (truth["estimand"] == "ale") & (truth["row"] < 0)]
    if sel.empty:
        return None
    curve = sel.groupby("x")["value"].mean()
    return curve.index.to_numpy(float), curve.to_numpy(float)


# --- scatter (Figs. 7.1, 7.7) --------------------------------------------------------------


@figure("book_ale.scatter", tables=("data",), params={
    "x": feature_name("x1"),
    "y": feature_name("x2"),
    "band": number(None, minimum=0, nullable=True),
    "histogram": flag(False),
    "bins": integer(40, minimum=2),
})
def scatter(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *, x: str, y: str,
            band: float | None, histogram: bool, bins: int) -> None:
    """The first repetition's rows, ``y`` against ``x``, one panel per scenario; ``band``:
    the lines y = x ± band (the support of y given x); ``histogram``: the histogram of x
    beside each."""
    from matplotlib.lines import Line2D

    data = inputs.data()
    scenarios = [s for s in inputs.scenarios if s in set(data["scenario"])]
    ncols = 2 if histogram else 1
    fig, style = st.new_figure(spec, rows=len(scenarios), width=5.0 * ncols + 0.5,
                               panel_height=4.2)
    axes = fig.subplots(len(scenarios), ncols, squeeze=False)
    for i, scenario in enumerate(scenarios):
        rows = inputs.first_data(scenario)
        ax = axes[i, 0]
        ax.scatter(rows[x], rows[y], s=12, color="0.2", alpha=0.7, linewidths=0)
        if band is not None:
            lo, hi = float(rows[x].min()), float(rows[x].max())
            for sign in (-1, 1):
                ax.plot([lo, hi], [lo + sign * band, hi + sign * band], color=st.TRUTH,
                        linestyle="--", linewidth=1.0)
        ax.set_xlabel(x)
        ax.set_ylabel(y)
        ax.set_title(f"{scenario}: {len(rows)} rows (first data set)")
        if histogram:
            hx = axes[i, 1]
            hx.hist(rows[x], bins=bins, color="0.55", edgecolor="white", linewidth=0.5)
            hx.set_xlabel(x)
            hx.set_ylabel("rows")
            hx.set_title(f"{scenario}: histogram of {x}")
    if band is not None:
        st.legend_below(fig, [Line2D([], [], color=st.TRUTH, linestyle="--",
                                     label=f"{y} = {x} ± {st.fmt(band)}")], ncols=1)
    st.save(fig, style, out_png, out_pdf)


# --- envelope over data sets (Figs. 7.5, 7.6) ----------------------------------------------


GRID = items(number(), length=3, default=[0.0, 10.0, 0.05])
#: the envelope over the first so many data sets (all when null): its width grows with their
#: number, so a figure that mirrors a published one takes as many as the paper drew
DATA_SETS = integer(None, minimum=2, nullable=True)


def envelope(lines: Mapping[int, tuple[np.ndarray, np.ndarray]],
             truth: tuple[np.ndarray, np.ndarray] | None, grid: Sequence[float],
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[float, float]]:
    """The grid (from, to, step), the least and greatest centred estimate at each grid point
    over the repetitions whose range covers it (NaN where none does), and the span over
    which the curves are centred."""
    lo, hi, step = grid
    at = np.round(np.arange(lo, hi + step / 2, step), 10)
    limit = (float(truth[0][0]), float(truth[0][-1])) if truth is not None else None
    span = common_span(lines, limit)
    values = np.full((len(lines), len(at)), np.nan)
    for i, (x, y) in enumerate(centred_reps(lines, span).values()):
        inside = (at >= x[0]) & (at <= x[-1])
        values[i, inside] = np.interp(at[inside], x, y)
    covered = np.isfinite(values).any(axis=0)
    low, high = np.full(len(at), np.nan), np.full(len(at), np.nan)
    low[covered] = np.nanmin(values[:, covered], axis=0)
    high[covered] = np.nanmax(values[:, covered], axis=0)
    return at, low, high, span


@figure("book_ale.envelope", methods=("ale",), truths=("effects",), params={
    "feature": feature_name("x1"),
    "grid": GRID,
    "marks": items(number(), default=[]),
    "ylim": LIMITS,
    "data_sets": DATA_SETS,
})
def envelope_figure(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                    feature: str, grid: list[float], marks: list[float],
                    ylim: list[float] | None, data_sets: int | None) -> None:
    """The least and greatest ALE estimate over the data sets (role ``ale``, one method; the
    first ``data_sets`` of them when given) at each point of ``grid`` ([from, to, step]), the
    theoretical ALE, and at each of ``marks`` a vertical segment labelled with the range
    |max - min| there."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    est = inputs.estimates("ale")
    est = est[est["feature"] == feature]
    true = inputs.truth("effects")
    scenarios = [s for s in inputs.scenarios if s in set(est["scenario"])]
    fig, style = st.new_figure(spec, rows=len(scenarios), width=9.0, panel_height=4.2)
    axes = st.panel_grid(fig, len(scenarios), 1)
    n_reps, k = 0, 0
    for ax, scenario in zip(axes, scenarios, strict=True):
        mine = est[est["scenario"] == scenario]
        lines = rep_lines(mine, data_sets)
        n_reps, k = len(lines), intervals(mine)
        line = truth_line(true, scenario, feature)
        at, low, high, span = envelope(lines, line, grid)
        ax.fill_between(at, low, high, color=ALE_COLOUR, alpha=0.2, linewidth=0)
        for bound in (low, high):
            ax.plot(at, bound, color=ALE_COLOUR, linewidth=1.2)
        if line is not None:
            x, y = line
            ax.plot(x, y - integral_mean(x, y, *span), **TRUTH_LINE)
        if ylim is not None:
            ax.set_ylim(*ylim)
        for mark in marks:
            i = int(round((mark - grid[0]) / grid[2]))
            if 0 <= i < len(at) and np.isfinite(low[i]):
                ax.plot([at[i], at[i]], [low[i], high[i]], color="black", linewidth=1.2,
                        marker="_", markersize=8, zorder=7)
                ax.annotate(f"{high[i] - low[i]:,.0f}", (at[i], high[i]),
                            xytext=(-4, 4), textcoords="offset points", ha="right",
                            fontsize=style["font_size"] - 1)
        ax.set_title(f"{scenario}: K = {k}, {n_reps} data sets")
        ax.set_xlabel(feature)
        ax.set_ylabel(f"ALE of {feature} (centred)")
    handles = [Patch(color=ALE_COLOUR, alpha=0.35, label="least to greatest estimate"),
               Line2D([], [], color="black", marker="_", label="|max - min| at x"),
               Line2D([], [], **{k_: v for k_, v in TRUTH_LINE.items() if k_ != "zorder"},
                      label="theoretical ALE, centred alike")]
    st.legend_below(fig, handles, ncols=3)
    st.save(fig, style, out_png, out_pdf)



@figure("book_ale.envelope_width", methods=("ale",), truths=("effects",), params={
    "feature": feature_name("x1"),
    "grid": GRID,
    "labels": items(text(), default=None, nullable=True),
    "data_sets": DATA_SETS,
})
def envelope_width(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                   feature: str, grid: list[float], labels: list[str] | None,
                   data_sets: int | None) -> None:
    """The range |max - min| of the ALE estimates over the data sets (the first ``data_sets``
    when given) at each point of ``grid``, one line per method of role ``ale`` (K), one
    panel per scenario."""
    import matplotlib

    est = inputs.estimates("ale")
    est = est[est["feature"] == feature]
    true = inputs.truth("effects")
    methods = [m for m in inputs.roles["ale"] if m in set(est["method"])]
    scenarios = [s for s in inputs.scenarios if s in set(est["scenario"])]
    if labels is not None and len(labels) != len(methods):
        raise ValueError(f"labels: {len(labels)} given for {len(methods)} methods")
    cmap = matplotlib.colormaps["plasma"]
    fig, style = st.new_figure(spec, rows=len(scenarios), width=9.0, panel_height=4.0)
    axes = st.panel_grid(fig, len(scenarios), 1)
    for ax, scenario in zip(axes, scenarios, strict=True):
        line = truth_line(true, scenario, feature)
        n_reps = 0
        for i, method in enumerate(methods):
            mine = est[(est["scenario"] == scenario) & (est["method"] == method)]
            if mine.empty:
                continue
            lines = rep_lines(mine, data_sets)
            n_reps = len(lines)
            at, low, high, _ = envelope(lines, line, grid)
            label = labels[i] if labels else f"K = {intervals(mine)}"
            ax.plot(at, high - low, color=cmap(0.85 * i / max(1, len(methods) - 1)),
                    linewidth=1.8, label=label)
        ax.set_title(f"{scenario}: {n_reps} data sets")
        ax.set_xlabel(feature)
        ax.set_ylabel("|max - min| of the estimates")
    handles, _ = axes[0].get_legend_handles_labels()
    st.legend_below(fig, handles, ncols=len(handles))
    st.save(fig, style, out_png, out_pdf)


# --- error against K (beyond the book) -----------------------------------------------------

#: where k_error measures the error: at the estimate's edges (the truth_error_reps table) or
#: on the truth's grid (the estimate interpolated linearly between its edges)
POINTS = {"edges": "at the interval edges", "grid": "on the truth's grid"}


def grid_errors(est: pd.DataFrame, truth: pd.DataFrame, feature: str) -> pd.DataFrame:
    """Per scenario, method and repetition, the RMS difference between the estimated and the
    theoretical ALE at the truth's grid points within the estimate's range, both centred at
    their mean over that range."""
    import pandas as pd

    out = []
    for (scenario, method), mine in est[est["feature"] == feature].groupby(["scenario",
                                                                           "method"]):
        line = truth_line(truth, scenario, feature)
        if line is None:
            continue
        tx, ty = line
        for rep, (x, y) in rep_lines(mine).items():
            lo, hi = max(x[0], tx[0]), min(x[-1], tx[-1])
            at = tx[(tx >= lo) & (tx <= hi)]
            if len(at) < 2:
                continue
            diff = ((np.interp(at, x, y) - integral_mean(x, y, lo, hi))
                    - (np.interp(at, tx, ty) - integral_mean(tx, ty, lo, hi)))
            out.append((scenario, method, rep, float(np.sqrt(np.mean(diff ** 2)))))
    return pd.DataFrame(out, columns=["scenario", "method", "rep", "rms"])


def edge_errors(errors: pd.DataFrame, anchor: str) -> pd.DataFrame:
    """Per scenario, method and repetition, the RMS of the ``truth_error_reps`` errors of the
    ALE (anchored as ``anchor``) over the repetition's points."""
    errors = errors[(errors["estimand"] == "ale") & (errors["anchor"] == anchor)]
    return (errors.assign(sq=errors["error"] ** 2)
            .groupby(["scenario", "method", "rep"])["sq"].mean().pow(0.5).rename("rms")
            .reset_index())


@figure("book_ale.k_error", methods=("ale",), truths=("effects",),
        tables=("truth_error_reps",), params={
            "k": table(value=integer(minimum=1)),
            "equidistant": items(text(), default=[]),
            "points": items(choice("edges", tuple(POINTS)), default=["edges", "grid"]),
            "anchor": choice("mean", ("mean", "none")),
            "feature": feature_name("x1"),
            "logy": flag(True),
        })
def k_error(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
            k: dict[str, int], equidistant: list[str], points: list[str], anchor: str,
            feature: str, logy: bool) -> None:
    """Per scenario (a column) and method of role ``ale``: the RMS error of each
    repetition's ALE, its mean over repetitions with 2 SE, against K (``k``: method -> K) on
    a log axis; the methods in ``equidistant`` (equal-width intervals) are separate markers.
    One row per entry of ``points``: ``edges``, the errors of ``truth_error_reps`` at the
    estimate's points (anchored as ``anchor``); ``grid``, the error at the truth's grid
    points, the estimate interpolated between its edges (:func:`grid_errors`)."""
    from matplotlib.lines import Line2D
    from matplotlib.ticker import LogFormatter, NullLocator

    missing = sorted(set(inputs.methods("ale")) - set(k))
    if missing:
        raise ValueError(f"k: no K given for method(s) {', '.join(missing)}")
    tables = {}
    if "edges" in points:
        tables["edges"] = edge_errors(inputs.truth_errors(), anchor)
    if "grid" in points:
        tables["grid"] = grid_errors(inputs.estimates("ale"), inputs.truth("effects"), feature)
    scenarios = [s for s in inputs.scenarios
                 if any(s in set(t["scenario"]) for t in tables.values())]
    fig, style = st.new_figure(spec, rows=len(points), width=4.0 * len(scenarios) + 0.8,
                               panel_height=3.1)
    axes = fig.subplots(len(points), len(scenarios), squeeze=False)
    for r, where in enumerate(points):
        stats = (tables[where].groupby(["scenario", "method"])["rms"]
                 .agg(["mean", "std", "count"]).reset_index())
        stats["se"] = (stats["std"] / np.sqrt(stats["count"])).fillna(0.0)
        stats["k"] = stats["method"].map(k)
        for c, scenario in enumerate(scenarios):
            ax = axes[r, c]
            mine = stats[stats["scenario"] == scenario].sort_values("k")
            quantile = mine[~mine["method"].isin(equidistant)]
            ax.plot(quantile["k"], quantile["mean"], color=ALE_COLOUR, marker="o",
                    linewidth=1.8)
            ax.fill_between(quantile["k"], quantile["mean"] - 2 * quantile["se"],
                            quantile["mean"] + 2 * quantile["se"], color=ALE_COLOUR,
                            alpha=0.18, linewidth=0)
            equal = mine[mine["method"].isin(equidistant)]
            if len(equal):
                ax.errorbar(equal["k"], equal["mean"], yerr=2 * equal["se"], color="black",
                            marker="s", markerfacecolor="none", linestyle="none", capsize=3)
            ax.set_xscale("log")
            if logy and (mine["mean"] - 2 * mine["se"] > 0).all():
                ax.set_yscale("log")
                ax.yaxis.set_major_formatter(LogFormatter())
                ax.yaxis.set_minor_formatter(LogFormatter(minor_thresholds=(2, 0.5)))
            ax.set_xticks(mine["k"].to_numpy(), [str(v) for v in mine["k"]])
            ax.xaxis.set_minor_locator(NullLocator())
            n = int(mine["count"].max()) if len(mine) else 0
            ax.set_title(f"{scenario}, {POINTS[where]} ({n} data sets)")
            ax.set_xlabel("K (number of intervals)")
            if c == 0:
                ax.set_ylabel("RMS error of the ALE")
    handles = [Line2D([], [], color=ALE_COLOUR, marker="o",
                      label="quantile intervals: mean over data sets ± 2 SE")]
    if equidistant:
        handles.append(Line2D([], [], color="black", marker="s", markerfacecolor="none",
                              linestyle="none", label="equidistant intervals (beyond the book)"))
    st.legend_below(fig, handles, ncols=len(handles))
    st.save(fig, style, out_png, out_pdf)
