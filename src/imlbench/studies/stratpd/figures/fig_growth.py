"""Beyond Parr & Wilson (2021): errors of StratPD, ALE and PD as n and the noise grow."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.stratpd.figures import panels as pn

if TYPE_CHECKING:
    import pandas as pd

FEATURE = "x1"
ROLES = ("stratpd", "ale", "pdp")


def rms_errors(reps: pd.DataFrame) -> pd.DataFrame:
    """Per (scenario, role, repetition) the RMS error of the curve against its truth, both
    anchored at the curve's smallest x (rows of ``truth_error_reps`` with anchor ``none``)."""
    import numpy as np
    import pandas as pd

    from imlbench.metrics.curve_claims import anchored_errors

    rows = []
    for (scenario, role, rep), curve in reps.groupby(["scenario", "role", "rep"]):
        errors, _ = anchored_errors(curve, None)
        rows.append({"scenario": scenario, "role": role, "rep": rep,
                     "rms": float(np.sqrt(np.mean(errors**2)))})
    return pd.DataFrame(rows)


@figure("stratpd.fig_growth", methods=ROLES, tables=("truth_error_reps",))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    """Per repetition the error is that of the claim kind ``curve_error``, from the rows of
    ``metrics/truth_error_reps.parquet`` with ``anchor == "none"`` (:func:`rms_errors`)."""
    import numpy as np

    reps = inputs.truth_errors()
    reps = reps[(reps["anchor"] == "none") & (reps["feature"] == FEATURE)]
    # the swept n and noise sd of each scenario, as the estimates carry them
    sweep = (inputs.estimates(*ROLES)[["scenario", "p_n", "p_noise_sd"]].drop_duplicates()
             .set_index("scenario"))
    errors = rms_errors(reps).join(sweep, on="scenario")
    noises = np.sort(errors["p_noise_sd"].unique())
    sizes = np.sort(errors["p_n"].unique())

    fig, style = st.new_figure(spec, rows=1, width=3.3 * len(noises) + 1.0, panel_height=3.0)
    axes = st.panel_grid(fig, len(noises), len(noises))
    for i, (ax, noise) in enumerate(zip(axes, noises, strict=True)):
        for k, role in enumerate(ROLES):
            sel = errors[(errors["p_noise_sd"] == noise) & (errors["role"] == role)]
            if sel.empty:
                continue
            by_n = sel.pivot_table(index="rep", columns="p_n", values="rms")
            mean, whisker = pn.mean_2se(by_n)
            # a small horizontal offset (in log n) keeps the bars apart
            x = mean.index.to_numpy(float) * 10 ** st.dodge(k, len(ROLES), 0.06)
            ax.errorbar(x, mean.to_numpy(), yerr=whisker.to_numpy(), marker="o", markersize=4,
                        capsize=2.5, linewidth=1.6, color=pn.METHODS[role].colour)
        ax.set_xscale("log")
        ax.set_xticks(sizes, [f"{n:,}" for n in sizes])
        ax.minorticks_off()
        ax.set_ylim(bottom=0)
        ax.set_xlabel("n (rows, log scale)")
        ax.set_title(f"{pn.tag(i)} noise sd = {st.fmt(noise)}")
        if i == 0:
            ax.set_ylabel(f"RMS error of the {FEATURE} curve (units of y)")
    n_reps = errors["rep"].nunique()
    handles = pn.method_handles(ROLES, {"ale": "ALE of the forest", "pdp": "PD of the forest"})
    st.legend_below(fig, handles, ncols=len(ROLES),
                    title=f"mean over {n_reps} repetitions ± 2 SE")
    st.save(fig, style, out_png, out_pdf)
