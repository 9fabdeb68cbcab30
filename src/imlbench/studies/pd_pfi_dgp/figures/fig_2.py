"""Fig. 2 of Molnar et al. (2023, PDP/PFI and the DGP): bias, variance and MC error of a PD."""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs

N_MODELS = 10
FEATURE = "x1"
MEAN_BLUE = "#1f5fd1"
DGP_GREEN = "#1b9e50"
MC_COLOURS = ("#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666")


@figure("pd_pfi_dgp.fig_2", methods=("pd",), truths=("effects",))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    """The curves are the estimates of role ``pd`` (method ``pd_pfi_dgp.pd_uncertainty``): rows with
    ``source: mc`` are the fixed model's PDPs from fresh Monte Carlo samples (the first drawn
    repetition's), rows with ``source: train`` each model's PDP on its own training rows, of which
    the first ``N_MODELS`` repetitions are drawn; the DGP-PD is the ``pd`` estimand of the
    ``effects`` truth (the DGP's ``dgp_pd``). The panels share their y limits."""
    from matplotlib.lines import Line2D

    curves = inputs.estimates("pd")
    curves = curves[curves["feature"] == FEATURE]
    truth = inputs.truth("effects")
    truth = truth[(truth["estimand"] == "pd") & (truth["feature"] == FEATURE)].sort_values("x")
    shown = sorted(curves["rep"].unique())[:N_MODELS]
    train = curves[(curves["source"] == "train") & curves["rep"].isin(shown)]
    fixed_rep = int(shown[0])
    mc = curves[(curves["source"] == "mc") & (curves["rep"] == fixed_rep)]
    grid = train.pivot_table(index="x", columns="rep", values="value", aggfunc="first")
    lo, hi = float(grid.index.min()), float(grid.index.max())
    truth = truth[(truth["x"] >= lo - 1e-9) & (truth["x"] <= hi + 1e-9)]

    fig, style = st.new_figure(spec, rows=1.25, width=10.0, panel_height=3.6)
    left, right = fig.subplots(1, 2, sharey=True)
    n_mc = mc["sample"].nunique()
    mc_rows = int(mc["n_rows"].iloc[0]) if len(mc) else 0
    for i, (k, c) in enumerate(mc.groupby("sample")):
        left.plot(c["x"], c["value"], color=MC_COLOURS[i % len(MC_COLOURS)], linewidth=1.2,
                  label=f"MC sample {int(k) + 1}")
    left.set(xlabel=FEATURE, ylabel="PD",
             title=f"Monte Carlo error: one model, {n_mc} samples of {mc_rows} rows")
    left.legend(loc="upper left", ncols=2)

    n_train = int(train["n_rows"].iloc[0])
    for rep in grid.columns:
        right.plot(grid.index, grid[rep], color="black", linewidth=0.7, alpha=0.6)
    right.plot(grid.index, grid.mean(axis=1), color=MEAN_BLUE, linewidth=2.6)
    right.plot(truth["x"], truth["value"], color=DGP_GREEN, linestyle="--", linewidth=2.0)
    right.set(xlabel=FEATURE, title=f"Bias and model variance: {grid.shape[1]} models, "
                                    f"each fitted on {n_train} fresh rows")
    right.tick_params(labelleft=True)
    right.set_ylabel("PD")
    right.legend(handles=[
        Line2D([], [], color="black", linewidth=0.7, alpha=0.6,
               label="model-PD of each model (own training rows)"),
        Line2D([], [], color=MEAN_BLUE, linewidth=2.6, label="mean: learner-PD estimate"),
        Line2D([], [], color=DGP_GREEN, linestyle="--", linewidth=2.0,
               label="DGP-PD  sin(x1) + 0.5 x1"),
    ], loc="lower right")
    for ax in (left, right):
        ax.set_xlim(lo, hi)
    st.save(fig, style, out_png, out_pdf)
