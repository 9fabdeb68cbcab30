"""Figures of the book's ch. 9 simulations: the benchmark errors over the correlation rho
(Figs 9.2, 9.16), PFI or LOCO of one learner by rho with the mean places by rho (Figs 9.3,
9.5-9.15, 9.17-9.22) and the forest's surface over (x1, x2) with a permuted point (Fig. 9.4).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.params import flag, items, number, table, text
from imlbench.studies.book_importance.figures.dots import GROUP_COLOURS, importance_dots

#: the book's colours of the features in the rank panels: red the correlated pair, green the
#: independent pair (the second of each lighter), grey the uninformative feature
FEATURE_COLOURS = {"x1": "#b2182b", "x2": "#f4a582", "x3": "#1b7837", "x4": "#a6dba0",
                   "uninf": "#8c8c8c"}
#: the book's colours of the learners in the benchmark (ggplot2 hues: red, green, blue)
LEARNER_COLOURS = ["#f8766d", "#00ba38", "#619cff"]
#: the places of the book's reference lines, drawn in these styles in turn
REFERENCE_STYLES = ["--", ":"]


def rho_label(rho: float) -> str:
    return f"rho = {rho:g}"


def over_splits(rows: pd.DataFrame, lower_q: float = 0.05, upper_q: float = 0.95
                ) -> pd.DataFrame:
    """Per (rho, feature): the mean importance over the repetitions' splits (``centre``) and
    its ``lower_q`` and ``upper_q`` quantiles over them (``low``, ``high``), as the book."""
    g = rows.groupby(["p_rho", "feature"], sort=True)["value"]
    out = pd.DataFrame({"centre": g.mean(), "low": g.quantile(lower_q),
                        "high": g.quantile(upper_q)}).reset_index()
    out["rho"] = out["p_rho"].map(rho_label)
    return out


def mean_places(ranks: pd.DataFrame) -> pd.DataFrame:
    """Per (rho, feature): the mean over repetitions of the book's place, 1 = most important
    (k + 1 - the layer's rank, 1 = least important, among the k features)."""
    k = ranks.groupby(["p_rho", "rep"])["feature"].transform("size")
    places = ranks.assign(place=k + 1 - ranks["rank"])
    return places.groupby(["p_rho", "feature"], sort=True)["place"].mean().reset_index()


@figure("book_importance.s_importance_rank", methods=("importance",), tables=("ranks",),
        params={"learner": text(), "references": items(number(), []),
                "log_scale": flag(False), "what": text("PFI")})
def s_importance_rank(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                      learner: str, references: list[float], log_scale: bool,
                      what: str) -> None:
    """Left: the importance of each feature (mean over splits, 5%-95% lines) by rho; right:
    each feature's mean place (1 = most important) against rho, reversed axis, with the
    book's reference places (``references``) as dashed and dotted lines."""
    est = inputs.estimates("importance")
    est = est[est["learner"] == learner]
    if est.empty:
        raise ValueError(f"figure {spec['title']!r}: no importances of learner {learner!r}")
    ranks = inputs.ranks("importance")
    ranks = ranks[ranks["learner"] == learner]
    fig, style = st.new_figure(spec, rows=1, width=11.0, panel_height=4.2)
    left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1.15, 1.0]})
    rows = over_splits(est)
    rhos = sorted(rows["p_rho"].unique())
    colours = {rho_label(r): GROUP_COLOURS[i % len(GROUP_COLOURS)] for i, r in enumerate(rhos)}
    importance_dots(left, rows, group="rho", colours=colours,
                    xlabel=f"{what} (ratio of test MSEs), mean over splits")
    if log_scale:
        left.set_xscale("log")
    left.legend(title="correlation of x1, x2", loc="lower right", fontsize="small")
    left.set_title(f"{what}, {est['rep'].nunique()} splits per rho; lines 5%-95%")
    places = mean_places(ranks)
    for f in [f for f in FEATURE_COLOURS if f in set(places["feature"])]:
        mine = places[places["feature"] == f]
        right.plot(mine["p_rho"], mine["place"], "o-", color=FEATURE_COLOURS[f], label=f,
                   linewidth=1.8, markersize=4)
    for i, place in enumerate(references):
        right.axhline(place, color="black", linewidth=0.9,
                      linestyle=REFERENCE_STYLES[i % len(REFERENCE_STYLES)])
    k = places["feature"].nunique()
    right.set_ylim(k + 0.3, 0.7)
    right.set_xticks(rhos)
    right.set_xlabel("correlation rho of x1 and x2")
    right.set_ylabel("average rank (1 = most important)")
    right.set_title("average rank over the splits")
    right.legend(loc="lower left", fontsize="small", ncols=len(FEATURE_COLOURS))
    st.save(fig, style, out_png, out_pdf)


@figure("book_importance.s_benchmark", methods=("fit",),
        params={"learners": table(value=text())})
def s_benchmark(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                learners: dict[str, str]) -> None:
    """Test MSE (top, log scale) and test R^2 (bottom) over the splits of each scenario (one
    box per learner, ``learners`` maps each to its label, in the book's colours)."""
    from matplotlib.patches import Patch

    est = inputs.estimates("fit")
    scenarios = [s for s in inputs.scenarios if s in set(est["scenario"])]
    fig, style = st.new_figure(spec, rows=2, width=8.5, panel_height=2.8)
    top, bottom = fig.subplots(2, 1, sharex=True)
    handles = []
    for ax, metric, label in ((top, "mse_test", "test MSE (log scale)"),
                              (bottom, "r2_test", "test R^2")):
        for i, (learner, name) in enumerate(learners.items()):
            values = [est[(est["scenario"] == s) & (est["learner"] == learner)
                          & (est["metric"] == metric)]["value"].to_numpy() for s in scenarios]
            where = np.arange(len(scenarios)) + st.dodge(i, len(learners))
            box = ax.boxplot(values, positions=where, widths=0.16, patch_artist=True,
                             manage_ticks=False, medianprops={"color": "black"})
            colour = LEARNER_COLOURS[i % len(LEARNER_COLOURS)]
            for patch in box["boxes"]:
                patch.set(facecolor=colour, alpha=0.8)
            if ax is top:
                handles.append(Patch(facecolor=colour, alpha=0.8, label=name))
        ax.set_ylabel(label)
    top.set_yscale("log")
    st.legend_below(fig, handles, ncols=len(handles))
    rho = est.drop_duplicates("scenario").set_index("scenario")["p_rho"]
    bottom.set_xticks(range(len(scenarios)), [rho_label(rho[s]) for s in scenarios])
    st.save(fig, style, out_png, out_pdf)


@figure("book_importance.s_surface", methods=("surface",), tables=("data",), params={
    "arrow": items(number(), [-2.0, -2.0, 2.3, -2.0], length=4),
    "point": items(number(), [2.5, -2.0], length=2)})
def s_surface(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
              arrow: list[float], point: list[float]) -> None:
    """The fitted surface over (x1, x2) of each scenario (a panel each) with its training
    rows, the permutation of one row's x1 as a white ``arrow`` (x0, y0, x1, y1) and the
    permuted row as a blue ``point``."""
    surface = inputs.estimates("surface")
    data = inputs.data()
    scenarios = [s for s in inputs.scenarios if s in set(surface["scenario"])]
    fig, style = st.new_figure(spec, rows=1, width=5.0 * len(scenarios), panel_height=4.2)
    axes = st.panel_grid(fig, len(scenarios), len(scenarios), sharey=True)
    low, high = surface["value"].min(), surface["value"].max()
    for ax, scenario in zip(axes, scenarios, strict=True):
        mine = surface[(surface["scenario"] == scenario) & (surface["rep"] == 0)]
        x, z, v = st.surface_grid(mine, "mean")
        mesh = ax.pcolormesh(x, z, v, cmap=st.SURFACE_CMAP, vmin=low, vmax=high,
                             shading="nearest")
        rows = data[data["scenario"] == scenario]
        ax.scatter(rows["x1"], rows["x2"], s=3, color="black", alpha=0.35, linewidths=0)
        ax.annotate("", xy=arrow[2:], xytext=arrow[:2],
                    arrowprops={"arrowstyle": "-|>", "color": "white", "linewidth": 2.0})
        ax.plot(*point, "o", color="#2b6cff", markersize=7, markeredgecolor="white")
        ax.set_xlim(x.min(), x.max())
        ax.set_ylim(z.min(), z.max())
        ax.set_xlabel("x1")
        ax.set_title(rho_label(float(mine["p_rho"].iloc[0])))
    axes[0].set_ylabel("x2")
    fig.colorbar(mesh, ax=axes, label="forest prediction")
    st.save(fig, style, out_png, out_pdf)
