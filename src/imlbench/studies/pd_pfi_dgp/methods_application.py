"""Methods of the application of Molnar et al., "Relating the partial dependence plot and
permutation feature importance to the data generating process" (2023), Sect. 9 and Fig. 6.

``pd_pfi_dgp.resampled`` (run for every learner): m bootstrap refits of the learner on all rows,
each scored on its out-of-bag rows. Per refit d it records the out-of-bag MSE, the PFI of
every feature (eq. 8, per model: the mean over permutations of the MSE increase) and the PD of
one feature (eq. 7, per model). The refits' splits come from a stream that does not depend on
the learner, so every learner is scored on the same splits and the per-split MSE differences
of two learners are paired: the corrected resampled t-test of Nadeau & Bengio (2003) takes
their mean and the interval mean +- t_{m-1} sqrt((1/m + c) s^2), c = 0.368 / 0.632
(:func:`corrected_t_interval`). Learner-PFI and learner-PD are the means over refits with the
same corrected interval (Sect. 7.3-7.4).

``pd_pfi_dgp.model`` (run for the fitted model): the model of the fit stage, trained on the
scenario's training rows, is explained on its test rows (the application: a forest on a
random 63.2% of the rows without replacement, the other rows for the explanation). Model-PFI
and model-PD come with the Monte Carlo intervals of Sect. 6 (eqs. 5-6): the variance of the
mean of the per-row values (ICE values at a grid point; per-row loss increases averaged over
the permutations) over the n2 test rows, t with n2 - 1 degrees of freedom.

Both methods write long tables (``quantity`` = ``mse``, ``pfi`` or ``pd``; the resampled one
also ``pfi_refit`` and ``pd_refit``, the values of each refit ``split``) with the source of
the data (``source``: the DGP's, e.g. ``saratoga`` or ``wine``) for the claims.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from imlbench.explain.api import ExplainContext, method
from imlbench.explain.batching import DEFAULT_MAX_ROWS, predict_rows
from imlbench.explain.effects import ice, partial_dependence
from imlbench.explain.grids import GRID_FIELDS, make_grid
from imlbench.explain.importance import permutation_importance
from imlbench.explain.learner_level import (
    SCHEMES,
    LearnerEstimate,
    nadeau_bengio_c,
    resample_splits,
)
from imlbench.params import choice, feature_name, integer, items, number, table

Predict = Callable[[np.ndarray], np.ndarray]
#: label of the splits' random stream (shared by the learners of a repetition)
SPLITS_STREAM = "pdpfi_application_splits"


# --- learner level ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ResampledScores:
    """Per refit (first axis): out-of-bag MSE, PFI of every feature and PD on a grid."""

    mse: np.ndarray
    pfi: LearnerEstimate
    pd: LearnerEstimate


def resampled_scores(
    fit: Callable[[np.ndarray, np.ndarray], Predict],
    X: np.ndarray,
    y: np.ndarray,
    splits: Sequence[tuple[np.ndarray, np.ndarray]],
    *,
    pd_feature: int,
    grid: np.ndarray,
    n_permutations: int,
    rng: np.random.Generator,
    max_rows: int = DEFAULT_MAX_ROWS,
) -> ResampledScores:
    """Refit on each split's training rows and score the model on its test rows: the MSE,
    the PFI of every column of ``X`` (eq. 8 per model, ``n_permutations`` permutations) and the
    PD of column ``pd_feature`` at ``grid`` (eq. 7 per model)."""
    features = list(range(X.shape[1]))
    mse, pfi, pd_ = [], [], []
    for train, test in splits:
        predict = fit(X[train], y[train])
        Xt, yt = X[test], y[test]
        mse.append(float(np.mean((yt - predict_rows(predict, Xt, max_rows)) ** 2)))
        imp = permutation_importance(predict, Xt, yt, features=features,
                                     n_repeats=n_permutations, rng=rng, max_rows=max_rows)
        pfi.append(imp.groupby("feature")["value"].mean().reindex(features).to_numpy())
        pd_.append(partial_dependence(predict, Xt, pd_feature, grid, max_rows=max_rows))
    return ResampledScores(np.array(mse), LearnerEstimate(np.array(pfi)),
                           LearnerEstimate(np.array(pd_)))


def corrected_t_interval(
    per_split: np.ndarray, c: float, alpha: float = 0.05
) -> tuple[float, float, float, float]:
    """Mean, corrected SE sqrt((1/m + c) s^2) and the (1 - alpha) t interval (m - 1 df) of m
    per-split values, e.g. the paired MSE differences of two learners (the corrected resampled
    t-test of Nadeau & Bengio 2003, as the paper's Sect. 9 uses it)."""
    est = LearnerEstimate(np.asarray(per_split, dtype=float))
    lo, hi = est.interval(c, alpha)
    se = float(np.sqrt((1 / len(per_split) + c) * est.per_model.var(ddof=1)))
    return float(est.mean), se, float(lo), float(hi)


# --- model level -----------------------------------------------------------------------------


def mc_interval(per_row: np.ndarray, alpha: float = 0.05
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Mean over rows (axis 0), its Monte Carlo SE sqrt(s^2 / n2) and the (1 - alpha) t
    interval with n2 - 1 df (Sect. 6, eqs. 5-6)."""
    from scipy.stats import t as student_t

    n = per_row.shape[0]
    if n < 2:
        raise ValueError("a Monte Carlo interval needs at least two rows")
    mean = per_row.mean(axis=0)
    se = np.sqrt(per_row.var(axis=0, ddof=1) / n)
    half = student_t.ppf(1 - alpha / 2, n - 1) * se
    return mean, se, mean - half, mean + half


def per_row_pfi(
    predict: Predict, X: np.ndarray, y: np.ndarray, j: int, n_permutations: int,
    rng: np.random.Generator, max_rows: int = DEFAULT_MAX_ROWS,
) -> np.ndarray:
    """L^(i) of Sect. 6: each row's squared-error increase when x_j is permuted, averaged over
    ``n_permutations`` permutations; their mean is the model-PFI (eq. 4)."""
    n = len(X)
    stacked = np.tile(X, (n_permutations, 1))
    for k in range(n_permutations):
        stacked[k * n:(k + 1) * n, j] = rng.permutation(X[:, j])
    permuted = predict_rows(predict, stacked, max_rows).reshape(n_permutations, n)
    base = (y - predict_rows(predict, X, max_rows)) ** 2
    return ((y[None, :] - permuted) ** 2).mean(axis=0) - base


# --- the registered methods ------------------------------------------------------------------


#: what both methods share: the feature whose PD is drawn (null: the DGP's dominant one),
#: the permutations per feature and the level of the intervals
SHARED = {
    "features": items(feature_name(), None, length=1, nullable=True),
    "n_permutations": integer(5, minimum=1),
    "alpha": number(0.05, minimum=0, maximum=1),
}


def _pd_feature(ctx: ExplainContext, params: dict) -> int:
    """The feature whose PD is computed: ``features`` (one name), else the DGP's dominant one."""
    names = params["features"] or [getattr(ctx.dgp, "dominant", ctx.feature_names[0])]
    return ctx.index(names[0])


def _all_rows(ctx: ExplainContext) -> tuple[np.ndarray, np.ndarray]:
    """Training and test rows together: the whole table the learner is assessed on."""
    if ctx.X_test is None or len(ctx.X_test) == 0:
        return ctx.X, ctx.y
    return np.vstack([ctx.X, ctx.X_test]), np.concatenate([ctx.y, ctx.y_test])


def _splits_rng(ctx: ExplainContext) -> np.random.Generator:
    """The splits' stream: the same for every learner of the repetition."""
    if ctx.sampler_rng is not None:
        return ctx.sampler_rng(SPLITS_STREAM)
    return ctx.fixed_rng(SPLITS_STREAM)


def _source(ctx: ExplainContext) -> str:
    return str(getattr(ctx.dgp, "source", ""))


def _interval_frame(quantity: str, features: list[str], x: np.ndarray, value: np.ndarray,
                    se: np.ndarray, lower: np.ndarray, upper: np.ndarray, **extra) -> pd.DataFrame:
    return pd.DataFrame({"quantity": quantity, "feature": features, "x": x, "value": value,
                         "se": se, "lower": lower, "upper": upper, **extra})


@method("pd_pfi_dgp.resampled", kind="metric", params={
    **SHARED,
    "m": integer(15, minimum=2),
    "scheme": choice("bootstrap", SCHEMES),
    "grid": table(GRID_FIELDS, {"kind": "equidistant", "size": 30}),
})
def _pd_pfi_resampled(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Out-of-bag MSE per refit, learner-PFI of every feature and learner-PD of one feature
    (``features``, default the DGP's dominant one) over ``m`` (15) bootstrap refits on all rows
    (``scheme``: bootstrap or subsampling), with corrected (``lower``/``upper``) and naive
    (``lower_naive``/``upper_naive``) intervals; the PD grid (default 30 equidistant points)
    spans the feature's range over all rows."""
    X, y = _all_rows(ctx)
    scheme, m = params["scheme"], params["m"]
    j = _pd_feature(ctx, params)
    grid = make_grid(X[:, j], params["grid"], ctx.feature_names[j])
    splits = resample_splits(len(X), m, scheme, _splits_rng(ctx))
    scores = resampled_scores(ctx.fit, X, y, splits, pd_feature=j, grid=grid,
                              n_permutations=params["n_permutations"], rng=rng,
                              max_rows=ctx.max_rows)
    alpha, c = params["alpha"], nadeau_bengio_c(scheme)
    p = X.shape[1]
    frames = [pd.DataFrame({"quantity": "mse", "split": np.arange(m), "value": scores.mse,
                            "n_test": [len(test) for _, test in splits]})]
    for quantity, est, names, x in (
        ("pfi", scores.pfi, list(ctx.feature_names), np.full(p, np.nan)),
        ("pd", scores.pd, [ctx.feature_names[j]] * len(grid), grid),
    ):
        lo, hi = est.interval(c, alpha)
        naive_lo, naive_hi = est.interval(0.0, alpha)
        se = np.sqrt((1 / m + c) * est.per_model.var(axis=0, ddof=1))
        frames.append(_interval_frame(quantity, names, x, est.mean, se, lo, hi,
                                      lower_naive=naive_lo, upper_naive=naive_hi))
        # the per-refit values, for the claims' jackknife over refits
        frames.append(pd.DataFrame({"quantity": f"{quantity}_refit",
                                    "split": np.repeat(np.arange(m), len(names)),
                                    "feature": names * m, "x": np.tile(x, m),
                                    "value": est.per_model.ravel()}))
    out = pd.concat(frames, ignore_index=True)
    return out.assign(source=_source(ctx), m=m, c=c, n_rows=len(X), alpha=alpha)


@method("pd_pfi_dgp.model", kind="metric", requires={"test_rows"}, params={
    **SHARED, "grid": table(GRID_FIELDS, {"kind": "equidistant", "size": 20})})
def _pd_pfi_model(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Model-PFI of every feature (``n_permutations``, default 5) and model-PD of one feature
    (default grid: 20 equidistant points over its test rows) of the fitted model on the test
    rows, with Monte Carlo t intervals (Sect. 6, eqs. 5-6)."""
    X, y = ctx.data({"data": "test"})
    alpha = params["alpha"]
    j = _pd_feature(ctx, params)
    grid = make_grid(X[:, j], params["grid"], ctx.feature_names[j])
    n_perm = params["n_permutations"]
    per_row = np.column_stack([per_row_pfi(ctx.predict, X, y, k, n_perm, rng, ctx.max_rows)
                               for k in range(X.shape[1])])
    pfi = mc_interval(per_row, alpha)
    pd_ = mc_interval(ice(ctx.predict, X, j, grid, max_rows=ctx.max_rows), alpha)
    p = X.shape[1]
    out = pd.concat([
        _interval_frame("pfi", list(ctx.feature_names), np.full(p, np.nan), *pfi),
        _interval_frame("pd", [ctx.feature_names[j]] * len(grid), grid, *pd_),
    ], ignore_index=True)
    return out.assign(source=_source(ctx), n_test=len(X), alpha=alpha)
