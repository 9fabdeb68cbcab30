"""Importance ranks: per repetition, features ordered from least (1) to most important.

Hooker, Mentch & Zhou (2021), Sect. 3: ranks rather than values, "to ensure that
scaling does not affect our results"; ties share the average position.

The theoretical ranks (:func:`truth_ranks`) rank true importances, which are exact (closed
forms, ``se`` 0) or Monte Carlo estimates carrying their standard error ``se``
(:mod:`imlbench.truth`). Importances that are equal (features exchangeable by symmetry, or
equal by the coefficients and variances) come out of a Monte Carlo slightly different, and
ranking them as they come would break their tie by noise. So truths are tied when they are
equal within their Monte Carlo error (:func:`ranked_truth`):

    |a - b| <= TIE_Z (se_a + se_b)    or    |a - b| <= ROUNDING max(|a|, |b|)

with TIE_Z = 3. se_a + se_b bounds the standard deviation of a - b whatever the correlation
of the two estimates (|cov| <= se_a se_b); the estimates of one truth table share their
rows, so they are correlated, with a sign that depends on f. Two equal truths whose
estimates are asymptotically normal are therefore kept tied with probability at least
P(|N(0, 1)| <= 3) = 0.9973. The price is resolution: truths that differ by less than about
TIE_Z (se_a + se_b) are tied too, so such a tie says "equal or ordered by less than the Monte
Carlo resolves", unless the values are equal to rounding (``exact``: closed forms, and the
one pooled estimate of exchangeable features, :mod:`imlbench.truth.formula`). Ties chain in
increasing order of value: a feature tied with its lower neighbour joins that neighbour's tie
group. ROUNDING ties closed forms that differ by floating-point rounding only.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

KEYS = ["scenario", "learner", "method", "rep"]

#: truths within TIE_Z times the sum of their Monte Carlo standard errors are tied
TIE_Z = 3.0
#: truths whose difference is at most this share of the larger |value| are equal to rounding
ROUNDING = 1e-9


def add_ranks(est: pd.DataFrame) -> pd.DataFrame:
    """``est`` with a ``rank`` column: the average rank of ``value`` within each key group."""
    out = est.copy()
    out["rank"] = out.groupby(KEYS)["value"].rank(method="average")
    return out


def ranked_truth(truth: pd.DataFrame, estimand: str) -> pd.DataFrame:
    """The true importances ``estimand`` (e.g. ``pfi_marginal``) of one scenario's truth table
    (the one shape of :mod:`imlbench.explain.estimands`) by feature, in the table's order:
    ``value``, ``se`` (an unknown, NaN, SE counts as 0), ``group`` (the tie group, numbered
    from the least important; see the module doc for the rule), ``rank`` (the mean position of
    the feature's tie group, least important = 1) and ``exact`` (the tie group's values are
    equal to rounding, so its tie is not a matter of Monte Carlo error). A missing value has
    no rank."""
    rows = truth[truth["estimand"] == estimand]
    if rows["feature"].duplicated().any():
        raise ValueError(f"truth of estimand {estimand}: a feature appears twice (one "
                         f"scenario's truth at a time)")
    table = rows.set_index("feature")[["value", "se"]].astype(float)
    table["se"] = table["se"].fillna(0.0)
    s = table.dropna(subset=["value"]).sort_values("value", kind="stable")
    v, se = s["value"].to_numpy(), s["se"].to_numpy()
    gap = np.diff(v)
    tied = (gap <= TIE_Z * (se[1:] + se[:-1])) | (
        gap <= ROUNDING * np.maximum(np.abs(v[1:]), np.abs(v[:-1])))
    s["group"] = np.cumsum(np.concatenate([[True], ~tied])[:len(v)]) - 1
    s["rank"] = pd.Series(np.arange(1.0, len(v) + 1), index=s.index).groupby(
        s["group"]).transform("mean")
    by, size = s.groupby("group")["value"], s["value"].abs().groupby(s["group"])
    s["exact"] = by.transform("max") - by.transform("min") <= ROUNDING * size.transform("max")
    return table.join(s[["group", "rank", "exact"]])


def truth_ranks(truth: pd.DataFrame, estimand: str) -> pd.Series:
    """The theoretical ranks of the true importances ``estimand`` (e.g. ``pfi_marginal``) of
    one scenario's truth table, by feature: average ranks (ties share the mean position),
    least important = 1, truths equal within their Monte Carlo error tied (the rule of the
    module doc, :func:`ranked_truth`)."""
    return ranked_truth(truth, estimand)["rank"].rename("rank")


def unresolved_ties(ranked: pd.DataFrame) -> list[pd.DataFrame]:
    """The tie groups of :func:`ranked_truth` of two or more features whose values are not
    equal to rounding: tied by their Monte Carlo error alone, so that the truth does not say
    whether they are equal or in which order they rank; each the rows of its features."""
    groups = ranked.dropna(subset=["group"]).groupby("group", sort=True)
    return [g for _, g in groups if len(g) > 1 and not g["exact"].all()]


def describe_tie(group: pd.DataFrame) -> str:
    """``x1 2.003 (SE 0.0091), x2 1.997 (SE 0.0089)``: the features of a tie group with their
    true values and Monte Carlo standard errors."""
    return ", ".join(f"{f} {r.value:.6g} (SE {r.se:.2g})" for f, r in group.iterrows())


def mean_ranks(ranked: pd.DataFrame) -> pd.DataFrame:
    """Mean, standard deviation and count of each feature's rank over repetitions."""
    group = [c for c in ranked.columns if c.startswith("p_")] + ["scenario", "learner", "method"]
    return (
        ranked.groupby([*group, "feature"], sort=False)["rank"]
        .agg(mean_rank="mean", sd_rank="std", reps="count")
        .reset_index()
    )
