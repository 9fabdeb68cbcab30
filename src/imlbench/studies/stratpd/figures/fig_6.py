"""Fig. 6 of Parr & Wilson (2021): body weight against height, with codependent features."""

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

FEATURE = "height"
TALLEST_WOMAN = 70.0
R2 = ("r2_oob", "r2_train")
#: the SHAP column of each variant (study method); others (exact SHAP) go to column (c)
SHAP_COLUMN = {"shap_path": 1}
NCOLS = 5


def _stratpd_twin(ax: Axes, stratpd: pd.DataFrame) -> None:
    """StratPD's mean curve on a right-hand axis."""
    twin = ax.twinx()
    curves = pn.mean_curve(stratpd)
    mean = curves.mean()
    twin.plot(mean.index, mean.to_numpy(), color=pn.METHODS["stratpd"].colour, linewidth=1.3,
              alpha=0.85)
    twin.set_ylabel("StratPD (lb)", color=pn.METHODS["stratpd"].colour)
    twin.spines["right"].set_visible(True)
    twin.grid(False)


@figure("stratpd.fig_6", methods=("pdp", "ice", "shap", "ale", "stratpd", "fit"),
        truths=("effects",))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    est = inputs.estimates("pdp", "ice", "shap", "ale", "stratpd")
    est = est[est["feature"] == FEATURE]
    fit = inputs.estimates("fit")
    truth = inputs.truth("effects")
    stratpd = est[est["role"] == "stratpd"]
    learners = pn.learner_order(est.loc[est["role"] == "pdp", "learner"])
    n_reps = est["rep"].nunique()

    fig, style = st.new_figure(spec, rows=len(learners), width=15.0, panel_height=2.7)
    axes = fig.subplots(len(learners), NCOLS, squeeze=False)
    for i, learner in enumerate(learners):
        own = est[est["learner"] == learner]
        r2 = pn.r2_text(fit, learner, R2)
        row = axes[i]
        used = set()

        pdp = own[own["role"] == "pdp"]
        pn.draw_ice(row[0], own[own["role"] == "ice"], pdp)
        mean_pd = pn.rep_curves(pdp).mean()
        pn.draw_truth(row[0], pn.truth_curve(truth, pn.role_estimand(inputs, "pdp"), FEATURE),
                      at=mean_pd.index[0], level=float(mean_pd.iloc[0]),
                      span=(mean_pd.index[0], mean_pd.index[-1]))
        row[0].set_ylabel("body weight (lb)")
        pn.learner_title(row[0], learner, f"\nPD and ICE, {r2}", prefix=f"{pn.tag(0)} ")
        used.add(0)

        shap = own[own["role"] == "shap"]
        for method in pn.method_order(shap["method"]):
            sel = shap[shap["method"] == method]
            j = SHAP_COLUMN.get(method, 2)
            pn.draw_shap(row[j], sel)
            if not stratpd.empty:
                _stratpd_twin(row[j], stratpd)
            row[j].set_ylabel("SHAP value (lb)", color=pn.METHODS["shap"].colour)
            pn.learner_title(row[j], learner, f"\n{pn.shap_label(method)}",
                             prefix=f"{pn.tag(j)} ")
            used.add(j)

        # StratPD needs no model: drawn once, in the first row
        curves = [(3, "ale", own[own["role"] == "ale"])] + ([(4, "stratpd", stratpd)]
                                                           if i == 0 else [])
        for j, role, sel in curves:
            if sel.empty:
                continue
            pn.draw_curves(row[j], sel, pn.METHODS[role].colour,
                           pn.truth_curve(truth, pn.role_estimand(inputs, role), FEATURE))
            row[j].set_ylabel(f"{pn.METHODS[role].label} (lb, 0 at the smallest height)")
            if role == "ale":
                pn.learner_title(row[j], learner, "\nALE", prefix=f"{pn.tag(j)} ")
            else:
                row[j].set_title(f"{pn.tag(j)} StratPD\nfrom the data alone, no model")
            used.add(j)

        for j, ax in enumerate(row):
            if j not in used:
                ax.set_visible(False)
                continue
            ax.axvline(TALLEST_WOMAN, color="0.3", linestyle=":", linewidth=1.2)
            ax.set_xlabel("height (in)")

    from matplotlib.lines import Line2D

    st.legend_below(fig, [
        *pn.method_handles(("pdp", "ice", "shap", "ale", "stratpd"),
                           {"pdp": f"PD (mean of {n_reps} repetitions)",
                            "ice": "ICE (100 rows, first repetition)",
                            "shap": "SHAP (first repetition)",
                            "ale": f"ALE (mean of {n_reps} repetitions; thin: each)",
                            "stratpd": "StratPD (mean; thin: each repetition)"}),
        pn.truth_handle("true PD, slope 10 lb/in"),
        Line2D([], [], color="0.3", linestyle=":", label="70 in, the tallest woman"),
    ], ncols=4)
    st.save(fig, style, out_png, out_pdf)
