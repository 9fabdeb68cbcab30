"""Claim kinds of the data-fidelity experiment (Molnar et al., Sect. 8, Table 3, Fig. 9).

A claim pools every data set of a scenario family: ``family`` names it (the scenarios
``<family>_...``), ``where.scenario`` names one of them that runs in every profile (it only
decides whether the claim runs), ``where.learner`` / ``where.method`` the estimates.
The unit is a (data set, feature) pair with its repetitions averaged
(:mod:`imlbench.studies.conditional_subgroups.summaries`); standard errors are over those pairs,
and a difference of two samplers is paired over them: the kit's
:func:`imlbench.metrics.contrasts.compared` (t(k) SE, the t quantile at the normal level of
``k`` over the pairs' degrees of freedom). Verdicts and power (margin + 2 half) per
:class:`imlbench.metrics.claims.Check`; a test that a difference is not significantly below 0
(ties pass) is its ``at_least``.

None is a ``contrast`` claim: a claim pools the data sets of a family of scenarios (a cell is
one scenario), and holds for every pair of samplers at once or for a published table.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from imlbench.metrics.claims import NOT_REPRODUCED, Check, Tables, claim_kind, claim_row
from imlbench.metrics.contrasts import compared, independent_se
from imlbench.params import integer, items, number, table, text
from imlbench.stats import mean_and_se
from imlbench.studies.conditional_subgroups.summaries import pair_mean_ranks, pair_means

#: the scenario family whose data sets a claim pools
FAMILY = {"family": text()}
#: labels of the samplers of the ``conditional_subgroups.data_fidelity`` method
LABELS = items(text())
K2 = {"k": number(2.0, minimum=0)}


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


@claim_kind("conditional_subgroups.data_fidelity_rank", params={
    **FAMILY, "samplers": LABELS, "n_published": integer(minimum=1),
    "values": table(value=table({"mean": number(), "sd": number(minimum=0)})),
    "k": number(3.0, minimum=0)})
def data_fidelity_rank(claim: dict, t: Tables) -> list[dict]:
    """Table 3: each sampler's mean rank among ``samplers`` equals the published one.

    ``values`` maps a sampler to its published ``mean`` and ``sd`` over the paper's
    ``n_published`` (data set, feature) pairs. Reproduced if |ours - published| <= k SE with
    SE^2 = SE_ours^2 + SE_published^2 (:func:`imlbench.metrics.contrasts.independent_se`),
    each the SD over pairs / sqrt(pairs); verdict and power (margin + 2 half) per
    :class:`imlbench.metrics.claims.Check`.

    Not a ``contrast``: the published mean rank is a second, independent sample known only by
    its summary (mean, SD, pairs), while the kit's ``difference`` takes two cells' values per
    unit; and the ranks pool a family of scenarios.
    """
    df = _estimates(claim, t)
    if df.empty:
        return _no_data(claim)
    k = claim["k"]
    ranks = pair_mean_ranks(df, claim["samplers"])
    body = []
    for s, pub in claim["values"].items():
        mean, se = mean_and_se(ranks[s])
        se_pub = pub["sd"] / np.sqrt(claim["n_published"])
        tol = k * float(independent_se(se, se_pub))
        gap = abs(mean - pub["mean"])
        body.append((s, f"mean rank {mean:.2f} (SD {ranks[s].std(ddof=1):.2f} over "
                        f"{ranks[s].count()} pairs)",
                     f"abs gap {gap:.2f} <= {k:g} SE = {tol:.2f}",
                     Check(mean, tol, "equal", pub["mean"], scale=pub["mean"])))
    return _rows(claim, body)


def _differences(means: pd.DataFrame, pairs: list[tuple[str, str]], k: float, compare: str
                 ) -> dict[tuple[str, str], tuple[Check, float]]:
    """Per (a, b) of ``pairs``, the kit's test of fidelity(a) - fidelity(b) over the (data
    set, feature) pairs against 0 as ``compare`` says, and its SE."""
    return {(a, b): compared((means[a] - means[b]).dropna(), 0.0, k, 0.0, compare)[:2]
            for a, b in pairs}


def _joint(diffs: dict[tuple[str, str], tuple[Check, float]]) -> Check:
    return Check.joint([c for c, _ in diffs.values()], scale=float("nan"))


@claim_kind("conditional_subgroups.data_fidelity_order",
            params={**FAMILY, "higher": LABELS, "lower": LABELS, **K2})
def data_fidelity_order(claim: dict, t: Tables) -> list[dict]:
    """Every sampler of ``higher`` has a higher fidelity than every one of ``lower``:
    mean difference - t(k) SE > 0 for each pair of samplers (k = 2 unless stated); verdict and
    power (2 half) per :class:`imlbench.metrics.claims.Check` over the pairs."""
    df = _estimates(claim, t)
    if df.empty:
        return _no_data(claim)
    pairs = [(a, b) for a in claim["higher"] for b in claim["lower"]]
    diffs = _differences(pair_means(df, [*claim["higher"], *claim["lower"]]), pairs,
                         claim["k"], "above")
    worst = min(diffs, key=lambda p: diffs[p][0].estimate - diffs[p][0].half)
    check, se = diffs[worst]
    return _rows(claim, [(
        f"{'/'.join(claim['higher'])} > {'/'.join(claim['lower'])}",
        f"smallest margin {worst[0]} - {worst[1]} = {check.estimate:.3f} (SE {se:.3f}); all: "
        + ", ".join(f"{a}-{b} {c.estimate:.3f}" for (a, b), (c, _) in diffs.items()),
        f"difference - t({claim['k']:g}) SE > 0 for all {len(pairs)} pairs (t quantile over "
        f"the data set x feature pairs)",
        _joint(diffs),
    )])


@claim_kind("conditional_subgroups.data_fidelity_monotone",
            params={**FAMILY, "sequences": items(LABELS), **K2})
def data_fidelity_monotone(claim: dict, t: Tables) -> list[dict]:
    """Fidelity grows along each list of ``sequences`` (samplers by increasing depth): no
    step falls significantly (mean + t(k) SE >= 0) and the last beats the first (mean - t(k)
    SE > 0); one row per sequence. Verdict and power (margin + 2 half) per
    :class:`imlbench.metrics.claims.Check`: a significant fall (``at_least`` 0) is not
    reproduced; else the row is last - first against 0, ``above`` (a straddle is
    ``inconclusive``)."""
    df = _estimates(claim, t)
    if df.empty:
        return _no_data(claim)
    k = claim["k"]
    body = []
    for seq in claim["sequences"]:
        means = pair_means(df, seq)
        steps = _differences(means, list(zip(seq[1:], seq[:-1], strict=True)), k, "at_least")
        first, last = seq[0], seq[-1]
        rise, se = _differences(means, [(last, first)], k, "above")[(last, first)]
        fall = _joint(steps)
        check = fall if fall.verdict() == NOT_REPRODUCED else replace(rise, scale=float("nan"))
        body.append((
            " < ".join(seq),
            "steps " + ", ".join(f"{a}-{b} {c.estimate:.3f} (SE {e:.3f})"
                                 for (a, b), (c, e) in steps.items())
            + f"; {last}-{first} {rise.estimate:.3f} (SE {se:.3f})",
            f"each step + t({k:g}) SE >= 0 and last - first - t({k:g}) SE > 0 (t quantile over "
            f"the data set x feature pairs)", check,
        ))
    return _rows(claim, body)


@claim_kind("conditional_subgroups.data_fidelity_share", params={
    **FAMILY, "baseline": text(), "min_share": number(minimum=0, maximum=1),
    "pairs": items(items(text(), length=2)), **K2})
def data_fidelity_share(claim: dict, t: Tables) -> list[dict]:
    """A shallow tree keeps at least ``min_share`` of the deep tree's gain over ``baseline``:
    D = (shallow - baseline) - min_share (deep - baseline) per (data set, feature) pair,
    reproduced if mean(D) + t(k) SE >= 0 (not significantly below the share) for every
    [shallow, deep] of ``pairs``: ``at_least`` 0 (ties and straddles pass), scaled by the
    mean gain of the deep tree."""
    df = _estimates(claim, t)
    if df.empty:
        return _no_data(claim)
    k = claim["k"]
    share, base = claim["min_share"], claim["baseline"]
    labels = sorted({s for p in claim["pairs"] for s in p} | {base})
    means = pair_means(df, labels)
    body = []
    for shallow, deep in claim["pairs"]:
        gain = means[deep] - means[base]
        d = ((means[shallow] - means[base]) - share * gain).dropna()
        check, se, _ = compared(d, 0.0, k, 0.0, "at_least")
        kept = (means[shallow] - means[base]).mean() / gain.mean()
        body.append((f"{shallow} vs {deep}",
                     f"share of the {deep} gain over {base} kept: {kept:.2f} "
                     f"(D = {check.estimate:.3f}, SE {se:.3f})",
                     f"D + t({k:g}) SE >= 0 at share {share:g} (t quantile over the data set x "
                     f"feature pairs)",
                     replace(check, scale=float(gain.mean()))))
    return _rows(claim, body)
