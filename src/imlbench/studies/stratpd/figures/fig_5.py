"""Fig. 5 of Parr & Wilson (2021): synthetic weather, the effect of the state."""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.params import table, text
from imlbench.studies.stratpd.dgp_weather import STATES
from imlbench.studies.stratpd.figures import panels as pn

FEATURE = "state"
REFERENCE = STATES.index("CO")
STATE_COLOURS = ("#d73027", "#fc8d59", "#4575b4", "#fee090", "#91bfdb")
MODEL_ROLES = ("pdp", "ale")


@figure("stratpd.fig_5", methods=("pdp", "ale", "catstratpd"), truths=("effects",),
        tables=("data",), params={"row_of": table(value=text(), default={})})
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
         row_of: dict[str, str]) -> None:
    """``row_of`` draws a learner's bars in another learner's row (a variant of a model fitted
    for one method: the paper's ALE forest tried all 3 features per split, its PD forest
    not); the panel's title names the learner that was drawn."""
    import numpy as np

    est = inputs.estimates("pdp", "ale", "catstratpd")
    est = est[est["feature"] == FEATURE].assign(drawn=lambda d: d["learner"])
    est["learner"] = est["learner"].replace(row_of)
    truth = inputs.truth("effects")
    data = inputs.data()
    data = data[(data["rep"] == data["rep"].min()) & (data["split"] == "train")]
    learners = pn.learner_order(est.loc[est["role"] != "catstratpd", "learner"])
    levels = [k for k in range(len(STATES)) if k != REFERENCE]
    positions = np.arange(len(levels))
    names = [STATES[k] for k in levels]

    fig, style = st.new_figure(spec, rows=len(learners), width=12.0, panel_height=2.4)
    axes = fig.subplots(len(learners), 4, squeeze=False)
    ax = axes[0, 0]
    for k, state in enumerate(STATES):
        rows = data[data[FEATURE] == k]
        ax.scatter(rows["dayofyear"], rows["y"], s=5, alpha=0.85, linewidths=0,
                   color=STATE_COLOURS[k], label=state)
    ax.set_xlabel("day of the year")
    ax.set_ylabel("temperature (°F)")
    ax.set_title(f"{pn.tag(0)} data (first repetition)")
    ax.legend(ncols=5, markerscale=3, handletextpad=0.1, columnspacing=0.6,
              loc="upper center", bbox_to_anchor=(0.5, -0.28), frameon=False)

    ymax = 0.0
    used = []
    for i, learner in enumerate(learners):
        for j, role in enumerate(("pdp", "ale", "catstratpd"), start=1):
            sel = est[(est["learner"] == learner) & (est["role"] == role)]
            ax = axes[i, j]
            if sel.empty:
                ax.set_visible(False)
                continue
            used.append(ax)
            gaps = pn.level_gaps(sel, REFERENCE)[levels]
            pn.draw_bars(ax, positions, gaps, pn.METHODS[role].colour, width=0.6)
            true = pn.truth_curve(truth, pn.role_estimand(inputs, role), FEATURE)
            ax.scatter(positions, (true - true[REFERENCE])[levels].to_numpy(), marker="D",
                       s=40, facecolors="none", edgecolors=st.TRUTH, linewidths=1.3, zorder=5)
            ax.set_xticks(positions, names)
            ymax = max(ymax, float(gaps.max().max()), float(true.max() - true[REFERENCE]))
            label = f"{pn.tag(j)} {pn.METHODS[role].label}" if i == 0 else pn.METHODS[role].label
            if role == "catstratpd":
                ax.set_title(f"{label} (no model)")
            else:
                pn.learner_title(ax, str(sel["drawn"].iloc[0]), prefix=f"{label}, ")
            if j == 1 or role == "catstratpd":
                ax.set_ylabel("gap to CO (°F)")
    for ax in used:
        ax.set_ylim(min(0.0, ax.get_ylim()[0]), 1.12 * ymax)
    for ax in axes[1:, 0]:
        ax.set_visible(False)

    from matplotlib.lines import Line2D

    st.legend_below(fig, [
        Line2D([], [], marker="D", linestyle="none", markerfacecolor="none",
               markeredgecolor=st.TRUTH, label="true gap to CO"),
        Line2D([], [], color="0.3", marker="|", markersize=10, linestyle="none",
               label=f"mean over {est['rep'].nunique()} repetitions ± 2 SE"),
    ], ncols=2)
    st.save(fig, style, out_png, out_pdf)
