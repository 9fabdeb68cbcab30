"""Book ch. 6, Figs. 6.13-6.18: the run-time tables of ALE and PDP, ours next to the book's.

One function draws every table: its ``rows`` name, per line of the book's table, the study
method (a ``timing`` method), the scenario and the number of rows n of our measurement and
the book's milliseconds. A timing estimate holds one line per call (columns n, repeat,
seconds). Each line of the figure gives our median, mean and range over the repeats in
milliseconds and the ratio of our ``stat`` (mean or median) to that of the first line,
next to the book's milliseconds and ratio; a bar panel shows both ratios on a log scale.
A line whose scenario runs but not at its n (n = 10,000 outside the paper profile) reads
"paper profile"; one whose scenario does not run in this profile reads "not run".
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.params import choice, integer, items, number, study_name, table, text

OURS = "#1b7837"
BOOK = "#8c8c8c"
ROW = table({"label": text(), "method": study_name("methods"), "scenario": text(),
             "n": integer(minimum=1), "book_ms": number(minimum=0)})


def _ratio(value: float) -> str:
    """A ratio with about three significant digits."""
    return f"{value:.2f}" if value < 10 else f"{value:,.0f}" if value >= 100 else f"{value:.1f}"


def _ms(value: float) -> str:
    """Milliseconds with about three significant digits."""
    return f"{value:,.0f}" if value >= 100 else f"{value:#.3g}"


@figure("book_ale.runtime_table", methods=("timings",), params={
    "rows": items(ROW), "stat": choice("mean", ("mean", "median")),
})
def runtime_table(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                  rows: list[dict], stat: str) -> None:
    """A table of our run times (ms per call) and the book's, and their ratios to the first
    line as bars."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    est = inputs.estimates("timings")
    ran = set(est["scenario"])
    lines = []
    for row in rows:
        calls = est[(est["method"] == row["method"]) & (est["scenario"] == row["scenario"])
                    & (est["n"] == row["n"])]["seconds"].to_numpy(float) * 1000
        missing = None if len(calls) else (
            "paper profile" if row["scenario"] in ran else "not run")
        lines.append({**row, "calls": calls, "missing": missing,
                      "ours": getattr(np, stat)(calls) if len(calls) else np.nan})
    base_ours, base_book = lines[0]["ours"], lines[0]["book_ms"]

    cells = []
    for i, line in enumerate(lines):
        ratio_book = _ratio(line["book_ms"] / base_book)
        if line["missing"]:
            ours = [line["missing"], "", "", "", ""]
        else:
            c = line["calls"]
            ours = [_ms(float(np.median(c))), _ms(float(c.mean())),
                    f"{_ms(float(c.min()))}–{_ms(float(c.max()))}", str(len(c)),
                    _ratio(line["ours"] / base_ours) if base_ours == base_ours else "–"]
        cells.append([f"{i + 1}. {line['label']}", *ours, _ms(line["book_ms"]), ratio_book])
    header = ["call", "ours\nmedian ms", "ours\nmean ms", "ours\nmin–max ms", "ours\nruns",
              f"ours ratio\n({stat})", f"book\n{stat} ms", f"book ratio\n({stat})"]

    fig, style = st.new_figure(spec, rows=1, width=13.0,
                               panel_height=max(2.0, 0.3 * len(rows) + 0.8))
    left, right = fig.subfigures(1, 2, width_ratios=[3.1, 1.0])
    ax = left.subplots()
    ax.axis("off")
    tab = ax.table(cellText=cells, colLabels=header, loc="center", cellLoc="right",
                   colLoc="center", colWidths=[0.34, 0.1, 0.08, 0.13, 0.05, 0.1, 0.1, 0.08])
    tab.auto_set_font_size(False)
    tab.set_fontsize(style["font_size"] - 0.5)
    tab.scale(1.0, 1.35)
    for (r, c), cell in tab.get_celld().items():
        cell.set_edgecolor("0.85")
        if r == 0:
            cell.set_text_props(fontweight="bold")
            cell.set_facecolor("0.93")
            cell.set_height(cell.get_height() * 1.8)
        elif c == 0:
            cell.set_text_props(ha="left")
            cell.PAD = 0.02
        elif c >= 6:
            cell.set_facecolor("#f4f4f4")

    bars = right.subplots()
    y = np.arange(len(lines))
    ours = [line["ours"] / base_ours for line in lines]
    book = [line["book_ms"] / base_book for line in lines]
    bars.barh(y - 0.2, ours, height=0.38, color=OURS, label=f"ours ({stat})")
    bars.barh(y + 0.2, book, height=0.38, color=BOOK, label=f"book ({stat})")
    bars.set_xscale("log")
    shown = [r for r in ours + book if r == r]
    decades = np.log10(max(shown) / min(shown))
    bars.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0) if decades <= 2
                                            else (1.0,)))
    bars.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    bars.xaxis.set_minor_formatter(NullFormatter())
    bars.axvline(1.0, color="0.3", linewidth=0.6)
    bars.set_yticks(y, [str(i + 1) for i in y])
    bars.invert_yaxis()
    bars.set_xlabel("ratio to line 1 (log scale)")
    bars.set_ylabel("line of the table")
    bars.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncols=2, frameon=False)
    st.save(fig, style, out_png, out_pdf)
