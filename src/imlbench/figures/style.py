"""Shared look, input loading and drawing helpers of the figure modules.

Every learner is drawn with the same colour and letter in every figure. The letters are
the plot symbols of Hooker, Mentch & Zhou (2021): r = random forest, n = neural net,
l = linear model, o = forest out-of-bag; ours for the learners beyond the paper:
g = xgboost, s = SVM, k = kNN, b = bagging. Blue is kept for the truth.

A figure's ``style:`` entry in the study file overrides :data:`DEFAULTS` (``width`` and
``panel_height`` in inches, ``font_size`` in points, ``dpi``).

matplotlib and pandas are imported inside the functions only: the figure modules are
imported by the configuration check on every CLI call, and matplotlib alone takes about
two seconds to import.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd
    from matplotlib.artist import Artist
    from matplotlib.axes import Axes
    from matplotlib.contour import QuadContourSet
    from matplotlib.figure import Figure

Inputs = dict[str, list[Path]]

DEFAULTS: dict[str, Any] = {"width": 11.0, "panel_height": 3.0, "font_size": 9.0, "dpi": 150}
TRUTH = "#1f5fd1"
ICE_GREY = "#7a7a7a"
SURFACE_CMAP = "viridis"
QUERY = "#e8432e"
THEORY = {"color": "black", "linestyle": "--", "linewidth": 1.0}
THEORY_MARKER = {"marker": "_", "markersize": 9}


@dataclass(frozen=True)
class Look:
    """How one series is drawn and named."""

    label: str
    letter: str
    colour: str


LEARNERS: dict[str, Look] = {
    "rf": Look("random forest", "r", "#d95f02"),
    "mlp": Look("neural net", "n", "#7570b3"),
    "lm": Look("linear model", "l", "#1b9e77"),
    "bagging100": Look("bagging, 100 trees", "b", "#17becf"),
    "rf100": Look("random forest, 100 trees", "r", "#d95f02"),
    "gbm": Look("xgboost", "g", "#e7298a"),
    "svm": Look("SVM", "s", "#a6761d"),
    "knn": Look("kNN", "k", "#444444"),
}
OOB = Look("random forest, out-of-bag (scaled, R's default)", "o", "#66a61e")
OOB_RAW = Look("random forest, out-of-bag (unscaled)", "u", "#999933")
#: the forest's out-of-bag measures, drawn as series of their own.
OOB_METHODS = ("oob", "oob_raw")


@dataclass(frozen=True)
class Measure:
    """How one importance measure is named (the paper's notation) and drawn."""

    label: str
    marker: str
    colour: str


MEASURES: dict[str, Measure] = {
    "pfi": Measure(r"$VI^{\pi}$ permute", "o", "#222222"),
    "cpfi": Measure(r"$VI^{C}$ conditional", "s", "#1b9e77"),
    "loco": Measure(r"$VI^{D}$ drop and refit (LOCO)", "^", "#d95f02"),
    "permute_relearn": Measure(r"$VI^{\pi L}$ permute and relearn", "D", "#7570b3"),
    "condition_relearn": Measure(r"$VI^{CL}$ condition and relearn", "v", "#e7298a"),
    "oob": Measure("out-of-bag importance", "o", OOB.colour),
    "oob_raw": Measure("out-of-bag importance, unscaled", "u", OOB_RAW.colour),
}


def look(learner: str, method: str = "pfi") -> Look:
    """The look of a learner's series; the forest's out-of-bag importance has its own."""
    if method == "oob":
        return OOB
    if method == "oob_raw":
        return OOB_RAW
    return LEARNERS.get(learner, Look(learner, learner[:1], "#333333"))


def learner_order(names: Iterable[str]) -> list[str]:
    """Learners in the paper's order (rf, mlp, lm, bagging), then ours, then unknown ones."""
    known = list(LEARNERS)
    return sorted(set(names), key=lambda n: (known.index(n) if n in known else len(known), n))


def feature_order(names: Iterable[str]) -> list[str]:
    """Features ``x1, x2, ..., x10`` in numeric order; named features alphabetically."""

    def key(name: str) -> tuple[int, str]:
        m = re.fullmatch(r"x(\d+)", name)
        return (0, f"{int(m.group(1)):06d}") if m else (1, name)

    return sorted(set(names), key=key)


def fmt(value: float) -> str:
    """A swept parameter value as printed in panel titles and legends."""
    return f"{value:g}"


# --- inputs -------------------------------------------------------------------------------


def scenarios(inputs: Inputs) -> list[str]:
    """The figure's scenarios: the directory names of its ``data`` inputs."""
    return sorted({p.parent.name for p in inputs.get("data", [])})


def estimates(inputs: Inputs, *methods: str) -> pd.DataFrame:
    """The estimate files of the given methods (``estimates/<sc>/<learner>/<method>/``)."""
    from imlbench.io import read_many

    paths = [p for p in inputs.get("estimates", []) if p.parent.name in methods]
    if not paths:
        raise ValueError(f"no estimates of method(s) {', '.join(methods)} among the inputs")
    return read_many(paths)


def truth(inputs: Inputs, estimand: str) -> pd.DataFrame:
    """The truth files of one estimand (``importance`` or ``effects``)."""
    from imlbench.io import read_many

    paths = [p for p in inputs.get("truth", []) if p.stem == estimand]
    if not paths:
        raise ValueError(f"no {estimand} truth among the inputs")
    return read_many(paths)


def data(inputs: Inputs) -> pd.DataFrame:
    """The first data chunk of each scenario, with a ``scenario`` column."""
    import pandas as pd

    from imlbench.io import read_parquet

    return pd.concat(
        [read_parquet(p).assign(scenario=p.parent.name) for p in inputs.get("data", [])],
        ignore_index=True,
    )


def summary(inputs: Inputs) -> pd.DataFrame:
    """The compare stage's coverage summary, restricted to the figure's scenarios."""
    from imlbench.io import read_many

    table = read_many(inputs.get("summary", []))
    if table.empty:
        raise ValueError("no coverage summary among the inputs")
    return table[table["scenario"].isin(scenarios(inputs))]


def ranks(inputs: Inputs) -> pd.DataFrame:
    """Per-repetition importance ranks of the figure's scenarios."""
    from imlbench.io import read_many

    table = read_many(inputs.get("ranks", []))
    if table.empty:
        raise ValueError("no ranks among the inputs")
    table = table[table["scenario"].isin(scenarios(inputs))]
    if table.empty:
        raise ValueError(f"no ranks of scenarios {', '.join(scenarios(inputs))}")
    return table


def mean_rank(table: pd.DataFrame, by: list[str]) -> pd.Series:
    """The rank averaged over repetitions, indexed (sorted) by ``by``."""
    return table.groupby(by)["rank"].mean()


# --- figure and output -------------------------------------------------------------------


def settings(spec: dict, **figure_defaults: Any) -> dict[str, Any]:
    """Style values: package defaults, then the figure's defaults, then ``spec['style']``."""
    return {**DEFAULTS, **figure_defaults, **spec.get("style", {})}


def new_figure(spec: dict, rows: float, **figure_defaults: Any) -> tuple[Figure, dict[str, Any]]:
    """An empty constrained-layout figure ``rows`` panels high, titled ``spec['title']``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    style = settings(spec, **figure_defaults)
    plt.rcParams.update({
        "font.size": style["font_size"],
        "axes.titlesize": style["font_size"],
        "axes.labelsize": style["font_size"],
        "legend.fontsize": style["font_size"] - 0.5,
        "xtick.labelsize": style["font_size"] - 1,
        "ytick.labelsize": style["font_size"] - 1,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "axes.grid": True,
        "grid.color": "0.92",
        "grid.linewidth": 0.5,
    })
    height = style["panel_height"] * rows + 1.0
    fig = plt.figure(figsize=(style["width"], height), layout="constrained")
    fig.suptitle(spec["title"], fontweight="bold", fontsize=style["font_size"] + 2)
    return fig, style


def panel_grid(fig: Figure, n: int, ncols: int, **subplot_kw: Any) -> list[Axes]:
    """``n`` panels in rows of ``ncols``; the unused cells of the last row are hidden."""
    axes = fig.subplots(panel_rows(n, ncols), ncols, squeeze=False, **subplot_kw).ravel()
    for ax in axes[n:]:
        ax.set_visible(False)
    return list(axes[:n])


def panel_rows(n: int, ncols: int) -> int:
    """Rows needed for ``n`` panels in rows of ``ncols``."""
    return -(-n // ncols)


def learner_title(ax: Axes, learner: str, extra: str = "") -> None:
    """A panel title naming the learner (and its letter) in its colour."""
    look_ = look(learner)
    ax.set_title(f"{look_.label} ({look_.letter}){extra}", color=look_.colour,
                 fontweight="bold")


def legend_below(fig: Figure, handles: list[Artist], ncols: int, title: str | None = None) -> None:
    """A figure legend under the panels."""
    fig.legend(handles=handles, loc="outside lower center", ncols=ncols, frameon=False,
               title=title)


def save(fig: Figure, style: dict[str, Any], out_png: Path, out_pdf: Path) -> None:
    """Write the figure as PNG and PDF, each atomically, and close it."""
    import matplotlib.pyplot as plt

    from imlbench.io import atomic_path

    for path, kind in ((out_png, "png"), (out_pdf, "pdf")):
        with atomic_path(path) as tmp:
            fig.savefig(tmp, format=kind, dpi=style["dpi"])
    plt.close(fig)


# --- shared panels -------------------------------------------------------------------------


def dodge(i: int, n: int, width: float = 0.6) -> float:
    """Horizontal offset of series ``i`` of ``n`` so that series at one x do not overlap."""
    return 0.0 if n == 1 else width * (i / (n - 1) - 0.5)


def rank_axes(ax: Axes, features: list[str]) -> None:
    """Axes of an average-rank-per-feature panel (rank 1 = least important)."""
    ax.set_xticks(range(1, len(features) + 1), features)
    ax.set_xlim(0.4, len(features) + 0.6)
    ax.set_ylim(0.5, len(features) + 0.5)
    ax.set_yticks(range(1, len(features) + 1))
    ax.set_xlabel("feature")
    ax.set_ylabel("average rank (1 = least important)")


def theory_ranks(ax: Axes, table: pd.DataFrame, column: str, features: list[str]) -> None:
    """The theoretical rank of each feature (column ``column`` of the truth) as a dashed line."""
    value = table.set_index("feature")[column].reindex(features)
    ax.plot(range(1, len(features) + 1), value.to_numpy(), zorder=1, **THEORY, **THEORY_MARKER)


def theory_handle(label: str, markers: bool = False) -> Artist:
    """Legend handle of a theoretical reference line (with the markers of theory_ranks)."""
    from matplotlib.lines import Line2D

    return Line2D([], [], label=label, **THEORY, **(THEORY_MARKER if markers else {}))


def rho_panels(table: pd.DataFrame) -> list[tuple[str, float]]:
    """(scenario, rho) pairs in increasing rho."""
    pairs = table[["scenario", "p_rho"]].drop_duplicates().sort_values("p_rho")
    return list(pairs.itertuples(index=False, name=None))


def draw_ice(ax: Axes, ice: pd.DataFrame, pdp: pd.DataFrame, effects: pd.DataFrame,
             feature: str, truth_kind: str) -> None:
    """ICE at the reference rows and PD, averaged over repetitions, against the truth.

    ``ice`` and ``pdp`` hold one learner and one scenario. Each ICE curve is solid where the
    feature lies within two conditional SDs of its copula partner at that reference row (the
    ``lo``/``hi`` of the true ICE rows) and dotted where the model extrapolates. The truth
    (blue) is the true ICE curve of every row (``truth_kind='ice'``) or the true PD.
    """
    import numpy as np

    ranges = (effects[(effects["kind"] == "ice") & (effects["feature"] == feature)]
              .groupby("row")[["lo", "hi"]].first())
    true = effects[(effects["kind"] == truth_kind) & (effects["feature"] == feature)]
    for _, curve in true.groupby("row"):
        ax.plot(curve["x"], curve["value"], color=TRUTH, linewidth=0.8, alpha=0.7)
    curves = ice[ice["feature"] == feature].groupby(["row", "x"])["value"].mean()
    for row, curve in curves.groupby(level="row"):
        x = curve.index.get_level_values("x").to_numpy()
        y = curve.to_numpy()
        lo, hi = ranges.loc[row]
        inside = np.concatenate([[lo], x[(x > lo) & (x < hi)], [hi]])
        ax.plot(x, y, color=ICE_GREY, linestyle=":", linewidth=0.9)
        ax.plot(inside, np.interp(inside, x, y), color=ICE_GREY, linewidth=1.1)
    mean_pd = pdp[pdp["feature"] == feature].groupby("x")["value"].mean()
    ax.plot(mean_pd.index, mean_pd.to_numpy(), color="black", linewidth=2.4)
    ax.set_xlabel(feature)


def ice_legend(truth_label: str) -> list[Artist]:
    """Legend handles of :func:`draw_ice`."""
    from matplotlib.lines import Line2D

    return [
        Line2D([], [], color=ICE_GREY, linewidth=1.1, label="ICE, within 2 conditional SD"),
        Line2D([], [], color=ICE_GREY, linestyle=":", linewidth=0.9,
               label="ICE, outside (extrapolation)"),
        Line2D([], [], color="black", linewidth=2.4, label="PD (mean over reps)"),
        Line2D([], [], color=TRUTH, linewidth=0.8, alpha=0.7, label=truth_label),
    ]


def surface_grid(surface: pd.DataFrame, stat: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Grid values x1, x2 and the statistic ``stat`` over repetitions (rows = x2)."""
    grid = surface.groupby(["z", "x"])["value"].agg(stat).unstack("x")
    return grid.columns.to_numpy(), grid.index.to_numpy(), grid.to_numpy()


def contour_levels(values: Iterable[np.ndarray], n: int = 12) -> np.ndarray:
    """About ``n`` round contour levels spanning all the given grids (one colour scale)."""
    import numpy as np
    from matplotlib.ticker import MaxNLocator

    values = list(values)
    lo = min(float(np.nanmin(v)) for v in values)
    hi = max(float(np.nanmax(v)) for v in values)
    return MaxNLocator(nbins=n).tick_values(lo, hi)


def surface_panel(ax: Axes, grid: tuple[np.ndarray, np.ndarray, np.ndarray],
                  levels: np.ndarray, points: pd.DataFrame, cmap: str = SURFACE_CMAP,
                  ) -> QuadContourSet:
    """Filled contours of a grid over the unit square with the training points of rep 0."""
    filled = ax.contourf(*grid, levels=levels, cmap=cmap)
    train = points[(points["split"] == "train") & (points["rep"] == 0)]
    ax.scatter(train["x1"], train["x2"], marker="x", s=14, linewidths=0.7, color="black",
               zorder=3)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.grid(False)
    ax.set_xlabel("x1")
    ax.set_ylabel("x2")
    return filled


def training_handle() -> Artist:
    """Legend handle of the training points drawn by :func:`surface_panel`."""
    from matplotlib.lines import Line2D

    return Line2D([], [], marker="x", linestyle="none", color="black",
                  label="training data (rep 0)")
