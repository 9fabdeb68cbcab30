"""Claims of the model-fidelity experiment (Molnar et al., conditional subgroups, Sect. 9).

The ``model_fidelity`` method gives, per repetition (a random 70/30 split) and feature, the
loss of each effect curve (PDP, ALE, cs-PDPs) against ``y`` or the model (``against``).
Table 5 summarises a data set by the median over features of these losses. Comparisons
between two effects are paired: both curves are scored on the same test rows, so the unit is
one (repetition, feature) and the tolerance is the standard error of the mean paired
difference over those units (features differ in scale and in how dependent they are, so this
spread is wide; it is the spread the paper's boxplots show). Verdicts and power (margin + 2
half) per :class:`imlbench.metrics.claims.Check`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from imlbench.metrics.claims import (
    Check,
    Tables,
    claim_kind,
    claim_row,
    no_data,
    per_combo,
    select_rows,
)
from imlbench.params import choice, integer, items, number, table, text
from imlbench.stats import mean_and_se
from imlbench.studies.conditional_subgroups.model_fidelity import TARGETS

#: the target the losses are taken against
AGAINST = {"against": choice("y", TARGETS)}
#: pairs of effects (labels of the ``model_fidelity`` method)
PAIRS = {"pairs": items(items(text(), length=2))}


def losses(claim: dict, t: Tables, learner: str, method: str, column: str = "value"
           ) -> pd.DataFrame:
    """``column`` of the claim's estimates against ``claim['against']`` (default ``y``): one
    row per (rep, feature), one column per effect; empty when there are no estimates (the
    selector of the kinds, :func:`imlbench.metrics.claims.per_combo`: they give a row without
    data per effect or pair)."""
    est = select_rows(t.other, claim["where"]["scenario"], learner, method)
    if est.empty:
        return pd.DataFrame()
    est = est[est["against"] == claim["against"]]
    return est.pivot_table(index=["rep", "feature"], columns="effect", values=column)


def table5_statistic(loss: pd.Series) -> float:
    """Table 5's summary of one effect: the median over features of the loss (averaged over
    repetitions first)."""
    return float(loss.groupby(level="feature").mean().median())


def _paired(tab: pd.DataFrame, a: str, b: str) -> tuple[float, float, int]:
    """Mean and standard error of loss_a - loss_b over the (rep, feature) units."""
    d = tab[a] - tab[b]
    return (*mean_and_se(d), int(d.notna().sum()))


def _per_pair(claim: dict, t: Tables,
              fn: Callable[[dict, pd.DataFrame, str, str, str, str], dict]) -> list[dict]:
    """``fn(claim, losses, learner, row label, first, second)`` for every learner, method and
    pair of the claim's ``pairs``; a row without data where either effect has no losses."""

    def one(claim: dict, tab: pd.DataFrame, learner: str, method: str) -> list[dict]:
        return [fn(claim, tab, learner, f"{method}: {a} vs {b}", a, b)
                if not tab.empty and a in tab and b in tab
                else no_data(claim, learner, f"{method}: {a} vs {b}")
                for a, b in claim["pairs"]]

    return per_combo(claim, t, losses, one)


@claim_kind("fidelity_order", params={
    **AGAINST, **PAIRS, "expect": choice("lower", ("lower", "not_higher")),
    "z": number(2.0, minimum=0),
    # Table 5's numbers of the data set the table stands in for: context for the reader only
    "table5": table(value=number(), default=None, nullable=True)})
def fidelity_order(claim: dict, t: Tables) -> list[dict]:
    """In each of ``pairs`` ([better, worse]) the first effect has the lower loss.

    d = loss_worse - loss_better per (rep, feature). ``expect: lower`` (default): mean(d) -
    z SE > 0; ``expect: not_higher``: mean(d) + z SE >= 0 (ties, e.g. trees that do not split,
    pass). z = 2 unless stated. Verdict and power (margin + 2 half) per
    :class:`imlbench.metrics.claims.Check` (``lower``: ``above`` 0, a straddle is
    ``inconclusive``; ``not_higher``: ``at_least`` 0, a straddle passes), scaled by the mean
    loss of the worse effect.
    """
    z = claim["z"]
    strict = claim["expect"] == "lower"

    def pair_row(claim: dict, tab: pd.DataFrame, learner: str, label: str, better: str,
                 worse: str) -> dict:
        d, se, k = _paired(tab, worse, better)
        scale = float(tab[worse].mean())
        check = (Check(d, z * se, "above", 0.0, scale=scale) if strict
                 else Check(d, z * se, "at_least", 0.0, scale=scale))
        return claim_row(
            claim, learner, label,
            f"median over features {better} {table5_statistic(tab[better]):.4g}, "
            f"{worse} {table5_statistic(tab[worse]):.4g}; mean paired difference "
            f"{d:.4g} (SE {se:.3g}, {k} feature x rep units)",
            f"difference {'-' if strict else '+'} {z:g} SE "
            f"{'> 0' if strict else '>= 0'} ({z:g} SE = {z * se:.3g})", check,
        )

    return _per_pair(claim, t, pair_row)


@claim_kind("fidelity_close", params={
    **AGAINST, **PAIRS, "margin": number(0.05, minimum=0), "z": number(2.0, minimum=0)})
def fidelity_close(claim: dict, t: Tables) -> list[dict]:
    """In each of ``pairs`` ([effect, reference]) both have about the same loss. Equivalence
    test: |mean(d)| + z SE <= ``margin`` x mean(loss_reference), d = loss_effect -
    loss_reference per (rep, feature), z = 2 and margin 0.05 unless stated. As a
    :class:`imlbench.metrics.claims.Check`: |mean(d)| +- z SE against the bound, ``below``
    (reproduced when |mean(d)| + z SE < bound; not reproduced when |mean(d)| - z SE >= bound,
    the interval of d wholly outside +-bound; else ``inconclusive``), power 2 z SE."""
    z = claim["z"]
    margin = claim["margin"]

    def pair_row(claim: dict, tab: pd.DataFrame, learner: str, label: str, effect: str,
                 ref: str) -> dict:
        d, se, k = _paired(tab, effect, ref)
        bound = margin * float(tab[ref].mean())
        return claim_row(
            claim, learner, label,
            f"median over features {effect} {table5_statistic(tab[effect]):.4g}, "
            f"{ref} {table5_statistic(tab[ref]):.4g}; mean paired difference {d:.4g} "
            f"(SE {se:.3g}, {k} feature x rep units)",
            f"|difference| + {z:g} SE = {abs(d) + z * se:.3g} <= {margin:g} x mean "
            f"{ref} loss = {bound:.3g}",
            Check(abs(d), z * se, "below", bound, scale=float(tab[ref].mean())),
        )

    return _per_pair(claim, t, pair_row)


@claim_kind("fidelity_values", params={
    **AGAINST, "values": table(value=number()), "published_test_rows": integer(minimum=1),
    "z": number(3.0, minimum=0)})
def fidelity_values(claim: dict, t: Tables) -> list[dict]:
    """Table 5's numbers (``values``: effect -> published median loss) on the same data.

    Ours is the median over features of the rep-mean loss. The test-split noise of a loss is
    its ``se`` (sd of the squared errors / sqrt(test rows)); at the median feature (median of
    the features' se) it is s / sqrt(reps) for ours and s sqrt(m / m_pub) for the published
    single split of ``published_test_rows`` = m_pub test rows (m: our test rows used).
    Reproduced when |ours - published| <= z sqrt(s^2 / reps + s^2 m / m_pub), z = 3 unless
    stated; verdict and power (margin + 2 half) per :class:`imlbench.metrics.claims.Check`.
    """
    z = claim["z"]
    m_pub = claim["published_test_rows"]

    def one(claim: dict, tab: pd.DataFrame, learner: str, method: str) -> list[dict]:
        se = losses(claim, t, learner, method, "se")
        used = losses(claim, t, learner, method, "n_used")
        rows = []
        for effect, published in claim["values"].items():
            label = f"{method}: {effect}"
            if tab.empty or effect not in tab:
                rows.append(no_data(claim, learner, label) | {"published": f"{published:g}"})
                continue
            ours = table5_statistic(tab[effect])
            reps = tab.index.get_level_values("rep").nunique()
            s = float(np.sqrt((se[effect] ** 2).groupby(level="feature").mean()).median())
            m = float(used[effect].median())
            bound = z * s * np.sqrt(1.0 / reps + m / m_pub)
            rows.append(claim_row(
                claim, learner, label, f"median over features {ours:.4g} ({reps} reps)",
                f"|ours - published| <= {z:g} x split SE = {bound:.3g}",
                Check(ours, bound, "equal", published, scale=published),
            ) | {"published": f"{published:g}"})
        return rows

    return per_combo(claim, t, losses, one)
