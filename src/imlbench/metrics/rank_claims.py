"""Generic claim kinds on importance ranks, for every study.

They read the ranked importance estimates (``Tables.ranked``: per repetition, each feature's
rank among the method's features, 1 = least important, ties sharing the mean position;
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
                        quantile with R - 1 df at Phi(z)
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

Rows without data (no ranks of the scenario, learner and method) leave the reason to the
caller of :func:`imlbench.metrics.claims.evaluate`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.metrics.claims import Check, NoData, Tables, claim_kind, claim_row, paired, per_combo
from imlbench.metrics.curve_claims import compared_row
from imlbench.metrics.ranks import TIE_Z, describe_tie, ranked_truth, unresolved_ties
from imlbench.params import choice, feature_name, items, number, study_name
from imlbench.stats import mean_and_se, t_multiplier


@claim_kind("ranks_match_theory", params={
    "z": number(3.0, minimum=0), "truth": choice("marginal", ("marginal", "conditional"))})
def ranks_match_theory(claim: dict, t: Tables) -> list[dict]:
    """Every feature's mean rank equals its theoretical rank: |mean - theory| <= t' SE, t' the
    Student-t quantile with reps - 1 df at Phi(z) (the SE is estimated from the repetitions).

    SE = max(sd over reps, sd of a rank spread uniformly over a tie group of size k,
    sqrt((k^2 - 1) / 12)) / sqrt(reps): ties make ranks vary even for an exact method.
    A verdict that would rest on an unresolved tie of the truth (equal within Monte Carlo
    error, not to rounding) is not given: :class:`NoData` with :func:`unresolved_reason`.
    """
    z, estimand = claim["z"], f"pfi_{claim['truth']}"
    truth = ranked_truth(t.truth[claim["where"]["scenario"]], estimand)
    theory = truth["rank"]
    tie = truth.groupby("group")["rank"].transform("size")
    unresolved = unresolved_ties(truth)
    tied = [f for g in unresolved for f in g.index]

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        g = r.groupby("feature")["rank"].agg(["mean", "std", "count"])
        g["theory"] = theory
        g["floor"] = np.sqrt((tie**2 - 1) / 12.0)
        g["se"] = np.maximum(g["std"].fillna(0.0), g["floor"]) / np.sqrt(g["count"])
        g["dev"] = (g["mean"] - g["theory"]).abs()
        g["half"] = t_multiplier(z, g["count"] - 1) * g["se"]
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
            f"|gap| <= t({z:g}) SE per feature (t: the t quantile at Phi({z:g}), reps - 1 df; "
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


@claim_kind("rank_order", params={"z": number(2.0, minimum=0), "higher": items(feature_name()),
                                  "lower": items(feature_name())})
def rank_order(claim: dict, t: Tables) -> list[dict]:
    """Features ``higher`` outrank features ``lower``: mean(d) - t' SE(d) > 0 over reps,
    d = mean rank of ``higher`` minus mean rank of ``lower`` in one repetition, t' the
    Student-t quantile with reps - 1 df at Phi(z); verdict and
    power per :class:`imlbench.metrics.claims.Check` (relative to the number of features)."""
    z = claim["z"]

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict:
        hi = r[r["feature"].isin(claim["higher"])].groupby("rep")["rank"].mean()
        lo = r[r["feature"].isin(claim["lower"])].groupby("rep")["rank"].mean()
        d = (hi - lo).dropna()
        se = mean_and_se(d)[1]
        half = float(t_multiplier(z, len(d) - 1)) * se
        return claim_row(
            claim, learner, method,
            f"mean rank {'/'.join(claim['higher'])} {hi.mean():.2f} vs "
            f"{'/'.join(claim['lower'])} {lo.mean():.2f} (difference {d.mean():.2f}, SE {se:.2f})",
            f"difference - t({z:g}) SE > 0 over {len(d)} reps (t: the t quantile at Phi({z:g}), "
            f"{len(d) - 1} df)",
            Check(float(d.mean()), half, "above", 0.0, scale=float(r["feature"].nunique())),
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
