"""Claim kinds of Hooker, Mentch & Zhou (2021) on importance ranks and tests.

``ranks_match_theory``    mean ranks equal the truth's theoretical ranks (Theorem 1, Figs. 1-2)
``rank_order``            one set of features outranks another (Figs. 1, 2, 7)
``matches_model_theory``  importance equals a model-level theoretical value (Theorem 1)
``rejection_rate``        a test rejects at the nominal level, or above it (Fig. 8)
"""

from __future__ import annotations

import numpy as np

from imlbench.metrics.claims import Tables, claim_kind, claim_row, combos, select_rows
from imlbench.params import REQUIRED, choice, feature_name, items, number, study_name
from imlbench.stats import mean_and_se

Z3 = {"z": number(3.0, minimum=0)}
#: floor of the tolerance of ``matches_model_theory``: an estimate that equals its theory by
#: an algebraic identity (drop-and-refit of a least-squares fit) has an SE of 0 and differs
#: from it by floating-point rounding only
ROUNDING = 1e-9


@claim_kind("ranks_match_theory",
            params={**Z3, "truth": choice("marginal", ("marginal", "conditional"))})
def ranks_match_theory(claim: dict, t: Tables) -> list[dict]:
    """Every feature's mean rank equals its theoretical rank: |mean - theory| <= z * SE.

    SE = max(sd over reps, sd of a rank spread uniformly over a tie group of size k,
    sqrt((k^2 - 1) / 12)) / sqrt(reps): ties make ranks vary even for an exact method.
    """
    z = claim["z"]
    sc = claim["where"]["scenario"]
    truth = t.truth[sc].set_index("feature")
    col = f"rank_{claim['truth']}"
    tie = truth.groupby(col)[col].transform("size")
    rows = []
    for learner, method in combos(claim["where"]):
        r = select_rows(t.ranked, sc, learner, method)
        if r.empty:
            rows.append(claim_row(claim, learner, method, "", "", None))
            continue
        g = r.groupby("feature")["rank"].agg(["mean", "std", "count"])
        g["theory"] = truth[col]
        g["floor"] = np.sqrt((tie**2 - 1) / 12.0)
        g["se"] = np.maximum(g["std"].fillna(0.0), g["floor"]) / np.sqrt(g["count"])
        g["dev"] = (g["mean"] - g["theory"]).abs()
        ok = bool((g["dev"] <= z * g["se"] + 1e-12).all())
        worst = g["dev"].idxmax()
        rows.append(claim_row(
            claim, learner, method,
            "mean ranks " + ", ".join(f"{f}:{m:.2f}" for f, m in g["mean"].items())
            + f" (largest gap {worst}: {g.loc[worst, 'dev']:.2f})",
            f"|gap| <= {z:g} SE per feature (largest allowed {z * g['se'].max():.2f})", ok,
        ))
    return rows


@claim_kind("rank_order", params={"z": number(2.0, minimum=0), "higher": items(feature_name()),
                             "lower": items(feature_name())})
def rank_order(claim: dict, t: Tables) -> list[dict]:
    """Features ``higher`` outrank features ``lower``: mean(d) - z SE(d) > 0 over reps,
    d = mean rank of ``higher`` minus mean rank of ``lower`` in one repetition."""
    z = claim["z"]
    sc = claim["where"]["scenario"]
    rows = []
    for learner, method in combos(claim["where"]):
        r = select_rows(t.ranked, sc, learner, method)
        if r.empty:
            rows.append(claim_row(claim, learner, method, "", "", None))
            continue
        hi = r[r["feature"].isin(claim["higher"])].groupby("rep")["rank"].mean()
        lo = r[r["feature"].isin(claim["lower"])].groupby("rep")["rank"].mean()
        d = (hi - lo).dropna()
        se = mean_and_se(d)[1]
        ok = bool(d.mean() - z * se > 0)
        rows.append(claim_row(
            claim, learner, method,
            f"mean rank {'/'.join(claim['higher'])} {hi.mean():.2f} vs "
            f"{'/'.join(claim['lower'])} {lo.mean():.2f} (difference {d.mean():.2f}, SE {se:.2f})",
            f"difference - {z:g} SE > 0 over {len(d)} reps", ok,
        ))
    return rows


@claim_kind("matches_model_theory", params={**Z3, "theory_method": study_name("methods")})
def matches_model_theory(claim: dict, t: Tables) -> list[dict]:
    """Estimates equal a model-level theoretical value in expectation: per repetition the
    ratio sum_j estimate_j / sum_j theory_j, averaged over reps, is 1 within z SE over reps
    (plus :data:`ROUNDING`).
    (Summing over features keeps near-zero theory values, e.g. a null feature, from
    dominating the ratio.)"""
    z = claim["z"]
    sc = claim["where"]["scenario"]
    rows = []
    for learner, method in combos(claim["where"]):
        est = select_rows(t.ranked, sc, learner, method)
        theory = select_rows(t.other, sc, learner, claim["theory_method"])
        if est.empty or theory.empty:
            rows.append(claim_row(claim, learner, method, "", "", None))
            continue
        m = est.merge(theory[["rep", "feature", "value"]], on=["rep", "feature"],
                      suffixes=("", "_theory"))
        sums = m.groupby("rep")[["value", "value_theory"]].sum()
        ratio = sums["value"] / sums["value_theory"]
        se = mean_and_se(ratio)[1]
        ok = bool(abs(ratio.mean() - 1.0) <= z * se + ROUNDING)
        rows.append(claim_row(
            claim, learner, method,
            f"mean ratio estimate/theory {ratio.mean():.6g} (SE {se:.3g}, {len(ratio)} reps)",
            f"|ratio - 1| <= {z:g} SE + {ROUNDING:g} = {z * se + ROUNDING:.3g}", ok,
        ))
    return rows


@claim_kind("rejection_rate", params={**Z3, "alpha": number(0.05, minimum=0, maximum=1),
                                 "expect": choice(REQUIRED, ("nominal", "above"))})
def rejection_rate(claim: dict, t: Tables) -> list[dict]:
    """Rejection rate of a test near the level (``expect: nominal``, |rate - alpha| <= z SE)
    or above it (``expect: above``, rate - alpha > z SE), SE = sqrt(alpha (1 - alpha) / reps)."""
    z = claim["z"]
    alpha = claim["alpha"]
    sc = claim["where"]["scenario"]
    rows = []
    for learner, method in combos(claim["where"]):
        r = select_rows(t.other, sc, learner, method)
        if r.empty:
            rows.append(claim_row(claim, learner, method, "", "", None))
            continue
        rate = r["reject"].mean()
        se = np.sqrt(alpha * (1 - alpha) / len(r))
        ok = abs(rate - alpha) <= z * se if claim["expect"] == "nominal" else rate - alpha > z * se
        rows.append(claim_row(
            claim, learner, method, f"rejection rate {rate:.3f} over {len(r)} reps",
            f"{'|rate - alpha|' if claim['expect'] == 'nominal' else 'rate - alpha'} vs "
            f"{z:g} SE = {z * se:.3f}", bool(ok),
        ))
    return rows
