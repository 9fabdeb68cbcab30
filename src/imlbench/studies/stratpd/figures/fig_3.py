"""Fig. 3 of Parr & Wilson (2021): independent features with interactions, no noise."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.stratpd.figures import panels as pn

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

PAPER_LEARNER = "rf10"
COLUMNS = ("pdp", "shap", "ale", "stratpd")
R2 = ("r2_train",)


def _panel(ax: Axes, role: str, est: pd.DataFrame, truth: pd.Series) -> None:
    """One method's curves (SHAP: points) of one feature and learner against the truth."""
    colour = pn.METHODS[role].colour
    if role == "shap":
        pn.draw_shap(ax, est, pn.shap_offset(est[est["rep"] == est["rep"].min()], truth))
        pn.draw_truth(ax, truth, at=truth.index[0])
    else:
        pn.draw_curves(ax, est, colour, truth)


@figure("stratpd.fig_3", methods=("pdp", "shap", "ale", "stratpd", "fit"),
        truths=("effects",))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    """SHAP values of the first repetition are shifted onto the anchor of the truth by
    :func:`panels.shap_offset`."""
    est = inputs.estimates("pdp", "shap", "ale", "stratpd")
    fit = inputs.estimates("fit")
    truth = inputs.truth("effects")
    features = st.feature_order(est["feature"])
    others = [lr for lr in pn.learner_order(est["learner"]) if lr != PAPER_LEARNER]
    n_reps = est["rep"].nunique()

    fig, style = st.new_figure(spec, rows=2 * len(features) + 0.6, width=12.0,
                               panel_height=2.1)
    top, bottom = fig.subfigures(2, 1, height_ratios=[1, 1.08])
    look = pn.LOOKS[PAPER_LEARNER]
    top.suptitle(f"As in the paper: {look.label} ({pn.r2_text(fit, PAPER_LEARNER, R2)}); "
                 f"StratPD from the data alone", color=look.colour, fontweight="bold")
    axes = top.subplots(len(features), len(COLUMNS), sharey="row", squeeze=False)
    for i, feature in enumerate(features):
        sel = est[(est["feature"] == feature) & (est["learner"] == PAPER_LEARNER)]
        for j, role in enumerate(COLUMNS):
            ax = axes[i, j]
            true = pn.truth_curve(truth, pn.role_estimand(inputs, role), feature)
            _panel(ax, role, sel[sel["role"] == role], true)
            if i == 0:
                ax.set_title(f"{pn.tag(j)} {pn.METHODS[role].label}")
            if j == 0:
                ax.set_ylabel(f"effect of {feature}")
            ax.set_xlabel(feature, labelpad=1)

    if others:
        bottom.suptitle("Beyond the paper: PD, ALE and SHAP of other models",
                        fontweight="bold")
        axes = bottom.subplots(len(features), len(others), sharey="row", squeeze=False)
        for i, feature in enumerate(features):
            for j, learner in enumerate(others):
                ax = axes[i, j]
                sel = est[(est["feature"] == feature) & (est["learner"] == learner)]
                for role in ("shap", "pdp", "ale"):
                    _panel(ax, role, sel[sel["role"] == role],
                           pn.truth_curve(truth, pn.role_estimand(inputs, role), feature))
                if i == 0:
                    pn.learner_title(ax, learner, f", {pn.r2_text(fit, learner, R2)}")
                if j == 0:
                    ax.set_ylabel(f"effect of {feature}")
                ax.set_xlabel(feature, labelpad=1)
    st.legend_below(fig, [*pn.method_handles(COLUMNS, {"shap": "SHAP (first repetition)"}),
                          *pn.reps_handles("0.4", n_reps),
                          pn.truth_handle("closed-form PD, anchored alike")], ncols=4)
    st.save(fig, style, out_png, out_pdf)
