"""Claim kinds of the data-fidelity experiment (Molnar et al., Sect. 8, Table 3, Fig. 9).

A claim pools every data set of a scenario family: ``family`` names it (the scenarios
``<family>_...``), ``where.scenario`` names one of them that runs in every profile (it only
decides whether the claim runs), ``where.learner`` / ``where.method`` the estimates.
The unit is a (data set, feature) pair with its repetitions averaged
(:mod:`imlbench.studies.conditional_subgroups.summaries`); standard errors are over those pairs.
Verdicts and power (margin + 2 half) per :class:`imlbench.metrics.claims.Check`; a test that a
difference is not significantly below 0 (ties pass) is its ``at_least``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.metrics.claims import NOT_REPRODUCED, Check, Tables, claim_kind, claim_row
from imlbench.params import integer, items, number, table, text
from imlbench.stats import mean_and_se
from imlbench.studies.conditional_subgroups.summaries import pair_mean_ranks, pair_means

#: the scenario family whose data sets a claim pools
FAMILY = {"family": text()}
#: labels of the samplers of the ``data_fidelity`` method
LABELS = items(text())
Z2 = {"z": number(2.0, minimum=0)}


def _estimates(claim: dict, t: Tables) -> pd.DataFrame:
    """The claim's fidelity rows of every data set of its family (empty if none ran)."""
    o, w, fam = t.other, claim["where"], claim["family"]
    if o.empty or "sampler" not in o:
        return pd.DataFrame()
    in_family = (o["scenario"] == fam) | o["scenario"].str.startswith(fam + "_")
    return o[in_family & (o["learner"] == w["learner"]) & (o["method"] == w["method"])]


def _rows(claim: dict, body: list[tuple[str, str, str, Check | None]]) -> list[dict]:
    """Scorecard rows (label, reproduced, tolerance, ok) on the whole family."""
    w = claim["where"]
    out = []
    for label, reproduced, tolerance, ok in body:
        row = claim_row(claim, w["learner"], f"{w['method']}:{label}", reproduced, tolerance, ok)
        row["scenario"] = f"{claim['family']} (all data sets)"
        out.append(row)
    return out


def _no_data(claim: dict) -> list[dict]:
    return _rows(claim, [("", "", "", None)])


@claim_kind("data_fidelity_rank", params={
    **FAMILY, "samplers": LABELS, "n_published": integer(minimum=1),
    "values": table(value=table({"mean": number(), "sd": number(minimum=0)})),
    "z": number(3.0, minimum=0)})
def data_fidelity_rank(claim: dict, t: Tables) -> list[dict]:
    """Table 3: each sampler's mean rank among ``samplers`` equals the published one.

    ``values`` maps a sampler to its published ``mean`` and ``sd`` over the paper's
    ``n_published`` (data set, feature) pairs. Reproduced if |ours - published| <= z SE with
    SE^2 = SE_ours^2 + SE_published^2, each the SD over pairs / sqrt(pairs); verdict and
    power (margin + 2 half) per :class:`imlbench.metrics.claims.Check`.
    """
    df = _estimates(claim, t)
    if df.empty:
        return _no_data(claim)
    z = claim["z"]
    ranks = pair_mean_ranks(df, claim["samplers"])
    body = []
    for s, pub in claim["values"].items():
        mean, se = mean_and_se(ranks[s])
        se_pub = pub["sd"] / np.sqrt(claim["n_published"])
        tol = z * float(np.hypot(se, se_pub))
        gap = abs(mean - pub["mean"])
        body.append((s, f"mean rank {mean:.2f} (SD {ranks[s].std(ddof=1):.2f} over "
                        f"{ranks[s].count()} pairs)",
                     f"abs gap {gap:.2f} <= {z:g} SE = {tol:.2f}",
                     Check(mean, tol, "equal", pub["mean"], scale=pub["mean"])))
    return _rows(claim, body)


def _differences(means: pd.DataFrame, pairs: list[tuple[str, str]]) -> dict:
    """Mean and SE over (data set, feature) pairs of fidelity(a) - fidelity(b)."""
    return {(a, b): mean_and_se(means[a] - means[b]) for a, b in pairs}


@claim_kind("data_fidelity_order", params={**FAMILY, "higher": LABELS, "lower": LABELS, **Z2})
def data_fidelity_order(claim: dict, t: Tables) -> list[dict]:
    """Every sampler of ``higher`` has a higher fidelity than every one of ``lower``:
    mean difference - z SE > 0 for each pair of samplers (z = 2 unless stated); verdict and
    power (2 half) per :class:`imlbench.metrics.claims.Check` over the pairs."""
    df = _estimates(claim, t)
    if df.empty:
        return _no_data(claim)
    z = claim["z"]
    pairs = [(a, b) for a in claim["higher"] for b in claim["lower"]]
    diffs = _differences(pair_means(df, [*claim["higher"], *claim["lower"]]), pairs)
    bound = {k: m - z * se for k, (m, se) in diffs.items()}
    worst = min(bound, key=bound.get)
    m, se = diffs[worst]
    means, ses = (np.array([d[k] for d in diffs.values()]) for k in (0, 1))
    return _rows(claim, [(
        f"{'/'.join(claim['higher'])} > {'/'.join(claim['lower'])}",
        f"smallest margin {worst[0]} - {worst[1]} = {m:.3f} (SE {se:.3f}); all: "
        + ", ".join(f"{a}-{b} {d[0]:.3f}" for (a, b), d in diffs.items()),
        f"difference - {z:g} SE > 0 for all {len(pairs)} pairs",
        Check(means, z * ses, "above", 0.0),
    )])


@claim_kind("data_fidelity_monotone", params={**FAMILY, "sequences": items(LABELS), **Z2})
def data_fidelity_monotone(claim: dict, t: Tables) -> list[dict]:
    """Fidelity grows along each list of ``sequences`` (samplers by increasing depth): no
    step falls significantly (mean + z SE >= 0) and the last beats the first (mean - z SE
    > 0); one row per sequence. Verdict and power (margin + 2 half) per
    :class:`imlbench.metrics.claims.Check`: a significant fall (``at_least`` 0) is not
    reproduced; else the row is last - first against 0, ``above`` (a straddle is
    ``inconclusive``)."""
    df = _estimates(claim, t)
    if df.empty:
        return _no_data(claim)
    z = claim["z"]
    body = []
    for seq in claim["sequences"]:
        means = pair_means(df, seq)
        steps = _differences(means, list(zip(seq[1:], seq[:-1], strict=True)))
        first, last = seq[0], seq[-1]
        m, se = _differences(means, [(last, first)])[(last, first)]
        step, step_se = (np.array([st[k] for st in steps.values()]) for k in (0, 1))
        fall = Check(step, z * step_se, "at_least", 0.0)
        check = fall if fall.verdict() == NOT_REPRODUCED else Check(m, z * se, "above", 0.0)
        body.append((
            " < ".join(seq),
            "steps " + ", ".join(f"{a}-{b} {d:.3f} (SE {e:.3f})" for (a, b), (d, e) in
                                 steps.items()) + f"; {last}-{first} {m:.3f} (SE {se:.3f})",
            f"each step + {z:g} SE >= 0 and last - first - {z:g} SE > 0", check,
        ))
    return _rows(claim, body)


@claim_kind("data_fidelity_share", params={
    **FAMILY, "baseline": text(), "min_share": number(minimum=0, maximum=1),
    "pairs": items(items(text(), length=2)), **Z2})
def data_fidelity_share(claim: dict, t: Tables) -> list[dict]:
    """A shallow tree keeps at least ``min_share`` of the deep tree's gain over ``baseline``:
    D = (shallow - baseline) - min_share (deep - baseline) per (data set, feature) pair,
    reproduced if mean(D) + z SE >= 0 (not significantly below the share) for every
    [shallow, deep] of ``pairs``: ``at_least`` 0 (ties and straddles pass), scaled by the
    mean gain of the deep tree."""
    df = _estimates(claim, t)
    if df.empty:
        return _no_data(claim)
    z = claim["z"]
    share, base = claim["min_share"], claim["baseline"]
    labels = sorted({s for p in claim["pairs"] for s in p} | {base})
    means = pair_means(df, labels)
    body = []
    for shallow, deep in claim["pairs"]:
        gain = means[deep] - means[base]
        m, se = mean_and_se((means[shallow] - means[base]) - share * gain)
        kept = (means[shallow] - means[base]).mean() / gain.mean()
        body.append((f"{shallow} vs {deep}",
                     f"share of the {deep} gain over {base} kept: {kept:.2f} "
                     f"(D = {m:.3f}, SE {se:.3f})",
                     f"D + {z:g} SE >= 0 at share {share:g}",
                     Check(m, z * se, "at_least", 0.0, scale=float(gain.mean()))))
    return _rows(claim, body)
