"""Claims of a study turned into scorecard rows: claim, published, reproduced, verdict.

A claim kind is a function ``(claim, tables) -> list[dict]`` over the ranked importance
estimates, the truths, the other estimates and the summaries (:class:`Tables`), registered
with its parameters (type, default and allowed values, :mod:`imlbench.params`) by
:func:`claim_kind`. A claim of a study file holds the keys every claim has (``id``, ``kind``,
``figure``, ``text``, ``published``, ``where``) and its kind's parameters; the function
receives it with every missing default filled in. Tolerances are Monte Carlo standard errors
over the repetitions, multiplied by the claim's ``z``, and are written into the row next to
the verdict. The generic claim kinds are in :mod:`imlbench.metrics.truth_errors` (estimates
against their truths), :mod:`imlbench.metrics.curve_claims` (slopes, kinks, levels and
growth of curves) and :mod:`imlbench.metrics.rank_claims` (importance ranks); the others live
in the packages of the studies that use them.

Every kind loops the same way, with :func:`per_combo`: for every (learner, method) of the
claim's ``where`` a *selector* picks the rows the kind reads (:func:`estimates`: those of the
claim's scenario, learner and method in a table; :func:`paired`: those and the rows of a
method the claim compares with) or says why there are none (:class:`NoData`, a row without
data), and the kind turns the rows into its scorecard row(s), or says why they do not allow
its test.

Every row whose verdict is ``no data`` or ``not run in this profile`` says why in its
``reason``: the kind's own reason (a feature the data lack, a statistic that needs more
repetitions), or else the one :func:`evaluate` asks its caller for (the scenario the profile
does not run, or the file that would hold the rows).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from imlbench.params import Param, named_values, with_defaults
from imlbench.registry import Registry


@dataclass
class Tables:
    """What the compare stage hands to the claims."""

    ranked: pd.DataFrame  # importance estimates with ranks
    truth: dict[str, pd.DataFrame]  # scenario -> its ``importance`` truth table
    other: pd.DataFrame  # estimates of the methods the claims name (importances: ``ranked``)
    #: every truth table by (scenario, table name), e.g. ("n300_scenariolinear_p10",
    #: "importance"), in the one shape of :mod:`imlbench.explain.estimands`
    truths: dict[tuple[str, str], pd.DataFrame] = field(default_factory=dict)
    #: the study's summary table (``metrics/summary.parquet``): what its methods that declare a
    #: ``summarise`` condense their estimates into, e.g. interval coverage from per-refit values
    summary: pd.DataFrame = field(default_factory=pd.DataFrame)
    #: estimates against their truths per point over repetitions
    #: (``metrics/truth_errors.parquet``, :mod:`imlbench.metrics.truth_errors`)
    truth_errors: pd.DataFrame = field(default_factory=pd.DataFrame)
    #: the same per repetition (``metrics/truth_error_reps.parquet``)
    truth_error_reps: pd.DataFrame = field(default_factory=pd.DataFrame)


Claim = Callable[[dict, Tables], list[dict]]

#: the keys of every claim (the study schema checks them); the others are its kind's parameters
CLAIM_KEYS = ("id", "kind", "figure", "text", "published", "where")


@dataclass(frozen=True)
class ClaimSpec:
    """A registered claim kind: its function and its declared parameters."""

    evaluate: Claim
    params: Mapping[str, Param] = field(default_factory=dict)

    def __call__(self, claim: Mapping[str, Any], tables: Tables) -> list[dict]:
        """Scorecard rows of ``claim``, its parameters completed by their defaults."""
        return self.evaluate(with_defaults(self.params, claim), tables)


CLAIMS: Registry[ClaimSpec] = Registry(
    "claim kind", providers=("imlbench.metrics.truth_errors", "imlbench.metrics.curve_claims",
                             "imlbench.metrics.rank_claims"))


def claim_kind(kind: str, *, params: Mapping[str, Param] | None = None) -> Callable[[Claim], Claim]:
    """Register ``fn`` as claim kind ``kind`` with its parameters."""

    def decorator(fn: Claim) -> Claim:
        CLAIMS.register(kind, module=fn.__module__)(ClaimSpec(fn, dict(params or {})))
        return fn

    return decorator


def claim_params(claim_: Mapping[str, Any]) -> dict[str, Any]:
    """The parameters of a claim: its keys other than those every claim has."""
    return {k: v for k, v in claim_.items() if k not in CLAIM_KEYS}

REPRODUCED, NOT_REPRODUCED, NO_DATA = "reproduced", "not reproduced", "no data"


def as_list(v) -> list:
    return [v] if isinstance(v, str) else list(v)


def combos(where: dict) -> list[tuple[str, str]]:
    return [(lrn, m) for lrn in as_list(where["learner"]) for m in as_list(where["method"])]


def methods_named(claim: Mapping[str, Any]) -> list[str]:
    """The study's methods a claim names: ``where.method``, then those of its parameters that
    name methods (e.g. the theory a claim compares with), without repeats."""
    named = as_list(claim["where"]["method"])
    for key, param in CLAIMS.get(claim["kind"]).params.items():
        named += named_values(param, claim.get(key), "refers", "methods")
    return list(dict.fromkeys(named))


def claim_row(claim: dict, learner: str, method: str, reproduced: str, tolerance: str,
              ok: bool | None, reason: str = "") -> dict:
    """A scorecard row; ``ok`` None is ``no data``, and ``reason`` says why (empty: the
    caller of :func:`evaluate` tells)."""
    verdict = NO_DATA if ok is None else (REPRODUCED if ok else NOT_REPRODUCED)
    return {
        "claim": claim["id"], "figure": claim.get("figure", ""), "text": claim["text"],
        "scenario": claim["where"]["scenario"], "learner": learner, "method": method,
        "published": claim["published"], "reproduced": reproduced, "tolerance": tolerance,
        "verdict": verdict, "reason": reason,
    }


def select_rows(df: pd.DataFrame, scenario: str, learner: str, method: str) -> pd.DataFrame:
    return df[(df["scenario"] == scenario) & (df["learner"] == learner) & (df["method"] == method)]


def no_data(claim: dict, learner: str, method: str, reason: str = "") -> dict:
    """The row of ``claim`` without data for ``learner`` and ``method``, saying why (empty:
    the caller of :func:`evaluate` tells)."""
    return claim_row(claim, learner, method, "", "", None, reason)


@dataclass(frozen=True)
class NoData:
    """What a selector gives for a (learner, method) without rows, or a kind for one whose
    rows do not allow its test (too few repetitions, a feature they lack): why (empty: the
    caller of :func:`evaluate` tells). :func:`per_combo` makes it a row without data."""

    reason: str = ""


#: the rows a kind reads for one (learner, method) of a claim: ``(claim, tables, learner,
#: method) -> rows`` (a frame, or whatever the kind reads), or :class:`NoData`
Selector = Callable[[dict, Tables, str, str], Any]
#: a kind on the rows of one (learner, method): ``(claim, rows, learner, method) -> row``, a
#: list of rows (one per feature, pair, ... of the claim), or :class:`NoData`
One = Callable[[dict, Any, str, str], dict | list[dict] | NoData]


def per_combo(claim: dict, t: Tables, rows_of: Selector | str, one: One) -> list[dict]:
    """The loop of every claim kind: for every (learner, method) of the claim's ``where``
    (learners outer, in the order given), ``one(claim, rows, learner, method)`` on the rows
    ``rows_of(claim, t, learner, method)`` selects (the name of a table of :class:`Tables`:
    its rows of the claim's scenario, learner and method, :func:`estimates`); a row without
    data with its reason where either gives :class:`NoData`."""
    rows_of = _selector(rows_of)
    out = []
    for learner, method in combos(claim["where"]):
        rows = rows_of(claim, t, learner, method)
        got = rows if isinstance(rows, NoData) else one(claim, rows, learner, method)
        if isinstance(got, NoData):
            got = no_data(claim, learner, method, got.reason)
        out.extend(got if isinstance(got, list) else [got])
    return out


def estimates(table: str) -> Selector:
    """Selector: the rows of the claim's scenario, learner and method in the table ``table``
    of :class:`Tables` (e.g. ``ranked``); ``NoData()`` when it holds none (or no estimates at
    all)."""

    def rows_of(claim: dict, t: Tables, learner: str, method: str) -> pd.DataFrame | NoData:
        df = getattr(t, table)
        if df.empty or not {"scenario", "learner", "method"} <= set(df):
            return NoData()
        r = select_rows(df, claim["where"]["scenario"], learner, method)
        return NoData() if r.empty else r

    return rows_of


def paired(rows_of: Selector | str, than: str, other: Selector | str | None = None
           ) -> Selector:
    """Selector: the pair (rows of the claim's method by ``rows_of``, rows of the method the
    claim's parameter ``than`` names, same scenario and learner, by ``other``, default
    ``rows_of``; a table name as in :func:`per_combo`); the first :class:`NoData` of the two
    when either has none."""
    first, second = _selector(rows_of), _selector(other or rows_of)

    def both(claim: dict, t: Tables, learner: str, method: str) -> tuple[Any, Any] | NoData:
        a = first(claim, t, learner, method)
        if isinstance(a, NoData):
            return a
        b = second(claim, t, learner, claim[than])
        return b if isinstance(b, NoData) else (a, b)

    return both


def _selector(rows_of: Selector | str) -> Selector:
    return estimates(rows_of) if isinstance(rows_of, str) else rows_of


NOT_RUN = "not run in this profile"
#: why a row of a claim has no data, when its kind does not say: ``(claim, row) -> reason``
Reason = Callable[[dict, dict], str]


def evaluate(claims: list[dict], tables: Tables, scenarios: set[str], reason: Reason
             ) -> pd.DataFrame:
    """All claims of a study as scorecard rows; claims on scenarios outside the
    profile's ``scenarios`` get the verdict ``not run in this profile``. Rows without data
    whose kind gives no reason get ``reason(claim, row)``."""
    rows = []
    for c in claims:
        if c["where"]["scenario"] in scenarios:
            new = CLAIMS.get(c["kind"])(c, tables)
        else:
            new = [claim_row(c, str(c["where"]["learner"]), str(c["where"]["method"]), "", "",
                             None) | {"verdict": NOT_RUN}]
        for row in new:
            if row["verdict"] in (NO_DATA, NOT_RUN) and not row["reason"]:
                row["reason"] = reason(c, row)
        rows.extend(new)
    cols = ["claim", "figure", "text", "scenario", "learner", "method", "published",
            "reproduced", "tolerance", "verdict", "reason"]
    return pd.DataFrame(rows, columns=cols)
