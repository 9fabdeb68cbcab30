"""Claim kinds of the bike-rental application (Molnar et al., conditional subgroups, Sect. 10).

They read the estimates of the methods of :mod:`.methods_bike` and, for Fig. 10, of
``conditional_subgroups.cs_pfi_depths`` (:mod:`.methods_depth`, asked for the median and its
quantiles), both in :mod:`imlbench.studies.conditional_subgroups`. Tolerances come from the
statistics the methods report:

- permutation importances: the SE of a median over R permutations, 1.2533 sd / sqrt(R), with
  sd estimated from the reported 5%-95% spread as (upper - lower) / (2 z_0.95) (normal
  quantiles); it is the Monte Carlo error of the permutations for the fitted model
  (:func:`imlbench.metrics.rank_claims.median_se`; Fig. 11's claims on the PFI and cs-PFI
  are the layer's ``top_importance`` and ``importance_versus`` there);
- Table 6: the SD of the two-fold predictability over repeated random fold splits (the
  estimator's split noise; the published number is one split, ours the mean of k);
- tree structure and split points: bootstrap refits of the subgroup tree (on the rows its
  method names), and trees of random training splits for the subgroups a claim reads;
- PDPs and cs-PDPs (Figs. 12, 13): the SE over the rows of the subgroup of the ICE curves the
  PDP averages (its slope, its level, its difference between levels is the mean of the rows'),
  sd over rows / sqrt(rows); the model is fixed, so this is the error of the PDP over the
  rows the paper averages over. The rows are the units of the kit's tests
  (:func:`imlbench.metrics.contrasts.compared`, :func:`imlbench.metrics.contrasts.difference`:
  t(k) SE, the t quantile at the normal level of ``k`` over the rows' degrees of freedom).

None is a ``contrast`` claim: the estimates are one run's (one fitted forest, one tree per
feature), so there are no repetitions; the PDP claims read subgroups by their rules and several
subgroups or levels at once, and their premise may make them ``inconclusive``.

Verdict and power (margin + 2 half) per :class:`imlbench.metrics.claims.Check`: an interval
of a one-sided test that straddles the bound is ``inconclusive``. The set of features a
subgroup tree splits on is decided by the share of resampled trees that split so
(:func:`split_features`); a claim about a subgroup that the trees of most random training
splits do not form is ``inconclusive`` (:func:`_unsettled`); a subgroup that does not exist
and the count of :func:`depth_tradeoff` are exact.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from imlbench.metrics.claims import (
    INCONCLUSIVE,
    REPRODUCED,
    Check,
    Tables,
    claim_kind,
    claim_row,
    select_rows,
)
from imlbench.metrics.contrasts import K, Sample, compared, difference, independent_se
from imlbench.metrics.rank_claims import median_se
from imlbench.metrics.statistics import ls_slopes
from imlbench.params import (
    REQUIRED,
    choice,
    either,
    feature_name,
    integer,
    items,
    number,
    study_name,
    table,
    text,
)
from imlbench.stats import t_multiplier


def _where(claim: dict) -> tuple[str, str, str]:
    w = claim["where"]
    return w["scenario"], w["learner"], w["method"]


def _other(claim: dict, t: Tables, method: str | None = None) -> pd.DataFrame:
    sc, learner, m = _where(claim)
    if t.other.empty:
        return t.other
    return select_rows(t.other, sc, learner, method or m)


def _sub(claim: dict, published: str) -> dict:
    """The claim for one of its rows (one feature, one split point): the same id, with the
    row's own published value."""
    return {**claim, "published": published}


def _missing(claim: dict, reason: str = "") -> dict:
    """The "no data" row of a claim; without a ``reason``, the scorecard names the missing file."""
    _, learner, m = _where(claim)
    return claim_row(claim, learner, m, "", "", None, reason)


@claim_kind("conditional_subgroups.predictability_table",
            params={"values": table(value=number()), **K})
def predictability_table(claim: dict, t: Tables) -> list[dict]:
    """Table 6: per feature of ``values`` (published %), ours = mean over n fold splits;
    |ours - published| <= t' sd sqrt(1 + 1/n), sd = SD of the two-fold estimate over the n
    splits (the published number is one split: a prediction interval for it), t' the t
    quantile of n - 1 degrees of freedom at the normal probability of ``k``
    (:func:`imlbench.stats.t_multiplier`: the sd is estimated from n values); verdict and power
    (margin + 2 half) per :class:`imlbench.metrics.claims.Check`.

    The kit's ``prediction`` test (:func:`imlbench.metrics.contrasts.prediction_check`) is this
    interval but takes the values of the n splits, and the method ``e5_predictability`` writes
    only their mean and sd."""
    k = claim["k"]
    _, learner, m = _where(claim)
    est = _other(claim, t)
    rows = []
    for feature, published in claim["values"].items():
        sub = _sub(claim, f"{feature}: {published}%")
        hit = est[est["feature"] == feature] if len(est) else est
        if hit.empty:
            rows.append(_missing(sub, f"{feature} is not in the data (the ISLP days cover one "
                                      "year, so yr is constant and dropped)" if len(est) else ""))
            continue
        r = hit.iloc[0]
        ours, sd, n = 100 * r["value"], 100 * r["sd"], int(r["n_splits"])
        tq = float(t_multiplier(k, n - 1)) if n > 1 else np.inf
        tol = tq * sd * np.sqrt(1 + 1 / n)
        rows.append(claim_row(sub, learner, m,
                         f"{ours:.1f}% (SD over {n} fold splits {sd:.1f} points)",
                         f"|gap| <= t' SD sqrt(1 + 1/n) = {tol:.1f} points (t' = {tq:.2f}: "
                         f"the t quantile at Phi({k:g}), {n - 1} df; split noise only; our "
                         "data are one year of days aggregated from hours)",
                         Check(ours, tol, "equal", published, scale=published)))
    return rows


def _splits(claim: dict, t: Tables) -> pd.DataFrame:
    est = _other(claim, t)
    return est[est["feature"] == claim["feature"]] if len(est) else est


def _boot_sets(splits: pd.DataFrame) -> tuple[list[frozenset], int]:
    """The set of split features of every bootstrap tree (a tree without splits: the empty
    set) and the number of bootstrap trees."""
    n_boot = int(splits["n_boot"].iloc[0])
    per_tree = splits[splits["boot"] >= 0].groupby("boot")["split_feature"].agg(frozenset)
    return [per_tree.get(b, frozenset()) for b in range(n_boot)], n_boot


def _share_check(hits: int, n: int, k: float) -> Check:
    """The share of bootstrap trees with a structure against one half, with its binomial
    interval (k SE, SE = sqrt(p (1 - p) / n)): most trees have it, or most lack it."""
    p = hits / n
    return Check(p, k * np.sqrt(p * (1 - p) / n), "above", 0.5, scale=1.0)


@claim_kind("conditional_subgroups.split_features",
            params={"feature": feature_name(), "expect": items(feature_name()),
                    "k": number(2.0, minimum=0)})
def split_features(claim: dict, t: Tables) -> list[dict]:
    """The subgroup tree of ``feature`` splits exactly on the features ``expect``: a statement
    about one fitted tree, which the paper draws from one split of its data. Ours is decided
    by the bootstrap trees of the splits method (``n_boot`` resamples of its rows): the share p
    that split on exactly this set against one half, with its binomial interval p +- k
    sqrt(p (1 - p) / n_boot) (k = 2): ``reproduced`` when most trees split so, ``not
    reproduced`` when most do not, ``inconclusive`` when the share straddles one half (the
    data do not settle the structure; one tree would show it or not by the draw of its rows).
    Verdict and power per :class:`imlbench.metrics.claims.Check`."""
    _, learner, m = _where(claim)
    est = _splits(claim, t)
    if est.empty:
        return [_missing(claim)]
    expect = frozenset(claim["expect"])
    fitted = set(est.loc[est["boot"] == -1, "split_feature"])
    sets, n_boot = _boot_sets(est)
    if not n_boot:
        return [_missing(claim, "no bootstrap trees (n_boot = 0): the share of trees with "
                                "this structure needs some")]
    same = sum(s == expect for s in sets)
    per_feature = est[est["boot"] >= 0].groupby("split_feature")["boot"].nunique()
    shares = ", ".join(f"{f} {k / n_boot:.0%}"
                       for f, k in per_feature.sort_values(ascending=False).items())
    return [claim_row(claim, learner, m,
                      f"{same / n_boot:.0%} of {n_boot} bootstrap trees split on exactly "
                      f"{', '.join(sorted(expect))} (on each feature: {shares}); the fitted "
                      f"tree splits on {', '.join(sorted(fitted)) or 'nothing'}",
                      f"share of bootstrap trees with exactly this set above 1/2 by "
                      f"{claim['k']:g} binomial SE",
                      _share_check(same, n_boot, claim["k"]))]


#: the subgroup-tree splits (``conditional_subgroups.subgroup_splits`` with bootstrap trees) that
#: tell whether the subgroups a claim is about are a stable feature of the data
#: (:func:`_unsettled`)
PREMISE = {"premise": study_name("methods", None)}


def _unsettled(claim: dict, t: Tables, matches: list[dict]) -> dict | None:
    """The ``inconclusive`` row of a claim about subgroups (``matches``: their conditions) that the
    data do not settle, or None. The claim reads the subgroups of one tree, fitted on the training
    rows of one random split; the ``premise`` method's resampled trees are trees of other random
    training splits (``conditional_subgroups.subgroup_splits`` with ``rows: all, resample: split``).
    When fewer than most of them split ``feature`` on every feature the conditions name (share p,
    lower bound p - 2 sqrt(p (1 - p) / n) not above 1/2), whether the claim's subgroup exists at all
    is the draw of the split, and so would be the verdict."""
    if claim["premise"] is None:
        return None
    sc, learner, m = _where(claim)
    other = t.other
    splits = other[(other["scenario"] == sc) & (other["method"] == claim["premise"])
                   & (other["feature"] == claim["feature"])] if len(other) else other
    if splits.empty:
        return None
    sets, n_boot = _boot_sets(splits)
    needed = frozenset(f for match in matches for f in match)
    hits = sum(needed <= s for s in sets)
    check = _share_check(hits, max(n_boot, 1), 2.0)
    if check.verdict() == REPRODUCED:
        return None
    row = claim_row(claim, learner, m,
                    f"{hits / max(n_boot, 1):.0%} of {n_boot} subgroup trees of "
                    f"{claim['feature']} on random training splits split on "
                    f"{', '.join(sorted(needed))}",
                    "evaluated when the trees of most training splits form the claim's "
                    "subgroups", None,
                    f"the subgroups the claim is about are not a stable feature of the data: "
                    f"the trees of {claim['feature']} on {hits} of {n_boot} random training "
                    f"splits split on {', '.join(sorted(needed))}, so whether the run's tree "
                    f"has them, and the verdict, is the draw of its split")
    return row | {"verdict": INCONCLUSIVE, "power": "none: the claim's subgroups are unsettled"}


@claim_kind("conditional_subgroups.split_points", params={
    "feature": feature_name(), "split_feature": feature_name(), "points": items(number()), **K})
def split_points(claim: dict, t: Tables) -> list[dict]:
    """Each published split point of ``feature``'s tree on ``split_feature`` (``points``):
    ours is the fitted tree's nearest threshold on that feature, within k bootstrap SDs (per
    bootstrap tree, its threshold nearest to ours); verdict and power (margin + 2 half) per
    :class:`imlbench.metrics.claims.Check`. No split on ``split_feature`` at all is exact."""
    k = claim["k"]
    _, learner, m = _where(claim)
    est = _splits(claim, t)
    if est.empty:
        return [_missing(claim)]
    on = est[est["split_feature"] == claim["split_feature"]]
    fitted = on.loc[on["boot"] == -1, "threshold"].to_numpy()
    rows = []
    for v in claim["points"]:
        sub = _sub(claim, f"{claim['split_feature']} split at {v:g}")
        if not len(fitted):
            rows.append(claim_row(sub, learner, m, f"no split on {claim['split_feature']}", "",
                             False))
            continue
        ours = float(fitted[np.argmin(np.abs(fitted - v))])
        near = on[on["boot"] >= 0].groupby("boot")["threshold"].agg(
            lambda c, o=ours: c.to_numpy()[np.argmin(np.abs(c.to_numpy() - o))])
        sd = float(near.std(ddof=1)) if len(near) > 1 else np.nan
        rows.append(claim_row(sub, learner, m,
                         f"{ours:.2f} (all: {', '.join(f'{x:.2f}' for x in sorted(fitted))}; "
                         f"bootstrap SD {sd:.2f} over {len(near)} trees)",
                         f"|gap| <= {k:g} bootstrap SD = {k * sd:.2f}",
                         Check(ours, k * sd, "equal", v, scale=v) if np.isfinite(sd) else None,
                         "" if np.isfinite(sd) else f"{len(near)} bootstrap trees: an SD needs 2"))
    return rows


def _matches(conditions: dict, match: dict) -> bool:
    """Whether a subgroup's conditions fit ``match``: a list = exactly these levels,
    ``above``/``below`` = a lower/upper bound only on that feature."""
    for feature, want in match.items():
        cond = conditions.get(feature)
        if cond is None:
            return False
        if isinstance(want, list):
            if sorted(cond.get("levels", [])) != sorted(want):
                return False
        elif want == "above" and not (cond.get("lo") is not None and cond.get("hi") is None):
            return False
        elif want == "below" and not (cond.get("hi") is not None and cond.get("lo") is None):
            return False
    return True


@claim_kind("conditional_subgroups.local_importance", params={
    "feature": feature_name(),
    "match": table(value=either(items(text()), choice(REQUIRED, ("above", "below")))),
    "expect": choice(REQUIRED, ("zero", "smallest")), **K, **PREMISE})
def local_importance(claim: dict, t: Tables) -> list[dict]:
    """Local cs-PFI of ``feature`` in the subgroups matching ``match``. ``expect: zero``: 0 lies
    within the subgroup's 5%-95% permutation range; ``expect: smallest``: its median is the
    smallest over the subgroups by more than k SE (:func:`median_se`: one run's medians over
    its permutations, with the SE of their quantile spread; the SE of the difference of two
    subgroups' medians by :func:`imlbench.metrics.contrasts.independent_se`). Verdict and power
    (margin + 2 half) per :class:`imlbench.metrics.claims.Check`: ``zero`` the range as
    midpoint +- half-width against 0, ``equal``; ``smallest`` the difference, ``above`` 0
    (scaled by the largest median over the subgroups). No matching subgroup is exact. With
    ``premise``, subgroups that most bootstrap trees do not form give ``inconclusive``
    (:func:`_unsettled`)."""
    k = claim["k"]
    _, learner, m = _where(claim)
    est = _other(claim, t)
    est = est[est["feature"] == claim["feature"]] if len(est) else est
    if est.empty:
        return [_missing(claim)]
    if (unsettled := _unsettled(claim, t, [claim["match"]])) is not None:
        return [unsettled]
    hit = est[[_matches(json.loads(c), claim["match"]) for c in est["conditions"]]]
    groups = "; ".join(f"{r.rule}: {r.value:.0f} [{r.lower:.0f}, {r.upper:.0f}]"
                       for r in est.itertuples())
    if hit.empty:
        return [claim_row(claim, learner, m, f"no subgroup matches {claim['match']} ({groups})", "",
                     False)]
    r = hit.loc[hit["value"].idxmin()]
    scale = float(est["value"].max())
    if claim["expect"] == "zero":
        check = Check((r["lower"] + r["upper"]) / 2, (r["upper"] - r["lower"]) / 2, "equal",
                      0.0, scale=scale)
        tol = "0 within the 5%-95% permutation range"
    else:
        others = est.drop(index=r.name)
        margin = others["value"].min() - r["value"]
        se = float(independent_se(median_se(r), median_se(others.loc[others["value"].idxmin()])))
        check = Check(margin, k * se, "above", 0.0, scale=scale)
        tol = f"next smallest minus it = {margin:.0f} > {k:g} SE = {k * se:.0f}"
    return [claim_row(claim, learner, m, f"{r['rule']}: {r['value']:.0f}; all groups: {groups}",
                 tol, check)]


@claim_kind("conditional_subgroups.depth_tradeoff", params={"depth": integer(2, minimum=1), **K})
def depth_tradeoff(claim: dict, t: Tables) -> list[dict]:
    """Fig. 10: of the features whose cs-PFI changes between depth 0 and the largest depth by
    more than k SE of the two medians (:func:`median_se`, combined by
    :func:`imlbench.metrics.contrasts.independent_se`), most change more from 0 to ``depth``
    (2) than after. A count (of point estimates, among the features the SE selects): its
    verdict is exact."""
    k = claim["k"]
    _, learner, m = _where(claim)
    est = _other(claim, t)
    if est.empty:
        return [_missing(claim)]
    d, top = claim["depth"], int(est["depth"].max())
    moving, early, lines = 0, 0, []
    for f, g in est.groupby("feature"):
        g = g.set_index("depth")
        first = g.loc[0, "value"] - g.loc[d, "value"]
        later = g.loc[d, "value"] - g.loc[top, "value"]
        if abs(first + later) > k * float(independent_se(median_se(g.loc[0]),
                                                         median_se(g.loc[top]))):
            moving += 1
            early += abs(first) >= abs(later)
            lines.append(f"{f} {first:+.0f}/{later:+.0f}")
    return [claim_row(claim, learner, m,
                 f"change 0->{d} / {d}->{top}: " + (", ".join(lines) or "none")
                 + f" ({early} of {moving} changing features change more by depth {d})",
                 f"features whose change 0->{top} exceeds {k:g} SE; more than half of them",
                 bool(moving and early > moving / 2))]


MATCH = {"match": table(value=either(items(text()), choice(REQUIRED, ("above", "below"))),
                        default={})}


def _ice_groups(claim: dict, t: Tables, match: dict) -> tuple[pd.DataFrame, list[str]]:
    """The ICE values of ``feature`` (``conditional_subgroups.cs_pdp_rules``, kind ice) in the
    subgroups matching ``match`` (empty: every subgroup), and the rules of all subgroups."""
    est = _other(claim, t)
    if est.empty or "kind" not in est:
        return pd.DataFrame(), []
    est = est[(est["feature"] == claim["feature"]) & (est["kind"] == "ice")]
    rules = list(dict.fromkeys(est["rule"]))
    hit = [c for c in dict.fromkeys(est["conditions"]) if _matches(json.loads(c), match)]
    return est[est["conditions"].isin(hit)], rules


def _ice_slopes(ice: pd.DataFrame, lo: float, hi: float) -> pd.Series:
    """Least-squares slope of each row's ICE curve over its grid values in [lo, hi] (rows
    with fewer than two such values left out)."""
    return ls_slopes(ice.pivot_table(index="row", columns="x", values="value"), lo, hi)


def _rows_few(n: int, what: str) -> str | None:
    """Why ``n`` rows give no SE of ``what`` over the rows, or None."""
    return None if n >= 2 else f"{what}: an SE over rows needs 2 rows; it has {n}"


@claim_kind("conditional_subgroups.pdp_slope", params={
    "feature": feature_name(), **MATCH, "range": items(number(), length=2),
    "expect": choice(REQUIRED, ("positive", "negative", "zero")), **K, **PREMISE})
def pdp_slope(claim: dict, t: Tables) -> list[dict]:
    """The least-squares slope of the (cs-)PDP of ``feature`` over its grid values in
    ``range``, in every subgroup matching ``match`` (empty: the PDP's one group), as the mean
    of the rows' ICE slopes, tested over the rows (:func:`imlbench.metrics.contrasts.compared`,
    SE = sd / sqrt(rows)): ``positive``: slope - t(k) SE > 0; ``negative``: slope + t(k) SE <
    0; ``zero``: |slope| <= t(k) SE; one joint :class:`imlbench.metrics.claims.Check` over the
    subgroups. No matching subgroup is exact; with ``premise``, subgroups that most bootstrap
    trees do not form give ``inconclusive`` (:func:`_unsettled`)."""
    k, expect = claim["k"], claim["expect"]
    compare = {"positive": "above", "negative": "below", "zero": "equal"}[expect]
    lo, hi = claim["range"]
    _, learner, m = _where(claim)
    ice, rules = _ice_groups(claim, t, claim["match"])
    if not rules:
        return [_missing(claim)]
    if (unsettled := _unsettled(claim, t, [claim["match"]])) is not None:
        return [unsettled]
    if ice.empty:
        return [claim_row(claim, learner, m, f"no subgroup matches {claim['match']} "
                          f"(subgroups: {'; '.join(rules)})", "", False)]
    parts, checks, tolerance = [], [], ""
    for rule, g in ice.groupby("rule"):
        s = _ice_slopes(g, lo, hi)
        if why := _rows_few(len(s), f"{rule}: ICE slopes with 2 grid values in [{lo:g}, {hi:g}]"):
            return [_missing(claim, why)]
        check, se, tolerance = compared(s, 0.0, k, 0.0, compare)
        checks.append(check)
        parts.append(f"{rule} (n = {len(s)}): {s.mean():.4g} (SE {se:.3g})")
    return [claim_row(claim, learner, m,
                      f"slope of the PDP of {claim['feature']} on [{lo:g}, {hi:g}]: "
                      + "; ".join(parts),
                      f"in every matching subgroup: {_over_rows(tolerance)}",
                      Check.joint(checks))]


def _over_rows(tolerance: str) -> str:
    """The tolerance text of :func:`imlbench.metrics.contrasts.compared` with rows, not
    repetitions, as its units."""
    return tolerance.replace("sd over reps / sqrt(reps)", "sd over rows / sqrt(rows)")


@claim_kind("conditional_subgroups.pdp_level_gap", params={
    "feature": feature_name(), "reference": number(), "levels": items(number()),
    "expect": choice(REQUIRED, ("above", "equal")), "value": number(0.0),
    "atol": number(0.0, minimum=0), **K})
def pdp_level_gap(claim: dict, t: Tables) -> list[dict]:
    """PDP of a categorical ``feature`` (one group; ICE values per row and level code): per
    level l of ``levels``, the rows' ICE at l minus at ``reference``, tested over the rows
    (:func:`imlbench.metrics.contrasts.compared`, SE_l = sd / sqrt(rows)): ``above``: d_l -
    t(k) SE_l > value for every l; ``equal``: |d_l - value| <= t(k) SE_l + atol for every l;
    one joint :class:`imlbench.metrics.claims.Check` over the levels."""
    k, expect, value, atol = claim["k"], claim["expect"], claim["value"], claim["atol"]
    _, learner, m = _where(claim)
    ice, rules = _ice_groups(claim, t, {})
    if ice.empty:
        return [_missing(claim)]
    wide = ice.pivot_table(index="row", columns="x", values="value")
    wanted = [claim["reference"], *claim["levels"]]
    absent = [f"{v:g}" for v in wanted if v not in wide.columns]
    if absent:
        return [_missing(claim, f"the ICE values of {claim['feature']} have no level "
                                f"{', '.join(absent)} (they have "
                                f"{', '.join(f'{v:g}' for v in wide.columns)})")]
    parts, checks, tolerance = [], [], ""
    for level in claim["levels"]:
        d = (wide[level] - wide[claim["reference"]]).dropna()
        check, se, tolerance = compared(d, value, k, atol, expect)
        checks.append(check)
        parts.append(f"{level:g}: {d.mean():.0f} (SE {se:.1f})")
    return [claim_row(claim, learner, m,
                      f"PDP of {claim['feature']} at each level minus at level "
                      f"{claim['reference']:g}: " + "; ".join(parts) + f" ({len(wide)} rows)",
                      f"for every level: {_over_rows(tolerance)}", Check.joint(checks))]


@claim_kind("conditional_subgroups.pdp_group_level", params={
    "feature": feature_name(), **MATCH, "than_match": MATCH["match"],
    "expect": choice(REQUIRED, ("below", "above")), **K, **PREMISE})
def pdp_group_level(claim: dict, t: Tables) -> list[dict]:
    """The mean level of the cs-PDP of ``feature`` in the subgroup matching ``match`` against
    that in the subgroup matching ``than_match``: per row the mean of its ICE values over the
    subgroup's grid; d = mean over the first group's rows - mean over the second's, the kit's
    ``difference`` test (:func:`imlbench.metrics.contrasts.difference`: different rows, SE =
    sqrt(SE_1^2 + SE_2^2)); ``below``: d + t(k) SE < 0, ``above``: d - t(k) SE > 0. Not
    exactly one subgroup per ``match`` is exact; with ``premise``, subgroups that most
    bootstrap trees do not form give ``inconclusive`` (:func:`_unsettled`)."""
    k, expect = claim["k"], claim["expect"]
    _, learner, m = _where(claim)
    groups = [_ice_groups(claim, t, claim[key]) for key in ("match", "than_match")]
    rules = groups[0][1]
    if not rules:
        return [_missing(claim)]
    if (unsettled := _unsettled(claim, t, [claim["match"], claim["than_match"]])) is not None:
        return [unsettled]
    if any(g.empty or g["rule"].nunique() != 1 for g, _ in groups):
        return [claim_row(claim, learner, m,
                          f"not exactly one subgroup matches each of {claim['match']} and "
                          f"{claim['than_match']} (subgroups: {'; '.join(rules)})", "", False)]
    names = [g["rule"].iloc[0] for g, _ in groups]
    levels = [Sample(g.groupby("row")["value"].mean(), f"mean cs-PDP level in {name}")
              for (g, _), name in zip(groups, names, strict=True)]
    for level, name in zip(levels, names, strict=True):
        if why := _rows_few(len(level.values), f"the mean ICE values of {name}"):
            return [_missing(claim, why)]
    judged = difference(*levels, names[1], 0.0, k=k, compare=expect)
    a, b = (v.values for v in levels)
    return [claim_row(claim, learner, m,
                      f"mean cs-PDP level of {claim['feature']}: {a.mean():.0f} in "
                      f"{names[0]} (n = {len(a)}) vs {b.mean():.0f} in {names[1]} "
                      f"(n = {len(b)}); difference {judged.check.estimate:.0f}",
                      _over_rows(judged.tolerance), judged.check)]
