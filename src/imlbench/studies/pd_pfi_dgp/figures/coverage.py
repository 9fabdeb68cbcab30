"""Shared drawing of the coverage simulation's figures (Molnar et al., "Relating the PDP and PFI
to the data generating process", Sect. 8 and App. H), and two of them: ``refit_grid``
(Figs. 7-14) and ``width_vs_coverage`` (Figs. 3-4); the figure's scenarios fix n.

The looks of the sampling strategies (:data:`STRATEGIES`) and of naive and corrected intervals
(:func:`variant_style`), the curves against the number of refits (:func:`refit_curves`) and the
legend (:func:`legend_handles`) also serve ``fig5`` and ``fig_beyond``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from imlbench.figures import figure
from imlbench.params import choice

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

    from imlbench.figures.inputs import FigureInputs

STRATEGIES = {"bootstrap": ("boot", "#d95f02"), "subsampling": ("subs", "#1b9e77"),
              "ideal": ("ideal", "#7570b3")}
FORMS = {"linear": "linear DGP", "nonlinear": "non-linear DGP"}
QUANTITIES = {"pd": "PD", "pfi": "PFI"}
MEASURES = {"coverage": "Confidence interval coverage", "width": "Confidence interval width"}
NOMINAL = 0.95


def variant_style(corrected: bool) -> dict:
    return ({"linestyle": "-", "marker": "o", "markerfacecolor": None} if corrected
            else {"linestyle": "--", "marker": "o", "markerfacecolor": "white"})


def variant_label(strategy: str, corrected: bool) -> str:
    return STRATEGIES[strategy][0] + ("*" if corrected else "")


def refit_curves(ax: Axes, cells: pd.DataFrame, measure: str) -> None:
    """``measure`` against m for each (strategy, corrected) of ``cells`` (one learner, DGP,
    n and quantity), with 2-SE bars for coverage."""
    for (strategy, corrected), g in cells.groupby(["strategy", "corrected"]):
        g = g.sort_values("m")
        colour = STRATEGIES[strategy][1]
        style = variant_style(bool(corrected))
        ax.plot(g["m"], g[measure], color=colour, linewidth=1.2, markersize=3,
                markeredgecolor=colour, label=variant_label(strategy, bool(corrected)),
                **{k: (v if v is not None else colour) for k, v in style.items()})
        if measure == "coverage":
            ax.fill_between(g["m"], g["coverage"] - 2 * g["coverage_se"],
                            g["coverage"] + 2 * g["coverage_se"], color=colour, alpha=0.12,
                            linewidth=0)
    if measure == "coverage":
        ax.axhline(NOMINAL, color="black", linestyle=":", linewidth=1.0)
        ax.set_ylim(0, 1.02)
    else:
        ax.set_ylim(bottom=0)


def legend_handles(nominal: bool = True) -> list:
    """Strategy and variance handles, and the 0.95 line when ``nominal``."""
    from matplotlib.lines import Line2D

    handles = []
    for strategy, (_, colour) in STRATEGIES.items():
        for corrected in ((False, True) if strategy != "ideal" else (False,)):
            style = variant_style(corrected)
            handles.append(Line2D([], [], color=colour, markeredgecolor=colour,
                                  label=variant_label(strategy, corrected), markersize=4,
                                  **{k: (v if v is not None else colour)
                                     for k, v in style.items()}))
    if nominal:
        handles.append(Line2D([], [], color="black", linestyle=":", label="0.95"))
    return handles


LEARNERS = ("lm", "rf", "tree")


@figure("pd_pfi_dgp.refit_grid", tables=("summary",),
        params={"quantity": choice("pd", tuple(QUANTITIES)),
                "measure": choice("coverage", tuple(MEASURES))})
def draw_refit_grid(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                    quantity: str, measure: str) -> None:
    """Figs. 7-14: rows DGP, columns learner; ``measure`` (coverage or width) of the
    ``quantity``'s (PD or PFI) intervals against the number of refits; dashed: naive,
    solid: corrected variance."""
    learners = LEARNERS
    from imlbench.figures import style as st

    table = inputs.summary()
    table = table[table["quantity"] == quantity]
    fig, style = st.new_figure(spec, rows=2.0, width=10.5, panel_height=2.8)
    axes = fig.subplots(2, len(learners), sharex=True, sharey=(measure == "coverage"),
                        squeeze=False)
    for r, form in enumerate(FORMS):
        for c, learner in enumerate(learners):
            ax = axes[r, c]
            cells = table[(table["p_form"] == form) & (table["learner"] == learner)]
            if cells.empty:
                ax.text(0.5, 0.5, "not run in this profile", ha="center", va="center",
                        transform=ax.transAxes, color="0.4")
            else:
                refit_curves(ax, cells, measure)
                ax.set_title(f"{FORMS[form]}, {learner} ({int(cells['reps'].min())} reps)")
            if r == 1:
                ax.set_xlabel("Number of model refits m")
            if c == 0:
                ax.set_ylabel(MEASURES[measure])
    st.legend_below(fig, legend_handles(measure == "coverage"), ncols=6,
                    title="Sampling strategy (* corrected)")
    st.save(fig, style, out_png, out_pdf)


@figure("pd_pfi_dgp.width_vs_coverage", tables=("summary",),
        params={"intervals": choice("all", ("all", "corrected"))})
def draw_width_vs_coverage(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path,
                           *, intervals: str) -> None:
    """Figs. 3-4: width against coverage at m = 15, one panel per quantity. With every
    interval (Fig. 3) grey lines join each cell's naive and corrected interval; with the
    corrected ones only (Fig. 4) they join subsampling to bootstrap of the same cell."""
    corrected_only = intervals == "corrected"
    from imlbench.figures import style as st

    table = inputs.summary()
    table = table[(table["m"] == 15) & (table["strategy"] != "ideal")]
    if corrected_only:
        table = table[table["corrected"]]
    fig, style = st.new_figure(spec, rows=1.3, width=10.5, panel_height=3.6)
    axes = fig.subplots(1, 2)
    cell = ["scenario", "learner"]
    for ax, (q, label) in zip(axes, QUANTITIES.items(), strict=True):
        part = table[table["quantity"] == q]
        pair_by = cell + (["corrected"] if corrected_only else ["strategy"])
        for _, g in part.groupby(pair_by):
            g = g.sort_values(["strategy", "corrected"])
            ax.plot(g["width"], g["coverage"], color="0.6", linewidth=0.7, zorder=1)
        for (strategy, corrected), g in part.groupby(["strategy", "corrected"]):
            colour = STRATEGIES[strategy][1]
            ax.scatter(g["width"], g["coverage"], s=22, zorder=2, edgecolors=colour,
                       facecolors=colour if corrected else "white", linewidths=1.0,
                       marker="o" if corrected else "^")
        ax.axhline(NOMINAL, color="black", linestyle=":", linewidth=1.0)
        ax.set(xlabel=f"{label}: mean CI width", ylabel="CI coverage", title=label,
               ylim=(0.2 if corrected_only else 0.0, 1.02))
    from matplotlib.lines import Line2D

    handles = [Line2D([], [], linestyle="", marker="o" if c else "^", color=colour,
                      markerfacecolor=colour if c else "white",
                      label=f"{STRATEGIES[s][0]}{'*' if c else ''}")
               for s, (_, colour) in STRATEGIES.items() if s != "ideal"
               for c in ((True,) if corrected_only else (False, True))]
    st.legend_below(fig, handles, ncols=4,
                    title="Sampling strategy (* variance corrected); grey lines join "
                    + ("subsampling and bootstrap of one cell" if corrected_only
                       else "naive and corrected intervals of one cell"))
    st.save(fig, style, out_png, out_pdf)
