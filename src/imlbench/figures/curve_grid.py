"""Panels of curves with every repetition drawn: the look of the LMU book's curve figures
(Molnar et al., eds., 2019: PDPs over simulated data sets, forests or seeds in ch. 2-4, ALEs
over data sets in ch. 7).

``rep_curve_grid``: in each panel, the curves of one feature in one scenario, for each series
(a method of role ``curves`` and a learner): every repetition's curve thin, on its own points;
their pointwise mean thick, over the range every repetition covers (each curve read at the
points of all, :func:`imlbench.curves.values_at`), with error bars of mean +- sd or +- SE at
``error_points`` of its points (``error_bars: sd``, ``se``), a band of +- 2 SE (``band``) or
nothing (``none``); optionally the first repetition (``first``, dots at its points). Then the
scenario's true curves (the estimands in ``truths``, from its truth table, as lines or, with
``truth_points``, dots at the truth's grid points), a panel's true step function (``steps``:
[from, to, value] segments, value on [from, to], summed where they overlap, 0 elsewhere),
fixed reference lines y = g(x) (``references``, each an expression in ``x`` read by the
project's safe parser :mod:`imlbench.dgp.expressions`, e.g. the book's "common effect"
``2*x`` of a duplicated feature), a shaded x range (``shade``) and vertical lines
(``vlines``).

Anchoring (``anchor``, :data:`imlbench.curves.ANCHORS`, default ``none``: as estimated): every
curve of a panel, truths included, is anchored as :func:`imlbench.curves.anchored` says over
one span: the x range every repetition covers, within the first drawn truth's grid where
they overlap; each curve is read at :data:`ANCHOR_POINTS` equidistant points of the span for
this, so that curves on different points (quantile edges, data-dependent grids) are anchored
alike (``mean``: the curve's mean over the span, its integral up to the grid's resolution).

Colours come from the figure's ``look`` (:data:`imlbench.figures.style.LOOKS`: ``house`` or
``book``); ``colour`` picks how series are told apart: ``plain`` (repetitions in the look's
grey, the mean in its mean colour), ``method`` (the mean in the registered method's colour,
:data:`imlbench.figures.style.METHODS`), ``series`` (each series one of the look's series
colours, or its learner's own in the house look, repetitions included). A categorical
feature named in ``levels`` (its level names, in the order of its codes) is drawn as points
per level joined by lines, its axis labelled by level.

Layouts:

* ``columns: features`` (default): one row per scenario of the figure, in the order of its
  ``scenarios`` entry, one column per feature (``features``, default every feature);
* ``columns: scenarios``: one ``feature`` in every panel, and ``layout`` lists the rows, each
  a list of the scenarios of its columns; ``row_labels`` and ``column_labels`` (default: the
  scenario and feature names) name the rows at the left and the columns at the top;
* ``columns: sweep``: rows and columns are the values of the two swept parameters of
  ``sweep`` (``[sd, n]``: rows the noise sd, columns the sample size), whatever the profile
  runs; ``truth_column`` adds a last column with each row's truths alone, titled by it;
* ``panels``: a list of panels, ``ncols`` to a row, each naming its ``scenario``,
  ``feature``, ``method``, ``learner``, ``title``, ``xlabel``, ``ylabel``, its truths
  (``truths``, ``steps``), limits (``xlim``, ``ylim``: a zoomed copy is a second panel),
  ``shade`` and ``vlines``; ``show: truth`` draws the truths alone and ``show: surface`` the
  first repetition of a 2-D estimate (rows x, z, value) of ``method`` as a colour scale with
  a colour bar named ``zlabel`` (:mod:`imlbench.figures.surface`), as scikit-learn's
  ``PartialDependenceDisplay`` mixes one- and two-way panels.

A title (``panel_title`` of every panel of a grid, or a panel's own) may name ``{scenario}``,
``{feature}``, ``{learner}``, ``{method}``, ``{reps}`` (the repetitions drawn),
``{intervals}`` (a curve's points less one, the most common over repetitions: the K of an
ALE with K intervals) and the swept parameters of a sweep layout (e.g. ``{n:,.0f}``).
``learner`` (or ``learners``: several series per panel, named in the legend by
``series_labels``, default their learners' names) picks the learners when the scenarios run
the methods for several; ``xlim`` and ``ylim`` limit every panel (y fitted to
the curves within ``xlim`` when only it is given); ``share`` says which axes panels share;
``ylabel`` labels the figure's y axis.

``rep_curve_grid`` reads the scenarios' effects truths; an entry with ``truths: []`` (and no
panel naming truths) draws none and reads no truth table, which scenarios whose DGP has no
truth (real data) need.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from imlbench.curves import ANCHORS, anchored, mean_band, rep_curves, values_at
from imlbench.dgp.expressions import ExpressionError, parse
from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.generic import CURVE_TRUTHS
from imlbench.figures.inputs import FigureInputs
from imlbench.figures.surface import colour_bar, draw_surface, rep_surfaces, summarised
from imlbench.params import choice, flag, integer, items, number, table, text, with_defaults

if TYPE_CHECKING:
    from matplotlib.artist import Artist
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

#: the legend's name of each true curve
TRUTH_LABELS = {"pd": "true PD", "interventional": "true interventional E[Y | do(x)]",
                "conditional": "true conditional E[Y | x]", "ale": "true ALE"}
LAYOUTS = ("features", "scenarios", "sweep")
ERROR_BARS = ("sd", "se", "band", "none")
COLOURS = ("plain", "method", "series")
SHARE = ("all", "x", "y", "columns", "none")
SHOWS = ("curves", "truth", "surface")
LINESTYLES = ("-", "--", ":", "-.")
#: the keys of a reference line and their defaults (``expression`` is required)
REFERENCE = {"expression": text(), "label": text(""), "colour": text(st.TRUTH),
             "linestyle": choice("--", LINESTYLES), "features": items(text(), None, nullable=True),
             "scenarios": items(text(), None, nullable=True)}
REFERENCE_POINTS = 200
#: equidistant points of the span at which curves are read to anchor them
ANCHOR_POINTS = 2001
#: the mean is drawn at the points of every repetition unless they are more than this
MEAN_POINTS = 20000
LIMITS = items(number(), None, length=2, nullable=True)
STEPS = items(items(number(), length=3), None, nullable=True)
#: the keys of one entry of ``panels``
PANEL = {
    "scenario": text(), "feature": text(None, nullable=True),
    "method": text(None, nullable=True), "learner": text(None, nullable=True),
    "show": choice("curves", SHOWS), "title": text(None, nullable=True),
    "xlabel": text(None, nullable=True), "ylabel": text(None, nullable=True),
    "zlabel": text(None, nullable=True),
    "truths": items(choice("pd", CURVE_TRUTHS), None, nullable=True), "steps": STEPS,
    "xlim": LIMITS, "ylim": LIMITS, "shade": LIMITS, "vlines": items(number(), []),
}
PARAMS = {
    "columns": choice("features", LAYOUTS),
    "features": items(text(), None, nullable=True),
    "feature": text(None, nullable=True),
    "layout": items(items(text()), None, nullable=True),
    "sweep": items(text(), None, length=2, nullable=True),
    "truth_column": text(None, nullable=True),
    "panels": items(table(PANEL), None, nullable=True),
    "ncols": integer(None, minimum=1, nullable=True),
    "learner": text(None, nullable=True),
    "learners": items(text(), None, nullable=True),
    "series_labels": table(value=text(), default={}),
    "truths": items(choice("pd", CURVE_TRUTHS), ["pd"]),
    "truth_points": flag(False),
    "references": items(table(REFERENCE), []),
    "anchor": choice("none", ANCHORS),
    "individual": flag(True),
    "individual_max": integer(None, minimum=1, nullable=True),
    "first": flag(False),
    "error_bars": choice("sd", ERROR_BARS),
    "error_points": integer(12, minimum=1),
    "levels": table(value=items(text()), default={}),
    "colour": choice("plain", COLOURS),
    "look": choice("house", tuple(st.LOOKS)),
    "share": choice("all", SHARE),
    "xlim": LIMITS,
    "ylim": LIMITS,
    "panel_title": text(None, nullable=True),
    "row_labels": items(text(), None, nullable=True),
    "column_labels": items(text(), None, nullable=True),
    "ylabel": text(None, nullable=True),
    "shade_label": text("shaded range"),
    "legend": flag(True),
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

    def applies(self, scenario: str, feature: str | None) -> bool:
        return ((self.features is None or feature in self.features)
                and (self.scenarios is None or scenario in self.scenarios))

    def draw(self, ax: Axes, lo: float, hi: float) -> None:
        x = np.linspace(lo, hi, REFERENCE_POINTS)
        ax.plot(x, self.expression({"x": x}, len(x)), color=self.colour,
                linestyle=self.linestyle, linewidth=1.2, zorder=4)


@dataclass
class Panel:
    """One panel of the figure: where it sits, what it selects and how it is labelled."""

    row: int
    col: int
    scenario: str
    feature: str | None = None
    method: str | None = None
    learner: str | None = None
    show: str = "curves"
    title: str | None = None
    xlabel: str | None = None
    ylabel: str | None = None
    zlabel: str | None = None
    truths: list[str] | None = None
    steps: list[list[float]] | None = None
    xlim: list[float] | None = None
    ylim: list[float] | None = None
    shade: list[float] | None = None
    vlines: list[float] = field(default_factory=list)
    #: title placeholders of the layout (the swept values of a sweep)
    fields: dict[str, Any] = field(default_factory=dict)
    #: the column and row heads of a grid, in bold
    head: bool = False


# --- layouts ---------------------------------------------------------------------------------


def panels(inputs: FigureInputs, est: pd.DataFrame, *, columns: str,
           features: list[str] | None, feature: str | None,
           layout: list[list[str]] | None) -> list[list[tuple[str, str] | None]]:
    """The (scenario, feature) of every panel of a ``features`` or ``scenarios`` grid, by row
    and column (None: an empty cell of a ragged ``layout``); a ValueError naming the
    parameter when the layout does not fit the figure's scenarios or the estimates'
    features."""
    held = st.feature_order(est["feature"].dropna())
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


def _grid(inputs: FigureInputs, est: pd.DataFrame, p: dict) -> list[Panel]:
    """The panels of a ``features`` or ``scenarios`` grid, heads in the top row and the left
    column."""
    grid = panels(inputs, est, columns=p["columns"], features=p["features"],
                  feature=p["feature"], layout=p["layout"])
    by_features = p["columns"] == "features"
    rows = _labels(p["row_labels"], [next(c for c in row if c)[0] if by_features
                                     else f"row {i + 1}" for i, row in enumerate(grid)],
                   "row_labels")
    cols = _labels(p["column_labels"], [c[1] if by_features else c[0] if c else ""
                                        for c in grid[0]], "column_labels")
    out = []
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            if cell is None:
                continue
            last = r == len(grid) - 1 or not by_features
            out.append(Panel(r, c, cell[0], cell[1],
                             title=p["panel_title"] or (cols[c] if r == 0 else None),
                             ylabel=rows[r] if c == 0 else None,
                             xlabel=cell[1] if last else "", head=True))
    return out


def _swept(est: pd.DataFrame, name: str) -> pd.Series:
    key = f"p_{name}"
    if key not in est:
        raise ValueError(f"params.sweep: the estimates have no swept parameter {name!r}; "
                         f"allowed: {', '.join(c[2:] for c in est.columns if c.startswith('p_'))}")
    return est[key].astype(float)


def _sweep(inputs: FigureInputs, est: pd.DataFrame, p: dict) -> list[Panel]:
    """The panels of a sweep: rows the values of the first swept parameter, columns those of
    the second (ascending), and a last column of truths when ``truth_column`` names it."""
    if p["sweep"] is None:
        raise ValueError("columns: sweep needs params.sweep (the swept parameters of the rows "
                         "and the columns)")
    a, b = p["sweep"]
    est = est.assign(_a=_swept(est, a), _b=_swept(est, b))
    features = st.feature_order(est["feature"].dropna())
    feature = p["feature"] or (features[0] if len(features) == 1 else None)
    if feature not in features:
        raise ValueError(f"params.feature: {feature!r} is not one feature of the estimates; "
                         f"allowed: {', '.join(features)}")
    row_values, col_values = sorted(est["_a"].unique()), sorted(est["_b"].unique())
    out = []
    for r, va in enumerate(row_values):
        row = est[est["_a"] == va]
        label = f"{a} = {st.fmt(va)}"
        for c, vb in enumerate(col_values):
            cell = row[row["_b"] == vb]
            if cell.empty:
                continue
            out.append(Panel(r, c, str(cell["scenario"].iloc[0]), feature,
                             title=p["panel_title"] or f"{b} = {st.fmt(vb)}",
                             ylabel=label if c == 0 else None, fields={a: va, b: vb}))
        if p["truth_column"] is not None:
            out.append(Panel(r, len(col_values), str(row["scenario"].iloc[0]), feature,
                             show="truth", title=p["truth_column"]))
    return out


def _one_feature(est: pd.DataFrame, spec: dict, i: int) -> str:
    """The one feature of a panel's scenario (and method) when the panel names none."""
    rows = est[est["scenario"] == spec["scenario"]]
    if spec["method"] is not None:
        rows = rows[rows["method"] == spec["method"]]
    held = st.feature_order(rows["feature"].dropna())
    if len(held) != 1:
        raise ValueError(f"params.panels[{i}].feature: the estimates hold features "
                         f"{', '.join(held) or 'none'} here; the panel names one")
    return held[0]


def _listed(inputs: FigureInputs, est: pd.DataFrame, p: dict) -> list[Panel]:
    """The panels of the ``panels`` list, ``ncols`` to a row."""
    given = p["panels"]
    ncols = p["ncols"] or (len(given) if len(given) <= 4 else -(-len(given) // 2))
    out = []
    for i, spec in enumerate(given):
        spec = with_defaults(PANEL, spec)
        if spec["scenario"] not in inputs.scenarios:
            raise ValueError(f"params.panels[{i}].scenario: {spec['scenario']!r} is not among "
                             f"the figure's scenarios that run; allowed: "
                             f"{', '.join(inputs.scenarios)}")
        if spec["show"] == "surface" and spec["method"] is None:
            raise ValueError(f"params.panels[{i}]: show: surface needs its method")
        if spec["feature"] is None and spec["show"] != "surface":
            spec["feature"] = _one_feature(est, spec, i)
        out.append(Panel(i // ncols, i % ncols, **spec))
    return out


def layout_of(inputs: FigureInputs, est: pd.DataFrame, p: dict) -> list[Panel]:
    """Every panel of the figure, by the layout its parameters choose."""
    if p["panels"] is not None:
        return _listed(inputs, est, p)
    if p["columns"] == "sweep":
        return _sweep(inputs, est, p)
    return _grid(inputs, est, p)


# --- one panel's curves ----------------------------------------------------------------------


def _learners(est: pd.DataFrame, p: dict) -> list[str] | None:
    """The learners of every panel (None: each panel's only one), checked against the
    estimates."""
    held = sorted(est["learner"].unique())
    chosen = p["learners"] or ([p["learner"]] if p["learner"] else None)
    if chosen is None:
        if len(held) > 1 and p["panels"] is None:
            raise ValueError(f"the estimates hold learners {', '.join(held)}; params.learner "
                             f"picks one")
        return None
    unknown = [lrn for lrn in chosen if lrn not in held]
    if unknown:
        key = "learners" if p["learners"] else "learner"
        raise ValueError(f"params.{key}: {', '.join(map(repr, unknown))} has no estimates "
                         f"here; allowed: {', '.join(held)}")
    return chosen


def series_of(est: pd.DataFrame, panel: Panel, learners: list[str] | None,
              methods: list[str]) -> list[tuple[tuple[str, str], pd.DataFrame]]:
    """The series of a panel: (method, learner) and its rows, methods in the role's order,
    learners in the given order."""
    rows = est[(est["scenario"] == panel.scenario) & (est["feature"] == panel.feature)]
    if panel.method is not None:
        rows = rows[rows["method"] == panel.method]
    chosen = [panel.learner] if panel.learner else learners
    if chosen is None:
        held = sorted(rows["learner"].unique())
        if len(held) > 1:
            raise ValueError(f"panel {panel.scenario}, {panel.feature}: the estimates hold "
                             f"learners {', '.join(held)}; params.learner picks one")
        chosen = held
    out = []
    for method in methods:
        for learner in chosen:
            mine = rows[(rows["method"] == method) & (rows["learner"] == learner)]
            if len(mine):
                out.append(((method, learner), mine))
    return out


def covered(curves: pd.DataFrame) -> tuple[float, float]:
    """The x range every curve (rows, x in columns, NaN where a curve has no point) covers."""
    x = curves.columns.to_numpy(float)
    held = curves.notna().to_numpy()
    return (max(float(x[row].min()) for row in held), min(float(x[row].max()) for row in held))


def offsets(curves: pd.DataFrame, anchor: str, span: tuple[float, float]) -> pd.Series:
    """What anchoring subtracts from each curve (rows): the curves read at
    :data:`ANCHOR_POINTS` equidistant points of ``span`` (:func:`values_at`), less those
    readings anchored (:func:`imlbench.curves.anchored`)."""
    if anchor == "none":
        return pd.Series(0.0, index=curves.index)
    read = values_at(curves, np.linspace(span[0], span[1], ANCHOR_POINTS))
    return (read - anchored(read, anchor)).iloc[:, 0]


def intervals(est: pd.DataFrame) -> int:
    """A curve's points less one (the number of intervals between an ALE's edges), the most
    common count over the repetitions."""
    counts = est.groupby("rep")["x"].nunique() - 1
    return int(counts.mode().max())


@dataclass
class SeriesLook:
    """How one series is drawn: its colours and what of it."""

    hues: st.Hues
    rep: str
    mean: str
    individual: bool
    first: bool
    error_bars: str
    error_points: int
    markers: bool
    #: the individual curves drawn: of the first so many repetitions only (all when None)
    individual_max: int | None = None


def draw_repetitions(ax: Axes, est: pd.DataFrame, *, anchor: str = "none",
                     span: tuple[float, float] | None = None, individual: bool = True,
                     error_bars: str = "sd", error_points: int = 12,
                     look: SeriesLook | None = None) -> pd.DataFrame:
    """One series' curves: each repetition's on its own points, their mean over the range all
    cover (each read at the points of all) with its error bars or band (see the module doc),
    the first repetition where ``look`` asks for it; all anchored over ``span`` (default: the
    range all cover). Returns the mean's x, mean, sd and SE (columns)."""
    hues = st.LOOKS["house"]
    look = look or SeriesLook(hues, hues.rep, hues.mean, individual, False, error_bars,
                              error_points, False)
    curves = rep_curves(est)
    lo, hi = covered(curves)
    off = offsets(curves, anchor, span or (lo, hi))
    marker = {"marker": "o"} if look.markers else {}
    if look.individual:
        for rep, curve in curves.head(look.individual_max or len(curves)).iterrows():
            curve = curve.dropna()
            ax.plot(curve.index, curve.to_numpy() - off[rep], color=look.rep, linewidth=0.6,
                    alpha=look.hues.rep_alpha, markersize=3, **marker)
    x = curves.columns.to_numpy(float)
    x = x[(x >= lo) & (x <= hi)]
    if len(x) > MEAN_POINTS:
        x = np.linspace(lo, hi, MEAN_POINTS)
    values = values_at(curves, x).sub(off, axis=0)
    _, mean, se = mean_band(values)
    sd = values.std(axis=0, ddof=1).to_numpy(float) if len(values) > 1 else np.zeros(len(x))
    ax.plot(x, mean, color=look.mean, linewidth=2.0, zorder=3, markersize=5, **marker)
    if len(values) > 1 and look.error_bars in ("sd", "se"):
        half = sd if look.error_bars == "sd" else se
        at = np.unique(np.linspace(0, len(x) - 1, min(look.error_points, len(x))).round()
                       .astype(int))
        ax.errorbar(x[at], mean[at], yerr=half[at], fmt="none", ecolor=look.mean,
                    elinewidth=0.8, capsize=2, zorder=3)
    elif len(values) > 1 and look.error_bars == "band":
        ax.fill_between(x, mean - 2 * se, mean + 2 * se, color=look.mean, alpha=0.18,
                        linewidth=0, zorder=2)
    if look.first:
        rep = min(curves.index)
        curve = curves.loc[rep].dropna()
        ax.plot(curve.index, curve.to_numpy() - off[rep], color=look.hues.first,
                linewidth=1.6, marker="o", markersize=2.0, zorder=5)
    return pd.DataFrame({"x": x, "mean": mean, "sd": sd, "se": se})


def steps_at(steps: Sequence[Sequence[float]], x: np.ndarray) -> np.ndarray:
    """The step function of ``steps`` ([from, to, value]: value on [from, to], summed where
    they overlap, 0 elsewhere) at ``x``."""
    x = np.asarray(x, float)
    return sum((v * ((x >= a) & (x <= b)) for a, b, v in steps), np.zeros(len(x)))


def step_curve(steps: Sequence[Sequence[float]], lo: float, hi: float
               ) -> tuple[np.ndarray, np.ndarray]:
    """The step function of ``steps`` on [lo, hi] as a line with vertical jumps (each cut
    twice)."""
    cuts = sorted({c for a, b, _ in steps for c in (a, b) if lo < c < hi})
    bounds = np.array([lo, *cuts, hi])
    values = steps_at(steps, (bounds[:-1] + bounds[1:]) / 2)
    return np.repeat(bounds, 2)[1:-1], np.repeat(values, 2)


def step_offset(steps: Sequence[Sequence[float]], anchor: str, span: tuple[float, float]
                ) -> float:
    """What anchoring over ``span`` subtracts from the step function (as :func:`offsets`,
    reading it at :data:`ANCHOR_POINTS` equidistant points of the span)."""
    if anchor == "none":
        return 0.0
    at = np.linspace(span[0], span[1], ANCHOR_POINTS)
    read = pd.DataFrame([steps_at(steps, at)], columns=at)
    return float((read - anchored(read, anchor)).iloc[0, 0])


def fit_y(ax: Axes, xlim: Sequence[float], pad: float = 0.06) -> None:
    """Y limits that fit the panel's lines within ``xlim`` (where they cross its edges
    included)."""
    ys = []
    for line in ax.get_lines():
        x, y = np.asarray(line.get_xdata(), float), np.asarray(line.get_ydata(), float)
        if len(x) != len(y) or len(x) < 2:
            continue
        inside = (x >= xlim[0]) & (x <= xlim[1])
        ys += [*y[inside], *np.interp(list(xlim), x, y, left=np.nan, right=np.nan)]
    ys = np.asarray(ys, float)
    ys = ys[np.isfinite(ys)]
    if len(ys):
        lo, hi = float(ys.min()), float(ys.max())
        margin = pad * (hi - lo) if hi > lo else 1.0
        ax.set_ylim(lo - margin, hi + margin)


class Legend:
    """The legend's entries, in the order first drawn, each once."""

    def __init__(self) -> None:
        self.handles: dict[str, Artist] = {}

    def add(self, label: str, **line: Any) -> None:
        from matplotlib.lines import Line2D
        from matplotlib.patches import Patch

        if label in self.handles:
            return
        patch = line.pop("patch", False)
        self.handles[label] = Patch(label=label, **line) if patch else \
            Line2D([], [], label=label, **line)


class Drawer:
    """Draws the panels of one figure from its inputs and (defaults filled) parameters."""

    def __init__(self, inputs: FigureInputs, p: dict) -> None:
        self.inputs, self.p = inputs, p
        self.hues = st.LOOKS[p["look"]]
        self.est = inputs.estimates("curves")
        self.methods = [m for m in inputs.roles["curves"] if m in set(self.est["method"])]
        self.learners = _learners(self.est, p)
        self.refs = [Reference(r, i) for i, r in enumerate(p["references"])]
        self.legend = Legend()
        #: the most repetitions of a series drawn, for the legend
        self.reps = 0

    def truths(self, panel: Panel) -> list[tuple[str, pd.Series]]:
        """The panel's true curves that the truth table holds, by estimand."""
        wanted = panel.truths if panel.truths is not None else self.p["truths"]
        if not wanted or panel.feature is None:
            return []
        curves = [(e, self.inputs.truth_curve(panel.scenario, panel.feature, e))
                  for e in wanted]
        return [(e, c) for e, c in curves if len(c)]

    def colours(self, keys: list[tuple[str, str]]) -> dict[tuple[str, str], tuple[str, str]]:
        """(repetitions', mean's) colour per series as ``colour`` says."""
        hues, how = self.hues, self.p["colour"]
        if how == "plain" and len(keys) > 1:
            raise ValueError(f"a panel holds {len(keys)} series ({', '.join(map(str, keys))}); "
                             f"params.colour: series tells them apart")
        if how == "method":
            return {k: (hues.rep, st.method_look(k[0], self.inputs.method_kinds.get(k[0]))
                        .colour) for k in keys}
        if how == "series":
            out = {}
            for i, k in enumerate(keys):
                colour = (hues.series[i % len(hues.series)] if hues.series else
                          st.look(k[1], kind=self.inputs.learner_kinds.get(k[1])).colour)
                out[k] = (colour, colour)
            return out
        return {k: (hues.rep, hues.mean) for k in keys}

    def curves(self, ax: Axes, panel: Panel) -> dict[str, Any]:
        """A curves panel: its series, truths, steps and references; returns the title's
        placeholders."""
        series = series_of(self.est, panel, self.learners, self.methods)
        truths = self.truths(panel)
        if not series:
            ax.text(0.5, 0.5, "no estimates", transform=ax.transAxes, ha="center")
            self.draw_truths(ax, panel, truths, None)
            return {"reps": 0, "intervals": 0, "learner": panel.learner or "",
                    "method": panel.method or ""}
        curves = {key: rep_curves(rows) for key, rows in series}
        lo = max(covered(c)[0] for c in curves.values())
        hi = min(covered(c)[1] for c in curves.values())
        span = (lo, hi)
        if truths and self.p["anchor"] != "none":
            t_lo, t_hi = float(truths[0][1].index.min()), float(truths[0][1].index.max())
            if max(lo, t_lo) < min(hi, t_hi):
                span = (max(lo, t_lo), min(hi, t_hi))
        colours = self.colours([key for key, _ in series])
        markers = panel.feature in self.p["levels"]
        for key, rows in series:
            look = SeriesLook(self.hues, *colours[key], self.p["individual"], self.p["first"],
                              self.p["error_bars"], self.p["error_points"], markers,
                              self.p["individual_max"])
            draw_repetitions(ax, rows, anchor=self.p["anchor"], span=span, look=look)
            self.reps = max(self.reps, rows["rep"].nunique())
            self.add_series(key, look)
        self.draw_truths(ax, panel, truths, span,
                         (min(float(c.columns.min()) for c in curves.values()),
                          max(float(c.columns.max()) for c in curves.values())))
        if markers:
            self.level_axis(ax, panel.feature, series)
        key, rows = series[0]
        return {"reps": rows["rep"].nunique(), "intervals": intervals(rows),
                "method": key[0], "learner": key[1]}

    def add_series(self, key: tuple[str, str], look: SeriesLook) -> None:
        """The legend entries of a series as drawn."""
        if self.p["colour"] == "series":
            label = self.p["series_labels"].get(key[1]) or st.look(
                key[1], kind=self.inputs.learner_kinds.get(key[1])).label
            self.legend.add(label, color=look.mean, linewidth=2.0)
            return
        if look.individual:
            drawn = "each of {reps} repetitions"
            if look.individual_max is not None and self.reps > look.individual_max:
                drawn = f"each of the first {look.individual_max} of {{reps}} repetitions"
            self.legend.add(drawn, color=look.rep, linewidth=0.8)
        what = {"sd": "mean ± sd", "se": "mean ± SE", "band": "mean",
                "none": "mean"}[look.error_bars]
        self.legend.add(f"{what} over {{reps}} repetitions", color=look.mean, linewidth=2.0)
        if look.error_bars == "band":
            self.legend.add("± 2 SE", color=look.mean, alpha=0.18, patch=True)
        if look.first:
            self.legend.add("first repetition (dots: its points)", color=look.hues.first,
                            linewidth=1.6, marker="o", markersize=2.5)

    def draw_truths(self, ax: Axes, panel: Panel, truths: list[tuple[str, pd.Series]],
                    span: tuple[float, float] | None,
                    extent: tuple[float, float] | None = None) -> None:
        """The panel's true curves and step function, anchored like the estimates over
        ``span`` (the step function drawn over ``extent``, the estimates' x range)."""
        alone = panel.show == "truth"
        for estimand, curve in truths:
            frame = curve.to_frame().T
            off = offsets(frame, self.p["anchor"], span).iloc[0] if span else 0.0
            colour, style = self.hues.truths[estimand]
            if self.p["truth_points"] and not alone:
                ax.plot(curve.index, curve.to_numpy() - off, color=colour, linestyle="none",
                        marker="o", markersize=3.0, zorder=6)
                label = f"{TRUTH_LABELS[estimand]} at its grid points"
                self.legend.add(label, color=colour, linestyle="none", marker="o",
                                markersize=3.0)
                continue
            ax.plot(curve.index, curve.to_numpy() - off, color=colour,
                    linestyle="-" if alone else style, linewidth=2.2 if alone else 1.4,
                    zorder=6)
            self.legend.add(TRUTH_LABELS[estimand], color=colour, linestyle=style)
        if panel.steps and extent is not None:
            colour, _ = self.hues.truths["ale"]
            x, y = step_curve(panel.steps, *extent)
            off = step_offset(panel.steps, self.p["anchor"], span) if span else 0.0
            ax.plot(x, y - off, color=colour, linewidth=1.4, zorder=6)
            self.legend.add("true step function", color=colour)

    def level_axis(self, ax: Axes, feature: str, series: list) -> None:
        """A categorical feature's axis: its level names at its codes."""
        names = self.p["levels"][feature]
        codes = sorted(set().union(*(set(rows["x"]) for _, rows in series)))
        if len(codes) != len(names):
            raise ValueError(f"params.levels.{feature}: {len(names)} names for "
                             f"{len(codes)} levels (codes {', '.join(map(st.fmt, codes))})")
        ax.set_xticks(codes, names, rotation=45 if len(codes) > 4 else 0)

    def surface(self, fig: Figure, ax: Axes, panel: Panel) -> dict[str, Any]:
        """A surface panel: the first repetition of ``method``'s 2-D estimate."""
        rows = self.est[(self.est["scenario"] == panel.scenario)
                        & (self.est["method"] == panel.method)]
        if rows.empty:
            raise ValueError(f"panel {panel.scenario}: no 2-D estimate of {panel.method}")
        grid = summarised(rep_surfaces(rows), "first")
        mappable = draw_surface(ax, grid, "colour", np.array([np.nanmin(grid[2]),
                                                              np.nanmax(grid[2])]),
                                False, self.hues)
        colour_bar(fig, mappable, ax, panel.zlabel or "")
        return {"reps": 1, "intervals": 0, "method": panel.method, "learner": ""}

    def panel(self, fig: Figure, ax: Axes, panel: Panel) -> None:
        """One panel, drawn, limited and labelled."""
        if panel.show == "surface":
            fields = self.surface(fig, ax, panel)
        elif panel.show == "truth":
            self.draw_truths(ax, panel, self.truths(panel), None)
            fields = {"reps": 0, "intervals": 0, "method": "", "learner": ""}
        else:
            fields = self.curves(ax, panel)
        xlim = panel.xlim or self.p["xlim"]
        ylim = panel.ylim or self.p["ylim"]
        if xlim is not None:
            ax.set_xlim(*xlim)
        if ylim is not None:
            ax.set_ylim(*ylim)
        elif xlim is not None:
            fit_y(ax, xlim)
        if panel.show != "surface":
            self.decorate(ax, panel)
        fields = {"scenario": panel.scenario, "feature": panel.feature or "", **fields,
                  **panel.fields}
        weight = "bold" if panel.head else "normal"
        if panel.title is not None:
            ax.set_title(st.filled(panel.title, fields), fontweight=weight)
        if panel.ylabel:
            ax.set_ylabel(panel.ylabel, fontweight=weight)
        ax.set_xlabel(panel.xlabel if panel.xlabel is not None else panel.feature or "")

    def decorate(self, ax: Axes, panel: Panel) -> None:
        """Reference lines, the shaded range and vertical lines of a curves panel."""
        lo, hi = ax.get_xlim()
        for ref in self.refs:
            if ref.applies(panel.scenario, panel.feature):
                ref.draw(ax, lo, hi)
                self.legend.add(ref.label or ref.expression.text, color=ref.colour,
                                linestyle=ref.linestyle)
        ax.set_xlim(lo, hi)
        if panel.shade is not None:
            ax.axvspan(*panel.shade, color=self.hues.shade, zorder=0)
            self.legend.add(self.p["shade_label"], color=self.hues.shade, linewidth=6)
        for x in panel.vlines:
            ax.axvline(x, color="0.6", linestyle=":", linewidth=1.0)


def _share(share: str, p: dict) -> dict[str, Any]:
    """The ``subplots`` sharing of ``share`` (``all``: shared unless limits are given)."""
    return {"all": {"sharex": p["xlim"] is None, "sharey": p["ylim"] is None},
            "x": {"sharex": True}, "y": {"sharey": True},
            "columns": {"sharex": "col", "sharey": "col"}, "none": {}}[share]


def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, p: dict) -> None:
    """The figure: every panel of the layout, the figure's y label and the legend."""
    drawer = Drawer(inputs, p)
    chosen = layout_of(inputs, drawer.est, p)
    nrows = max(panel.row for panel in chosen) + 1
    ncols = max(panel.col for panel in chosen) + 1
    fig, style = st.new_figure(spec, rows=nrows, width=max(6.0, 2.9 * ncols + 1.2),
                               panel_height=2.5)
    axes = fig.subplots(nrows, ncols, squeeze=False, **_share(p["share"], p))
    used = {(panel.row, panel.col) for panel in chosen}
    for (r, c), ax in np.ndenumerate(axes):
        if (r, c) not in used:
            ax.set_visible(False)
    for panel in chosen:
        drawer.panel(fig, axes[panel.row, panel.col], panel)
    if p["ylabel"]:
        fig.supylabel(p["ylabel"])
    handles = list(drawer.legend.handles.values())
    for handle in handles:
        handle.set_label(handle.get_label().replace("{reps}", str(drawer.reps)))
    if p["legend"] and handles:
        st.legend_below(fig, handles, ncols=min(len(handles), 4))
    st.save(fig, style, out_png, out_pdf)


def _draws_truth(p: Mapping[str, Any]) -> bool:
    """Whether an entry draws a true curve: ``truths`` lists one, or one of its panels does."""
    return bool(p["truths"]) or any(panel.get("truths") for panel in p["panels"] or [])


@figure("rep_curve_grid", methods=("curves",), truths=("effects",), params=PARAMS,
        needs_truth=_draws_truth)
def rep_curve_grid(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path,
                   **params: Any) -> None:
    """Panels of every repetition's curve, their mean, the scenarios' true curves and
    reference lines (see the module doc)."""
    draw(inputs, spec, out_png, out_pdf, params)
