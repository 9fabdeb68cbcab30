"""Estimates compared with their truths, for every study, and the claim kinds over them.

The summaries stage compares every estimate whose method estimates an estimand (declared where
the method is registered: :func:`imlbench.explain.api.estimand_of`) that a truth table of its
scenario holds (every truth table has the one shape of :mod:`imlbench.explain.estimands`) and
writes

* ``metrics/truth_error_reps.parquet``: one row per repetition and point (scenario, learner,
  method, rep, feature, x, estimand, anchor, estimate, truth, truth_se, error = estimate -
  truth);
* ``metrics/truth_errors.parquet``: per point over the repetitions (scenario, learner, method,
  feature, x, estimand, anchor, truth, truth_se, mean, bias, se, rmse, reps), with ``mean``
  the mean estimate, ``bias = mean - truth``, ``se`` the standard error of the mean error
  (standard deviation over repetitions / sqrt(reps); NaN with one repetition), ``rmse`` the
  root of the mean squared error over repetitions and ``truth_se`` the truth's own Monte Carlo
  standard error (column ``se`` of the truth: 0 when exact; interpolated like the truth,
  before anchoring).

Where a method's estimates carry the models' own effect (column ``model_value``: the same
models on rows drawn afresh from the DGP, :mod:`imlbench.explain.strategies`), the reps table
has it as ``model`` (anchored as the estimate) and the summary adds the MSE decomposition of
Heiß, Bögel, Bischl & Casalicchio (2026) at each pooled point
(:func:`imlbench.stats.mse_decomposition`):
``model_bias``, ``estimation_bias``, ``model_variance``, ``estimation_variance`` and
``covariance``, which add up to the mean squared error ``rmse``^2 exactly.

Importances have one point per feature (``x`` NaN). Effect curves are compared at the
estimate's grid points: the truth is interpolated linearly onto them, and points outside the
truth's range are left out. PD and ALE are defined up to an additive constant in some
conventions (ALE centred at the data, at a reference value or uncentred; StratPD anchored at
its smallest x), so every curve appears twice: ``anchor: mean``, estimate and truth each
minus their mean over the compared points of their repetition (only the shape is compared),
and ``anchor: none``, as they are. Importances have ``anchor: none``.

Per point over the repetitions (:func:`summarise_errors`), each anchoring apart:

* when every repetition of a curve has as many points (a fixed grid, or a data-dependent
  grid of fixed size, e.g. quantiles, with another x in each repetition), its points are
  pooled by position, ``x`` being their mean;
* otherwise (grids of different sizes: ALE's quantile edges, some beyond the truth's range
  or tied; StratPD's data values, some dropped, another set in each repetition), an x that
  two or more repetitions hold is pooled over those as they are (a shared grid that misses
  points in some), and an x that one repetition alone holds is compared in every
  repetition: each repetition's estimate, truth and truth_se are interpolated linearly
  between its two neighbouring points (at its own points they are its own values), so that
  its error, estimate - truth, is linear between its points (the estimate is so by
  construction for ALE, linear between its edges, and for StratPD with ``gaps: span``, a
  constant slope from each retained x to the next). There ``truth`` is the mean of the
  repetitions' interpolated truths: the truth at x for the repetition that holds x, and for
  the others the truth's chord between their neighbouring points (off by the truth's
  curvature there). Such an x outside the span every repetition covers (from its smallest
  to its largest point) is left out: nothing is extrapolated.

``reps`` counts the repetitions pooled at the point.

Claim kinds (parameters are typed, see :func:`imlbench.metrics.claims.claim_kind`):

``matches_truth``     the estimate equals the truth within k SE at every point
``closer_to_truth``   method A is closer to the truth than method ``than`` (paired over reps),
                      at the estimate's points or at the truth's (:func:`at_truth_points`)

Both compare a method with the estimand it estimates (the tables above), unless the claim
names another with ``truth:`` (:data:`TRUTH`), e.g. ``truth: interventional``: a PDP against
E[Y | do(x_j)], which equals the PD when the back-door criterion holds for x_j and its
complement (Pearl's adjustment formula; Zhao & Hastie 2018). The claims stage then compares
the method's estimates with that truth of the scenario itself (:func:`against_truth`), in the
same way as the summaries compare them with their own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from imlbench.config import Study
from imlbench.curves import rep_curves, values_at
from imlbench.explain.api import METHODS
from imlbench.explain.api import estimand_of as registered_estimand
from imlbench.explain.estimands import TABLE_OF, TRUTH_COLUMNS, held_by
from imlbench.metrics.claims import (
    Check,
    NoData,
    Tables,
    claim_kind,
    claim_row,
    estimates,
    paired,
    per_combo,
    select_rows,
)
from imlbench.metrics.contrasts import compared, half_width
from imlbench.metrics.truth_tolerance import (
    TruthPart,
    fp_floor,
    tolerance_parts,
    truth_se_of,
)
from imlbench.params import choice, feature_names, flag, items, number, study_name
from imlbench.stats import mse_decomposition, t_multiplier

KEYS = ["scenario", "learner", "method"]
ANCHORS = ("mean", "none")
REP_COLUMNS = [*KEYS, "rep", "feature", "x", "estimand", "anchor", "estimate", "truth",
               "truth_se", "error"]
COLUMNS = [*KEYS, "feature", "x", "estimand", "anchor", "truth", "truth_se", "mean", "bias",
           "se", "rmse", "reps"]
#: the estimates' column of the models' own effect (:mod:`imlbench.explain.strategies`)
MODEL = "model_value"
#: the MSE decomposition, where the estimates carry the models' own effect (module doc)
DECOMPOSITION = ["model_bias", "estimation_bias", "model_variance", "estimation_variance",
                 "covariance"]


def instance_estimand(study: Study, method: str) -> str | None:
    """The truth estimand of the study's method instance ``method`` (None: it has none), as its
    registered method declares it (:func:`imlbench.explain.api.estimand_of`)."""
    return registered_estimand(study.methods[method]["method"], study.method_params(method))


def why_not_compared(study: Study, method: str, scenario: str, tables: Sequence[str]
                     ) -> str | None:
    """Why ``method`` has no truth errors in ``scenario``, whose truth tables are ``tables``
    (None: it is compared)."""
    registered = study.methods[method]["method"]
    if METHODS.get(registered).estimand is None:
        compared = [m for m in METHODS.names(study.name) if METHODS.get(m).estimand is not None]
        return (f"method {method} ({registered}) is compared with no truth; compared: "
                f"{', '.join(compared)}")
    estimand = instance_estimand(study, method)
    if estimand is None:
        return (f"method {method} ({registered}) estimates no truth estimand with its "
                f"parameters (PFI: loss squared, contrast difference, no groups; ICE: curve "
                f"plain)")
    if estimand not in held_by(tables):
        return (f"scenario {scenario} has no truth of estimand {estimand} (truth tables: "
                f"{', '.join(tables) or 'none'})")
    return None


def long_truths(truths: Mapping[tuple[str, str], pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """Every truth table by (scenario, table name) as one frame per scenario: the tables, in
    the one shape of :mod:`imlbench.explain.estimands`, one below the other (columns
    :data:`TRUTH_COLUMNS`)."""
    frames: dict[str, list[pd.DataFrame]] = {}
    for (scenario, _), t in truths.items():
        frames.setdefault(scenario, []).append(t[list(TRUTH_COLUMNS)])
    return {sc: pd.concat(f, ignore_index=True) for sc, f in frames.items()}


def _curve_errors(curve: pd.DataFrame, truth: pd.DataFrame) -> list[dict]:
    """One estimated curve against its true curve, at the estimate's x within the truth's
    range, anchored both ways."""
    truth = truth.sort_values("x")
    lo, hi = truth["x"].min(), truth["x"].max()
    c = curve[(curve["x"] >= lo) & (curve["x"] <= hi)].sort_values("x")
    if c.empty:
        return []
    est = c["value"].to_numpy(float)
    x, tx = c["x"].to_numpy(float), truth["x"].to_numpy(float)
    tv = np.interp(x, tx, truth["value"].to_numpy(float))
    tse = np.interp(x, tx, truth["se"].to_numpy(float))
    own = c[MODEL].to_numpy(float) if MODEL in c else None
    out = []
    for anchor in ANCHORS:
        centre = (lambda v: v - v.mean()) if anchor == "mean" else (lambda v: v)
        e, t = centre(est), centre(tv)
        rows = [{"x": xi, "anchor": anchor, "estimate": a, "truth": b, "truth_se": se}
                for xi, a, b, se in zip(x, e, t, tse, strict=True)]
        if own is not None:
            rows = [r | {"model": m} for r, m in zip(rows, centre(own), strict=True)]
        out += rows
    return out


def rep_errors(est: pd.DataFrame, truth: pd.DataFrame, estimand: str) -> pd.DataFrame:
    """Per repetition and point, the estimates ``est`` of one method (columns scenario,
    learner, method, rep, feature, value, and x for curves, row for curves of rows) against
    the ``truth`` frame of their scenario (columns :data:`TRUTH_COLUMNS`). Curves of rows are
    averaged over the rows (ICE-mean): compared with the mean of the rows' true curves when
    the truth has them (estimand ``ice``), else with the estimand's curve. Missing estimates
    (NaN) are left out."""
    truth = truth[truth["estimand"] == estimand]
    est = est.dropna(subset=["value"])
    if truth.empty or est.empty:
        return pd.DataFrame(columns=REP_COLUMNS)
    if truth["x"].isna().all():
        m = est.merge(truth[["feature", "value", "se"]], on="feature", suffixes=("", "_truth"))
        out = m[[*KEYS, "rep", "feature"]].assign(
            x=np.nan, estimand=estimand, anchor="none", estimate=m["value"],
            truth=m["value_truth"], truth_se=m["se_truth"] if "se_truth" in m else m["se"])
        if MODEL in m:
            out["model"] = m[MODEL]
        return out.assign(error=out["estimate"] - out["truth"])[_rep_columns(out)]
    by_row = bool((truth["row"] >= 0).any())
    if "row" in est.columns and not by_row:
        est = est.groupby([*KEYS, "rep", "feature", "x"], as_index=False, sort=False)[
            [c for c in ("value", MODEL) if c in est]].mean()
    curve_keys = [*KEYS, "rep", "feature", *(["row"] if by_row else [])]
    true_curves = dict(list(truth.groupby(["feature", "row"], sort=False)))
    rows = []
    for key, curve in est.groupby(curve_keys, sort=False):
        fields = dict(zip(curve_keys, key, strict=True))
        true_curve = true_curves.get((fields["feature"], fields.pop("row", -1)))
        if true_curve is not None:
            rows += [fields | r for r in _curve_errors(curve, true_curve)]
    if not rows:
        return pd.DataFrame(columns=REP_COLUMNS)
    out = pd.DataFrame(rows).assign(estimand=estimand)
    if by_row:
        out = out.groupby([*KEYS, "rep", "feature", "x", "estimand", "anchor"], as_index=False,
                          sort=False)[["estimate", "truth", "truth_se"]].mean()
    return out.assign(error=out["estimate"] - out["truth"])[_rep_columns(out)]


def _rep_columns(out: pd.DataFrame) -> list[str]:
    """:data:`REP_COLUMNS`, and ``model`` where the estimates carry the models' own effect."""
    return [*REP_COLUMNS, "model"] if "model" in out else REP_COLUMNS


def _same_length(df: pd.DataFrame, curve: list[str]) -> pd.Series:
    """Per row of ``df``: whether every repetition of its curve (the columns ``curve``) has as
    many points."""
    lengths = df.groupby([*curve, "rep"], sort=False)["x"].transform("size")
    return lengths.groupby([df[k] for k in curve], sort=False).transform("nunique") == 1


def grid_points(df: pd.DataFrame, curve: list[str]) -> pd.Series:
    """The grid point of each row of the curves in ``df`` (the columns ``curve`` name one
    curve; rows sorted by curve, ``rep`` and ``x``): its position within its repetition when
    every repetition of the curve has as many points (a data-dependent grid has another x in
    each repetition), else its x."""
    position = df.groupby([*curve, "rep"], sort=False).cumcount().astype(float)
    return position.where(_same_length(df, curve), df["x"]).fillna(0.0)


def _held_by_one(df: pd.DataFrame, curve: list[str]) -> pd.Series:
    """Per row of ``df``: whether its curve's repetitions have grids of different sizes and
    its x is held by no other repetition (these are compared in every repetition,
    :func:`_interpolated`)."""
    holders = df.groupby([*curve, "x"], sort=False, dropna=False)["rep"].transform("nunique")
    return ~_same_length(df, curve) & (holders == 1)


def _interpolated(c: pd.DataFrame, at: np.ndarray) -> dict[str, np.ndarray | int]:
    """The summary columns at the points ``at`` of one curve (rows ``c``: all its points of
    all its repetitions; ``at`` within every repetition's span) over all its repetitions, each
    repetition's estimate, truth and truth_se interpolated linearly between its points."""
    cols = ("estimate", "truth", "truth_se")
    est, truth, truth_se = (
        np.vstack([np.interp(at, r["x"].to_numpy(float), r[k].to_numpy(float))
                   for _, r in c.groupby("rep", sort=False)])
        for k in cols)
    error = est - truth
    reps = len(error)
    sd = error.std(axis=0, ddof=1) if reps > 1 else np.full(len(at), np.nan)
    return {"x": at, "truth": truth.mean(axis=0), "truth_se": truth_se.mean(axis=0),
            "mean": est.mean(axis=0), "bias": error.mean(axis=0), "sd": sd,
            "msq": (error**2).mean(axis=0), "reps": reps}


def summarise_errors(reps: pd.DataFrame) -> pd.DataFrame:
    """Per point over the repetitions (columns :data:`COLUMNS`, see the module doc): rows
    pooled at their :func:`grid_points`, but for the x of a curve with grids of different
    sizes that one repetition alone holds (:func:`_held_by_one`): there every repetition is
    interpolated (:func:`_interpolated`), within the span all repetitions cover; such x
    outside it are left out."""
    if reps.empty:
        return pd.DataFrame(columns=COLUMNS)
    curve = [*KEYS, "estimand", "anchor", "feature"]
    df = reps.sort_values([*curve, "rep", "x"]).reset_index(drop=True)
    df["point"] = grid_points(df, curve)
    df["sq"] = df["error"] ** 2
    alone = _held_by_one(df, curve)
    g = df[~alone].groupby([*curve, "point"], sort=False)
    out = g.agg(x=("x", "mean"), truth=("truth", "mean"), truth_se=("truth_se", "mean"),
                mean=("estimate", "mean"),
                bias=("error", "mean"), sd=("error", "std"), msq=("sq", "mean"),
                reps=("error", "size")).reset_index()
    if alone.any():
        parts = [out]
        mixed = alone.groupby([df[k] for k in curve], sort=False).transform("any")
        for key, c in df[mixed].groupby(curve, sort=False):
            span = c.groupby("rep")["x"].agg(["min", "max"])
            at = np.unique(c.loc[alone[c.index], "x"].to_numpy(float))
            at = at[(at >= span["min"].max()) & (at <= span["max"].min())]
            if len(at):
                parts.append(pd.DataFrame(dict(zip(curve, key, strict=True))
                                          | {"point": at} | _interpolated(c, at)))
        out = pd.concat(parts, ignore_index=True).sort_values(
            [*curve, "x"], kind="stable", ignore_index=True)
    out["se"] = out["sd"] / np.sqrt(out["reps"])
    out["rmse"] = np.sqrt(out["msq"])
    if "model" not in df:
        return out[COLUMNS]
    parts = mse_decomposition(df[~alone], [*curve, "point"])
    return out.merge(parts, on=[*curve, "point"], how="left")[[*COLUMNS, *DECOMPOSITION]]


# --- claim kinds --------------------------------------------------------------------------

#: the truth estimand a claim compares with instead of the one its method estimates (null:
#: that one), e.g. ``interventional`` for a PDP
TRUTH = {"truth": choice(None, tuple(TABLE_OF), nullable=True)}
#: parameters of both kinds: the features compared (default: all), the range of x of the
#: curve points compared (default: all), the anchoring of curves and the truth compared with
SELECT = {"features": feature_names(), "range": items(number(), None, length=2, nullable=True),
          "anchor": choice("mean", ANCHORS), **TRUTH}
KINDS = ("matches_truth", "closer_to_truth")


def _truth_of(claim: dict, t: Tables) -> pd.DataFrame | NoData:
    """The truth tables of the claim's scenario in one frame (columns :data:`TRUTH_COLUMNS`),
    or why they hold no estimand ``truth``."""
    scenario, estimand = claim["where"]["scenario"], claim["truth"]
    truth = long_truths({k: v for k, v in t.truths.items() if k[0] == scenario}).get(scenario)
    held = [] if truth is None else list(dict.fromkeys(truth["estimand"]))
    if estimand not in held:
        return NoData(f"the truths of scenario {scenario} hold no estimand {estimand} (they "
                      f"hold: {', '.join(held) or 'none'})")
    return truth


def against_truth(claim: dict, t: Tables, learner: str, method: str) -> pd.DataFrame | NoData:
    """Selector (:func:`imlbench.metrics.claims.per_combo`): per repetition and point (columns
    :data:`REP_COLUMNS`), the estimates of the claim's scenario, ``learner`` and ``method``
    (``Tables.other``) against the truth estimand the claim's ``truth`` names, from the
    scenario's truth tables (``Tables.truths``), as :func:`rep_errors` compares them; or why
    there are none."""
    est = estimates("other")(claim, t, learner, method)
    if isinstance(est, NoData):
        return est
    truth = _truth_of(claim, t)
    if isinstance(truth, NoData):
        return truth
    scenario, estimand = claim["where"]["scenario"], claim["truth"]
    reps = rep_errors(est.dropna(axis=1, how="all"), truth, estimand)
    if reps.empty:
        return NoData(f"no estimate of {scenario}/{learner}/{method} lies within the range of "
                      f"its {estimand} truth")
    return reps


def at_truth_points(claim: dict, t: Tables, learner: str, method: str
                    ) -> pd.DataFrame | NoData:
    """Selector: per repetition and point (columns :data:`REP_COLUMNS` and ``span``, the
    truth's range over the repetition's points, before anchoring), the curves of the claim's
    scenario, ``learner`` and ``method`` (``Tables.other``; a repetition's curve is the
    mean over its rows, :func:`imlbench.curves.rep_curves`) read at the points of the claim's
    ``truth`` within ``range`` and the curve's span, linearly between the curve's points
    (:func:`imlbench.curves.values_at`), against the truth there, anchored over those points
    as ``anchor`` says. A repetition whose curve spans fewer than 3 of the truth's points is
    left out (anchored, 2 points say nothing of a shape). At the truth's points, a coarse
    grid's error between its points counts: an ALE is exact at its interval edges."""
    est = estimates("other")(claim, t, learner, method)
    if isinstance(est, NoData):
        return est
    truth = _truth_of(claim, t)
    if isinstance(truth, NoData):
        return truth
    truth = truth[(truth["estimand"] == claim["truth"]) & (truth["row"] < 0)]
    lo, hi = claim["range"] or (-np.inf, np.inf)
    est = est.dropna(subset=["x", "value"])
    parts = []
    for feature, curve in est.groupby("feature", sort=False):
        tr = truth[(truth["feature"] == feature) & truth["x"].between(lo, hi)].sort_values("x")
        if claim["features"] and feature not in claim["features"] or tr.empty:
            continue
        x, tv, tse = (tr[c].to_numpy(float) for c in ("x", "value", "se"))
        for rep, row in values_at(rep_curves(curve), x).iterrows():
            inside = row.notna().to_numpy()
            if inside.sum() < 3:
                continue
            e, v = row.to_numpy(float)[inside], tv[inside]
            span = np.ptp(v)
            if claim["anchor"] == "mean":
                e, v = e - e.mean(), v - v.mean()
            parts.append(pd.DataFrame({"rep": rep, "feature": feature, "x": x[inside],
                                       "estimate": e, "truth": v, "truth_se": tse[inside],
                                       "span": span}))
    if not parts:
        return NoData(f"no curve of {claim['where']['scenario']}/{learner}/{method} spans 3 "
                      f"or more points of its {claim['truth']} truth")
    out = pd.concat(parts, ignore_index=True).assign(
        scenario=claim["where"]["scenario"], learner=learner, method=method,
        estimand=claim["truth"], anchor=claim["anchor"])
    return out.assign(error=out["estimate"] - out["truth"])[[*REP_COLUMNS, "span"]]


def _compared(table: pd.DataFrame, claim: dict, learner: str, method: str) -> pd.DataFrame:
    """The rows of a truth-error table a claim compares: its scenario, learner and method,
    features and anchoring (importances have none)."""
    if table.empty:
        return table
    r = select_rows(table, claim["where"]["scenario"], learner, method)
    if claim["features"]:
        r = r[r["feature"].isin(claim["features"])]
    if claim["range"] is not None:
        lo, hi = claim["range"]
        r = r[r["x"].between(lo, hi) | r["x"].isna()]
    return r[(r["anchor"] == claim["anchor"]) | r["x"].isna()]


def _points(claim: dict, t: Tables, learner: str, method: str) -> pd.DataFrame | NoData:
    """Selector (:func:`imlbench.metrics.claims.per_combo`): the claim's rows of
    ``truth_errors`` (per point over the repetitions), or why there are none
    (:func:`_missing`); with a ``truth``, those of :func:`against_truth` summarised by
    :func:`summarise_errors`."""
    table = t.truth_errors
    if claim["truth"] is not None:
        reps = against_truth(claim, t, learner, method)
        if isinstance(reps, NoData):
            return reps
        table = summarise_errors(reps)
    r = _compared(table, claim, learner, method)
    return NoData(_missing(table, claim, learner, method)) if r.empty else r


def _per_rep(claim: dict, t: Tables, learner: str, method: str) -> pd.DataFrame | NoData:
    """Selector: the claim's rows of ``truth_error_reps`` (per repetition; with a ``truth``,
    of :func:`against_truth`, or at the truth's points, :func:`at_truth_points`); none: the
    caller of :func:`imlbench.metrics.claims.evaluate` says why."""
    table = t.truth_error_reps
    if claim["truth"] is not None:
        read = at_truth_points if claim["points"] == "truth" else against_truth
        table = read(claim, t, learner, method)
        if isinstance(table, NoData):
            return table
    r = _compared(table, claim, learner, method)
    return NoData() if r.empty else r


def _missing(table: pd.DataFrame, claim: dict, learner: str, method: str) -> str:
    """The reason when the claim's features select nothing of rows that exist (empty: the
    caller of :func:`imlbench.metrics.claims.evaluate` tells)."""
    if table.empty or not claim["features"]:
        return ""
    held = select_rows(table, claim["where"]["scenario"], learner, method)["feature"]
    if held.empty:
        return ""
    return (f"metrics/truth_errors.parquet holds no rows of features "
            f"{', '.join(claim['features'])} of {claim['where']['scenario']}/{learner}/{method}"
            f" (it has: {', '.join(dict.fromkeys(held))})")


@claim_kind("matches_truth", params={"k": number(3.0, minimum=0), "atol": number(0.0, minimum=0),
                                     **SELECT})
def matches_truth(claim: dict, t: Tables) -> list[dict]:
    """The estimate equals the truth (its own estimand, or the claim's ``truth``): at every
    selected (feature, x), |bias| <= t' sqrt(se^2 + truth_se^2) + floor + atol
    (:func:`imlbench.metrics.contrasts.half_width`): se = sd of the error over the
    repetitions / sqrt(reps), truth_se the truth's own Monte Carlo SE (0 for closed forms),
    floor the floating-point floor of the curve's values (:func:`imlbench.metrics.
    truth_tolerance.fp_floor` of the largest |mean estimate| or |truth| of the feature over
    the selected points: centring and accumulating round at that scale), so that an exact
    estimate equal to its truth up to rounding reproduces; t' is the Student-t quantile with
    reps - 1 degrees of freedom at the normal probability of k (:func:`imlbench.stats.
    t_multiplier`), as the SE is estimated from the repetitions. At a point of one
    repetition the estimate's SE is unknown: it passes when |bias| <= k truth_se + floor +
    atol (the interval without the estimate's SE is narrower, so the pass stands), else the
    row has no data (an SE needs 2 repetitions). Verdict and power per
    :class:`imlbench.metrics.claims.Check` (relative to the truth's range over the points)."""
    k, atol = claim["k"], claim["atol"]

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        single = (r["reps"] < 2).to_numpy()
        tk = np.where(single, k, t_multiplier(k, np.maximum(r["reps"] - 1, 1)))
        size = np.maximum(r["mean"].abs(), r["truth"].abs())
        floor = fp_floor(size.groupby(r["feature"]).transform("max").to_numpy(float))
        se = np.where(single, 0.0, r["se"].to_numpy(float))
        half = half_width(tk, se, r["truth_se"].to_numpy(float), floor)
        excess = pd.Series(r["bias"].abs().to_numpy(float) - half - atol, index=r.index)
        w = r.loc[excess.idxmax()]
        at = w["feature"] if np.isnan(w["x"]) else f"{w['feature']} x={w['x']:.3g}"
        where = f"{claim['where']['scenario']}/{learner}/{method}"
        if (excess[single] > 0).any():
            return NoData(f"an SE needs 2 repetitions or more; {where} has 1 at some point, "
                          f"where its bias exceeds rounding and the truth's Monte Carlo error "
                          f"(largest excess {excess[single].max():.3g})")
        one_rep = (f"; at points of 1 repetition SE_est is unknown, taken as 0 with t = {k:g}"
                   f" (a pass needs agreement within rounding and the truth's error)"
                   if single.any() else "")
        return claim_row(
            claim, learner, method,
            f"largest |bias| relative to its tolerance: {abs(w['bias']):.4g} at {at} (SE "
            f"{r.loc[excess.idxmax(), 'se']:.3g}, truth SE {w['truth_se']:.3g}, truth "
            f"{w['truth']:.4g}); {len(r)} points, {int(r['reps'].min())} reps, largest RMSE "
            f"{r['rmse'].max():.4g}",
            f"|bias| <= t({k:g}) SE + {atol:g} at every point (t({k:g}): the t quantile at "
            f"Phi({k:g}), {int(r['reps'].clip(lower=2).min()) - 1} df), "
            f"{tolerance_parts(r['truth_se'].to_numpy(float), floor)}{one_rep}",
            Check(r["bias"].to_numpy(float), np.asarray(half, dtype=float), "equal", 0.0, atol,
                  scale=float(r["truth"].max() - r["truth"].min())),
        )

    return per_combo(claim, t, _points, one)


#: where ``closer_to_truth`` compares a curve with its truth, and its error per repetition
POINTS, ERRORS = ("estimate", "truth"), ("mse", "rmse")


def error_by_rep(reps: pd.DataFrame, error: str, relative: bool) -> pd.Series:
    """Per repetition (rows :data:`REP_COLUMNS`), the mean squared error over its points
    (``mse``) or its root (``rmse``), divided by the truth's range over those points
    (column ``span`` of :func:`at_truth_points`; squared for ``mse``; 1 where the truth is
    flat) when ``relative``."""

    def one(g: pd.DataFrame) -> float:
        e = g["error"].to_numpy(float)
        v = np.mean(e**2) if error == "mse" else np.sqrt(np.mean(e**2))
        if relative:
            span = g["span"].iloc[0]
            v = v / (span if span > 0 else 1.0) ** (2 if error == "mse" else 1)
        return float(v)

    columns = ["error", "span"] if relative else ["error"]
    return reps.groupby("rep")[columns].apply(one).astype(float)


def error_truth_terms(reps: pd.DataFrame, error: str, relative: bool) -> pd.DataFrame:
    """Per repetition and point of ``reps`` (rows as :func:`error_by_rep` reads them): how its
    error E_r moves with the truth value there, first order (``grad`` = dE_r / dt_i: -2 e_i / n
    for ``mse``, -e_i / (n E_r) for ``rmse``, divided as :func:`error_by_rep` divides; with
    anchor ``mean`` every anchored error of a feature moves with each of its t_j, which
    centres the derivative over the feature's points), the truth's Monte Carlo SE there
    (``truth_se``) and the size of E_r's values for its floating-point floor (``scale``: the
    largest |estimate| or |truth| of the repetition, squared for ``mse``, divided like E_r);
    columns rep, feature, x and these."""
    power = 2 if error == "mse" else 1
    parts = []
    for rep, g in reps.groupby("rep", sort=False):
        e, n = g["error"].to_numpy(float), len(g)
        value = float(np.sqrt(np.mean(e**2)))
        grad = -2 * e / n if error == "mse" else -e / (n * value) if value > 0 else 0 * e
        span = float(g["span"].iloc[0]) if relative else 1.0
        unit = (span if span > 0 else 1.0) ** power
        size = float(np.maximum(g["estimate"].abs(), g["truth"].abs()).max())
        grad = pd.Series(grad / unit, index=g.index)
        if (g["anchor"] == "mean").all():
            grad -= grad.groupby(g["feature"]).transform("mean")
        parts.append(g[["feature", "x", "truth_se"]].assign(
            rep=rep, grad=grad, scale=size**power / unit))
    return pd.concat(parts, ignore_index=True)


def error_truth_part(reps: pd.DataFrame, error: str, truth: str) -> TruthPart:
    """How the error per repetition of ``reps`` (:func:`error_by_rep`, not relative) reads
    its truth, for the kit's tests of a statistic (``Sample.truth``): the derivatives of
    :func:`error_truth_terms`, each truth value named by ``truth`` (where it lies, e.g.
    scenario and estimand), its feature and x."""
    terms = error_truth_terms(reps, error, False)
    return TruthPart.of_terms(terms.assign(
        point=f"{truth} " + terms["feature"].astype(str) + " x=" + terms["x"].map(repr)))


def paired_truth_parts(a: pd.DataFrame, b: pd.DataFrame, reps: pd.Index
                       ) -> tuple[float, float]:
    """The truth's SE and the floating-point floor of the mean over ``reps`` of the paired
    difference E_r(a) - E_r(b) (rows of :func:`error_truth_terms` of both): per repetition,
    sum_i |grad_a,i - grad_b,i| se_i over the points of either (a point of one alone counts
    with its own derivative; the truth is one for both, so its error largely cancels where
    both read it), averaged over the repetitions (:func:`imlbench.metrics.truth_tolerance.
    truth_se_of`, the bound for any correlation); the floor of the largest ``scale``."""
    both = a.merge(b, on=["rep", "feature", "x"], how="outer", suffixes=("_a", "_b"))
    both = both[both["rep"].isin(reps)]
    grad = both["grad_a"].fillna(0.0) - both["grad_b"].fillna(0.0)
    tse = both["truth_se_a"].combine_first(both["truth_se_b"])
    per_rep = [truth_se_of(grad[i], tse[i]) for i in both.groupby("rep").indices.values()]
    scale = np.nanmax(both[["scale_a", "scale_b"]].to_numpy(float)) if len(both) else 0.0
    return float(np.mean(per_rep)) if per_rep else 0.0, float(fp_floor(scale))


def _needs_truth(claim: Mapping) -> list[tuple[str, str]]:
    if claim.get("points", "estimate") == "estimate":
        if claim.get("relative"):
            return [("relative", "an error relative to the truth's range reads the truth at "
                                 "its points; allowed: false, or points: truth")]
        return []
    if claim.get("truth") is None:
        return [("truth", "points: truth reads the estimates at the points of a named truth; "
                          f"allowed: one of {', '.join(TABLE_OF)}")]
    return []


@claim_kind("closer_to_truth", params={
    "than": study_name("methods"), "k": number(2.0, minimum=0), **SELECT,
    "points": choice("estimate", POINTS), "error": choice("mse", ERRORS),
    "relative": flag(False)}, errors=_needs_truth)
def closer_to_truth(claim: dict, t: Tables) -> list[dict]:
    """The claim's method is closer to its truth than method ``than`` to its own (both to the
    claim's ``truth`` when it names one), paired over the repetitions both have (the same data
    sets): d_r = E_r(method) - E_r(than), E_r the error of repetition r over the selected
    points (:func:`error_by_rep`: ``error`` mse or rmse), at the estimate's points (``points:
    estimate``, the summaries' tables) or at the truth's (``points: truth``,
    :func:`at_truth_points`, with a named ``truth``; there ``relative`` divides each error by
    the truth's range over the repetition's points); reproduced when
    mean(d) + t' sqrt(SE(d)^2 + SE_truth^2) + floor < 0, the kit's one-sample test of the
    paired differences (:func:`imlbench.metrics.contrasts.compared`: SE(d) = sd(d) /
    sqrt(reps), t' the Student-t quantile with reps - 1 degrees of freedom at the normal
    probability of ``k``), widened by the truth's Monte Carlo SE in mean(d) and the
    floating-point floor (:func:`paired_truth_parts`)."""
    k, than, error = claim["k"], claim["than"], claim["error"]
    name = error.upper() + (" / the truth's range" if claim["relative"] else "")

    def one(claim: dict, ab: tuple[pd.DataFrame, pd.DataFrame], learner: str, method: str
            ) -> dict | NoData:
        err_a, err_b = (error_by_rep(r, error, claim["relative"]) for r in ab)
        d = (err_a - err_b).dropna()
        if len(d) < 2:
            return NoData(f"a paired comparison needs 2 common repetitions or more; {method} "
                          f"and {than} share {len(d)}")
        truth = paired_truth_parts(
            *(error_truth_terms(r, error, claim["relative"]) for r in ab), d.index)
        check, se, tolerance = compared(d, 0.0, k, 0.0, "below", truth)
        return claim_row(
            claim, learner, method,
            f"mean {name} {method} {err_a[d.index].mean():.4g} vs {than} "
            f"{err_b[d.index].mean():.4g} (mean difference {d.mean():.4g}, SE {se:.3g}, "
            f"{len(d)} paired reps)",
            tolerance.replace("mean", f"mean {error.upper()} difference", 1), check)

    return per_combo(claim, t, paired(_per_rep, "than"), one)
