"""Fig. 2 of Molnar et al. (2023), "Relating the PDP and PFI to the data generating process"
(Sect. 5): bias, model variance and Monte Carlo error of the PD of x1 in the toy DGP
(x1 ~ U(0, 10), x2, x3 ~ N(0, 1), y = sin x1 + 0.5 x1 + x2 + x2 x3^2 + N(0, 5^2)).

The curves are the estimates of role ``pd`` (a method ``pd_uncertainty``). Left: one fixed
model (the first repetition), its PDP from each of the fresh Monte Carlo samples (``source:
mc``): their spread is Monte Carlo error alone. Right: the PDP of the first ``N_MODELS`` (10,
the paper's count) repetitions' models, each on its own training rows (``source: train``;
thin; the claims may use more repetitions), their mean, the estimated
learner-PD E_F[PD_f^] (thick blue), and the DGP-PD sin(x1) + 0.5 x1 (green dashed, the
``dgp_pd`` truth). The spread of the thin curves is model variance (plus their own MC error),
the gap between the blue and the green curve is bias. The panels share their y limits.
"""

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


@figure("pd_pfi_dgp.fig2", methods=("pd",), truths=("dgp_pd",))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    from matplotlib.lines import Line2D

    curves = inputs.estimates("pd")
    curves = curves[curves["feature"] == FEATURE]
    truth = inputs.truth("dgp_pd")
    truth = truth[truth["feature"] == FEATURE].sort_values("x")
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
