"""Figures of the book's chapter 10 (partial and individual importance): the illustration of
ICI, PI and PFI (Fig. 10.1), PI and ICI plots (Figs 10.2, 10.3, 10.8, 10.10), d-ICI plots
(Figs 10.4, 10.5, 10.9, 10.11), the stump on the integrated ICI (Figs 10.6, 10.12) and the
conditional PI on the two sides of its split (Figs 10.7, 10.13). One row of panels per
scenario (the text's and the code's variants one under the other).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from imlbench.curves import mean_band, on_common_grid, rep_curves
from imlbench.explain.ici import partial_importance, pfi_of_ici
from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.params import items, number, table, text
from imlbench.studies.book_importance.ch10 import TOY_ICI, TOY_VALUES

LABELS = {"labels": table(value=text(), default={})}
XLIM = {"xlim": items(number(), None, length=2, nullable=True)}


def _rows(inputs: FigureInputs, spec: dict, columns: int, width: float):
    """The figure and one row of ``columns`` axes per scenario."""
    n = len(inputs.scenarios)
    fig, style = st.new_figure(spec, rows=n, width=width)
    axes = fig.subplots(n, columns, squeeze=False)
    return fig, style, axes


def _name(labels: dict[str, str], key: str) -> str:
    return labels.get(key, key)


@figure("book_importance.ici_toy")
def ici_toy(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    """Fig. 10.1: three rows' ICI curves (dashed) over three replacement values, their mean,
    the PI (solid), and the PFI, the mean of the PI (red)."""
    fig, style = st.new_figure(spec, rows=1, width=5.0)
    ax = fig.add_subplot()
    for i, curve in enumerate(TOY_ICI):
        ax.plot(TOY_VALUES, curve, "--o", color=st.BOOK["ici"], linewidth=1.2, markersize=4)
        ax.annotate(f"row {i + 1}", (TOY_VALUES[-1], curve[-1]), xytext=(5, 0),
                    textcoords="offset points", va="center", fontsize=8, color="#555555")
    pi = partial_importance(TOY_ICI)
    ax.plot(TOY_VALUES, pi, "-o", color=st.BOOK["pi"], linewidth=2, label="PI")
    pfi = pfi_of_ici(TOY_ICI)
    ax.axhline(pfi, color=st.BOOK["pfi"], linewidth=1.5, label=f"PFI = {pfi:.3f}")
    for x, v in zip(TOY_VALUES, pi, strict=True):
        ax.annotate(f"{v:.3f}", (x, v), xytext=(0, 7), textcoords="offset points",
                    ha="center", fontsize=8)
    ax.set_xticks(TOY_VALUES)
    ax.set_xlim(0.8, 3.4)
    ax.set_xlabel("replacement value of $x_S$")
    ax.set_ylabel("loss change (ICI, PI)")
    ax.legend(loc="upper left", frameon=False)
    st.save(fig, style, out_png, out_pdf)


def _pi_panel(ax, curves: pd.DataFrame, feature: str) -> None:
    """Every repetition's PI (thin) and their mean (thick)."""
    reps = rep_curves(curves)
    for _, c in reps.iterrows():
        c = c.dropna()
        ax.plot(c.index, c.to_numpy(), color=st.BOOK["pi"], linewidth=0.5, alpha=0.25)
    x, mean, _ = mean_band(on_common_grid(reps))
    ax.plot(x, mean, color=st.BOOK["pi"], linewidth=2.0, label=f"mean PI, {len(reps)} reps")
    ax.axhline(float(reps.mean(axis=1).mean()), color=st.BOOK["pfi"], linewidth=1.0,
               label="PFI (mean over the replacement values)")
    ax.set_xlabel(feature)
    ax.set_ylabel("PI (change in squared error)")


def _ici_panel(ax, curves: pd.DataFrame, feature: str, highlight: bool) -> None:
    """The first repetition's ICI curves and their mean; with ``highlight`` the rows of the
    largest, median and smallest integrated ICI in colour (Fig. 10.3)."""
    first = FigureInputs.first_rep(curves)
    wide = first.pivot_table(index="row", columns="x", values="value")
    x = wide.columns.to_numpy(float)
    for _, c in wide.iterrows():
        ax.plot(x, c.to_numpy(), color=st.BOOK["ici"], linewidth=0.4, alpha=0.35)
    ax.plot(x, wide.mean().to_numpy(), color=st.BOOK["pi"], linewidth=2.0, label="PI")
    if highlight:
        order = wide.mean(axis=1).sort_values()
        picks = {"largest": order.index[-1], "median": order.index[len(order) // 2],
                 "smallest": order.index[0]}
        for what, row in picks.items():
            ax.plot(x, wide.loc[row].to_numpy(), color=st.BOOK[what], linewidth=1.6,
                    label=f"{what} integrated ICI")
    ax.set_xlabel(feature)
    ax.set_ylabel("ICI (first repetition)")


@figure("book_importance.pi_ici", methods=("curves",), params={
    **LABELS, "highlight": table(value=text(), default={}), **XLIM})
def pi_ici(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
           labels: dict[str, str], highlight: dict[str, str], xlim: list[float] | None
           ) -> None:
    """Per scenario: the PI of every repetition and their mean (left), the ICI curves of the
    first repetition (right); scenarios named in ``highlight`` colour the rows with the
    largest, median and smallest integrated ICI (Figs 10.2, 10.3, 10.8, 10.10)."""
    est = inputs.estimates("curves")
    fig, style, axes = _rows(inputs, spec, 2, 9.0)
    for (left, right), scenario in zip(axes, inputs.scenarios, strict=True):
        mine = est[est["scenario"] == scenario]
        (feature,) = mine["feature"].unique()
        _pi_panel(left, mine, _name(labels, feature))
        _ici_panel(right, mine, _name(labels, feature), scenario in highlight)
        left.set_title(f"PI: {_name(labels, scenario)}")
        right.set_title(f"ICI: {_name(labels, scenario)}")
        for ax in (left, right):
            if xlim:
                ax.set_xlim(*xlim)
            ax.legend(loc="upper center", frameon=False, fontsize=7)
    st.save(fig, style, out_png, out_pdf)


@figure("book_importance.dici", methods=("heterogeneity",), params={**LABELS, **XLIM})
def dici(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
         labels: dict[str, str], xlim: list[float] | None) -> None:
    """Per scenario: the d-ICI curves of the first repetition (left) and the mean |d-ICI|
    over the rows of every repetition with the x of each repetition's largest one marked
    (right) (Figs 10.4, 10.5, 10.9, 10.11); ``xlim`` crops both (the book's Boston plot
    starts at lstat 3)."""
    est = inputs.estimates("heterogeneity")
    est = est[est["part"] == "dici"]
    if xlim:
        est = est[(est["x"] >= xlim[0]) & (est["x"] <= xlim[1])]
    fig, style, axes = _rows(inputs, spec, 2, 9.0)
    for (left, right), scenario in zip(axes, inputs.scenarios, strict=True):
        mine = est[est["scenario"] == scenario]
        (feature,) = mine["feature"].unique()
        wide = inputs.first_rep(mine).pivot_table(index="row", columns="x", values="value")
        x = wide.columns.to_numpy(float)
        for _, c in wide.iterrows():
            left.plot(x, c.to_numpy(), color=st.BOOK["ici"], linewidth=0.4, alpha=0.4)
        left.axhline(0, color="black", linewidth=0.6)
        left.set_ylabel("d-ICI (first repetition)")
        size = mine.assign(value=mine["value"].abs())
        for _, g in size.groupby("rep"):
            m = g.groupby("x")["value"].mean()
            right.plot(m.index, m.to_numpy(), color=st.BOOK["pi"], linewidth=0.6, alpha=0.35)
            right.plot(m.idxmax(), m.max(), "v", color=st.BOOK["pfi"], markersize=4)
        right.set_ylabel("mean |d-ICI| per repetition (peak marked)")
        for ax, what in ((left, "d-ICI"), (right, "mean |d-ICI|")):
            ax.set_xlabel(_name(labels, feature))
            ax.set_title(f"{what}: {_name(labels, scenario)}")
    st.save(fig, style, out_png, out_pdf)


def _stump_text(splits: pd.DataFrame) -> str:
    """How often each feature was the stump's split, and its mean threshold."""
    per = splits.groupby("rep")[["split_feature", "threshold"]].first()
    out = []
    for f, g in per.groupby("split_feature"):
        out.append(f"{f}: {len(g)} of {len(per)} reps, mean threshold {g['threshold'].mean():.3g}")
    return "\n".join(out)


def modal_split(rows: pd.DataFrame) -> tuple[str, list]:
    """The feature the stump chose most often over the repetitions of ``rows`` and the
    repetitions (in order) that chose it."""
    chosen = rows.groupby("rep")["split_feature"].first()
    modal = chosen.mode().iloc[0]
    return modal, list(chosen[chosen == modal].index)


@figure("book_importance.stump", methods=("heterogeneity",), params=LABELS)
def stump(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
          labels: dict[str, str]) -> None:
    """Per scenario: the stump of the first repetition that split on the most frequent
    feature, its split as the title and a box of the integrated ICI of the rows on each side,
    and how often each feature was chosen over the repetitions (Figs 10.6, 10.12)."""
    est = inputs.estimates("heterogeneity")
    est = est[est["part"] == "split"]
    n = len(inputs.scenarios)
    fig, style = st.new_figure(spec, rows=n, width=5.5)
    axes = st.panel_grid(fig, n, 1)
    for ax, scenario in zip(axes, inputs.scenarios, strict=True):
        mine = est[est["scenario"] == scenario]
        _, reps = modal_split(mine)
        first = mine[mine["rep"] == reps[0]]
        feat, thr = first["split_feature"].iloc[0], float(first["threshold"].iloc[0])
        groups = [first.loc[first["side"] == s, "value"].to_numpy() for s in ("left", "right")]
        box = ax.boxplot(groups, patch_artist=True, widths=0.5)
        for patch, colour in zip(box["boxes"], (st.BOOK["left"], st.BOOK["right"]), strict=True):
            patch.set_facecolor(colour)
            patch.set_alpha(0.5)
        ax.set_xticks([1, 2], [f"{feat} <= {thr:.3g}\n(n = {len(groups[0])})",
                               f"{feat} > {thr:.3g}\n(n = {len(groups[1])})"])
        (feature,) = mine["feature"].unique()
        ax.set_ylabel(f"integrated ICI of {_name(labels, feature)}")
        ax.set_title(f"{_name(labels, scenario)}: repetition {int(first['rep'].iloc[0])}, split on "
                     f"{feat} at {thr:.3g}")
        ax.text(0.02, 0.97, _stump_text(mine), transform=ax.transAxes, va="top", fontsize=7.5,
                bbox={"facecolor": "white", "edgecolor": "#cccccc"})
    st.save(fig, style, out_png, out_pdf)


@figure("book_importance.conditional_pi", methods=("heterogeneity",), params=LABELS)
def conditional_pi(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                   labels: dict[str, str]) -> None:
    """Per scenario: the PI of all rows (black) and of the rows on each side of the stump's
    split (colours), each the mean over the repetitions whose stump chose the most frequent
    feature, interpolated onto the range they all cover (Figs 10.7, 10.13)."""
    est = inputs.estimates("heterogeneity")
    est = est[est["part"] == "pi"]
    n = len(inputs.scenarios)
    fig, style = st.new_figure(spec, rows=n, width=6.0)
    axes = st.panel_grid(fig, n, 1)
    for ax, scenario in zip(axes, inputs.scenarios, strict=True):
        mine = est[est["scenario"] == scenario]
        modal, reps = modal_split(mine)
        keep = mine[mine["rep"].isin(reps)]
        thr = keep.groupby("rep")["threshold"].first().mean()
        (feature,) = mine["feature"].unique()
        names = {"all": "all rows", "left": f"{modal} <= {thr:.3g}",
                 "right": f"{modal} > {thr:.3g}"}
        colours = {"all": st.BOOK["pi"], "left": st.BOOK["left"], "right": st.BOOK["right"]}
        for side in ("all", "left", "right"):
            x, mean, _ = mean_band(on_common_grid(rep_curves(keep[keep["side"] == side])))
            ax.plot(x, mean, color=colours[side], linewidth=2.2 if side == "all" else 1.6,
                    label=names[side])
        ax.set_xlabel(_name(labels, feature))
        ax.set_ylabel("PI")
        ax.set_title(f"{_name(labels, scenario)} ({len(reps)} of "
                     f"{mine['rep'].nunique()} reps split on {modal})")
        ax.legend(loc="upper center", frameon=False, fontsize=7.5)
    st.save(fig, style, out_png, out_pdf)
