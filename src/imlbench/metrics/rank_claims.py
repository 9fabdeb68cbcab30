"""Generic claim kinds on importance ranks, for every study.

They read the ranked importance estimates (``Tables.ranked``: per repetition, each feature's
rank among the method's features, 1 = least important, ties sharing the mean position;
:mod:`imlbench.metrics.ranks`) of the claim's scenario, learner and method, and write the
tolerance into the scorecard row next to the verdict.

``ranks_match_theory``  every feature's mean rank over the R repetitions equals its rank
                        among the true importances (``truth``: the scenario's marginal or
                        conditional PFI; :func:`imlbench.metrics.ranks.truth_ranks`):
                        |mean - theory| <= z SE per feature, SE = max(sd over reps,
                        sqrt((k^2 - 1) / 12)) / sqrt(R), k the size of the feature's tie group
                        in the theory (ties make ranks vary even for an exact method)
``rank_order``          the features ``higher`` outrank the features ``lower``: per
                        repetition d = mean rank of ``higher`` - mean rank of ``lower``;
                        mean(d) - z SE > 0, SE = sd(d) / sqrt(R)
``rank_shift``          a feature's rank under the claim's method minus its rank under method
                        ``than``, per repetition, exceeds ``min_shift``: mean - t' SE >
                        min_shift, SE = sd / sqrt(R), t' the Student-t quantile with R - 1 df
                        at Phi(k); with one repetition the difference itself (exact)

Rows without data (no ranks of the scenario, learner and method) leave the reason to the
caller of :func:`imlbench.metrics.claims.evaluate`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.metrics.claims import NoData, Tables, claim_kind, claim_row, paired, per_combo
from imlbench.metrics.curve_claims import compared_row
from imlbench.metrics.ranks import truth_ranks
from imlbench.params import choice, feature_name, items, number, study_name
from imlbench.stats import mean_and_se


@claim_kind("ranks_match_theory", params={
    "z": number(3.0, minimum=0), "truth": choice("marginal", ("marginal", "conditional"))})
def ranks_match_theory(claim: dict, t: Tables) -> list[dict]:
    """Every feature's mean rank equals its theoretical rank: |mean - theory| <= z * SE.

    SE = max(sd over reps, sd of a rank spread uniformly over a tie group of size k,
    sqrt((k^2 - 1) / 12)) / sqrt(reps): ties make ranks vary even for an exact method.
    """
    z = claim["z"]
    theory = truth_ranks(t.truth[claim["where"]["scenario"]], f"pfi_{claim['truth']}")
    tie = theory.groupby(theory).transform("size")

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict:
        g = r.groupby("feature")["rank"].agg(["mean", "std", "count"])
        g["theory"] = theory
        g["floor"] = np.sqrt((tie**2 - 1) / 12.0)
        g["se"] = np.maximum(g["std"].fillna(0.0), g["floor"]) / np.sqrt(g["count"])
        g["dev"] = (g["mean"] - g["theory"]).abs()
        ok = bool((g["dev"] <= z * g["se"] + 1e-12).all())
        worst = g["dev"].idxmax()
        return claim_row(
            claim, learner, method,
            "mean ranks " + ", ".join(f"{f}:{m:.2f}" for f, m in g["mean"].items())
            + f" (largest gap {worst}: {g.loc[worst, 'dev']:.2f})",
            f"|gap| <= {z:g} SE per feature (largest allowed {z * g['se'].max():.2f})", ok,
        )

    return per_combo(claim, t, "ranked", one)


@claim_kind("rank_order", params={"z": number(2.0, minimum=0), "higher": items(feature_name()),
                                  "lower": items(feature_name())})
def rank_order(claim: dict, t: Tables) -> list[dict]:
    """Features ``higher`` outrank features ``lower``: mean(d) - z SE(d) > 0 over reps,
    d = mean rank of ``higher`` minus mean rank of ``lower`` in one repetition."""
    z = claim["z"]

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict:
        hi = r[r["feature"].isin(claim["higher"])].groupby("rep")["rank"].mean()
        lo = r[r["feature"].isin(claim["lower"])].groupby("rep")["rank"].mean()
        d = (hi - lo).dropna()
        se = mean_and_se(d)[1]
        return claim_row(
            claim, learner, method,
            f"mean rank {'/'.join(claim['higher'])} {hi.mean():.2f} vs "
            f"{'/'.join(claim['lower'])} {lo.mean():.2f} (difference {d.mean():.2f}, SE {se:.2f})",
            f"difference - {z:g} SE > 0 over {len(d)} reps", bool(d.mean() - z * se > 0),
        )

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
