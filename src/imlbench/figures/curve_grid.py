"""A grid of curve panels with every repetition drawn: the look of the LMU book's simulation
figures (Molnar et al., eds., 2019, ch. 3.3 and ch. 4.4: PDPs over 20 simulated data sets).

``rep_curve_grid``: in each panel, the curves of one method and one learner for one scenario
and one feature: every repetition's curve as a thin grey line, their pointwise mean over the
repetitions as a thick black line with error bars of mean +- sd (or +- SE) over the
repetitions at ``error_points`` points spread evenly along it, the scenario's true curves of
the estimands named in ``truths`` (from its truth table: ``pd`` red, ``interventional`` blue
dashed, ``conditional`` purple dotted, ``ale`` green dash-dotted) and fixed reference lines
given in the figure's entry, each an expression in ``x`` read by the project's safe
expression parser
(:mod:`imlbench.dgp.expressions`), e.g. the book's "common effect" ``2*x`` of a duplicated
feature. Curves are averaged and aligned as :mod:`imlbench.figures.curves` does (a
repetition's curve is its mean over rows; curves on different grids are interpolated onto
the range all of them cover) and anchored as ``anchor`` says (default ``none``: as
estimated, the book's PDPs). Axis limits ``xlim`` and ``ylim`` are shared by every panel
(the book's [-3, 3] x [-3, 3]); without them the panels share the limits matplotlib finds.

Two layouts (``columns``):

* ``features`` (default): one row per scenario of the figure, in the order of its
  ``scenarios`` entry (e.g. the independent, correlated and dependent cases), one column per
  feature (``features``, default every feature of the estimates);
* ``scenarios``: one ``feature`` in every panel, and ``layout`` lists the rows, each a list of
  the scenarios of its columns; e.g. a 3 x 3 grid of one feature over a sweep of noise sd
  (rows) and sample size N (columns)::

      params:
        columns: scenarios
        feature: x
        layout: [[sem_sd0.1_n100, sem_sd0.1_n1000, sem_sd0.1_n10000], [...], [...]]
        row_labels: ["sd 0.1", "sd 0.3", "sd 0.5"]
        column_labels: ["N = 100", "N = 1,000", "N = 10,000"]

``row_labels`` and ``column_labels`` (default: the scenario and feature names) name the rows
at the left and the columns at the top. ``learner`` picks the learner when the figure's
scenarios run the method for several.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from imlbench.curves import ANCHORS, anchored, on_common_grid, rep_curves
from imlbench.dgp.expressions import ExpressionError, parse
from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.generic import CURVE_TRUTHS
from imlbench.figures.inputs import FigureInputs
from imlbench.params import choice, flag, integer, items, number, table, text

if TYPE_CHECKING:
    from matplotlib.axes import Axes

#: how each true curve is drawn: (colour, line style, legend label)
TRUTH_LOOKS = {
    "pd": ("#d62728", "-", "true PD"),
    "interventional": ("#1f5fd1", "--", "true interventional E[Y | do(x)]"),
    "conditional": ("#7b3294", ":", "true conditional E[Y | x]"),
    "ale": ("#1b7837", "-.", "true ALE"),
}
LAYOUTS = ("features", "scenarios")
ERROR_BARS = ("sd", "se", "none")
LINESTYLES = ("-", "--", ":", "-.")
#: the keys of a reference line and their defaults (``expression`` is required)
REFERENCE = {"expression": text(), "label": text(""), "colour": text("#1f5fd1"),
             "linestyle": choice("--", LINESTYLES), "features": items(text(), None, nullable=True),
             "scenarios": items(text(), None, nullable=True)}
REFERENCE_POINTS = 200
PARAMS = {
    "columns": choice("features", LAYOUTS),
    "features": items(text(), None, nullable=True),
    "feature": text(None, nullable=True),
    "layout": items(items(text()), None, nullable=True),
    "learner": text(None, nullable=True),
    "truths": items(choice("pd", CURVE_TRUTHS), ["pd"]),
    "references": items(table(REFERENCE), []),
    "anchor": choice("none", ANCHORS),
    "individual": flag(True),
    "error_bars": choice("sd", ERROR_BARS),
    "error_points": integer(12, minimum=1),
    "xlim": items(number(), None, length=2, nullable=True),
    "ylim": items(number(), None, length=2, nullable=True),
    "row_labels": items(text(), None, nullable=True),
    "column_labels": items(text(), None, nullable=True),
}


class Reference:
    """A fixed line y = g(x) of a figure entry's ``references``, checked when built."""

    def __init__(self, spec: dict[str, Any], index: int) -> None:
        if "expression" not in spec:
            raise ValueError(f"params.references[{index}]: no expression; allowed: a mapping "
                             f"with keys {', '.join(REFERENCE)}, expression required")
        spec = {k: spec.get(k, p.default) for k, p in REFERENCE.items()}
        try:
            self.expression = parse(spec["expression"], ["x"], label="the panel's x")
        except ExpressionError as err:
            raise ValueError(f"params.references[{index}].expression: {err}") from None
        self.label, self.colour = spec["label"], spec["colour"]
        self.linestyle = spec["linestyle"]
        self.features, self.scenarios = spec["features"], spec["scenarios"]

    def applies(self, scenario: str, feature: str) -> bool:
        return ((self.features is None or feature in self.features)
                and (self.scenarios is None or scenario in self.scenarios))

    def draw(self, ax: Axes, lo: float, hi: float) -> None:
        x = np.linspace(lo, hi, REFERENCE_POINTS)
        ax.plot(x, self.expression({"x": x}, len(x)), color=self.colour,
                linestyle=self.linestyle, linewidth=1.2, zorder=4)


def panels(inputs: FigureInputs, est: pd.DataFrame, *, columns: str,
           features: list[str] | None, feature: str | None,
           layout: list[list[str]] | None) -> list[list[tuple[str, str] | None]]:
    """The (scenario, feature) of every panel, by row and column (None: an empty cell of a
    ragged ``layout``); a ValueError naming the parameter when the layout does not fit the
    figure's scenarios or the estimates' features."""
    held = st.feature_order(est["feature"])
    if columns == "features":
        if layout is not None or feature is not None:
            raise ValueError("params.layout and params.feature go with columns: scenarios; "
                             "with columns: features the rows are the figure's scenarios")
        chosen = features or held
        missing = [f for f in chosen if f not in held]
        if missing:
            raise ValueError(f"params.features: no estimates of {', '.join(missing)}; "
                             f"allowed: {', '.join(held)}")
        return [[(sc, f) for f in chosen] for sc in inputs.scenarios]
    if feature is None or layout is None:
        raise ValueError("columns: scenarios needs params.feature (the one feature drawn) and "
                         "params.layout (rows, each a list of scenarios)")
    if feature not in held:
        raise ValueError(f"params.feature: no estimates of {feature}; allowed: "
                         f"{', '.join(held)}")
    unknown = [s for row in layout for s in row if s not in inputs.scenarios]
    if unknown:
        raise ValueError(f"params.layout: {', '.join(unknown)} not among the figure's scenarios "
                         f"that run; allowed: {', '.join(inputs.scenarios)}")
    width = max(len(row) for row in layout)
    return [[(s, feature) for s in row] + [None] * (width - len(row)) for row in layout]


def _labels(given: Sequence[str] | None, default: list[str], key: str) -> list[str]:
    if given is None:
        return default
    if len(given) != len(default):
        raise ValueError(f"params.{key}: {len(given)} labels for {len(default)} "
                         f"{key.split('_')[0]}s; allowed: one label per {key.split('_')[0]}")
    return list(given)


def _one_learner(est: pd.DataFrame, learner: str | None) -> pd.DataFrame:
    held = sorted(est["learner"].unique())
    if learner is None:
        if len(held) > 1:
            raise ValueError(f"the estimates hold learners {', '.join(held)}; params.learner "
                             f"picks one")
        return est
    if learner not in held:
        raise ValueError(f"params.learner: {learner!r} has no estimates here; allowed: "
                         f"{', '.join(held)}")
    return est[est["learner"] == learner]


def draw_repetitions(ax: Axes, est: pd.DataFrame, *, anchor: str, individual: bool,
                     error_bars: str, error_points: int) -> None:
    """One panel's curves: each repetition's in grey, their mean in black with error bars of
    mean +- sd (``sd``) or +- SE = sd / sqrt(R) (``se``) at ``error_points`` of its x, spread
    evenly (the first and the last included)."""
    curves = anchored(on_common_grid(rep_curves(est)), anchor)
    x = curves.columns.to_numpy(float)
    if individual:
        for _, curve in curves.iterrows():
            ax.plot(x, curve.to_numpy(), color=st.ICE_GREY, linewidth=0.5, alpha=0.45)
    mean = curves.mean(axis=0).to_numpy(float)
    ax.plot(x, mean, color="black", linewidth=2.0, zorder=3)
    if error_bars != "none" and len(curves) > 1:
        sd = curves.std(axis=0, ddof=1).to_numpy(float)
        half = sd if error_bars == "sd" else sd / np.sqrt(len(curves))
        at = np.unique(np.linspace(0, len(x) - 1, min(error_points, len(x))).round()
                       .astype(int))
        ax.errorbar(x[at], mean[at], yerr=half[at], fmt="none", ecolor="black",
                    elinewidth=0.8, capsize=2, zorder=3)


def draw_truths(ax: Axes, truth: pd.DataFrame, estimands: Sequence[str], anchor: str) -> set[str]:
    """The true curves (rows ``row < 0`` of one scenario's and feature's truth table) of
    ``estimands``, anchored like the estimates; returns the estimands drawn."""
    drawn = set()
    for estimand in estimands:
        curve = truth[(truth["estimand"] == estimand) & (truth["row"] < 0)]
        if curve.empty:
            continue
        line = anchored(curve.groupby("x")["value"].mean().to_frame().T, anchor).iloc[0]
        colour, style, _ = TRUTH_LOOKS[estimand]
        ax.plot(line.index, line.to_numpy(), color=colour, linestyle=style, linewidth=1.4,
                zorder=4)
        drawn.add(estimand)
    return drawn


@figure("rep_curve_grid", methods=("curves",), truths=("effects",), params=PARAMS)
def rep_curve_grid(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                   columns: str, features: list[str] | None, feature: str | None,
                   layout: list[list[str]] | None, learner: str | None, truths: list[str],
                   references: list[dict], anchor: str, individual: bool, error_bars: str,
                   error_points: int, xlim: list[float] | None, ylim: list[float] | None,
                   row_labels: list[str] | None, column_labels: list[str] | None) -> None:
    """Rows of scenarios, columns of features (or of scenarios): every repetition's curve,
    their mean +- sd, the true curves and the reference lines (see the module doc)."""
    from matplotlib.lines import Line2D

    refs = [Reference(r, i) for i, r in enumerate(references)]
    est = _one_learner(inputs.estimates("curves"), learner)
    truth = inputs.truth("effects")
    grid = panels(inputs, est, columns=columns, features=features, feature=feature,
                  layout=layout)
    nrows, ncols = len(grid), len(grid[0])
    rows = _labels(row_labels, [next(c for c in row if c)[0] if columns == "features"
                                else f"row {i + 1}" for i, row in enumerate(grid)], "row_labels")
    cols = _labels(column_labels, [c[1] if columns == "features" else c[0] if c else ""
                                   for c in grid[0]], "column_labels")
    fig, style = st.new_figure(spec, rows=nrows, width=max(6.0, 2.9 * ncols + 1.2),
                               panel_height=2.5)
    axes = fig.subplots(nrows, ncols, squeeze=False, sharex=xlim is None, sharey=ylim is None)
    drawn: set[str] = set()
    used: list[Reference] = []
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            ax = axes[r, c]
            if cell is None:
                ax.set_visible(False)
                continue
            scenario, feat = cell
            mine = est[(est["scenario"] == scenario) & (est["feature"] == feat)]
            if mine.empty:
                ax.text(0.5, 0.5, "no estimates", transform=ax.transAxes, ha="center")
            else:
                draw_repetitions(ax, mine, anchor=anchor, individual=individual,
                                 error_bars=error_bars, error_points=error_points)
            true = truth[(truth["scenario"] == scenario) & (truth["feature"] == feat)]
            drawn |= draw_truths(ax, true, truths, anchor)
            if xlim is not None:
                ax.set_xlim(*xlim)
            if ylim is not None:
                ax.set_ylim(*ylim)
            lo, hi = ax.get_xlim()
            for ref in refs:
                if ref.applies(scenario, feat):
                    ref.draw(ax, lo, hi)
                    used += [ref] if ref not in used else []
            ax.set_xlim(lo, hi)
            if r == 0:
                ax.set_title(cols[c], fontweight="bold")
            if c == 0:
                ax.set_ylabel(rows[r], fontweight="bold")
            if r == nrows - 1 or columns == "scenarios":
                ax.set_xlabel(feat)
    what = {"sd": "mean ± sd", "se": "mean ± SE", "none": "mean"}[error_bars]
    handles = [Line2D([], [], color="black", linewidth=2.0, label=f"{what} over repetitions")]
    if individual:
        handles.insert(0, Line2D([], [], color=st.ICE_GREY, linewidth=0.8, label="repetitions"))
    handles += [Line2D([], [], color=TRUTH_LOOKS[e][0], linestyle=TRUTH_LOOKS[e][1],
                       label=TRUTH_LOOKS[e][2]) for e in truths if e in drawn]
    handles += [Line2D([], [], color=ref.colour, linestyle=ref.linestyle,
                       label=ref.label or ref.expression.text) for ref in used]
    st.legend_below(fig, handles, ncols=min(len(handles), 4))
    st.save(fig, style, out_png, out_pdf)
