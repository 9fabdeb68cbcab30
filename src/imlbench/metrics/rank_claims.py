"""Generic claim kinds on importance ranks and values, for every study.

The rank kinds read the ranked importance estimates (``Tables.ranked``: per repetition, each
feature's rank among the method's features, 1 = least important, ties sharing the mean position;
:mod:`imlbench.metrics.ranks`) of the claim's scenario, learner and method, and write the
tolerance into the scorecard row next to the verdict.

``ranks_match_theory``  every feature's mean rank over the R repetitions equals its rank
                        among the true importances (``truth``: the scenario's marginal or
                        conditional PFI; :func:`imlbench.metrics.ranks.truth_ranks`):
                        |mean - theory| <= t' SE per feature, SE = max(sd over reps,
                        sqrt((k^2 - 1) / 12)) / sqrt(R), k the size of the feature's tie group
                        in the theory (ties make ranks vary even for an exact method); no
                        verdict when it would rest on a tie within Monte Carlo error (below)
``rank_order``          the features ``higher`` outrank the features ``lower``: per
                        repetition d = mean rank of ``higher`` - mean rank of ``lower``;
                        mean(d) - t' SE > 0, SE = sd(d) / sqrt(R), t' the Student-t
                        quantile with R - 1 df at Phi(k)
``importance_order``    features ordered by their importance values (not their ranks): per pair
                        (a, b) and repetition d = value_a - value_b, mean(d) - t' SE > 0 for
                        every pair, SE = sd(d) / sqrt(R), t' the Student-t quantile with R - 1
                        df at Phi(k). The pairs: the consecutive ones of the chain ``order``
                        (most important first), with ``position: top`` also (last of
                        ``order``, g) for every other feature g (they are the most important),
                        with ``bottom`` (g, first of ``order``) (the least important); and
                        every (a of ``above``, b of ``below``)
``importance_contrast``  the mean importance (``statistic: value``) or mean place (``place``:
                        the book's rank, 1 = most important, k + 1 - rank of k features) of
                        ``features`` in one repetition, against the same of ``than_features``
                        (default the same) under ``than_learner`` (default the claim's) in
                        ``than_scenario`` (default the claim's): within one scenario the
                        repetitions share their data and split, d = a - b per repetition, SE =
                        sd(d) / sqrt(R); across scenarios (independent data, e.g. another value
                        of a sweep) d = mean(a) - mean(b), SE = sqrt(s_a^2 / R_a + s_b^2 /
                        R_b). Without any ``than_*`` the statistic itself. Tested against
                        ``value`` by ``compare`` (``above``, ``below``; ``at_most`` /
                        ``at_least``: not significantly above / below; ``equal`` widened by
                        ``atol``) with half-width t' SE, t' the Student-t quantile at Phi(k)
                        with R - 1 df (the smaller R across scenarios); ``k`` defaults to 3
                        for ``equal``, else 2
``rank_shift``          a feature's rank under the claim's method minus its rank under method
                        ``than``, per repetition, exceeds ``min_shift``: mean - t' SE >
                        min_shift, SE = sd / sqrt(R), t' the Student-t quantile with R - 1 df
                        at Phi(k); with one repetition the difference itself (exact)

The theory ties truths equal within their Monte Carlo error (|a - b| <= 3 (se_a + se_b),
:mod:`imlbench.metrics.ranks`), so noise does not order them. Such a tie is exact when the
values are equal to rounding (closed forms; exchangeable features of a formula DGP, which share
one estimate); otherwise it is *unresolved*: the features may be equal or ordered by less than
the Monte Carlo resolves, and their theoretical ranks are unknown within the tie group's
positions. ``ranks_match_theory`` then gives ``not reproduced`` when a feature outside the
unresolved ties misses its rank (whatever their order, those ranks do not change) and otherwise
a row without a verdict whose reason names the claim, the tied features and their true values
with SEs. ``rank_order`` and ``rank_shift`` do not read the truth: they claim an order of the
method's estimates, which may break a tie of the truth on purpose (Hooker et al.: x1, x2 above
x3-x5 at rho = 0.9, all five of equal true importance), and are scored whatever the truth.

The importance kinds compare the values themselves, with the Monte Carlo error of the
importance estimator for the fitted model (its permutations; Molnar et al., conditional
subgroups, Sect. 10 and Fig. 2, whose claims they were written for):

``top_importance``     the features ``top`` (those in the data) are the most important,
                       their permutation ranges separated from the rest's: per pair (i of
                       ``top``, j of the rest) the difference of the ranges' midpoints +- the
                       sum of their half-widths (lower end lower_i - upper_j) above 0;
                       overlapping ranges are ``inconclusive``, a range of ``top`` wholly
                       below one of the rest ``not reproduced`` (separated ranges order the
                       medians, which lie within them)
``importance_versus``  a feature's median importance under the claim's method against that
                       under method ``baseline``: ``expect: lower``: baseline - method > t' SE;
                       ``expect: equal``: |difference| <= t' SE; SE = sqrt(SE_1^2 + SE_2^2) of
                       the two medians (:func:`median_se`)
``importance_change``  per feature of ``features``, the mean importance under the claim's
                       method against that under ``reference_method``, over the rows of each
                       (``table: other``: the M permutation repeats of one data set;
                       ``ranked``: the repetitions): ``lower``: d - t' SE > 0, d = reference
                       mean - mean; ``equal``: |d| <= t' SE; SE = sqrt(s_ref^2 / M_ref + s^2 / M)

The first two read one row per feature of the ranked table: the median over a run's
permutations (``value``) with the quantile spread :func:`imlbench.explain.cs_pfi.quantile_spread`
reports (``lower``, ``upper`` at ``lower_q``, ``upper_q``; ``n_repeats``; ``split_on``, the
features a cs-PFI's subgroups split on, is printed when present). ``digits`` sets the
decimals of the printed importances. Verdict and power (margin + 2 half) per
:class:`imlbench.metrics.claims.Check`.

Rows without data (no ranks of the scenario, learner and method) leave the reason to the
caller of :func:`imlbench.metrics.claims.evaluate`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.special import ndtri

from imlbench.metrics.claims import (
    Check,
    NoData,
    Tables,
    claim_kind,
    claim_row,
    default_k,
    paired,
    per_combo,
    select_rows,
)
from imlbench.metrics.contrasts import independent_se
from imlbench.metrics.curve_claims import compared_row
from imlbench.metrics.ranks import TIE_Z, describe_tie, ranked_truth, unresolved_ties
from imlbench.params import (
    REQUIRED,
    choice,
    feature_name,
    integer,
    items,
    number,
    study_name,
    text,
)
from imlbench.stats import mean_and_se, t_multiplier


@claim_kind("ranks_match_theory", params={
    "k": number(3.0, minimum=0), "truth": choice("marginal", ("marginal", "conditional"))})
def ranks_match_theory(claim: dict, t: Tables) -> list[dict]:
    """Every feature's mean rank equals its theoretical rank: |mean - theory| <= t' SE, t' the
    Student-t quantile with reps - 1 df at Phi(k) (the SE is estimated from the repetitions).

    SE = max(sd over reps, sd of a rank spread uniformly over a tie group of size k,
    sqrt((k^2 - 1) / 12)) / sqrt(reps): ties make ranks vary even for an exact method.
    A verdict that would rest on an unresolved tie of the truth (equal within Monte Carlo
    error, not to rounding) is not given: :class:`NoData` with :func:`unresolved_reason`.
    """
    k, estimand = claim["k"], f"pfi_{claim['truth']}"
    scenario = claim["where"]["scenario"]

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        if scenario not in t.truth:
            return NoData(f"no importance truth of scenario {scenario}")
        truth = ranked_truth(t.truth[scenario], estimand)
        theory = truth["rank"]
        tie = truth.groupby("group")["rank"].transform("size")
        unresolved = unresolved_ties(truth)
        tied = [f for g in unresolved for f in g.index]
        g = r.groupby("feature")["rank"].agg(["mean", "std", "count"])
        g["theory"] = theory
        g["floor"] = np.sqrt((tie**2 - 1) / 12.0)
        g["se"] = np.maximum(g["std"].fillna(0.0), g["floor"]) / np.sqrt(g["count"])
        g["dev"] = (g["mean"] - g["theory"]).abs()
        g["half"] = t_multiplier(k, g["count"] - 1) * g["se"]
        each = g["dev"] <= g["half"] + 1e-12
        if unresolved and each.drop(tied, errors="ignore").all():
            return NoData(unresolved_reason(claim, estimand, unresolved))
        check = Check(g["mean"].to_numpy(float), g["half"].to_numpy(float), "equal",
                      g["theory"].to_numpy(float), 1e-12, scale=float(len(g)))
        worst = g["dev"].idxmax()
        return claim_row(
            claim, learner, method,
            "mean ranks " + ", ".join(f"{f}:{m:.2f}" for f, m in g["mean"].items())
            + f" (largest gap {worst}: {g.loc[worst, 'dev']:.2f})",
            f"|gap| <= t({k:g}) SE per feature (t: the t quantile at Phi({k:g}), reps - 1 df; "
            f"largest allowed {g['half'].max():.2f})", check,
        )

    return per_combo(claim, t, "ranked", one)


def unresolved_reason(claim: dict, estimand: str, unresolved: list[pd.DataFrame]) -> str:
    """Why a claim on the theoretical ranks has no verdict: the claim, and the tie groups of
    its truth ``estimand`` that only the Monte Carlo error ties, with their values and SEs."""
    groups = "; ".join(describe_tie(g) for g in unresolved)
    return (f"claim {claim['id']}: the true {estimand} of {groups} are equal within their "
            f"Monte Carlo error (|difference| <= {TIE_Z:g} (SE_a + SE_b)) but not to "
            f"rounding, so the truth does not say whether they tie or in which order they "
            f"rank; every other feature matches its theoretical rank and the verdict would "
            f"rest on that order (a longer Monte Carlo or a closed form would decide it)")


@claim_kind("rank_order", params={"k": number(2.0, minimum=0), "higher": items(feature_name()),
                                  "lower": items(feature_name())})
def rank_order(claim: dict, t: Tables) -> list[dict]:
    """Features ``higher`` outrank features ``lower``: mean(d) - t' SE(d) > 0 over reps,
    d = mean rank of ``higher`` minus mean rank of ``lower`` in one repetition, t' the
    Student-t quantile with reps - 1 df at Phi(k); verdict and
    power per :class:`imlbench.metrics.claims.Check` (relative to the number of features)."""
    k = claim["k"]

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict:
        hi = r[r["feature"].isin(claim["higher"])].groupby("rep")["rank"].mean()
        lo = r[r["feature"].isin(claim["lower"])].groupby("rep")["rank"].mean()
        d = (hi - lo).dropna()
        se = mean_and_se(d)[1]
        half = float(t_multiplier(k, len(d) - 1)) * se
        return claim_row(
            claim, learner, method,
            f"mean rank {'/'.join(claim['higher'])} {hi.mean():.2f} vs "
            f"{'/'.join(claim['lower'])} {lo.mean():.2f} (difference {d.mean():.2f}, SE {se:.2f})",
            f"difference - t({k:g}) SE > 0 over {len(d)} reps (t: the t quantile at Phi({k:g}), "
            f"{len(d) - 1} df)",
            Check(float(d.mean()), half, "above", 0.0, scale=float(r["feature"].nunique())),
        )

    return per_combo(claim, t, "ranked", one)


def by_repetition(rows: pd.DataFrame) -> pd.DataFrame:
    """Importance values as a table: one row per repetition, one column per feature."""
    return rows.pivot_table(index="rep", columns="feature", values="value", aggfunc="first")


def order_pairs(order: list[str], position: str, features: list[str], above: list[str] = (),
                below: list[str] = ()) -> list[tuple[str, str]]:
    """The (more, less important) pairs ``importance_order`` tests (see the module doc)."""
    pairs = list(zip(order[:-1], order[1:], strict=False))
    rest = [f for f in features if f not in order]
    if order and position == "top":
        pairs += [(order[-1], g) for g in rest]
    elif order and position == "bottom":
        pairs += [(g, order[0]) for g in rest]
    return pairs + [(a, b) for a in above for b in below]


@claim_kind("importance_order", params={
    "order": items(feature_name(), []), "position": choice("any", ("any", "top", "bottom")),
    "above": items(feature_name(), []), "below": items(feature_name(), []),
    "k": number(2.0, minimum=0)})
def importance_order(claim: dict, t: Tables) -> list[dict]:
    """Features are ordered by importance: every pair of :func:`order_pairs` by mean(d) - t' SE
    > 0 over the repetitions (see the module doc)."""
    k, order, position = claim["k"], claim["order"], claim["position"]
    named = [*order, *claim["above"], *claim["below"]]

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        v = by_repetition(r)
        absent = [f for f in named if f not in v]
        if absent:
            return NoData(f"{', '.join(absent)} not among the features ({', '.join(v)})")
        pairs = order_pairs(order, position, list(v), claim["above"], claim["below"])
        if not pairs:
            return NoData(f"claim {claim['id']}: nothing to compare (give two features in "
                          f"order, one with position top or bottom, or above and below)")
        d = pd.DataFrame({f"{a}>{b}": v[a] - v[b] for a, b in pairs}).dropna()
        if len(d) < 2:
            return NoData(f"an SE needs 2 repetitions or more; {len(d)} here")
        mean, se = d.mean(), d.std(ddof=1) / np.sqrt(len(d))
        half = float(t_multiplier(k, len(d) - 1)) * se
        worst = (mean - half).idxmin()
        means = v.mean().sort_values(ascending=False)
        return claim_row(
            claim, learner, method,
            "mean importances " + ", ".join(f"{f} {m:.3f}" for f, m in means.items())
            + f"; weakest pair {worst.replace('>', ' > ')}: difference {mean[worst]:.3f} "
            f"(SE {se[worst]:.3f})",
            f"per pair difference - t({k:g}) SE > 0, {len(pairs)} pair(s), {len(d)} reps "
            f"(t: the t quantile at Phi({k:g}), {len(d) - 1} df)",
            Check(mean.to_numpy(float), half.to_numpy(float), "above", 0.0,
                  scale=float(means.iloc[0])))

    return per_combo(claim, t, "ranked", one)


@claim_kind("rank_shift", params={"feature": feature_name(), "than": study_name("methods"),
                                  "min_shift": number(0.0), "k": number(2.0, minimum=0)})
def rank_shift(claim: dict, t: Tables) -> list[dict]:
    """The rank of ``feature`` (1 = least important) under the claim's method minus its rank
    under method ``than``, per repetition, exceeds ``min_shift`` (see the module doc)."""
    f, than, shift = claim["feature"], claim["than"], claim["min_shift"]

    def one(claim: dict, rr: tuple[pd.DataFrame, pd.DataFrame], learner: str, method: str
            ) -> dict | NoData:
        ranks = [r[r["feature"] == f].set_index("rep")["rank"] for r in rr]
        d = (ranks[0] - ranks[1]).dropna()
        if d.empty:
            return NoData()
        if len(d) >= 2:
            return compared_row(claim, learner, method, d,
                                f"rank of {f} under {method} minus under {than}",
                                value=shift, compare="above")
        return claim_row(
            claim, learner, method,
            f"rank of {f}: {ranks[0].iloc[0]:g} under {method}, {ranks[1].iloc[0]:g} under "
            f"{than} (difference {d.iloc[0]:g}; 1 repetition)",
            f"difference > {shift:g} (one repetition: exact, no SE)", bool(d.iloc[0] > shift))

    return per_combo(claim, t, paired("ranked", "than"), one)


#: the multiple of the SE of a kind whose claims test one side or equality; a claim that does
#: not give it gets the default for its test (:func:`imlbench.metrics.claims.default_k`)
K_BY_EXPECT = {"k": number(None, minimum=0, nullable=True)}


#: the statistics ``importance_contrast`` reads per repetition
SWEEP_STATISTICS = ("value", "place")
#: the comparisons of ``importance_contrast`` (see :class:`imlbench.metrics.claims.Check`)
SWEEP_COMPARES = ("above", "below", "at_most", "at_least", "equal")
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


@claim_kind("importance_contrast", params={
    "features": items(feature_name()), "statistic": choice("value", SWEEP_STATISTICS),
    "than_scenario": study_name("scenarios", None), "than_learner": study_name("learners", None),
    "than_features": items(feature_name(), None, nullable=True),
    "compare": choice("above", SWEEP_COMPARES), "value": number(0.0),
    "atol": number(0.0, minimum=0), **K_BY_EXPECT})
def importance_contrast(claim: dict, t: Tables) -> list[dict]:
    """The mean importance or place of ``features`` against another scenario, learner or
    feature set, or alone, tested against ``value`` (see the module doc)."""
    scenario, stat = claim["where"]["scenario"], claim["statistic"]
    compare, target, atol = claim["compare"], claim["value"], claim["atol"]
    k = default_k(claim, compare == "equal")
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
                se = independent_se(mean_and_se(a)[1], mean_and_se(b)[1])
                df = min(len(a), len(b)) - 1
            shown = (f"{what}: {a.mean():.4g}; of "
                     f"{_label(other_scenario, other_learner, method, features)}: "
                     f"{b.mean():.4g}; difference {d:.4g} (SE {se:.3g}, "
                     f"{'paired' if other_scenario == scenario else 'independent'} reps)")
        if df < 1:
            return NoData(f"an SE needs 2 repetitions or more; {df + 1} here")
        tk = float(t_multiplier(k, df))
        sign = {"above": ">", "below": "<", "at_most": "not significantly >",
                "at_least": "not significantly <", "equal": "="}[compare]
        return claim_row(
            claim, learner, method, shown,
            f"{'difference' if compared else 'mean'} {sign} {target:g}"
            + (f" (+- {atol:g})" if compare == "equal" and atol else "")
            + f" with half-width t({k:g}) SE = {tk * se:.3g} (t: the t quantile at Phi({k:g}), "
            f"{df} df)",
            Check(float(d), tk * float(se), compare, target,
                  atol if compare == "equal" else 0.0, scale=float(abs(b.mean()) if compared
                                                             else abs(a.mean()))))

    return per_combo(claim, t, "ranked", one)


#: SE of a sample median relative to sd / sqrt(R) under normality (sqrt(pi / 2))
MEDIAN_SE = float(np.sqrt(np.pi / 2))
#: decimals of the importances a row's ``reproduced`` prints
DIGITS = {"digits": integer(0, minimum=0)}


def median_se(row: pd.Series) -> float:
    """SE of a reported median over ``n_repeats`` permutations, from its quantile spread
    (``lower``, ``upper`` at the levels ``lower_q``, ``upper_q``;
    :func:`imlbench.explain.cs_pfi.quantile_spread`): sd estimated as (upper - lower) /
    (z_upper_q - z_lower_q) (normal quantiles), times sqrt(pi / 2) / sqrt(n_repeats)."""
    z = ndtri(row["upper_q"]) - ndtri(row["lower_q"])
    return MEDIAN_SE * (row["upper"] - row["lower"]) / z / np.sqrt(row["n_repeats"])


def _spread_rows(rows: pd.DataFrame, method: str) -> pd.DataFrame | NoData:
    """The rows of one method's importances by feature: one row per feature (the median and
    quantile spread of one repetition's permutations), or why not."""
    if rows["feature"].duplicated().any():
        return NoData(f"{method} has several rows per feature (repetitions); the kind reads the "
                      "median and quantile spread of one run's permutations")
    return rows.set_index("feature")


@claim_kind("top_importance", params={"top": items(feature_name()), **DIGITS})
def top_importance(claim: dict, t: Tables) -> list[dict]:
    """The features ``top`` (those in the data) are the most important by median importance,
    separated from the rest (see the module doc); a feature of ``top`` the data lack is named
    in the row, not checked."""
    dg = claim["digits"]

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        est = _spread_rows(r, method)
        if isinstance(est, NoData):
            return est
        top = [f for f in claim["top"] if f in est.index]
        absent = [f for f in claim["top"] if f not in est.index]
        note = f"; {', '.join(absent)} not in the data, not checkable" if absent else ""
        if not top:
            return NoData("none of the features is in the data" + note)
        order = est["value"].sort_values(ascending=False)
        rest = est.drop(index=top)
        if rest.empty:
            return NoData("every feature of the data is in top: nothing to be above")
        gap = est.loc[top, "lower"].min() - rest["upper"].max()
        mid, half = (est["lower"] + est["upper"]) / 2, (est["upper"] - est["lower"]) / 2
        i = [a for a in top for _ in rest.index]  # every pair (i of top, j of the rest)
        j = [b for _ in top for b in rest.index]
        check = Check(mid.loc[i].to_numpy(float) - mid.loc[j].to_numpy(float),
                      half.loc[i].to_numpy(float) + half.loc[j].to_numpy(float), "above", 0.0,
                      scale=float(est.loc[top, "value"].min()))
        return claim_row(
            claim, learner, method,
            "order by median: " + ", ".join(f"{f} {v:.{dg}f}" for f, v in order.items()) + note,
            f"min 5% quantile of {'/'.join(top)} minus max 95% quantile of the rest = "
            f"{gap:.{dg}f} > 0", check)

    return per_combo(claim, t, "ranked", one)


@claim_kind("importance_versus", params={
    "feature": feature_name(), "baseline": study_name("methods"),
    "expect": choice(REQUIRED, ("lower", "equal")), "k": number(3.0, minimum=0),
    "why_absent": text(""), **DIGITS})
def importance_versus(claim: dict, t: Tables) -> list[dict]:
    """For ``feature``: the method's median importance against the ``baseline`` method's
    (see the module doc); ``why_absent`` says why the data may lack the feature (the reason of
    the row without data)."""
    k, f, dg, base_name = claim["k"], claim["feature"], claim["digits"], claim["baseline"]

    def one(claim: dict, rr: tuple[pd.DataFrame, pd.DataFrame], learner: str, method: str
            ) -> dict | NoData:
        est, base = (_spread_rows(r, m) for r, m in zip(rr, (method, base_name), strict=True))
        if isinstance(est, NoData) or isinstance(base, NoData):
            return est if isinstance(est, NoData) else base
        if f not in est.index:
            return NoData(f"{f} is not in the data"
                          + (f" ({claim['why_absent']})" if claim["why_absent"] else ""))
        a, b = est.loc[f], base.loc[f]
        d, se = b["value"] - a["value"], float(independent_se(median_se(a), median_se(b)))
        df = int(min(a["n_repeats"], b["n_repeats"])) - 1
        tk = float(t_multiplier(k, df))
        check = Check(d, tk * se, "above" if claim["expect"] == "lower" else "equal", 0.0,
                      scale=float(b["value"]))
        split = f", subgroups split on {a['split_on']}" if a.get("split_on") else ""
        return claim_row(
            claim, learner, method,
            f"{f}: {base_name} {b['value']:.{dg}f} [{b['lower']:.{dg}f}, {b['upper']:.{dg}f}]"
            f", {method} {a['value']:.{dg}f} [{a['lower']:.{dg}f}, {a['upper']:.{dg}f}]{split}",
            f"difference {d:.{dg}f} {'>' if claim['expect'] == 'lower' else 'within +-'} "
            f"t({k:g}) SE = {tk * se:.{dg}f} (t({k:g}) = {tk:.3g}: the t quantile at Phi({k:g}), "
            f"{df} df; permutation error of the medians)", check)

    return per_combo(claim, t, paired("ranked", "baseline"), one)


@claim_kind("importance_change", params={
    "features": items(feature_name()), "reference_method": study_name("methods"),
    "expect": choice(REQUIRED, ("lower", "equal")), **K_BY_EXPECT,
    "table": choice("other", ("other", "ranked")), "digits": integer(3, minimum=0)})
def importance_change(claim: dict, t: Tables) -> list[dict]:
    """A method's importance of each of ``features`` against the ``reference_method``'s, over
    the rows of each (see the module doc); ``k`` defaults to 2 for ``lower``, 3 for
    ``equal``."""
    expect, dg = claim["expect"], claim["digits"]
    k = default_k(claim, expect == "equal")
    over = "repeats" if claim["table"] == "other" else "repetitions"

    def one(claim: dict, pair: tuple[pd.DataFrame, pd.DataFrame], learner: str, method: str
            ) -> dict | NoData:
        stats = {name: d[d["feature"].isin(claim["features"])]
                 .groupby("feature")["value"].agg(["mean", "var", "count"])
                 for name, d in zip(("est", "ref"), pair, strict=True)}
        ref, est = (stats[side]["mean"] for side in ("ref", "est"))
        d = ref - est
        if d.empty:
            return NoData(f"neither {method} nor {claim['reference_method']} has an estimate "
                          f"of {', '.join(claim['features'])}")
        se = independent_se(*(np.sqrt(stats[side]["var"] / stats[side]["count"])
                              for side in ("ref", "est")))
        df = (pd.concat([stats[side]["count"] for side in ("ref", "est")], axis=1).min(axis=1)
              - 1).reindex(d.index)
        tk = t_multiplier(k, df.to_numpy(float))
        # a feature one of the two lacks, or with one row, has no SE: inconclusive
        check = Check(d.to_numpy(float), tk * se.to_numpy(float),
                      "above" if expect == "lower" else "equal", 0.0,
                      scale=float(ref.abs().max()))
        return claim_row(
            claim, learner, method,
            "; ".join(f"{f}: {ref.get(f, np.nan):.{dg}f} -> "
                      f"{est.get(f, np.nan):.{dg}f} (difference {d[f]:.{dg}f}, "
                      f"SE {se[f]:.{dg}f})" for f in d.index),
            ("reference - estimate - " if expect == "lower" else "|reference - estimate| <= ")
            + f"t({k:g}) SE{' > 0' if expect == 'lower' else ''} per feature (t: the t quantile "
            f"at Phi({k:g}) with the {over} - 1 df); SE over "
            f"{int(stats['est']['count'].min())} {over} each", check,
        )

    return per_combo(claim, t, paired(claim["table"], "reference_method"), one)
