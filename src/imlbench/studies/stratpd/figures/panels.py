"""Drawing helpers of the figures of Parr & Wilson (2021), "Partial dependence through
stratification".

Learners keep the house looks (:mod:`imlbench.figures.style`); the study's variants of a
learner (``rf10``, ``rf_weather``, ``gbm_rent``, ...) share the look of their kind. Every
method has one colour in every figure (:data:`METHODS`); the truth is the house blue, dashed.

Curves are defined up to a constant. Where curves meet a truth they are anchored as
StratPD is: each repetition's curve, and the truth, are shifted to 0 at the smallest x that
every repetition covers (the house rules of :mod:`imlbench.figures.curves`). SHAP values are centred
on the data instead (their mean over the explained rows is about 0); to share the anchor
they are shifted by the mean of the anchored truth over the explained rows
(:func:`shap_offset`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from imlbench.curves import anchored, on_common_grid, rep_curves
from imlbench.figures.style import ICE_GREY, LEARNERS, TRUTH, Look
from imlbench.figures.style import learner_order as house_learner_order
from imlbench.figures.style import learner_title as house_learner_title

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd
    from matplotlib.artist import Artist
    from matplotlib.axes import Axes

    from imlbench.figures.inputs import FigureInputs

#: the study's learners, in the paper's order (forest, xgboost, linear model, network), then ours
LOOKS: dict[str, Look] = {
    "rf10": Look("random forest, 10 trees", "r", LEARNERS["rf"].colour),
    "rf": LEARNERS["rf"],
    "rf_weather": LEARNERS["rf"],
    "rf_weather_ale": Look("random forest, all features", "r", LEARNERS["rf"].colour),
    "rf_growth": LEARNERS["rf"],
    "gbm_rent": LEARNERS["gbm"],
    "lm": LEARNERS["lm"],
    "mlp": LEARNERS["mlp"],
    "gbm": LEARNERS["gbm"],
    "svm": LEARNERS["svm"],
    "knn": LEARNERS["knn"],
    "none": Look("no model", "-", "#333333"),
}


@dataclass(frozen=True)
class Method:
    """How one method is named and drawn."""

    label: str
    colour: str


#: the methods by figure role
METHODS: dict[str, Method] = {
    "marginal": Method("marginal plot (mean y per x)", "#444444"),
    "pdp": Method("PD", "black"),
    "ice": Method("ICE", ICE_GREY),
    "shap": Method("SHAP", "#7b3294"),
    "ale": Method("ALE", "#1b7837"),
    "stratpd": Method("StratPD", "#b2182b"),
    "catstratpd": Method("CatStratPD", "#b2182b"),
}


#: the names of the study's SHAP variants (by study method); others are named "SHAP"
SHAP_VARIANTS = {
    "shap_path": "SHAP, tree path-dependent",
    "shap_interventional": "SHAP, interventional (100 background rows)",
    "shap_exact": "SHAP, interventional (exact)",
}

R2_LABELS = {"r2_train": "training", "r2_test": "test", "r2_oob": "out-of-bag"}


def learner_order(names: Iterable[str]) -> list[str]:
    """The study's learners in the order of :data:`LOOKS`, then the others."""
    return house_learner_order(names, LOOKS)


def learner_title(ax: Axes, learner: str, extra: str = "", prefix: str = "") -> None:
    """A panel title naming the learner (and its letter) in its colour, after ``prefix``
    (e.g. the panel's tag)."""
    house_learner_title(ax, learner, extra, LOOKS)
    if prefix:
        ax.set_title(f"{prefix}{ax.get_title()}", color=ax.title.get_color(),
                     fontweight="bold")


def learner_label(learner: str) -> str:
    """The learner's name as printed."""
    return LOOKS[learner].label if learner in LOOKS else learner


def tag(i: int) -> str:
    """The panel label of the ``i``-th panel: (a), (b), ..."""
    return f"({chr(ord('a') + i)})"


def method_order(methods: Iterable[str]) -> list[str]:
    """Study methods with the SHAP variants in the order of :data:`SHAP_VARIANTS`, then the
    others alphabetically."""
    known = list(SHAP_VARIANTS)
    return sorted(set(methods), key=lambda m: (known.index(m) if m in known else len(known), m))


def shap_label(method: str) -> str:
    """The printed name of a SHAP method of the study."""
    return SHAP_VARIANTS.get(method, "SHAP")


# --- curves ------------------------------------------------------------------------------


def mean_curve(est: pd.DataFrame) -> pd.DataFrame:
    """The repetitions' curves of one method and feature on their common x, anchored at 0
    at the smallest (rows ``rep``, columns x)."""
    return anchored(on_common_grid(rep_curves(est)), "first")


def role_estimand(inputs: FigureInputs, role: str) -> str:
    """The truth estimand of the methods filling ``role``, as their registrations declare
    (StratPD's idealised PD is the ALE, eq. 1). SHAP declares none (it attributes single
    rows); as in the paper, its values are compared with the PD."""
    declared = {inputs.estimands.get(m) for m in inputs.methods(role)} - {None}
    if role == "shap" and not declared:
        return "pd"
    if len(declared) != 1:
        raise ValueError(f"role {role}: its methods declare the estimands "
                         f"{sorted(declared) or 'none'}; a truth needs exactly one")
    return declared.pop()


def truth_curve(truth: pd.DataFrame, estimand: str, feature: str) -> pd.Series:
    """The closed-form curve (value by x) of ``feature`` of ``estimand``, from the
    ``effects`` truth table of one scenario."""
    sel = truth[(truth["estimand"] == estimand) & (truth["feature"] == feature)]
    if sel.empty:
        raise ValueError(f"effects truth: no estimand {estimand} of feature "
                         f"{feature}; present: "
                         f"{', '.join(sorted(set(truth['estimand'] + '/' + truth['feature'])))}")
    return sel.groupby("x")["value"].mean()


def shifted(curve: pd.Series, at: float, level: float = 0.0) -> pd.Series:
    """The curve shifted to ``level`` at x = ``at`` (interpolated linearly)."""
    import numpy as np

    return curve - np.interp(at, curve.index.to_numpy(float), curve.to_numpy(float)) + level


def draw_truth(ax: Axes, curve: pd.Series, at: float, level: float = 0.0,
               span: tuple[float, float] | None = None) -> None:
    """The truth, dashed blue, shifted to ``level`` at x = ``at`` (within ``span`` if given)."""
    line = shifted(curve, at, level)
    if span is not None:
        line = line[(line.index >= span[0]) & (line.index <= span[1])]
    ax.plot(line.index, line.to_numpy(), color=TRUTH, linestyle="--", linewidth=1.3, zorder=5)


def truth_level(ax: Axes, value: float) -> None:
    """A true constant (e.g. an effect size) as a dashed blue horizontal line."""
    ax.axhline(value, color=TRUTH, linestyle="--", linewidth=1.3, zorder=5)


def draw_reps(ax: Axes, curves: pd.DataFrame, colour: str, thin: bool = True,
              marker: str | None = None) -> None:
    """Each repetition's curve (thin, when ``thin``) and their mean (thick)."""
    if thin and len(curves) > 1:
        for _, row in curves.iterrows():
            ax.plot(row.index, row.to_numpy(), color=colour, linewidth=0.6, alpha=0.35)
    mean = curves.mean()
    ax.plot(mean.index, mean.to_numpy(), color=colour, linewidth=2.0, marker=marker,
            markersize=3.5, zorder=4)


def draw_curves(ax: Axes, est: pd.DataFrame, colour: str, truth: pd.Series | None = None,
                thin: bool = True, marker: str | None = None) -> pd.DataFrame:
    """The anchored curves of one method and feature (:func:`mean_curve`, drawn by
    :func:`draw_reps`) and the truth anchored alike over their range; returns the curves."""
    curves = mean_curve(est)
    draw_reps(ax, curves, colour, thin, marker)
    if truth is not None:
        lo, hi = curves.columns[0], curves.columns[-1]
        draw_truth(ax, truth, at=lo, span=(lo, hi))
    return curves


def draw_ice(ax: Axes, ice: pd.DataFrame, pdp: pd.DataFrame) -> None:
    """ICE curves of the first repetition (grey) and the PD, the mean over repetitions
    (black); values as predicted (not anchored)."""
    first = ice[ice["rep"] == ice["rep"].min()]
    for _, curve in first.groupby("row"):
        ax.plot(curve["x"], curve["value"], color=ICE_GREY, linewidth=0.5, alpha=0.45)
    mean = rep_curves(pdp).mean()
    ax.plot(mean.index, mean.to_numpy(), color=METHODS["pdp"].colour, linewidth=2.2, zorder=4)


def shap_offset(shap: pd.DataFrame, truth: pd.Series) -> float:
    """The mean over the explained rows of the truth anchored at 0 at its smallest x: added
    to SHAP values, it puts them on the anchored curves' scale (for an additive f exactly)."""
    import numpy as np

    at = truth.index.to_numpy(float)
    values = truth.to_numpy(float) - truth.iloc[0]
    return float(np.interp(shap["x"].to_numpy(float), at, values).mean())


def draw_shap(ax: Axes, shap: pd.DataFrame, offset: float = 0.0, colour: str | None = None,
              ) -> None:
    """The SHAP values of the first repetition's explained rows against x (points)."""
    first = shap[shap["rep"] == shap["rep"].min()]
    ax.scatter(first["x"], first["value"] + offset, s=3, alpha=0.45, linewidths=0,
               color=colour or METHODS["shap"].colour, zorder=3)


# --- numbers -----------------------------------------------------------------------------


def r2_text(fit: pd.DataFrame, learner: str, metrics: tuple[str, ...]) -> str:
    """The mean R^2 of ``learner`` over repetitions, the first of ``metrics`` it has (e.g.
    out-of-bag for forests only), named: ``'out-of-bag R² 0.997'``; '' without any."""
    rows = fit[fit["learner"] == learner]
    for metric in metrics:
        values = rows.loc[rows["metric"] == metric, "value"]
        if len(values):
            return f"{R2_LABELS.get(metric, metric)} R² {values.mean():.3f}"
    return ""


def level_gaps(est: pd.DataFrame, reference: float) -> pd.DataFrame:
    """Per repetition (rows) the value at each level (columns) minus that at ``reference``;
    values are first averaged per repetition and level (SHAP: over the explained rows)."""
    curves = rep_curves(est)
    return curves.sub(curves[reference], axis=0)


def mean_2se(values: pd.DataFrame) -> tuple[pd.Series, pd.Series]:
    """Column means over the rows and twice their standard error (0 with one row)."""
    import numpy as np

    n = values.notna().sum()
    se = (values.std(ddof=1) / np.sqrt(n)).where(n > 1, 0.0)
    return values.mean(), 2 * se


def draw_bars(ax: Axes, positions: np.ndarray, values: pd.DataFrame, colour: str,
              width: float) -> None:
    """Bars of the column means of ``values`` at ``positions``, with 2-SE whiskers."""
    from matplotlib.colors import to_rgba

    mean, whisker = mean_2se(values)
    ax.bar(positions, mean.to_numpy(), width=width, color=to_rgba(colour, 0.45),
           edgecolor=colour, linewidth=1.0, yerr=whisker.to_numpy(),
           error_kw={"elinewidth": 1.0, "capsize": 2.5})
    ax.set_axisbelow(True)


# --- legends -----------------------------------------------------------------------------


def method_handles(roles: Iterable[str], labels: Mapping[str, str] | None = None,
                   ) -> list[Artist]:
    """Legend handles of the methods in ``roles`` (points for SHAP), optionally renamed."""
    from matplotlib.lines import Line2D

    labels = labels or {}
    handles = []
    for role in roles:
        m = METHODS[role]
        if role == "shap":
            handles.append(Line2D([], [], marker="o", linestyle="none", markersize=4,
                                  color=m.colour, label=labels.get(role, m.label)))
        else:
            handles.append(Line2D([], [], color=m.colour, linewidth=0.8 if role == "ice" else 2,
                                  label=labels.get(role, m.label)))
    return handles


def truth_handle(label: str) -> Artist:
    """Legend handle of the dashed truth."""
    from matplotlib.lines import Line2D

    return Line2D([], [], color=TRUTH, linestyle="--", linewidth=1.3, label=label)


def reps_handles(colour: str, n_reps: int, name: str = "") -> list[Artist]:
    """Legend handles of :func:`draw_reps`: the mean (thick) and each curve (thin), after
    ``name`` (e.g. ``'StratPD, '``)."""
    from matplotlib.lines import Line2D

    return [Line2D([], [], color=colour, linewidth=2.0,
                   label=f"{name}mean of {n_reps} repetitions"),
            Line2D([], [], color=colour, linewidth=0.6, alpha=0.5,
                   label=f"{name}each repetition")]
