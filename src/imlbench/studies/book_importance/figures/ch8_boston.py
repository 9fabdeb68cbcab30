"""Figures of the book's chapter 8 and of the real data of chapter 9: the cells of the PFI and LOCO
illustration tables and of the shuffled bike days (Figs 8.1, 8.3, 9.1, from the rows of
``book_importance.illustration_rows``; the table source ``book_importance.illustration`` of the
layer's ``table``) and the Boston benchmark with the features' correlations (Fig. 9.23). A forest's
PFI on Boston in iml's look (Fig. 8.2) and PFI or LOCO of the three Boston variants (Figs 9.24,
9.25) are entries of the layer's ``importance_dots``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from imlbench.explain.importance import LOSSES
from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.figures.table import Panel, table_source
from imlbench.params import choice, integer, items, table, text
from imlbench.studies.book_importance.ch8_boston import DROPPED, ORIGINAL, PERMUTED
from imlbench.studies.book_importance.ch8_boston import conflicts as contradicting

#: the book's learner colours (ggplot2 hues: forest red, SVM green, linear model blue)
LEARNER_COLOURS = ("#f8766d", "#00ba38", "#619cff")


def _cell(value: float, column: str, levels: dict) -> str:
    """A table cell: the level's name of a coded column, else the number."""
    if column in levels:
        return str(levels[column].get(str(int(value)), f"{value:g}"))
    return f"{value:.4g}"


@table_source("book_importance.illustration", params={
    "kind": choice("permute", ("permute", "drop")), "columns": items(text()),
    "rows": integer(6, minimum=1), "loss": choice("absolute", tuple(LOSSES)),
    "dates": text(None, nullable=True), "names": table(value=text(), default={}),
    "levels": table(value=table(value=text()), default={}),
    "conflicts": table(value=text(), default={}),
})
def illustration(est: pd.DataFrame, *, kind: str, columns: list[str], rows: int, loss: str,
                 dates: str | None, names: dict, levels: dict, conflicts: dict) -> list[Panel]:
    """The first ``rows`` rows of the first repetition of ``book_importance.illustration_rows``:
    intact, then per permuted feature (``kind: permute``; its first shuffle, the column shaded) or
    per dropped feature (``drop``; the column left out and the refit's prediction f_-j). With
    predictions, each table's title gives the mean ``loss`` over all rows. ``dates`` (a start date)
    adds the date of each row (row k: that date + k days); ``names`` renames columns, ``levels``
    names the codes of coded columns (code as text -> name); ``conflicts`` ({feature, flag,
    holiday}) flags the rows whose weekday contradicts the working-day flag
    (:func:`imlbench.studies.book_importance.ch8_boston.conflicts`)."""
    est = est[est["rep"] == est["rep"].min()]
    original = est[est["table"] == ORIGINAL].pivot(index="row", columns="column",
                                                   values="value")
    has_f = "prediction" in original
    other = est[(est["table"] == (PERMUTED if kind == "permute" else DROPPED))
                & (est["shuffle"] == 0)]
    loss_of = LOSSES[loss]

    def mean_loss(prediction: pd.Series) -> str:
        value = float(np.mean(loss_of(original["y"].to_numpy(float), prediction.to_numpy(float))))
        return f"; mean {loss} loss over all {len(original)} rows: {value:.3g}"

    def panel(data: pd.DataFrame, cols: list[str], f_name: str, title: str,
              shaded: tuple[str, ...] = ()) -> Panel:
        head = data.head(rows)
        out = pd.DataFrame(index=head.index)
        if dates:
            out["date"] = [str((pd.Timestamp(dates) + pd.Timedelta(days=int(k))).date())
                           for k in head.index]
        for c in [*cols, "y"]:
            out[names.get(c, c)] = [_cell(v, c, levels) for v in head[c]]
        if "prediction" in head:
            out[f_name] = [f"{v:.4g}" for v in head["prediction"]]
            title += mean_loss(data["prediction"])
        flagged = () if not conflicts else tuple(contradicting(
            *(head[conflicts[k]].to_numpy(float) for k in ("feature", "flag", "holiday")),
            [0, 6]))
        return Panel(out.reset_index(drop=True), title=title, shaded=shaded, flagged=flagged)

    panels = [panel(original, columns, "f(x)", "intact data")]
    for feature in dict.fromkeys(other["feature"]):
        part = other[other["feature"] == feature].pivot(index="row", columns="column",
                                                        values="value")
        name = names.get(feature, feature)
        if kind == "permute":
            data = original.copy()
            data[feature] = part[feature]
            if has_f:
                data["prediction"] = part["prediction"]
            panels.append(panel(data, columns, "f(x perm)",
                                f"{name} permuted over all {len(data)} rows", (name,)))
        else:
            data = original.drop(columns="prediction").assign(prediction=part["prediction"])
            panels.append(panel(data, [c for c in columns if c != feature], "f_-j(x_-j)",
                                f"{name} left out, model refitted"))
    return panels


def _correlations(assoc: pd.DataFrame) -> pd.DataFrame:
    """The mean Pearson correlation over repetitions of every pair in ``assoc`` (metric rows
    ``pearson:a:b`` of one or more scenarios) as a symmetric matrix; an exact copy
    ``<f>_dup`` shares every correlation of ``f``, so the pairs of the copies of two data sets
    (the exact and the noisy copy) are filled from ``f``."""
    parts = assoc["metric"].str.split(":", expand=True)
    pairs = pd.DataFrame({"a": parts[1], "b": parts[2], "value": assoc["value"]})
    pairs = pairs[parts[0] == "pearson"].groupby(["a", "b"])["value"].mean()
    names = list(dict.fromkeys([*pairs.index.get_level_values(0),
                                *pairs.index.get_level_values(1)]))
    full = np.full((len(names), len(names)), np.nan)
    np.fill_diagonal(full, 1.0)
    m = pd.DataFrame(full, index=names, columns=names)
    for (a, b), v in pairs.items():
        m.loc[a, b] = m.loc[b, a] = v
    for dup in [n for n in names if n.endswith("_dup") and n[: -len("_dup")] in names]:
        base = dup[: -len("_dup")]
        unmeasured = m.loc[dup].isna()
        m.loc[dup, unmeasured] = m.loc[base, unmeasured]
        m.loc[unmeasured, dup] = m.loc[base, unmeasured]
    return m


def _cluster_order(m: pd.DataFrame) -> list[str]:
    """The variables in the leaf order of a complete-linkage clustering on 1 - r."""
    from scipy.cluster.hierarchy import leaves_list, linkage
    from scipy.spatial.distance import squareform

    d = 1.0 - m.to_numpy(float)
    np.fill_diagonal(d, 0.0)
    d = (d + d.T) / 2
    return [m.index[i] for i in leaves_list(linkage(squareform(d, checks=False), "complete"))]


@figure("book_importance.boston_benchmark", methods=("fit", "association"), params={
    "metric": choice("mse_test", ("mse_test", "mse_train", "r2_test", "r2_train")),
    "names": table(value=text(), default={})})
def boston_benchmark(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                     metric: str, names: dict) -> None:
    """Left: ``metric`` of each learner over the repetitions as boxplots (the first scenario
    that has it), named by ``names``; right: the mean Pearson correlations of every
    scenario's features and copies as a matrix, ordered by hierarchical clustering (Fig.
    9.23)."""
    fit = inputs.estimates("fit")
    fit = fit[fit["metric"] == metric]
    fit = fit[fit["scenario"] == next(s for s in inputs.scenarios if s in set(fit["scenario"]))]
    learners = list(dict.fromkeys(fit["learner"]))
    fig, style = st.new_figure(spec, rows=1, width=11.0, panel_height=4.4)
    left, right = fig.subplots(1, 2, width_ratios=[1.0, 1.35])
    data = [fit.loc[fit["learner"] == lrn, "value"].to_numpy(float) for lrn in learners]
    box = left.boxplot(data, patch_artist=True, widths=0.6)
    left.set_xticks(range(1, len(learners) + 1), [names.get(lrn, lrn) for lrn in learners])
    for patch, colour in zip(box["boxes"], LEARNER_COLOURS, strict=False):
        patch.set_facecolor(colour)
        patch.set_alpha(0.8)
    left.set_ylabel(metric.replace("_", " "))
    left.set_title(f"{metric.replace('_', ' ')} over {fit['rep'].nunique()} splits")

    m = _correlations(inputs.estimates("association"))
    order = _cluster_order(m)
    m = m.loc[order, order]
    mesh = right.imshow(m.to_numpy(float), cmap="RdBu_r", vmin=-1, vmax=1)
    right.set_xticks(range(len(order)), order, rotation=45, ha="right")
    right.set_yticks(range(len(order)), order)
    right.grid(False)
    for i in range(len(order)):
        for j in range(len(order)):
            v = m.iloc[i, j]
            right.text(j, i, f"{v:.2f}", ha="center", va="center",
                       fontsize=style["font_size"] - 1.5,
                       color="white" if abs(v) > 0.6 else "black")
    fig.colorbar(mesh, ax=right, label="Pearson r", shrink=0.85)
    right.set_title("Pearson correlations (mean over the splits)")
    st.save(fig, style, out_png, out_pdf)
