"""StratPD and CatStratPD: partial dependence from the data alone (Parr & Wilson 2021).

Neither method queries a fitted model. A decision tree fitted to (X_-j, y) stratifies the
other features; inside each leaf, changes of y with x_j estimate the partial derivative
(numeric x_j) or the category deltas (categorical x_j), which are then combined.

StratPD (Algorithm 1) estimates the idealised PD of eq. (1), PD_j(z) = int_{min x_j}^z df/dx_j,
which is 0 at the smallest retained x_j. Within a leaf, y is averaged per unique x_j and
forward differences give slopes over [x_k, x_{k+1}); the slope at each unique x of the
whole column is the unweighted mean of the leaf slopes whose interval spans it; values
with fewer than ``min_slopes_per_x`` slopes are dropped; the slopes are integrated.
``gaps`` decides how dropped values are bridged: ``span`` (Algorithm 1: each retained
slope runs to the next retained x) or ``zero`` (the ``stratx`` 0.5 package: an interval
that starts at a dropped x adds nothing, and x values after two dropped ones in a row are
removed).

CatStratPD (Algorithm 2) estimates the effect of each category relative to the others:
per leaf, mean y per category minus that of a reference category; leaves are merged into
a running count-weighted average after shifting each to agree with it on a shared
category, in at most ``max_passes`` passes; leaves that never share a category are
ignored. ``reference`` picks the leaf's reference category (``random`` as Algorithm 2, or
``min``, the category of smallest mean y, as ``stratx``); ``anchor`` the shared category
used to shift (``random`` as Algorithm 2, or ``mean``: the average of the shifts over all
shared categories, as ``stratx``).

``ntrials`` > 1 averages the curves of bootstrap resamples at every x value (or category)
that any trial produced.
"""

from __future__ import annotations

import numpy as np

GAPS = ("span", "zero")
REFERENCES = ("random", "min")
ANCHORS = ("random", "mean")


def stratify(
    X_other: np.ndarray, y: np.ndarray, min_samples_leaf: int, rng: np.random.Generator
) -> np.ndarray:
    """The stratum of each row: its leaf id in a regression tree fitted to (X_-j, y) with
    ``min_samples_leaf`` (Algorithms 1 and 2, line 1; the tree's predictions are not used)."""
    from sklearn.tree import DecisionTreeRegressor

    tree = DecisionTreeRegressor(
        min_samples_leaf=min_samples_leaf, random_state=int(rng.integers(2**31 - 1))
    ).fit(X_other, y)
    return tree.apply(X_other)


def _leaves(
    X_other: np.ndarray, y: np.ndarray, min_samples_leaf: int, rng: np.random.Generator
) -> list[np.ndarray]:
    """Row indices of each leaf of :func:`stratify`'s tree, by leaf id."""
    leaf = stratify(X_other, y, min_samples_leaf, rng)
    order = np.argsort(leaf, kind="stable")
    bounds = np.flatnonzero(np.diff(leaf[order])) + 1
    return np.split(order, bounds)


def group_means(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct values of ``x`` (sorted), the mean of ``y`` at each, and their counts."""
    ux, inverse, counts = np.unique(x, return_inverse=True, return_counts=True)
    return ux, np.bincount(inverse, weights=y) / counts, counts


def _stratpd_once(
    X: np.ndarray, y: np.ndarray, j: int, min_samples_leaf: int, min_slopes_per_x: int,
    gaps: str, rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray]:
    xj = np.round(X[:, j], 10)  # values equal to 10 decimals are one x
    lo, hi, slope = [], [], []
    for rows in _leaves(np.delete(X, j, axis=1), y, min_samples_leaf, rng):
        ux, ybar, _ = group_means(xj[rows], y[rows])
        if len(ux) < 2:
            continue  # a leaf with one x value has no slope
        lo.append(ux[:-1])
        hi.append(ux[1:])
        slope.append(np.diff(ybar) / np.diff(ux))
    ux = np.unique(xj)
    if not slope:
        return ux[:1], np.zeros(1)
    lo, hi, slope = np.concatenate(lo), np.concatenate(hi), np.concatenate(slope)
    # each leaf slope covers the unique x in [lo, hi): add it over that index range
    start = np.searchsorted(ux, lo, side="left")
    stop = np.searchsorted(ux, hi, side="left")
    total = np.zeros(len(ux) + 1)
    count = np.zeros(len(ux) + 1)
    np.add.at(total, start, slope)
    np.add.at(total, stop, -slope)
    np.add.at(count, start, 1)
    np.add.at(count, stop, -1)
    total, count = np.cumsum(total)[:-1], np.round(np.cumsum(count)[:-1])
    keep = count >= max(min_slopes_per_x, 1)
    mean_slope = np.divide(total, count, out=np.full(len(ux), np.nan), where=keep)
    if gaps == "span":  # Algorithm 1: integrate over the retained x only
        idx = np.flatnonzero(keep)
        xs = ux[idx]
        return xs, np.concatenate([[0.0], np.cumsum(mean_slope[idx][:-1] * np.diff(xs))])
    if gaps == "zero":
        steps = np.nan_to_num(mean_slope[:-1] * np.diff(ux))
        pdy = np.concatenate([[0.0], np.cumsum(steps)])
        nan = np.isnan(mean_slope)
        idx = np.flatnonzero(~(nan[1:] & nan[:-1])) + 1
        if not nan[0]:
            idx = np.concatenate([[0], idx])
        return ux[idx], pdy[idx]
    raise ValueError(f"StratPD gaps {gaps!r} is not one of {', '.join(GAPS)}")


Curve = tuple[np.ndarray, np.ndarray]


def _trials(X: np.ndarray, y: np.ndarray, ntrials: int, rng: np.random.Generator, once
            ) -> list[Curve]:
    """``once(X, y)`` on the data (ntrials = 1) or on each of ``ntrials`` bootstrap resamples."""
    curves = []
    for _ in range(max(ntrials, 1)):
        rows = rng.integers(0, len(X), size=len(X)) if ntrials > 1 else slice(None)
        curves.append(once(X[rows], y[rows]))
    return curves


def average_trials(curves: list[Curve]) -> Curve:
    """The curves of bootstrap trials averaged per x value (or category).

    Values a trial leaves undefined (NaN) do not count; x values no trial defines are dropped.
    """
    xs, vs = [c[0] for c in curves], [c[1] for c in curves]
    allx = np.concatenate(xs)
    allv = np.concatenate(vs)
    ok = ~np.isnan(allv)
    ux, inverse = np.unique(allx[ok], return_inverse=True)
    return ux, np.bincount(inverse, weights=allv[ok]) / np.bincount(inverse)


def stratpd_trials(
    X: np.ndarray,
    y: np.ndarray,
    j: int,
    *,
    min_samples_leaf: int = 10,
    min_slopes_per_x: int = 5,
    ntrials: int = 1,
    gaps: str = "span",
    rng: np.random.Generator,
) -> list[Curve]:
    """StratPD of numeric feature ``j``: per trial (one, or ``ntrials`` bootstrap resamples),
    the retained unique x values and the PD there (:func:`average_trials` averages them)."""
    if gaps not in GAPS:
        raise ValueError(f"StratPD gaps {gaps!r} is not one of {', '.join(GAPS)}")

    def once(Xb: np.ndarray, yb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return _stratpd_once(Xb, yb, j, min_samples_leaf, min_slopes_per_x, gaps, rng)

    return _trials(X, y, ntrials, rng, once)


def _merge_leaves(
    deltas: np.ndarray, counts: np.ndarray, anchor: str, max_passes: int,
    rng: np.random.Generator,
) -> np.ndarray:
    """Algorithm 2's merge: leaf delta columns into one running weighted average."""
    avg = deltas[:, 0].copy()
    weight = counts[:, 0].astype(float)
    work = list(range(1, deltas.shape[1]))
    passes = 0
    while work and passes < max_passes:
        passes += 1
        done = []
        for leaf in work:
            v = deltas[:, leaf]
            common = np.flatnonzero(~np.isnan(avg) & ~np.isnan(v))
            if len(common) == 0:
                continue
            if anchor == "random":
                c = common[rng.integers(len(common))]
                shifted = v - v[c] + avg[c]
            else:
                shifted = np.mean([v - v[c] + avg[c] for c in common], axis=0)
            w = counts[:, leaf].astype(float)
            both = ~np.isnan(avg) & ~np.isnan(shifted)
            only_new = np.isnan(avg) & ~np.isnan(shifted)
            merged = avg.copy()
            merged[both] = (avg[both] * weight[both] + shifted[both] * w[both]) / np.where(
                weight[both] + w[both] > 0, weight[both] + w[both], 1.0
            )
            merged[only_new] = shifted[only_new]
            avg = merged
            weight += w
            done.append(leaf)
        if not done:
            break
        merged_now = set(done)
        work = [leaf for leaf in work if leaf not in merged_now]
    return avg


def _catstratpd_once(
    X: np.ndarray, y: np.ndarray, j: int, levels: np.ndarray, min_samples_leaf: int,
    reference: str, anchor: str, max_passes: int, rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray]:
    leaves = _leaves(np.delete(X, j, axis=1), y, min_samples_leaf, rng)
    pos = np.searchsorted(levels, X[:, j])
    deltas = np.full((len(levels), len(leaves)), np.nan)
    counts = np.zeros((len(levels), len(leaves)))
    for i, rows in enumerate(leaves):
        cats, ybar, n = group_means(pos[rows], y[rows])
        ref = rng.integers(len(cats)) if reference == "random" else int(np.argmin(ybar))
        deltas[cats, i] = ybar - ybar[ref]
        counts[cats, i] = n
    return levels, _merge_leaves(deltas, counts, anchor, max_passes, rng)


def catstratpd_trials(
    X: np.ndarray,
    y: np.ndarray,
    j: int,
    *,
    min_samples_leaf: int = 10,
    ntrials: int = 1,
    reference: str = "random",
    anchor: str = "random",
    max_passes: int = 3,
    rng: np.random.Generator,
) -> list[Curve]:
    """CatStratPD of categorical feature ``j``: per trial (as :func:`stratpd`), its levels
    and their effects.

    Effects are relative: each trial's curve is shifted so that its smallest value is 0.
    Levels that no merged leaf contains are NaN.
    """
    if reference not in REFERENCES:
        raise ValueError(f"CatStratPD reference {reference!r} is not one of "
                         f"{', '.join(REFERENCES)}")
    if anchor not in ANCHORS:
        raise ValueError(f"CatStratPD anchor {anchor!r} is not one of {', '.join(ANCHORS)}")
    levels = np.unique(X[:, j])
    if len(levels) < 2:
        raise ValueError(f"categorical feature at column {j} has only one level")

    def once(Xb: np.ndarray, yb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        lv, eff = _catstratpd_once(Xb, yb, j, levels, min_samples_leaf, reference, anchor,
                                   max_passes, rng)
        return lv, eff - np.nanmin(eff)

    return _trials(X, y, ntrials, rng, once)



def stratpd(X: np.ndarray, y: np.ndarray, j: int, **options) -> Curve:
    """StratPD of numeric feature ``j`` (options as :func:`stratpd_trials`), averaged over
    its trials: the retained unique x values and the PD there."""
    return average_trials(stratpd_trials(X, y, j, **options))


def catstratpd(X: np.ndarray, y: np.ndarray, j: int, **options) -> Curve:
    """CatStratPD of categorical feature ``j`` (options as :func:`catstratpd_trials`),
    averaged over its trials: the levels any trial defines and their effects."""
    return average_trials(catstratpd_trials(X, y, j, **options))
