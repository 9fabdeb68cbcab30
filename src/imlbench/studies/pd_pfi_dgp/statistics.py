"""Statistics of Molnar et al. ("Relating the PDP and PFI to the data generating process",
2023) for ``contrast`` claims (:mod:`imlbench.metrics.contrasts`): one value per repetition, or
one vector per repetition for a spread over repetitions (the test ``spread_ratio``).

``pd_pfi_dgp.coverage``      (Sect. 8, Tables 1-2) the coverage of the 95% intervals of a
                             table ``column`` (boot, boot*, subs, subs*, ideal) for
                             ``quantity`` (pd or pfi) at ``m`` refits, read from the study's
                             summary table (``metrics/summary.parquet``,
                             :func:`.summaries.summarise`). The summary keeps each cell's mean
                             coverage over its R repetitions and its SE (the spread over the
                             repetitions and the Monte Carlo error of the coverage target, which
                             they share), not the repetitions themselves: the statistic comes
                             summarised (``Sample.summary``: mean, SE, R), which the tests
                             ``one_sample`` and ``difference`` read (``paired`` needs the
                             repetitions and gives no data). One summary row per scenario and
                             learner and cell: the claim's method names the refit method in its
                             rows only.
``pd_pfi_dgp.oob_mse``       (Sect. 9) the out-of-bag MSE of each bootstrap split of the application
                             (method ``pd_pfi_dgp.resampled``; the learners share the splits, so two
                             learners' values pair). ``corrected``: the SE of their mean is inflated
                             by sqrt(1 + m c) (``Sample.inflation``), the Nadeau-Bengio corrected SE
                             sqrt((1/m + c) s^2) of the corrected resampled t-test (c = 0.368 /
                             0.632: the splits overlap), and so is that of a paired difference of
                             two such statistics. ``needs``: the data the claim's published value is
                             for (the estimates' ``source``); on other data the cell has none.
``pd_pfi_dgp.refit_pd``      (Sect. 9) the learner-PD's refits (``pd_refit`` rows of
                             ``pd_pfi_dgp.resampled``) at the grid points at the ``ends`` (the
                             lowest and highest ``share`` of the points, at least one each) or the
                             ``inner`` ones, one vector per refit: the band's width at a point is
                             proportional to the refits' sd there.
``pd_pfi_dgp.squared_bias``  (Sect. 5, Fig. 2) the integrated squared bias of the learner-PD of
                             ``feature`` against the DGP-PD (estimand ``pd`` of the truth table
                             ``truth``): with e_r = PD_r - DGP-PD for the R model-PDs on their
                             training rows (method ``pd_pfi_dgp.pd_uncertainty``, source ``train``)
                             and <.> the mean over the grid, the U-statistic B2 = (1 / (R (R - 1)))
                             sum_{r != s} <e_r e_s> is unbiased for <(E_F[PD_f^] - DGP-PD)^2> (the
                             model and Monte Carlo variance cancel). Per repetition its first-order
                             (Hoeffding) term B2 + 2 (v_r - B2), v_r = <e_r ebar_(-r)> the
                             repetition's error times the mean error of the others (B2 is the mean
                             of the v_r): their mean is B2 and their sd / sqrt(R) the delta-method
                             SE of B2, 2 sd(v) / sqrt(R), the SE rule of the kit's log ratio applied
                             to a U-statistic of degree 2. The terms read the DGP-PD, a Monte
                             Carlo truth: they carry how (``Sample.truth``, first order, dB2 /
                             dDGP-PD(z) = -(2 / G) ebar(z), :func:`squared_bias_truth_grad`)
                             with its SE (column ``se``, read between its points like the
                             value) and the floating-point floor, which widen the kit's tests.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.curves import rep_curves, values_at
from imlbench.metrics.claims import NoData, Tables
from imlbench.metrics.contrasts import Cell, Sample, few, statistic
from imlbench.metrics.truth_tolerance import TruthPart, fp_floor
from imlbench.params import REQUIRED, choice, feature_name, flag, integer, number, text
from imlbench.studies.pd_pfi_dgp.dgp_application import SOURCES

#: the paper's table columns: (strategy, corrected)
COLUMNS = {"boot": ("bootstrap", False), "boot*": ("bootstrap", True),
           "subs": ("subsampling", False), "subs*": ("subsampling", True),
           "ideal": ("ideal", False)}
QUANTITIES = ("pd", "pfi")
COLUMN = choice(REQUIRED, tuple(COLUMNS))
QUANTITY = choice(REQUIRED, QUANTITIES)
#: the parameters of a coverage cell
CELL = {"column": COLUMN, "quantity": QUANTITY, "m": integer(15, minimum=2)}


# --- the coverage simulation ---------------------------------------------------------------


def summary_row(t: Tables, scenario: str, learner: str, quantity: str, column: str, m: int
                ) -> pd.Series | NoData:
    """The summary row of one coverage cell, or why there is none."""
    s = t.summary
    if not s.empty:
        strategy, corrected = COLUMNS[column]
        hit = s[(s["scenario"] == scenario) & (s["learner"] == learner)
                & (s["quantity"] == quantity) & (s["strategy"] == strategy)
                & (s["corrected"] == corrected) & (s["m"] == m)]
        if not hit.empty:
            return hit.iloc[0]
    ms = s.loc[(s["scenario"] == scenario) & (s["learner"] == learner), "m"] if len(s) else s
    if not len(ms):
        return NoData(f"metrics/summary.parquet has no rows of {scenario}/{learner}")
    return NoData(f"metrics/summary.parquet has no cell {scenario} {learner} {quantity} "
                  f"{column} at m = {m} (this profile runs m = {ms.min()} to {ms.max()})")


@statistic("pd_pfi_dgp.coverage", params=CELL)
def coverage(cell: Cell, t: Tables) -> Sample | NoData:
    """The coverage of a table cell as R values with the summary's mean and SE (see the
    module doc)."""
    p = cell.params
    q, column, m = p["quantity"], p["column"], p.get("m", 15)
    row = summary_row(t, cell.scenario, cell.learner, q, column, m)
    if isinstance(row, NoData):
        return row
    return Sample(pd.Series(dtype=float), f"{q} {column} coverage at m = {m}",
                  "; SE over repetitions and of the coverage target, from the summary",
                  summary=(float(row["coverage"]), float(row["coverage_se"]), int(row["reps"])))


# --- the application -----------------------------------------------------------------------


def source_gap(est: pd.DataFrame, needs: str | None) -> NoData | None:
    """Why estimates of the table ``source`` cannot check a value published for ``needs``
    data (None: any data), or None."""
    source = str(est["source"].iloc[0]) if "source" in est and len(est) else ""
    if needs is None or source == needs:
        return None
    return NoData(f"the run uses the table {source!r}, the published value is for the {needs} "
                  f"data (set the scenario's source: {needs} and its path)")


def split_mse(est: pd.DataFrame) -> pd.Series:
    """The out-of-bag MSE of every split, indexed (rep, split)."""
    return est[est["quantity"] == "mse"].sort_values(["rep", "split"]).set_index(
        ["rep", "split"])["value"]


@statistic("pd_pfi_dgp.oob_mse", params={"needs": choice(None, SOURCES, nullable=True),
                                         "corrected": flag(False)})
def oob_mse(cell: Cell, t: Tables) -> Sample | NoData:
    """The out-of-bag MSE per split (with ``corrected``: its deviations widened for the
    corrected resampled t-test; see the module doc)."""
    est = cell.rows(t)
    if est.empty:
        return NoData()
    gap = source_gap(est, cell.params.get("needs"))
    if gap is not None:
        return gap
    mse = split_mse(est)
    if not cell.params.get("corrected", False):
        return Sample(mse, "out-of-bag MSE over splits")
    c = float(est["c"].dropna().iloc[0])
    return Sample(mse, "out-of-bag MSE over splits (the corrected SE)", f", c = {c:.3f}",
                  inflation=float(np.sqrt(1 + len(mse) * c)))


@statistic("pd_pfi_dgp.refit_pd", params={"points": choice(REQUIRED, ("ends", "inner")),
                                          "share": number(0.1, minimum=0, maximum=0.5)})
def refit_pd(cell: Cell, t: Tables) -> Sample | NoData:
    """The learner-PD's refits at the ``ends`` or ``inner`` grid points, one vector per refit
    (see the module doc)."""
    est = cell.rows(t)
    r = est[est["quantity"] == "pd_refit"] if "quantity" in est else est.iloc[:0]
    if r.empty:
        return NoData()
    r = r[r["rep"] == r["rep"].min()]
    refits = r.pivot_table(index="split", columns="x", values="value").sort_index(axis=1)
    g = refits.shape[1]
    k = max(1, int(round(cell.params.get("share", 0.1) * g)))
    ends = [*range(k), *range(g - k, g)]
    points = cell.params["points"]
    chosen = refits.iloc[:, ends] if points == "ends" else refits.iloc[:, k:g - k]
    return Sample(chosen, f"learner-PD refits at the {chosen.shape[1]} {points} grid points "
                          f"(of {g})")


# --- the toy ---------------------------------------------------------------------------------


def toy_curves(cell: Cell, t: Tables, feature: str, source: str) -> pd.DataFrame:
    """Rows of the cell's model-PDs of ``feature`` from ``source`` (``train``: each model on
    its training rows; ``mc``: a model on fresh Monte Carlo samples)."""
    r = cell.rows(t)
    if r.empty or "source" not in r:
        return r.iloc[:0]
    return r[(r["feature"] == feature) & (r["source"] == source)]


def squared_bias_terms(errors: np.ndarray) -> np.ndarray:
    """The first-order terms B2 + 2 (v_r - B2) of B2 (see the module doc), one per row of the
    R x G matrix of the e_r(z), R >= 3."""
    errors = np.asarray(errors, dtype=float)
    gram = errors @ errors.T / errors.shape[1]
    v = (gram.sum(axis=1) - np.diag(gram)) / (len(errors) - 1)
    return 2 * v - v.mean()


def squared_bias_truth_grad(errors: np.ndarray) -> np.ndarray:
    """The derivatives of the terms of :func:`squared_bias_terms` by the DGP-PD at each grid
    point (e_r = PD_r - DGP-PD), R x G: d term_r / dDGP-PD(z) = (2 / G) (ebar(z) -
    ebar_(-r)(z) - e_r(z)), ebar_(-r) the mean error of the other repetitions; their mean
    over r is dB2 / dDGP-PD(z) = -(2 / G) ebar(z)."""
    errors = np.asarray(errors, dtype=float)
    n, g = errors.shape
    total = errors.sum(axis=0)
    others = (total - errors) / (n - 1)
    return 2 / g * (total / n - others - errors)


@statistic("pd_pfi_dgp.squared_bias", params={"feature": feature_name("x1"),
                                              "truth": text("effects")})
def squared_bias(cell: Cell, t: Tables) -> Sample | NoData:
    """The first-order terms of the learner-PD's integrated squared bias B2, one per
    repetition (see the module doc)."""
    feature, table = cell.params.get("feature", "x1"), cell.params.get("truth", "effects")
    truth = t.truths.get((cell.scenario, table))
    if truth is None:
        return NoData(f"no truth table {table} of the scenario")
    train = toy_curves(cell, t, feature, "train")
    if train.empty:
        return NoData()
    refits = rep_curves(train)
    why = few(len(refits), 3, "B2's first-order terms (with 2 refits they are equal)",
              cell.where)
    if why:
        return why
    true = truth[(truth["estimand"] == "pd") & (truth["feature"] == feature)].sort_values("x")
    z = refits.columns.to_numpy(float)
    dgp_pd, dgp_se = (values_at(pd.DataFrame([true[c].to_numpy()], columns=true["x"]), z)
                      .iloc[0].to_numpy() for c in ("value", "se"))
    errors = refits.to_numpy() - dgp_pd
    terms = squared_bias_terms(errors)
    size = max(np.nanmax(np.abs(refits.to_numpy())), np.nanmax(np.abs(dgp_pd)))
    names = [f"{cell.scenario} {table} pd {feature} x={v!r}" for v in z]
    part = TruthPart(pd.DataFrame(squared_bias_truth_grad(errors), index=refits.index,
                                  columns=names),
                     pd.Series(dgp_se, index=names),
                     pd.Series(fp_floor(size**2), index=refits.index))
    variance = float(refits.var(axis=0, ddof=1).mean())
    return Sample(pd.Series(terms, index=refits.index),
                  f"integrated squared bias B2 of the learner-PD of {feature} (first-order "
                  f"terms over refits)", f"; model-PD variance {variance:.4f}", truth=part)
