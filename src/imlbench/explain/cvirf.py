"""Conditional variable importance of a random forest (CVIRF), as R's ``permimp``.

Strobl et al. (2008), "Conditional variable importance for random forests"; Debeer &
Strobl (2020), "Conditional permutation importance revisited" (package ``permimp``,
``conditional = TRUE``, the implementation used for ``randomForest`` objects). Molnar et
al. (conditional subgroups) run it as the competitor "cvirf" in setting II of their
simulation (Sect. 6, Table 7, Fig. 14).

For every tree t and feature j split on in t, with O_t the tree's out-of-bag rows:

1. Every feature l split on in t is binned by all split points t uses on l (the interval
   (c_k, c_{k+1}] of consecutive cut points; values <= the cut point go left, as in the tree).
2. Conditioning set Z_tj: the other features l of the tree whose binned values on O_t are
   associated with the binned x_j by Pearson's chi-squared test of independence of the
   contingency table (empty levels dropped, df = (rows - 1)(columns - 1)) with
   1 - p-value > ``threshold`` (a table with df = 0 has p = 1, as R's ``pchisq``).
3. The grid cells are the combinations of the bins of the features in Z_tj; x_j is permuted
   among the rows of O_t within each cell (among all of O_t when Z_tj is empty).
4. d_tj = MSE_t(O_t with x_j permuted) - MSE_t(O_t); d_tj = 0 when t does not split on j.

CVIRF_j is the mean of d_tj over trees (permimp's default ``scaled = FALSE``). Each tree
predicts its OOB rows and all their permuted copies in one call. The permutation inside the
cells is derived from one uniform permutation of O_t per (tree, feature): with an empty Z it
is exactly the permutation :func:`imlbench.explain.oob.oob_permutation_importance` draws from
the same stream, so ``threshold = 1`` reproduces its unscaled value.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy.special import chdtrc


def _cut_points(tree) -> dict[int, np.ndarray]:
    """Sorted distinct split points of every feature the fitted sklearn tree splits on."""
    inner = tree.tree_.feature >= 0
    feats, cuts = tree.tree_.feature[inner], tree.tree_.threshold[inner]
    return {int(f): np.unique(cuts[feats == f]) for f in np.unique(feats)}


def _dense(codes: np.ndarray) -> tuple[np.ndarray, int]:
    """Codes relabelled 0..K-1 over the levels present, and K."""
    levels, inverse = np.unique(codes, return_inverse=True)
    return inverse.ravel(), len(levels)


def association(bj: np.ndarray, kj: int, others: np.ndarray, k: np.ndarray) -> np.ndarray:
    """1 - p-value of Pearson's chi-squared test of independence between the dense codes
    ``bj`` (kj levels) and each column of ``others`` (dense codes, k[l] levels)."""
    m, n_other = others.shape
    kmax = int(k.max())
    idx = (np.arange(n_other) * (kj * kmax))[None, :] + (bj * kmax)[:, None] + others
    counts = np.bincount(idx.ravel(), minlength=n_other * kj * kmax).reshape(n_other, kj, kmax)
    expected = counts.sum(axis=2)[:, :, None] * counts.sum(axis=1)[:, None, :] / m
    terms = np.divide((counts - expected) ** 2, expected, out=np.zeros_like(expected),
                      where=expected > 0)
    stat = terms.sum(axis=(1, 2))
    df = (kj - 1) * (k - 1)
    p = np.ones(n_other)
    p[df > 0] = chdtrc(df[df > 0], stat[df > 0])
    return 1.0 - p


def _cells(binned: np.ndarray) -> np.ndarray:
    """Cell index of each row in the grid spanned by the columns of ``binned`` (dense codes)."""
    cell = np.zeros(len(binned), dtype=np.int64)
    for column in binned.T:
        cell, _ = _dense(cell * (int(column.max()) + 1) + column)
    return cell


def _within_cells(cells: np.ndarray, perm: np.ndarray) -> np.ndarray:
    """Source row of each row when values are permuted inside ``cells``: within a cell, the
    rows in the random order of ``perm`` are matched to the rows in their own order."""
    source = np.empty_like(perm)
    source[np.argsort(cells, kind="stable")] = perm[np.argsort(cells[perm], kind="stable")]
    return source


def conditional_oob_importance(
    forest,
    X: np.ndarray,
    y: np.ndarray,
    *,
    features: Sequence[int],
    threshold: float,
    rng: np.random.Generator,
) -> pd.DataFrame:
    """CVIRF_j of a fitted ``RandomForestRegressor`` (bootstrap) trained on ``(X, y)``.

    Returns columns ``feature``, ``value`` (mean d_tj over trees), ``n_conditioning`` (mean
    size of Z_tj over the trees splitting on j) and ``cell_size`` (mean, over those trees'
    OOB rows, of the size of the row's cell).
    """
    if not getattr(forest, "bootstrap", False):
        raise ValueError("CVIRF is out-of-bag: it needs a forest fitted with bootstrap=True")
    if isinstance(threshold, bool) or not isinstance(threshold, int | float) \
            or not 0.0 <= threshold <= 1.0:
        raise ValueError(f"threshold must be a number in [0, 1] (1 - p-value that a feature's "
                         f"association must exceed to be conditioned on), got {threshold!r}")
    n = len(X)
    features = list(features)
    X32 = np.asarray(X, dtype=np.float32)
    n_trees = len(forest.estimators_)
    diffs = np.zeros((n_trees, len(features)))
    sizes = np.full((n_trees, len(features)), np.nan)
    cell_sizes = np.full((n_trees, len(features)), np.nan)
    for t, (tree, in_bag) in enumerate(zip(forest.estimators_, forest.estimators_samples_,
                                           strict=True)):
        oob = np.setdiff1d(np.arange(n), in_bag)
        Xo, yo = X32[oob], y[oob]
        m = len(oob)
        perms = [rng.permutation(m) for _ in features]
        cuts = _cut_points(tree)
        used = [k for k, j in enumerate(features) if j in cuts]
        if not used or m == 0:
            continue
        in_tree = np.array(sorted(cuts))
        binned = np.empty((m, len(in_tree)), dtype=np.int64)
        levels = np.empty(len(in_tree), dtype=np.int64)
        for c, f in enumerate(in_tree):
            codes = np.searchsorted(cuts[f], Xo[:, f].astype(np.float64), side="left")
            binned[:, c], levels[c] = _dense(codes)
        stacked = np.tile(Xo, (len(used) + 1, 1))
        for s, k in enumerate(used, start=1):
            j = features[k]
            c = int(np.searchsorted(in_tree, j))
            other = np.flatnonzero(in_tree != j)
            Z = other[association(binned[:, c], int(levels[c]), binned[:, other],
                                  levels[other]) > threshold] if len(other) else other
            cells = _cells(binned[:, Z])
            stacked[s * m : (s + 1) * m, j] = Xo[_within_cells(cells, perms[k]), j]
            sizes[t, k] = len(Z)
            cell_sizes[t, k] = np.bincount(cells)[cells].mean()
        pred = tree.predict(stacked, check_input=False).reshape(len(used) + 1, m)
        mse = ((yo[None, :] - pred) ** 2).mean(axis=1)
        diffs[t, used] = mse[1:] - mse[0]
    return pd.DataFrame({"feature": features, "value": diffs.mean(axis=0),
                         "n_conditioning": _mean_where_used(sizes),
                         "cell_size": _mean_where_used(cell_sizes)})


def _mean_where_used(a: np.ndarray) -> np.ndarray:
    """Column means over the non-NaN entries (NaN for a feature no tree splits on)."""
    used = ~np.isnan(a)
    count = used.sum(axis=0)
    total = np.where(used, a, 0.0).sum(axis=0)
    return np.divide(total, count, out=np.full(a.shape[1], np.nan), where=count > 0)
