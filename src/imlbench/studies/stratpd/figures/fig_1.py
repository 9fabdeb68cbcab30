"""Fig. 1 of Parr & Wilson (2021): PD/ICE of several models and StratPD, on a substitute table."""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.stratpd.figures import panels as pn

FEATURE = "bathrooms"
R2 = ("r2_test", "r2_train")
NCOLS = 4
SUBSTITUTE = ("Substitute data: Saratoga County houses, 2006 (mosaicData SaratogaHouses), "
              "price in $1000, for the paper's NYC rent listings (Kaggle 2017)")


@figure("stratpd.fig_1", methods=("marginal", "pdp", "ice", "stratpd", "fit"), tables=("data",))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    import numpy as np

    marginal = inputs.estimates("marginal")
    pdp, ice = inputs.estimates("pdp"), inputs.estimates("ice")
    stratpd, fit = inputs.estimates("stratpd"), inputs.estimates("fit")
    data = inputs.data()
    data = data[(data["rep"] == data["rep"].min()) & (data["split"] == "train")]
    learners = pn.learner_order(pdp["learner"])
    paper, beyond = learners[:4], learners[4:]
    first_ice = ice[ice["rep"] == ice["rep"].min()]
    price_range = (min(first_ice["value"].min(), pdp["value"].min()),
                   max(first_ice["value"].max(), pdp["value"].max()))
    pad = 0.04 * (price_range[1] - price_range[0])

    n_panels = 2 + len(learners)
    fig, style = st.new_figure(spec, rows=st.panel_rows(n_panels, NCOLS), width=12.0,
                               panel_height=2.9)
    axes = st.panel_grid(fig, n_panels, NCOLS)
    order = ["marginal", *paper, "stratpd", *beyond]
    for i, (ax, what) in enumerate(zip(axes, order, strict=True)):
        ax.set_xlabel("bathrooms")
        if what == "marginal":
            jitter = np.random.default_rng(0).uniform(-0.08, 0.08, len(data))
            ax.scatter(data[FEATURE] + jitter, data["y"], s=3, alpha=0.25, color="0.5",
                       linewidths=0)
            mean = pn.rep_curves(marginal[marginal["feature"] == FEATURE]).mean()
            ax.plot(mean.index, mean.to_numpy(), color=pn.METHODS["marginal"].colour,
                    marker="o", markersize=4, linewidth=2)
            ax.set_title(f"{pn.tag(i)} marginal plot\nmean price per number of bathrooms")
            ax.set_ylabel("price ($1000)")
        elif what == "stratpd":
            pn.draw_curves(ax, stratpd[stratpd["feature"] == FEATURE],
                           pn.METHODS["stratpd"].colour, marker="o")
            ax.set_title(f"{pn.tag(i)} StratPD\nfrom the data alone, no model")
            ax.set_ylabel("price change ($1000)")
        else:
            sel = (pdp["learner"] == what) & (pdp["feature"] == FEATURE)
            pn.draw_ice(ax, ice[(ice["learner"] == what) & (ice["feature"] == FEATURE)],
                        pdp[sel])
            ax.set_ylim(price_range[0] - pad, price_range[1] + pad)
            pn.learner_title(ax, what, f"\nPD and ICE, {pn.r2_text(fit, what, R2)}",
                             prefix=f"{pn.tag(i)} ")
            ax.set_ylabel("predicted price ($1000)")
    n_reps = pdp["rep"].nunique()
    st.legend_below(fig, [
        *pn.method_handles(("pdp", "ice"), {"pdp": f"PD (mean of {n_reps} repetitions)",
                                            "ice": "ICE (100 rows, first repetition)"}),
        *pn.reps_handles(pn.METHODS["stratpd"].colour, stratpd["rep"].nunique(), "StratPD, "),
    ], ncols=4, title=SUBSTITUTE)
    st.save(fig, style, out_png, out_pdf)
