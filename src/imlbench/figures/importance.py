"""Importances as dots with spread lines, the look of iml's ``FeatureImp`` plot that the LMU
book draws every importance in (Molnar et al., eds., 2019, chs 8-11): ``importance_dots``.

In each panel, one line per feature, sorted by importance (the most important on top) or in
a given ``order``: a dot at the feature's importance and a line over its spread, for each
*group* of estimates in its own colour, the groups dodged vertically. The importance and its
spread (``spread``):

* ``quantiles`` (default): the ``centre`` (median or mean) of the importance over the
  repetitions, and a line between its ``quantiles`` over them (default 5% and 95%, as the
  book draws the spread over its splits and data sets);
* ``reported``: the first repetition's importance with the interval its method reports
  (columns ``lower`` and ``upper``, e.g. PFI's quantiles over the permutations of one fit,
  levels ``lower_q`` and ``upper_q``), and every other repetition's importance as a grey point
  (iml's plot of one forest against the forests of other seeds).

Groups, panel rows and panel columns (``groups``, ``rows``, ``columns``) each split the
estimates of the role ``importance`` by ``scenario``, ``method``, ``learner``, a swept
parameter (its name: ``rho`` for the column ``p_rho``) or ``none``. ``names`` names their
values (a swept value is ``rho = 0.5`` unless named), ``labels`` the features; ``learner``
keeps one learner's estimates. ``places`` adds, right of each panel, every feature's mean place
over the repetitions (1 = most important; ties share the average place) against the groups,
with reference places as dashed and dotted lines (the book's ch. 9 rank panels).

Texts are templates: ``panel_title`` knows ``{row}`` and ``{column}`` (the panel's names),
``{reps}`` (repetitions per group: ``20``, or ``5-20`` when they differ) and ``{low}`` and
``{high}`` (the spread's levels, e.g. ``{low:.0%}``); ``legend_title`` knows ``{reps}``,
``{low}`` and ``{high}``; with ``reported``, ``first_label`` knows ``{low}``, ``{high}`` and
``{n_repeats}`` and ``others_label`` ``{others}`` (the number of other repetitions).
Group colours are ``colours`` in turn (default: the book's ggplot2 hues); a single group is
black.

No truth is drawn: the book's importances are drawn on real data too, whose DGPs have none;
:func:`imlbench.figures.generic.importance_bars` draws importances against their truths.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.params import choice, flag, items, number, study_name, table, text

if TYPE_CHECKING:
    from matplotlib.axes import Axes

#: the colours of the groups, in turn (the book's ggplot2 hues)
GROUP_COLOURS = ["#f8766d", "#7cae00", "#00bfc4", "#c77cff", "#e69f00", "#555555"]
#: the columns a facet may name besides a swept parameter's
FACETS = ("scenario", "method", "learner")
#: the line styles of the reference places, in turn
REFERENCE_STYLES = ["--", ":"]
#: the repetition's keys within which the places are ranked (as the layer's ranks)
RANK_KEYS = ["scenario", "learner", "method", "rep"]
#: the columns of an estimate that reports its own interval (PFI over its permutations)
REPORTED = ("lower", "upper", "lower_q", "upper_q", "n_repeats")
#: the mean place panel's keys
PLACES = {"references": items(number()), "colours": table(value=text()), "xlabel": text(),
          "ylabel": text(), "title": text()}

PARAMS = {
    "learner": study_name("learners", None),
    "centre": choice("median", ("median", "mean")),
    "spread": choice("quantiles", ("quantiles", "reported")),
    "quantiles": items(number(minimum=0, maximum=1), [0.05, 0.95], length=2),
    "groups": text("none"),
    "rows": text("none"),
    "columns": text("none"),
    "names": table(value=text(), default={}),
    "labels": table(value=text(), default={}),
    "order": items(text(), None, nullable=True),
    "colours": items(text(), GROUP_COLOURS),
    "reference": number(1.0, nullable=True),
    "log_scale": flag(False),
    "xlabel": text("feature importance (loss ratio)"),
    "panel_title": text(None, nullable=True),
    "legend_title": text(None, nullable=True),
    "first_label": text("first repetition: {low:.0%}-{high:.0%} of {n_repeats} repeats"),
    "others_label": text("{others} other repetitions"),
    "places": table(PLACES, default=None, nullable=True),
}


def facet_column(est: pd.DataFrame, facet: str) -> str | None:
    """The column of ``est`` that ``facet`` splits by (None for ``none``)."""
    if facet == "none":
        return None
    column = facet if facet in FACETS else f"p_{facet}"
    if column not in est:
        swept = [c[2:] for c in est.columns if c.startswith("p_")]
        raise ValueError(f"cannot split importances by {facet!r}; allowed: none, "
                         f"{', '.join([*FACETS, *swept])}")
    return column


def facet_levels(est: pd.DataFrame, column: str | None, inputs: FigureInputs) -> list[Any]:
    """The values of ``column`` in the figure's order: scenarios and methods as the figure's
    entry lists them, learners and swept values sorted; ``[None]`` without a column."""
    if column is None:
        return [None]
    present = set(est[column])
    if column == "scenario":
        return [s for s in inputs.scenarios if s in present]
    if column == "method":
        return [m for m in inputs.methods("importance") if m in present]
    return sorted(present)


def level_name(value: Any, column: str | None, names: Mapping[str, str]) -> str:
    """How a facet value is named: by ``names``, a swept value as ``rho = 0.5``."""
    if column is None:
        return ""
    if str(value) in names:
        return names[str(value)]
    return f"{column[2:]} = {st.fmt(value)}" if column.startswith("p_") else str(value)


def _select(est: pd.DataFrame, column: str | None, value: Any) -> pd.DataFrame:
    return est if column is None else est[est[column] == value]


def reps_text(rows: pd.DataFrame, column: str | None) -> str:
    """The number of repetitions per group of ``rows``: ``20``, or ``5-20`` when it varies."""
    counts = rows.groupby(column)["rep"].nunique() if column else pd.Series(
        [rows["rep"].nunique()])
    low, high = int(counts.min()), int(counts.max())
    return f"{low}" if low == high else f"{low}-{high}"


def over_repetitions(rows: pd.DataFrame, centre: str, quantiles: Sequence[float]
                     ) -> pd.DataFrame:
    """Per feature: the ``centre`` (median or mean) of the importance over the repetitions of
    ``rows`` and its ``quantiles`` over them (columns ``feature``, ``centre``, ``low``,
    ``high``)."""
    g = rows.groupby("feature")["value"]
    return pd.DataFrame({"centre": g.agg(centre), "low": g.quantile(quantiles[0]),
                         "high": g.quantile(quantiles[1])}).reset_index()


def summarise(rows: pd.DataFrame, group: str | None, centre: str,
              quantiles: Sequence[float]) -> pd.DataFrame:
    """:func:`over_repetitions` of each group of ``rows`` (a ``group`` column names it)."""
    if group is None:
        return over_repetitions(rows, centre, quantiles)
    return pd.concat([over_repetitions(part, centre, quantiles).assign(**{group: g})
                      for g, part in rows.groupby(group, sort=False)], ignore_index=True)


def first_reported(rows: pd.DataFrame) -> pd.DataFrame:
    """Per feature: the first repetition's importance and the interval its method reports
    (with that interval's levels and the method's repeats)."""
    missing = [c for c in REPORTED if c not in rows]
    if missing:
        raise ValueError(f"spread: reported draws the interval a method reports, and these "
                         f"estimates have no {', '.join(missing)}; allowed: spread: quantiles")
    first = rows[rows["rep"] == rows["rep"].min()]
    return first.rename(columns={"value": "centre", "lower": "low", "upper": "high"})[
        ["feature", "centre", "low", "high", "lower_q", "upper_q", "n_repeats"]]


def mean_places(rows: pd.DataFrame, column: str | None) -> pd.DataFrame:
    """Per group value and feature: the mean over the repetitions of the feature's place among
    its repetition's features, 1 = most important (ties share the average place)."""
    place = rows.groupby(RANK_KEYS)["value"].rank(ascending=False, method="average")
    by = [column, "feature"] if column else ["feature"]
    return rows.assign(place=place).groupby(by, sort=True)["place"].mean().reset_index()


def draw_dots(ax: Axes, summary: pd.DataFrame, groups: list[Any], colours: Mapping[Any, str],
              *, group: str | None, names: Mapping[str, str], labels: Mapping[str, str],
              order: Sequence[str] | None, reference: float | None, xlabel: str) -> list[str]:
    """Draw ``summary`` (columns ``feature``, ``centre``, ``low``, ``high`` and the ``group``
    column) as dots with range lines, each group dodged in its colour; return the features
    drawn, top first (``order``, else by the largest centre over the groups)."""
    if order is None:
        order = list(summary.groupby("feature")["centre"].max()
                     .sort_values(ascending=False).index)
    position = {f: len(order) - 1 - i for i, f in enumerate(order)}
    step = 0.6 / max(1, len(groups))
    for i, g in enumerate(groups):
        mine = _select(summary, group, g)
        mine = mine[mine["feature"].isin(list(position))]
        y = np.array([position[f] for f in mine["feature"]], dtype=float)
        y += (i - (len(groups) - 1) / 2) * step
        ax.hlines(y, mine["low"], mine["high"], color=colours[g], linewidth=1.5)
        ax.plot(mine["centre"], y, "o", color=colours[g], markersize=4,
                label=None if group is None else level_name(g, group, names))
    if reference is not None:
        ax.axvline(reference, color="#999999", linestyle=":", linewidth=1.0)
    ax.set_yticks([position[f] for f in order], [labels.get(f, f) for f in order])
    ax.set_ylim(-0.6, len(order) - 0.4)
    ax.set_xlabel(xlabel)
    return list(order)


def draw_others(ax: Axes, rows: pd.DataFrame, order: list[str], label: str) -> None:
    """Every repetition's importance but the first's as grey points on the features' lines."""
    rest = rows[(rows["rep"] != rows["rep"].min()) & rows["feature"].isin(order)]
    position = {f: len(order) - 1 - i for i, f in enumerate(order)}
    ax.plot(rest["value"], [position[f] for f in rest["feature"]], "o", color="0.6",
            markersize=3, alpha=0.7, zorder=1,
            label=label.format(others=rest["rep"].nunique()))


def draw_places(ax: Axes, rows: pd.DataFrame, column: str | None, levels: list[Any],
                places: Mapping[str, Any], *, names: Mapping[str, str],
                labels: Mapping[str, str], colours: Sequence[str]) -> None:
    """Each feature's mean place against the group values (numbers on their axis, otherwise
    in turn), the reference places and a reversed axis (place 1 on top)."""
    mean = mean_places(rows, column)
    numeric = column is not None and column.startswith("p_")
    x = {g: (g if numeric else i) for i, g in enumerate(levels)}
    given = places.get("colours", {})
    present = set(mean["feature"])
    features = [f for f in given if f in present] + [
        f for f in st.feature_order(present) if f not in given]
    for i, f in enumerate(features):
        mine = mean[mean["feature"] == f]
        xs = [x[g] for g in mine[column]] if column else [0.0] * len(mine)
        ax.plot(xs, mine["place"], "o-", color=given.get(f, colours[i % len(colours)]),
                label=labels.get(f, f), linewidth=1.8, markersize=4)
    for i, place in enumerate(places.get("references", [])):
        ax.axhline(place, color="black", linewidth=0.9,
                   linestyle=REFERENCE_STYLES[i % len(REFERENCE_STYLES)])
    ax.set_ylim(len(features) + 0.3, 0.7)
    ax.set_xticks(list(x.values()), None if numeric else
                  [level_name(g, column, names) for g in levels])
    ax.set_xlabel(places.get("xlabel", column[2:] if numeric else column or ""))
    ax.set_ylabel(places.get("ylabel", "mean place (1 = most important)"))
    ax.set_title(places.get("title", "mean place over the repetitions"))
    ax.legend(loc="lower left", fontsize="small", ncols=max(1, len(features)))


def _panels(fig: Any, rows: int, columns: int, places: bool) -> list[list[tuple[Any, Any]]]:
    """Per panel row, the (dots, places) axes of each panel column; dots panels share x
    unless each has a places panel beside it."""
    if not places:
        axes = fig.subplots(rows, columns, squeeze=False, sharex=True)
        return [[(ax, None) for ax in row] for row in axes]
    axes = fig.subplots(rows, 2 * columns, squeeze=False, width_ratios=[1.15, 1.0] * columns)
    return [[(row[2 * c], row[2 * c + 1]) for c in range(columns)] for row in axes]


@figure("importance_dots", methods=("importance",), params=PARAMS)
def importance_dots(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                    learner: str | None, centre: str, spread: str, quantiles: list[float],
                    groups: str, rows: str, columns: str, names: dict[str, str],
                    labels: dict[str, str], order: list[str] | None, colours: list[str],
                    reference: float | None, log_scale: bool, xlabel: str,
                    panel_title: str | None, legend_title: str | None, first_label: str,
                    others_label: str, places: dict[str, Any] | None) -> None:
    """Panels of importances per feature as dots with spread lines, groups in colour, and
    optionally every feature's mean place beside each panel (see the module doc)."""
    est = inputs.estimates("importance")
    if learner is not None:
        est = est[est["learner"] == learner]
    if est.empty:
        raise ValueError(f"figure {spec['title']!r}: no importances of learner {learner!r} in "
                         f"scenario(s) {', '.join(inputs.scenarios)}")
    group, row, col = (facet_column(est, f) for f in (groups, rows, columns))
    row_levels, col_levels = facet_levels(est, row, inputs), facet_levels(est, col, inputs)
    group_levels = facet_levels(est, group, inputs)
    palette = {g: "black" if group is None else colours[i % len(colours)]
               for i, g in enumerate(group_levels)}
    width = 4.2 * len(col_levels) + (3.8 * len(col_levels) if places is not None else 0.0)
    fig, style = st.new_figure(spec, rows=len(row_levels), width=width)
    levels = quantiles
    for r, axes in zip(row_levels, _panels(fig, len(row_levels), len(col_levels),
                                           places is not None), strict=True):
        for c, (ax, beside) in zip(col_levels, axes, strict=True):
            mine = _select(_select(est, row, r), col, c)
            summary = (first_reported(mine) if spread == "reported"
                       else summarise(mine, group, centre, quantiles))
            drawn = draw_dots(ax, summary, group_levels, palette, group=group, names=names,
                              labels=labels, order=order, reference=reference, xlabel=xlabel)
            if spread == "reported":
                first = summary.iloc[0]
                levels = [first["lower_q"], first["upper_q"]]
                draw_others(ax, mine, drawn, others_label)
                ax.plot([], [], "o-", color="black", markersize=4, label=first_label.format(
                    low=levels[0], high=levels[1], n_repeats=int(first["n_repeats"])))
            if log_scale:
                ax.set_xscale("log")
            if panel_title is not None:
                ax.set_title(panel_title.format(
                    row=level_name(r, row, names), column=level_name(c, col, names),
                    reps=reps_text(mine, group), low=levels[0], high=levels[1]))
            if beside is not None:
                draw_places(beside, mine, group, group_levels, places, names=names,
                            labels=labels, colours=colours)
    first_ax = fig.axes[0]
    if first_ax.get_legend_handles_labels()[0]:
        title = None if legend_title is None else legend_title.format(
            reps=reps_text(est, group), low=levels[0], high=levels[1])
        first_ax.legend(title=title, loc="lower right", fontsize="small")
    st.save(fig, style, out_png, out_pdf)
