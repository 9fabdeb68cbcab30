"""Fig. 8 of Molnar et al. (conditional subgroups): cs-PFI of x1 against the number of subgroups."""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.conditional_subgroups.figures.simulation import cell_panels, cells

#: the roles (the depth sweeps of the two tree types) and how they are drawn
TREES = {"cart": ("CART", "#1b9e77"), "distribution": ("distribution tree", "#7570b3")}


@figure("conditional_subgroups.fig_8", methods=tuple(TREES), truths=("importance",))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    from matplotlib.lines import Line2D

    table = cells(inputs.estimates(*TREES))
    table = table[table["feature"] == "x1"]
    closed = inputs.truth("importance")
    closed = closed[(closed["estimand"] == "pfi_conditional")
                    & (closed["feature"] == "x1")].set_index("scenario")["value"]
    summary = table.groupby(["dependence", "n", "p", "role", "depth"]).agg(
        groups=("n_groups", "median"),
        median=("value", "median"),
        lo=("value", lambda v: v.quantile(0.05)),
        hi=("value", lambda v: v.quantile(0.95)),
        scenario=("scenario", "first"),
    ).reset_index()
    fig, style, panels = cell_panels(spec, summary)
    for ax, _, _, _, cell, last_row in panels:
        for m, (_, colour) in TREES.items():
            c = cell[cell["role"] == m].sort_values("depth")
            ax.fill_between(c["groups"], c["lo"], c["hi"], color=colour, alpha=0.2,
                            linewidth=0)
            ax.plot(c["groups"], c["median"], color=colour, marker=".", linewidth=1)
        ax.axhline(closed[cell["scenario"].iloc[0]], **{**st.THEORY, "color": st.TRUTH})
        ax.set_xscale("log", base=2)
        if last_row:
            ax.set_xlabel("number of subgroups")
    handles = [Line2D([], [], color=c, marker=".", label=f"{lbl}: median, 5%-95% band")
               for lbl, c in TREES.values()]
    handles.append(Line2D([], [], **{**st.THEORY, "color": st.TRUTH},
                          label="true conditional PFI"))
    st.legend_below(fig, handles, ncols=len(handles))
    st.save(fig, style, out_png, out_pdf)
