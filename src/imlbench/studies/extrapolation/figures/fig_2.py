"""Fig. 2 of Hooker, Mentch & Zhou (2021): average rank of x1 and x2 against rho and n."""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.metrics.ranks import truth_ranks
from imlbench.studies.extrapolation.figures import panels as pn

# Panels against n: the paper's first (rf, mlp, rf out-of-bag), then ours, then lm.
PANELS = [("rf", "pfi"), ("mlp", "pfi"), ("rf", "oob"), ("rf", "oob_raw"), ("gbm", "pfi"),
          ("svm", "pfi"), ("knn", "pfi"), ("lm", "pfi")]
PAIR = ["x1", "x2"]
FIRST_N = 2000


@figure("extrapolation.fig_2", methods=("pfi", *pn.OOB_ROLES), truths=("importance",),
        tables=("ranks",))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    import matplotlib as mpl
    import numpy as np
    from matplotlib.lines import Line2D

    table = inputs.ranks()
    pair = pn.mean_rank(table[table["feature"].isin(PAIR)], ["learner", "role", "p_n", "p_rho"])
    theory = inputs.truth("importance")
    ranks = [truth_ranks(t, "pfi_marginal") for _, t in theory.groupby("scenario")]
    theory_rank = np.concatenate([r[r.index.isin(PAIR)].to_numpy() for r in ranks]).mean()
    present = set(pair.index.droplevel(["p_n", "p_rho"]))
    panels = [p for p in PANELS if p in present]
    ns = np.sort(pair.index.unique("p_n"))
    rhos = np.sort(pair.index.unique("p_rho"))
    first_n = FIRST_N if FIRST_N in ns else ns.max()
    cmap = mpl.colormaps["viridis"]
    rho_colour = {rho: cmap(i / max(len(rhos) - 1, 1) * 0.9) for i, rho in enumerate(rhos)}

    ncols = 4
    fig, style = st.new_figure(spec, rows=st.panel_rows(len(panels) + 1, ncols), width=13.0,
                               panel_height=2.9)
    axes = st.panel_grid(fig, len(panels) + 1, ncols, sharey=True)

    learner_handles = []
    for learner, role in panels:
        look = pn.look(learner, role)
        curve = pair.loc[learner, role, first_n]
        axes[0].plot(curve.index, curve.to_numpy(), color=look.colour, marker="o", markersize=3)
        learner_handles.append(Line2D([], [], color=look.colour, marker="o", markersize=3,
                                      label=look.label))
    axes[0].set_xlabel("ρ")
    axes[0].set_title(f"all learners, n = {first_n:g}")

    for ax, (learner, role) in zip(axes[1:], panels, strict=False):
        for rho in rhos:
            curve = pair.loc[learner, role].xs(rho, level="p_rho")
            ax.plot(curve.index, curve.to_numpy(), color=rho_colour[rho], marker="o",
                    markersize=3)
        ax.set_xscale("log")
        ax.set_xticks(ns, [f"{n:g}" for n in ns])
        ax.minorticks_off()
        ax.set_xlabel("n (log scale)")
        ax.set_title(f"{pn.look(learner).label}, {pn.MEASURES[role].label}")
    for i, ax in enumerate(axes):
        ax.axhline(theory_rank, **st.THEORY)
        if i % ncols == 0:
            ax.set_ylabel("average rank of x1, x2")

    fig.legend(handles=[Line2D([], [], color=rho_colour[r], marker="o", markersize=3,
                               label=f"ρ = {st.fmt(r)}") for r in rhos],
               loc="outside right upper", frameon=False, title="against n")
    st.legend_below(fig, [*learner_handles, pn.theory_handle(f"theory ({theory_rank:g})")],
                    ncols=4, title=f"first panel (against ρ at n = {first_n:g})")
    st.save(fig, style, out_png, out_pdf)
