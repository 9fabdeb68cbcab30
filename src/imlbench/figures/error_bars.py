"""Where the error of a curve estimate comes from: stacked bars of its MSE components.

``error_components``: one row of panels per scenario and feature, one column per learner of
the scenario (in its order); in each panel one bar per method filling the role ``estimates``
that has estimates for that learner, stacked from the curve's errors against its truth over
the repetitions (``metrics/truth_error_reps.parquet``, curves anchored at their mean over the
compared points), each part averaged over those points:

* ``parts: plain``: squared bias and variance (divisor R), which add up to the MSE;
* ``parts: decomposed`` (methods with ``model_effect_rows``, :mod:`imlbench.explain.
  strategies`): the squared model bias, the squared estimation bias, twice their product,
  the model variance, the estimation variance and twice their covariance
  (:func:`imlbench.stats.mse_decomposition`), which add up to the MSE as well; parts below 0
  (the cross terms) are stacked downward from 0.

A black tick marks each bar's MSE.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.params import choice, feature_names
from imlbench.stats import mse_decomposition

#: the parts of each kind of bar, their labels and colours
PARTS = {
    "plain": {"bias2": ("squared bias", "#4d4d4d"), "variance": ("variance", "#bababa")},
    "decomposed": {
        "model_bias2": ("model bias²", "#b2182b"),
        "estimation_bias2": ("estimation bias²", "#ef8a62"),
        "bias_cross": ("2 × model bias × estimation bias", "#fddbc7"),
        "model_variance": ("model variance", "#2166ac"),
        "estimation_variance": ("estimation variance", "#67a9cf"),
        "covariance": ("2 × covariance", "#d1e5f0"),
    },
}
CURVE = ["scenario", "learner", "method", "feature"]


def error_parts(reps: pd.DataFrame, parts: str) -> pd.DataFrame:
    """Per curve (scenario, learner, method, feature) the parts of :data:`PARTS` of its MSE,
    each the mean over the curve's points of the pointwise part over the repetitions."""
    by = [*CURVE, "x"]
    if parts == "plain":
        g = reps.groupby(by, sort=False)["error"]
        points = pd.DataFrame({"bias2": g.mean() ** 2, "variance": g.var(ddof=0)}).reset_index()
    else:
        reps = reps.dropna(subset=["model"])
        d = mse_decomposition(reps, by)
        points = d[by].assign(
            model_bias2=d["model_bias"] ** 2, estimation_bias2=d["estimation_bias"] ** 2,
            bias_cross=2 * d["model_bias"] * d["estimation_bias"],
            model_variance=d["model_variance"], estimation_variance=d["estimation_variance"],
            covariance=d["covariance"])
    return points.groupby(CURVE, sort=False)[list(PARTS[parts])].mean().reset_index()


@figure("error_components", methods=("estimates",), tables=("truth_error_reps",), params={
    "parts": choice("plain", tuple(PARTS)), "features": feature_names()})
def error_components(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                     parts: str, features: list[str]) -> None:
    """Rows: scenario and feature; columns: the scenario's learners; bars: the methods."""
    from matplotlib.patches import Patch

    reps = inputs.truth_errors()
    reps = reps[reps["anchor"] == "mean"]
    if features:
        reps = reps[reps["feature"].isin(features)]
    if parts == "decomposed" and ("model" not in reps or reps["model"].isna().all()):
        raise ValueError("parts: decomposed needs the models' own effect; none of the "
                         "figure's methods has model_effect_rows")
    table = error_parts(reps, parts)
    order = list(inputs.methods("estimates"))
    cells = [(sc, f) for sc in inputs.scenarios
             for f in st.feature_order(table.loc[table["scenario"] == sc, "feature"])]
    learners = {sc: list(dict.fromkeys(table.loc[table["scenario"] == sc, "learner"]))
                for sc in inputs.scenarios}
    ncols = max((len(v) for v in learners.values()), default=1)
    fig, style = st.new_figure(spec, rows=len(cells) * 0.7, panel_height=2.4)
    axes = fig.subplots(max(len(cells), 1), ncols, squeeze=False)
    looks = PARTS[parts]
    for row, (sc, feature) in enumerate(cells):
        for col in range(ncols):
            ax = axes[row, col]
            if col >= len(learners[sc]):
                ax.set_visible(False)
                continue
            learner = learners[sc][col]
            mine = table[(table["scenario"] == sc) & (table["learner"] == learner)
                         & (table["feature"] == feature)]
            mine = mine.set_index("method").reindex([m for m in order if m in
                                                     set(mine["method"])])
            x = np.arange(len(mine))
            up, down = np.zeros(len(mine)), np.zeros(len(mine))
            for part, (_, colour) in looks.items():
                v = mine[part].to_numpy(float)
                base = np.where(v >= 0, up, down)
                ax.bar(x, v, bottom=base, color=colour, width=0.7)
                up, down = up + np.clip(v, 0, None), down + np.clip(v, None, 0)
            ax.scatter(x, mine[list(looks)].sum(axis=1), marker="_", color="black", s=120,
                       zorder=3)
            ax.axhline(0.0, color="black", linewidth=0.5)
            ax.set_xticks(x, list(mine.index), rotation=30, ha="right")
            ax.set_title(f"{sc}: {learner.removeprefix(sc + '_')}, {feature}")
    handles = [Patch(color=colour, label=label) for label, colour in looks.values()]
    st.legend_below(fig, handles, ncols=min(6, len(handles)),
                    title="mean over the points of each part of the MSE (black: the MSE)")
    st.save(fig, style, out_png, out_pdf)
