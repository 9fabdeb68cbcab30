"""The book's ch. 9 simulations ("PFI, LOCO and Correlated Features", Altmann, Sect. 9.2):
permutation importance and leave-one-covariate-out, both as ratios of test MSEs (Sect. 9.1),
of a forest, an SVM and a linear model over a sweep of the correlation rho of x1 and x2, with
the models' benchmark errors.

PFI, LOCO and the benchmark errors are the layer's ``pfi``, ``loco`` and ``model_fit``; the
ranks are the layer's (:mod:`imlbench.metrics.ranks`: per repetition, 1 = least important).
Claim kinds for what the layer's rank kinds do not say:

``s_sweep``       a statistic of the features ``features`` in one repetition, their mean
                  ``value`` (importance) or mean ``place`` (the book's rank, 1 = most
                  important: k + 1 - rank for k features), against the same statistic of
                  ``than_features`` (default the same) under ``than_learner`` (default the
                  claim's) in ``than_scenario`` (default the claim's): within one scenario the
                  repetitions share their data and split, so d = a - b per repetition, SE =
                  sd(d) / sqrt(R); across scenarios (another rho of the sweep; independent
                  data) d = mean(a) - mean(b), SE = sqrt(s_a^2 / R_a + s_b^2 / R_b). Without any
                  ``than_*`` the statistic itself. Tested against ``value`` by ``compare``
                  (``above``, ``below``; ``at_most`` / ``at_least``: not significantly above /
                  below; ``equal`` widened by ``atol``) with half-width t' SE, t' the Student-t
                  quantile at Phi(z) with R - 1 df (the smaller R across scenarios); ``z``
                  defaults to 3 for ``equal``, else 2
``s_fit_better``  the benchmark errors of ``model_fit`` (Figs 9.2, 9.16): the claim's learner
                  predicts better than each learner of ``than`` by ``metric`` (``mse_test``:
                  lower is better; ``r2_test``: higher), per repetition on the same split
                  d = error of the other - error of ours (or R^2 of ours - R^2 of the other),
                  mean(d) - t' SE > 0 for every learner of ``than``; or, with ``bound``
                  instead, the mean metric is on the good side of it (R^2 above, MSE below)
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.metrics.claims import (
    Check,
    NoData,
    Tables,
    claim_kind,
    claim_row,
    per_combo,
    select_rows,
)
from imlbench.metrics.rank_claims import Z_BY_EXPECT, default_z
from imlbench.params import choice, feature_name, items, number, study_name
from imlbench.stats import t_multiplier

#: the statistics ``s_sweep`` reads per repetition
SWEEP_STATISTICS = ("value", "place")
#: the comparisons of ``s_sweep`` (see :class:`imlbench.metrics.claims.Check`)
SWEEP_COMPARES = ("above", "below", "at_most", "at_least", "equal")
#: the benchmark metrics of ``s_fit_better`` and whether higher is better
FIT_METRICS = {"mse_test": False, "r2_test": True}


def per_rep(rows: pd.DataFrame, features: list[str], statistic: str) -> pd.Series | NoData:
    """Per repetition, the mean over ``features`` of the importance (``value``) or of the
    book's place (``place``: k + 1 - rank, 1 = most important) among the k features."""
    absent = [f for f in features if f not in set(rows["feature"])]
    if absent:
        return NoData(f"{', '.join(absent)} not among the features "
                      f"({', '.join(dict.fromkeys(rows['feature']))})")
    if statistic == "place":
        k = rows.groupby("rep")["feature"].transform("size")
        rows = rows.assign(value=k + 1 - rows["rank"])
    return rows[rows["feature"].isin(features)].groupby("rep")["value"].mean()


def _label(scenario: str, learner: str, method: str, features: list[str]) -> str:
    return f"{'/'.join(features)} in {scenario} ({learner}, {method})"


@claim_kind("s_sweep", params={
    "features": items(feature_name()), "statistic": choice("value", SWEEP_STATISTICS),
    "than_scenario": study_name("scenarios", None), "than_learner": study_name("learners", None),
    "than_features": items(feature_name(), None, nullable=True),
    "compare": choice("above", SWEEP_COMPARES), "value": number(0.0),
    "atol": number(0.0, minimum=0), **Z_BY_EXPECT})
def s_sweep(claim: dict, t: Tables) -> list[dict]:
    """The mean importance or place of ``features`` against another scenario, learner or
    feature set, or alone, tested against ``value`` (see the module doc)."""
    scenario, stat = claim["where"]["scenario"], claim["statistic"]
    compare, target, atol = claim["compare"], claim["value"], claim["atol"]
    z = default_z(claim, compare == "equal")
    other_scenario = claim["than_scenario"] or scenario
    compared = any(claim[k] is not None for k in ("than_scenario", "than_learner",
                                                   "than_features"))

    def one(claim: dict, rows: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        a = per_rep(rows, claim["features"], stat)
        if isinstance(a, NoData):
            return a
        what = f"mean {stat} of {_label(scenario, learner, method, claim['features'])}"
        if not compared:
            d, se, df = a.mean(), a.std(ddof=1) / np.sqrt(len(a)), len(a) - 1
            shown = f"{what}: {d:.4g} (SE {se:.3g}, {len(a)} reps)"
        else:
            other_learner = claim["than_learner"] or learner
            features = claim["than_features"] or claim["features"]
            r = select_rows(t.ranked, other_scenario, other_learner, method)
            if r.empty:
                return NoData(f"no importances of {other_scenario}/{other_learner}/{method}")
            b = per_rep(r, features, stat)
            if isinstance(b, NoData):
                return b
            if other_scenario == scenario:  # the same data and split per repetition
                diff = (a - b).dropna()
                d, se, df = diff.mean(), diff.std(ddof=1) / np.sqrt(len(diff)), len(diff) - 1
            else:
                d = a.mean() - b.mean()
                se = np.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
                df = min(len(a), len(b)) - 1
            shown = (f"{what}: {a.mean():.4g}; of "
                     f"{_label(other_scenario, other_learner, method, features)}: "
                     f"{b.mean():.4g}; difference {d:.4g} (SE {se:.3g}, "
                     f"{'paired' if other_scenario == scenario else 'independent'} reps)")
        if df < 1:
            return NoData(f"an SE needs 2 repetitions or more; {df + 1} here")
        tk = float(t_multiplier(z, df))
        sign = {"above": ">", "below": "<", "at_most": "not significantly >",
                "at_least": "not significantly <", "equal": "="}[compare]
        return claim_row(
            claim, learner, method, shown,
            f"{'difference' if compared else 'mean'} {sign} {target:g}"
            + (f" (+- {atol:g})" if compare == "equal" and atol else "")
            + f" with half-width t({z:g}) SE = {tk * se:.3g} (t: the t quantile at Phi({z:g}), "
            f"{df} df)",
            Check(float(d), tk * float(se), compare, target,
                  atol if compare == "equal" else 0.0, scale=float(abs(b.mean()) if compared
                                                             else abs(a.mean()))))

    return per_combo(claim, t, "ranked", one)


def _metric(t: Tables, scenario: str, learner: str, method: str, metric: str
            ) -> pd.Series | NoData:
    """The benchmark ``metric`` of one learner by repetition, or why there is none."""
    r = select_rows(t.other, scenario, learner, method) if not t.other.empty else t.other
    if r.empty or "metric" not in r:
        return NoData(f"no model_fit rows of {scenario}/{learner}/{method}")
    v = r[r["metric"] == metric].set_index("rep")["value"].dropna()
    return v if len(v) else NoData(f"no {metric} in {scenario}/{learner}/{method}")


@claim_kind("s_fit_better", params={
    "metric": choice("mse_test", tuple(FIT_METRICS)),
    "than": items(study_name("learners"), []), "bound": number(None, nullable=True),
    "z": number(2.0, minimum=0)})
def s_fit_better(claim: dict, t: Tables) -> list[dict]:
    """The claim's learner predicts better than each of ``than`` by ``metric``, or better than
    ``bound`` (see the module doc)."""
    metric, than, bound, z = claim["metric"], claim["than"], claim["bound"], claim["z"]
    if bool(than) == (bound is not None):
        raise ValueError(f"claim {claim['id']} (s_fit_better): give exactly one of than (a "
                         f"list of learners) and bound (a number); got than {than}, bound "
                         f"{bound}")
    higher = FIT_METRICS[metric]
    scenario = claim["where"]["scenario"]

    def one(claim: dict, rows: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        ours = _metric(t, scenario, learner, method, metric)
        if isinstance(ours, NoData):
            return ours
        if bound is not None:
            se, df = ours.std(ddof=1) / np.sqrt(len(ours)), len(ours) - 1
            if df < 1:
                return NoData(f"an SE needs 2 repetitions or more; {len(ours)} here")
            half = float(t_multiplier(z, df)) * se
            return claim_row(
                claim, learner, method,
                f"{metric} of {learner}: {ours.mean():.4g} (SE {se:.3g}, {len(ours)} reps, "
                f"from {ours.min():.4g} to {ours.max():.4g})",
                f"mean {'-' if higher else '+'} t({z:g}) SE {'>' if higher else '<'} "
                f"{bound:g} (half-width {half:.3g}, {df} df)",
                Check(float(ours.mean()), half, "above" if higher else "below", bound,
                      scale=bound))
        checks, parts = [], [f"{metric} of {learner}: {ours.mean():.4g}"]
        for other in than:
            theirs = _metric(t, scenario, other, method, metric)
            if isinstance(theirs, NoData):
                return theirs
            d = ((ours - theirs) if higher else (theirs - ours)).dropna()
            if len(d) < 2:
                return NoData(f"an SE needs 2 paired repetitions or more; {len(d)} here")
            se = d.std(ddof=1) / np.sqrt(len(d))
            half = float(t_multiplier(z, len(d) - 1)) * se
            checks.append(Check(float(d.mean()), half, "above", 0.0))
            parts.append(f"{other}: {theirs.mean():.4g} (advantage {d.mean():.3g}, SE "
                         f"{se:.3g})")
        return claim_row(
            claim, learner, method, "; ".join(parts),
            f"per learner of {', '.join(than)}: advantage - t({z:g}) SE > 0, paired over "
            f"the repetitions' splits",
            Check.joint(checks, scale=float(abs(ours.mean()))))

    return per_combo(claim, t, "other", one)
