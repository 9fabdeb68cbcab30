"""The comparison kit: one way to judge a claim.

A claim is a *statistic* computed once per repetition in a *cell* (a scenario, learner and
method of the study, with the statistic's selection keys: feature, point, width, ...), a
*test* and a direction. A study writes statistics (:func:`statistic`: a function of the cell
and the tables returning one value per repetition, :class:`Sample`); the tests here own the
standard error, the "too few repetitions" reason, the tolerance text and the power (the
:class:`imlbench.metrics.claims.Check`), for every claim kind of every study.

The claim kind ``contrast`` puts them together in a study file::

    - id: ch7-spread
      kind: contrast
      statistic: curve_value        # a registered statistic, with its parameters
      feature: x1
      at: 0.5
      test: paired                  # one of TESTS
      than: {method: ale_k10}       # the other cell: what differs from the claim's own
      compare: above                # the direction
      value: 0                      # the claimed value of the test's statistic

``than`` names the other cell by what differs from the claim's (``scenario``, ``learner``,
``method`` and any parameter of the statistic); every name in it is checked by ``imlbench
check`` against the study.

The tests (``k`` is a normal quantile, turned into the Student-t quantile t' with the
repetitions' degrees of freedom, :func:`imlbench.stats.t_multiplier`, because every SE here is
estimated from the repetitions):

``one_sample``   the mean of the statistic over the R repetitions against ``value``:
                 SE = sd / sqrt(R), t' on R - 1 df.
``paired``       d = statistic - statistic of ``than`` on the repetitions both have (the same
                 data sets: two methods, learners or points of one scenario), as
                 ``one_sample``: the pairing removes the data sets' shared variation.
``difference``   mean - mean of ``than`` for independent repetitions (two scenarios):
                 SE = sqrt(SE_a^2 + SE_b^2), t' on min(R_a, R_b) - 1 df (conservative).
``log_ratio``    log(mean / mean of ``than``) against log ``value``: SE by the delta method,
                 sqrt((SE_a / mean_a)^2 + (SE_b / mean_b)^2), the first-order SE of the log of
                 a ratio of two independent means (a ratio of means is what a paper prints
                 as "k times as large"; the log makes it symmetric and its SE additive); t' on
                 min(R_a, R_b) - 1 df; ``margin`` widens ``equal`` by log(1 + margin). When
                 both cells read the same data sets (as ``spread_ratio`` says), the same
                 delta method with their covariance: SE = sd over the R shared repetitions of
                 a_r / mean_a - b_r / mean_b, / sqrt(R), t' on R - 1 df (the pairing removes
                 what a data set does to both, e.g. the cost of its fitted model).
``spread_ratio`` the spread over repetitions (the sd over repetitions at each point of the
                 statistic, averaged over its points) divided by that of ``than``, against
                 ``value`` on the log scale. A spread has no per-repetition value, so the SE
                 of its log ratio is the sd over :data:`N_BOOT` bootstrap resamples of the
                 repetitions (a fixed seed, :data:`BOOT_SEED`): resampled together when both
                 cells read the same data sets (one scenario, rows that are data sets),
                 independently otherwise (another scenario, or rows that are independent
                 draws of the method, ``Sample.draws``). The
                 bootstrap needs no normality, which the few heavy-tailed values of a spike
                 or an extrapolating fit lack; t' on min(R_a, R_b) - 1 df.
``prediction``   a number printed from one run (or the mean of ``runs`` runs) against the
                 prediction interval of as many runs of ours: |mean - value| <=
                 t' sd sqrt(1/runs + 1/R) + atol.

Two statistics of one run that have no repetitions take their SE from the kit as well: a
spread (an interval's half-width) against a printed number, its normal-theory SE
(:func:`sd_se`), and a statistic of one set of refits that is no mean, its jackknife SE
(:func:`jackknife_se`).

A *trend* along a swept value (:func:`trend_test`) reads steps (one per sample size, forest or
feature count), each with its mean and SE. A contrast of steps estimated on separate samples
has SE sqrt(sum c_i^2 SE_i^2) (:func:`independent_se`), the one rule for every sum or
difference of independent estimates in the claims; where every step measured the same units
(the same explained points), the SE is that of the units' own contrasts (:func:`contrast_se`).

``compare`` is ``equal`` (|estimate - value| <= t' SE + atol), ``above``, ``below`` (one-sided)
or ``at_least`` / ``at_most`` (not significantly below / above).

A statistic that reads a truth, or is compared with a closed form, says how (``Sample.truth``,
a :class:`imlbench.metrics.truth_tolerance.TruthPart`): the tests of means then widen t' SE to
t' sqrt(SE^2 + SE_truth^2) + floor (:func:`half_width`), SE_truth the truth's Monte Carlo SE
carried into the mean, difference or log ratio of means they test and floor the
floating-point floor (:func:`truth_of`), and their tolerance text says so. ``spread_ratio``
takes none: a truth that the repetitions share moves them alike, not their spread.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from imlbench.metrics.claims import (
    Check,
    NoData,
    Tables,
    claim_kind,
    claim_row,
    per_combo,
    select_rows,
)
from imlbench.metrics.truth_tolerance import TruthPart, tolerance_parts, truth_of_means
from imlbench.params import (
    Param,
    choice,
    integer,
    number,
    registered,
    study_name,
    table,
)
from imlbench.registry import Registry
from imlbench.stats import mean_and_se, t_multiplier

#: the comparisons of a test (see the module doc)
COMPARES = ("equal", "above", "below", "at_least", "at_most")
#: the tests and whether each needs the other cell ``than``
TESTS = {"one_sample": False, "paired": True, "difference": True, "log_ratio": True,
         "spread_ratio": True, "prediction": False}
#: bootstrap resamples of the repetitions for the SE of a spread ratio, and their seed
N_BOOT, BOOT_SEED = 2000, 20210
#: the multiplier of every test: a normal quantile, turned into the t quantile of the
#: repetitions (:func:`imlbench.stats.t_multiplier`)
K = {"k": number(3.0, minimum=0)}


# --- cells and statistics ------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    """Where a statistic is read: a scenario, learner and method of the study and the
    statistic's parameters (its selection keys: feature, point, width, ...)."""

    scenario: str
    learner: str
    method: str
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def where(self) -> str:
        return f"{self.scenario}/{self.learner}/{self.method}"

    def moved(self, than: Mapping[str, Any] | None) -> Cell:
        """The other cell: this one with what ``than`` names instead (scenario, learner,
        method and any of the statistic's parameters)."""
        than = dict(than or {})
        keys = {k: than.pop(k) for k in ("scenario", "learner", "method") if k in than}
        return replace(self, **keys, params={**self.params, **than})

    def rows(self, t: Tables, table: str = "other") -> pd.DataFrame:
        """The cell's rows of the table ``table`` of :class:`Tables` (empty: none)."""
        df = getattr(t, table)
        if df.empty or not {"scenario", "learner", "method"} <= set(df):
            return df.iloc[:0]
        return select_rows(df, self.scenario, self.learner, self.method)


@dataclass(frozen=True)
class Sample:
    """A statistic's values in one cell: one per repetition (a Series indexed by rep), or a
    vector per repetition for a spread (a DataFrame, one row per repetition and one column
    per point); ``what`` names it in the scorecard, ``note`` adds to its reading."""

    values: pd.Series | pd.DataFrame
    what: str
    note: str = ""
    #: (mean, SE, repetitions) of a statistic that comes summarised (a summary table keeps a
    #: cell's mean over its repetitions and its SE, not the repetitions): the tests of means
    #: read these instead of the values, and a paired test has no pairs
    summary: tuple[float, float, int] | None = None
    #: the factor by which the SE of a mean of the values exceeds sd / sqrt(R): 1 for
    #: independent repetitions; sqrt(1 + R c) for R resamples whose test rows overlap (the
    #: correction of Nadeau & Bengio, 2003, :func:`imlbench.stats.t_halfwidth`)
    inflation: float = 1.0
    #: its rows are independent draws of the method (LIME's repeats), not the data sets that
    #: the cells of one scenario share: two such samples are never resampled together
    draws: bool = False
    #: how its values read a truth or a closed form (None: they read none): the tests of
    #: means widen their half-width by the truth's Monte Carlo SE and the floating-point
    #: floor it gives (:func:`truth_of`)
    truth: TruthPart | None = None

    def moments(self) -> tuple[float, float, int]:
        """The mean, its SE and the number of repetitions (:attr:`summary` when given)."""
        if self.summary is not None:
            return self.summary
        mean, se = mean_and_se(self.values)
        return mean, se * self.inflation, int(self.values.count())


#: a statistic: ``(cell, tables) -> Sample``, or :class:`NoData` saying why the cell gives none
Compute = Callable[[Cell, Tables], "Sample | NoData"]


@dataclass(frozen=True)
class StatisticSpec:
    """A registered statistic: its function and its declared parameters."""

    compute: Compute
    params: Mapping[str, Param] = field(default_factory=dict)


STATISTICS: Registry[StatisticSpec] = Registry(
    "statistic", providers=("imlbench.metrics.statistics",))


def statistic(name: str, *, params: Mapping[str, Param] | None = None
              ) -> Callable[[Compute], Compute]:
    """Register ``fn`` as statistic ``name`` with its parameters."""

    def decorator(fn: Compute) -> Compute:
        STATISTICS.register(name, module=fn.__module__)(StatisticSpec(fn, dict(params or {})))
        return fn

    return decorator


def statistic_params(claim: Mapping[str, Any]) -> Mapping[str, Param]:
    """The parameters of the statistic a ``contrast`` claim names (none while it names no
    registered statistic: the check says so)."""
    name = claim.get("statistic")
    return STATISTICS.get(name).params if isinstance(name, str) and name in STATISTICS else {}


def cell_fields(siblings: Mapping[str, Any]) -> dict[str, Param]:
    """The keys of a ``than`` block: the cell's scenario, learner and method (names of the
    study's entries) and any parameter of the claim's statistic."""
    optional = {k: replace(p, default=None) for k, p in statistic_params(siblings).items()}
    return {"scenario": study_name("scenarios", None), "learner": study_name("learners", None),
            "method": study_name("methods", None), **optional}


#: a claim's other cell: what differs from the claim's own (see the module doc)
THAN = table(cell_fields, None, nullable=True)


# --- the tests -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Judged:
    """What a test gives a row: the reading, the tolerance text and the check."""

    reproduced: str
    tolerance: str
    check: Check


def few(n: int, need: int, what: str, where: str) -> NoData | None:
    """Why ``n`` repetitions give no SE (``need`` are needed), or None."""
    if n >= need:
        return None
    return NoData(f"an SE over repetitions needs {what} in {need} repetitions or more; "
                  f"{where} has it in {n}")


def _bound(compare: str, value: float, k: float, atol: float, of: str = "mean") -> str:
    return {"equal": f"|{of} - {value:g}| <= t({k:g}) SE + {atol:g}",
            "above": f"{of} - t({k:g}) SE > {value:g}",
            "below": f"{of} + t({k:g}) SE < {value:g}",
            "at_least": f"{of} + t({k:g}) SE >= {value:g}",
            "at_most": f"{of} - t({k:g}) SE <= {value:g}"}[compare]


def mean_check(mean: float, se: float, n: int, target: float, k: float, atol: float,
               compare: str, se_rule: str = "sd over reps / sqrt(reps)",
               truth: tuple[float, float] | None = None) -> tuple[Check, str]:
    """A mean of ``n`` repetitions with its SE against ``target``: the interval mean +- t' SE
    against ``target`` as ``compare`` says (``equal`` widened by ``atol``), t' on n - 1 df;
    against a truth or a closed-form value, ``truth`` = (the truth's Monte Carlo SE carried
    into the mean, the floating-point floor) widens it to :func:`half_width`. Returns the
    check and the test as the scorecard states it."""
    tk = float(t_multiplier(k, n - 1))
    check = Check(float(mean), _half(tk, se, truth), compare, target,
                  atol if compare == "equal" else 0.0, scale=target)
    return check, (f"{_bound(compare, target, k, atol)} (t({k:g}) = {tk:.3g}: the t quantile "
                   f"at Phi({k:g}), {n - 1} df), {_se_text(se_rule, truth)}")


def _half(tk: float, se: float, truth: tuple[float, float] | None) -> float:
    """t' SE, or with ``truth`` (its SE, the floor) :func:`half_width`."""
    return float(half_width(tk, se, *(truth or (0.0, 0.0))))


def _se_text(se_rule: str, truth: tuple[float, float] | None) -> str:
    """The SE as the scorecard states it: ``se_rule``, or with ``truth`` every part
    (:func:`imlbench.metrics.truth_tolerance.tolerance_parts`)."""
    return f"SE = {se_rule}" if truth is None else tolerance_parts(*truth, se_rule)


def truth_of(*terms: tuple[Sample, float, pd.Index]) -> tuple[float, float] | None:
    """The truth's SE and the floating-point floor of sum_k c_k mean_k, mean_k the mean of
    sample k over the repetitions reps_k, for ``terms`` (sample, c_k, reps_k)
    (:func:`imlbench.metrics.truth_tolerance.truth_of_means` of the samples that read a
    truth or a closed form; None when none does)."""
    parts = [(s.truth, c, reps) for s, c, reps in terms if s.truth is not None]
    return truth_of_means(*parts) if parts else None


def compared(d: pd.Series, target: float, k: float, atol: float, compare: str,
             truth: tuple[float, float] | None = None) -> tuple[Check, float, str]:
    """``d`` (per repetition) against ``target`` (:func:`mean_check`, SE = sd / sqrt(R); with
    ``truth``, widened by the truth's SE and the floating-point floor). Returns (the check,
    SE, the test as the scorecard states it)."""
    mean, se = mean_and_se(d)
    check, tolerance = mean_check(mean, se, len(d), target, k, atol, compare, truth=truth)
    return check, se, tolerance


def _se_rule(s: Sample) -> str:
    if s.summary is not None:
        return "the summary's SE"
    return ("sd over reps / sqrt(reps)" if s.inflation == 1.0 else
            f"sd over reps / sqrt(reps) x {s.inflation:.3g} (overlapping resamples)")


def one_sample(a: Sample, value: float, *, k: float, compare: str, atol: float = 0.0
               ) -> Judged:
    """The mean of ``a`` over its repetitions against ``value`` (see the module doc)."""
    mean, se, n = a.moments()
    check, tolerance = mean_check(mean, se, n, value, k, atol, compare, _se_rule(a),
                                  truth_of((a, 1.0, a.values.index)))
    return Judged(f"{a.what}: {mean:.4g} (SE {se:.3g}, {n} reps{a.note})", tolerance, check)


def paired(a: Sample, b: Sample, other: str, value: float, *, k: float, compare: str,
           atol: float = 0.0) -> Judged | NoData:
    """d = a - b on the repetitions both have, against ``value`` (see the module doc); the
    larger :attr:`Sample.inflation` of the two applies to d."""
    if a.summary is not None or b.summary is not None:
        return NoData(f"a paired test needs the repetitions; {a.what} comes summarised")
    d = (a.values - b.values).dropna()
    why = few(len(d), 2, f"{a.what} and its value in {other}", "the pair")
    if why:
        return why
    diff = Sample(d, a.what, inflation=max(a.inflation, b.inflation))
    mean, se, n = diff.moments()
    check, tolerance = mean_check(mean, se, n, value, k, atol, compare, _se_rule(diff),
                                  truth_of((a, 1.0, d.index), (b, -1.0, d.index)))
    return Judged(
        f"{a.what}: {a.values.mean():.4g} against {b.values.mean():.4g} in {other}"
        f"{a.note}; paired difference {d.mean():.4g} (SE {se:.3g}, {len(d)} reps)",
        tolerance.replace("mean", "mean difference", 1), check)


def independent_se(*ses: Any) -> np.ndarray:
    """The SE of a sum or difference of independent estimates with standard errors ``ses``
    (numbers, arrays, or Series aligned by their index), elementwise: the root of the sum of
    their squares."""
    return np.sqrt(sum(s**2 if isinstance(s, pd.Series) else np.asarray(s, dtype=float) ** 2
                       for s in ses))


def half_width(tk: Any, se: Any, truth_se: Any, floor: Any) -> np.ndarray:
    """The half-width of an estimate's interval against a truth, elementwise: t' sqrt(SE^2 +
    SE_truth^2) + floor, the estimate's SE and the truth's Monte Carlo SE from independent
    draws (:func:`independent_se`) and the floating-point floor
    (:mod:`imlbench.metrics.truth_tolerance`)."""
    return np.asarray(tk, dtype=float) * independent_se(se, truth_se) + floor


def sd_se(sd: float, n: int) -> float:
    """The normal-theory SE of a sample sd of ``n`` values, sd / sqrt(2 (n - 1)): for a spread
    (an interval's half-width) checked against a printed number, where no repetitions of the
    spread exist."""
    return float(sd / np.sqrt(2 * (n - 1)))


def jackknife_se(values: np.ndarray, stat: Callable[[np.ndarray], float]) -> float:
    """The jackknife SE of ``stat(values)`` over the first axis of ``values`` (refits, say):
    sqrt((m - 1) / m sum (stat_(-i) - mean)^2), for a statistic of one set of refits that is
    no mean (a ratio of widths) and has no repetitions of its own."""
    m = len(values)
    loo = np.array([stat(np.delete(values, d, axis=0)) for d in range(m)])
    return float(np.sqrt((m - 1) / m * np.sum((loo - loo.mean()) ** 2)))


def _two_means(a: Sample, b: Sample) -> tuple[tuple[float, float], tuple[float, float], int]:
    (ma, sa, na), (mb, sb, nb) = a.moments(), b.moments()
    return (ma, sa), (mb, sb), min(na, nb) - 1


def difference(a: Sample, b: Sample, other: str, value: float, *, k: float, compare: str,
               atol: float = 0.0) -> Judged:
    """mean(a) - mean(b) of independent repetitions against ``value`` (see the module
    doc)."""
    (ma, sa), (mb, sb), df = _two_means(a, b)
    d, se = ma - mb, float(independent_se(sa, sb))
    tk = float(t_multiplier(k, df))
    atol = atol if compare == "equal" else 0.0
    truth = truth_of((a, 1.0, a.values.index), (b, -1.0, b.values.index))
    return Judged(
        f"{a.what}: {ma:.4g} (SE {sa:.3g}, {a.moments()[2]} reps) minus {mb:.4g} in {other} "
        f"(SE {sb:.3g}, {b.moments()[2]} reps) = {d:.4g}{a.note}",
        f"{_bound(compare, value, k, atol, 'd')} (t({k:g}) = {tk:.3g}, {df} df; "
        f"{_se_text('sqrt(SE_a^2 + SE_b^2), SE = sd over reps / sqrt(reps)', truth)})",
        Check(d, _half(tk, se, truth), compare, value, atol, scale=max(abs(ma), abs(mb))))


def log_ratio(a: Sample, b: Sample, other: str, value: float, *, k: float, compare: str,
              margin: float = 0.0, together: bool = False) -> Judged | NoData:
    """log(mean(a) / mean(b)) against log ``value`` (see the module doc); ``together``: the
    two read the same data sets, paired by repetition."""
    pairs = (pd.concat([a.values, b.values], axis=1, join="inner").dropna()
             if together and a.summary is None and b.summary is None else None)
    if pairs is not None and len(pairs) >= 2:
        va, vb = pairs.iloc[:, 0], pairs.iloc[:, 1]
        ma, mb, n = float(va.mean()), float(vb.mean()), len(pairs)
        reps_a = reps_b = pairs.index
    else:
        pairs = None
        (ma, sa), (mb, sb), df = _two_means(a, b)
        reps_a, reps_b = a.values.index, b.values.index
    if ma <= 0 or mb <= 0:
        return NoData(f"a log ratio needs positive means; {a.what} has {ma:.3g} against "
                      f"{mb:.3g} in {other}")
    if pairs is not None:
        _, se = mean_and_se(va / ma - vb / mb)
        se *= max(a.inflation, b.inflation)
        df, rule = n - 1, "paired by data set: sd of a_r / mean_a - b_r / mean_b / sqrt(R)"
        counts = f"{n} reps paired"
    else:
        se, rule = float(independent_se(sa / ma, sb / mb)), "independent means"
        counts = f"SE {sa:.2g}, {a.moments()[2]} reps; SE {sb:.2g}, {b.moments()[2]} reps"
    ratio = float(np.log(ma / mb))
    tk = float(t_multiplier(k, df))
    target, widen = float(np.log(value)), float(np.log1p(margin)) if compare == "equal" else 0.0
    truth = truth_of((a, 1 / ma, reps_a), (b, -1 / mb, reps_b))
    return Judged(
        f"{a.what}: {ma:.4g} over {mb:.4g} in {other} ({counts}): ratio "
        f"{np.exp(ratio):.3g}{a.note}",
        f"{_bound(compare, round(target, 4), k, 0.0, 'log ratio')}"
        + (f" + log(1 + {margin:g})" if widen else "")
        + f" (t({k:g}) = {tk:.3g}, {df} df; "
          + _se_text(f"the delta-method SE of the log ratio of two means over repetitions, "
                     f"{rule}", truth) + ")",
        Check(ratio, _half(tk, se, truth), compare, target, widen, scale=1.0))


def spread(values: pd.DataFrame | np.ndarray) -> float:
    """The sd over repetitions (rows) at every point (columns), averaged over the points."""
    return float(np.nanmean(np.nanstd(np.asarray(values, dtype=float), axis=0, ddof=1)))


def _wide(s: Sample) -> pd.DataFrame:
    v = s.values
    return (v.to_frame() if isinstance(v, pd.Series) else v).dropna(how="all")


def spread_ratio(a: Sample, b: Sample, other: str, value: float, *, k: float, compare: str,
                 together: bool) -> Judged | NoData:
    """spread(a) / spread(b) against ``value`` on the log scale, with a bootstrap SE (see the
    module doc); ``together``: both cells read the same data sets."""
    wa, wb = _wide(a), _wide(b)
    if together:
        reps = wa.index.intersection(wb.index)
        wa, wb = wa.loc[reps], wb.loc[reps]
    n = min(len(wa), len(wb))
    why = few(n, 3, f"{a.what} (a spread with a bootstrap SE)", f"{other} or the claim's cell")
    if why:
        return why
    va, vb = wa.to_numpy(float), wb.to_numpy(float)
    ratio = spread(va) / spread(vb)
    rng = np.random.default_rng(BOOT_SEED)
    draws = []
    for _ in range(N_BOOT):
        ia = rng.integers(0, len(va), len(va))
        ib = ia if together else rng.integers(0, len(vb), len(vb))
        with np.errstate(divide="ignore", invalid="ignore"):  # a spread of 0: left out
            draws.append(np.log(np.float64(spread(va[ia])) / spread(vb[ib])))
    draws = np.asarray(draws)
    se = float(np.std(draws[np.isfinite(draws)], ddof=1))
    tk = float(t_multiplier(k, n - 1))
    target = float(np.log(value))
    return Judged(
        f"{a.what}: spread over repetitions {spread(va):.4g} against {spread(vb):.4g} in "
        f"{other} ({len(va)} and {len(vb)} reps): ratio {ratio:.3g} (SE of its log "
        f"{se:.3g}){a.note}",
        f"{_bound(compare, round(target, 4), k, 0.0, 'log ratio')} (t({k:g}) = {tk:.3g}, "
        f"{n - 1} df); SE of the log ratio over {N_BOOT} bootstrap resamples of the "
        f"repetitions ({'together' if together else 'independently'})",
        Check(float(np.log(ratio)), tk * se, compare, target, scale=1.0))


def prediction_check(v: pd.Series, value: float, k: float, atol: float,
                     runs: int = 1, truth: tuple[float, float] | None = None
                     ) -> tuple[Check, str]:
    """``v`` (one value per repetition) against a number printed from one run or as the mean
    of ``runs`` runs: |mean - value| <= t' sd sqrt(1/runs + 1/R) + atol, the prediction
    interval of the mean of ``runs`` further runs; with ``truth`` (the truth's SE and the
    floating-point floor of a statistic read against a truth), t' sqrt(sd^2 (1/runs + 1/R)
    + SE_truth^2) + floor + atol (:func:`half_width`). The check and its tolerance text."""
    sd = float(v.std())
    tk = float(t_multiplier(k, len(v) - 1))
    half = _half(tk, sd * np.sqrt(1 / runs + 1 / len(v)), truth)
    one_or_mean = "one run" if runs == 1 else f"the mean of {runs} runs"
    spread = f"sd sqrt({'1' if runs == 1 else f'1/{runs}'} + 1/reps)"
    return (Check(float(v.mean()), half, "equal", value, atol, scale=value),
            f"|mean - {value:g}| <= t({k:g}) {spread if truth is None else 'SE'} + {atol:g} = "
            f"{half + atol:.3g} (t({k:g}) = {tk:.3g}: the t quantile at Phi({k:g}), "
            f"{len(v) - 1} df; the prediction interval of {one_or_mean})"
            + ("" if truth is None else f", {_se_text(spread, truth)}"))


def prediction(a: Sample, value: float, *, k: float, atol: float = 0.0, runs: int = 1
               ) -> Judged | NoData:
    """``a`` against a printed number, by the prediction interval (see the module doc)."""
    if a.summary is not None:
        return NoData(f"a prediction interval needs the repetitions; {a.what} comes summarised")
    v = a.values.dropna()
    check, tolerance = prediction_check(v, value, k, atol, runs, truth_of((a, 1.0, v.index)))
    return Judged(f"{a.what}: {v.mean():.4g} (sd {v.std():.3g} over {len(v)} reps, from "
                  f"{v.min():.4g} to {v.max():.4g}){a.note}", tolerance, check)


#: the shapes :func:`trend_test` tests
TRENDS = ("decreasing", "increasing", "falls", "rises", "flat", "not_rising", "not_falling",
          "flattening", "inverted_u")


def contrast_se(c: np.ndarray, se: np.ndarray, points: np.ndarray | None = None) -> np.ndarray:
    """The SE of each contrast (row of ``c``) of steps: with independent steps of standard
    errors ``se``, sqrt(sum_i c_i^2 SE_i^2) (:func:`independent_se`); with ``points`` (one row
    per unit, e.g. an explained point, one column per step: every step measured on the same
    units) the SE of the mean over units of each unit's contrast, sd(points @ c) / sqrt(n),
    which keeps what the steps share out of the contrast's error."""
    c = np.atleast_2d(np.asarray(c, dtype=float))
    if points is None:
        return independent_se(*(c * np.asarray(se, dtype=float)).T)
    per_unit = np.asarray(points, dtype=float) @ c.T
    return per_unit.std(axis=0, ddof=1) / np.sqrt(len(per_unit))


def trend_test(x: np.ndarray, s: np.ndarray, se: np.ndarray, trend: str, k: float, df: int,
               points: np.ndarray | None = None) -> tuple[Check, str]:
    """The :class:`Check` of ``trend`` on steps at ``x`` with estimates ``s`` and standard
    errors ``se`` (t' on ``df`` degrees of freedom at Phi(k)), and a sentence on its
    statistic: ``decreasing`` / ``increasing`` (every consecutive difference below / above 0),
    ``falls`` / ``rises`` (last minus first), ``flat`` / ``not_rising`` / ``not_falling`` (the
    change over the range of x of the least-squares line of s on x, steps weighted equally:
    0, not above 0, not below 0), ``flattening`` (s_0 - 2 s_h + s_last > 0, h the middle step)
    and ``inverted_u`` (the mean of the middle third above the means of the first and of the
    last third). Every contrast's SE is :func:`contrast_se` of its weights: of independent
    steps, or paired over the units in ``points`` when every step measured the same units."""
    tk, n = float(t_multiplier(k, df)), len(s)
    eye = np.eye(n)

    def judged(c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.atleast_2d(c) @ s, tk * contrast_se(c, se, points)

    if trend in ("decreasing", "increasing"):
        d, h = judged(eye[1:] - eye[:-1])
        weakest = int(np.argmax(d + h) if trend == "decreasing" else np.argmin(d - h))
        return (Check(d, h, "below" if trend == "decreasing" else "above", 0.0, scale=s.max()),
                f"weakest step {x[weakest]:g} -> {x[weakest + 1]:g}: {d[weakest]:+.4g} "
                f"(+- {h[weakest]:.3g})")
    if trend in ("falls", "rises"):
        (d,), (h,) = judged(eye[-1] - eye[0])
        return (Check(d, h, "below" if trend == "falls" else "above", 0.0, scale=s[0]),
                f"last - first {d:+.4g} (+- {h:.3g})")
    if trend in ("flat", "not_rising", "not_falling"):
        (change,), (h,) = judged((x[-1] - x[0]) * (x - x.mean()) / ((x - x.mean()) ** 2).sum())
        compare = {"flat": "equal", "not_rising": "at_most", "not_falling": "at_least"}[trend]
        return (Check(change, h, compare, 0.0, scale=s.mean()),
                f"least-squares change over x {x[0]:g} .. {x[-1]:g}: {change:+.4g} (+- {h:.3g}; "
                f"mean level {s.mean():.4g})")
    if trend == "flattening":
        m = (n - 1) // 2
        (d,), (h,) = judged(eye[0] - 2 * eye[m] + eye[-1])
        return (Check(d, h, "above", 0.0, scale=s[0]),
                f"drop {x[0]:g} -> {x[m]:g}: {s[0] - s[m]:.4g}, {x[m]:g} -> {x[-1]:g}: "
                f"{s[m] - s[-1]:.4g}; difference {d:+.4g} (+- {h:.3g})")
    if trend == "inverted_u":
        third = np.array_split(np.arange(n), 3)
        if min(len(p) for p in third) == 0:
            raise ValueError("inverted_u needs 3 steps or more")
        mean = [eye[p].mean(axis=0) for p in third]
        d, h = judged(np.stack([mean[1] - mean[0], mean[1] - mean[2]]))
        m0, m1, m2 = (float(w @ s) for w in mean)
        return (Check(d, h, "above", 0.0, scale=m1),
                f"thirds' means {m0:.4g}, {m1:.4g}, {m2:.4g}; middle minus "
                f"first {d[0]:+.4g} (+- {h[0]:.3g}), minus last {d[1]:+.4g} (+- {h[1]:.3g})")
    raise ValueError(f"trend {trend!r} is not one of {', '.join(TRENDS)}")


# --- the claim kind ------------------------------------------------------------------------

#: the default ``value`` of each test: no difference, a ratio of 1
DEFAULT_VALUE = {"one_sample": 0.0, "paired": 0.0, "difference": 0.0, "log_ratio": 1.0,
                 "spread_ratio": 1.0, "prediction": 0.0}


def contrast_errors(claim: Mapping[str, Any]) -> list[tuple[str, str]]:
    """What ``imlbench check`` rejects in a ``contrast`` claim beyond its parameters' types:
    (key, message) pairs."""
    test, than = claim.get("test", "one_sample"), claim.get("than")
    out = []
    if TESTS.get(test) and not than:
        out.append(("than", f"test {test} compares two cells and needs the other one; "
                            f"allowed: a mapping with keys {', '.join(cell_fields(claim))}"))
    if test in TESTS and not TESTS[test] and than:
        out.append(("than", f"test {test} reads one cell; allowed: no than, or a test of "
                            f"two cells ({', '.join(t for t, two in TESTS.items() if two)})"))
    value = claim.get("value")
    if test in ("log_ratio", "spread_ratio") and value is not None and not value > 0:
        out.append(("value", f"{value!r} is no ratio; allowed: a number > 0"))
    return out


@claim_kind("contrast", params={
    "statistic": registered(STATISTICS), "test": choice("one_sample", tuple(TESTS)),
    "compare": choice("equal", COMPARES), "value": number(None, nullable=True),
    "than": THAN, **K, "atol": number(0.0, minimum=0), "margin": number(0.0, minimum=0),
    "runs": integer(1, minimum=1)}, extra=statistic_params, errors=contrast_errors)
def contrast(claim: dict, t: Tables) -> list[dict]:
    """A registered statistic per repetition in the claim's cell, tested as ``test`` says
    against ``value`` or against the same statistic in the cell ``than`` names (see the module
    doc)."""
    spec = STATISTICS.get(claim["statistic"])
    own = {k: claim[k] for k in spec.params if k in claim}
    test, compare, k = claim["test"], claim["compare"], claim["k"]
    value = DEFAULT_VALUE[test] if claim["value"] is None else claim["value"]

    def sample(cell: Cell) -> Sample | NoData:
        got = spec.compute(cell, t)
        if isinstance(got, NoData) or isinstance(got.values, pd.DataFrame):
            return got
        v = got.values.dropna()
        return replace(got, values=v)

    def rows_of(claim_: dict, t_: Tables, learner: str, method: str) -> Sample | NoData:
        cell = Cell(claim["where"]["scenario"], learner, method, own)
        return sample(cell)

    def one(claim_: dict, a: Sample, learner: str, method: str) -> dict | NoData:
        cell = Cell(claim["where"]["scenario"], learner, method, own)
        if not TESTS[test]:
            why = few(a.moments()[2], 2, a.what, cell.where)
            if why:
                return why
            judged = (one_sample(a, value, k=k, compare=compare, atol=claim["atol"])
                      if test == "one_sample" else
                      prediction(a, value, k=k, atol=claim["atol"], runs=claim["runs"]))
        else:
            other = cell.moved(claim["than"])
            b = sample(other)
            if isinstance(b, NoData):
                return NoData(b.reason or f"no estimates of {other.where} to compare "
                                          f"{cell.where} with")
            label = other.where if other.params == cell.params else (
                f"{other.where} ({_changed(cell, other)})")
            together = other.scenario == cell.scenario and not (a.draws or b.draws)
            if test == "spread_ratio":
                judged = spread_ratio(a, b, label, value, k=k, compare=compare,
                                      together=together)
            else:
                for s, c in ((a, cell), (b, other)):
                    why = few(s.moments()[2], 2, s.what, c.where)
                    if why:
                        return why
                judged = (paired(a, b, label, value, k=k, compare=compare, atol=claim["atol"])
                          if test == "paired" else
                          difference(a, b, label, value, k=k, compare=compare,
                                     atol=claim["atol"])
                          if test == "difference" else
                          log_ratio(a, b, label, value, k=k, compare=compare,
                                    margin=claim["margin"], together=together))
        if isinstance(judged, NoData):
            return judged
        return claim_row(claim, learner, method, judged.reproduced, judged.tolerance,
                         judged.check)

    return per_combo(claim, t, rows_of, one)


def _changed(cell: Cell, other: Cell) -> str:
    return ", ".join(f"{k} {v}" for k, v in other.params.items() if cell.params.get(k) != v)

