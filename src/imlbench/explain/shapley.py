"""Interventional Shapley values (SHAP) and the SHAP dependence curve.

For a row x and background rows b_1..b_B, the interventional value of a coalition S is
v(S) = (1/B) sum_b f(x_S, b_-S) (the "interventional" game of Janzing et al. 2020; Parr &
Wilson eq. 3 with E[f(x_S, X_-S)] in place of the conditional expectation), and
phi_j = sum_{S not containing j} |S|! (p - |S| - 1)! / p! [v(S + j) - v(S)].

``exact`` enumerates all 2^p coalitions (every coalition's B rows stacked into batched
``predict`` calls); ``permutation`` averages v(pre(j) + j) - v(pre(j)) over random feature
orders, each order paired with its reverse (antithetic sampling), and is unbiased.
Tree ensembles can instead go through ``shap.TreeExplainer`` with the same background
(``feature_perturbation="interventional"``), which computes the same exact values, or its
path-dependent game (``tree_path``: no background; the trees' cover of each split stands in for
the conditional law; Parr & Wilson's Fig. 6 shows both).
Plotting phi_j against x_j over the explained rows is the SHAP dependence curve.
"""

from __future__ import annotations

from math import factorial
from typing import Any

import numpy as np

from imlbench.explain.batching import DEFAULT_MAX_ROWS, Predict, predict_stacked

ESTIMATORS = ("exact", "permutation", "tree", "tree_path")
MAX_EXACT_FEATURES = 14


def _coalition_values(
    predict: Predict, X: np.ndarray, background: np.ndarray, masks: np.ndarray, max_rows: int
) -> np.ndarray:
    """v(S) for every row of ``X`` and every boolean coalition mask, shape (n, len(masks))."""
    n_masks, B = len(masks), len(background)

    def fill(block: np.ndarray, rows: slice) -> None:
        cube = block.reshape(-1, n_masks, B, X.shape[1])
        np.copyto(cube, background[None, None, :, :], where=~masks[None, :, None, :])

    return predict_stacked(predict, X, fill, n_masks * B, max_rows).reshape(
        len(X), n_masks, B
    ).mean(axis=2)


def shapley_exact(
    predict: Predict, X: np.ndarray, background: np.ndarray, *,
    max_rows: int = DEFAULT_MAX_ROWS,
) -> np.ndarray:
    """Exact interventional Shapley values, shape (n, p). Costs n * 2^p * B evaluations."""
    p = X.shape[1]
    if p > MAX_EXACT_FEATURES:
        raise ValueError(f"exact Shapley values enumerate 2^p coalitions; p = {p} exceeds "
                         f"{MAX_EXACT_FEATURES}, use estimator: permutation")
    codes = np.arange(2**p)
    masks = ((codes[:, None] >> np.arange(p)) & 1).astype(bool)
    v = _coalition_values(predict, X, background, masks, max_rows)
    size = masks.sum(axis=1)
    weight = np.array([factorial(s) * factorial(p - s - 1) / factorial(p) if s < p else 0.0
                       for s in size])
    phi = np.empty((len(X), p))
    for j in range(p):
        without = codes[~masks[:, j]]
        phi[:, j] = (v[:, without | (1 << j)] - v[:, without]) @ weight[without]
    return phi


def shapley_permutation(
    predict: Predict, X: np.ndarray, background: np.ndarray, n_permutations: int,
    rng: np.random.Generator, *, max_rows: int = DEFAULT_MAX_ROWS,
) -> np.ndarray:
    """Permutation-sampling estimate of the interventional Shapley values, shape (n, p).

    ``n_permutations`` feature orders (rounded up to an even number: each order and its
    reverse), shared by all rows so that every coalition is evaluated in one stacked batch;
    each row's estimate is unbiased. Costs n * n_permutations * (p + 1) * B evaluations.
    """
    p = X.shape[1]
    half = max(1, (n_permutations + 1) // 2)
    orders = np.array([rng.permutation(p) for _ in range(half)])
    orders = np.concatenate([orders, orders[:, ::-1]])
    # coalition k of an order holds its first k features, k = 0..p
    masks = np.zeros((len(orders), p + 1, p), dtype=bool)
    for o, order in enumerate(orders):
        for k in range(1, p + 1):
            masks[o, k, order[:k]] = True
    v = _coalition_values(predict, X, background, masks.reshape(-1, p), max_rows)
    gains = np.diff(v.reshape(len(X), len(orders), p + 1), axis=2)
    phi = np.zeros((len(X), p))
    for o, order in enumerate(orders):
        phi[:, order] += gains[:, o, :]
    return phi / len(orders)


def shapley_tree(model: Any, X: np.ndarray, background: np.ndarray | None) -> np.ndarray:
    """Exact Shapley values of a tree ensemble through ``shap.TreeExplainer``: interventional
    against every row of ``background``, or, with ``background`` None, "tree path dependent"
    (v(S) the tree's own estimate of E[f | x_S], following each split on a feature outside S
    to both children weighted by their training counts; Lundberg et al. 2020)."""
    import shap

    if background is None:
        explainer = shap.TreeExplainer(model, feature_perturbation="tree_path_dependent")
    else:  # every background row: given an array, shap keeps a random 100 of them
        masker = shap.maskers.Independent(background, max_samples=len(background))
        explainer = shap.TreeExplainer(model, data=masker, feature_perturbation="interventional")
    return np.asarray(explainer.shap_values(X, check_additivity=False), dtype=float)
