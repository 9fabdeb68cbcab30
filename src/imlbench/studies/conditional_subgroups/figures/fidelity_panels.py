"""Shared drawing of the data-fidelity figures (Molnar et al., conditional subgroups, Sect. 8,
Figs. 9, 15-18), and the boxplots per data set of Figs. 15-18 (``fidelity_boxplots``).

The figures read the estimates of the ``conditional_subgroups.data_fidelity`` method as the role
:data:`FIDELITY` and carry the data set as the swept parameter ``p_name``, from which
:func:`dataset_title` names the CC18 set a table stands for.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.params import choice

if TYPE_CHECKING:
    import pandas as pd

    from imlbench.figures.inputs import FigureInputs

#: the figures' one role: the data-fidelity estimates (``data_fidelity``)
FIDELITY = "data_fidelity"

SAMPLERS_A = ["perm", "cart30", "trtr30", "ko", "imp", "ale", "cvirf", "none"]
DEPTHS = [1, 2, 3, 4, 5, 30]
TREE_SAMPLERS = [f"{t}{d}" for t in ("cart", "trtr") for d in DEPTHS]
#: the samplers compared by ``fidelity_boxplots``: all kinds (Figs. 15, 16) or the trees by
#: depth (Figs. 17, 18, with the bounds)
SAMPLER_SETS = {"samplers": SAMPLERS_A, "trees": TREE_SAMPLERS}
CART_COLOUR, TRTR_COLOUR, OTHER_COLOUR = "#d95f02", "#1b9e77", "#9e9e9e"
#: dotted reference lines of Figs. 17, 18: lower (perm) and upper (none) bound.
BOUNDS = {"perm": "#b2182b", "none": "black"}
Y_LABEL = "data fidelity, -log MMD²"


def colour(sampler: str) -> str:
    if sampler.startswith("cart"):
        return CART_COLOUR
    return TRTR_COLOUR if sampler.startswith("trtr") else OTHER_COLOUR


def fidelity_table(inputs: FigureInputs) -> pd.DataFrame:
    """Every fidelity estimate among the figure's inputs."""
    table = inputs.estimates(FIDELITY)
    if table.empty or "sampler" not in table:
        raise ValueError("no data-fidelity estimates among the inputs")
    return table


def dataset_title(scenario_rows: pd.DataFrame) -> str:
    """'<table> (for CC18 <name>, <relation>)' from the rows' ``p_name``."""
    from imlbench.studies.conditional_subgroups.dgp_classification_tables import TABLES

    name = str(scenario_rows["p_name"].iloc[0])
    t = TABLES.get(name)
    return name if t is None else f"{name} (CC18 {t.cc18_name}, {t.relation})"


def half_of(scenarios: list[str], part: int) -> list[str]:
    """The first (part 0) or second (part 1) half of the sorted data sets."""
    names = sorted(scenarios)
    cut = -(-len(names) // 2)
    return names[:cut] if part == 0 else names[cut:]


@figure("conditional_subgroups.fidelity_boxplots", methods=(FIDELITY,),
        params={"samplers": choice("samplers", tuple(SAMPLER_SETS)), "half": choice(1, (1, 2))})
def draw_boxplots(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                  samplers: str, half: int) -> None:
    """One panel per data set of the first or second ``half`` (sorted by name): boxplots
    over features of each sampler's fidelity averaged over repetitions (points: the
    features), for every kind of sampler (``samplers``) or the trees by depth (``trees``,
    with dotted lines at the medians of ``perm`` and ``none``)."""
    import numpy as np
    from matplotlib.lines import Line2D

    from imlbench.studies.conditional_subgroups.summaries import pair_means

    bounds = samplers == "trees"
    samplers = SAMPLER_SETS[samplers]
    table = fidelity_table(inputs)
    scenarios = half_of(list(table["scenario"].unique()), half - 1)
    needed = samplers + (["perm", "none"] if bounds else [])
    ncols = min(3, max(1, len(scenarios)))
    fig, style = st.new_figure(spec, rows=st.panel_rows(max(1, len(scenarios)), ncols),
                               width=max(9.0, 4.2 * ncols), panel_height=3.0)
    if not scenarios:
        fig.text(0.5, 0.5, "no data set in this half (see the other figure)", ha="center")
        st.save(fig, style, out_png, out_pdf)
        return
    axes = st.panel_grid(fig, len(scenarios), ncols)
    rng = np.random.default_rng(0)  # horizontal jitter of the points only
    for ax, sc in zip(axes, scenarios, strict=True):
        rows = table[table["scenario"] == sc]
        means = pair_means(rows, list(dict.fromkeys(needed)))
        values = [means[s].dropna().to_numpy() for s in samplers]
        box = ax.boxplot(values, patch_artist=True, widths=0.6, showfliers=False,
                         medianprops={"color": "black"})
        for patch, s in zip(box["boxes"], samplers, strict=True):
            patch.set(facecolor=colour(s), alpha=0.35, edgecolor=colour(s))
        for i, v in enumerate(values, start=1):
            ax.scatter(i + rng.uniform(-0.15, 0.15, len(v)), v, s=7, color=colour(samplers[i - 1]),
                       zorder=3)
        if bounds:
            for s, c in BOUNDS.items():
                ax.axhline(float(means[s].median()), color=c, linestyle=":", linewidth=1.1)
        ax.set_xticks(range(1, len(samplers) + 1), samplers, rotation=60)
        ax.set_title(dataset_title(rows), fontsize=style["font_size"])
        ax.set_ylabel(Y_LABEL)
    used = {colour(s) for s in samplers}
    handles = [Line2D([], [], marker="o", linestyle="none", color=c, label=lab) for c, lab in
               ((CART_COLOUR, "cs-permutation, CART"),
                (TRTR_COLOUR, "cs-permutation, transformation-tree stand-in"),
                (OTHER_COLOUR, "other samplers")) if c in used]
    if bounds:
        handles += [Line2D([], [], color=c, linestyle=":", label=f"median of {s}")
                    for s, c in BOUNDS.items()]
    st.legend_below(fig, handles, ncols=len(handles))
    st.save(fig, style, out_png, out_pdf)
