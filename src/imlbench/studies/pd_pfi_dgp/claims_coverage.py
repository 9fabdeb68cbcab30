"""The pattern claims on the coverage of learner-level PD bands and PFI intervals (Molnar et
al., "Relating the PDP and PFI to the data generating process", Sect. 8, Figs. 3-5 and 7-14):
statements about every cell of the simulation ("naive intervals under-cover in every cell",
"the correction lifts coverage", "bootstrap covers more than subsampling", ...). A published
number of Tables 1-2 is a ``contrast`` claim of its own on the statistic
``pd_pfi_dgp.coverage`` (:mod:`.statistics`); a pattern is a kind because its row joins the
tests of many cells (scenarios, quantities, columns, other learners), which a ``contrast``
claim, one cell against a value or one other cell, does not.

``pd_pfi_dgp.coverage_cells`` judges every cell of a claim with the comparison kit's tests on that
statistic: the scenarios ``over`` (null: ``where.scenario``), the ``quantity`` (pd, pfi or
both) and the ``columns`` (boot, boot*, subs, subs*, ideal) at ``m`` refits, for each learner
of ``where``. Without ``than`` a cell's coverage is tested against ``value``
(:func:`imlbench.metrics.contrasts.one_sample`); with ``than`` its difference to the cell
``than`` moves it to (``column``: a mapping from the claim's columns to the other ones;
``learner``: each learner of a list; ``m``) is tested against ``value``
(:func:`imlbench.metrics.contrasts.difference`: the summary keeps no repetitions to pair, so
the two coverages are taken as independent, SE sqrt(SE_a^2 + SE_b^2), conservative for two
columns or refit counts of one simulation, which share their repetitions and are positively
correlated). ``share_of_gap`` s makes the claimed difference s (``value`` - the other cell's
coverage): the share of the other cell's gap to ``value`` that the difference closes.
``widths`` adds, for those columns, the exact comparison of the mean widths of the two cells,
their difference against 0 in the claim's direction (the summary gives a width without SE).
A row joins the checks of its cells (:meth:`~imlbench.metrics.claims.Check.joint`): one row
per learner, or with ``rows: column`` one per learner and column; a cell whose interval
straddles its bound makes the row ``inconclusive``; cells without a summary row or with fewer
than two repetitions are left out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from imlbench.metrics.claims import (
    INCONCLUSIVE,
    NOT_REPRODUCED,
    Check,
    NoData,
    Tables,
    as_list,
    claim_kind,
    claim_row,
)
from imlbench.metrics.contrasts import (
    COMPARES,
    Cell,
    Judged,
    K,
    Sample,
    difference,
    few,
    one_sample,
)
from imlbench.params import (
    REQUIRED,
    choice,
    either,
    integer,
    items,
    number,
    study_name,
    table,
    text,
)
from imlbench.studies.pd_pfi_dgp.statistics import (
    COLUMN,
    QUANTITIES,
    QUANTITY,
    coverage,
    summary_row,
)

#: the other cell of a pattern claim: what moves (see the module doc)
THAN = table({"column": table(value=COLUMN), "learner": items(study_name("learners")),
              "m": integer(minimum=2)}, None, nullable=True)
#: the sign a per-column row's label shows for each comparison
SIGNS = {"equal": "=", "above": ">", "below": "<", "at_least": ">=", "at_most": "<="}


def _errors(claim: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The columns a ``than.column`` mapping moves must be the claim's."""
    moved = set((claim.get("than") or {}).get("column") or {})
    extra = sorted(moved - set(claim.get("columns") or []) - set(claim.get("widths") or []))
    return [("than", f"than.column moves {', '.join(extra)}, no column of the claim; allowed: "
                     f"{', '.join(claim.get('columns') or [])}")] if extra else []


def _others(claim: dict, cell: Cell) -> list[Cell]:
    """The cells ``than`` moves ``cell`` to (none without ``than``)."""
    than = claim["than"]
    if not than:
        return []
    column = (than.get("column") or {}).get(cell.params["column"], cell.params["column"])
    params = {**cell.params, "column": column, "m": than.get("m", cell.params["m"])}
    return [Cell(cell.scenario, lrn, cell.method, params)
            for lrn in than.get("learner") or [cell.learner]]


def _sample(cell: Cell, t: Tables) -> Sample | NoData:
    """The coverage of ``cell``, or why it gives no SE."""
    got = coverage(cell, t)
    if isinstance(got, NoData):
        return got
    return few(got.moments()[2], 2, got.what, f"{cell.scenario}/{cell.learner}") or got


def _judged(claim: dict, a: Sample, b: Sample | None, other: Cell | None) -> Judged:
    """A cell's check: ``a`` against ``value``, or ``a`` - ``b`` against it (see the module
    doc)."""
    k, compare = claim["k"], claim["compare"]
    if b is None:
        return one_sample(a, claim["value"], k=k, compare=compare, atol=claim["atol"])
    value = claim["value"]
    if claim["share_of_gap"] is not None:
        value = claim["share_of_gap"] * (value - b.moments()[0])
    return difference(a, b, f"{other.learner} {other.params['column']} m{other.params['m']}",
                      value, k=k, compare=compare, atol=claim["atol"])


def _width_check(t: Tables, cell: Cell, other: Cell, compare: str
                 ) -> tuple[str, Check] | None:
    """The exact comparison of the two cells' mean widths, their difference against 0 as
    ``compare`` says (None: a cell is missing or has fewer than two repetitions)."""
    rows = [summary_row(t, c.scenario, c.learner, c.params["quantity"], c.params["column"],
                        c.params["m"]) for c in (cell, other)]
    if any(isinstance(r, NoData) or r["reps"] < 2 for r in rows):
        return None
    a, b = (float(r["width"]) for r in rows)
    return (f"{cell.scenario} {cell.params['quantity']} {cell.params['column']} width "
            f"{a:.3f} -> {b:.3f}", Check(a - b, 0.0, compare, 0.0))


def _cell_checks(claim: dict, t: Tables, learner: str, columns: list[str], widths: list[str]
                 ) -> tuple[list[tuple[str, Check]], list[tuple[tuple[str, str], str]]]:
    """(description, check) of every cell of ``learner`` and ``columns`` (and the width
    comparisons of ``widths``), and the ((scenario, learner), reason) of the cells left out."""
    checks, gaps = [], []
    for sc in claim["over"] or [claim["where"]["scenario"]]:
        for q in as_list(claim["quantity"]):
            for col in dict.fromkeys(columns + widths):
                cell = Cell(sc, learner, claim["where"]["method"],
                            {"column": col, "quantity": q, "m": claim["m"]})
                a = _sample(cell, t)
                if isinstance(a, NoData):
                    gaps.append(((sc, learner), a.reason))
                    continue
                for other in _others(claim, cell) or [None]:
                    b = None if other is None else _sample(other, t)
                    if isinstance(b, NoData):
                        gaps.append(((sc, other.learner), b.reason))
                        continue
                    if col in columns:
                        judged = _judged(claim, a, b, other)
                        checks.append((f"{sc} {judged.reproduced}", judged.check))
                    if col in widths and other is not None:
                        checks += [w for w in [_width_check(t, cell, other, claim["compare"])] if w]
    return checks, gaps


def _reason(t: Tables, gaps: list[tuple[tuple[str, str], str]]) -> str:
    """Why a row has no cell: the first cell left out, those of the (scenario, learner) pairs
    the summary holds first (``over`` may name scenarios that do not fit every learner)."""
    s = t.summary
    ran = set(zip(s["scenario"], s["learner"], strict=True)) if len(s) else set()
    return next((why for pair, why in sorted(gaps, key=lambda g: g[0] not in ran) if why), "")


def _row(claim: dict, learner: str, label: str, checks: list[tuple[str, Check]], reason: str,
         tolerance: str) -> dict:
    """The row of ``checks`` (a description and a check per cell, all of one ``compare``),
    joined into one :class:`~imlbench.metrics.claims.Check` (relative to 1, coverages being
    shares); with none, "no data" and ``reason``."""
    if not checks:
        return claim_row(claim, learner, label, "", "", None, reason)
    verdicts = [c.verdict() for _, c in checks]
    failed = [d for (d, _), v in zip(checks, verdicts, strict=True) if v == NOT_REPRODUCED]
    straddle = [d for (d, _), v in zip(checks, verdicts, strict=True) if v == INCONCLUSIVE]
    held = len(checks) - len(failed) - len(straddle)
    shown = ([f"failing: {'; '.join(failed[:3])}"] if failed else []) + (
        [f"undecided: {'; '.join(straddle[:3])}"] if straddle else [])
    return claim_row(claim, learner, label,
                     f"{held} of {len(checks)} cells hold; "
                     + ("; ".join(shown) if shown else f"e.g. {checks[0][0]}"),
                     tolerance, Check.joint([c for _, c in checks], scale=1.0))


def _tolerance(claim: dict) -> str:
    k, value, compare = claim["k"], claim["value"], claim["compare"]
    of = "coverage" if not claim["than"] else "difference to the other cell"
    target = (f"{claim['share_of_gap']:g} x ({value:g} - the other cell's coverage)"
              if claim["share_of_gap"] is not None else f"{value:g}")
    bound = {"equal": f"|{of} - {target}| <= t({k:g}) SE + {claim['atol']:g}",
             "above": f"{of} - t({k:g}) SE > {target}",
             "below": f"{of} + t({k:g}) SE < {target}",
             "at_least": f"{of} + t({k:g}) SE >= {target}",
             "at_most": f"{of} - t({k:g}) SE <= {target}"}[compare]
    widths = "; mean width of the first above that of the other (exact)" if claim["widths"] \
        else ""
    return (f"every cell: {bound}{widths} (t({k:g}): the t quantile at Phi({k:g}) with the "
            f"cell's repetitions - 1 df; SE: the summary's, over repetitions and of the "
            f"coverage target" + ("; of a difference sqrt(SE_a^2 + SE_b^2)" if claim["than"]
                                  else "") + ")")


@claim_kind("pd_pfi_dgp.coverage_cells", params={
    "columns": items(COLUMN), "widths": items(COLUMN, []),
    "quantity": either(QUANTITY, items(QUANTITY), default=list(QUANTITIES)),
    "over": items(text(), None, nullable=True), "m": integer(15, minimum=2), "than": THAN,
    "compare": choice(REQUIRED, COMPARES), "value": number(0.0), "atol": number(0.0, minimum=0),
    "share_of_gap": number(None, minimum=0, maximum=1, nullable=True),
    "rows": choice("learner", ("learner", "column")), **K}, errors=_errors)
def coverage_cells(claim: dict, t: Tables) -> list[dict]:
    """Every cell of the claim passes the comparison kit's test, one row per learner (or per
    learner and column), verdict and power per :class:`imlbench.metrics.claims.Check` joined
    over the cells (see the module doc)."""
    tolerance = _tolerance(claim)
    moved = (claim["than"] or {}).get("column") or {}
    groups = ([[c] for c in claim["columns"]] if claim["rows"] == "column"
              else [claim["columns"]])
    rows = []
    for learner in as_list(claim["where"]["learner"]):
        for columns in groups:
            widths = [w for w in claim["widths"] if claim["rows"] == "learner" or w in columns]
            label = (f"{columns[0]} {SIGNS[claim['compare']]} {moved.get(columns[0])}"
                     if claim["rows"] == "column" and columns[0] in moved
                     else "/".join(dict.fromkeys(columns + widths)))
            checks, gaps = _cell_checks(claim, t, learner, columns, widths)
            rows.append(_row(claim, learner, label, checks, _reason(t, gaps), tolerance))
    return rows

