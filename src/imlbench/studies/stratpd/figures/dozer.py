"""The drawing shared by Figs. 8 and 9 of Parr & Wilson (2021): one feature of the
bulldozer data (or its substitute) by PD/ICE, SHAP, ALE and StratPD with bootstrap trials.

One row per learner (the forest first, as in the paper): (a) PD (mean over repetitions)
and ICE (the first repetition's rows), (b) SHAP dependence (the first repetition's explained
rows; jittered when the feature has few values), (c) ALE (each repetition thin, their mean
thick, 0 at the smallest x), and in the first row (d) StratPD of the first repetition: each
bootstrap trial (thin, coloured) and their mean per value (dots), as the paper's figure.
R^2 in the titles: out-of-bag for the forest, else on the training rows.
"""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.stratpd.figures import panels as pn

R2 = ("r2_oob", "r2_train")
NCOLS = 4
#: features with at most this many values are drawn as discrete: SHAP points jittered, ALE
#: with markers
DISCRETE = 10
SUBSTITUTE = ("Substitute data: Ames, Iowa, house sales 2006-2010 (modeldata ames), sale price "
              "in $1000,\nfor the paper's bulldozer auctions (Kaggle Blue Book for "
              "Bulldozers); YearMade = Year_Built, ProductSize = Garage_Cars (0-5)")


def draw_feature(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path,
                 feature: str, xlabel: str) -> None:
    """The figure of ``feature`` (see the module doc), its x axis labelled ``xlabel``."""
    import matplotlib as mpl
    import numpy as np

    est = inputs.estimates("pdp", "ice", "shap", "ale", "stratpd")
    est = est[est["feature"] == feature]
    fit = inputs.estimates("fit")
    learners = pn.learner_order(est.loc[est["role"] == "pdp", "learner"])
    stratpd = est[est["role"] == "stratpd"]
    trials = stratpd[stratpd["rep"] == stratpd["rep"].min()]
    n_reps = est["rep"].nunique()
    few = est.loc[est["role"] == "pdp", "x"].nunique() <= DISCRETE
    jitter = np.random.default_rng(0)

    fig, style = st.new_figure(spec, rows=len(learners), width=13.0, panel_height=2.7)
    axes = fig.subplots(len(learners), NCOLS, squeeze=False)
    for i, learner in enumerate(learners):
        own = est[est["learner"] == learner]
        row = axes[i]
        pn.draw_ice(row[0], own[own["role"] == "ice"], own[own["role"] == "pdp"])
        pn.learner_title(row[0], learner, f"\nPD and ICE, {pn.r2_text(fit, learner, R2)}",
                         prefix=f"{pn.tag(0)} ")
        row[0].set_ylabel("predicted price ($1000)")

        shap = own[own["role"] == "shap"]
        if few:
            shap = shap.assign(x=shap["x"] + jitter.uniform(-0.15, 0.15, len(shap)))
        pn.draw_shap(row[1], shap)
        methods = pn.method_order(shap["method"])
        pn.learner_title(row[1], learner, "\n" + ", ".join(pn.shap_label(m) for m in methods),
                         prefix=f"{pn.tag(1)} ")
        row[1].set_ylabel("SHAP value ($1000)")

        pn.draw_curves(row[2], own[own["role"] == "ale"], pn.METHODS["ale"].colour,
                       marker="o" if few else None)
        pn.learner_title(row[2], learner, "\nALE", prefix=f"{pn.tag(2)} ")
        row[2].set_ylabel("ALE ($1000, 0 at the smallest x)")

        if i == 0 and not trials.empty:
            cmap = mpl.colormaps["tab10"]
            for k, (_, trial) in enumerate(trials.groupby("row")):
                trial = trial.sort_values("x")
                row[3].plot(trial["x"], trial["value"], color=cmap(k % 10), linewidth=0.8,
                            alpha=0.7)
            mean = trials.groupby("x")["value"].mean()
            row[3].scatter(mean.index, mean.to_numpy(), s=14, color="black", zorder=5)
            row[3].set_title(f"{pn.tag(3)} StratPD, {trials['row'].nunique()} bootstrap "
                             f"trials\nfrom the data alone, first repetition")
            row[3].set_ylabel("StratPD ($1000, 0 at the smallest x)")
            row[3].set_xlim(row[0].get_xlim())
        else:
            row[3].set_visible(False)
        for ax in row:
            ax.set_xlabel(xlabel)

    from matplotlib.lines import Line2D

    st.legend_below(fig, [
        *pn.method_handles(("pdp", "ice", "shap", "ale"),
                           {"pdp": f"PD (mean of {n_reps} repetitions)",
                            "ice": "ICE (100 rows, first repetition)",
                            "shap": "SHAP (first repetition)",
                            "ale": f"ALE (mean of {n_reps} repetitions; thin: each)"}),
        Line2D([], [], color="0.5", linewidth=0.8, label="StratPD, each bootstrap trial"),
        Line2D([], [], marker="o", linestyle="none", color="black", markersize=4,
               label="StratPD, mean of the trials"),
    ], ncols=3, title=SUBSTITUTE)
    st.save(fig, style, out_png, out_pdf)
