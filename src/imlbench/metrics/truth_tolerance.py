"""The parts of the one tolerance of every comparison of an estimate with a truth or a
closed-form value.

A claim kind that compares a statistic s of the estimates with a truth (``matches_truth``,
``curve_slope``, ``curve_error``, ``closer_to_truth``, a ``contrast`` of a statistic that
carries a :class:`TruthPart`) or a claimed closed-form value (``curve_slope``, a ``contrast``
of a value, step or slope) allows the half-width (:func:`imlbench.metrics.contrasts.
half_width`)

    t' sqrt(SE^2 + SE_truth^2) + floor

* ``SE``: the statistic's standard error over the repetitions (sd / sqrt(R)), with t' the
  Student-t quantile with R - 1 df at Phi(k) (:func:`imlbench.stats.t_multiplier`);
* ``SE_truth``: the truth's own Monte Carlo SE (column ``se`` of every truth table, 0 for a
  closed form or quadrature) carried into s: sum_i |ds/dt_i| se_i over the truth values t_i
  the statistic reads (:func:`truth_se_of`; first order for a statistic not linear in the
  truth, such as an RMS). The points of one truth share their Monte Carlo draws (a PD truth
  averages f over one set of rows at every grid point; a truth read between its grid points
  is a chord of two of them), so their errors are correlated in an unknown way: the sum of
  |ds/dt_i| se_i is the largest SE any correlation gives (sd(sum a_i e_i) <= sum |a_i|
  sd(e_i)). The estimate and the truth come from independent draws (the truth stage draws
  its own seeded sample, not the data sets), hence the root of the sum of squares; the same
  t' multiplies both (conservative for the truth's large Monte Carlo sample);
* ``floor``: floating-point rounding, :func:`fp_floor` of the values' scale, so that an exact
  estimate (the ALE of the true f on its own edges, a closed form computed another way, one
  deterministic repetition) equal to its truth up to rounding reproduces, whatever its SE
  (0 or a rounding-sized sd), and one that differs by more than rounding does not.

A statistic of the ``contrast`` kind carries its part as a :class:`TruthPart` (its
derivatives per repetition, the truth values' SEs and its floors), from which the kit's tests
take that of the mean, difference or log ratio of means they test (:func:`truth_of_means`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

#: the floating-point floor of a comparison with a truth: FP_RTOL of the values' scale plus
#: FP_ATOL. Two computations of one exact number in double precision (eps = 2.2e-16) differ
#: by rounding that grows at most with the number of operations: a mean over 10^6 rows, a
#: cumulative sum of ALE steps or a least-squares slope stays below about 10^6 eps = 2e-10
#: of the values' scale, so 1e-9 of it covers rounding with a margin, and it lies far below
#: any Monte Carlo error of the estimates (their relative SE is 1e-4 or more); FP_ATOL keeps
#: a floor where the scale is 0 (a truth of 0 everywhere), far below any statistic's units
FP_RTOL, FP_ATOL = 1e-9, 1e-12


def fp_floor(scale: float | np.ndarray) -> float | np.ndarray:
    """The largest difference floating-point rounding explains between values of size
    ``scale`` (|scale| x :data:`FP_RTOL` + :data:`FP_ATOL`), elementwise."""
    return FP_RTOL * np.abs(np.asarray(scale, dtype=float)) + FP_ATOL


def truth_se_of(gradient: np.ndarray, truth_se: np.ndarray) -> float:
    """The SE a truth's Monte Carlo error gives a statistic whose derivatives by the truth
    values it reads are ``gradient``, those values having SEs ``truth_se``: sum_i |g_i| se_i,
    the largest over every correlation between them (see the module doc)."""
    g, se = np.asarray(gradient, dtype=float), np.asarray(truth_se, dtype=float)
    return float(np.sum(np.abs(g) * se))


def tolerance_parts(truth_se: float | np.ndarray, floor: float | np.ndarray,
                    se_rule: str = "sd over reps / sqrt(reps)") -> str:
    """What the half-width includes, as the scorecard row states it: the estimate's SE, the
    truth's Monte Carlo SE (its largest value) and the floating-point floor (its largest)."""
    largest = float(np.max(truth_se)) if np.size(truth_se) else 0.0
    return (f"SE = sqrt(SE_est^2 + SE_truth^2), SE_est = {se_rule}, SE_truth = the truth's "
            f"Monte Carlo SE carried into the statistic (largest {largest:.3g}; 0: exact); "
            f"+ floating-point floor {FP_RTOL:g} x scale + {FP_ATOL:g} (largest "
            f"{float(np.max(floor)):.3g})")


@dataclass(frozen=True)
class TruthPart:
    """How a statistic's values per repetition read a truth, for the truth part of the
    tolerance of a test of their mean (:func:`truth_of_means`).

    ``grad``: one row per repetition (the index of the statistic's values), one column per
    truth value read, d value_r / d t_i at the truth (first order), 0 where a repetition does
    not read it; a column is named by where the value lies in its truth (scenario, estimand,
    feature, x, ...), so that two statistics reading one truth value name it alike.
    ``se``: per column, the truth value's Monte Carlo SE (0: exact). ``floor``: per
    repetition, the floating-point floor of its value (:func:`fp_floor` of its scale)."""

    grad: pd.DataFrame
    se: pd.Series
    floor: pd.Series

    @classmethod
    def exact(cls, floor: pd.Series) -> TruthPart:
        """The part of a statistic that reads no Monte Carlo truth (a closed form, or none):
        its floating-point floor per repetition alone."""
        return cls(pd.DataFrame(index=floor.index), pd.Series(dtype=float), floor)

    @classmethod
    def of_terms(cls, terms: pd.DataFrame) -> TruthPart:
        """The part from one row per repetition and truth value read: columns rep, point
        (the value's name), grad (d value_r / d t), truth_se (the value's SE) and scale (the
        size of value_r's terms, whose largest per repetition gives its :func:`fp_floor`)."""
        grad = terms.pivot_table(index="rep", columns="point", values="grad", aggfunc="sum",
                                 fill_value=0.0)
        scale = terms.groupby("rep")["scale"].max()
        return cls(grad, terms.groupby("point")["truth_se"].max(),
                   pd.Series(fp_floor(scale), index=scale.index))


def truth_of_means(*parts: tuple[TruthPart, float, pd.Index]) -> tuple[float, float]:
    """The truth's SE and the floating-point floor of sum_k c_k mean_k, mean_k the mean of a
    statistic over the repetitions reps_k, for ``parts`` (its :class:`TruthPart`, c_k,
    reps_k): the SE is :func:`truth_se_of` the gradient sum_k c_k (mean over reps_k of its
    ``grad``), in which a truth value two statistics read counts once, with the sum of their
    derivatives (its error moves both: it cancels in a paired difference of estimates of one
    truth); the floor is sum_k |c_k| (largest floor over reps_k)."""
    grad, se, floor = pd.Series(dtype=float), pd.Series(dtype=float), 0.0
    for part, c, reps in parts:
        grad = grad.add(c * part.grad.reindex(reps, fill_value=0.0).mean(axis=0),
                        fill_value=0.0)
        se = se.combine_first(part.se)
        floor += abs(c) * float(part.floor.reindex(reps, fill_value=0.0).max())
    return truth_se_of(grad.to_numpy(), se.reindex(grad.index).to_numpy()), floor
