"""Claims on the coverage of learner-level PD bands and PFI intervals (Molnar et al., "Relating
the PDP and PFI to the data generating process", Sect. 8, Tables 1-2, Figs. 3-5 and 7-14).

Coverages come from the study's summary table (``metrics/summary.parquet``, written by the
summaries job with :func:`imlbench.studies.pd_pfi_dgp.summaries.summarise`, the ``summarise``
of method ``learner_refits``): per cell the mean over repetitions of the share of covering
intervals, with its standard error SE over repetitions. A published coverage c_pub, rounded
to two decimals, is reproduced when |c - c_pub| <= z SE + 0.005 (the half-unit of the
rounding). Table columns are named as the paper's: boot, subs (naive variance), boot*, subs*
(corrected) and ideal.

Every kind's verdict and power are those of :class:`imlbench.metrics.claims.Check` (power:
margin + 2 half, relative to 1, coverages being shares): an interval c +- z SE (or a
difference of two coverages with the sum of their SEs) per cell against its bound; a pattern
claim's row joins the checks of its cells (:meth:`~imlbench.metrics.claims.Check.joint`), so
a cell whose interval straddles its bound makes it ``inconclusive``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import numpy as np
import pandas as pd

from imlbench.metrics.claims import (
    INCONCLUSIVE,
    NOT_REPRODUCED,
    Check,
    Tables,
    as_list,
    claim_kind,
    claim_row,
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

#: the paper's table columns: (strategy, corrected)
COLUMNS = {"boot": ("bootstrap", False), "boot*": ("bootstrap", True),
           "subs": ("subsampling", False), "subs*": ("subsampling", True),
           "ideal": ("ideal", False)}
ROUNDING = 0.005
NOMINAL = 0.95
QUANTITIES = ("pd", "pfi")

COLUMN = choice(REQUIRED, tuple(COLUMNS))
QUANTITY = choice(REQUIRED, QUANTITIES)
Z = {"z": number(2.0, minimum=0)}
#: the cells of a pattern claim: the scenarios ``over`` (null: ``where.scenario``) and the
#: ``quantity`` (one or a list)
CELLS = {"over": items(text(), None, nullable=True),
         "quantity": either(QUANTITY, items(QUANTITY), default=list(QUANTITIES)), **Z}
#: the number of refits of the cells
M = {"m": integer(15, minimum=2)}
SOME_COLUMNS = {"columns": items(COLUMN)}
LEVEL = {"level": number(NOMINAL, minimum=0, maximum=1)}


def cell(t: Tables, scenario: str, learner: str, quantity: str, column: str, m: int
         ) -> pd.Series | None:
    """The summary row of one coverage cell, or None when it was not run."""
    s = t.summary
    if s.empty:
        return None
    strategy, corrected = COLUMNS[column]
    hit = s[(s["scenario"] == scenario) & (s["learner"] == learner) & (s["quantity"] == quantity)
            & (s["strategy"] == strategy) & (s["corrected"] == corrected) & (s["m"] == m)]
    return None if hit.empty else hit.iloc[0]


def cell_gap(t: Tables, scenario: str, learner: str, quantity: str, column: str, m: int) -> str:
    """Why a coverage cell cannot be checked: no summary row, or too few repetitions for its
    SE; "" when it can."""
    row = cell(t, scenario, learner, quantity, column, m)
    if row is not None:
        reps = int(row["reps"])
        return "" if np.isfinite(row["coverage_se"]) else (
            f"{scenario} has {reps} repetition{'s' * (reps != 1)} in this profile: a coverage "
            "SE needs 2")
    s = t.summary
    ms = s.loc[(s["scenario"] == scenario) & (s["learner"] == learner), "m"] if len(s) else s
    if not len(ms):
        return f"metrics/summary.parquet has no rows of {scenario}/{learner}"
    return (f"metrics/summary.parquet has no cell {scenario} {learner} {quantity} {column} at "
            f"m = {m} (this profile runs m = {ms.min()} to {ms.max()})")


def _first_gap(claim: dict, t: Tables, learners: list[str], columns: list[str], ms: list[int]
               ) -> str:
    """Why none of the claim's cells (its scenarios and quantities, ``learners``, ``columns``
    and refit counts ``ms``) can be checked: the first cell that cannot, those of the
    (scenario, learner) pairs the summary holds first (``over`` may name scenarios that do not
    fit every learner)."""
    cells = [(sc, learner, q, col, m) for sc in claim["over"] or [claim["where"]["scenario"]]
             for learner in learners for q in as_list(claim["quantity"])
             for col in columns for m in ms]
    s = t.summary
    ran = set(zip(s["scenario"], s["learner"], strict=True)) if len(s) else set()
    cells.sort(key=lambda c: c[:2] not in ran)
    return next((gap for c in cells if (gap := cell_gap(t, *c))), "")


@claim_kind("coverage_table", params={
    "values": table(value=number(minimum=0, maximum=1)), "quantity": QUANTITY, **M, **Z})
def coverage_table(claim: dict, t: Tables) -> list[dict]:
    """One row per table column of ``values``: published vs reproduced coverage at m refits,
    |c - c_pub| <= z SE + 0.005; verdict and power per :class:`imlbench.metrics.claims.Check`
    (c +- z SE equal to c_pub up to the rounding 0.005). SE is that of the summary (spread
    over repetitions and the coverage target's Monte Carlo error, :mod:`.summaries`); the
    paper's 10,000 repetitions and target runs make its own error negligible. The study's
    table claims use z = 3: a two-sided test at 0.27%, so that a cell the paper got right
    keeps its verdict under three seeds with probability 0.99 (at z = 2 one such cell in
    eight would change)."""
    z = claim["z"]
    sc, learner = claim["where"]["scenario"], claim["where"]["learner"]
    rows = []
    for column, published in claim["values"].items():
        row = cell(t, sc, learner, claim["quantity"], column, claim["m"])
        gap = cell_gap(t, sc, learner, claim["quantity"], column, claim["m"])
        base = claim_row(claim, learner, column, "", "", None, gap) | {
            "published": f"{published:.2f}"}
        if gap:
            rows.append(base)
            continue
        tol = z * row["coverage_se"] + ROUNDING
        check = Check(row["coverage"], z * row["coverage_se"], "equal", published, ROUNDING,
                      scale=1.0)
        rows.append(base | claim_row(
            claim, learner, column, f"{row['coverage']:.3f} (SE {row['coverage_se']:.3f}, "
            f"{int(row['reps'])} reps)", f"|diff| <= {z:g} SE + {ROUNDING} = {tol:.3f}", check,
        ) | {"published": f"{published:.2f}"})
    return rows


def _cells(claim: dict, t: Tables, learner: str, columns: list[str], m: int
           ) -> list[tuple[str, str, dict[str, pd.Series]]]:
    """(scenario, quantity, {column: summary row}) for every scenario of ``over`` and quantity
    where all ``columns`` were run."""
    out = []
    for sc in claim["over"] or [claim["where"]["scenario"]]:
        for q in as_list(claim["quantity"]):
            rows = {c: cell(t, sc, learner, q, c, m) for c in columns}
            if all(r is not None and np.isfinite(r["coverage_se"]) for r in rows.values()):
                out.append((sc, q, rows))
    return out


def _pattern_row(claim: dict, learner: str, label: str, checks: list[tuple[str, Check]],
                 gap: Callable[[], str]) -> dict:
    """The row of a pattern claim from its ``checks`` (a description and a check per cell, all
    of one ``compare``), joined into one :class:`~imlbench.metrics.claims.Check` (relative to
    1); with none, "no data" and ``gap()``."""
    if not checks:
        return claim_row(claim, learner, label, "", "", None, gap())
    verdicts = [c.verdict() for _, c in checks]
    failed = [d for (d, _), v in zip(checks, verdicts, strict=True) if v == NOT_REPRODUCED]
    straddle = [d for (d, _), v in zip(checks, verdicts, strict=True) if v == INCONCLUSIVE]
    held = len(checks) - len(failed) - len(straddle)
    shown = ([f"failing: {'; '.join(failed[:3])}"] if failed else []) + (
        [f"undecided: {'; '.join(straddle[:3])}"] if straddle else [])
    return claim_row(
        claim, learner, label,
        f"{held} of {len(checks)} cells hold; "
        + ("; ".join(shown) if shown else f"e.g. {checks[0][0]}"),
        claim["tolerance_text"], Check.joint([c for _, c in checks], scale=1.0),
    )


def _column_checks(claim: dict, t: Tables, check: Callable[[pd.Series], Check],
                   tolerance: str) -> list[dict]:
    """One row per learner: ``check(row)`` for every cell and column of ``columns``."""
    claim = {**claim, "tolerance_text": tolerance}
    rows = []
    for learner in as_list(claim["where"]["learner"]):
        checks = [(f"{sc} {q} {col} {r['coverage']:.3f} (SE {r['coverage_se']:.3f})", check(r))
                  for sc, q, cells in _cells(claim, t, learner, claim["columns"], claim["m"])
                  for col, r in cells.items()]
        rows.append(_pattern_row(claim, learner, "/".join(claim["columns"]), checks, partial(
            _first_gap, claim, t, [learner], claim["columns"], [claim["m"]])))
    return rows


@claim_kind("coverage_below", params={**SOME_COLUMNS, **CELLS, **M, **LEVEL})
def coverage_below(claim: dict, t: Tables) -> list[dict]:
    """Every cell's coverage of ``columns`` is below ``level``: c + z SE < level; verdict and
    power per :class:`imlbench.metrics.claims.Check` (c +- z SE below ``level``, every cell)."""
    z, level = claim["z"], claim["level"]
    return _column_checks(
        claim, t, lambda r: Check(r["coverage"], z * r["coverage_se"], "below", level),
        f"coverage + {z:g} SE < {level:g} in every cell")


@claim_kind("coverage_near", params={**SOME_COLUMNS, **CELLS, **M, **LEVEL,
                                     "slack": number(minimum=0)})
def coverage_near(claim: dict, t: Tables) -> list[dict]:
    """Every cell's coverage of ``columns`` is ``level``: |c - level| <= z SE + ``slack``
    (the paper's rounding of its 0.94-0.95); verdict and power per
    :class:`imlbench.metrics.claims.Check` (c +- z SE equal to ``level`` up to ``slack``, every
    cell)."""
    z, level, slack = claim["z"], claim["level"], claim["slack"]
    return _column_checks(
        claim, t, lambda r: Check(r["coverage"], z * r["coverage_se"], "equal", level, slack),
        f"|coverage - {level:g}| <= {z:g} SE + {slack:g}")


@claim_kind("coverage_gap_closed", params={**CELLS, **M,
                                           "share": number(minimum=0, maximum=1)})
def coverage_gap_closed(claim: dict, t: Tables) -> list[dict]:
    """The correction closes at least ``share`` of the gap to 0.95: for each strategy, the
    lift c* - c +- z SE(c* - c) against share (0.95 - c); SE(c* - c) <= SE(c*) + SE(c) (a
    bound, the two share their repetitions). Verdict and power per
    :class:`imlbench.metrics.claims.Check` (``above``, every cell): reproduced when every
    lift - z SE exceeds its bound, not reproduced when some lift + z SE stays at or under it,
    else (an interval straddles its bound) inconclusive."""
    z, share = claim["z"], claim["share"]
    claim = {**claim, "tolerance_text":
             f"lift - {z:g} SE > {share:g} x (0.95 - naive coverage) in every cell (lift + "
             f"{z:g} SE <= it: not reproduced)"}
    rows = []
    for learner in as_list(claim["where"]["learner"]):
        checks = []
        for naive in ("boot", "subs"):
            for sc, q, cells in _cells(claim, t, learner, [naive, naive + "*"], claim["m"]):
                lo, hi = cells[naive], cells[naive + "*"]
                lift = hi["coverage"] - lo["coverage"]
                se = hi["coverage_se"] + lo["coverage_se"]
                gap = NOMINAL - lo["coverage"]
                checks.append((f"{sc} {q} {naive}: {lo['coverage']:.3f} -> {hi['coverage']:.3f}",
                               Check(lift, z * se, "above", share * gap)))
        rows.append(_pattern_row(claim, learner, "boot/subs", checks, partial(
            _first_gap, claim, t, [learner], ["boot", "boot*", "subs", "subs*"], [claim["m"]])))
    return rows


@claim_kind("coverage_order", params={**CELLS, **M,
                                      "pairs": items(items(COLUMN, length=2))})
def coverage_order(claim: dict, t: Tables) -> list[dict]:
    """Column ``higher`` covers more than column ``lower`` in every cell: per cell the
    difference c_hi - c_lo +- z SE (SE the sum of the two SEs), and their mean over the cells
    +- z SE of the mean (cells taken as independent), each above 0. Verdict and power per
    :class:`imlbench.metrics.claims.Check`: reproduced when every interval lies above 0, not
    reproduced when one lies at or below it (a cell or the mean contradicts the order), else
    inconclusive."""
    z = claim["z"]
    claim = {**claim, "tolerance_text":
             f"each cell and the mean over cells: difference - {z:g} SE > 0 (difference + "
             f"{z:g} SE <= 0: not reproduced)"}
    rows = []
    for learner in as_list(claim["where"]["learner"]):
        for hi_col, lo_col in claim["pairs"]:
            checks, diffs, ses = [], [], []
            for sc, q, cells in _cells(claim, t, learner, [hi_col, lo_col], claim["m"]):
                d = cells[hi_col]["coverage"] - cells[lo_col]["coverage"]
                se = cells[hi_col]["coverage_se"] + cells[lo_col]["coverage_se"]
                diffs.append(d)
                ses.append(se)
                checks.append((f"{sc} {q}: {d:+.3f} (SE {se:.3f})",
                               Check(d, z * se, "above", 0.0)))
            if diffs:
                mean_se = float(np.sqrt(np.sum(np.square(ses)))) / len(ses)
                checks.append((f"mean difference {np.mean(diffs):+.3f} (SE {mean_se:.3f})",
                               Check(float(np.mean(diffs)), z * mean_se, "above", 0.0)))
            rows.append(_pattern_row(claim, learner, f"{hi_col} > {lo_col}", checks, partial(
                _first_gap, claim, t, [learner], [hi_col, lo_col], [claim["m"]])))
    return rows


@claim_kind("coverage_lowest", params={**SOME_COLUMNS, **CELLS, **M,
                                       "others": items(study_name("learners"))})
def coverage_lowest(claim: dict, t: Tables) -> list[dict]:
    """``where.learner`` has the lowest coverage of ``columns`` among ``others`` in every
    cell: c_learner + z SE < c_other for each other learner (SE the sum of the two); verdict
    and power per :class:`imlbench.metrics.claims.Check` (c_learner - c_other +- z SE below 0,
    every cell and other learner)."""
    z = claim["z"]
    claim = {**claim, "tolerance_text": f"c + {z:g} SE < c of every other learner, every cell"}
    learner = claim["where"]["learner"]
    checks = []
    for sc, q, cells in _cells(claim, t, learner, claim["columns"], claim["m"]):
        for col, r in cells.items():
            for other in claim["others"]:
                o = cell(t, sc, other, q, col, claim["m"])
                if o is None:
                    continue
                checks.append((f"{sc} {q} {col}: {r['coverage']:.3f} vs {other} "
                               f"{o['coverage']:.3f}",
                               Check(r["coverage"] - o["coverage"],
                                     z * (r["coverage_se"] + o["coverage_se"]), "below", 0.0)))
    return [_pattern_row(claim, learner, "/".join(claim["columns"]), checks, partial(
        _first_gap, claim, t, [learner, *claim["others"]], claim["columns"], [claim["m"]]))]


@claim_kind("refits_trend", params={**SOME_COLUMNS, **CELLS, "m_from": integer(2, minimum=2),
                                    "m_to": integer(30, minimum=2)})
def refits_trend(claim: dict, t: Tables) -> list[dict]:
    """From ``m_from`` to ``m_to`` refits the mean width falls in every cell, and the coverage
    of the resampling columns falls (c_from - c_to > z SE, SE the sum of the two); verdict
    and power per :class:`imlbench.metrics.claims.Check`, every part above 0: the coverage
    drops +- z SE, the width drops as they are (no SE: a half-width of 0)."""
    z, m0, m1 = claim["z"], claim["m_from"], claim["m_to"]
    claim = {**claim, "tolerance_text":
             f"width({m1}) < width({m0}); coverage({m0}) - coverage({m1}) > {z:g} SE"}
    rows = []
    for learner in as_list(claim["where"]["learner"]):
        checks = []
        for sc, q, first in _cells(claim, t, learner, claim["columns"], m0):
            for col, a in first.items():
                b = cell(t, sc, learner, q, col, m1)
                if b is None:
                    continue
                checks.append((f"{sc} {q} {col} width {a['width']:.3f} -> {b['width']:.3f}",
                               Check(a["width"] - b["width"], 0.0, "above", 0.0)))
                if col != "ideal":
                    se = a["coverage_se"] + b["coverage_se"]
                    checks.append((f"{sc} {q} {col} coverage {a['coverage']:.3f} -> "
                                   f"{b['coverage']:.3f}",
                                   Check(a["coverage"] - b["coverage"], z * se, "above",
                                         0.0)))
        rows.append(_pattern_row(claim, learner, "/".join(claim["columns"]), checks, partial(
            _first_gap, claim, t, [learner], claim["columns"], [m0, m1])))
    return rows
