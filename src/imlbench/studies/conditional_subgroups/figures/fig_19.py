"""Fig. 19 of Molnar et al. (conditional subgroups): model fidelity per effect method."""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs

EFFECTS = {"pdp": "PDP", "ale": "ALE", "cart1": "CART 1", "trtr1": "trtr 1",
           "cart2": "CART 2", "trtr2": "trtr 2"}
GLOBAL_COLOUR, CART_COLOUR, TRTR_COLOUR = "#9e9e9e", "#d95f02", "#1b9e77"
#: the figure's one role: the model-fidelity estimates (``model_fidelity``)
FIDELITY = "model_fidelity"
AGAINST = {"y": "MSE against the test target y",
           "model": "MSE against the model's prediction (eq. 7)"}


def _colour(effect: str) -> str:
    if effect.startswith("cart"):
        return CART_COLOUR
    return TRTR_COLOUR if effect.startswith("trtr") else GLOBAL_COLOUR


def _learner(name: str) -> str:
    """The study's learner instance without its part prefix (``e4_rf`` -> ``rf``)."""
    return name.split("_", 1)[1] if name.startswith("e4_") else name


@figure("conditional_subgroups.fig_19", methods=(FIDELITY,))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    """The loss is taken against ``y`` or, with the figure's ``style: {against: model}``, against
    the model's predictions."""
    import numpy as np
    from matplotlib.patches import Patch

    from imlbench.studies.conditional_subgroups.dgp_regression_tables import TABLES

    against = spec.get("style", {}).get("against", "y")
    table = inputs.estimates(FIDELITY)
    table = table[table["against"] == against]
    points = table.groupby(["p_name", "learner", "effect", "feature"])["value"].mean()
    names = [n for n in TABLES if n in points.index.unique("p_name")]
    learners = st.learner_order(_learner(lr) for lr in points.index.unique("learner"))
    instance = {_learner(lr): lr for lr in points.index.unique("learner")}
    effects = [e for e in EFFECTS if e in points.index.unique("effect")]

    fig, style = st.new_figure(spec, rows=len(names), width=10.0, panel_height=1.9,
                               font_size=8.0)
    axes = fig.subplots(len(names), len(learners), squeeze=False, sharey="row")
    rng = np.random.default_rng(0)  # horizontal jitter of the feature points only
    for r, name in enumerate(names):
        for c, learner in enumerate(learners):
            ax = axes[r, c]
            key = (name, instance[learner])
            data = [points.loc[key + (e,)].to_numpy() if key + (e,) in points.index
                    else np.array([]) for e in effects]
            box = ax.boxplot(data, positions=range(len(effects)), widths=0.6,
                             patch_artist=True, showfliers=False,
                             medianprops={"color": "black"})
            for patch, effect in zip(box["boxes"], effects, strict=True):
                patch.set(facecolor=_colour(effect), alpha=0.35)
            for k, values in enumerate(data):
                ax.scatter(k + rng.uniform(-0.15, 0.15, len(values)), values, s=7,
                           color=_colour(effects[k]), zorder=3)
            ax.set_xticks(range(len(effects)), [EFFECTS[e] for e in effects])
            if r == 0:
                st.learner_title(ax, learner)
            if c == 0:
                ax.set_ylabel(f"{name}\n(for {TABLES[name].stands_for})\nMSE",
                              fontweight="bold")
    legend = [Patch(facecolor=GLOBAL_COLOUR, alpha=0.5, label="global curve (PDP, ALE)"),
              Patch(facecolor=CART_COLOUR, alpha=0.5, label="cs-PDP, CART subgroups"),
              Patch(facecolor=TRTR_COLOUR, alpha=0.5,
                    label="cs-PDP, distribution-tree (trtr) subgroups")]
    st.legend_below(fig, legend, ncols=3,
                    title=f"{AGAINST[against]}; one point per feature; 1/2 = tree depth")
    st.save(fig, style, out_png, out_pdf)
