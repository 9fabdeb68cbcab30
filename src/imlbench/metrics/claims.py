"""Claims of a study turned into scorecard rows: claim, published, reproduced, verdict.

A claim kind is a function ``(claim, tables) -> list[dict]`` over the ranked importance
estimates, the truths, the other estimates and the summaries (:class:`Tables`), registered
with its parameters (type, default and allowed values, :mod:`imlbench.params`) by
:func:`claim_kind`. A claim of a study file holds the keys every claim has (``id``, ``kind``,
``figure``, ``text``, ``published``, ``where``) and its kind's parameters; the function
receives it with every missing default filled in. Tolerances are Monte Carlo standard errors
over the repetitions, multiplied by the claim's ``z`` (against a truth or a closed form,
widened by the truth's own Monte Carlo SE and a floating-point floor:
:mod:`imlbench.metrics.truth_tolerance`), and are written into the row next to the verdict.
The generic claim kinds are in :mod:`imlbench.metrics.truth_errors` (estimates against their
truths), :mod:`imlbench.metrics.curve_claims` (slopes, kinks, levels and
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

import numpy as np
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

#: the keys every claim may hold (the study schema checks them); the others are its kind's
#: parameters. ``source`` says where the claim comes from (:data:`SOURCES`), ``place`` where a
#: printed number is printed, ``rationale`` why an extension of ours tests what it tests,
#: ``saved`` which cell of the paper's saved results a claim cites, ``reported`` shows the
#: measured value without a verdict, ``misses`` says why rows miss, ``resolution`` is the
#: departure the claim is about (:class:`Check`).
CLAIM_KEYS = ("id", "kind", "figure", "text", "published", "where", "source", "place", "rationale",
              "saved", "reported", "misses", "resolution")
#: where a claim comes from: a number printed in the paper (``place`` names the table, figure or
#: page), a value the paper's own saved results hold (``saved`` names the file, object, row
#: and column, and gives the value), a qualitative statement of the paper (``published``
#: quotes it, ``text`` holds our reading of it), a property that follows from the paper's
#: setting (a closed-form truth), or an extension of ours (``rationale`` says why)
SOURCES = ("paper_number", "paper_code_result", "paper_statement", "derived", "beyond")
#: why a row does not reproduce: a property of the method (the paper's code gives our number),
#: the paper's text against its code, substitute data, an R learner against ours, the cost of
#: the paper's R implementation against ours (a run time of the same computation), a finding
#: (the truth shows the statement false for the DGP), a defect of ours (to be fixed)
MISS_CLASSES = ("method", "paper_text_vs_code", "substitute_data", "learner", "implementation",
                "finding", "defect")


@dataclass(frozen=True)
class ClaimSpec:
    """A registered claim kind: its function and its declared parameters; ``extra`` adds the
    parameters that depend on the claim (those of the statistic a ``contrast`` names),
    ``errors`` what the check rejects beyond the parameters' types ((key, message) pairs)."""

    evaluate: Claim
    params: Mapping[str, Param] = field(default_factory=dict)
    extra: Callable[[Mapping[str, Any]], Mapping[str, Param]] | None = None
    errors: Callable[[Mapping[str, Any]], list[tuple[str, str]]] | None = None

    def declared(self, claim: Mapping[str, Any]) -> dict[str, Param]:
        """The parameters ``claim`` may hold."""
        return {**self.params, **(self.extra(claim) if self.extra else {})}

    def modules(self, claim: Mapping[str, Any]) -> list[str]:
        """The modules whose code decides ``claim``'s rows: the kind's and, for a claim that
        names a registered entry of another registry (a statistic), that entry's."""
        out = [self.evaluate.__module__]
        for key, param in self.params.items():
            name = claim.get(key)
            if param.registry is not None and isinstance(name, str) and name in param.registry:
                entry = param.registry.get(name)
                fn = getattr(entry, "compute", entry)
                out.append(getattr(fn, "__module__", self.evaluate.__module__))
        return out

    def __call__(self, claim: Mapping[str, Any], tables: Tables) -> list[dict]:
        """Scorecard rows of ``claim``, its parameters completed by their defaults."""
        return self.evaluate(with_defaults(self.declared(claim), claim), tables)


CLAIMS: Registry[ClaimSpec] = Registry(
    "claim kind", providers=("imlbench.metrics.contrasts", "imlbench.metrics.truth_errors",
                             "imlbench.metrics.curve_claims",
                             "imlbench.metrics.rank_claims", "imlbench.metrics.ici_claims",
                             "imlbench.metrics.lime_claims", "imlbench.metrics.error_components"))


def claim_kind(kind: str, *, params: Mapping[str, Param] | None = None,
               extra: Callable[[Mapping[str, Any]], Mapping[str, Param]] | None = None,
               errors: Callable[[Mapping[str, Any]], list[tuple[str, str]]] | None = None,
               ) -> Callable[[Claim], Claim]:
    """Register ``fn`` as claim kind ``kind`` with its parameters (:class:`ClaimSpec`)."""

    def decorator(fn: Claim) -> Claim:
        CLAIMS.register(kind, module=fn.__module__)(
            ClaimSpec(fn, dict(params or {}), extra, errors))
        return fn

    return decorator


def claim_params(claim_: Mapping[str, Any]) -> dict[str, Any]:
    """The parameters of a claim: its keys other than those every claim has."""
    return {k: v for k, v in claim_.items() if k not in CLAIM_KEYS}

REPRODUCED, NOT_REPRODUCED, NO_DATA = "reproduced", "not reproduced", "no data"
INCONCLUSIVE, REPORTED, CONSISTENT = "inconclusive", "reported", "consistent"
#: a reproduced row whose check passes by finding no departure (``equal``, ``at_least``,
#: ``at_most``) and detects only departures larger than this share of the claimed value is
#: ``consistent``: the data do not contradict the claim, but would not contradict a value half
#: as large or half as large again either (see config/README.md, "Verdicts")
CONSISTENT_SHARE = 0.5
#: the comparisons that pass when no departure is found (see :meth:`Check.detectable_share`)
PASSIVE = ("equal", "at_least", "at_most")
#: verdicts of rows that do not reproduce: each needs a reason in the study file
MISSES = (NOT_REPRODUCED, INCONCLUSIVE)


def as_list(v) -> list:
    return [v] if isinstance(v, str) else list(v)


def combos(where: dict) -> list[tuple[str, str]]:
    return [(lrn, m) for lrn in as_list(where["learner"]) for m in as_list(where["method"])]


def methods_named(claim: Mapping[str, Any]) -> list[str]:
    """The study's methods a claim names: ``where.method``, then those of its parameters that
    name methods (e.g. the theory a claim compares with), without repeats."""
    named = as_list(claim["where"]["method"])
    for key, param in CLAIMS.get(claim["kind"]).declared(claim).items():
        named += named_values(param, claim.get(key), "refers", "methods", claim)
    return list(dict.fromkeys(named))


@dataclass(frozen=True)
class Check:
    """The test of a claim's row: a statistic (or one per part: feature, point, level) with
    the half-width of its interval, ``estimate +- half`` (half = t' SE; 0 for a value without
    sampling error), against the claimed region.

    ``compare``: ``above`` (the statistic exceeds ``value``), ``below`` (it stays under it),
    ``at_least`` / ``at_most`` (it is not significantly below / above ``value``: ties pass) or
    ``equal`` (it equals ``value`` up to ``margin``, 0 by default: the rounding of a printed
    number, or the half-width of a claimed range). The verdict (:meth:`verdict`), over all
    parts:

    - one-sided: ``reproduced`` when every interval lies on the claimed side of ``value``,
      ``not reproduced`` when some interval lies wholly on the other side, ``inconclusive``
      when an interval straddles ``value`` (a coin flip between seeds, not a finding);
    - ``equal``: ``not reproduced`` when some interval misses [value - margin, value +
      margin] (a difference test), else ``reproduced``: no departure found, of the size
      :meth:`detectable` states; ``at_least`` (``at_most``) likewise against the half-line
      [value, inf) ((-inf, value]): ``not reproduced`` when some interval lies wholly below
      (above) ``value``;
    - ``inconclusive`` whenever an interval is unbounded (no SE) or an estimate is missing:
      such a check cannot fail.

    :meth:`detectable` is the check's power in the claim's units: the smallest departure from
    the claimed region that the check flags with probability about 1 - alpha/2 (alpha of the
    interval): margin + 2 half (the interval must clear the region's edge, and the estimate
    scatters by about half around the true value), the largest over the parts. ``scale`` (the
    curve's range, say; default the largest |value| of the parts, the claimed value) makes it
    relative. A claim whose ``resolution`` (the
    departure it is about) is smaller than what its check detects is ``inconclusive``
    (:func:`evaluate`): its check cannot tell the difference the claim is about.
    """

    estimate: Any
    half: Any
    compare: str
    value: Any
    margin: Any = 0.0
    scale: float = float("nan")

    @classmethod
    def joint(cls, checks: list[Check], scale: float | None = None) -> Check:
        """One check of several parts (all with the same ``compare``): it holds when every
        part holds; scaled by ``scale``, default the largest |value| of the parts."""
        (compare,) = {c.compare for c in checks}
        est, half, value, margin = (np.concatenate(part) for part in
                                    zip(*(c._parts() for c in checks), strict=True))
        if scale is None:
            scale = float(np.abs(value).max()) if value.size else float("nan")
        return cls(est, half, compare, value, margin, scale=scale)

    def _parts(self) -> tuple[np.ndarray, ...]:
        return np.broadcast_arrays(*(np.atleast_1d(np.asarray(v, dtype=float)) for v in
                                     (self.estimate, self.half, self.value, self.margin)))

    def verdict(self) -> str:
        est, half, value, margin = self._parts()
        lo, hi = est - half, est + half
        if not (np.isfinite(half).all() and np.isfinite(est).all()):
            return INCONCLUSIVE  # no interval (or no estimate): the check cannot fail
        if self.compare == "above":
            fail, hold = hi <= value, lo > value
        elif self.compare == "below":
            fail, hold = lo >= value, hi < value
        elif self.compare == "at_least":
            fail = hi < value
            hold = ~fail
        elif self.compare == "at_most":
            fail = lo > value
            hold = ~fail
        else:
            fail = (lo > value + margin) | (hi < value - margin)
            hold = ~fail
        if fail.any():
            return NOT_REPRODUCED
        return REPRODUCED if hold.all() else INCONCLUSIVE

    def missing(self) -> bool:
        """Whether every part's estimate is NaN: the statistic was computed from no number (a
        method's NaN estimates), so there is nothing to test."""
        est = self._parts()[0]
        return bool(est.size) and bool(np.isnan(est).all())

    def detectable(self) -> float:
        _, half, _, margin = self._parts()
        return float(np.max(margin + 2 * half))

    def detectable_share(self) -> float:
        """:meth:`detectable` as a share of |scale| for a check that passes when it finds no
        departure (:data:`PASSIVE`): how far from the claim a value must lie before this check
        can tell. NaN for ``above`` and ``below``, which pass only when the interval clears
        the bound (the pass is itself the evidence), and without a nonzero scale."""
        scale = self._scale()
        if self.compare not in PASSIVE or not (np.isfinite(scale) and scale):
            return float("nan")
        return self.detectable() / scale

    def _scale(self) -> float:
        """|scale|, or the largest |value| of the parts when none is given (the claimed
        value)."""
        if np.isfinite(self.scale):
            return abs(float(self.scale))
        value = self._parts()[2]
        return float(np.abs(value).max()) if value.size else float("nan")

    def power(self) -> str:
        """:meth:`detectable` as the scorecard states it."""
        d = self.detectable()
        if not np.isfinite(d):
            return "none: the interval is unbounded"
        scale = self._scale()
        rel = f" ({d / scale:.1%} of {scale:.4g})" if np.isfinite(scale) and scale else ""
        side = {"above": "below the bound", "below": "above the bound",
                "at_least": "below the bound", "at_most": "above the bound"}.get(
            self.compare, "from the claimed value")
        return f"departures of {d:.3g}{rel} {side}"


def default_k(claim: dict, equality: bool) -> float:
    """The claim's ``k``, or 3 for an equality and 2 for a one-sided test."""
    return claim["k"] if claim["k"] is not None else (3.0 if equality else 2.0)


def claim_row(claim: dict, learner: str, method: str, reproduced: str, tolerance: str,
              ok: Check | bool | None, reason: str = "") -> dict:
    """A scorecard row; ``ok`` is the row's :class:`Check` (its verdict and power), a bare
    truth value for a test without sampling error or None for ``no data``, and ``reason``
    says why there is none (empty: the caller of :func:`evaluate` tells). A check whose
    estimates are all NaN (:meth:`Check.missing`) gives a row without data saying so, not a
    reading of NaN."""
    if isinstance(ok, Check) and ok.missing():
        return claim_row(claim, learner, method, "", "", None,
                         f"its statistic is NaN, computed from no number ({reproduced})")
    if isinstance(ok, Check):
        verdict, power, detect = ok.verdict(), ok.power(), ok.detectable()
        share = ok.detectable_share()
    else:
        verdict = NO_DATA if ok is None else (REPRODUCED if ok else NOT_REPRODUCED)
        power, detect = ("" if ok is None else "exact: any departure"), (
            float("nan") if ok is None else 0.0)
        share = float("nan") if ok is None else 0.0
    return {
        "claim": claim["id"], "figure": claim.get("figure", ""), "text": claim["text"],
        "scenario": claim["where"]["scenario"], "learner": learner, "method": method,
        "published": claim["published"], "reproduced": reproduced, "tolerance": tolerance,
        "power": power, "detectable": detect, "detectable_share": share, "verdict": verdict,
        "reason": reason,
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
    whose kind gives no reason get ``reason(claim, row)``; rows of a ``reported`` claim with
    data get the verdict ``reported``; a reproduced row whose check detects only departures
    larger than the claim's ``resolution`` is ``inconclusive``, and one that passes by finding
    no departure but detects only departures above :data:`CONSISTENT_SHARE` of the claimed
    value is ``consistent``; rows that miss get the class
    and sentence of the first of the claim's ``misses`` that matches them (:func:`miss_of`)."""
    rows = []
    for c in claims:
        if c["where"]["scenario"] in scenarios:
            new = CLAIMS.get(c["kind"])(c, tables)
        else:
            new = [claim_row(c, str(c["where"]["learner"]), str(c["where"]["method"]), "", "",
                             None) | {"verdict": NOT_RUN}]
        for row in new:
            row["source"] = c["source"]
            row["reason_class"] = ""
            if row["verdict"] in (NO_DATA, NOT_RUN) and not row["reason"]:
                row["reason"] = reason(c, row)
            elif c.get("reported") and row["verdict"] not in (NO_DATA, NOT_RUN):
                row["verdict"], row["tolerance"] = REPORTED, ""
            elif row["verdict"] == REPRODUCED and row["detectable"] > c.get("resolution", np.inf):
                row["verdict"] = INCONCLUSIVE
                row["reason"] = (f"the check detects departures of {row['detectable']:.3g}, "
                                 f"not the {c['resolution']:g} the claim is about")
            elif row["verdict"] == REPRODUCED and \
                    row.get("detectable_share", np.nan) > CONSISTENT_SHARE:
                row["verdict"] = CONSISTENT
                row["reason"] = (f"no departure found, but the check detects only departures "
                                 f"of {row['detectable_share']:.0%} of the claimed value or "
                                 f"more (consistent: above {CONSISTENT_SHARE:.0%})")
            if row["verdict"] in MISSES and (miss := miss_of(c, row)) is not None:
                row["reason_class"], row["reason"] = miss["class"], miss["why"]
        rows.extend(new)
    return pd.DataFrame(rows, columns=SCORECARD_COLUMNS)


#: the columns of a study's scorecard
SCORECARD_COLUMNS = ["claim", "figure", "source", "text", "scenario", "learner", "method",
                     "published", "reproduced", "tolerance", "power", "detectable",
                     "detectable_share", "verdict", "reason_class", "reason"]


def miss_of(claim: Mapping[str, Any], row: Mapping[str, Any]) -> dict | None:
    """The first entry of the claim's ``misses`` whose ``scenario``, ``learner`` and
    ``method`` (each a name or a list; absent: any) match the row, or None."""
    for miss in claim.get("misses", []):
        if all(k not in miss or row[k] in as_list(miss[k])
               for k in ("scenario", "learner", "method")):
            return miss
    return None
