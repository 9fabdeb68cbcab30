"""Fig. 4 of Parr & Wilson (2021): StratPD under noise, y = x1^2 + x2 + 10 + N(0, sd^2)."""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.stratpd.figures import panels as pn

FEATURE = "x1"


@figure("stratpd.fig_4", methods=("stratpd",), truths=("effects",))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    est = inputs.estimates("stratpd")
    est = est[est["feature"] == FEATURE]
    truth = inputs.truth("effects")
    scenarios = est[["scenario", "p_noise_sd"]].drop_duplicates().sort_values("p_noise_sd")
    colour = pn.METHODS["stratpd"].colour

    fig, style = st.new_figure(spec, rows=1, width=12.0, panel_height=3.2)
    axes = st.panel_grid(fig, len(scenarios), len(scenarios), sharey=True)
    for i, (ax, (scenario, sd)) in enumerate(
            zip(axes, scenarios.itertuples(index=False), strict=True)):
        pn.draw_curves(ax, est[est["scenario"] == scenario], colour,
                       pn.truth_curve(truth[truth["scenario"] == scenario],
                                      pn.role_estimand(inputs, "stratpd"), FEATURE))
        ax.set_title(f"{pn.tag(i)} noise sd = {st.fmt(sd)}")
        ax.set_xlabel(FEATURE)
        if i == 0:
            ax.set_ylabel("StratPD of x1 (0 at the smallest x1)")
    n_reps = est.groupby("scenario")["rep"].nunique().min()
    st.legend_below(fig, [*pn.reps_handles(colour, n_reps),
                          pn.truth_handle("true PD x1² - 4, anchored alike")], ncols=3)
    st.save(fig, style, out_png, out_pdf)
