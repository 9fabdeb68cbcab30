"""Shared reading and panels of the simulation figures (Figs. 7, 8 and 14 of Molnar et al.,
conditional subgroups): one panel per (dependence scenario, n and p) cell.

The estimators of the conditional PFI of x1 are the figures' method roles (:data:`ESTIMATORS`);
a figure on fitted models also reads the role :data:`MODEL_TRUTH`, the per-model Monte Carlo
truths, and a figure on the true model the closed-form truth :data:`TRUTH`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from imlbench.figures import style as st

if TYPE_CHECKING:
    import pandas as pd

    from imlbench.figures.inputs import FigureInputs

SCENARIOS = ("independent", "linear", "multilinear", "nonlinear")
SCENARIO_LABELS = {"independent": "independent", "linear": "linear",
                   "multilinear": "multi. lin.", "nonlinear": "non-linear"}
ESTIMATORS = {  # role: (label, colour)
    "cs_cart": ("cart", "#1b9e77"),
    "cs_trtr": ("trtr", "#66a61e"),
    "cvirf": ("cvirf", "#7570b3"),
    "impute": ("imp", "#d95f02"),
    "knockoff": ("ko", "#e7298a"),
    "marginal": ("mPFI", "#666666"),
}
#: the estimators of setting I: the forest's own conditional importance (cvirf) needs a forest
TRUE_MODEL_ESTIMATORS = tuple(r for r in ESTIMATORS if r != "cvirf")
#: the role of the per-model Monte Carlo truths (setting II)
MODEL_TRUTH = "model_truth"
#: the estimand of the closed-form truth of the true model (setting I)
TRUTH = "importance"


def cells(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with the cell's ``dependence``, ``n`` (all rows) and ``p`` columns."""
    out = table.copy()
    out["dependence"] = out["p_scenario"]
    out["n"] = out["scenario"].str.extract(r"^n(\d+)_", expand=False).astype(int)
    out["p"] = out["p_p"].astype(int)
    return out


def grid(table: pd.DataFrame) -> tuple[list[str], list[tuple[int, int]]]:
    """Row (dependence) and column ((n, p)) keys present in ``table``."""
    rows = [s for s in SCENARIOS if s in set(table["dependence"])]
    cols = sorted({(int(n), int(p)) for n, p in zip(table["n"], table["p"], strict=True)})
    return rows, cols


def estimator_roles(estimates: pd.DataFrame) -> list[str]:
    """The estimator roles with estimates, in the order of :data:`ESTIMATORS`."""
    return [r for r in ESTIMATORS if r in set(estimates["role"])]


def cell_truths(inputs: FigureInputs, table: pd.DataFrame) -> pd.Series:
    """The conditional PFI of x1 per (scenario, learner): the closed form for the true model,
    else the mean over repetitions of the per-model Monte Carlo truths."""
    import pandas as pd

    out: dict[tuple[str, str], float] = {}
    if (table["learner"] == "truth").any():
        closed = inputs.truth(TRUTH)
        closed = closed[closed["estimand"] == "pfi_conditional"]
        out.update({(sc, "truth"): v for sc, v in zip(closed["scenario"], closed["value"],
                                                       strict=True)})
    if (table["learner"] != "truth").any():
        mc = inputs.estimates(MODEL_TRUTH)
        out.update(mc[mc["feature"] == "x1"].groupby(["scenario", "learner"])["value"].mean())
    return pd.Series(out, dtype=float)


def cell_panels(spec: dict, table: pd.DataFrame, ylabel: str = "PFI of x1", **subplot_kw):
    """A figure with one panel per cell of ``table`` (rows: dependence scenario, columns:
    (n, p)), and for every cell with rows ``(ax, dependence, n, p, cell rows, last row)``;
    panels of empty cells are hidden."""
    rows, cols = grid(table)
    fig, style = st.new_figure(spec, rows=len(rows), width=3.0 * len(cols), panel_height=2.4)
    axes = fig.subplots(len(rows), len(cols), squeeze=False, **subplot_kw)
    panels = []
    for i, dep in enumerate(rows):
        for k, (n, p) in enumerate(cols):
            ax = axes[i, k]
            cell = table[(table["dependence"] == dep) & (table["n"] == n) & (table["p"] == p)]
            if cell.empty:
                ax.set_visible(False)
                continue
            if i == 0:
                ax.set_title(f"n = {n}, p = {p}")
            if k == 0:
                ax.set_ylabel(f"{SCENARIO_LABELS[dep]}\n{ylabel}")
            panels.append((ax, dep, n, p, cell, i == len(rows) - 1))
    return fig, style, panels


def violin_figure(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path,
                  learner: str, roles: tuple[str, ...]) -> None:
    """Violins of the estimates of every estimator role of ``roles`` per cell, the cell's
    truth and each estimator's MSE (Figs. 7 and 14)."""
    import numpy as np
    from matplotlib.lines import Line2D

    estimates = inputs.estimates(*roles)
    methods = estimator_roles(estimates)
    table = cells(estimates)
    table = table[(table["learner"] == learner) & (table["feature"] == "x1")]
    truths = cell_truths(inputs, table)
    fig, style, panels = cell_panels(spec, table)
    for ax, _, _, _, cell, _ in panels:
        present = [m for m in methods if m in set(cell["role"])]
        sc = cell["scenario"].iloc[0]
        truth = truths.get((sc, learner), np.nan)
        data = [cell.loc[cell["role"] == m, "value"].to_numpy() for m in present]
        parts = ax.violinplot(data, showmedians=True, widths=0.8)
        for body, m in zip(parts["bodies"], present, strict=True):
            body.set_facecolor(ESTIMATORS[m][1])
            body.set_alpha(0.6)
        for key in ("cmedians", "cmins", "cmaxes", "cbars"):
            parts[key].set_color("0.25")
            parts[key].set_linewidth(0.8)
        ax.axhline(truth, **{**st.THEORY, "color": st.TRUTH})
        top = max(float(np.max(d)) for d in data)
        for x, d in enumerate(data, start=1):
            mse = float(np.mean((d - truth) ** 2))
            ax.text(x, top, f"{mse:.0f}" if mse >= 100 else f"{mse:.3g}", ha="center",
                    va="bottom", fontsize=style["font_size"] - 2)
        ax.set_xticks(range(1, len(present) + 1), [ESTIMATORS[m][0] for m in present])
    st.legend_below(fig, [Line2D([], [], **{**st.THEORY, "color": st.TRUTH},
                                 label="true conditional PFI"),
                          Line2D([], [], color="0.25", label="median and range"),
                          Line2D([], [], linestyle="none", marker="$1.2$", color="0.25",
                                 markersize=12, label="MSE (above each violin)")], ncols=3)
    st.save(fig, style, out_png, out_pdf)
