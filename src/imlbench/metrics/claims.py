"""Claims of a study turned into scorecard rows: claim, published, reproduced, verdict.

Each claim kind is a function ``(claim, tables) -> list[dict]`` over the ranked
importance estimates, the truths and the test results. Tolerances are Monte Carlo
standard errors over the repetitions, multiplied by the ``z`` the claim states
(default 3), and written into the row next to the verdict.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from imlbench.registry import Registry, import_modules


@dataclass
class Tables:
    """What the compare stage hands to the claims."""

    ranked: pd.DataFrame  # importance estimates with ranks
    truth: dict[str, pd.DataFrame]  # scenario -> importance truth
    other: pd.DataFrame  # non-importance estimates (tests, model-level truths, metrics)
    #: every truth table by (scenario, estimand), e.g. ("n300_scenariolinear_p10", "pfi_x1")
    truths: dict[tuple[str, str], pd.DataFrame] = field(default_factory=dict)
    #: interval coverage summarised from per-refit values (see metrics/refit_coverage.py)
    summary: pd.DataFrame = field(default_factory=pd.DataFrame)


Claim = Callable[[dict, Tables], list[dict]]
CLAIMS: Registry[Claim] = Registry("claim kind")

REPRODUCED, NOT_REPRODUCED, NO_DATA = "reproduced", "not reproduced", "no data"


def as_list(v) -> list:
    return [v] if isinstance(v, str) else list(v)


def mean_and_se(values: pd.Series) -> tuple[float, float]:
    """Mean of the non-missing ``values`` and its standard error (inf with fewer than two)."""
    v = values.dropna()
    se = float(v.std(ddof=1) / np.sqrt(len(v))) if len(v) > 1 else np.inf
    return float(v.mean()), se


def combos(where: dict) -> list[tuple[str, str]]:
    return [(lrn, m) for lrn in as_list(where["learner"]) for m in as_list(where["method"])]


def claim_row(claim: dict, learner: str, method: str, reproduced: str, tolerance: str,
         ok: bool | None) -> dict:
    verdict = NO_DATA if ok is None else (REPRODUCED if ok else NOT_REPRODUCED)
    return {
        "claim": claim["id"], "figure": claim.get("figure", ""), "text": claim["text"],
        "scenario": claim["where"]["scenario"], "learner": learner, "method": method,
        "published": claim["published"], "reproduced": reproduced, "tolerance": tolerance,
        "verdict": verdict,
    }


def select_rows(df: pd.DataFrame, scenario: str, learner: str, method: str) -> pd.DataFrame:
    return df[(df["scenario"] == scenario) & (df["learner"] == learner) & (df["method"] == method)]


@CLAIMS.register("ranks_match_theory")
def ranks_match_theory(claim: dict, t: Tables) -> list[dict]:
    """Every feature's mean rank equals its theoretical rank: |mean - theory| <= z * SE.

    SE = max(sd over reps, sd of a rank spread uniformly over a tie group of size k,
    sqrt((k^2 - 1) / 12)) / sqrt(reps): ties make ranks vary even for an exact method.
    """
    z = float(claim.get("z", 3.0))
    sc = claim["where"]["scenario"]
    truth = t.truth[sc].set_index("feature")
    col = f"rank_{claim.get('truth', 'marginal')}"
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


@CLAIMS.register("rank_order")
def rank_order(claim: dict, t: Tables) -> list[dict]:
    """Features ``higher`` outrank features ``lower``: mean(d) - z SE(d) > 0 over reps,
    d = mean rank of ``higher`` minus mean rank of ``lower`` in one repetition."""
    z = float(claim.get("z", 2.0))
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
        se = d.std(ddof=1) / np.sqrt(len(d)) if len(d) > 1 else np.inf
        ok = bool(d.mean() - z * se > 0)
        rows.append(claim_row(
            claim, learner, method,
            f"mean rank {'/'.join(claim['higher'])} {hi.mean():.2f} vs "
            f"{'/'.join(claim['lower'])} {lo.mean():.2f} (difference {d.mean():.2f}, SE {se:.2f})",
            f"difference - {z:g} SE > 0 over {len(d)} reps", ok,
        ))
    return rows


@CLAIMS.register("matches_model_theory")
def matches_model_theory(claim: dict, t: Tables) -> list[dict]:
    """Estimates equal a model-level theoretical value in expectation: per repetition the
    ratio sum_j estimate_j / sum_j theory_j, averaged over reps, is 1 within z SE over reps.
    (Summing over features keeps near-zero theory values, e.g. a null feature, from
    dominating the ratio.)"""
    z = float(claim.get("z", 3.0))
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
        se = ratio.std(ddof=1) / np.sqrt(len(ratio)) if len(ratio) > 1 else np.inf
        ok = bool(abs(ratio.mean() - 1.0) <= z * se)
        rows.append(claim_row(
            claim, learner, method,
            f"mean ratio estimate/theory {ratio.mean():.4f} (SE {se:.4f}, {len(ratio)} reps)",
            f"|ratio - 1| <= {z:g} SE = {z * se:.4f}", ok,
        ))
    return rows


@CLAIMS.register("rejection_rate")
def rejection_rate(claim: dict, t: Tables) -> list[dict]:
    """Rejection rate of a test near the level (``expect: nominal``, |rate - alpha| <= z SE)
    or above it (``expect: above``, rate - alpha > z SE), SE = sqrt(alpha (1 - alpha) / reps)."""
    z = float(claim.get("z", 3.0))
    alpha = float(claim.get("alpha", 0.05))
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


NOT_RUN = "not run in this profile"


def evaluate(claims: list[dict], tables: Tables, scenarios: set[str]) -> pd.DataFrame:
    """All claims of a study as scorecard rows; claims on scenarios outside the
    profile's ``scenarios`` get the verdict ``not run in this profile``."""
    rows = []
    for c in claims:
        if c["where"]["scenario"] in scenarios:
            rows.extend(CLAIMS.get(c["kind"])(c, tables))
        else:
            rows.append(claim_row(c, str(c["where"]["learner"]), str(c["where"]["method"]), "", "",
                             None) | {"verdict": NOT_RUN})
    cols = ["claim", "figure", "text", "scenario", "learner", "method", "published",
            "reproduced", "tolerance", "verdict"]
    return pd.DataFrame(rows, columns=cols)


# the study-specific claim modules (metrics/claims_*.py) register their kinds in CLAIMS
import_modules("imlbench.metrics", "claims_")
