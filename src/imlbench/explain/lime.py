"""LIME for tabular data (Ribeiro et al. 2016; book chapters 12-14).

For an explained point x: draw ``n_samples`` points z, weight each by its proximity pi_x(z),
and fit a weighted linear surrogate g to f(z) (book ch. 14's objective:
g* = argmin_g sum_i pi_x(z_i) (f(z_i) - g(z_i))^2 + lambda |beta|^2). The surrogate's
coefficients are the explanation: for a numeric feature, the local slope of f in the
feature's own units; for a categorical feature, the effect of having x's level; with the
``binned`` representation, the effect of lying in x's quartile bin.

Sampling (each feature drawn independently, as R's and Python's lime do, except ``local``):
``local`` (normal around x with sd ``local_sd`` times the feature's sd, ``local_units: sd``,
or ``local_sd`` itself in the feature's units, ``raw``; Laugel et al. 2018), ``normal`` (the
feature's normal approximation), ``quantile_bins`` (a quartile bin drawn with its data
frequency, then uniform within it: R lime's ``bin_continuous``), ``kde`` (a Gaussian kernel
density estimate of the feature), ``uniform`` (uniform on the data's [min, max]) or ``data``
(the data rows themselves, no perturbation: the book's Fig. 12.1). Categorical features
always draw levels with their data frequencies.

Representation (the surrogate's inputs): ``raw`` (numeric values as they are, categorical as
"same level as x") or ``binned`` (R lime's ``bin_continuous``: every numeric feature cut at its
data quartiles, bins closed on the right; the input is 1 if the sample lies in x's bin).

Proximity: with ``distance: euclidean`` and ``kernel: lime`` (R lime), the Euclidean distance on
features standardised by the data sd (categorical: 0 if equal to x's level, else 1) with the
kernel sqrt(exp(-d^2 / w^2)); ``kernel: exp``, exp(-d^2 / w) on the raw, unstandardised distance
(the book's ch. 14 sketches); ``kernel: none``, every weight 1. ``distance: gower``: one minus
the Gower distance, no kernel (R lime). With the ``binned`` representation the distance is
taken on the 0/1 inputs (d^2 = the number of features outside x's bin or level). The width w
defaults to 0.75 sqrt(p).

Surrogate fit: weighted ridge regression with R lime's glmnet penalty (``alpha = 0``,
``lambda = ridge``, inputs standardised), i.e. argmin sum w (t - a - D b)^2 + ridge sum_j C_jj
b_j^2 with C_jj = sum w (D_j - mean_w D_j)^2: the penalty scales with the weights, so it stays
negligible however small the kernel width makes them; a one-feature surrogate is fitted
without penalty (R lime's ``glm.fit``). As both lime implementations do, the first sample of
every point is the point itself (``include_point``, on by default), so a narrow kernel still
has one sample of weight 1.

Feature selection (``n_features`` of p): ``forward`` (greedy, by weighted R^2),
``highest_weights`` (largest |coefficient| of the full weighted ridge fit), ``auto``
(forward if n_features <= 6, else highest weights, as R lime), or ``none``.

Sharing: every explained point's samples are drawn once per repeat, and all of them go through
the model in stacked ``predict`` calls; every kernel width and ``n_features`` value reuses these
samples and predictions (only the weights, selection and fit change). Stream rule: the samples
are drawn repeat by repeat and, within a repeat, point by point, so a call with ``repeats: R``
draws what R successive calls with ``repeats: 1`` on the same generator draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from imlbench.explain.batching import DEFAULT_MAX_ROWS, Predict, predict_rows

SAMPLINGS = ("local", "normal", "quantile_bins", "kde", "uniform", "data")
DISTANCES = ("euclidean", "gower")
SELECTIONS = ("auto", "forward", "highest_weights", "none")
KERNELS = ("lime", "exp", "none")
LOCAL_UNITS = ("sd", "raw")
REPRESENTATIONS = ("raw", "binned")


def _one_of(value: str, allowed: Sequence[str], what: str) -> None:
    if value not in allowed:
        raise ValueError(f"LIME {what} {value!r} is not one of {', '.join(allowed)}")


def quartile_edges(col: np.ndarray) -> np.ndarray:
    """The distinct quartiles (min, 25%, 50%, 75%, max) of a feature's data: R lime's bins."""
    return np.unique(np.quantile(col, [0, 0.25, 0.5, 0.75, 1.0]))


def bin_of(edges: np.ndarray, values: np.ndarray) -> np.ndarray:
    """The bin (0-based) of each value among ``edges``: bins closed on the right, the lowest
    closed on both sides, values outside the data range in the outer bins."""
    return np.clip(np.searchsorted(edges, values, side="left") - 1, 0, len(edges) - 2)


def _sample(
    X: np.ndarray, x: np.ndarray, n: int, sampling: str, local_sd: float,
    categorical: Sequence[int], rng: np.random.Generator, local_units: str = "sd",
) -> np.ndarray:
    p = X.shape[1]
    Z = np.empty((n, p))
    for j in range(p):
        col = X[:, j]
        if j in categorical:
            levels, counts = np.unique(col, return_counts=True)
            Z[:, j] = rng.choice(levels, size=n, p=counts / counts.sum())
        elif sampling == "local":
            scale = local_sd * (col.std() if local_units == "sd" else 1.0)
            Z[:, j] = x[j] + scale * rng.standard_normal(n)
        elif sampling == "normal":
            Z[:, j] = col.mean() + col.std() * rng.standard_normal(n)
        elif sampling == "quantile_bins":
            edges = quartile_edges(col)
            freq = np.bincount(bin_of(edges, col), minlength=len(edges) - 1) / len(col)
            b = rng.choice(len(edges) - 1, size=n, p=freq)
            Z[:, j] = rng.uniform(edges[b], edges[b + 1])
        elif sampling == "kde":
            from scipy.stats import gaussian_kde

            Z[:, j] = gaussian_kde(col).resample(n, seed=rng)[0]
        elif sampling == "uniform":
            Z[:, j] = rng.uniform(col.min(), col.max(), n)
        else:
            _one_of(sampling, SAMPLINGS[:-1], "sampling")
    return Z


def _squared_distances(Z: np.ndarray, x: np.ndarray, X: np.ndarray, kernel: str,
                       categorical: Sequence[int]) -> np.ndarray:
    """Squared Euclidean distances of the samples to x: numeric features standardised by the
    data sd (``kernel: lime``) or raw (``exp``), categorical 0/1 for same/other level."""
    numeric = [j for j in range(X.shape[1]) if j not in categorical]
    cat = list(categorical)
    diff = Z[:, numeric] - x[numeric]
    if kernel == "lime":
        sd = X[:, numeric].std(axis=0)
        diff = diff / np.where(sd > 0, sd, 1.0)
    return (diff**2).sum(axis=1) + (Z[:, cat] != x[cat]).sum(axis=1)


def _no_kernel_with_gower(kernel: str) -> None:
    if kernel != "lime":
        raise ValueError(f"LIME kernel {kernel!r} needs distance euclidean; with distance gower "
                         "the weights are one minus the Gower distance (allowed: kernel lime)")


def _proximities(
    Z: np.ndarray, x: np.ndarray, X: np.ndarray, distance: str, kernel_widths: Sequence[float],
    categorical: Sequence[int], kernel: str = "lime", binned: np.ndarray | None = None,
) -> list[np.ndarray]:
    """The proximity weights of the samples Z to x, one array per kernel width (the distances
    are computed once; Gower and ``kernel: none`` have no width, so every width gets the same
    weights). ``binned``: the samples' 0/1 inputs of the binned representation, on which the
    distance is then taken."""
    _one_of(distance, DISTANCES, "distance")
    _one_of(kernel, KERNELS, "kernel")
    if distance == "gower":
        _no_kernel_with_gower(kernel)
        if binned is not None:
            return [1.0 - (1.0 - binned).mean(axis=1)] * len(kernel_widths)
        numeric = [j for j in range(X.shape[1]) if j not in categorical]
        cat = list(categorical)
        rng_ = np.ptp(X[:, numeric], axis=0)
        rng_ = np.where(rng_ > 0, rng_, 1.0)
        parts = np.abs(Z[:, numeric] - x[numeric]) / rng_
        total = parts.sum(axis=1) + (Z[:, cat] != x[cat]).sum(axis=1)
        return [1.0 - total / X.shape[1]] * len(kernel_widths)
    if kernel == "none":
        return [np.ones(len(Z))] * len(kernel_widths)
    d2 = ((1.0 - binned) ** 2).sum(axis=1) if binned is not None else _squared_distances(
        Z, x, X, kernel, categorical)
    if kernel == "lime":
        return [np.sqrt(np.exp(-d2 / width**2)) for width in kernel_widths]
    return [np.exp(-d2 / width) for width in kernel_widths]


def _proximity(
    Z: np.ndarray, x: np.ndarray, X: np.ndarray, distance: str, kernel_width: float,
    categorical: Sequence[int], kernel: str = "lime",
) -> np.ndarray:
    return _proximities(Z, x, X, distance, [kernel_width], categorical, kernel)[0]


def _design(Z: np.ndarray, x: np.ndarray, categorical: Sequence[int],
            edges: Sequence[np.ndarray | None] | None = None) -> np.ndarray:
    """Surrogate inputs: numeric values as they are (or, with the bin ``edges`` of each numeric
    feature, 1 if in x's bin), categorical as 'same level as x'."""
    D = Z.copy()
    for j in categorical:
        D[:, j] = (Z[:, j] == x[j]).astype(float)
    for j, e in enumerate(edges or ()):
        if e is not None:
            D[:, j] = (bin_of(e, Z[:, j]) == bin_of(e, x[j : j + 1])[0]).astype(float)
    return D


def _ridge_solve(C: np.ndarray, c: np.ndarray, lam: float) -> np.ndarray:
    """The ridge coefficients from the weighted centred cross-products C and c, with glmnet's
    standardised penalty lam diag(C) (none for one input). A singular system (an input
    constant over the weighted samples) gets the least-norm solution: 0 for that input."""
    A = C + (lam * np.diag(np.diag(C)) if len(c) > 1 else 0.0)
    return np.linalg.lstsq(A, c, rcond=None)[0]


def weighted_ridge(
    D: np.ndarray, t: np.ndarray, w: np.ndarray, lam: float
) -> tuple[np.ndarray, float, float]:
    """Coefficients, intercept and weighted R^2 of argmin sum w (t - a - D b)^2 + lam
    sum_j C_jj b_j^2 (module doc; no penalty for one input). Weights that are all zero leave
    the surrogate undefined: NaN."""
    if not w.sum() > 0:
        return np.full(D.shape[1], np.nan), float("nan"), float("nan")
    return _Moments.of(D, t, w).fit(list(range(D.shape[1])), lam)


@dataclass(frozen=True)
class _Moments:
    """The weighted, centred cross-products of the inputs (``C``, p x p), of inputs and target
    (``c``), the target's weighted sum of squares (``tss``) and the weighted means of inputs
    (``mu``) and target (``mt``): every subset's ridge fit follows from them, so the forward
    selection's candidates and the kept surrogates share one pass over the samples."""

    C: np.ndarray
    c: np.ndarray
    tss: float
    mu: np.ndarray
    mt: float

    @classmethod
    def of(cls, D: np.ndarray, t: np.ndarray, w: np.ndarray) -> _Moments:
        sw = w.sum()
        mu, mt = w @ D / sw, w @ t / sw
        Dc, tc = D - mu, t - mt
        Dw = Dc * w[:, None]
        return cls(Dw.T @ Dc, Dw.T @ tc, float(w @ tc**2), mu, float(mt))

    def fit(self, keep: list[int], lam: float) -> tuple[np.ndarray, float, float]:
        """Coefficients, intercept and weighted R^2 of the ridge fit on the inputs ``keep``."""
        CS, cS = self.C[np.ix_(keep, keep)], self.c[keep]
        beta = _ridge_solve(CS, cS, lam)
        rss = self.tss - 2 * beta @ cS + beta @ CS @ beta
        r2 = 1.0 - rss / self.tss if self.tss > 0 else 1.0
        return beta, float(self.mt - self.mu[keep] @ beta), float(r2)


def _selections(m: _Moments, ks: Sequence[int], how: str, lam: float) -> list[list[int]]:
    """The features kept for each k of ``ks``: forward selection is greedy, so one path to the
    largest k gives every smaller k as its prefix; highest weights rank one full fit. The
    candidate fits are solved from the weighted moments ``m``."""
    _one_of(how, SELECTIONS, "feature selection")
    p = len(m.c)
    rule = {k: ("forward" if k <= 6 else "highest_weights") if how == "auto" else how
            for k in ks}
    if all(rule[k] == "none" or k >= p for k in ks):
        return [list(range(p))] * len(ks)
    path: list[int] = []
    reach = max((k for k in ks if rule[k] == "forward" and k < p), default=0)
    for _ in range(reach):
        path.append(max((j for j in range(p) if j not in path),
                        key=lambda j: m.fit(path + [j], lam)[2]))
    order = np.argsort(-np.abs(_ridge_solve(m.C, m.c, lam)), kind="stable")
    out = []
    for k in ks:
        if rule[k] == "none" or k >= p:
            out.append(list(range(p)))
        elif rule[k] == "forward":
            out.append(sorted(path[:k]))
        else:
            out.append(sorted(order[:k].tolist()))
    return out


@dataclass(frozen=True)
class LimeFits:
    """The surrogates of every (kernel width, n_features value, explained point, repeat):
    ``coef`` (widths, n_features values, points, repeats, p; 0 for an unselected feature),
    ``intercept`` and ``r2`` (widths, n_features values, points, repeats; the weighted R^2 of
    the surrogate on its selected features, the explanation's fit as in R lime), ``selected``
    (as ``coef``; the features the selection kept)."""

    coef: np.ndarray
    intercept: np.ndarray
    r2: np.ndarray
    selected: np.ndarray


def default_kernel_width(p: int) -> float:
    """0.75 sqrt(p), the default of R's and Python's lime for p standardised features."""
    return 0.75 * np.sqrt(p)


def lime_fits(
    predict: Predict,
    X: np.ndarray,
    rows: np.ndarray,
    rng: np.random.Generator,
    *,
    kernel_widths: Sequence[float | None] = (None,),
    n_features: int | None | Sequence[int | None] = None,
    repeats: int = 1,
    n_samples: int = 5000,
    sampling: str = "local",
    local_sd: float = 0.1,
    local_units: str = "sd",
    kernel: str = "lime",
    distance: str = "euclidean",
    representation: str = "raw",
    selection: str = "auto",
    ridge: float = 0.001,
    include_point: bool = True,
    categorical: Sequence[int] = (),
    max_rows: int = DEFAULT_MAX_ROWS,
) -> LimeFits:
    """LIME surrogates of each explained point (``rows``), ``repeats`` times on fresh samples,
    for each kernel width (None: the default width) and each ``n_features`` value (a number,
    None for all, or a list of them: a sweep).

    The samples of all points and repeats are predicted in stacked calls and shared by all
    widths and ``n_features`` values, so a sweep draws from ``rng`` exactly what one value
    does (stream rule: module doc). ``sampling: data`` uses the rows of X as every point's
    samples (predicted once; ``n_samples`` unused).
    """
    for value, allowed, what in ((sampling, SAMPLINGS, "sampling"),
                                 (local_units, LOCAL_UNITS, "local_units"),
                                 (kernel, KERNELS, "kernel"), (distance, DISTANCES, "distance"),
                                 (representation, REPRESENTATIONS, "representation"),
                                 (selection, SELECTIONS, "feature selection")):
        _one_of(value, allowed, what)
    if distance == "gower":
        _no_kernel_with_gower(kernel)
    p = X.shape[1]
    widths = [default_kernel_width(p) if w is None else float(w) for w in kernel_widths]
    swept = n_features if isinstance(n_features, Sequence) else [n_features]
    ks = [p if k is None else int(k) for k in swept]
    edges = ([None if j in categorical else quartile_edges(X[:, j]) for j in range(p)]
             if representation == "binned" else None)
    n_points = len(rows)
    if sampling == "data":
        f_data = predict_rows(predict, X, max_rows)
        samples = [[X] * n_points for _ in range(repeats)]
        f = np.broadcast_to(f_data, (repeats, n_points, len(X)))
    else:
        samples = [[_sample(X, x, n_samples, sampling, local_sd, categorical, rng, local_units)
                    for x in rows] for _ in range(repeats)]
        if include_point:
            for per_repeat in samples:
                for Z, x in zip(per_repeat, rows, strict=True):
                    Z[0] = x
        stacked = np.concatenate([Z for per_repeat in samples for Z in per_repeat])
        f = predict_rows(predict, stacked, max_rows).reshape(repeats, n_points, n_samples)
    shape = (len(widths), len(ks), n_points, repeats)
    coef, selected = np.zeros((*shape, p)), np.zeros((*shape, p), dtype=bool)
    intercept, r2 = np.zeros(shape), np.zeros(shape)
    for r in range(repeats):
        for i, x in enumerate(rows):
            Z, t = samples[r][i], f[r, i]
            D = _design(Z, x, categorical, edges)
            weights = _proximities(Z, x, X, distance, widths, categorical, kernel,
                                   D if edges is not None else None)
            for v, w in enumerate(weights):
                if not w.sum() > 0:  # every sample too far for the kernel: no surrogate
                    coef[v, :, i, r] = intercept[v, :, i, r] = r2[v, :, i, r] = np.nan
                    continue
                moments = _Moments.of(D, t, w)
                for c, keep in enumerate(_selections(moments, ks, selection, ridge)):
                    fit = moments.fit(keep, ridge)
                    coef[v, c, i, r, keep], intercept[v, c, i, r], r2[v, c, i, r] = fit
                    selected[v, c, i, r, keep] = True
    return LimeFits(coef, intercept, r2, selected)


def lime_coefficients(
    predict: Predict,
    X: np.ndarray,
    rows: np.ndarray,
    rng: np.random.Generator,
    *,
    kernel_width: float | None = None,
    **options,
) -> np.ndarray:
    """Local surrogate coefficients for each explained row, shape (len(rows), p), for one
    kernel width and one repeat; unselected features get coefficient 0 (``options``: those of
    :func:`lime_fits`)."""
    fits = lime_fits(predict, X, rows, rng, kernel_widths=[kernel_width], **options)
    return fits.coef[0, 0, :, 0]


#: the ``at`` words of a constructed point
POINT_AT = ("mean", "max", "min", "majority", "minority")
#: the keys that say what a point is (exactly one per item of ``points``)
POINT_KINDS = ("at", "values", "row", "draw")


@dataclass(frozen=True)
class ExplainedPoints:
    """The points LIME explains: their ``labels``, values ``X`` (points, p) and the index of
    each in the data rows (``rows``; -1 for a constructed point)."""

    labels: list[str]
    X: np.ndarray
    rows: np.ndarray


def _constructed(X: np.ndarray, at: str, categorical: Sequence[int]) -> np.ndarray:
    """A point with every feature at its mean (categorical: most frequent level), maximum,
    minimum, most or least frequent value (ties: the smallest value)."""
    out = np.empty(X.shape[1])
    for j in range(X.shape[1]):
        levels, counts = np.unique(X[:, j], return_counts=True)
        if at == "mean":
            out[j] = levels[np.argmax(counts)] if j in categorical else X[:, j].mean()
        elif at in ("max", "min"):
            out[j] = X[:, j].max() if at == "max" else X[:, j].min()
        else:
            out[j] = levels[np.argmax(counts) if at == "majority" else np.argmin(counts)]
    return out


def explained_points(
    X: np.ndarray, specs: Sequence[dict], names: Sequence[str], categorical: Sequence[int],
    rng: np.random.Generator,
) -> ExplainedPoints:
    """The points of a ``points:`` list (items ``{at: mean|max|min|majority|minority}``,
    ``{values: {feature: value}}`` with the other features as ``at: mean``, ``{row: i}`` (0-based
    row of X) or ``{draw: k, where: {feature: {below: b, above: a}}}`` (k rows of X drawn
    without replacement among those strictly within every bound), each with an optional
    ``label``; default labels: the ``at`` word, ``values<i>``, ``row<i>``, ``draw<i>_<j>``, with i
    the item's position (the row's index for ``row``) and j the draw; a labelled draw gets
    ``<label>_<j>``)."""
    names = list(names)

    def index(key: str, name: str) -> int:
        if name not in names:
            raise ValueError(f"{key}: feature {name!r} is not in the data; allowed: "
                             f"{', '.join(names)}")
        return names.index(name)

    labels: list[str] = []
    values: list[np.ndarray] = []
    rows: list[int] = []
    for i, spec in enumerate(specs):
        key = f"points[{i}]"
        kinds = [k for k in POINT_KINDS if spec.get(k) is not None]
        if len(kinds) != 1:
            raise ValueError(f"{key}: gives {', '.join(kinds) or 'none'} of its kinds; allowed: "
                             f"exactly one of {', '.join(POINT_KINDS)}")
        kind = kinds[0]
        if spec.get("where") is not None and kind != "draw":
            raise ValueError(f"{key}.where: given with {kind}; allowed: where only with draw")
        label = spec.get("label")
        if kind == "at":
            if spec["at"] not in POINT_AT:
                raise ValueError(f"{key}.at: {spec['at']!r} is not allowed; allowed: "
                                 f"{', '.join(POINT_AT)}")
            labels.append(label or spec["at"])
            values.append(_constructed(X, spec["at"], categorical))
            rows.append(-1)
        elif kind == "values":
            x = _constructed(X, "mean", categorical)
            for name, v in spec["values"].items():
                x[index(f"{key}.values", name)] = v
            labels.append(label or f"values{i}")
            values.append(x)
            rows.append(-1)
        elif kind == "row":
            r = spec["row"]
            if not 0 <= r < len(X):
                raise ValueError(f"{key}.row: {r} is out of range; allowed: 0 to {len(X) - 1} "
                                 "(the data rows)")
            labels.append(label or f"row{r}")
            values.append(X[r])
            rows.append(r)
        else:
            inside = np.ones(len(X), dtype=bool)
            for name, bounds in (spec.get("where") or {}).items():
                col = X[:, index(f"{key}.where", name)]
                if bounds.get("below") is not None:
                    inside &= col < bounds["below"]
                if bounds.get("above") is not None:
                    inside &= col > bounds["above"]
            eligible = np.flatnonzero(inside)
            if len(eligible) < spec["draw"]:
                raise ValueError(f"{key}.draw: {spec['draw']} rows asked but {len(eligible)} of "
                                 f"the {len(X)} data rows lie within {key}.where; allowed: at "
                                 f"most {len(eligible)}")
            chosen = np.sort(rng.choice(eligible, size=spec["draw"], replace=False))
            for j, r in enumerate(chosen):
                labels.append(f"{label}_{j}" if label else f"draw{i}_{j}")
                values.append(X[r])
                rows.append(int(r))
    repeated = sorted({s for s in labels if labels.count(s) > 1})
    if repeated:
        raise ValueError(f"points: label(s) {', '.join(repeated)} repeated; allowed: distinct "
                         "labels (set label: on the items)")
    return ExplainedPoints(labels, np.array(values).reshape(len(values), X.shape[1]),
                           np.array(rows, dtype=int))


def proximity_weights(
    Z: np.ndarray, x: np.ndarray, X: np.ndarray, *, kernel_width: float | None = None,
    kernel: str = "lime", distance: str = "euclidean", categorical: Sequence[int] = (),
) -> np.ndarray:
    """The LIME weights of the rows Z for the point x, data X, one kernel width (None: the
    default), raw representation (module doc): what a figure draws as the samples' sizes."""
    width = default_kernel_width(X.shape[1]) if kernel_width is None else kernel_width
    return _proximities(Z, x, X, distance, [width], categorical, kernel)[0]
