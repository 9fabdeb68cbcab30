"""Individual and partial permutation importance: ICI, PI, d-ICI (book ch. 10, after
Casalicchio et al. 2018).

For rows i and replacement values v_k of feature S (eq. 8):
  ICI_i(v_k) = L(y_i, f(v_k, x_C^(i))) - L(y_i, f(x^(i))),
an n x m matrix built from one ICE stack of the same rows. PI(v_k) = mean_i ICI_i(v_k) is the
partial importance curve; the mean of ICI_i over k is row i's share of the PFI (its integrated
ICI), and the mean of all entries is the PFI of eq. (4) when the v_k are the rows' own values.
d-ICI is the derivative of each ICI curve along v (a cubic smoothing spline per row, with the
smoothing chosen by generalised cross-validation, as sfsmisc::D1ss). Regressing the integrated
ICI on the other features with a depth-1 tree finds the feature that drives the heterogeneity
and its threshold; PI within the two sides of that split is the conditional importance plot.

The smoothing spline of every row shares the row-independent part of its computation: on the
common sorted grid, the fit of smoothing parameter lam is (I + lam K)^-1 c with the penalty
matrix K = Q R^-1 Q' of Green and Silverman (1994, Sect. 2.3), so one eigendecomposition of K
gives every row's generalised cross-validation score at every lam (Demmler-Reinsch basis).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from imlbench.explain.batching import DEFAULT_MAX_ROWS, Predict, predict_rows
from imlbench.explain.effects import ice
from imlbench.explain.importance import Loss


def individual_importance(
    predict: Predict,
    X: np.ndarray,
    y: np.ndarray,
    j: int,
    values: np.ndarray,
    loss: Loss,
    *,
    max_rows: int = DEFAULT_MAX_ROWS,
) -> np.ndarray:
    """The ICI matrix ICI_i(v_k), shape (len(X), len(values)); one stacked ICE evaluation."""
    base = loss(y, predict_rows(predict, X, max_rows))
    curves = ice(predict, X, j, np.asarray(values, dtype=float), max_rows=max_rows)
    return loss(y[:, None], curves) - base[:, None]


def partial_importance(ici_matrix: np.ndarray) -> np.ndarray:
    """PI(v_k) = mean_i ICI_i(v_k), the column means of the ICI matrix (book ch. 10)."""
    return np.asarray(ici_matrix, dtype=float).mean(axis=0)


def integrated_importance(ici_matrix: np.ndarray) -> np.ndarray:
    """Each row's integrated ICI, mean_k ICI_i(v_k): its share of the PFI (book ch. 10)."""
    return np.asarray(ici_matrix, dtype=float).mean(axis=1)


def pfi_of_ici(ici_matrix: np.ndarray) -> float:
    """The PFI of eq. (4)/(7): the mean of every ICI entry, the mean of the PI curve."""
    return float(np.asarray(ici_matrix, dtype=float).mean())


def _penalty(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The eigenvalues and eigenvectors of the cubic smoothing spline's penalty matrix
    K = Q R^-1 Q' on the sorted distinct knots ``v`` (Green and Silverman 1994, Sect. 2.1)."""
    n, h = len(v), np.diff(v)
    Q = np.zeros((n, n - 2))
    R = np.zeros((n - 2, n - 2))
    for j in range(n - 2):
        Q[j, j], Q[j + 1, j], Q[j + 2, j] = 1 / h[j], -1 / h[j] - 1 / h[j + 1], 1 / h[j + 1]
        R[j, j] = (h[j] + h[j + 1]) / 3
        if j + 1 < n - 2:
            R[j, j + 1] = R[j + 1, j] = h[j + 1] / 6
    K = Q @ np.linalg.solve(R, Q.T)
    k, U = np.linalg.eigh((K + K.T) / 2)
    return np.clip(k, 0.0, None), U


def _gcv(z2: np.ndarray, k: np.ndarray, log_lam: np.ndarray) -> np.ndarray:
    """GCV(lam) = n |(I - S) c|^2 / (n - tr S)^2 of every row (``z2``: its squared
    coordinates in the eigenbasis) at its own log(lam) (``log_lam``: rows x candidates)."""
    shrink = 1.0 / (1.0 + np.exp(log_lam)[..., None] * k)
    rss = np.einsum("rgn,rn->rg", (1.0 - shrink) ** 2, z2)
    return len(k) * rss / (len(k) - shrink.sum(axis=-1)) ** 2


def smoothing_spline_fits(v: np.ndarray, curves: np.ndarray, *, lam: float | None = None,
                          n_grid: int = 80, n_golden: int = 40) -> np.ndarray:
    """The cubic smoothing spline of each row of ``curves`` on the sorted distinct knots
    ``v`` (minimising sum (c_k - g(v_k))^2 + lam int g''^2, as scipy's
    ``make_smoothing_spline``), its fitted values at the knots. Without ``lam`` each row's
    minimises GCV (as ``make_smoothing_spline`` with ``lam=None`` and sfsmisc::D1ss): a
    search over ``n_grid`` log-spaced values from 1e-4 / max(k) to 1e4 / min(k) (k the
    positive eigenvalues of K), refined by ``n_golden`` golden-section steps."""
    k, U = _penalty(v)
    z = curves @ U
    if lam is not None:
        return (z / (1.0 + lam * k)) @ U.T
    z2 = z ** 2
    positive = k[k > 1e-12 * k.max()]
    grid = np.linspace(np.log(1e-4 / k.max()), np.log(1e4 / positive.min()), n_grid)
    scores = _gcv(z2, k, np.broadcast_to(grid, (len(curves), n_grid)))
    best = scores.argmin(axis=1)
    lo = grid[np.maximum(best - 1, 0)]
    hi = grid[np.minimum(best + 1, n_grid - 1)]
    ratio = (np.sqrt(5.0) - 1) / 2
    for _ in range(n_golden):
        a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
        fa, fb = _gcv(z2, k, np.stack([a, b], axis=1)).T
        lo, hi = np.where(fa < fb, lo, a), np.where(fa < fb, b, hi)
    lam = np.exp((lo + hi) / 2)
    return ((z / (1.0 + lam[:, None] * k)) @ U.T)


def derivative_ici(ici_matrix: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """d-ICI: the sorted distinct values and each row's smoothing-spline derivative there
    (the spline's smoothing chosen by GCV per row, :func:`smoothing_spline_fits`; the
    derivative is that of the natural cubic spline through the fitted values, which is the
    smoothing spline itself)."""
    from scipy.interpolate import CubicSpline

    order = np.argsort(values, kind="stable")
    v, first = np.unique(np.asarray(values, dtype=float)[order], return_index=True)
    if len(v) < 5:
        raise ValueError("d-ICI needs at least 5 distinct replacement values")
    curves = np.asarray(ici_matrix, dtype=float)[:, order][:, first]
    fits = smoothing_spline_fits(v, curves)
    return v, CubicSpline(v, fits, axis=1, bc_type="natural").derivative()(v)


@dataclass(frozen=True)
class HeterogeneitySplit:
    """The depth-1 tree on the integrated ICI: feature (column of X), threshold, and the
    partial importance curves of the rows on each side."""

    feature: int
    threshold: float
    left: np.ndarray
    right: np.ndarray


def heterogeneity_split(
    ici_matrix: np.ndarray, X: np.ndarray, j: int, candidates: Sequence[int] | None = None,
    *, min_leaf: int = 1,
) -> HeterogeneitySplit:
    """Regress the integrated ICI on the other features with a stump (book ch. 10) whose
    sides hold ``min_leaf`` rows or more (rpart's ``minbucket``, 7 by default there)."""
    from sklearn.tree import DecisionTreeRegressor

    others = [m for m in (candidates or range(X.shape[1])) if m != j]
    imp = integrated_importance(ici_matrix)
    stump = DecisionTreeRegressor(max_depth=1, min_samples_leaf=min_leaf).fit(X[:, others], imp)
    if stump.tree_.node_count < 3:
        raise ValueError("the integrated ICI has no split: importance is homogeneous")
    feature = others[int(stump.tree_.feature[0])]
    threshold = float(stump.tree_.threshold[0])
    side = X[:, feature] <= threshold
    return HeterogeneitySplit(feature, threshold, ici_matrix[side].mean(axis=0),
                              ici_matrix[~side].mean(axis=0))
