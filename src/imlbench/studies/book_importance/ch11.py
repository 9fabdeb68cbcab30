"""The book's ch. 11 ("PFI: Training vs. Test Data", Dankers): permutation feature importance
of a gradient-boosting classifier on the rows it was fitted on against held-out test rows,
for well-, over- and under-fitted models (Sect. 11.2-11.4).

The importances are the layer's ``pfi`` (iml's ``FeatureImp``: ratio, median of 5 repeats) on
the test rows or on the ``fitted`` rows, the training rows less the validation rows the
learner held out for early stopping: the book's h2o training frame, 70% of the rows, beside
its 15% validation and 15% test frames.

Claim kinds over the importances of each repetition (``Tables.ranked``: one row per feature
and repetition; ``value`` the median over the permutation repeats; repetitions are fresh data
sets or fresh splits of a table), what the layer's kinds do not say (orders of the
values are the layer's ``importance_order``):

``tt_place``  a feature's place (1 = most important; ties share the mean place) is the place
              the book printed from its one run: |mean - value| <= t' sd sqrt(1 + 1/R) + atol,
              the prediction interval of one further run (as the layer's ``published_value``)
``tt_range``  a statistic of the importances of a repetition: ``range`` (largest minus
              smallest median over the features), ``max`` or ``min``; with ``than_method``
              minus the same statistic under that method (training against test rows), with
              ``than_learner`` minus the same under that learner, with both the difference of
              the two differences (the train-test gap of one fit regime against another's);
              paired by repetition and compared with ``value`` (``interval: mean``: t' SE of
              the mean, :func:`imlbench.metrics.curve_claims.compared`; ``prediction``: the
              prediction interval of one run, for a number printed from the book's one run)
"""

from __future__ import annotations

import pandas as pd

from imlbench.metrics.claims import (
    NoData,
    Tables,
    claim_kind,
    claim_row,
    per_combo,
    select_rows,
)
from imlbench.metrics.curve_claims import COMPARE, TOLERANCE, compared_row, prediction_check
from imlbench.metrics.rank_claims import by_repetition
from imlbench.params import choice, feature_name, number, study_name


@claim_kind("tt_place", params={"feature": feature_name(), "value": number(minimum=1),
                                **TOLERANCE})
def tt_place(claim: dict, t: Tables) -> list[dict]:
    """The place of ``feature`` (1 = most important) against the book's one-run place
    ``value``, as a prediction interval (see the module doc)."""
    f = claim["feature"]

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        v = by_repetition(r)
        if f not in v:
            return NoData(f"{f} is not among the features ({', '.join(v)})")
        place = (len(v.columns) + 1 - v.rank(axis=1, method="average")[f]).dropna()
        if len(place) < 2:
            return NoData(f"a prediction interval needs 2 repetitions or more; {len(place)} "
                          f"here")
        check, test = prediction_check(place, claim["value"], claim["k"], claim["atol"])
        counts = place.value_counts().sort_index()
        return claim_row(
            claim, learner, method,
            f"place of {f}: mean {place.mean():.2f} over {len(place)} reps ("
            + ", ".join(f"{p:g}: {n}x" for p, n in counts.items()) + ")", test, check)

    return per_combo(claim, t, "ranked", one)


STATISTICS = ("range", "max", "min")


def statistic(rows: pd.DataFrame, name: str) -> pd.Series:
    """Per repetition: the ``range`` (largest minus smallest importance), ``max`` or ``min``
    over the features."""
    v = by_repetition(rows)
    top, bottom = v.max(axis=1), v.min(axis=1)
    return {"range": top - bottom, "max": top, "min": bottom}[name]


@claim_kind("tt_range", params={
    "statistic": choice("range", STATISTICS), "than_method": study_name("methods", None),
    "than_learner": study_name("learners", None),
    "interval": choice("mean", ("mean", "prediction")), "value": number(), **COMPARE,
    **TOLERANCE})
def tt_range(claim: dict, t: Tables) -> list[dict]:
    """A statistic of the importances, or its difference between methods, learners or both,
    paired by repetition, against ``value`` (see the module doc)."""
    name, scenario = claim["statistic"], claim["where"]["scenario"]
    than_m, than_l = claim["than_method"], claim["than_learner"]
    if claim["interval"] == "prediction" and claim["compare"] != "equal":
        raise ValueError(f"claim {claim['id']} (tt_range): interval prediction tests a printed "
                         f"number, so compare must be equal; got {claim['compare']}")

    def of(learner: str, method: str) -> pd.Series | NoData:
        r = select_rows(t.ranked, scenario, learner, method) if not t.ranked.empty else None
        if r is None or r.empty:
            return NoData(f"no importances of {scenario}/{learner}/{method}")
        return statistic(r, name)

    def one(claim: dict, r: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        terms = [(learner, method, 1.0)]
        if than_m:
            terms.append((learner, than_m, -1.0))
        if than_l:
            terms += [(than_l, m, -s) for _, m, s in list(terms)]
        parts = [of(lr, m) for lr, m, _ in terms]
        for p in parts:
            if isinstance(p, NoData):
                return p
        d = sum(s * p for (_, _, s), p in zip(terms, parts, strict=True)).dropna()
        if len(d) < 2:
            return NoData(f"an interval needs 2 paired repetitions or more; {len(d)} here")
        what = _signed(terms, name)
        if claim["interval"] == "mean":
            return compared_row(claim, learner, method, d, what, value=claim["value"],
                                compare=claim["compare"], atol=claim["atol"],
                                more=f", from {d.min():.3g} to {d.max():.3g}")
        check, test = prediction_check(d, claim["value"], claim["k"], claim["atol"])
        return claim_row(claim, learner, method,
                         f"{what}: mean {d.mean():.3g} (sd {d.std(ddof=1):.3g} over {len(d)} "
                         f"reps, from {d.min():.3g} to {d.max():.3g})", test, check)

    return per_combo(claim, t, "ranked", one)


def _signed(terms: list[tuple[str, str, float]], name: str) -> str:
    """The terms of a ``tt_range`` difference as text, e.g. "range(a/m) - range(a/n)"."""
    text = ""
    for i, (lr, m, s) in enumerate(terms):
        sign = ("-" if s < 0 else "") if i == 0 else (" - " if s < 0 else " + ")
        text += f"{sign}{name}({lr}/{m})"
    return text

