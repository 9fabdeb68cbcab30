"""The generic methods on the learner and the fitted model, by name: learner-level PD and PFI
over refits with their intervals, and how well the model predicts (R^2, MSE).

Each adapter turns a study file's parameters (declared with type, default and allowed values;
see :mod:`imlbench.explain.api`) into a call of the numerical function that implements the
method, and returns a tidy table.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.explain.api import FEATURES, ExplainContext, method
from imlbench.explain.grids import GRID_FIELDS, make_grid
from imlbench.explain.importance import squared_error
from imlbench.explain.learner_level import SCHEMES, learner_pd_pfi, nadeau_bengio_c, resample_splits
from imlbench.explain.oob import oob_predictions
from imlbench.params import choice, integer, number, table


@method("learner_pd_pfi", kind="metric", params={
    **FEATURES,
    "grid": table(GRID_FIELDS, {"kind": "values", "values": [0.1, 0.3, 0.5, 0.7, 0.9]}),
    "m": integer(15, minimum=2), "scheme": choice("subsampling", SCHEMES),
    "n_permutations": integer(5, minimum=1), "alpha": number(0.05, minimum=0, maximum=1),
})
def _learner_pd_pfi(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Learner-level PD and PFI over ``m`` refits on resampled rows, with naive (c = 0) and
    Nadeau-Bengio-corrected t intervals (Molnar et al., Sect. 7)."""
    S = ctx.features(params)
    grid = make_grid(ctx.X[:, S[0]], params["grid"], ctx.feature_names[S[0]])
    splits = resample_splits(len(ctx.X), params["m"], params["scheme"], rng)
    pd_est, pfi_est = learner_pd_pfi(
        ctx.fit, ctx.X, ctx.y, splits, features=S, grid=grid,
        n_permutations=params["n_permutations"], rng=rng, max_rows=ctx.max_rows,
    )
    alpha = params["alpha"]
    frames = []
    for quantity, est, x in (("pd", pd_est, np.tile(grid, (len(S), 1))),
                             ("pfi", pfi_est, np.full(len(S), np.nan))):
        naive = est.interval(0.0, alpha)
        corrected = est.interval(nadeau_bengio_c(params["scheme"]), alpha)
        frames.append(pd.DataFrame({
            "quantity": quantity,
            "feature": np.repeat([ctx.feature_names[j] for j in S], x.size // len(S)),
            "x": x.ravel(), "value": est.mean.ravel(),
            "lower_naive": naive[0].ravel(), "upper_naive": naive[1].ravel(),
            "lower_corrected": corrected[0].ravel(), "upper_corrected": corrected[1].ravel(),
        }))
    return pd.concat(frames, ignore_index=True)


def _mse(y: np.ndarray, pred: np.ndarray) -> float:
    return float(squared_error(y, pred).mean())


def _r2(y: np.ndarray, pred: np.ndarray) -> float:
    ok = ~np.isnan(pred)
    y, pred = y[ok], pred[ok]
    return float(1 - ((y - pred) ** 2).sum() / ((y - y.mean()) ** 2).sum())


@method("model_fit", kind="metric")
def _model_fit(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """How well the fitted model predicts: R^2 = 1 - SSE / SST on the training rows
    (``r2_train``), on the test rows when the scenario has them (``r2_test``), and for a
    bagged forest on the out-of-bag predictions (``r2_oob``, the rows some tree left out); the
    mean squared error SSE / n on the training rows (``mse_train``) and on the test rows
    (``mse_test``), the benchmark errors of book ch. 9. Columns metric, value."""
    pred = ctx.predict(ctx.X)
    out = {"r2_train": _r2(ctx.y, pred)}
    mse = {"mse_train": _mse(ctx.y, pred)}
    if ctx.X_test is not None and len(ctx.X_test):
        pred_test = ctx.predict(ctx.X_test)
        out["r2_test"] = _r2(ctx.y_test, pred_test)
        mse["mse_test"] = _mse(ctx.y_test, pred_test)
    if getattr(ctx.model, "estimators_samples_", None) is not None:
        out["r2_oob"] = _r2(ctx.y, oob_predictions(ctx.model, ctx.X))
    out.update(mse)
    return pd.DataFrame({"metric": list(out), "value": list(out.values())})
