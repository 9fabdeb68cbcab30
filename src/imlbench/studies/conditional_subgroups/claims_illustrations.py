"""Claim kinds of the illustrative figures of Molnar et al. (conditional subgroups, Figs. 1-5).

Each reads per-repetition metric estimates from ``tables.other`` and writes its tolerance
(z times a standard error from the statistics of one data set) into the row:

``pdp_exceeds_observed``  (Fig. 1) at every grid value above ``above`` the PDP exceeds the
                          largest observed prediction: PDP - max - z SE > 0, SE = SD of the
                          ICE values / sqrt(n) (method ``pdp_vs_predictions``).
``effect_slope``          (Figs. 2, 5) the least-squares slope of an effect curve is positive
                          (slope - z SE > 0), negative, or equal to ``value``
                          (|slope - value| <= z SE), for every subgroup; SE from bootstrap
                          resamples of the rows (method ``effect_slopes``).
``importance_change``     (Fig. 2) a sampler's PFI against a ``reference_method``'s, per
                          feature, over the M repeats of each (method ``pfi_repeats``):
                          ``lower``: d - z SE > 0 with d = reference mean - mean; ``equal``:
                          |d| <= z SE; SE = sqrt(s_ref^2 / M_ref + s^2 / M).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.metrics.claims import Tables, claim_kind, claim_row, combos, select_rows
from imlbench.params import REQUIRED, choice, feature_name, items, number, study_name

#: floor added to an equality tolerance: a curve that is exactly linear for every resample
#: has a bootstrap SE of 0 and its slope is still computed in floating point.
ROUNDING = 1e-9
EXPECTS = ("positive", "negative", "value")
#: the multiple of the SE; a claim that does not give it gets its kind's default for its
#: ``expect`` (2 for a one-sided test, 3 for an equality)
Z_BY_EXPECT = {"z": number(None, minimum=0, nullable=True)}


def _z(claim: dict, equality: bool) -> float:
    return claim["z"] if claim["z"] is not None else (3.0 if equality else 2.0)


def _feature_rows(claim: dict, t: Tables, learner: str, method: str) -> pd.DataFrame:
    r = select_rows(t.other, claim["where"]["scenario"], learner, method)
    return r[r["feature"] == claim["feature"]] if len(r) else r


@claim_kind("pdp_exceeds_observed", params={
    "feature": feature_name(), "above": number(), "z": number(2.0, minimum=0)})
def pdp_exceeds_observed(claim: dict, t: Tables) -> list[dict]:
    z = claim["z"]
    above = claim["above"]
    rows = []
    for learner, method in combos(claim["where"]):
        r = _feature_rows(claim, t, learner, method)
        r = r[r["x"] > above] if len(r) else r
        if r.empty:
            rows.append(claim_row(claim, learner, method, "", "", None))
            continue
        margin = r["value"] - r["pred_max"]
        ok = bool((margin - z * r["se"] > 0).all())
        worst = int(np.argmin((margin / r["se"]).to_numpy()))
        rows.append(claim_row(
            claim, learner, method,
            f"PDP minus largest prediction ({r['pred_max'].iloc[0]:.3f}) at {len(r)} grid "
            f"values {claim['feature']} > {above:g}: {margin.min():.3f} to {margin.max():.3f}; "
            f"weakest at {r['x'].iloc[worst]:.2f}: {margin.iloc[worst]:.3f} "
            f"(SE {r['se'].iloc[worst]:.3f})",
            f"PDP - max - {z:g} SE > 0 at every grid value", ok,
        ))
    return rows


@claim_kind("effect_slope", params={
    "feature": feature_name(), "expect": choice(REQUIRED, EXPECTS), "value": number(0.0),
    **Z_BY_EXPECT})
def effect_slope(claim: dict, t: Tables) -> list[dict]:
    expect = claim["expect"]
    z = _z(claim, expect == "value")
    target = claim["value"]
    rows = []
    for learner, method in combos(claim["where"]):
        r = _feature_rows(claim, t, learner, method)
        if r.empty:
            rows.append(claim_row(claim, learner, method, "", "", None))
            continue
        slope, se = r["slope"].to_numpy(), r["se"].to_numpy()
        if expect == "positive":
            ok, rule = slope - z * se > 0, f"slope - {z:g} SE > 0"
        elif expect == "negative":
            ok, rule = slope + z * se < 0, f"slope + {z:g} SE < 0"
        else:
            ok = np.abs(slope - target) <= z * se + ROUNDING
            rule = f"|slope - {target:g}| <= {z:g} SE (+{ROUNDING:g})"
        groups = "; ".join(
            (f"group {int(g)} (n = {int(n)}): " if len(r) > 1 else "") + f"{s:.4f} (SE {e:.4f})"
            for g, n, s, e in zip(r["group"], r["n"], slope, se, strict=True))
        rows.append(claim_row(claim, learner, method, f"slope of {claim['feature']}: {groups}",
                         f"{rule} for every curve; SE over {int(r['n_boot'].min())} bootstrap "
                         f"resamples", bool(ok.all())))
    return rows


@claim_kind("importance_change", params={
    "features": items(feature_name()), "reference_method": study_name("methods"),
    "expect": choice(REQUIRED, ("lower", "equal")), **Z_BY_EXPECT})
def importance_change(claim: dict, t: Tables) -> list[dict]:
    expect = claim["expect"]
    z = _z(claim, expect == "equal")
    sc = claim["where"]["scenario"]
    rows = []
    for learner, method in combos(claim["where"]):
        est = select_rows(t.other, sc, learner, method)
        ref = select_rows(t.other, sc, learner, claim["reference_method"])
        if est.empty or ref.empty:
            rows.append(claim_row(claim, learner, method, "", "", None))
            continue
        stats = {name: d[d["feature"].isin(claim["features"])]
                 .groupby("feature")["value"].agg(["mean", "var", "count"])
                 for name, d in (("est", est), ("ref", ref))}
        d = stats["ref"]["mean"] - stats["est"]["mean"]
        se = np.sqrt(stats["ref"]["var"] / stats["ref"]["count"]
                     + stats["est"]["var"] / stats["est"]["count"])
        ok = (d - z * se > 0) if expect == "lower" else (d.abs() <= z * se)
        rows.append(claim_row(
            claim, learner, method,
            "; ".join(f"{f}: {stats['ref'].loc[f, 'mean']:.3f} -> {stats['est'].loc[f, 'mean']:.3f}"
                      f" (difference {d[f]:.3f}, SE {se[f]:.3f})" for f in d.index),
            ("reference - estimate - " if expect == "lower" else "|reference - estimate| <= ")
            + f"{z:g} SE{' > 0' if expect == 'lower' else ''} per feature; SE over "
            f"{int(stats['est']['count'].min())} repeats each", bool(ok.all()) and len(d) > 0,
        ))
    return rows
