"""Claims of the model-fidelity experiment (Molnar et al., conditional subgroups, Sect. 9).

The ``conditional_subgroups.model_fidelity`` method gives, per repetition (a random 70/30 split) and
feature, the loss of each effect curve (PDP, ALE, cs-PDPs) against ``y`` or the model (``against``).
Table 5 summarises a data set by the median over features of these losses. Comparisons between two
effects are paired: both curves are scored on the same test rows, so the unit is one (repetition,
feature) and the tolerance is t(k) times the standard error of the mean paired difference over those
units (features differ in scale and in how dependent they are, so this spread is wide; it is the
spread the paper's boxplots show): the kit's ``paired`` test
(:func:`imlbench.metrics.contrasts.paired`, t quantile over the units' degrees of freedom). Verdicts
and power (margin + 2 half) per :class:`imlbench.metrics.claims.Check`.

The order and closeness claims are no ``contrast`` claims: a claim holds several pairs of
effects, each its own row, and closeness is an equivalence test (within a share of one
effect's loss) that no kit test makes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np
import pandas as pd

from imlbench.metrics.claims import (
    Check,
    NoData,
    Tables,
    claim_kind,
    claim_row,
    no_data,
    per_combo,
)
from imlbench.metrics.contrasts import Cell, Sample, compared, few, independent_se, paired
from imlbench.params import choice, integer, items, number, table, text
from imlbench.studies.conditional_subgroups.model_fidelity import TARGETS

#: the target the losses are taken against
AGAINST = {"against": choice("y", TARGETS)}
#: pairs of effects (labels of the ``conditional_subgroups.model_fidelity`` method)
PAIRS = {"pairs": items(items(text(), length=2))}


def losses(claim: dict, t: Tables, learner: str, method: str, column: str = "value"
           ) -> pd.DataFrame:
    """``column`` of the claim's estimates against ``claim['against']`` (default ``y``): one
    row per (rep, feature), one column per effect; empty when there are no estimates (the
    selector of the kinds, :func:`imlbench.metrics.claims.per_combo`: they give a row without
    data per effect or pair)."""
    est = Cell(claim["where"]["scenario"], learner, method).rows(t)
    if est.empty:
        return pd.DataFrame()
    est = est[est["against"] == claim["against"]]
    return est.pivot_table(index=["rep", "feature"], columns="effect", values=column)


def table5_statistic(loss: pd.Series) -> float:
    """Table 5's summary of one effect: the median over features of the loss (averaged over
    repetitions first)."""
    return float(loss.groupby(level="feature").mean().median())


def _per_pair(claim: dict, t: Tables,
              fn: Callable[[dict, pd.DataFrame, str, str, str, str], dict | NoData]
              ) -> list[dict]:
    """``fn(claim, losses, learner, row label, first, second)`` for every learner, method and
    pair of the claim's ``pairs``; a row without data where either effect has no losses (or
    ``fn`` says why it has none)."""

    def pair(tab: pd.DataFrame, learner: str, label: str, a: str, b: str) -> dict:
        got = (fn(claim, tab, learner, label, a, b) if not tab.empty and a in tab and b in tab
               else NoData())
        return no_data(claim, learner, label, got.reason) if isinstance(got, NoData) else got

    def one(claim: dict, tab: pd.DataFrame, learner: str, method: str) -> list[dict]:
        return [pair(tab, learner, f"{method}: {a} vs {b}", a, b) for a, b in claim["pairs"]]

    return per_combo(claim, t, losses, one)


def _loss(tab: pd.DataFrame, effect: str) -> Sample:
    """The loss of ``effect`` per (rep, feature) unit."""
    return Sample(tab[effect].dropna(), f"loss of {effect}")


def _units(tolerance: str) -> str:
    """The tolerance text of the kit's tests with (rep, feature) units, not repetitions."""
    return tolerance.replace("sd over reps / sqrt(reps)", "sd over feature x rep units / "
                                                          "sqrt(units)")


@claim_kind("conditional_subgroups.fidelity_order", params={
    **AGAINST, **PAIRS, "expect": choice("lower", ("lower", "not_higher")),
    "k": number(2.0, minimum=0),
    # Table 5's numbers of the data set the table stands in for: context for the reader only
    "table5": table(value=number(), default=None, nullable=True)})
def fidelity_order(claim: dict, t: Tables) -> list[dict]:
    """In each of ``pairs`` ([better, worse]) the first effect has the lower loss.

    d = loss_worse - loss_better per (rep, feature), the kit's ``paired`` test. ``expect:
    lower`` (default): mean(d) - t(k) SE > 0 (``above`` 0, a straddle is ``inconclusive``);
    ``expect: not_higher``: mean(d) + t(k) SE >= 0 (``at_least`` 0: ties, e.g. trees that do
    not split, pass). k = 2 unless stated. Verdict and power (margin + 2 half) per
    :class:`imlbench.metrics.claims.Check`, scaled by the mean loss of the worse effect.
    """
    k = claim["k"]
    compare = "above" if claim["expect"] == "lower" else "at_least"

    def pair_row(claim: dict, tab: pd.DataFrame, learner: str, label: str, better: str,
                 worse: str) -> dict | NoData:
        judged = paired(_loss(tab, worse), _loss(tab, better), better, 0.0, k=k,
                        compare=compare)
        if isinstance(judged, NoData):
            return judged
        check = replace(judged.check, scale=float(tab[worse].mean()))
        return claim_row(
            claim, learner, label,
            f"median over features {better} {table5_statistic(tab[better]):.4g}, "
            f"{worse} {table5_statistic(tab[worse]):.4g}; "
            f"{judged.reproduced.replace(' reps)', ' feature x rep units)')}",
            _units(judged.tolerance), check,
        )

    return _per_pair(claim, t, pair_row)


@claim_kind("conditional_subgroups.fidelity_close", params={
    **AGAINST, **PAIRS, "margin": number(0.05, minimum=0), "k": number(2.0, minimum=0)})
def fidelity_close(claim: dict, t: Tables) -> list[dict]:
    """In each of ``pairs`` ([effect, reference]) both have about the same loss. Equivalence
    test: |mean(d)| + t(k) SE <= ``margin`` x mean(loss_reference), d = loss_effect -
    loss_reference per (rep, feature), k = 2 and margin 0.05 unless stated: the kit's
    :func:`imlbench.metrics.contrasts.compared` of sign(mean d) d, ``below`` the bound
    (reproduced when |mean(d)| + t(k) SE < bound; not reproduced when |mean(d)| - t(k) SE >=
    bound, the interval of d wholly outside +-bound; else ``inconclusive``), power 2 t(k)
    SE."""
    k = claim["k"]
    margin = claim["margin"]

    def pair_row(claim: dict, tab: pd.DataFrame, learner: str, label: str, effect: str,
                 ref: str) -> dict | NoData:
        d = (tab[effect] - tab[ref]).dropna()
        if why := few(len(d), 2, f"the losses of {effect} and {ref}", label):
            return why
        bound = margin * float(tab[ref].mean())
        check, se, tolerance = compared(d if d.mean() >= 0 else -d, bound, k, 0.0, "below")
        return claim_row(
            claim, learner, label,
            f"median over features {effect} {table5_statistic(tab[effect]):.4g}, "
            f"{ref} {table5_statistic(tab[ref]):.4g}; mean paired difference {d.mean():.4g} "
            f"(SE {se:.3g}, {len(d)} feature x rep units)",
            f"{_units(tolerance).replace('mean', '|mean difference|', 1)}, the bound "
            f"{margin:g} x mean {ref} loss",
            replace(check, scale=float(tab[ref].mean())),
        )

    return _per_pair(claim, t, pair_row)


@claim_kind("conditional_subgroups.fidelity_values", params={
    **AGAINST, "values": table(value=number()), "published_test_rows": integer(minimum=1),
    "k": number(3.0, minimum=0)})
def fidelity_values(claim: dict, t: Tables) -> list[dict]:
    """Table 5's numbers (``values``: effect -> published median loss) on the same data.

    Ours is the median over features of the rep-mean loss. The test-split noise of a loss is
    its ``se`` (sd of the squared errors / sqrt(test rows)); at the median feature (median of
    the features' se) it is s / sqrt(reps) for ours and s sqrt(m / m_pub) for the published
    single split of ``published_test_rows`` = m_pub test rows (m: our test rows used).
    Reproduced when |ours - published| <= k sqrt(s^2 / reps + s^2 m / m_pub) (two independent
    estimates: :func:`imlbench.metrics.contrasts.independent_se`), k = 3 unless stated;
    verdict and power (margin + 2 half) per :class:`imlbench.metrics.claims.Check`.

    Not a ``contrast``: the statistic (a median over features of means over repetitions) has
    no value per repetition, its SE is the split noise the method reports, and the published
    number is a second, independent sample whose SE follows from its test rows; the kit's
    ``difference`` takes two cells' values per repetition.
    """
    k = claim["k"]
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
            bound = k * float(independent_se(s / np.sqrt(reps), s * np.sqrt(m / m_pub)))
            rows.append(claim_row(
                claim, learner, label, f"median over features {ours:.4g} ({reps} reps)",
                f"|ours - published| <= {k:g} x split SE = {bound:.3g}",
                Check(ours, bound, "equal", published, scale=published),
            ) | {"published": f"{published:g}"})
        return rows

    return per_combo(claim, t, losses, one)
