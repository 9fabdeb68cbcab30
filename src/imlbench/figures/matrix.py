"""A symmetric matrix of pairwise values as a heat map with each value printed in its cell: the
LMU book's association and correlation matrices (Molnar et al., eds., 2019, Figs 3.3, 3.7 and
6.19).

Two sources, one drawing (:func:`draw_matrix`):

* ``matrix``: the pairs of a metric method of role ``matrix`` (rows ``<measure>:<a>:<b>``,
  e.g. the layer's ``association`` method), the mean over repetitions of ``measure``
  between ``variables`` (those without a value are left out), 1 on the diagonal;
* ``correlation_matrix``: Pearson's correlations of the ``variables`` of the first
  repetition's training rows (every column but rep, split and scenario when none are listed).

Both take ``rename`` (labels of the variables), ``highlight`` (a pair framed, its value in
the panel's title), ``limits`` of the colour scale (a diverging map when it holds negative
values, else a sequential one, from the figure's ``look``) and ``label`` (the colour bar's).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.params import choice, items, number, table, text

#: a printed value is white where its size exceeds this share of the scale's largest
WHITE_ABOVE = 0.6
COMMON = {
    "rename": table(value=text(), default={}),
    "highlight": items(text(), None, length=2, nullable=True),
    "limits": items(number(), [-1.0, 1.0], length=2),
    "look": choice("house", tuple(st.LOOKS)),
}


def pairs_matrix(metrics: pd.DataFrame, measure: str, variables: list[str]) -> pd.DataFrame:
    """The symmetric matrix of ``measure`` between ``variables`` from the metric rows
    ``<measure>:a:b`` (mean over repetitions), 1 on the diagonal, NaN where a pair has no
    row."""
    values = metrics.groupby("metric")["value"].mean()
    out = pd.DataFrame(np.eye(len(variables)), index=variables, columns=variables)
    for i, a in enumerate(variables):
        for b in variables[i + 1:]:
            v = values.get(f"{measure}:{a}:{b}", values.get(f"{measure}:{b}:{a}", np.nan))
            out.loc[a, b] = out.loc[b, a] = v
    return out


def draw_matrix(inputs_spec: dict, matrix: pd.DataFrame, out_png: Path, out_pdf: Path, *,
                rename: dict, highlight: list[str] | None, limits: list[float], label: str,
                title: str, look: str) -> None:
    """The heat map of ``matrix`` (see the module doc); ``title`` heads the panel, with the
    highlighted pair's value."""
    from matplotlib.patches import Rectangle

    hues = st.LOOKS[look]
    names = list(matrix.columns)
    labels = [rename.get(c, c) for c in names]
    n = len(names)
    fig, style = st.new_figure(inputs_spec, rows=1, width=1.1 * n + 2.4,
                               panel_height=1.0 * n + 0.6)
    ax = fig.subplots()
    ax.grid(False)
    lo, hi = limits
    values = matrix.to_numpy(float)
    image = ax.imshow(values, cmap=hues.diverging if lo < 0 else "Blues", vmin=lo, vmax=hi)
    dark = WHITE_ABOVE * max(abs(lo), abs(hi))
    for i in range(n):
        for j in range(n):
            v = values[i, j]
            ax.text(j, i, "" if np.isnan(v) else f"{v:.2f}", ha="center", va="center",
                    color="white" if abs(v) > dark else "black")
    if highlight:
        unknown = [h for h in highlight if h not in names]
        if unknown:
            raise ValueError(f"params.highlight: {', '.join(unknown)} not among the matrix's "
                             f"variables; allowed: {', '.join(names)}")
        i, j = names.index(highlight[0]), names.index(highlight[1])
        for a, b in ((i, j), (j, i)):
            ax.add_patch(Rectangle((b - 0.5, a - 0.5), 1, 1, fill=False, linewidth=2,
                                   edgecolor="black"))
        title = f"{labels[i]}, {labels[j]}: {values[i, j]:.2f}" + (f"; {title}" if title
                                                                   else "")
    ax.set_title(title)
    ax.set_xticks(range(n), labels, rotation=45, ha="right")
    ax.set_yticks(range(n), labels)
    fig.colorbar(image, ax=ax, label=label, shrink=0.8)
    st.save(fig, style, out_png, out_pdf)


@figure("matrix", methods=("matrix",), params={
    "measure": text(), "variables": items(text()), "label": text("association"), **COMMON})
def matrix(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *, measure: str,
           variables: list[str], label: str, rename: dict, highlight: list[str] | None,
           limits: list[float], look: str) -> None:
    """``measure`` between ``variables`` from a metric method's pairs (see the module doc)."""
    est = inputs.estimates("matrix")
    held = {name for m in est["metric"] if m.startswith(f"{measure}:")
            for name in m.split(":")[1:]}
    chosen = [v for v in variables if v in held]
    if len(chosen) < 2:
        raise ValueError(f"params.variables: fewer than 2 of {', '.join(variables)} have "
                         f"{measure} values; the metrics name {', '.join(sorted(held))}")
    draw_matrix(spec, pairs_matrix(est, measure, chosen), out_png, out_pdf, rename=rename,
                highlight=highlight, limits=limits, label=label, title="", look=look)


@figure("correlation_matrix", tables=("data",), params={
    "variables": items(text(), None, nullable=True), "label": text("Pearson correlation"),
    **COMMON})
def correlation_matrix(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                       variables: list[str] | None, label: str, rename: dict,
                       highlight: list[str] | None, limits: list[float], look: str) -> None:
    """Pearson's correlations of the first data set's ``variables`` (see the module doc)."""
    data = inputs.first_data(inputs.scenarios[0]).reset_index(drop=True)
    chosen = variables or [c for c in data.columns if c not in ("rep", "split", "scenario")]
    missing = [c for c in chosen if c not in data.columns]
    if missing:
        raise ValueError(f"params.variables: {', '.join(missing)} not among the data's "
                         f"columns; allowed: {', '.join(data.columns)}")
    draw_matrix(spec, data[chosen].corr(), out_png, out_pdf, rename=rename,
                highlight=highlight, limits=limits, label=label,
                title=f"{len(data):,} rows", look=look)
