"""Drawing helpers of the figures of Hooker, Mentch & Zhou (2021).

The learners keep the paper's plot letters (:mod:`imlbench.figures.style`); the study's
100-tree forests (``rf100``, ``bagging100``) and the forest's out-of-bag importance
(roles ``oob``, ``oob_raw``) get looks of their own, and every importance measure its name
in the paper's notation (:data:`MEASURES`, keyed by the figures' method roles).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from imlbench.figures.style import ICE_GREY, LEARNERS, SURFACE_CMAP, THEORY, TRUTH, Look
from imlbench.figures.style import learner_order as house_learner_order
from imlbench.figures.style import learner_title as house_learner_title
from imlbench.figures.style import look as house_look

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd
    from matplotlib.artist import Artist
    from matplotlib.axes import Axes
    from matplotlib.contour import QuadContourSet

THEORY_MARKER = {"marker": "_", "markersize": 9}

#: the looks of the study's learners, in the paper's order (rf, mlp, lm, bagging), then ours
LOOKS: dict[str, Look] = {
    "rf": LEARNERS["rf"],
    "mlp": LEARNERS["mlp"],
    "lm": LEARNERS["lm"],
    "bagging100": Look("bagging, 100 trees", "b", LEARNERS["bagging"].colour),
    "rf100": Look("random forest, 100 trees", "r", LEARNERS["rf"].colour),
    "gbm": LEARNERS["gbm"],
    "svm": LEARNERS["svm"],
    "knn": LEARNERS["knn"],
}

OOB = Look("random forest, out-of-bag (scaled, R's default)", "o", "#66a61e")
OOB_RAW = Look("random forest, out-of-bag (unscaled)", "u", "#999933")
#: the roles of the forest's out-of-bag measures, drawn as series of their own.
OOB_ROLES = ("oob", "oob_raw")


#: every importance measure in the paper's notation, with its letter, colour and marker
MEASURES: dict[str, Look] = {
    "pfi": Look(r"$VI^{\pi}$ permute", "p", "#222222", "o"),
    "cpfi": Look(r"$VI^{C}$ conditional", "c", "#1b9e77", "s"),
    "loco": Look(r"$VI^{D}$ drop and refit (LOCO)", "d", "#d95f02", "^"),
    "permute_relearn": Look(r"$VI^{\pi L}$ permute and relearn", "l", "#7570b3", "D"),
    "condition_relearn": Look(r"$VI^{CL}$ condition and relearn", "m", "#e7298a", "v"),
    "oob": Look("out-of-bag importance", "o", OOB.colour, "o"),
    "oob_raw": Look("out-of-bag importance, unscaled", "u", OOB_RAW.colour, "u"),
}


def look(learner: str, role: str = "pfi") -> Look:
    """The look of a learner's series; the forest's out-of-bag importance has its own."""
    if role == "oob":
        return OOB
    if role == "oob_raw":
        return OOB_RAW
    return house_look(learner, LOOKS)


def mean_rank(table: pd.DataFrame, by: list[str]) -> pd.Series:
    """The rank averaged over repetitions, indexed (sorted) by ``by``."""
    return table.groupby(by)["rank"].mean()


def rank_axes(ax: Axes, features: list[str]) -> None:
    """Axes of an average-rank-per-feature panel (rank 1 = least important)."""
    ax.set_xticks(range(1, len(features) + 1), features)
    ax.set_xlim(0.4, len(features) + 0.6)
    ax.set_ylim(0.5, len(features) + 0.5)
    ax.set_yticks(range(1, len(features) + 1))
    ax.set_xlabel("feature")
    ax.set_ylabel("average rank (1 = least important)")


def theory_ranks(ax: Axes, table: pd.DataFrame, estimand: str, features: list[str]) -> None:
    """The theoretical rank of each feature (of the true importances ``estimand`` of one
    scenario's ``importance`` truth) as a dashed line."""
    from imlbench.metrics.ranks import truth_ranks

    value = truth_ranks(table, estimand).reindex(features)
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

    ranges = (effects[(effects["estimand"] == "ice") & (effects["feature"] == feature)]
              .groupby("row")[["lo", "hi"]].first())
    true = effects[(effects["estimand"] == truth_kind) & (effects["feature"] == feature)]
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


def learner_order(names: Iterable[str]) -> list[str]:
    """The study's learners in the paper's order (:data:`LOOKS`), then the others."""
    return house_learner_order(names, LOOKS)


def learner_title(ax: Axes, learner: str, extra: str = "") -> None:
    """A panel title naming the learner (and its letter) in its colour."""
    house_learner_title(ax, learner, extra, LOOKS)
