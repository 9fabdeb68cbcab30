"""Fig. 7 of Parr & Wilson (2021): the effect of pregnancy on body weight."""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.stratpd.figures import panels as pn

FEATURE = "pregnant"
TRUE_EFFECT = 40.0
ROLES = ("pdp", "shap", "ale", "stratpd")


@figure("stratpd.fig_7", methods=ROLES)
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    import numpy as np
    from matplotlib.patches import Patch

    est = inputs.estimates(*ROLES)
    est = est[est["feature"] == FEATURE]
    learners = pn.learner_order(est.loc[est["role"] != "stratpd", "learner"])
    # one group per method; the SHAP variants are groups of their own
    groups = [(role, m) for role in ROLES
              for m in pn.method_order(est.loc[est["role"] == role, "method"])]
    width = 0.8 / len(learners)

    fig, style = st.new_figure(spec, rows=1.3, width=11.0)
    ax = fig.subplots()
    labels = []
    for g, (role, method) in enumerate(groups):
        sel = est[est["method"] == method]
        present = [lr for lr in learners if lr in set(sel["learner"])]
        if role == "stratpd":
            gaps = pn.level_gaps(sel, 0.0)[[1.0]]
            pn.draw_bars(ax, np.array([g]), gaps, pn.METHODS["catstratpd"].colour, 0.8 / 2)
            labels.append("CatStratPD\n(no model)")
            continue
        for k, learner in enumerate(present):
            gaps = pn.level_gaps(sel[sel["learner"] == learner], 0.0)[[1.0]]
            pos = g + st.dodge(k, len(present), width * (len(present) - 1))
            pn.draw_bars(ax, np.array([pos]), gaps, pn.LOOKS[learner].colour, width)
        labels.append(pn.shap_label(method).replace(", ", "\n").replace(" (", "\n(")
                      if role == "shap" else pn.METHODS[role].label)
    pn.truth_level(ax, TRUE_EFFECT)
    ax.set_xticks(range(len(groups)), labels)
    ax.set_ylabel("weight gap, pregnant - not pregnant (lb)")
    ax.set_ylim(0, TRUE_EFFECT * 1.25)
    st.legend_below(fig, [
        *[Patch(color=pn.LOOKS[lr].colour, alpha=0.6, label=pn.learner_label(lr))
          for lr in learners],
        Patch(color=pn.METHODS["catstratpd"].colour, alpha=0.6, label="CatStratPD"),
        pn.truth_handle("true effect, 40 lb"),
    ], ncols=len(learners) + 2,
        title=f"mean over {est['rep'].nunique()} repetitions ± 2 SE")
    st.save(fig, style, out_png, out_pdf)
