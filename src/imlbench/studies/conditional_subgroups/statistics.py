"""Statistics of the conditional-PFI simulation (Molnar et al., conditional subgroups, Sects.
6-7) for ``contrast`` claims (:mod:`imlbench.metrics.contrasts`): one value per repetition.

Every repetition r gives an estimate of the conditional PFI of ``feature`` (x1) and its error
e_r = estimate_r - truth. The truth is the closed form of the true model (setting I, the truth
stage's ``truth_table``, estimand ``pfi_conditional``) or, for a fitted model (setting II), the
cell's mean of the per-model Monte Carlo truths (the method ``truth_method``), as the paper's
code averages them. ``of`` picks what the statistic gives per repetition: the ``error`` e_r,
the ``squared_error`` e_r^2 (their mean is the MSE of Tables 2 and 7) or the ``estimate``.

The error reads the truth: it carries how (``Sample.truth``, de_r / dtruth = -1, de_r^2 /
dtruth = -2 e_r) with the truth's Monte Carlo SE (setting I: the truth table's ``se``, 0 for a
closed form; setting II: the per-model truths are Monte Carlo estimates on independent draws,
so their mean has SE sqrt(sum_r se_r^2) / R) and the floating-point floor of the values (of
the largest |estimate| or |truth|, squared for the squared error), which widen the kit's tests.

``conditional_subgroups.pfi_error``     of the cell's conditional PFI estimates
                                        (``Tables.ranked``)
``conditional_subgroups.pfi_at_depth``  of the cell's cs-PFI with trees cut back to ``depth``
                                        (a method of kind metric with ``depth`` rows,
                                        ``conditional_subgroups.cs_pfi_depths``; Fig. 8)
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.metrics.claims import NoData, Tables
from imlbench.metrics.contrasts import Cell, Sample, independent_se, statistic
from imlbench.metrics.truth_tolerance import TruthPart
from imlbench.params import choice, feature_name, integer, study_name, text

#: what the errors are taken of and against: the feature, and the truth of setting II (a
#: method of per-model truths, averaged per cell) or else of setting I (a truth table)
TRUTH = {
    "feature": feature_name("x1"),
    "truth_method": study_name("methods", None),
    "truth_table": text("importance"),
}
#: what a statistic gives per repetition (see the module doc)
OF = {"of": choice("error", ("error", "squared_error", "estimate"))}


def pfi_truth(cell: Cell, t: Tables) -> tuple[float, float, str]:
    """The conditional PFI the cell's estimates are compared with, its Monte Carlo SE and
    its name (see the module doc); NaN when it is missing."""
    p = cell.params
    feature = p.get("feature", "x1")
    if p.get("truth_method") is not None:
        tm = Cell(cell.scenario, cell.learner, p["truth_method"]).rows(t)
        tm = tm[tm["feature"] == feature] if len(tm) else tm
        if not len(tm):
            return np.nan, np.nan, ""
        se = tm["se"].to_numpy(float) if "se" in tm else np.zeros(len(tm))
        return (float(tm["value"].mean()), float(independent_se(*se)) / len(tm),
                f"{cell.scenario}/{cell.learner}/{p['truth_method']} {feature}")
    table_name = p.get("truth_table", "importance")
    table = t.truths.get((cell.scenario, table_name))
    if table is None:
        return np.nan, np.nan, ""
    hit = table[(table["feature"] == feature) & (table["estimand"] == "pfi_conditional")]
    if not len(hit):
        return np.nan, np.nan, ""
    return (float(hit["value"].iloc[0]), float(hit["se"].iloc[0]),
            f"{cell.scenario} {table_name} pfi_conditional {feature}")


def _of(estimates: pd.Series, cell: Cell, t: Tables, where: str) -> Sample | NoData:
    """The estimates per repetition turned into what ``of`` asks for (see the module doc);
    no data without a truth."""
    of, feature = cell.params.get("of", "error"), cell.params.get("feature", "x1")
    if of == "estimate":
        return Sample(estimates.dropna(), f"cs-PFI of {feature}{where}")
    truth, se, name = pfi_truth(cell, t)
    if np.isnan(truth):
        return NoData()  # the caller names the file of the missing truth
    e = (estimates - truth).dropna()
    power = 1 if of == "error" else 2
    size = np.maximum(estimates[e.index].abs(), abs(truth)) ** power
    part = TruthPart.of_terms(pd.DataFrame({
        "rep": e.index.to_numpy(), "point": name,
        "grad": (-power * e ** (power - 1)).to_numpy(), "truth_se": se,
        "scale": size.to_numpy()}))
    return Sample(e**power, f"{of.replace('_', ' ')} of the conditional PFI of "
                            f"{feature}{where} (truth {truth:.4g})", truth=part)


@statistic("conditional_subgroups.pfi_error", params={**TRUTH, **OF})
def pfi_error(cell: Cell, t: Tables) -> Sample | NoData:
    """The error (or squared error, or the estimate) of the conditional PFI of ``feature``
    per repetition (see the module doc)."""
    r = cell.rows(t, "ranked")
    if r.empty:
        return NoData()
    r = r[r["feature"] == cell.params.get("feature", "x1")]
    return _of(r.set_index("rep")["value"].astype(float), cell, t, "")


@statistic("conditional_subgroups.pfi_at_depth",
           params={**TRUTH, **OF, "depth": integer(minimum=0)})
def pfi_at_depth(cell: Cell, t: Tables) -> Sample | NoData:
    """The error (or squared error, or the estimate) of the cs-PFI of ``feature`` with trees
    of depth ``depth``, per repetition (see the module doc)."""
    r = cell.rows(t)
    if r.empty:
        return NoData()
    depth = cell.params["depth"]
    r = r[r["feature"] == cell.params.get("feature", "x1")]
    at = r[r["depth"] == depth]
    if at.empty:
        return NoData(f"the estimates of {cell.where} have no depth {depth} (they have: "
                      f"{', '.join(map(str, sorted(set(r['depth']))))})")
    return _of(at.groupby("rep")["value"].mean(), cell, t, f" at depth {depth}")
