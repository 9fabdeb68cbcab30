"""Estimates compared with their truths, for every study, and the claim kinds over them.

The summaries stage compares every estimate whose method estimates an estimand that a truth
table of its scenario holds (:data:`ESTIMANDS`, :data:`TRUTH_TABLES`) and writes

* ``metrics/truth_error_reps.parquet``: one row per repetition and point (scenario, learner,
  method, rep, feature, x, estimand, anchor, estimate, truth, truth_se, error = estimate -
  truth);
* ``metrics/truth_errors.parquet``: per point over the repetitions (scenario, learner, method,
  feature, x, estimand, anchor, truth, truth_se, mean, bias, se, rmse, reps), with ``mean``
  the mean estimate, ``bias = mean - truth``, ``se`` the standard error of the mean error
  (standard deviation over repetitions / sqrt(reps); NaN with one repetition), ``rmse`` the
  root of the mean squared error over repetitions and ``truth_se`` the truth's own Monte Carlo
  standard error where its table has one (column ``se``, or ``<estimand>_se`` of an
  importance table; interpolated like the truth, before anchoring), else 0.

Importances have one point per feature (``x`` NaN). Effect curves are compared at the
estimate's grid points: the truth is interpolated linearly onto them, and points outside the
truth's range are left out. PD and ALE are defined up to an additive constant in some
conventions (ALE centred at the data, at a reference value or uncentred; StratPD anchored at
its smallest x), so every curve appears twice: ``anchor: mean``, estimate and truth each
minus their mean over the compared points (only the shape is compared), and ``anchor:
none``, as they are. Importances have ``anchor: none``. When the repetitions of a curve have
grids of the same length (a data-dependent grid has a different x per repetition), its
points are pooled by position, ``x`` being their mean; otherwise by x.

Claim kinds (parameters are typed, see :func:`imlbench.metrics.claims.claim_kind`):

``matches_truth``     the estimate equals the truth within k SE at every point
``closer_to_truth``   method A is closer to the truth than method ``than`` (paired over reps)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from imlbench.config import Study
from imlbench.explain.api import METHODS
from imlbench.metrics.claims import Tables, claim_kind, claim_row, combos, select_rows
from imlbench.params import choice, feature_names, number, study_name, with_defaults
from imlbench.stats import mean_and_se, t_multiplier

KEYS = ["scenario", "learner", "method"]
ANCHORS = ("mean", "none")
#: the columns of the long truth frame every truth table is turned into, and the defaults of
#: those a table may lack (``row`` -1: not a curve of one reference row; ``se`` 0: exact)
TRUTH_COLUMNS = ["estimand", "feature", "row", "x", "value", "se"]
TRUTH_DEFAULTS = {"row": -1, "se": 0.0}
REP_COLUMNS = [*KEYS, "rep", "feature", "x", "estimand", "anchor", "estimate", "truth",
               "truth_se", "error"]
COLUMNS = [*KEYS, "feature", "x", "estimand", "anchor", "truth", "truth_se", "mean", "bias",
           "se", "rmse", "reps"]


def _pfi_like(estimand: str) -> Callable[[Mapping], str | None]:
    """The truth importances are squared-loss differences of single features."""
    def of(p: Mapping) -> str | None:
        plain = (p.get("loss") == "squared" and p.get("contrast") == "difference"
                 and not p.get("groups"))
        return estimand if plain else None
    return of


def _sampler_pfi(p: Mapping) -> str | None:
    """PFI with a sampler: marginal with ``permutation``, else the conditional one."""
    return _pfi_like("pfi_marginal" if p["sampler"] == "permutation" else "pfi_conditional")(p)


def _ice(p: Mapping) -> str | None:
    """Plain ICE: of the reference rows, their true curves; of data rows, the mean is a PD."""
    if p["curve"] != "plain":
        return None
    return "ice" if p["rows"] == "reference" else "pd"


#: the truth estimand a registered method estimates, as a function of its parameters (every
#: default filled); None: not with these parameters
ESTIMANDS: dict[str, Callable[[Mapping], str | None]] = {
    "pdp": lambda p: "pd",
    "ice": _ice,
    "ale": lambda p: "ale",
    "stratpd": lambda p: "ale",  # its idealised PD is the ALE (Parr & Wilson eq. 1)
    "mplot": lambda p: "conditional",
    "pfi": _pfi_like("pfi_marginal"),
    "cpfi": _pfi_like("pfi_conditional"),
    "conditional_pfi": _sampler_pfi,
}


def _effects(t: pd.DataFrame) -> pd.DataFrame:
    return t.rename(columns={"kind": "estimand"})


def _curves(estimand: str | None = None) -> Callable[[pd.DataFrame], pd.DataFrame]:
    def of(t: pd.DataFrame) -> pd.DataFrame:
        return t.assign(**({"estimand": estimand} if estimand else {}))
    return of


def _importance(t: pd.DataFrame) -> pd.DataFrame:
    """Columns marginal and conditional (either may be absent), with their ``<name>_se``."""
    frames = [pd.DataFrame({"feature": t["feature"], "estimand": kind, "value": t[kind],
                            "se": t.get(f"{kind}_se", 0.0)})
              for kind in ("marginal", "conditional") if kind in t.columns]
    return _importances(pd.concat(frames, ignore_index=True))


def _importances(t: pd.DataFrame) -> pd.DataFrame:
    return t.assign(estimand="pfi_" + t["estimand"], x=np.nan)


#: the truth tables by name: the estimands they may hold, and how they become the long frame
TRUTH_TABLES: dict[str, tuple[tuple[str, ...], Callable[[pd.DataFrame], pd.DataFrame]]] = {
    "effects": (("pd", "conditional", "ale", "ice"), _effects),
    "effect_curves": (("pd", "conditional", "ale"), _curves()),
    "dgp_pd": (("pd",), _curves("pd")),
    "importance": (("pfi_marginal", "pfi_conditional"), _importance),
    "pfi_x1": (("pfi_marginal", "pfi_conditional"), _importances),
}


def estimand_of(study: Study, method: str) -> str | None:
    """The truth estimand of the study's method instance ``method`` (None: it has none)."""
    registered = study.methods[method]["method"]
    if registered not in ESTIMANDS:
        return None
    return ESTIMANDS[registered](with_defaults(METHODS.get(registered).params,
                                               study.method_params(method)))


def why_not_compared(study: Study, method: str, scenario: str, tables: Sequence[str]
                     ) -> str | None:
    """Why ``method`` has no truth errors in ``scenario``, whose truth tables are ``tables``
    (None: it is compared)."""
    registered = study.methods[method]["method"]
    if registered not in ESTIMANDS:
        return (f"method {method} ({registered}) is compared with no truth; compared: "
                f"{', '.join(ESTIMANDS)}")
    estimand = estimand_of(study, method)
    if estimand is None:
        return (f"method {method} ({registered}) estimates no truth estimand with its "
                f"parameters (PFI: loss squared, contrast difference, no groups; ICE: curve "
                f"plain)")
    if not any(estimand in TRUTH_TABLES[t][0] for t in tables if t in TRUTH_TABLES):
        return (f"scenario {scenario} has no truth of estimand {estimand} (truth tables: "
                f"{', '.join(tables) or 'none'})")
    return None


def long_truths(truths: Mapping[tuple[str, str], pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """Every truth table by (scenario, table name) as one long frame per scenario (columns
    :data:`TRUTH_COLUMNS`); tables of other names are left out."""
    frames: dict[str, list[pd.DataFrame]] = {}
    for (scenario, name), t in truths.items():
        if name in TRUTH_TABLES:
            long = TRUTH_TABLES[name][1](t)
            long = long.assign(**{c: v for c, v in TRUTH_DEFAULTS.items() if c not in long})
            frames.setdefault(scenario, []).append(long[TRUTH_COLUMNS])
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
    out = []
    for anchor in ANCHORS:
        e, t = (est - est.mean(), tv - tv.mean()) if anchor == "mean" else (est, tv)
        out += [{"x": xi, "anchor": anchor, "estimate": a, "truth": b, "truth_se": se}
                for xi, a, b, se in zip(x, e, t, tse, strict=True)]
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
        return out.assign(error=out["estimate"] - out["truth"])[REP_COLUMNS]
    by_row = bool((truth["row"] >= 0).any())
    if "row" in est.columns and not by_row:
        est = est.groupby([*KEYS, "rep", "feature", "x"], as_index=False, sort=False)[
            "value"].mean()
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
    return out.assign(error=out["estimate"] - out["truth"])[REP_COLUMNS]


def grid_points(df: pd.DataFrame, curve: list[str]) -> pd.Series:
    """The grid point of each row of the curves in ``df`` (the columns ``curve`` name one
    curve; rows sorted by curve, ``rep`` and ``x``): its position within its repetition when
    every repetition of the curve has as many points (a data-dependent grid has another x in
    each repetition), else its x."""
    position = df.groupby([*curve, "rep"], sort=False).cumcount().astype(float)
    lengths = df.groupby([*curve, "rep"], sort=False)["x"].transform("size")
    same = lengths.groupby([df[k] for k in curve], sort=False).transform("nunique") == 1
    return position.where(same, df["x"]).fillna(0.0)


def summarise_errors(reps: pd.DataFrame) -> pd.DataFrame:
    """Per point over the repetitions (columns :data:`COLUMNS`, see the module doc)."""
    if reps.empty:
        return pd.DataFrame(columns=COLUMNS)
    curve = [*KEYS, "estimand", "anchor", "feature"]
    df = reps.sort_values([*curve, "rep", "x"]).reset_index(drop=True)
    df["point"] = grid_points(df, curve)
    df["sq"] = df["error"] ** 2
    g = df.groupby([*curve, "point"], sort=False)
    out = g.agg(x=("x", "mean"), truth=("truth", "mean"), truth_se=("truth_se", "mean"),
                mean=("estimate", "mean"),
                bias=("error", "mean"), sd=("error", "std"), msq=("sq", "mean"),
                reps=("error", "size")).reset_index()
    out["se"] = out["sd"] / np.sqrt(out["reps"])
    out["rmse"] = np.sqrt(out["msq"])
    return out[COLUMNS]


# --- claim kinds --------------------------------------------------------------------------

#: parameters of both kinds: the features compared (default: all) and the anchoring of curves
SELECT = {"features": feature_names(), "anchor": choice("mean", ANCHORS)}
KINDS = ("matches_truth", "closer_to_truth")


def _select(table: pd.DataFrame, claim: dict, learner: str, method: str) -> pd.DataFrame:
    """The rows of a truth-error table a claim compares: its scenario, learner and method,
    features and anchoring (importances have none)."""
    if table.empty:
        return table
    r = select_rows(table, claim["where"]["scenario"], learner, method)
    if claim["features"]:
        r = r[r["feature"].isin(claim["features"])]
    return r[(r["anchor"] == claim["anchor"]) | r["x"].isna()]


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
    """The estimate equals the truth: at every selected (feature, x), |bias| <= k' SE + atol,
    SE = sqrt(se^2 + truth_se^2): se = sd of the error over the repetitions / sqrt(reps), and
    the truth's own Monte Carlo SE (0 for closed forms); k' is the Student-t quantile with
    reps - 1 degrees of freedom at the normal probability of k (:func:`imlbench.stats.
    t_multiplier`), as the SE is estimated from the repetitions. Needs two repetitions or more
    at every point."""
    k, atol = claim["k"], claim["atol"]
    rows = []
    for learner, method in combos(claim["where"]):
        r = _select(t.truth_errors, claim, learner, method)
        if r.empty:
            rows.append(claim_row(claim, learner, method, "", "", None,
                                  _missing(t.truth_errors, claim, learner, method)))
            continue
        if (r["reps"] < 2).any():
            rows.append(claim_row(claim, learner, method, "", "", None,
                                  f"an SE needs 2 repetitions or more; {r['reps'].min()} at "
                                  f"some point of {claim['where']['scenario']}/{learner}/"
                                  f"{method}"))
            continue
        se = np.sqrt(r["se"] ** 2 + r["truth_se"] ** 2)
        allowed = t_multiplier(k, r["reps"] - 1) * se + atol
        excess = r["bias"].abs() - allowed
        w = r.loc[excess.idxmax()]
        at = w["feature"] if np.isnan(w["x"]) else f"{w['feature']} x={w['x']:.3g}"
        rows.append(claim_row(
            claim, learner, method,
            f"largest |bias| relative to its tolerance: {abs(w['bias']):.4g} at {at} (SE "
            f"{se[excess.idxmax()]:.3g}, truth {w['truth']:.4g}); {len(r)} points, "
            f"{int(r['reps'].min())} reps, largest RMSE {r['rmse'].max():.4g}",
            f"|bias| <= t({k:g}) SE + {atol:g} at every point (t({k:g}): the t quantile at "
            f"Phi({k:g}), {int(r['reps'].min()) - 1} df), SE = sqrt((sd over reps)^2 / reps "
            f"+ truth SE^2)",
            bool((excess <= 0).all()),
        ))
    return rows


def _mse_by_rep(reps: pd.DataFrame) -> pd.Series:
    return (reps["error"] ** 2).groupby(reps["rep"]).mean()


@claim_kind("closer_to_truth", params={"than": study_name("methods"),
                                       "z": number(2.0, minimum=0), **SELECT})
def closer_to_truth(claim: dict, t: Tables) -> list[dict]:
    """The claim's method is closer to its truth than method ``than`` to its own, in RMSE over
    the selected points and repetitions, paired over the repetitions both have (the same data
    sets): d_r = MSE_r(method) - MSE_r(than), MSE_r the mean squared error of repetition r over
    the method's points; reproduced when mean(d) + z' SE(d) < 0, SE(d) = sd(d) / sqrt(reps),
    z' the Student-t quantile with reps - 1 degrees of freedom at the normal probability of z."""
    z, than = claim["z"], claim["than"]
    rows = []
    for learner, method in combos(claim["where"]):
        a = _select(t.truth_error_reps, claim, learner, method)
        b = _select(t.truth_error_reps, claim, learner, than)
        if a.empty or b.empty:
            rows.append(claim_row(claim, learner, method, "", "", None))
            continue
        mse_a, mse_b = _mse_by_rep(a), _mse_by_rep(b)
        d = (mse_a - mse_b).dropna()
        if len(d) < 2:
            rows.append(claim_row(claim, learner, method, "", "", None,
                                  f"a paired comparison needs 2 common repetitions or more; "
                                  f"{method} and {than} share {len(d)}"))
            continue
        se = mean_and_se(d)[1]
        rmse_a, rmse_b = np.sqrt(mse_a[d.index].mean()), np.sqrt(mse_b[d.index].mean())
        rows.append(claim_row(
            claim, learner, method,
            f"RMSE {method} {rmse_a:.4g} vs {than} {rmse_b:.4g} (mean MSE difference "
            f"{d.mean():.3g}, SE {se:.3g}, {len(d)} paired reps)",
            f"MSE difference + t({z:g}) SE < 0 (t({z:g}): the t quantile at Phi({z:g}), "
            f"{len(d) - 1} df), SE = sd of the paired differences / sqrt(reps)",
            bool(d.mean() + t_multiplier(z, len(d) - 1) * se < 0),
        ))
    return rows
