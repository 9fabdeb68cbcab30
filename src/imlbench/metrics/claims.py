"""Claims of a study turned into scorecard rows: claim, published, reproduced, verdict.

A claim kind is a function ``(claim, tables) -> list[dict]`` over the ranked importance
estimates, the truths, the other estimates and the summaries (:class:`Tables`), registered
with its parameters (type, default and allowed values, :mod:`imlbench.params`) by
:func:`claim_kind`. A claim of a study file holds the keys every claim has (``id``, ``kind``,
``figure``, ``text``, ``published``, ``where``) and its kind's parameters; the function
receives it with every missing default filled in. Tolerances are Monte Carlo standard errors
over the repetitions, multiplied by the claim's ``z``, and are written into the row next to
the verdict. The generic claim kinds are in :mod:`imlbench.metrics.truth_errors` (estimates
against their truths) and :mod:`imlbench.metrics.curve_claims` (slopes, kinks, levels and
growth of curves); the others live in the packages of the studies that use them.

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
    truth: dict[str, pd.DataFrame]  # scenario -> importance truth
    other: pd.DataFrame  # estimates of the methods the claims name (importances: ``ranked``)
    #: every truth table by (scenario, estimand), e.g. ("n300_scenariolinear_p10", "pfi_x1")
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
    "claim kind", providers=("imlbench.metrics.truth_errors", "imlbench.metrics.curve_claims"))


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
