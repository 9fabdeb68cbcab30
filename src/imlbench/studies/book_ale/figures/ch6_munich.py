"""Book ch. 6, Figs. 6.20-6.22: the Munich rent example on its substitute (Ames houses); the
correlation matrix of Fig. 6.19 is the layer's ``correlation_matrix``.

PDP, ALE and ICE of living area for a forest of area and rooms. The PDP and ICE are on an
equidistant grid, the ALE at quantile edges; to compare them every curve is centred to mean 0
over the houses (its value interpolated at each house's area, averaged), and ICE curves are
shifted by their repetition's PDP constant so that the PDP stays their mean. The rooms are the
forest's only other feature, so houses with the same rooms share one ICE curve: one curve per
room count is drawn, coloured by it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from imlbench.curves import on_common_grid, rep_curves
from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.params import flag, items, number, text

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

PDP = st.METHODS["pdp"].colour
ALE = st.METHODS["ale"].colour


def _centred(curves: pd.DataFrame, at: np.ndarray) -> pd.DataFrame:
    """Each curve (rows; x in columns) less its mean over the points ``at`` (interpolated)."""
    x = curves.columns.to_numpy(float)
    offsets = [np.interp(at, x, row.to_numpy(float)).mean() for _, row in curves.iterrows()]
    return curves.sub(offsets, axis=0)


def _draw_reps(ax: Axes, curves: pd.DataFrame, colour: str, marker: str | None) -> None:
    """Each repetition thin, their mean thick."""
    x = curves.columns.to_numpy(float)
    if len(curves) > 1:
        for _, row in curves.iterrows():
            ax.plot(x, row.to_numpy(float), color=colour, linewidth=0.6, alpha=0.35)
    ax.plot(x, curves.mean(axis=0).to_numpy(float), color=colour, linewidth=2.2,
            marker=marker, markersize=3.5, zorder=4)


@figure("book_ale.area_effects", methods=("pdp", "ale", "ice"), tables=("data",), params={
    "feature": text("Gr_Liv_Area"),
    "group": text("TotRms_AbvGrd"),
    "group_levels": items(text(), default=None, nullable=True),
    "ice": flag(False),
    "x_range": items(number(), default=None, length=2, nullable=True),
    "unit": text("sq ft"),
    "m2": number(None, above=0, nullable=True),
    "target": text("sale price ($)"),
})
def area_effects(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
                 feature: str, group: str, group_levels: list[str] | None, ice: bool,
                 x_range: list[float] | None, unit: str, m2: float | None, target: str
                 ) -> None:
    """PDP and ALE of ``feature`` (each repetition thin, the mean thick), centred on the
    houses, with a rug and the ALE's interval edges; with ``ice``, the first repetition's ICE
    curves, one per level of ``group`` (its codes named by ``group_levels``); ``x_range``
    zooms in. ``m2``: square metres per ``unit``, to print the last interval in m² as well."""
    import matplotlib as mpl
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    rows = inputs.first_data(inputs.scenarios[0]).reset_index(drop=True)
    at = rows[feature].to_numpy(float)
    pdp = inputs.estimates("pdp")
    pdp = _centred(on_common_grid(rep_curves(pdp[pdp["feature"] == feature])), at)
    ale_est = inputs.estimates("ale")
    ale_est = ale_est[ale_est["feature"] == feature]
    ale = _centred(on_common_grid(rep_curves(ale_est)), at)
    first = inputs.first_rep(ale_est)
    edges = np.sort(first["x"].to_numpy(float))
    last = edges[-2]
    in_last = int((at >= last).sum())
    last_text = f"last ALE interval from {last:,.0f} {unit}"
    if m2:
        last_text += f" ({last * m2:,.0f} m²)"

    fig, style = st.new_figure(spec, rows=1, width=9.0, panel_height=4.4)
    ax = fig.subplots()
    ax.axvspan(last, edges[-1], color="0.94", zorder=0)
    for z in edges:
        ax.axvline(z, color="0.6", linestyle=":", linewidth=0.8, zorder=1)
    ax.vlines(at, 0, 0.03, transform=ax.get_xaxis_transform(), color="black", alpha=0.15,
              linewidth=0.5)
    ice_curves, ice_handles = (_draw_ice(ax, inputs, rows, feature, group, group_levels, pdp)
                               if ice else ([], []))
    _draw_reps(ax, pdp, PDP, None)
    _draw_reps(ax, ale, ALE, "o")
    n_reps = len(pdp)
    of = f"mean of {n_reps} forests" if n_reps > 1 else "one forest"
    handles = [
        Line2D([], [], color=PDP, linewidth=2.2,
               label=f"PDP ({pdp.shape[1]} equidistant points), {of}"),
        Line2D([], [], color=ALE, linewidth=2.2, marker="o", markersize=3.5,
               label=f"ALE ({len(edges) - 1} quantile intervals), {of}"),
        *([Line2D([], [], color="0.5", linewidth=0.6, label="each forest (thin)")]
          if n_reps > 1 else []),
        Line2D([], [], color="0.6", linestyle=":", label="ALE interval edges"),
        Patch(color="0.94", label=f"{last_text}: {in_last:,} houses"),
        *ice_handles,
    ]
    if x_range:
        ax.set_xlim(*x_range)
        _fit_y(ax, [pdp, ale, *ice_curves], x_range)
    ax.set_xlabel(f"{feature} ({unit}); rug: the houses")
    ax.set_ylabel(f"effect on {target}, centred to mean 0 over the houses")
    ax.set_title(f"{last_text} to {edges[-1]:,.0f}; {len(at):,} houses")
    ax.yaxis.set_major_formatter(mpl.ticker.StrMethodFormatter("{x:,.0f}"))
    st.legend_below(fig, handles, ncols=2)
    st.save(fig, style, out_png, out_pdf)


def _draw_ice(ax: Axes, inputs: FigureInputs, rows: pd.DataFrame, feature: str, group: str,
              levels: list[str] | None, pdp: pd.DataFrame) -> tuple[list[pd.DataFrame], list]:
    """The first repetition's ICE curves, one per level of ``group`` (they coincide within a
    level), shifted by that repetition's PDP centring constant; returns them and their legend
    entries."""
    import matplotlib as mpl
    from matplotlib.lines import Line2D

    est = inputs.estimates("ice")
    est = inputs.first_rep(est[est["feature"] == feature])
    curves = est.pivot_table(index="row", columns="x", values="value")
    codes = rows[group].to_numpy()[curves.index.to_numpy()]
    by_level = curves.groupby(codes).mean()
    spread = float((curves.groupby(codes).max() - curves.groupby(codes).min()).to_numpy().max())
    if spread > 1e-6 * float(np.abs(curves.to_numpy()).max()):
        raise ValueError(f"ICE curves differ within a level of {group} (by {spread:g}): the "
                         "model sees other features, so one curve per level would hide them")
    raw_pdp = est.groupby("x")["value"].mean()
    shift = raw_pdp.to_numpy(float) - pdp.iloc[0].reindex(raw_pdp.index).to_numpy(float)
    by_level = by_level.sub(shift, axis=1)
    names = [(levels[int(c)] if levels and int(c) < len(levels) else f"{c:g}")
             + f" ({int((codes == c).sum())})" for c in by_level.index]
    colours = [mpl.colormaps[st.BOOK["groups_map"]](0.9 * i / max(1, len(by_level) - 1))
               for i in range(len(by_level))]
    x = by_level.columns.to_numpy(float)
    for colour, (_, curve) in zip(colours, by_level.iterrows(), strict=True):
        ax.plot(x, curve.to_numpy(float), color=colour, linewidth=1.0, alpha=0.9, zorder=2)
    scale = mpl.cm.ScalarMappable(
        norm=mpl.colors.BoundaryNorm(np.arange(len(names) + 1) - 0.5, len(names)),
        cmap=mpl.colors.ListedColormap(colours))
    bar = ax.figure.colorbar(scale, ax=ax, shrink=0.9, pad=0.01,
                             label=f"{group} of the ICE curve (houses)")
    bar.set_ticks(np.arange(len(names)), labels=names)
    bar.ax.tick_params(length=0)
    handles = [Line2D([], [], color=colours[len(colours) // 2],
                      label=f"ICE, one curve per {group} (first forest; all houses with the "
                            "same value share it)")]
    return [by_level], handles


def _fit_y(ax: Axes, frames: list[pd.DataFrame], x_range: list[float]) -> None:
    """The y limits of the curves' values inside ``x_range`` (with a margin)."""
    values = []
    for frame in frames:
        x = frame.columns.to_numpy(float)
        keep = (x >= x_range[0]) & (x <= x_range[1])
        values.append(frame.loc[:, keep].to_numpy(float).ravel())
    v = np.concatenate(values)
    pad = 0.08 * (v.max() - v.min() or 1.0)
    ax.set_ylim(v.min() - pad, v.max() + pad)
