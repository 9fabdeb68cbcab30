"""The book's ch. 13 ("LIME and neighbourhood", Kopper): how the kernel width of LIME's
proximity decides between a local and a global explanation.

Study methods:

``book_lime.kde``
    (Sect. 13.2, Fig. 13.1) two Gaussian kernel density estimates of one feature of the data:
    Silverman's rule-of-thumb bandwidth (R's ``bw.nrd0``) and a fixed ``bandwidth``, each on a grid
    over the data's range (column ``bandwidth``: the rule or the number)
``book_lime.fit_curve``
    (Sect. 13.3.1, Figs 13.2-13.3) the training rows of one feature with y (``part: data``) and the
    black box and the truth f along a grid of the feature with the other features fixed by ``at``
    (else at their mean; ``part: grid``)

:func:`sine_reference` is the book code's piecewise linear description of the 1-D sine
surface (Fig. 13.4), the local truth against which Fig. 13.5's explanations are read.

Statistics per repetition for ``contrast`` claims (:mod:`imlbench.metrics.contrasts`), on the
layer's ``lime`` rows (``point``, ``repeat``, ``feature``, ``value``, ``kernel_width`` of a
width sweep, ``intercept`` and ``selected`` of ``surrogate_fit``). Every statistic is taken per
repetition (data set and fit, column ``rep``), averaged over the repeats of LIME within it, so
that the spread between fits enters every tolerance. A point label also names the points of a
labelled draw (``left`` names ``left_0``, ``left_1``). The other cell of a two-cell test moves
these keys, e.g. ``than: {point: pos}`` or ``than: {kernel_width: 2.0}``.

``book_lime.coefficient``  the mean coefficient of ``feature`` (or the surrogate's
                           ``intercept``) of ``point`` at ``kernel_width`` (null: every
                           width), less the reference at the point with ``minus_reference``
                           (``sine_slope``, ``sine_intercept``: :func:`sine_reference` at the
                           point's x); a number the book printed from one fit is the kit's
                           ``prediction`` test
``book_lime.log_sd``       the log of the sd over repeats of the coefficient of ``feature``
                           (per point and width, then averaged over ``points``, default all,
                           and the widths in ``widths``; :func:`coefficient_bands`): small
                           widths against a window is a ``paired`` test of the log sds, the
                           log of their ratio
``book_lime.inclusion``    the share of explanations at ``kernel_width`` (over ``points``,
                           default all, and repeats) whose selection kept ``features``: every
                           one of them (``mode: all``) or at least one (``any``)
``book_lime.mixing``       how undecided the selection is at ``kernel_width``: per point the
                           mean over features of 4 pi (1 - pi), pi the inclusion frequency
                           (:func:`inclusion_frequency`: 0 when every feature is always or
                           never kept, 1 when each is kept half the time), averaged over points

Claim kind ``book_lime.lime_window``: at every width of the sweep in ``between`` and every point of
``points``, the mean coefficient of ``feature`` equals the point's ``truths`` entry (the kit's
interval of the mean, :func:`imlbench.metrics.contrasts.compared`, per width and point, joined
by :meth:`imlbench.metrics.claims.Check.joint`): the widths that recover the truth. A joint
test over the cells of a sweep is not the ``contrast`` shape, which tests one cell (against
one other).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import gaussian_kde

from imlbench.explain.api import ExplainContext, method
from imlbench.metrics.claims import Check, NoData, Tables, claim_kind, claim_row, per_combo
from imlbench.metrics.contrasts import Cell, K, Sample, compared, few, statistic
from imlbench.metrics.lime_summaries import coefficient_bands, inclusion_frequency
from imlbench.params import (
    choice,
    feature_name,
    integer,
    items,
    number,
    table,
    text,
)

#: the book code's pieces of the sine surface (Fig. 13.4): (lower end, slope, intercept); each
#: piece holds from its lower end to the next one's, the first from -inf, the last to +inf
SINE_PIECES = ((-np.inf, 0.3, 3.0), (6.2, -2.3, 19.12), (8.496, 0.0, -0.4), (9.1, 4.25, -39.13),
               (11.1, 0.0, 8.045), (11.8, -4.5, 61.15), (13.4, 2.75, -36.0))


def sine_reference(x: np.ndarray | float) -> tuple[np.ndarray, np.ndarray]:
    """The slope and intercept of the piecewise linear description of the 1-D sine surface
    4 (sin(0.06 x^2) + 0.1 x) at ``x`` (book ch. 13, Sect. 13.3.1, Fig. 13.4; the pieces of the
    book's code, :data:`SINE_PIECES`): the local truth a good LIME explanation recovers."""
    x = np.asarray(x, dtype=float)
    starts = np.array([p[0] for p in SINE_PIECES])
    k = np.searchsorted(starts, x, side="right") - 1
    slopes = np.array([p[1] for p in SINE_PIECES])
    intercepts = np.array([p[2] for p in SINE_PIECES])
    return slopes[k], intercepts[k]


@method("book_lime.kde", params={"feature": feature_name(), "bandwidth": number(above=0),
                         "grid_size": integer(400, minimum=2)})
def _n_kde(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Gaussian kernel density estimates of ``feature`` with Silverman's rule-of-thumb
    bandwidth 0.9 min(sd, IQR / 1.34) n^(-1/5) (R's ``bw.nrd0``, the default of ``density``)
    and with ``bandwidth``, on a grid over the data's range widened by 3 rule bandwidths:
    columns bandwidth (the bandwidth used), rule (``silverman`` or ``fixed``), x, value."""
    v = ctx.X[:, ctx.index(params["feature"])]
    iqr = np.subtract(*np.quantile(v, [0.75, 0.25]))
    rule = 0.9 * min(v.std(ddof=1), iqr / 1.34) * len(v) ** -0.2
    grid = np.linspace(v.min() - 3 * rule, v.max() + 3 * rule, params["grid_size"])
    out = []
    for name, bw in (("silverman", rule), ("fixed", params["bandwidth"])):
        kde = gaussian_kde(v, bw_method=bw / v.std(ddof=1))
        out.append(pd.DataFrame({"rule": name, "bandwidth": bw, "x": grid,
                                 "value": kde(grid)}))
    return pd.concat(out, ignore_index=True)


@method("book_lime.fit_curve", params={"feature": feature_name(), "at": table(value=number(),
                                                                         default=None,
                                                                         nullable=True),
                               "grid_size": integer(200, minimum=2)})
def _n_fit_curve(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """The training rows of ``feature`` with y (``part: data``) and, along a grid over its
    range with the other features at ``at`` (else their mean), the black box and the true f
    (``part: grid``, columns value and truth)."""
    j = ctx.index(params["feature"])
    grid = np.linspace(ctx.X[:, j].min(), ctx.X[:, j].max(), params["grid_size"])
    G = np.tile(ctx.X.mean(axis=0), (len(grid), 1))
    for name, v in (params["at"] or {}).items():
        G[:, ctx.index(name)] = v
    G[:, j] = grid
    return pd.concat([
        pd.DataFrame({"part": "data", "x": ctx.X[:, j], "value": ctx.y, "truth": np.nan}),
        pd.DataFrame({"part": "grid", "x": grid, "value": ctx.predict(G),
                      "truth": ctx.dgp.f(G)}),
    ], ignore_index=True)


# --- statistics and the window kind ----------------------------------------------------------

def _of_points(rows: pd.DataFrame, labels: list[str] | None) -> pd.DataFrame:
    """The rows of the points named by ``labels`` (a label also names its draws
    ``<label>_<j>``); every point when None."""
    if labels is None:
        return rows
    p = rows["point"].astype(str)
    keep = np.zeros(len(rows), dtype=bool)
    for label in labels:
        keep |= (p == label).to_numpy() | p.str.match(rf"^{label}_\d+$").to_numpy()
    return rows[keep]


def _at_width(rows: pd.DataFrame, width: float | None) -> pd.DataFrame:
    if width is None:
        return rows
    if "kernel_width" not in rows:
        return rows.iloc[:0]
    return rows[np.isclose(rows["kernel_width"], width)]


def _coef_per_rep(rows: pd.DataFrame, point: str, feature: str, width: float | None
                  ) -> tuple[pd.Series, float] | NoData:
    """Per repetition the mean over repeats and the named points of ``feature``'s coefficient
    (``intercept``: the surrogate's intercept) at ``width``; and the points' mean x of the
    first feature (for a reference)."""
    r = _at_width(_of_points(rows, [point]), width)
    if r.empty:
        return NoData(f"no LIME rows of point {point!r} at kernel width {width}")
    if feature == "intercept":
        if "intercept" not in r:
            return NoData("the intercept needs lime's surrogate_fit: true")
        r = r[r["feature"] == r["feature"].iloc[0]].assign(value=lambda d: d["intercept"])
    else:
        r = r[r["feature"] == feature]
        if r.empty:
            return NoData(f"no LIME coefficient of {feature!r}")
    x = float(rows.loc[rows["point"].isin(r["point"].unique()), "x"].iloc[0])
    return r.groupby("rep")["value"].mean(), x


REFERENCES = ("none", "sine_slope", "sine_intercept")


@statistic("book_lime.coefficient", params={
    "point": text(), "feature": text(), "kernel_width": number(None, above=0, nullable=True),
    "minus_reference": choice("none", REFERENCES)})
def coefficient(cell: Cell, t: Tables) -> Sample | NoData:
    """A mean LIME coefficient per repetition, less a reference (see the module doc)."""
    rows = cell.rows(t)
    if rows.empty:
        return NoData()
    p = cell.params
    point, feature, width = p["point"], p["feature"], p.get("kernel_width")
    got = _coef_per_rep(rows, point, feature, width)
    if isinstance(got, NoData):
        return got
    d, x = got
    what = f"{feature} of {point} at width {width}"
    reference = p.get("minus_reference", "none")
    if reference == "none":
        return Sample(d, what)
    slope, intercept = sine_reference(x)
    value = float(slope if reference == "sine_slope" else intercept)
    return Sample(d - value, f"{what} minus the reference at x = {x:g} ({value:g})")


@claim_kind("book_lime.lime_window", params={
    "points": items(text()), "truths": items(number()), "feature": text(),
    "between": items(number(), length=2), **K, "atol": number(0.0, minimum=0)})
def n_lime_window(claim: dict, t) -> list[dict]:
    """The widths in ``between`` recover every point's true coefficient (module doc)."""
    if len(claim["points"]) != len(claim["truths"]):
        raise ValueError(f"claim {claim['id']} (book_lime.lime_window): one truth per point; "
                         f"{len(claim['points'])} points, {len(claim['truths'])} truths")
    lo, hi = claim["between"]

    def one(claim: dict, rows: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        if "kernel_width" not in rows:
            return NoData("the LIME rows have no kernel width sweep")
        widths = sorted(w for w in rows["kernel_width"].unique() if lo <= w <= hi)
        checks, worst = [], (0.0, "")
        for point, truth in zip(claim["points"], claim["truths"], strict=True):
            for w in widths:
                got = _coef_per_rep(rows, point, claim["feature"], w)
                if isinstance(got, NoData):
                    return got
                d = got[0]
                why = few(len(d), 2, f"the coefficient of {point} at width {w:g}",
                          f"{claim['where']['scenario']}/{learner}/{method}")
                if why:
                    return why
                check, _, test = compared(d, truth, claim["k"], claim["atol"], "equal")
                checks.append(check)
                gap = abs(d.mean() - truth)
                if gap >= worst[0]:
                    worst = (gap, f"{point} at width {w:g}: {d.mean():.3g} against {truth:g}")
        if not checks:
            return NoData(f"no width of the sweep lies in [{lo}, {hi}]")
        return claim_row(
            claim, learner, method,
            f"{len(widths)} widths in [{lo:g}, {hi:g}] x {len(claim['points'])} points; "
            f"largest gap {worst[1]}", "at every width and point " + test,
            Check.joint(checks))

    return per_combo(claim, t, "other", one)


@statistic("book_lime.log_sd", params={
    "points": items(text(), None, nullable=True), "feature": text(),
    "widths": items(number(minimum=0), length=2, unique=True)})
def log_sd(cell: Cell, t: Tables) -> Sample | NoData:
    """log of the sd over repeats at the widths in ``widths`` per repetition (module doc)."""
    rows = cell.rows(t)
    if rows.empty:
        return NoData()
    if "kernel_width" not in rows or "repeat" not in rows:
        return NoData("the LIME rows have no kernel width sweep or repeats")
    p = cell.params
    (lo, hi), feature = p["widths"], p["feature"]
    r = _of_points(rows, p.get("points"))
    bands = coefficient_bands(r[r["feature"] == feature], ["rep", "point", "kernel_width"])
    inside = bands[(bands["kernel_width"] >= lo) & (bands["kernel_width"] <= hi)]
    if inside.empty:
        return NoData(f"no widths in [{lo}, {hi}]")
    sd = inside.groupby("rep")["sd"].mean()
    return Sample(np.log(sd).dropna(),
                  f"log sd over repeats of {feature} at widths in [{lo:g}, {hi:g}]",
                  f"; sd {sd.mean():.3g}")


def _explanations_at(rows: pd.DataFrame, width: float, points: list[str] | None
                     ) -> pd.DataFrame | NoData:
    if rows.empty:
        return NoData()
    if "selected" not in rows or "kernel_width" not in rows:
        return NoData("inclusion needs lime's surrogate_fit: true and a kernel width sweep")
    r = _at_width(_of_points(rows, points), width)
    return NoData(f"no LIME rows at kernel width {width}") if r.empty else r


@statistic("book_lime.inclusion", params={
    "features": items(feature_name()), "mode": choice("all", ("all", "any")),
    "kernel_width": number(above=0), "points": items(text(), None, nullable=True)})
def inclusion(cell: Cell, t: Tables) -> Sample | NoData:
    """The share of explanations keeping all (any) of ``features`` per repetition (module
    doc)."""
    p = cell.params
    r = _explanations_at(cell.rows(t), p["kernel_width"], p.get("points"))
    if isinstance(r, NoData):
        return r
    mode = p.get("mode", "all")
    kept = r[r["feature"].isin(p["features"])].groupby(["rep", "point", "repeat"])["selected"]
    hit = kept.all() if mode == "all" else kept.any()
    return Sample(hit.astype(float).groupby("rep").mean(),
                  f"share of explanations at width {p['kernel_width']:g} keeping {mode} of "
                  f"{', '.join(p['features'])}")


@statistic("book_lime.mixing", params={
    "kernel_width": number(above=0), "points": items(text(), None, nullable=True)})
def mixing(cell: Cell, t: Tables) -> Sample | NoData:
    """Per repetition the mean over points and features of 4 pi (1 - pi) at ``kernel_width``
    (module doc)."""
    r = _explanations_at(cell.rows(t), cell.params["kernel_width"], cell.params.get("points"))
    if isinstance(r, NoData):
        return r
    f = inclusion_frequency(r, ["rep", "point"])
    f["mix"] = 4 * f["share"] * (1 - f["share"])
    return Sample(f.groupby(["rep", "point"])["mix"].mean().groupby("rep").mean(),
                  f"mixing 4 pi (1 - pi) at width {cell.params['kernel_width']:g}")
