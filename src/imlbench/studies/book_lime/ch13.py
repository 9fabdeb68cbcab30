"""The book's ch. 13 ("LIME and neighbourhood", Kopper): how the kernel width of LIME's
proximity decides between a local and a global explanation.

Study methods:

``n_kde``        (Sect. 13.2, Fig. 13.1) two Gaussian kernel density estimates of one feature
                 of the data: Silverman's rule-of-thumb bandwidth (R's ``bw.nrd0``) and a fixed
                 ``bandwidth``, each on a grid over the data's range (column ``bandwidth``:
                 the rule or the number)
``n_fit_curve``  (Sect. 13.3.1, Figs 13.2-13.3) the training rows of one feature with y
                 (``part: data``) and the black box and the truth f along a grid of the feature
                 with the other features fixed by ``at`` (else at their mean; ``part: grid``)

:func:`sine_reference` is the book code's piecewise linear description of the 1-D sine
surface (Fig. 13.4), the local truth against which Fig. 13.5's explanations are read.

Claim kinds, on the layer's ``lime`` rows (``point``, ``repeat``, ``feature``, ``value``,
``kernel_width`` of a width sweep, ``intercept`` and ``selected`` of ``surrogate_fit``). Every
statistic is first taken per repetition (data set and fit, column ``rep``), averaged over the
repeats of LIME within it, so that the spread between fits enters every tolerance. A point
label also names the points of a labelled draw (``left`` names ``left_0``, ``left_1``).

``n_lime_coef``        the mean coefficient of ``feature`` (or the surrogate's ``intercept``)
                       of ``point`` at ``kernel_width``, less the same of ``than_point`` /
                       ``than_method`` / ``than_width`` when given (paired by repetition),
                       against ``value`` or the ``reference`` at the point
                       (``sine_slope``, ``sine_intercept``: :func:`sine_reference`). ``test:
                       published``: the prediction interval of ``runs`` further runs (a number
                       the book printed from one fit); ``test: mean``: the interval of the
                       mean, ``compare`` as the layer's ``compared``
``n_lime_window``      at every width of the sweep in ``between`` and every point of
                       ``points``, the mean coefficient of ``feature`` equals the point's
                       ``truths`` entry (t' SE of the mean over repetitions + ``atol``): the
                       widths that recover the truth
``n_lime_spread``      the sd over repeats of the coefficient of ``feature`` (per point, then
                       averaged over ``points``; :func:`coefficient_bands`) at the widths up to
                       ``below``, over the same at the widths in ``between``: the log of the
                       ratio per repetition against ``value`` (0: more volatile below)
``n_inclusion``        the share of explanations at ``kernel_width`` (over ``points``, default
                       all, and repeats) whose selection kept ``features``: every one of them
                       (``mode: all``) or at least one (``any``), against ``value``
``n_inclusion_mixing`` how undecided the selection is at ``kernel_width`` against
                       ``than_width``: per point the mean over features of 4 pi (1 - pi), pi
                       the inclusion frequency (:func:`inclusion_frequency`: 0 when every
                       feature is always or never kept, 1 when each is kept half the time),
                       averaged over points; the difference of the two widths per repetition
                       against ``value``
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import gaussian_kde

from imlbench.explain.api import ExplainContext, method
from imlbench.metrics.claims import Check, NoData, claim_kind, claim_row, per_combo
from imlbench.metrics.curve_claims import COMPARE, TOLERANCE, compared, prediction_check
from imlbench.metrics.lime_summaries import coefficient_bands, inclusion_frequency
from imlbench.params import (
    choice,
    feature_name,
    integer,
    items,
    number,
    study_name,
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


@method("n_kde", params={"feature": feature_name(), "bandwidth": number(minimum=0),
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


@method("n_fit_curve", params={"feature": feature_name(), "at": table(value=number(),
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


# --- claim kinds -----------------------------------------------------------------------------

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


@claim_kind("n_lime_coef", params={
    "point": text(), "feature": text(), "kernel_width": number(None, nullable=True),
    "value": number(None, nullable=True), "reference": choice("none", REFERENCES),
    "than_point": text(None, nullable=True), "than_method": study_name("methods", None),
    "than_width": number(None, nullable=True), "test": choice("mean", ("mean", "published")),
    "runs": integer(1, minimum=1), **COMPARE, **TOLERANCE})
def n_lime_coef(claim: dict, t) -> list[dict]:
    """A mean LIME coefficient (or a difference of two) against a number (module doc)."""
    if (claim["value"] is None) == (claim["reference"] == "none"):
        raise ValueError(f"claim {claim['id']} (n_lime_coef): give exactly one of value and "
                         f"reference ({', '.join(REFERENCES[1:])})")
    other = any(claim[k] is not None for k in ("than_point", "than_method", "than_width"))

    def one(claim: dict, rows: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        got = _coef_per_rep(rows, claim["point"], claim["feature"], claim["kernel_width"])
        if isinstance(got, NoData):
            return got
        d, x = got
        what = (f"{claim['feature']} of {claim['point']} at width {claim['kernel_width']}")
        if other:
            them = t.other
            them = them[(them["scenario"] == claim["where"]["scenario"])
                        & (them["learner"] == learner)
                        & (them["method"] == (claim["than_method"] or method))]
            width = claim["than_width"] if claim["than_width"] is not None else (
                None if claim["than_method"] else claim["kernel_width"])
            got = _coef_per_rep(them, claim["than_point"] or claim["point"], claim["feature"],
                                width)
            if isinstance(got, NoData):
                return got
            d = (d - got[0]).dropna()
            what += (f" minus that of {claim['than_point'] or claim['point']} at width {width}"
                     + (f" ({claim['than_method']})" if claim["than_method"] else ""))
        if len(d) < 2:
            return NoData(f"a tolerance needs 2 repetitions or more; {len(d)} here")
        value = claim["value"]
        if value is None:
            slope, intercept = sine_reference(x)
            value = float(slope if claim["reference"] == "sine_slope" else intercept)
            what += f" (reference at x = {x:g}: {value:g})"
        if claim["test"] == "published":
            check, test = prediction_check(d, value, claim["k"], claim["atol"], claim["runs"])
            return claim_row(claim, learner, method,
                             f"{what}: {d.mean():.4g} (sd {d.std():.3g} over {len(d)} reps)",
                             test, check)
        check, se, test = compared(d, value, claim["k"], claim["atol"], claim["compare"])
        return claim_row(claim, learner, method,
                         f"{what}: {d.mean():.4g} (SE {se:.3g}, {len(d)} reps)", test, check)

    return per_combo(claim, t, "other", one)


@claim_kind("n_lime_window", params={
    "points": items(text()), "truths": items(number()), "feature": text(),
    "between": items(number(), length=2), **TOLERANCE})
def n_lime_window(claim: dict, t) -> list[dict]:
    """The widths in ``between`` recover every point's true coefficient (module doc)."""
    if len(claim["points"]) != len(claim["truths"]):
        raise ValueError(f"claim {claim['id']} (n_lime_window): one truth per point; "
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
                if len(d) < 2:
                    return NoData("a tolerance needs 2 repetitions or more")
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


def _per_rep_row(claim: dict, learner: str, method: str, d: pd.Series, label: str,
                 extra: str = "") -> dict | NoData:
    """The row comparing the per-repetition statistic ``d`` with the claim's ``value`` as its
    ``compare`` says (t' SE over the repetitions); ``label`` names the statistic, ``extra``
    adds to the parenthesis."""
    if len(d) < 2:
        return NoData("a tolerance needs 2 repetitions or more")
    check, se, test = compared(d, claim["value"], claim["k"], claim["atol"], claim["compare"])
    return claim_row(claim, learner, method,
                     f"{label}: {d.mean():.3g} (SE {se:.3g}, {len(d)} reps{extra})", test, check)


@claim_kind("n_lime_spread", params={
    "points": items(text(), None, nullable=True), "feature": text(), "below": number(),
    "between": items(number(), length=2), "value": number(0.0), **COMPARE, **TOLERANCE})
def n_lime_spread(claim: dict, t) -> list[dict]:
    """log(sd over repeats at small widths / sd in the window) per repetition (module doc)."""
    lo, hi = claim["between"]

    def one(claim: dict, rows: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        if "kernel_width" not in rows or "repeat" not in rows:
            return NoData("the LIME rows have no kernel width sweep or repeats")
        r = _of_points(rows, claim["points"])
        r = r[r["feature"] == claim["feature"]]
        bands = coefficient_bands(r, ["rep", "point", "kernel_width"])
        small = bands[bands["kernel_width"] <= claim["below"]]
        window = bands[(bands["kernel_width"] >= lo) & (bands["kernel_width"] <= hi)]
        if small.empty or window.empty:
            return NoData(f"no widths up to {claim['below']} or in [{lo}, {hi}]")
        a, b = small.groupby("rep")["sd"].mean(), window.groupby("rep")["sd"].mean()
        return _per_rep_row(
            claim, learner, method, np.log(a / b).dropna(),
            f"log(sd of {claim['feature']} at widths <= {claim['below']:g} / sd at widths in "
            f"[{lo:g}, {hi:g}])", f"; sds {a.mean():.3g} and {b.mean():.3g}")

    return per_combo(claim, t, "other", one)


def _explanations_at(rows: pd.DataFrame, width: float, points: list[str] | None
                     ) -> pd.DataFrame | NoData:
    if "selected" not in rows or "kernel_width" not in rows:
        return NoData("inclusion needs lime's surrogate_fit: true and a kernel width sweep")
    r = _at_width(_of_points(rows, points), width)
    return NoData(f"no LIME rows at kernel width {width}") if r.empty else r


@claim_kind("n_inclusion", params={
    "features": items(feature_name()), "mode": choice("all", ("all", "any")),
    "kernel_width": number(), "points": items(text(), None, nullable=True),
    "value": number(), **COMPARE, **TOLERANCE})
def n_inclusion(claim: dict, t) -> list[dict]:
    """The share of explanations keeping all (any) of ``features`` (module doc)."""

    def one(claim: dict, rows: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        r = _explanations_at(rows, claim["kernel_width"], claim["points"])
        if isinstance(r, NoData):
            return r
        kept = r[r["feature"].isin(claim["features"])].groupby(
            ["rep", "point", "repeat"])["selected"]
        hit = kept.all() if claim["mode"] == "all" else kept.any()
        return _per_rep_row(
            claim, learner, method, hit.astype(float).groupby("rep").mean(),
            f"share of explanations at width {claim['kernel_width']:g} keeping {claim['mode']} "
            f"of {', '.join(claim['features'])}")

    return per_combo(claim, t, "other", one)


def _mixing(rows: pd.DataFrame) -> pd.Series:
    """Per repetition the mean over points and features of 4 pi (1 - pi)."""
    f = inclusion_frequency(rows, ["rep", "point"])
    f["mix"] = 4 * f["share"] * (1 - f["share"])
    return f.groupby(["rep", "point"])["mix"].mean().groupby("rep").mean()


@claim_kind("n_inclusion_mixing", params={
    "kernel_width": number(), "than_width": number(),
    "points": items(text(), None, nullable=True), "value": number(0.0), **COMPARE,
    **TOLERANCE})
def n_inclusion_mixing(claim: dict, t) -> list[dict]:
    """How undecided the selection is at one width against another (module doc)."""

    def one(claim: dict, rows: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        a = _explanations_at(rows, claim["kernel_width"], claim["points"])
        b = _explanations_at(rows, claim["than_width"], claim["points"])
        for r in (a, b):
            if isinstance(r, NoData):
                return r
        ma, mb = _mixing(a), _mixing(b)
        return _per_rep_row(
            claim, learner, method, (ma - mb).dropna(),
            f"mixing 4 pi (1 - pi) at width {claim['kernel_width']:g} minus at "
            f"{claim['than_width']:g}", f"; {ma.mean():.3g} and {mb.mean():.3g}")

    return per_combo(claim, t, "other", one)
