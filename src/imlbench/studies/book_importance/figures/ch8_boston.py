"""Figures of the book's chapter 8 and of the real data of chapter 9: the PFI and LOCO
illustration tables and the shuffled bike days (Figs 8.1, 8.3, 9.1, from the rows of
``illustration_rows``), a forest's PFI on Boston in iml's look (Fig. 8.2), the Boston benchmark
with the features' correlations (Fig. 9.23) and PFI or LOCO of the three Boston variants
(Figs 9.24, 9.25).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from imlbench.explain.importance import LOSSES
from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.params import choice, integer, items, number, table, text
from imlbench.studies.book_importance.ch8_boston import DROPPED, ORIGINAL, PERMUTED
from imlbench.studies.book_importance.ch8_boston import conflicts as contradicting
from imlbench.studies.book_importance.figures.dots import GROUP_COLOURS, importance_dots

#: the shading of a permuted column and the text colour of an impossible row
CHANGED = "#fde0c5"
IMPOSSIBLE = "#c0392b"
HEADER = "#ececec"
#: the book's learner colours (ggplot2 hues: forest red, SVM green, linear model blue)
LEARNER_COLOURS = ("#f8766d", "#00ba38", "#619cff")


def _cell(value: float, column: str, levels: dict) -> str:
    """A table cell: the level's name of a coded column, else the number."""
    if column in levels:
        return str(levels[column].get(str(int(value)), f"{value:g}"))
    return f"{value:.4g}"


def _draw_table(ax, frame: pd.DataFrame, title: str, style: dict, *, shaded: str | None = None,
                red_rows: np.ndarray | None = None) -> None:
    """``frame`` (text cells) as a table on ``ax`` with ``title`` above it; column ``shaded``
    in the shading colour, the rows flagged in ``red_rows`` in red."""
    ax.axis("off")
    ax.set_title(title, loc="left", fontsize=style["font_size"])
    tab = ax.table(cellText=frame.to_numpy().tolist(), colLabels=list(frame.columns),
                   loc="upper center", cellLoc="center", colLoc="center")
    tab.auto_set_font_size(False)
    tab.set_fontsize(style["font_size"] - 0.5)
    tab.scale(1.0, 1.3)
    for (r, c), cell in tab.get_celld().items():
        cell.set_edgecolor("0.85")
        if r == 0:
            cell.set_facecolor(HEADER)
            cell.set_text_props(fontweight="bold")
        elif frame.columns[c] == shaded:
            cell.set_facecolor(CHANGED)
        if r > 0 and red_rows is not None and red_rows[r - 1]:
            cell.set_text_props(color=IMPOSSIBLE, fontweight="bold")


@figure("book_importance.illustration_table", methods=("rows",), params={
    "kind": choice("permute", ("permute", "drop")), "columns": items(text()),
    "rows": integer(6, minimum=1), "loss": choice("absolute", tuple(LOSSES)),
    "dates": text(None, nullable=True), "names": table(value=text(), default={}),
    "levels": table(value=table(value=text()), default={}),
    "conflicts": table(value=text(), default={}),
})
def illustration_table(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                       kind: str, columns: list[str], rows: int, loss: str, dates: str | None,
                       names: dict, levels: dict, conflicts: dict) -> None:
    """The first ``rows`` rows of the first repetition of ``illustration_rows``: intact, then
    per permuted feature (``kind: permute``; its first shuffle, the column shaded) or per
    dropped feature (``drop``; the column left out and the refit's prediction f_-j). With
    predictions, each table's title gives the mean ``loss`` over all rows. ``dates`` (a start
    date) adds the date of each row (row k: that date + k days); ``names`` renames columns,
    ``levels`` names the codes of coded columns (code as text -> name); ``conflicts``
    ({feature, flag, holiday}) writes in red the rows whose weekday contradicts the
    working-day flag (:func:`imlbench.studies.book_importance.ch8_boston.conflicts`)."""
    est = inputs.estimates("rows")
    est = est[est["rep"] == est["rep"].min()] if "rep" in est else est
    original = est[est["table"] == ORIGINAL].pivot(index="row", columns="column",
                                                   values="value")
    has_f = "prediction" in original
    other = est[(est["table"] == (PERMUTED if kind == "permute" else DROPPED))
                & (est["shuffle"] == 0)]
    changed = list(dict.fromkeys(other["feature"]))
    loss_of = LOSSES[loss]

    def mean_loss(prediction: pd.Series) -> str:
        value = float(np.mean(loss_of(original["y"].to_numpy(float), prediction.to_numpy(float))))
        return f"; mean {loss} loss over all {len(original)} rows: {value:.3g}"

    def shown(data: pd.DataFrame, cols: list[str], f_name: str) -> pd.DataFrame:
        head = data.head(rows)
        out = pd.DataFrame(index=head.index)
        if dates:
            out["date"] = [str((pd.Timestamp(dates) + pd.Timedelta(days=int(k))).date())
                           for k in head.index]
        for c in [*cols, "y"]:
            out[names.get(c, c)] = [_cell(v, c, levels) for v in head[c]]
        if "prediction" in head:
            out[f_name] = [f"{v:.4g}" for v in head["prediction"]]
        return out.reset_index(drop=True)

    def red(data: pd.DataFrame) -> np.ndarray | None:
        if not conflicts:
            return None
        head = data.head(rows)
        return contradicting(*(head[conflicts[k]].to_numpy(float) for k in ("feature", "flag",
                                                                    "holiday")), [0, 6])

    panels = 1 + len(changed)
    fig, style = st.new_figure(spec, rows=panels, width=9.5,
                               panel_height=0.32 * (rows + 1) + 0.45)
    axes = fig.subplots(panels, 1, squeeze=False)[:, 0]
    _draw_table(axes[0], shown(original, columns, "f(x)"),
                "intact data" + (mean_loss(original["prediction"]) if has_f else ""), style,
                red_rows=red(original))
    for ax, feature in zip(axes[1:], changed, strict=True):
        part = other[other["feature"] == feature].pivot(index="row", columns="column",
                                                        values="value")
        if kind == "permute":
            data = original.copy()
            data[feature] = part[feature]
            if has_f:
                data["prediction"] = part["prediction"]
            title = f"{names.get(feature, feature)} permuted over all {len(data)} rows"
            f_name, cols = "f(x perm)", columns
        else:
            data = original.drop(columns="prediction").assign(prediction=part["prediction"])
            title = f"{names.get(feature, feature)} left out, model refitted"
            f_name, cols = "f_-j(x_-j)", [c for c in columns if c != feature]
        title += mean_loss(data["prediction"]) if "prediction" in data else ""
        _draw_table(ax, shown(data, cols, f_name), title, style,
                    shaded=names.get(feature, feature) if kind == "permute" else None,
                    red_rows=red(data))
    st.save(fig, style, out_png, out_pdf)


@figure("book_importance.forest_pfi", methods=("pfi",), params={
    "labels": table(value=text(), default={}), "xlabel": text("PFI (loss ratio)")})
def forest_pfi(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
               labels: dict, xlabel: str) -> None:
    """iml's FeatureImp plot of the first repetition (its median over the permutations and
    their quantile range, columns ``value``, ``lower``, ``upper``), the other repetitions'
    medians as grey points (Fig. 8.2)."""
    est = inputs.estimates("pfi")
    first = est[est["rep"] == est["rep"].min()]
    rows = first.rename(columns={"value": "centre", "lower": "low", "upper": "high"})
    fig, style = st.new_figure(spec, rows=1, width=7.0, panel_height=3.6)
    ax = fig.subplots()
    order = importance_dots(ax, rows, labels=labels, xlabel=xlabel)
    rest = est[est["rep"] != est["rep"].min()]
    position = {f: len(order) - 1 - i for i, f in enumerate(order)}
    ax.plot(rest["value"], [position[f] for f in rest["feature"]], "o", color="0.6",
            markersize=3, alpha=0.7, zorder=1,
            label=f"medians of {rest['rep'].nunique()} other forests")
    ax.plot([], [], "o-", color="black", markersize=4,
            label=f"first forest: median and {first['lower_q'].iloc[0]:.0%}-"
                  f"{first['upper_q'].iloc[0]:.0%} of {int(first['n_repeats'].iloc[0])} "
                  "permutations")
    ax.legend(frameon=False, loc="lower right")
    st.save(fig, style, out_png, out_pdf)


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


@figure("book_importance.boston_variants", methods=("importance",), params={
    "groups": table(value=text(), default={}), "xlabel": text("importance (loss ratio)"),
    "quantiles": items(number(minimum=0, maximum=1), [0.05, 0.95], length=2),
})
def boston_variants(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                    groups: dict, xlabel: str, quantiles: list[float]) -> None:
    """The importances of the role ``importance`` per scenario (a group, named by ``groups``)
    and feature: the mean over the repetitions (dot) and their ``quantiles`` (line), the
    groups dodged in colour (Figs 9.24, 9.25)."""
    est = inputs.estimates("importance")
    g = est.groupby(["scenario", "feature"], sort=False)["value"]
    rows = g.mean().rename("centre").to_frame()
    rows["low"], rows["high"] = g.quantile(quantiles[0]), g.quantile(quantiles[1])
    rows = rows.reset_index()
    present = [s for s in inputs.scenarios if s in set(rows["scenario"])]
    rows["group"] = rows["scenario"].map(lambda s: groups.get(s, s))
    rows["group"] = pd.Categorical(rows["group"], [groups.get(s, s) for s in present])
    rows = rows.sort_values("group")
    rows["group"] = rows["group"].astype(str)
    fig, style = st.new_figure(spec, rows=1, width=7.5, panel_height=4.2)
    ax = fig.subplots()
    colours = {groups.get(s, s): GROUP_COLOURS[i] for i, s in enumerate(present)}
    importance_dots(ax, rows, group="group", colours=colours, xlabel=xlabel)
    reps = est.groupby("scenario")["rep"].nunique()
    counted = f"{reps.min()}" if reps.min() == reps.max() else f"{reps.min()}-{reps.max()}"
    ax.legend(frameon=False, loc="lower right",
              title=f"mean over {counted} splits, "
                    f"{quantiles[0]:.0%}-{quantiles[1]:.0%} range")
    st.save(fig, style, out_png, out_pdf)
