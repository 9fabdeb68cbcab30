"""Importance ranks: per repetition, features ordered from least (1) to most important.

Hooker, Mentch & Zhou (2021), Sect. 3: ranks rather than values, "to ensure that
scaling does not affect our results"; ties share the average position.
"""

from __future__ import annotations

import pandas as pd

KEYS = ["scenario", "learner", "method", "rep"]


def add_ranks(est: pd.DataFrame) -> pd.DataFrame:
    """``est`` with a ``rank`` column: the average rank of ``value`` within each key group."""
    out = est.copy()
    out["rank"] = out.groupby(KEYS)["value"].rank(method="average")
    return out


def truth_ranks(truth: pd.DataFrame, estimand: str) -> pd.Series:
    """The theoretical ranks of the true importances ``estimand`` (e.g. ``pfi_marginal``) of
    one scenario's truth table (the one shape of :mod:`imlbench.explain.estimands`), by
    feature: average ranks (ties share the mean position), least important = 1."""
    rows = truth[truth["estimand"] == estimand]
    if rows["feature"].duplicated().any():
        raise ValueError(f"truth of estimand {estimand}: a feature appears twice (one "
                         f"scenario's truth at a time)")
    return rows.set_index("feature")["value"].rank(method="average").rename("rank")


def mean_ranks(ranked: pd.DataFrame) -> pd.DataFrame:
    """Mean, standard deviation and count of each feature's rank over repetitions."""
    group = [c for c in ranked.columns if c.startswith("p_")] + ["scenario", "learner", "method"]
    return (
        ranked.groupby([*group, "feature"], sort=False)["rank"]
        .agg(mean_rank="mean", sd_rank="std", reps="count")
        .reset_index()
    )
