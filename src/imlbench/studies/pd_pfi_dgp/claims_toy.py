"""Claim kinds of the bias / variance / Monte Carlo illustration of Molnar et al. (2023),
Fig. 2 (Sect. 5), on the output of method ``pd_uncertainty``: per repetition r (a model
fitted on a fresh sample) the model-PD PD_r(z) on its training rows with its Monte Carlo SE
se_r(z) (Sect. 6), and K model-PDs PD_rk(z) of the same model on fresh samples.

All statistics average over the grid values z (equidistant: the integral over the range
divided by its length), written <.> below; R is the number of repetitions.

``pd_variance_ratio``  the model-PDs vary over refits more than Monte Carlo error alone
                       explains: Q = <var_r PD_r> / <reference> must exceed the 1 - ``alpha``
                       quantile of Q when the refits have no variance of their own:
                       ``against: mc_se``: reference mean_r se_r^2 (the MC variance of each
                       curve), quantile chi2_{R-1} / (R - 1);
                       ``against: mc_samples``: reference mean_r var_k PD_rk (the spread of one
                       model's PDs over Monte Carlo samples, Fig. 2 left), quantile
                       F(R - 1, R (K - 1)).
                       Per grid value both are exact for normal curves; the grid average of
                       correlated chi2 (or F) variables of equal df has a lighter upper tail
                       than one of them, so the quantile is conservative. As a
                       :class:`imlbench.metrics.claims.Check`: Q +- (quantile - 1) above 1 (the
                       null's 1 - ``alpha`` excursion above 1 as the half-width, so
                       reproduced iff Q > quantile; not reproduced iff Q <= 2 - quantile);
                       ``alpha`` at most 0.3 keeps the quantile above 1.
``pd_bias``            the learner-PD E_F[PD_f^] differs from the DGP-PD (Sect. 5: bias):
                       B2 = (1 / (R (R - 1))) sum_{r != s} <e_r e_s>, e_r = PD_r - DGP-PD, is
                       unbiased for the integrated squared bias <(E_F[PD_f^] - DGP-PD)^2> (a
                       U-statistic: the MC and model variance cancel); ``expect: positive``:
                       B2 - z SE > 0, ``expect: zero``: |B2| <= z SE, SE its jackknife SE over
                       repetitions (upward biased for U-statistics: conservative for
                       ``positive``). Power relative to the squared range of the DGP-PD on
                       the grid.

Verdict and power per :class:`imlbench.metrics.claims.Check` (power: margin + 2 half).
"""

from __future__ import annotations

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
from imlbench.params import choice, feature_name, number, text

AGAINST = ("mc_se", "mc_samples")
BIAS_EXPECTS = ("positive", "zero")
#: the feature whose model-PDs a claim reads
FEATURE = {"feature": feature_name("x1")}


def _curves(claim: dict, t: Tables, learner: str, method: str, source: str) -> pd.DataFrame:
    """Rows of one learner and method, of the claim's ``feature`` and source."""
    r = select_rows(t.other, claim["where"]["scenario"], learner, method)
    if r.empty or "source" not in r:
        return r.iloc[0:0]
    return r[(r["feature"] == claim["feature"]) & (r["source"] == source)]


def _train(claim: dict, t: Tables, learner: str, method: str) -> pd.DataFrame | NoData:
    """Selector (:func:`imlbench.metrics.claims.per_combo`): the model-PDs on their training
    rows (:func:`_curves` of source ``train``)."""
    train = _curves(claim, t, learner, method, "train")
    return NoData() if train.empty else train


def refit_matrix(train: pd.DataFrame, column: str = "value") -> pd.DataFrame:
    """Repetitions x grid values of ``column`` of the training-row model-PDs."""
    return train.pivot_table(index="rep", columns="x", values=column, aggfunc="first")


def variance_ratio(train: pd.DataFrame, mc: pd.DataFrame, against: str
                   ) -> tuple[float, float, float, tuple[int, int]]:
    """(Q, numerator, reference, df) of :data:`pd_variance_ratio` (see the module doc)."""
    pd_r = refit_matrix(train)
    n_reps = len(pd_r)
    between = float(pd_r.var(axis=0, ddof=1).mean())
    if against == "mc_se":
        reference = float((refit_matrix(train, "se") ** 2).to_numpy().mean())
        df = (n_reps - 1, 0)
    else:  # mc_samples
        within = mc.groupby(["rep", "x"])["value"].var(ddof=1)
        n_samples = int(mc.groupby("rep")["sample"].nunique().min())
        reference = float(within.mean())
        df = (n_reps - 1, n_reps * (n_samples - 1))
    return between / reference, between, reference, df


def integrated_squared_bias(errors: np.ndarray) -> tuple[float, float]:
    """B2 of :data:`pd_bias` from the R x G matrix of e_r(z) and its jackknife SE."""
    errors = np.asarray(errors, dtype=float)
    n_reps = len(errors)
    if n_reps < 3:
        return float("nan"), float("inf")

    def ustat(e: np.ndarray) -> float:
        gram = e @ e.T / e.shape[1]
        return float((gram.sum() - np.trace(gram)) / (len(e) * (len(e) - 1)))

    leave_one_out = np.array([ustat(np.delete(errors, i, axis=0)) for i in range(n_reps)])
    se = np.sqrt((n_reps - 1) / n_reps * ((leave_one_out - leave_one_out.mean()) ** 2).sum())
    return ustat(errors), float(se)


@claim_kind("pd_variance_ratio", params={
    **FEATURE, "against": choice("mc_se", AGAINST),
    "alpha": number(0.01, minimum=0, maximum=0.3)})
def pd_variance_ratio(claim: dict, t: Tables) -> list[dict]:
    """Q = <var_r PD_r> / <reference> above the 1 - ``alpha`` quantile of its law without
    model variance, per learner and method (module doc); verdict and power per
    :class:`imlbench.metrics.claims.Check`: Q +- (quantile - 1) against 1 (``alpha`` <= 0.3:
    the quantile of chi2_d / d and of F(d1, d2) at 0.7 exceeds 1 for every df)."""
    from scipy import stats

    alpha, against = claim["alpha"], claim["against"]

    def one(claim: dict, train: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        mc = _curves(claim, t, learner, method, "mc")
        few_refits = train["rep"].nunique() < 2
        few_samples = mc.empty or mc.groupby("rep")["sample"].nunique().min() < 2
        if few_refits or (against == "mc_samples" and few_samples):
            return NoData(f"{train['rep'].nunique()} refits: a variance over refits needs 2"
                          if few_refits else "a Monte Carlo variance needs 2 samples per refit")
        q, between, reference, (d1, d2) = variance_ratio(train, mc, against)
        if against == "mc_se":
            crit = float(stats.chi2.ppf(1 - alpha, d1) / d1)
            rule = f"chi2_{d1} / {d1}"
            what = "mean squared MC SE of a model-PD on its training rows"
        else:
            crit = float(stats.f.ppf(1 - alpha, d1, d2))
            rule = f"F({d1}, {d2})"
            what = "variance of one model's PDs over Monte Carlo samples (pooled)"
        return claim_row(
            claim, learner, method,
            f"variance of the model-PDs over {d1 + 1} refits {between:.4f} vs {what} "
            f"{reference:.4f} (grid means): ratio {q:.2f}",
            f"ratio > {1 - alpha:g} quantile of {rule} = {crit:.2f} (ratio - {crit - 1:.2f} > 1; "
            f"below 1 when ratio + {crit - 1:.2f} <= 1)",
            Check(q, crit - 1, "above", 1.0, scale=1.0),
        )

    return per_combo(claim, t, _train, one)


@claim_kind("pd_bias", params={
    **FEATURE, "truth": text("effects"), "expect": choice("positive", BIAS_EXPECTS),
    "z": number(2.0, minimum=0)})
def pd_bias(claim: dict, t: Tables) -> list[dict]:
    """B2, the integrated squared bias of the learner-PD against the DGP-PD (estimand ``pd`` of
    the truth table ``truth``), positive or zero within z jackknife SEs, per learner and
    method (module doc); verdict and power per :class:`imlbench.metrics.claims.Check`
    (B2 +- z SE above 0, or equal to it; power relative to the DGP-PD's squared range)."""
    expect, z, feature = claim["expect"], claim["z"], claim["feature"]
    truth = t.truths.get((claim["where"]["scenario"], claim["truth"]))

    def train_with_truth(claim: dict, t: Tables, learner: str, method: str
                         ) -> pd.DataFrame | NoData:
        if truth is None:
            return NoData(f"no truth table {claim['truth']} of the scenario")
        return _train(claim, t, learner, method)

    def one(claim: dict, train: pd.DataFrame, learner: str, method: str) -> dict | NoData:
        if train["rep"].nunique() < 3:
            return NoData(f"{train['rep'].nunique()} refits: a jackknife SE of B2 needs 3")
        pd_r = refit_matrix(train)
        true = truth[(truth["estimand"] == "pd") & (truth["feature"] == feature)].sort_values("x")
        grid = pd_r.columns.to_numpy(dtype=float)
        dgp_pd = np.interp(grid, true["x"].to_numpy(), true["value"].to_numpy())
        b2, se = integrated_squared_bias(pd_r.to_numpy() - dgp_pd)
        variance = float(pd_r.var(axis=0, ddof=1).mean())
        span = float(np.ptp(dgp_pd)) ** 2
        if expect == "positive":
            check, rule = Check(b2, z * se, "above", 0.0, scale=span), f"B2 - {z:g} SE > 0"
        else:
            check, rule = Check(b2, z * se, "equal", 0.0, scale=span), f"|B2| <= {z:g} SE"
        return claim_row(
            claim, learner, method,
            f"integrated squared bias of the learner-PD B2 = {b2:.4f} (jackknife SE {se:.4f}, "
            f"{len(pd_r)} refits; RMS bias {np.sqrt(max(b2, 0.0)):.3f}); model-PD variance "
            f"{variance:.4f}",
            f"{rule} = {z * se:.4f}", check,
        )

    return per_combo(claim, t, train_with_truth, one)
