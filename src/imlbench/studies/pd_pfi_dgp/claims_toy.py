"""The claim kind of the Monte Carlo illustration of Molnar et al. (2023), Fig. 2 (Sect. 5), on the
output of method ``pd_pfi_dgp.pd_uncertainty``: per repetition r (a model fitted on a fresh sample)
the model-PD PD_r(z) on its training rows with its Monte Carlo SE se_r(z) (Sect. 6), and K model-PDs
PD_rk(z) of the same model on fresh samples. (The learner-PD's bias is a ``contrast`` claim on the
statistic ``pd_pfi_dgp.squared_bias``, :mod:`.statistics`.)

All statistics average over the grid values z (equidistant: the integral over the range
divided by its length), written <.> below; R is the number of repetitions.

``pd_pfi_dgp.pd_variance_ratio``
    the model-PDs vary over refits more than Monte Carlo error alone
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

Why a kind of its own: it is an exact test of a variance ratio against its null law (chi2 or
F quantiles), with no SE; the kit's ``spread_ratio`` would put a bootstrap SE on a ratio of
sds in its place, and the ``mc_se`` reference is a mean of per-curve Monte Carlo variances,
not the spread of another cell. Verdict and power per :class:`imlbench.metrics.claims.Check`
(power: margin + 2 half).
"""

from __future__ import annotations

import pandas as pd

from imlbench.metrics.claims import (
    Check,
    NoData,
    Tables,
    claim_kind,
    claim_row,
    per_combo,
)
from imlbench.metrics.contrasts import Cell, few
from imlbench.params import choice, feature_name, number
from imlbench.studies.pd_pfi_dgp.statistics import toy_curves

AGAINST = ("mc_se", "mc_samples")
#: the feature whose model-PDs a claim reads
FEATURE = {"feature": feature_name("x1")}


def _curves(claim: dict, t: Tables, learner: str, method: str, source: str) -> pd.DataFrame:
    """Rows of one learner and method, of the claim's ``feature`` and source."""
    return toy_curves(Cell(claim["where"]["scenario"], learner, method), t, claim["feature"],
                      source)


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


@claim_kind("pd_pfi_dgp.pd_variance_ratio", params={
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
        where = f"{claim['where']['scenario']}/{learner}/{method}"
        samples = 0 if mc.empty else int(mc.groupby("rep")["sample"].nunique().min())
        why = few(train["rep"].nunique(), 2, "the variance of the model-PDs over refits",
                  where) or (few(samples, 2, "a Monte Carlo variance per refit (its samples)",
                                 where) if against == "mc_samples" else None)
        if why:
            return why
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
