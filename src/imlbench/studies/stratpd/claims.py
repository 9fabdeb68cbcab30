"""The StratPD study's claim kind: run-to-run spread of a curve between two scenarios."""

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
from imlbench.params import feature_name, integer, number, text
from imlbench.stats import t_multiplier


def _spread(curves: pd.DataFrame, grid: np.ndarray) -> tuple[float, float, int]:
    """The mean over ``grid`` of the sd over repetitions of the curves (each interpolated
    linearly onto the grid, which lies inside every curve's range), its approximate SE
    (sd / sqrt(2 (R - 1)), the normal-theory SE of an sd) and R."""
    values = np.array([np.interp(grid, c["x"], c["value"])
                       for _, c in curves.sort_values("x").groupby("rep")])
    sd = values.std(axis=0, ddof=1).mean()
    return float(sd), float(sd / np.sqrt(2 * (len(values) - 1))), len(values)


@claim_kind("spread_above", params={"feature": feature_name(), "than_scenario": text(),
                                    "points": integer(41, minimum=2),
                                    "k": number(2.0, minimum=0)})
def spread_above(claim: dict, t: Tables) -> list[dict]:
    """The curves of the claim's scenario vary more from run to run than those of
    ``than_scenario`` (same learner and method): s = the sd over repetitions at each of
    ``points`` equidistant x (the range every repetition of both covers), averaged over x;
    holds when s - s_than > t' sqrt(SE^2 + SE_than^2), SE = s / sqrt(2 (R - 1)), t' the
    Student-t quantile with min(R) - 1 df at Phi(k)."""

    def both_scenarios(claim: dict, t: Tables, learner: str, method: str
                       ) -> list[pd.DataFrame] | NoData:
        """The curves of the claim's scenario and of ``than_scenario`` (means per repetition
        and x), or why they give no spread."""
        o = t.other
        parts = []
        for sc in (claim["where"]["scenario"], claim["than_scenario"]):
            r = pd.DataFrame() if o.empty else select_rows(o, sc, learner, method)
            r = r[r["feature"] == claim["feature"]] if len(r) else r
            parts.append(r.groupby(["rep", "x"], as_index=False)["value"].mean()
                         if len(r) else r)
        if any(p.empty for p in parts) or min(p["rep"].nunique() for p in parts) < 3:
            return NoData(f"a spread needs 3 repetitions or more of {claim['feature']} in both "
                          f"{claim['where']['scenario']} and {claim['than_scenario']} "
                          f"({learner}/{method})")
        return parts

    def one(claim: dict, parts: list[pd.DataFrame], learner: str, method: str) -> dict:
        lo = max(p.groupby("rep")["x"].min().max() for p in parts)
        hi = min(p.groupby("rep")["x"].max().min() for p in parts)
        grid = np.linspace(lo, hi, claim["points"])
        (s, se, n), (s0, se0, n0) = (_spread(p, grid) for p in parts)
        tk = float(t_multiplier(claim["k"], min(n, n0) - 1))
        allowed = tk * np.hypot(se, se0)
        return claim_row(
            claim, learner, method,
            f"run-to-run sd of {claim['feature']} on [{lo:.3g}, {hi:.3g}]: {s:.3g} (SE "
            f"{se:.2g}, {n} reps) vs {s0:.3g} (SE {se0:.2g}, {n0} reps) in "
            f"{claim['than_scenario']}",
            f"difference > t({claim['k']:g}) sqrt(SE^2 + SE_than^2) = {allowed:.3g} (t: the t "
            f"quantile at Phi({claim['k']:g}), {min(n, n0) - 1} df; SE of an sd: sd / "
            f"sqrt(2 (reps - 1)))", Check(s - s0, allowed, "above", 0.0, scale=s0))

    return per_combo(claim, t, both_scenarios, one)
