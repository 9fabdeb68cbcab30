"""Figures of the book's chapter 13 (LIME and the kernel width): kernel density bandwidths
(Fig. 13.1), the 1-D sine data, fit and piecewise description (Figs 13.2-13.4), LIME lines over
widths (Figs 13.5-13.6), coefficient paths over widths with 95% bands (Figs 13.7-13.11), pseudo
stability paths (Figs 13.12-13.13) and Gower against the Euclidean kernel (Fig. 13.14)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.metrics.lime_summaries import coefficient_bands, inclusion_frequency
from imlbench.params import choice, flag, items, number, table, text
from imlbench.studies.book_lime.ch13 import SINE_PIECES, sine_reference

#: the book's colours (:data:`imlbench.figures.style.BOOK`): the data, the true surface, the
#: explained point, one colour per kernel width and per feature
DATA, TRUTH, POINT = st.BOOK["data"], st.BOOK["reference"], st.BOOK["point"]
WIDTH_COLOURS = st.BOOK_PALETTES["widths"]
FEATURE_COLOURS = st.BOOK_PALETTES["features"]


def _rows(inputs: FigureInputs, role: str, spec: dict, learner: str = "") -> pd.DataFrame:
    rows = inputs.estimates(role)
    if learner:
        rows = rows[rows["learner"] == learner]
    if rows.empty:
        raise ValueError(f"figure {spec['title']!r}: no rows of the {role!r} method"
                         + (f" for learner {learner!r}" if learner else ""))
    return rows


@figure("book_lime.kde", methods=("kde",))
def n_kde(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    """The two density estimates of the first repetition side by side, the standard normal
    density dashed."""
    rows = inputs.first_rep(_rows(inputs, "kde", spec))
    fig, style = st.new_figure(spec, rows=1, width=9, panel_height=3.4)
    axes = st.panel_grid(fig, 2, 2)
    for ax, (rule, title) in zip(axes, (("silverman", "appropriate bandwidth"),
                                        ("fixed", "bandwidth too small")), strict=True):
        r = rows[rows["rule"] == rule]
        ax.plot(r["x"], r["value"], color="#1f77b4", linewidth=1)
        ax.plot(r["x"], np.exp(-r["x"] ** 2 / 2) / np.sqrt(2 * np.pi), color=TRUTH,
                linestyle="--", linewidth=1, label="N(0, 1) density")
        ax.set_title(f"{title} ({r['bandwidth'].iloc[0]:.3g})")
        ax.set_xlabel("x")
        ax.legend(loc="upper left", fontsize=7)
    axes[0].set_ylabel("density")
    st.save(fig, style, out_png, out_pdf)


def _reference_segments(lo: float, hi: float) -> list[tuple[np.ndarray, np.ndarray]]:
    starts = [max(p[0], lo) for p in SINE_PIECES]
    ends = [*(p[0] for p in SINE_PIECES[1:]), np.inf]
    out = []
    for a, b in zip(starts, ends, strict=True):
        b = min(b, hi)
        if a < b:
            xs = np.array([a, b])
            slope, intercept = sine_reference(np.array([(a + b) / 2] * 2))
            out.append((xs, slope * xs + intercept))
    return out


@figure("book_lime.sine_fit", methods=("curve",),
        params={"show": choice("data", ("data", "fit", "reference"))})
def n_sine_fit(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
               show: str) -> None:
    """The first repetition's training rows (x1, y) with the true surface (``data``), the black
    box along x1 as well (``fit``), or the piecewise linear description (``reference``)."""
    rows = inputs.first_rep(_rows(inputs, "curve", spec))
    data, grid = rows[rows["part"] == "data"], rows[rows["part"] == "grid"]
    fig, style = st.new_figure(spec, rows=1, width=7, panel_height=3.6)
    ax = fig.add_subplot()
    ax.scatter(data["x"], data["value"], s=6, color=DATA, alpha=0.6, linewidths=0,
               label="training rows")
    ax.plot(grid["x"], grid["truth"], color=TRUTH, linewidth=1.5, label="true surface f")
    if show == "fit":
        ax.plot(grid["x"], grid["value"], color="#d62728", linewidth=1.2,
                label="forest prediction (x2 = 4)")
    if show == "reference":
        for k, (xs, ys) in enumerate(_reference_segments(grid["x"].min(), grid["x"].max())):
            ax.plot(xs, ys, color="#1f77b4", linewidth=2, label="piecewise description"
                    if k == 0 else None)
    ax.set_xlabel("x1")
    ax.set_ylabel("y")
    ax.legend(loc="upper left", fontsize=7)
    st.save(fig, style, out_png, out_pdf)


@figure("book_lime.lime_lines", methods=("lime", "curve"),
        params={"points": items(text(), unique=True), "widths": items(number(above=0), unique=True),
                "reference": flag(False)})
def n_lime_lines(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                 points: list[str], widths: list[float], reference: bool) -> None:
    """One panel per point: the first repetition's training rows and true surface, the
    explained point and, per width, the LIME line intercept + slope x1 (both averaged over
    repeats and repetitions); ``reference`` adds the piecewise description's line at the
    point."""
    lime = _rows(inputs, "lime", spec)
    curve = inputs.first_rep(_rows(inputs, "curve", spec))
    data, grid = curve[curve["part"] == "data"], curve[curve["part"] == "grid"]
    x1 = lime[lime["feature"] == "x1"]
    fig, style = st.new_figure(spec, rows=1, width=5 * len(points), panel_height=3.8)
    axes = st.panel_grid(fig, len(points), len(points), sharey=True)
    xs = np.linspace(grid["x"].min(), grid["x"].max(), 50)
    for ax, point in zip(axes, points, strict=True):
        ax.scatter(data["x"], data["value"], s=5, color=DATA, alpha=0.5, linewidths=0)
        ax.plot(grid["x"], grid["truth"], color=TRUTH, linewidth=1.2, label="true surface")
        r = x1[x1["point"] == point]
        px = float(r["x"].iloc[0])
        for k, w in enumerate(widths):
            rw = r[np.isclose(r["kernel_width"], w)]
            if rw.empty:  # a width the profile's sweep does not hold
                continue
            a, b = rw["intercept"].mean(), rw["value"].mean()
            ax.plot(xs, a + b * xs, color=WIDTH_COLOURS[k % len(WIDTH_COLOURS)], linewidth=1.5,
                    label=f"width {w:g}: {a:.3g} + {b:.3g} x1")
        if reference:
            s, c = sine_reference(px)
            ax.plot(xs, s * xs + c, color="#1f77b4", linestyle=":", linewidth=1.5,
                    label=f"piecewise reference {float(c):.4g} {float(s):+.3g} x1")
        f_at = np.interp(px, grid["x"], grid["truth"])
        ax.scatter([px], [f_at], s=80, color=POINT, edgecolors="black", zorder=5,
                   label=f"explained x1 = {px:g}")
        ax.set_ylim(grid["truth"].min() - 4, grid["truth"].max() + 4)
        ax.set_title(f"point {point}")
        ax.set_xlabel("x1")
        ax.legend(loc="upper left", fontsize=6)
    axes[0].set_ylabel("y")
    st.save(fig, style, out_png, out_pdf)


@figure("book_lime.coef_paths", methods=("lime",), params={
    "learner": text(""), "features": items(text(), None, nullable=True),
    "truths": table(value=number(), default=None, nullable=True),
    "point_truths": table(value=number(), default=None, nullable=True),
    "band": choice("none", ("none", "normal")), "ncols": choice(2, (1, 2, 3, 4))})
def n_coef_paths(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                 learner: str, features: list[str] | None, truths: dict | None,
                 point_truths: dict | None, band: str, ncols: int) -> None:
    """One panel per explained point (the first repetition's points): each feature's
    coefficient against the kernel width (log scale), the mean over repeats; with ``band:
    normal`` the mean -+ 1.96 sd over the repeats (the book's 95% band). True coefficients:
    ``truths`` per feature (dashed), ``point_truths`` per point label prefix for the first
    feature."""
    rows = inputs.first_rep(_rows(inputs, "lime", spec, learner))
    features = features or list(dict.fromkeys(rows["feature"]))
    bands = coefficient_bands(rows[rows["feature"].isin(features)], ["point", "kernel_width"],
                              "normal")
    pts = list(dict.fromkeys(rows["point"]))
    fig, style = st.new_figure(spec, rows=st.panel_rows(len(pts), ncols), width=4.2 * ncols,
                               panel_height=3.0)
    axes = st.panel_grid(fig, len(pts), ncols, sharex=True)
    for ax, point in zip(axes, pts, strict=True):
        x_at = rows[rows["point"] == point].groupby("feature")["x"].first()
        for k, f in enumerate(features):
            colour = FEATURE_COLOURS[k % len(FEATURE_COLOURS)]
            b = bands[(bands["point"] == point) & (bands["feature"] == f)]
            ax.plot(b["kernel_width"], b["mean"], color=colour, marker="o", markersize=2.5,
                    linewidth=1.2, label=f)
            if band == "normal":
                ax.fill_between(b["kernel_width"], b["lo"], b["hi"], color=colour, alpha=0.18,
                                linewidth=0)
            if truths and f in truths:
                ax.axhline(truths[f], color=colour, linestyle="--", linewidth=0.9)
        for prefix, v in (point_truths or {}).items():
            if point == prefix or point.startswith(f"{prefix}_"):
                ax.axhline(v, color=TRUTH, linewidth=1.2, label=f"true slope of {features[0]}")
        ax.set_xscale("log")
        where = ", ".join(f"{f} = {x_at[f]:.2f}" for f in x_at.index[:3])
        ax.set_title(f"{point} ({where})", fontsize=8)
        ax.set_xlabel("kernel width")
    axes[0].set_ylabel("LIME coefficient")
    axes[0].legend(loc="best", fontsize=7)
    st.save(fig, style, out_png, out_pdf)


@figure("book_lime.ideal_paths", params={"features": items(text())})
def n_ideal_paths(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                  features: list[str]) -> None:
    """A schematic, no data: inclusion probabilities of the ``features`` against the kernel
    width in three zones: crossing paths at small widths, a stable local set, then the global
    set. The first three features are the local ones, features 1, 4 and 5 the global ones."""
    w = np.geomspace(0.05, 20, 200)
    lw = np.log(w)

    def up(at: float) -> np.ndarray:
        return 1 / (1 + np.exp(-4 * (lw - np.log(at))))

    wiggle = 0.18 * np.sin(6 * lw)
    paths = {
        features[0]: 0.45 + 0.55 * up(0.15) + wiggle * (1 - up(0.15)),
        features[1]: (0.4 + 0.6 * up(0.15) - wiggle * (1 - up(0.15))) * (1 - up(3.0)),
        features[2]: (0.35 + 0.65 * up(0.15) + 0.5 * wiggle * (1 - up(0.15))) * (1 - up(3.0)),
        features[3]: 0.3 * (1 - up(0.15)) + up(3.0),
        features[4]: 0.4 * (1 - up(0.15)) - 0.5 * wiggle * (1 - up(0.15)) + up(3.0),
    }
    fig, style = st.new_figure(spec, rows=1, width=7.5, panel_height=3.6)
    ax = fig.add_subplot()
    for k, (name, p) in enumerate(paths.items()):
        ax.plot(w, np.clip(p, 0, 1), color=FEATURE_COLOURS[k], linewidth=1.6, label=name)
    for x, label in ((0.12, "high variability"), (0.9, "local stability"),
                     (8.0, "global surrogate")):
        ax.text(x, 1.06, label, ha="center", fontsize=8)
    for x in (0.3, 2.5):
        ax.axvline(x, color="0.5", linestyle=":", linewidth=1)
    ax.set_xscale("log")
    ax.set_ylim(-0.03, 1.12)
    ax.set_xlabel("kernel width")
    ax.set_ylabel("inclusion probability")
    ax.legend(loc="center right", fontsize=7)
    st.save(fig, style, out_png, out_pdf)


@figure("book_lime.inclusion_paths", methods=("lime",),
        params={"n_points": choice(6, (1, 2, 3, 4, 5, 6, 8, 10)),
                "max_width": number(None, nullable=True)})
def n_inclusion_paths(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                      n_points: int, max_width: float | None) -> None:
    """The first repetition's pseudo stability paths: per explained point (the first
    ``n_points``) the inclusion frequency of every feature over the repeats against the kernel
    width (log scale; widths up to ``max_width``)."""
    rows = inputs.first_rep(_rows(inputs, "lime", spec))
    if max_width is not None:
        rows = rows[rows["kernel_width"] <= max_width]
    freq = inclusion_frequency(rows, ["point", "kernel_width"])
    pts = list(dict.fromkeys(rows["point"]))[:n_points]
    feats = list(dict.fromkeys(rows["feature"]))
    fig, style = st.new_figure(spec, rows=st.panel_rows(len(pts), 3), width=12,
                               panel_height=2.8)
    axes = st.panel_grid(fig, len(pts), 3, sharex=True, sharey=True)
    for ax, point in zip(axes, pts, strict=True):
        for k, f in enumerate(feats):
            r = freq[(freq["point"] == point) & (freq["feature"] == f)]
            ax.plot(r["kernel_width"], r["share"], color=FEATURE_COLOURS[k % 8], marker="o",
                    markersize=2.5, linewidth=1.2, label=f)
        ax.set_xscale("log")
        ax.set_title(f"test row {point}", fontsize=8)
        ax.set_xlabel("kernel width")
        ax.set_ylim(-0.03, 1.03)
    axes[0].set_ylabel("inclusion frequency")
    axes[0].legend(loc="lower left", fontsize=6, ncols=2)
    st.save(fig, style, out_png, out_pdf)


@figure("book_lime.gower", methods=("lime", "gower"),
        params={"point": text(), "feature": text(), "truth": number()})
def n_gower(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
            point: str, feature: str, truth: float) -> None:
    """The Euclidean-kernel coefficient of ``feature`` at ``point`` (label prefix) against the
    width (mean over repeats and repetitions, 95% normal band over repeats of the first
    repetition), the true slope and the Gower estimate (mean and band, no width)."""
    def of(rows: pd.DataFrame) -> pd.DataFrame:
        p = rows["point"].astype(str)
        return rows[((p == point) | p.str.startswith(f"{point}_")) & (rows["feature"] == feature)]

    euc, gow = of(_rows(inputs, "lime", spec)), of(_rows(inputs, "gower", spec))
    be = coefficient_bands(euc, ["kernel_width"], "normal")
    bg = coefficient_bands(gow, [], "normal").iloc[0]
    fig, style = st.new_figure(spec, rows=1, width=7, panel_height=3.6)
    ax = fig.add_subplot()
    ax.plot(be["kernel_width"], be["mean"], color="#444444", marker="o", markersize=3,
            label="Euclidean kernel")
    ax.fill_between(be["kernel_width"], be["lo"], be["hi"], color="#444444", alpha=0.15,
                    linewidth=0)
    ax.axhline(truth, color="#1f77b4", linewidth=1.5, label=f"true slope {truth:g}")
    ax.axhline(bg["mean"], color="#2ca02c", linewidth=1.5,
               label=f"Gower (no kernel): {bg['mean']:.3g}")
    ax.axhspan(bg["lo"], bg["hi"], color="#2ca02c", alpha=0.15)
    ax.set_xscale("log")
    ax.set_xlabel("kernel width (Euclidean)")
    ax.set_ylabel(f"LIME coefficient of {feature}")
    ax.legend(loc="best", fontsize=7)
    st.save(fig, style, out_png, out_pdf)
