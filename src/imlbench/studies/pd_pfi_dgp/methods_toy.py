"""The method behind the bias / variance / Monte Carlo illustration of Molnar et al. (2023),
"Relating the partial dependence plot and permutation feature importance to the data
generating process", Fig. 2 (Sect. 5).

``pd_pfi_dgp.pd_uncertainty``  for the repetition's model (each repetition draws a fresh training
                    sample, so the repetitions are the paper's refits on fresh data):
                    * ``source: train``: the model-PD estimate of eq. (2), PD^(z) =
                      (1/n) sum_i f^(z, x_C^(i)), on the model's own training rows, with the
                      Monte Carlo SE of Sect. 6, sd_i(f^(z, x_C^(i))) / sqrt(n) (right panel:
                      the spread of these curves over repetitions is model variance plus
                      this MC error; their mean estimates the learner-PD E_F[PD_f^]);
                    * ``source: mc``: eq. (2) on ``n_mc_samples`` fresh samples of
                      ``n_mc_rows`` rows drawn from the DGP, the model held fixed (left
                      panel: their spread is Monte Carlo error alone), with the same SE.

``scale_target: true`` (default) refits the learner on the standardised target and maps its
predictions back, ``mean(y) + sd(y) f^(x)`` with the sample SD (n - 1), as R's e1071::svm
does with ``scale = TRUE`` (inputs and target); the learner standardises the inputs itself.
The refit goes through ``ctx.fit`` (the learner of the study, its refit stream).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from imlbench.explain.api import FEATURES, ExplainContext, method
from imlbench.explain.effects import ice
from imlbench.explain.grids import GRID_FIELDS, make_grid
from imlbench.params import flag, integer, table

Predict = Callable[[np.ndarray], np.ndarray]

#: the paper's grid: 70 equidistant values (over the data range unless the study gives one).
DEFAULT_GRID = {"kind": "equidistant", "size": 70}


def fit_target_scaled(
    fit: Callable[[np.ndarray, np.ndarray], Predict], X: np.ndarray, y: np.ndarray
) -> Predict:
    """Fit on the standardised target (mean 0, sample SD 1) and predict on y's scale."""
    mu, sd = float(np.mean(y)), float(np.std(y, ddof=1))
    if not sd > 0:
        raise ValueError("the target is constant: it cannot be standardised")
    predict = fit(X, (y - mu) / sd)

    def scaled(Z: np.ndarray) -> np.ndarray:
        return mu + sd * predict(Z)

    return scaled


def pd_with_se(predict: Predict, X: np.ndarray, j: int, grid: np.ndarray,
               max_rows: int) -> tuple[np.ndarray, np.ndarray]:
    """Eq. (2) on the rows X and its Monte Carlo SE (Sect. 6): per grid value z the mean
    and SD / sqrt(n) of the ICE values f^(z, x_C^(i))."""
    curves = ice(predict, X, j, grid, max_rows=max_rows)
    return curves.mean(axis=0), curves.std(axis=0, ddof=1) / np.sqrt(len(X))


@method("pd_pfi_dgp.pd_uncertainty", kind="metric", params={
    **FEATURES,
    "grid": table(GRID_FIELDS, DEFAULT_GRID),
    "n_mc_samples": integer(5, minimum=0),
    "n_mc_rows": integer(50, minimum=2),
    "scale_target": flag(True),
})
def _pd_uncertainty(ctx: ExplainContext, params: dict, rng: np.random.Generator
                    ) -> pd.DataFrame:
    """Model-PD on the training rows and on fresh Monte Carlo samples (see the module doc):
    columns feature, source (train / mc), sample, n_rows, x, value, se."""
    predict = (fit_target_scaled(ctx.fit, ctx.X, ctx.y)
               if params["scale_target"] else ctx.predict)
    # one set of Monte Carlo samples serves every feature, as one data set would
    samples = [("train", 0, ctx.X)] + [
        ("mc", k, ctx.dgp.sample_features(params["n_mc_rows"], rng))
        for k in range(params["n_mc_samples"])
    ]
    frames = []
    for j in ctx.features(params):
        grid = make_grid(ctx.X[:, j], params["grid"], ctx.feature_names[j])
        for source, k, X in samples:
            value, se = pd_with_se(predict, X, j, grid, ctx.max_rows)
            frames.append(pd.DataFrame({
                "feature": ctx.feature_names[j], "source": source, "sample": k,
                "n_rows": len(X), "x": grid, "value": value, "se": se,
            }))
    return pd.concat(frames, ignore_index=True)
