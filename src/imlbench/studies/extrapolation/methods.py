"""Methods of Hooker, Mentch & Zhou (2021), "Unrestricted permutation forces extrapolation".

``extrapolation.permuted_queries``
    the points at which permutation importance evaluates the model (Fig. 4)
``extrapolation.leaf_boxes``
    the leaf rectangles of randomly chosen trees of a forest (Fig. 4, eq. 3)
``extrapolation.substitute_test``
    the test that a block of conditionally null features matters, with the block substituted by a
    permutation, the true conditional law or knockoffs (Sect. 5, Fig. 8)
``extrapolation.linear_pfi_theory``
    Theorem 1: the expected permutation importance of a least-squares fit
``extrapolation.linear_relearn_theory``
    Theorem 3: the expected conditional and relearned importances of a least-squares fit
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from imlbench.explain.api import FEATURES, ExplainContext, draw_indices, method
from imlbench.explain.knockoffs import knockoff_block
from imlbench.params import choice, feature_name, flag, integer, items, number
from imlbench.stats import mse_difference_test
from imlbench.studies.extrapolation.partitions import leaf_rectangles

SUBSTITUTES = ("permute", "conditional", "knockoff")


@method("extrapolation.permuted_queries", params=FEATURES)
def _queries(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """The points at which permutation VI of each feature evaluates the model."""
    frames = []
    for j in ctx.features(params):
        Q = ctx.X.copy()
        Q[:, j] = rng.permutation(Q[:, j])
        df = pd.DataFrame(Q, columns=ctx.feature_names)
        df.insert(0, "feature", ctx.feature_names[j])
        frames.append(df)
    return pd.concat(frames, ignore_index=True)


@method("extrapolation.leaf_boxes", requires={"trees"}, params={
    "features": items(feature_name(), length=2), "n_trees": integer(10, minimum=1)})
def _leaf_boxes(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Leaves of ``n_trees`` randomly chosen trees over two features."""
    S = ctx.features(params)
    bounds = [(float(ctx.X[:, j].min()), float(ctx.X[:, j].max())) for j in S]
    trees = ctx.model.estimators_
    pick = draw_indices(len(trees), params["n_trees"], rng)
    frames = []
    for t in pick:
        df = leaf_rectangles(trees[t], S, bounds)
        df.insert(0, "tree", int(t))
        frames.append(df)
    return pd.concat(frames, ignore_index=True)


def _substitute_block(
    kind: str, ctx: ExplainContext, X: np.ndarray, block: list[int], rng: np.random.Generator,
    moments: tuple[np.ndarray, np.ndarray],
) -> np.ndarray:
    Xs = X.copy()
    if kind == "permute":
        Xs[:, block] = X[rng.permutation(len(X))][:, block]
    elif kind == "conditional":
        Xs[:, block] = ctx.dgp.sample_conditional(X, block, rng)
    else:
        mu, sigma = moments
        Xs[:, block] = knockoff_block(X, block, rng, mu=mu, sigma=sigma)
    return Xs


@method(
    "extrapolation.substitute_test", kind="test", requires={"noise_block", "test_rows"},
    needs=lambda p: {"conditional"} if p["substitute"] == "conditional" else set(),
    params={"substitute": choice("permute", SUBSTITUTES),
            "alpha": number(0.05, minimum=0, maximum=1), "split": flag(True)},
)
def _substitute_test(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Hooker et al. (2021), Sect. 5 / Fig. 8: is the noise block x2 important?

    The full model (fitted on x1, x2) is compared with a model relearned on
    (x1, x2*), where x2* substitutes the block by a row permutation, a draw from the
    true conditional law, or second-order Gaussian knockoffs (moments estimated on
    the training rows). Both are scored on the external test rows (the substitute
    model on the test rows with their own substitute block) and the one-sided
    MSE-difference Wald test of Williamson et al. (2020) decides.
    """
    block = list(ctx.dgp.noise_features)
    kind = params["substitute"]
    moments = (ctx.X.mean(axis=0), np.cov(ctx.X, rowvar=False))
    Xs_train = _substitute_block(kind, ctx, ctx.X, block, rng, moments)
    Xs_test = _substitute_block(kind, ctx, ctx.X_test, block, rng, moments)
    reduced = ctx.fit(Xs_train, ctx.y)
    loss_full = (ctx.y_test - ctx.predict(ctx.X_test)) ** 2
    loss_reduced = (ctx.y_test - reduced(Xs_test)) ** 2
    res = mse_difference_test(loss_full, loss_reduced, alpha=params["alpha"], rng=rng,
                              split=params["split"])
    return pd.DataFrame([{"substitute": kind, **res}])


@method("extrapolation.linear_pfi_theory", requires={"linear"}, kind="theory")
def _linear_theory(ctx: ExplainContext, params: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Theorem 1 of Hooker et al. (2021) for the fitted least-squares model:
    E_pi VI^pi_j = 2 beta_j^2 (1/N) sum_i (x_ij - mean_j)^2 (mean form of the printed sum),
    computed from the fitted coefficients and the training data, not by permuting."""
    beta = np.asarray(ctx.model.coef_, dtype=float)
    var = ctx.X.var(axis=0)
    return pd.DataFrame({"feature": ctx.feature_names, "value": 2.0 * beta**2 * var})


QUANTITIES = ("residual", "conditional")


def _residual_squares(X: np.ndarray, j: int) -> np.ndarray:
    """delta_ij^2: squared residuals of the least-squares fit of x_j on the other features
    (with an intercept)."""
    A = np.column_stack([np.ones(len(X)), np.delete(X, j, axis=1)])
    coef, *_ = np.linalg.lstsq(A, X[:, j], rcond=None)
    return (X[:, j] - A @ coef) ** 2


def _conditional_variances(ctx: ExplainContext, j: int, n_draws: int,
                           rng: np.random.Generator) -> np.ndarray:
    """var(x_ij | x_i,-j) per row: the sample variance of ``n_draws`` draws from the DGP's
    conditional law."""
    draws = np.column_stack([ctx.dgp.sample_conditional(ctx.X, [j], rng)[:, 0]
                             for _ in range(n_draws)])
    return draws.var(axis=1, ddof=1)


@method("extrapolation.linear_relearn_theory", requires={"linear"}, kind="theory",
        needs=lambda p: {"conditional"} if p["quantity"] == "conditional" else set(),
        params={"quantity": choice("residual", QUANTITIES),
                "factor": number(2.0, minimum=0), "n_draws": integer(200, minimum=2)})
def _linear_relearn_theory(ctx: ExplainContext, params: dict, rng: np.random.Generator
                           ) -> pd.DataFrame:
    """Theorem 3 of Hooker et al. (2021) for the fitted least-squares model, in the mean form
    of the printed sums: ``factor`` beta_j^2 (1/N) sum_i q_ij, with q_ij = delta_ij^2, the
    squared residual of x_j regressed on x_-j (``quantity: residual``; the theorem's
    2 VI^D = E VI^piL = E VI^CL = 2 beta_j^2 sum delta_ij^2, so ``factor`` 1 for VI^D and 2 for
    the relearned measures), or q_ij = var(x_ij | x_i,-j) from ``n_draws`` draws of the DGP's
    conditional law (``quantity: conditional``; E VI^C = 2 beta_j^2 sum var(x_ij | x_-j)).
    Computed from the fitted coefficients and the training data, not by refitting."""
    beta = np.asarray(ctx.model.coef_, dtype=float)
    q = [(_residual_squares(ctx.X, j) if params["quantity"] == "residual"
          else _conditional_variances(ctx, j, params["n_draws"], rng)).mean()
         for j in range(len(ctx.feature_names))]
    return pd.DataFrame({"feature": ctx.feature_names,
                         "value": params["factor"] * beta**2 * np.asarray(q)})
