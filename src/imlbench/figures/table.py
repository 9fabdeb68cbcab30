"""Tables drawn as figures: ``table``.

The figure draws one or more tables (panels, one under the other), each with an optional
title above it, and optionally horizontal bars of some of its columns beside it. The drawer
owns the look: bold header cells on the ``header`` colour, the columns marked ``shade`` on the
``shade`` colour, the rows a table flags in bold ``flag`` text, the cells aligned by ``align``
(a column may override it) and rows ``row_height`` times matplotlib's height.

Its cells come from the estimates of the role ``table`` in one of two ways:

* the layer's own table (default): one line per entry of ``rows``, whose keys named in ``by``
  select the estimate rows of the line (e.g. ``method``, ``scenario`` and ``n``) and whose
  other keys are numbers given with it (e.g. a published value) or its ``label``. ``columns``
  name what each column shows (``show``): the line's ``label``; a statistic of the column
  ``value`` of its estimate rows, times ``scale`` (``median``, ``mean``, ``min``, ``max``,
  ``range``: min-max, ``count``); or a given number by its key. With ``ratio``, a number is
  divided by that of the first line. Numbers are written by ``format``: a format string
  (``"{:.2f}"``) or a list of ``{below:, format:}`` rules, the first whose ``below`` the value
  is under (a rule without ``below`` takes the rest); the label's format knows ``{line}`` (its
  number) and ``{label}``. A line whose estimate rows are missing reads ``absent`` in its first
  statistic column when its scenario has no estimates among the figure's (it does not run in
  this profile), else ``empty`` (e.g. a size that runs in the paper profile only). A column
  with ``bar`` (``colour``, ``label``) is also drawn as bars beside the table, on the axis
  ``bars`` describes (``xlabel``, ``ylabel``, ``log``, ``reference``: a vertical line).
* a study's table source (``source``: a name registered with :func:`table_source`, its
  parameters in ``source_params``): a function of the role's estimates that returns the
  :class:`Panel` s to draw, for tables that are no statistics of selected rows (e.g. the first
  rows of a data set with one column permuted).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.params import (
    Param,
    choice,
    either,
    flag,
    items,
    number,
    registered,
    table,
    text,
    with_defaults,
)
from imlbench.registry import Registry

if TYPE_CHECKING:
    from matplotlib.axes import Axes

#: the statistics a column of the layer's table may show, of a line's values
STATISTICS: dict[str, Callable[[np.ndarray], float]] = {
    "median": np.median, "mean": np.mean, "min": np.min, "max": np.max,
    "count": lambda v: len(v)}
ALIGN = ("left", "center", "right")
FORMAT = either(text(), items(table({"below": number(), "format": text()})))
COLUMN = table({"header": text(), "show": text(), "format": FORMAT, "ratio": flag(),
                "align": choice(None, ALIGN), "width": number(minimum=0), "shade": flag(),
                "bar": table({"colour": text(), "label": text()})})
BARS = {"xlabel": text(), "ylabel": text(), "log": flag(), "reference": number(nullable=True)}


@dataclass(frozen=True)
class Panel:
    """One table of a figure: its text ``cells`` (the columns are the headers), its
    ``title``, the headers of its ``shaded`` columns, the rows it ``flagged``, each column's
    ``align`` and relative ``widths`` (empty: the drawer's), and ``bars``: (label, colour,
    one value per line) of each bar series drawn beside it."""

    cells: pd.DataFrame
    title: str = ""
    shaded: tuple[str, ...] = ()
    flagged: tuple[bool, ...] = ()
    align: tuple[str | None, ...] = ()
    widths: tuple[float, ...] = ()
    bars: tuple[tuple[str, str, tuple[float, ...]], ...] = ()


@dataclass(frozen=True)
class Source:
    """A registered table source: ``make(estimates, **params) -> panels`` and its declared
    parameters."""

    make: Callable[..., list[Panel]]
    params: Mapping[str, Param]


SOURCES: Registry[Source] = Registry("table source", providers=("imlbench.figures.table",))


def table_source(name: str, params: Mapping[str, Param] | None = None
                 ) -> Callable[[Callable[..., list[Panel]]], Callable[..., list[Panel]]]:
    """Register ``make`` as table source ``name`` (a study's: ``<study>.<name>``) with its
    parameters."""

    def decorator(make: Callable[..., list[Panel]]) -> Callable[..., list[Panel]]:
        SOURCES.register(name, module=make.__module__)(Source(make, dict(params or {})))
        return make

    return decorator


def _source_params(siblings: Mapping[str, Any]) -> Mapping[str, Param]:
    """The declared parameters of the source a figure names (none when it names none)."""
    name = siblings.get("source")
    return SOURCES.get(name).params if isinstance(name, str) and name in SOURCES else {}


def formatted(value: float, rule: str | list[dict]) -> str:
    """``value`` written by a format string or by the first rule whose ``below`` it is
    under."""
    if isinstance(rule, str):
        return rule.format(value)
    for r in rule:
        if "below" not in r or value < r["below"]:
            return r["format"].format(value)
    raise ValueError(f"no format rule takes {value}; give a last rule without below")


def _cell(column: Mapping[str, Any], values: np.ndarray, base: float, number: float) -> str:
    """The text of one column of one line (``number`` its value, ``base`` the first line's)."""
    rule = column.get("format", "{:.4g}")
    if column["show"] == "range":
        return f"{formatted(values.min(), rule)}–{formatted(values.max(), rule)}"
    if column.get("ratio"):
        return formatted(number / base, rule) if base == base else "–"
    return formatted(number, rule)


def _numbers(column: Mapping[str, Any], lines: list[dict], values: list[np.ndarray]
             ) -> list[float]:
    """The number each line shows in ``column`` (NaN: none)."""
    show = column["show"]
    if show in STATISTICS:
        return [float(STATISTICS[show](v)) if len(v) else np.nan for v in values]
    if show in ("label", "range"):
        return [np.nan] * len(lines)
    missing = [line["label"] for line in lines if show not in line]
    if missing:
        raise ValueError(f"column {column['header']!r} shows {show!r}, which line(s) "
                         f"{', '.join(missing)} do not give; allowed: label, range, "
                         f"{', '.join(STATISTICS)} or a key every line gives")
    return [float(line[show]) for line in lines]


def _line_values(est: pd.DataFrame, rows: list[dict], by: list[str], value: str,
                 scale: float) -> list[np.ndarray]:
    """Each line's values: ``value`` times ``scale`` of the estimate rows its ``by`` keys
    select."""
    unknown = [c for c in [*by, value] if c not in est]
    if unknown:
        raise ValueError(f"the estimates have no column(s) {', '.join(unknown)} (by, value); "
                         f"allowed: {', '.join(est.columns)}")
    values = []
    for row in rows:
        if not set(by) <= set(row):
            raise ValueError(f"line {row.get('label', row)!r} lacks "
                             f"{', '.join(sorted(set(by) - set(row)))}; allowed: a line gives "
                             f"every key of by ({', '.join(by)})")
        keep = np.ones(len(est), dtype=bool)
        for key in by:
            keep &= (est[key] == row[key]).to_numpy()
        values.append(est.loc[keep, value].to_numpy(float) * scale)
    return values


def _texts(column: Mapping[str, Any], rows: list[dict], values: list[np.ndarray],
           missing: list[str | None]) -> list[str]:
    """The cells of one column; ``missing`` is the text of each line without values (None:
    it has some) when this column is the first statistic column, else ``""``."""
    numbers = _numbers(column, rows, values)
    texts = []
    for k, (row, v) in enumerate(zip(rows, values, strict=True)):
        if column["show"] == "label":
            texts.append(column.get("format", "{label}").format(line=k + 1, label=row["label"]))
        elif missing[k] is not None:
            texts.append(missing[k])
        else:
            texts.append(_cell(column, v, numbers[0], numbers[k]))
    return texts


def rows_table(est: pd.DataFrame, rows: list[dict], columns: list[dict], *, by: list[str],
               value: str, scale: float, empty: str, absent: str) -> Panel:
    """The layer's table: one line per entry of ``rows`` (see the module doc)."""
    incomplete = [i for i, c in enumerate(columns) if not {"header", "show"} <= set(c)]
    if incomplete:
        raise ValueError(f"columns[{incomplete[0]}] lacks its header or show; allowed: a "
                         f"column with both")
    values = _line_values(est, rows, by, value, scale)
    ran = set(est["scenario"])
    stats = [i for i, c in enumerate(columns) if c["show"] in (*STATISTICS, "range")]
    cells, bars = {}, []
    for i, column in enumerate(columns):
        missing = [None if len(v) or i not in stats else
                   "" if i != stats[0] else absent if row.get("scenario") not in ran else empty
                   for row, v in zip(rows, values, strict=True)]
        cells[column["header"]] = _texts(column, rows, values, missing)
        if "bar" in column:
            numbers = np.array(_numbers(column, rows, values))
            shown = numbers / (numbers[0] if column.get("ratio") else 1.0)
            bars.append((column["bar"]["label"], column["bar"]["colour"], tuple(shown)))
    widths = [c.get("width") for c in columns]
    return Panel(pd.DataFrame(cells),
                 shaded=tuple(c["header"] for c in columns if c.get("shade")),
                 align=tuple(c.get("align") for c in columns),
                 widths=tuple(widths) if all(w is not None for w in widths) else (),
                 bars=tuple(bars))


def draw_table(ax: Axes, panel: Panel, style: Mapping[str, Any], *, align: str, header: str,
               shade: str, flag_colour: str, row_height: float) -> None:
    """``panel`` as a table on ``ax``: under its title if it has one, else centred."""
    ax.axis("off")
    if panel.title:
        ax.set_title(panel.title, loc="left", fontsize=style["font_size"])
    columns = list(panel.cells.columns)
    tab = ax.table(cellText=panel.cells.to_numpy().tolist(), colLabels=columns,
                   loc="upper center" if panel.title else "center", cellLoc=align,
                   colLoc="center", colWidths=list(panel.widths) or None)
    tab.auto_set_font_size(False)
    tab.set_fontsize(style["font_size"] - 0.5)
    tab.scale(1.0, row_height)
    lines = max(str(c).count("\n") + 1 for c in columns)
    for (r, c), cell in tab.get_celld().items():
        cell.set_edgecolor("0.85")
        if r == 0:
            cell.set_facecolor(header)
            cell.set_text_props(fontweight="bold")
            cell.set_height(cell.get_height() * (1 + 0.8 * (lines - 1)))
            continue
        where = panel.align[c] if panel.align else None
        if where is not None:
            cell.set_text_props(ha=where)
            if where == "left":
                cell.PAD = 0.02
        if columns[c] in panel.shaded:
            cell.set_facecolor(shade)
        if panel.flagged and panel.flagged[r - 1]:
            cell.set_text_props(color=flag_colour, fontweight="bold")


def draw_bars(ax: Axes, panel: Panel, axis: Mapping[str, Any]) -> None:
    """Each bar series of ``panel`` as horizontal bars, one row per line of its table (line 1
    on top), series dodged; on a log axis with ticks at 1, 2 and 5 per decade when it spans
    two decades at most."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    n = len(panel.bars)
    y = np.arange(len(panel.cells))
    for i, (label, colour, values) in enumerate(panel.bars):
        ax.barh(y + (i - (n - 1) / 2) * 0.8 / n, values, height=0.76 / n, color=colour,
                label=label)
    if axis.get("log"):
        ax.set_xscale("log")
        shown = [v for _, _, values in panel.bars for v in values if v == v]
        decades = np.log10(max(shown) / min(shown))
        ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0) if decades <= 2
                                              else (1.0,)))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        ax.xaxis.set_minor_formatter(NullFormatter())
    if axis.get("reference") is not None:
        ax.axvline(axis["reference"], color="0.3", linewidth=0.6)
    ax.set_yticks(y, [str(i + 1) for i in y])
    ax.invert_yaxis()
    ax.set_xlabel(axis.get("xlabel", ""))
    ax.set_ylabel(axis.get("ylabel", "line of the table"))
    ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncols=n, frameon=False)


@figure("table", methods=("table",), params={
    "rows": items(table(value=either(text(), number())), default=[]),
    "columns": items(COLUMN, default=[]),
    "by": items(text(), default=["method", "scenario"]),
    "value": text("value"),
    "scale": number(1.0),
    "empty": text("no data"),
    "absent": text("not run"),
    "source": registered(SOURCES, None),
    "source_params": table(_source_params, default={}),
    "align": choice("center", ALIGN),
    "header": text("#ececec"),
    "shade": text("#fde0c5"),
    "flag": text("#c0392b"),
    "row_height": number(1.3, minimum=0),
    "bars": table(BARS, default={}),
})
def table_figure(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                 rows: list[dict], columns: list[dict], by: list[str], value: str,
                 scale: float, empty: str, absent: str, source: str | None,
                 source_params: dict, align: str, header: str, shade: str, flag: str,
                 row_height: float, bars: dict) -> None:
    """Tables of the role ``table``'s estimates, one under the other, each with its bars
    beside it when it has any (see the module doc)."""
    est = inputs.estimates("table")
    if source is None:
        panels = [rows_table(est, rows, columns, by=by, value=value, scale=scale,
                             empty=empty, absent=absent)]
    else:
        made = SOURCES.get(source)
        panels = made.make(est, **with_defaults(made.params, source_params))
    lines = max(len(p.cells) for p in panels)
    with_bars = any(p.bars for p in panels)
    fig, style = st.new_figure(spec, rows=len(panels), width=9.5,
                               panel_height=max(2.0 if with_bars else 0.0,
                                                0.32 * (lines + 1) + 0.45))
    beside: list[Any] = [None] * len(panels)
    if with_bars:
        left, right = fig.subfigures(1, 2, width_ratios=[3.1, 1.0])
        tables = left.subplots(len(panels), 1, squeeze=False)[:, 0]
        beside = list(right.subplots(len(panels), 1, squeeze=False)[:, 0])
    else:
        tables = fig.subplots(len(panels), 1, squeeze=False)[:, 0]
    for ax, bar_ax, panel in zip(tables, beside, panels, strict=True):
        draw_table(ax, panel, style, align=align, header=header, shade=shade, flag_colour=flag,
                   row_height=row_height)
        if bar_ax is not None:
            draw_bars(bar_ax, panel, bars)
    st.save(fig, style, out_png, out_pdf)
