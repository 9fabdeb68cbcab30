"""Fig. 6 of Molnar et al. (2023, PDP/PFI and the DGP): learner- and model-level PFI and PD."""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs

LEARNER_COLOUR, MODEL_COLOUR = "#d95f02", "#1b6fb3"


@figure("pd_pfi_dgp.fig_6", methods=("learner", "model"), tables=("data",))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    """The roles are ``learner`` (method ``pd_pfi_dgp.resampled``) and ``model`` (method
    ``pd_pfi_dgp.model``); the learner drawn is the one the model-level method ran for, at its first
    repetition."""
    import numpy as np

    est = inputs.estimates("learner", "model")
    model = est[est["role"] == "model"]
    learner = model["learner"].iloc[0]
    rep = int(model["rep"].min())
    est = est[(est["learner"] == learner) & (est["rep"] == rep)]
    lvl = {role: est[est["role"] == role] for role in ("learner", "model")}
    pfi = {k: v[v["quantity"] == "pfi"].set_index("feature") for k, v in lvl.items()}
    pdp = {k: v[v["quantity"] == "pd"].sort_values("x") for k, v in lvl.items()}
    order = list(pfi["model"]["value"].sort_values().index)  # least important at the bottom
    feature = pdp["model"]["feature"].iloc[0]
    m = int(lvl["learner"]["m"].dropna().iloc[0])
    n_test = int(lvl["model"]["n_test"].dropna().iloc[0])

    fig, style = st.new_figure(spec, rows=2.0, width=10.0, panel_height=3.0)
    axes = fig.subplots(2, 2, height_ratios=[1.1, 1.0])
    titles = {"learner": f"learner-PFI ({m} bootstrap refits, corrected 95% CI)",
              "model": f"model-PFI (one forest, {n_test} test rows, Monte Carlo 95% CI)"}
    y = np.arange(len(order))
    lo = min(float(p["lower"].min()) for p in pfi.values())
    hi = max(float(p["upper"].max()) for p in pfi.values())
    pad = 0.05 * (hi - lo)
    for ax, (key, colour) in zip(axes[0], (("learner", LEARNER_COLOUR),
                                           ("model", MODEL_COLOUR)), strict=True):
        p = pfi[key].reindex(order)
        ax.hlines(y, p["lower"], p["upper"], color=colour, linewidth=1.6)
        ax.plot(p["value"], y, "o", color=colour, markersize=5)
        ax.axvline(0.0, color="0.5", linewidth=0.7)
        ax.set_yticks(y, order)
        ax.set_xlim(lo - pad, hi + pad)
        ax.set(xlabel="permutation feature importance (MSE increase)", title=titles[key])
    axes[0, 1].tick_params(labelleft=False)

    titles = {"learner": f"learner-PD of {feature} ({m} refits, corrected 95% band)",
              "model": f"model-PD of {feature} ({n_test} test rows, Monte Carlo 95% band)"}
    values = inputs.data()[feature].to_numpy()
    lo = min(float(p["lower"].min()) for p in pdp.values())
    hi = max(float(p["upper"].max()) for p in pdp.values())
    pad = 0.05 * (hi - lo)
    xlim = (min(float(p["x"].min()) for p in pdp.values()),
            max(float(p["x"].max()) for p in pdp.values()))
    for ax, (key, colour) in zip(axes[1], (("learner", LEARNER_COLOUR),
                                           ("model", MODEL_COLOUR)), strict=True):
        p = pdp[key]
        ax.plot(p["x"], p["value"], color=colour, linewidth=2.0, label="PD")
        ax.plot(p["x"], p["lower"], color=colour, linestyle="--", linewidth=1.0,
                label="95% band")
        ax.plot(p["x"], p["upper"], color=colour, linestyle="--", linewidth=1.0)
        ax.plot(values, np.full(len(values), lo - 0.5 * pad), "|", color="0.4", markersize=6,
                alpha=0.3)
        ax.set_xlim(*xlim)
        ax.set_ylim(lo - pad, hi + pad)
        ax.set(xlabel=feature, ylabel="PD (predicted y)", title=titles[key])
        ax.legend(loc="best")
    axes[1, 1].tick_params(labelleft=False)
    axes[1, 1].set_ylabel("")
    fig.text(0.005, 0.005, f"learner: {learner}", fontsize=style["font_size"] - 1, color="0.3")
    st.save(fig, style, out_png, out_pdf)
