"""Which rows and estimate files of a run differ from its reference, beyond floating point.

Floating point: the jobs compute on one thread with the same OpenBLAS kernels
(:mod:`imlbench.numerics`), so two runs of one configuration give the same bits; another
BLAS library, processor or compiler changes the last bits of a value, a relative 1e-15 after
one reduction and, compounded through a fit, far less than the floating-point floor of
:mod:`imlbench.metrics.truth_tolerance` (``FP_RTOL``, ``FP_ATOL``). So:

- a float the reference stores at full precision (a row's ``detectable`` and
  ``detectable_share``) is equal when |a - b| <= FP_RTOL max(|a|, |b|) + FP_ATOL;
- a number the scorecard prints in a row's ``reproduced`` text (4 significant digits for
  values, 3 for SEs) is equal when it differs by at most one unit in its
  :data:`PRINTED_DIGITS`-th significant digit: the rounding of the print, which a change of
  1e-9 crosses with a probability of about 1e-5; whole numbers (counts of repetitions, points)
  must be equal; the text around the numbers must be equal;
- an estimate file's column digest (:data:`imlbench.reference.digest.NUMERIC_DIGEST`) is
  equal when its counts are, and its sums and weighted sums differ by at most
  FP_RTOL x (sum of |x|) + FP_ATOL x rows (each value moved by a relative FP_RTOL at most),
  its sum of squares by twice that relative to itself; a text column's hash must be equal.

A row that *moved* (differs beyond floating point) is *within Monte Carlo tolerance* when no
count changed and every printed number (and ``detectable``) moved by at most the reference
row's ``detectable`` / 2 (:data:`MC_SHARE`): its interval's half-width (plus half the claim's
margin), the t-quantile times the SE over the repetitions, i.e. a change a rerun with another
seed makes often; else it moved *beyond* it. Verdict changes are listed apart. Rows on
scenarios that measure run time (``measured``) are not compared.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from imlbench.metrics.truth_tolerance import FP_ATOL, FP_RTOL
from imlbench.reference.digest import KEY, NUMERIC_DIGEST, RefusedComparison, RunDigest

#: the significant digit whose unit bounds the change of a printed number
PRINTED_DIGITS = 4
#: a row's Monte Carlo tolerance as a share of its reference ``detectable``
MC_SHARE = 0.5
#: a number in a row's text: not part of a name (``x1``, ``rho0.9``)
_NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|nan|inf)(?!\w)")
_WHOLE = re.compile(r"[-+]?\d+")

Key = tuple


def row_key(row: dict[str, Any]) -> Key:
    return tuple(row[k] for k in KEY)


def close(a: float | None, b: float | None, scale: float, atol: float = FP_ATOL) -> bool:
    """Whether ``a`` and ``b`` (None: NaN) are equal up to FP_RTOL x ``scale`` + ``atol``."""
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= FP_RTOL * scale + atol


def printed_change(a: str, b: str) -> float:
    """The largest change between the numbers of two texts that differs beyond their print
    (0 when none does; inf when the texts differ around their numbers, or in a whole number
    or a NaN)."""
    ta, tb = _NUMBER.findall(a), _NUMBER.findall(b)
    if _NUMBER.sub("#", a) != _NUMBER.sub("#", b) or len(ta) != len(tb):
        return math.inf
    largest = 0.0
    for sa, sb in zip(ta, tb, strict=True):
        x, y = float(sa), float(sb)
        if x == y or (math.isnan(x) and math.isnan(y)):
            continue
        if (_WHOLE.fullmatch(sa) and _WHOLE.fullmatch(sb)) or not math.isfinite(x - y):
            return math.inf
        unit = 10.0 ** (math.floor(math.log10(max(abs(x), abs(y)))) - PRINTED_DIGITS + 1)
        if abs(x - y) > unit * (1 + FP_RTOL):
            largest = max(largest, abs(x - y))
    return largest


@dataclass(frozen=True)
class Moved:
    """A scorecard row that differs beyond floating point: the reference's and the run's,
    the largest change of its numbers (:func:`row_change`) and its Monte Carlo tolerance."""

    old: dict[str, Any]
    new: dict[str, Any]
    change: float
    tolerance: float

    @property
    def within_monte_carlo(self) -> bool:
        return self.change <= self.tolerance


def _moved(old: dict[str, Any], new: dict[str, Any], col: str) -> float:
    """|change| of a full-precision float of two rows beyond floating point (0: none; inf:
    one of them is NaN)."""
    a, b = old[col], new[col]
    if close(a, b, max(abs(a or 0.0), abs(b or 0.0))):
        return 0.0
    return math.inf if a is None or b is None else abs(a - b)


def row_change(old: dict[str, Any], new: dict[str, Any]) -> float:
    """How far a row moved beyond floating point: the largest change of a printed number
    (:func:`printed_change`) or of ``detectable``; inf when only ``detectable_share`` moved
    (the scale it refers to changed, not the check); 0 when the row did not move."""
    change = max(printed_change(old["reproduced"], new["reproduced"]),
                 _moved(old, new, "detectable"))
    return change or (math.inf if _moved(old, new, "detectable_share") else 0.0)


def file_changes(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """What differs between two digests of an estimate file beyond floating point (empty:
    nothing)."""
    if old["rows"] != new["rows"]:
        return [f"rows {old['rows']} -> {new['rows']}"]
    cols_a, cols_b = old["columns"], new["columns"]
    out = [f"columns {sorted(set(cols_a) - set(cols_b))} -> {sorted(set(cols_b) - set(cols_a))}"
           ] if set(cols_a) != set(cols_b) else []
    n = old["rows"]
    for col in [c for c in cols_a if c in cols_b]:
        a, b = cols_a[col], cols_b[col]
        if isinstance(a, str) or isinstance(b, str):
            if a != b:
                out.append(f"{col}: values differ")
            continue
        da, db = dict(zip(NUMERIC_DIGEST, a, strict=True)), dict(zip(NUMERIC_DIGEST, b,
                                                                      strict=True))
        scale = max(da["sum_of_abs"], db["sum_of_abs"])
        bad = [s for s in ("nan", "+inf", "-inf") if da[s] != db[s]]
        bad += [s for s in ("sum", "weighted_sum", "sum_of_abs")
                if not close(da[s], db[s], scale, FP_ATOL * n)]
        if not close(da["sum_of_squares"], db["sum_of_squares"],
                     2 * max(da["sum_of_squares"], db["sum_of_squares"]), FP_ATOL * n):
            bad.append("sum_of_squares")
        if bad:
            out.append(f"{col}: {', '.join(f'{s} {da[s]:.6g} -> {db[s]:.6g}' for s in bad)}")
    return out


@dataclass
class Differences:
    """What differs between a reference and a run (see the module doc)."""

    studies_missing: list[str] = field(default_factory=list)
    studies_extra: list[str] = field(default_factory=list)
    moved: list[Moved] = field(default_factory=list)
    verdicts: list[tuple[dict[str, Any], dict[str, Any]]] = field(default_factory=list)
    rows_missing: list[Key] = field(default_factory=list)
    rows_extra: list[Key] = field(default_factory=list)
    files_changed: dict[str, list[str]] = field(default_factory=dict)
    files_missing: list[str] = field(default_factory=list)
    files_extra: list[str] = field(default_factory=list)
    rows_compared: int = 0
    rows_measured: int = 0
    files_compared: int = 0

    def __bool__(self) -> bool:
        return bool(self.studies_missing or self.studies_extra or self.moved or self.verdicts
                    or self.rows_missing or self.rows_extra or self.files_changed
                    or self.files_missing or self.files_extra)


def refusal(reference: RunDigest, run: RunDigest) -> str:
    """Why ``run`` cannot be compared with ``reference`` (another profile or base seed), or
    the empty string."""
    for what, a, b in (("profile", reference.profile, run.profile),
                       ("base seed", reference.base_seed, run.base_seed)):
        if a != b:
            return (f"the run's {what} is {b}, the reference's {a}: only runs of the same "
                    f"profile and base seed compare (the reference of each profile is "
                    f"reference/<profile>.json)")
    return ""


def compare_digests(reference: RunDigest, run: RunDigest,
                    studies: list[str] | None = None) -> Differences:
    """The differences between ``run`` and ``reference`` (of the same profile and base seed,
    else :class:`RefusedComparison`), over ``studies`` (default: every study of either; a
    study only one of them holds is a difference)."""
    if why := refusal(reference, run):
        raise RefusedComparison(why)
    diff = Differences()
    if studies is None:
        diff.studies_missing = [s for s in reference.studies if s not in run.studies]
        diff.studies_extra = [s for s in run.studies if s not in reference.studies]
        studies = [s for s in reference.studies if s in run.studies]
    else:
        diff.studies_missing = [s for s in studies if s not in reference.studies
                                or s not in run.studies]
    old = {row_key(r): r for r in reference.rows if r["study"] in studies}
    new = {row_key(r): r for r in run.rows if r["study"] in studies}
    diff.rows_missing = [k for k in old if k not in new]
    diff.rows_extra = [k for k in new if k not in old]
    for key in [k for k in old if k in new]:
        a, b = old[key], new[key]
        if a["measured"] or b["measured"]:
            diff.rows_measured += 1
            continue
        diff.rows_compared += 1
        if a["verdict"] != b["verdict"]:
            diff.verdicts.append((a, b))
        if change := row_change(a, b):
            tolerance = MC_SHARE * a["detectable"] if a["detectable"] is not None else 0.0
            diff.moved.append(Moved(a, b, change, tolerance))
    inside = {p: d for p, d in reference.estimates.items() if p.split("/", 1)[0] in studies}
    present = {p: d for p, d in run.estimates.items()
               if p.split("/", 1)[0] in studies and d is not None}
    diff.files_missing = sorted(p for p in inside if p not in present)
    diff.files_extra = sorted(p for p in present if p not in inside)
    for path in sorted(p for p in inside if p in present):
        diff.files_compared += 1
        if changes := file_changes(inside[path], present[path]):
            diff.files_changed[path] = changes
    return diff


def _name(row: dict[str, Any]) -> str:
    part = f" #{row['part']}" if row["part"] else ""
    return (f"{row['study']}/{row['claim']} ({row['scenario']}, {row['learner']}, "
            f"{row['method']}{part})")


def _listed(title: str, lines: list[str]) -> list[str]:
    return [f"{title} ({len(lines)}):", *(f"  {line}" for line in lines)] if lines else []


def report(reference: RunDigest, run: RunDigest, diff: Differences) -> str:
    """The comparison as ``python -m imlbench compare`` prints it: the two runs, the counts,
    then every difference by kind, and a last line that says whether any differs."""
    lines = [f"reference: profile {reference.profile}, base seed {reference.base_seed}, "
             f"studies {', '.join(reference.studies)}; code {reference.code['version']} "
             f"{reference.code['git_revision']}",
             f"run:       profile {run.profile}, base seed {run.base_seed}, studies "
             f"{', '.join(run.studies)}; code {run.code['version']} {run.code['git_revision']}",
             f"compared {diff.rows_compared} scorecard rows ({diff.rows_measured} rows that read "
             f"measured run times are not compared) and {diff.files_compared} estimate files"]
    by_kind = defaultdict(list)
    for m in diff.moved:
        by_kind[m.within_monte_carlo].append(
            f"{_name(m.old)}: {m.old['reproduced']!r} -> {m.new['reproduced']!r} (detectable "
            f"{m.old['detectable']} -> {m.new['detectable']}; change {m.change:.3g}, Monte "
            f"Carlo tolerance {m.tolerance:.3g})")
    lines += _listed("studies of the reference not in the run", diff.studies_missing)
    lines += _listed("studies of the run not in the reference", diff.studies_extra)
    lines += _listed("rows that moved beyond Monte Carlo tolerance", by_kind[False])
    lines += _listed("rows that moved within Monte Carlo tolerance", by_kind[True])
    lines += _listed("verdicts that changed", [f"{_name(a)}: {a['verdict']} -> {b['verdict']}"
                                               for a, b in diff.verdicts])
    lines += _listed("rows of the reference missing from the run",
                     [" / ".join(map(str, k)) for k in diff.rows_missing])
    lines += _listed("rows of the run not in the reference",
                     [" / ".join(map(str, k)) for k in diff.rows_extra])
    lines += _listed("estimate files that differ",
                     [f"{p}: {'; '.join(c)}" for p, c in diff.files_changed.items()])
    lines += _listed("estimate files of the reference missing from the run", diff.files_missing)
    lines += _listed("estimate files of the run not in the reference", diff.files_extra)
    lines.append("differences beyond floating point: see above" if diff else
                 "no difference beyond floating point")
    return "\n".join(lines)
