"""Automatic ground truths of the formula DGP, from f and the joint law alone.

Every truth is one of m(x) = E[Y | x], the DGP's ``f`` (under ``link: logistic``, the sigmoid of
the study file's expression). Monte Carlo estimates draw :data:`N_MC` rows in chunks of
:data:`CHUNK` from streams ``fixed_rng("formula:<label>")`` and carry their standard error
(``se``); closed forms carry ``se`` 0. No estimator under test is involved.

Both tables have the one shape of :mod:`imlbench.explain.estimands` (columns estimand,
feature, row, x, value, se, lo, hi).

``effects`` (estimands pd, conditional, ale, interventional): on a grid of each feature (the
quantiles 0.05, 0.10, ..., 0.95 of its marginal, estimated from N_MC draws, or with the DGP's
``truth_grid`` the quantiles of its law that a method's ``law_quantile`` grid of the same keys
holds; an integer-valued feature with at most :data:`MAX_LEVELS` values: every level),

* ``pd``: E[m(z, X_-j)] with X_-j from its own (marginal) law: full rows are drawn and column j
  is set to z (the same rows for every z). When x_j is independent of X_-j this is also the
  conditional expectation.
* ``conditional``: E[m(X) | x_j = z]. When the conditional law is known (``has_conditional``:
  marginal laws and Gaussian copulas) or x_j is independent of the others, rows are drawn from
  the law of X_-j given x_j = z. Otherwise (structural equations, discrete copula features) it
  is estimated from :data:`N_BINNED` rows: the :data:`BIN_HALF_WIDTH` share of the rows each
  side of z (by rank), with x_j set to z in them, so that only their other columns vary with
  x_j, and a local linear regression of m(z, X_-j) on x_j - z, whose intercept is the
  estimate; a value of x_j taken by at least two rows (an atom, e.g. every level of a discrete
  feature) uses the rows at z exactly. The binning error, not part of ``se``: with g(t) =
  E[m(z, X_-j) | x_j = t] and a density of x_j near-flat across the window of half-width h,
  the intercept is off by about g''(z) h^2 / 6 (for a standard normal x_j, h is about 0.025 at
  the median and 0.1 at the 5% quantile); g'' = 0 when m(z, X_-j) is linear in the columns
  whose law depends on x_j and their conditional means are linear in x_j (linear-Gaussian
  equations).
* ``ale`` (numeric features): the uncentred accumulated local effect
  int_{z_0}^{z} E[dm/dx_j | x_j = t] dt, 0 at the first grid point z_0. The derivative is a
  central difference of m with step :data:`STEP` times the feature's standard deviation (m must
  be differentiable in x_j: a jump of f in x_j is not seen), averaged over the conditional law
  as for ``conditional`` at the grid points and the midpoints between them, and integrated by
  composite Simpson's rule (exact for a conditional mean derivative that is a cubic between
  grid points). The nodes' estimates are independent (each node has its own rows; binning
  windows of adjacent nodes hardly overlap), so the ALE's ``se`` is sqrt(sum_k w_k^2 se_k^2)
  over the rule's weights w_k.
* ``interventional`` (DGPs without ``has_conditional``): E[m(X) | do(x_j = z)] from
  ``sample_intervened``; it differs from the PD only through structural equations downstream
  of x_j.

``importance`` (estimand ``pfi_marginal`` and, when noise_sd > 0, ``pfi_marginal_ratio``; the
same for ``conditional`` when the conditional law of x_j given x_-j is known:
``has_conditional``, or the closed form below): the permutation
feature importance of the true m under squared loss, the difference E[(Y - m(X~))^2] -
E[(Y - m(X))^2], where X~ is X with x_j replaced by an independent draw from its marginal
(``marginal``) or from its conditional law given x_-j (``conditional``). The noise cancels:
with e = Y - m(X), E[e | X, X~] = 0 because X~_j depends on Y only through X, so the cross
term 2 E[e (m(X) - m(X~))] vanishes and E[e^2] appears in both losses; the difference is
E[(m(X) - m(X~))^2], estimated without e (the same mean, without the noise's variance). The
ratio E[(Y - m(X~))^2] / E[(Y - m(X))^2] is (noise_sd^2 + difference) / noise_sd^2. The ranks of
the true importances are computed where they are read (:func:`imlbench.metrics.ranks.truth_ranks`).

Under ``exclude`` every truth is one of the truncated law: the rows come from
``sample_features`` (rejection sampling), no closed form of the joint law applies (the ALE's
linear closed form holds under any law), and conditional laws are binned as for structural
equations. Features of ``hidden`` are read by m but are no columns of the data: the model's
regression function is m_v(x_v) = E_H[m(x_v, H)], H independent of the visible features (see
:mod:`imlbench.dgp.formula`). The ``effects`` of a visible feature computed from full rows are
those of m_v (shown there); the hidden features keep their rows (m reads them). ``importance``
is that of m_v and holds the visible features only: the marginal PFI E[(m_v(X_v) -
m_v(X~_v))^2] is estimated without bias by the product (m(X_v, H1) - m(X~_v, H1)) (m(X_v, H2) -
m(X~_v, H2)) with H1, H2 two independent draws of the hidden features (given the visible rows,
its factors are independent with mean m_v(X_v) - m_v(X~_v) each); the square of one factor
would add E[Var_H(m(X_v, H) - m(X~_v, H))]. The conditional kinds and the ratios are left out:
the exact conditional law is not offered, and the noise of m_v is no longer noise_sd (it adds
Var_H m(x_v, H)). The closed form 2 b_j^2 S_jj of a linear f stays that of m_v (m_v is linear
with the same visible coefficients). Exchangeable classes (below) are pooled over their visible
features: a swap of two visible features that leaves m and the law unchanged leaves m_v so.

Exchangeable features share one estimate. Swapping features a and b leaves the joint law and m
unchanged when both have a law (no structural equation) that no structural equation and no
``exclude`` condition reads, their laws are the same (law and parameters; categorical: the
probabilities of the codes), their copula correlations with every other feature are equal
(features outside the copula block: 0), and m(x) = m(x with x_a, x_b swapped) on
:data:`N_SYMMETRY` rows drawn from the law, to a relative :data:`SYMMETRY_RTOL` (rounding of a
reordered sum). Then their marginal and conditional PFIs are equal, and so for every pair of a
class joined by such swaps (:func:`exchangeable_classes`). Their Monte Carlo estimates, however,
differ by noise, which would order them by chance. So each row's PFI terms of a class's features
are replaced by their mean over the class: every feature of the class gets the same value, an
unbiased estimate of the common PFI, with the standard error of that per-row mean (the terms of
one row are correlated: they share X). Their tie is then exact (equal values), and the ranks
keep it. Closed forms need no pooling (ties to rounding are tied where the ranks are read).

Closed forms (identity link, f linear: ``linear()``, features jointly normal: ``gaussian()``,
mean mu, covariance S): PD b_j z + sum_{k != j} b_k mu_k + intercept; ALE b_j (z - z_0) (f
linear suffices); marginal PFI 2 b_j^2 S_jj; when S is positive definite, E[f | x_j = z] =
intercept + b'(mu + S_.j (z - mu_j) / S_jj) and conditional PFI 2 b_j^2 Var(x_j | x_-j)
(:mod:`imlbench.truth.linear_gaussian`), also for linear-Gaussian structural equations.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from imlbench.explain.grids import inner, law_quantiles
from imlbench.truth import FixedRng, truth, truth_frame
from imlbench.truth.linear_gaussian import conditional_variances

if TYPE_CHECKING:
    from imlbench.dgp.formula import FormulaDGP, Marginal

#: Monte Carlo rows per estimate, drawn in chunks of CHUNK rows
N_MC = 100_000
CHUNK = 20_000
#: rows of the sample binned for conditional laws that are not known
N_BINNED = 500_000
#: share of the binned rows each side of a grid point in its window
BIN_HALF_WIDTH = 0.01
#: grid of a numeric feature: these quantiles of its marginal
GRID_QUANTILES = np.linspace(0.05, 0.95, 21)
#: an integer-valued feature with at most this many values is gridded at every level
MAX_LEVELS = 100
#: central-difference step, relative to the feature's standard deviation
STEP = 1e-4
#: rows on which m is compared with m of the rows with two features swapped
N_SYMMETRY = 2_000
#: relative tolerance of that comparison (rounding of a reordered sum)
SYMMETRY_RTOL = 1e-9

Values = Callable[[int, np.random.Generator], np.ndarray]
Estimate = tuple[np.ndarray, np.ndarray]


@dataclass(frozen=True)
class Grid:
    """The evaluation points of one feature, whether it is discrete, and its difference step."""

    x: np.ndarray
    discrete: bool
    step: float


def monte_carlo(values: Values, rng: np.random.Generator, n: int = N_MC) -> Estimate:
    """Mean and standard error over ``n`` rows of ``values(k, rng)``, an array of shape (k, ...)
    per chunk of k rows (sums shifted by the first chunk's mean against cancellation)."""
    count, shift, s, ss = 0, None, 0.0, 0.0
    while count < n:
        v = np.asarray(values(min(CHUNK, n - count), rng), dtype=float)
        shift = v.mean(axis=0) if shift is None else shift
        s, ss, count = s + (v - shift).sum(axis=0), ss + ((v - shift) ** 2).sum(axis=0), \
            count + len(v)
    var = np.maximum(ss - s**2 / count, 0.0) / (count - 1)
    return shift + s / count, np.sqrt(var / count)


def feature_grids(d: FormulaDGP, rng: np.random.Generator) -> dict[str, Grid]:
    """The grid of every feature: from N_MC draws of its marginal, or at the quantiles of its
    law that the DGP's ``truth_grid`` names (see the module doc)."""
    X = d.sample_features(N_MC, rng)
    out = {}
    for j, name in enumerate(d.feature_names):
        x = X[:, j]
        levels = np.unique(x)
        discrete = bool(np.all(levels == np.round(levels)))
        if discrete and len(levels) <= MAX_LEVELS:
            grid = levels
        elif discrete:
            grid = np.unique(np.quantile(x, GRID_QUANTILES, method="inverted_cdf"))
        elif d.truth_grid is not None:
            spec = d.truth_grid
            grid = law_quantiles(spec, spec["size"], functools.partial(d.marginal_quantiles, j),
                                 "truth_grid")
            grid = grid[inner(len(grid), spec["trim"], "truth_grid.trim")]
        else:
            grid = np.quantile(x, GRID_QUANTILES)
        sd = float(x.std())
        out[name] = Grid(grid, discrete, STEP * (sd if sd > 0 else 1.0))
    return out


def _pointwise(d: FormulaDGP, X: np.ndarray, j: int, grid: Grid) -> np.ndarray:
    """Per row: m(X) and, for a numeric feature, the central difference dm/dx_j; shape
    (rows, 1 or 2)."""
    if grid.discrete:
        return d.f(X)[:, None]
    up, down = X.copy(), X.copy()
    up[:, j] += grid.step
    down[:, j] -= grid.step
    return np.column_stack([d.f(X), (d.f(up) - d.f(down)) / (2 * grid.step)])


def _nodes(grid: Grid) -> np.ndarray:
    """The grid points, then (numeric features) the midpoints between them."""
    return grid.x if grid.discrete else np.concatenate([grid.x, (grid.x[1:] + grid.x[:-1]) / 2])


def _given_exactly(d: FormulaDGP, j: int, grid: Grid, rng: np.random.Generator) -> Estimate:
    """m and dm/dx_j averaged over the law of X_-j given x_j = z at every node, each node from
    its own N_MC rows (so the nodes' estimates are independent); shapes (nodes, 1 or 2)."""
    others = [k for k in range(len(d.feature_names)) if k != j]
    independent = d.independent_of(j)

    def at(z: float) -> Values:
        def values(k: int, r: np.random.Generator) -> np.ndarray:
            X = d.sample_features(k, r)
            X[:, j] = z
            if not independent and others:
                X[:, others] = d.sample_conditional(X, others, r)
            return _pointwise(d, X, j, grid)
        return values

    est = [monte_carlo(at(z), rng) for z in _nodes(grid)]
    return np.array([e[0] for e in est]), np.array([e[1] for e in est])


def _intercept(offset: np.ndarray, v: np.ndarray) -> Estimate:
    """The intercept (value at offset 0) of the least-squares line of v on ``offset``, and its
    standard error (residual variance times the (0, 0) entry of (A'A)^-1)."""
    A = np.column_stack([np.ones(len(offset)), offset])
    coef, *_ = np.linalg.lstsq(A, v, rcond=None)
    s2 = ((v - A @ coef) ** 2).sum(axis=0) / (len(v) - 2)
    return coef[0], np.sqrt(s2 * np.linalg.inv(A.T @ A)[0, 0])


def _binned(d: FormulaDGP, X: np.ndarray, j: int, grid: Grid) -> Estimate:
    """m and dm/dx_j given x_j = z at every node from the rows of X near z (see the module
    doc): the rows at z when at least two have x_j == z, else the BIN_HALF_WIDTH share of the
    rows each side of z by rank, with x_j set to z and a local linear fit in x_j - z."""
    order = np.argsort(X[:, j], kind="stable")
    x = X[order, j]
    half = int(BIN_HALF_WIDTH * len(X))
    means, ses = [], []
    for z in _nodes(grid):
        lo, hi = np.searchsorted(x, z, side="left"), np.searchsorted(x, z, side="right")
        atom = hi - lo >= 2
        rows = order[lo:hi] if atom else order[max(lo - half, 0):lo + half]
        Xz = X[rows]
        Xz[:, j] = z
        v = _pointwise(d, Xz, j, grid)
        mean, se = (v.mean(axis=0), v.std(axis=0, ddof=1) / np.sqrt(len(v))) if atom else \
            _intercept(X[rows, j] - z, v)
        means.append(mean)
        ses.append(se)
    return np.array(means), np.array(ses)


def simpson_weights(x: np.ndarray) -> np.ndarray:
    """W such that W @ g, with g at the points x then at their midpoints, is the cumulative
    composite Simpson integral of g from x[0] to each point of x; shape (len(x), 2 len(x) - 1)."""
    n = len(x)
    W = np.zeros((n, 2 * n - 1))
    for k in range(1, n):
        h = x[k] - x[k - 1]
        W[k:, k - 1] += h / 6
        W[k:, k] += h / 6
        W[k:, n + k - 1] += 4 * h / 6
    return W


def _frame(estimand: str, feature: str, x: np.ndarray, value: np.ndarray,
           se: np.ndarray | float) -> pd.DataFrame:
    return truth_frame(estimand, feature, value, x=x, se=se)


@dataclass(frozen=True)
class LinearGaussian:
    """f = intercept + b'x on features ~ N(mu, S) (identity link); ``definite``: S is positive
    definite, so the conditional laws are known in closed form."""

    intercept: float
    b: np.ndarray
    mu: np.ndarray
    S: np.ndarray
    definite: bool


def linear_gaussian(d: FormulaDGP) -> LinearGaussian | None:
    """The linear-Gaussian closed-form data of ``d``, or None when f or the law is not so."""
    lin, gauss = d.linear(), d.gaussian()
    if lin is None or gauss is None:
        return None
    intercept, coefs = lin
    mu, S = (np.asarray(a, dtype=float) for a in gauss)
    try:
        np.linalg.cholesky(S)
        definite = True
    except np.linalg.LinAlgError:
        definite = False
    b = np.array([coefs.get(name, 0.0) for name in d.feature_names], dtype=float)
    return LinearGaussian(float(intercept), b, mu, S, definite)


def _pd_frames(d: FormulaDGP, grids: dict[str, Grid], lg: LinearGaussian | None,
               fixed_rng: FixedRng) -> list[pd.DataFrame]:
    """PD of every feature: closed form under ``lg``, else Monte Carlo on rows shared by the
    grid points of a feature."""
    frames = []
    for j, name in enumerate(d.feature_names):
        z = grids[name].x
        if lg is not None:
            frames.append(_frame("pd", name, z, lg.intercept + lg.b @ lg.mu
                                 + lg.b[j] * (z - lg.mu[j]), 0.0))
            continue

        def values(k: int, r: np.random.Generator, j: int = j, z: np.ndarray = z) -> np.ndarray:
            X = d.sample_features(k, r)
            out = []
            for zi in z:
                X[:, j] = zi
                out.append(d.f(X))
            return np.column_stack(out)

        frames.append(_frame("pd", name, z, *monte_carlo(values, fixed_rng(f"formula:pd:{name}"))))
    return frames


def _conditional_frames(d: FormulaDGP, grids: dict[str, Grid], lg: LinearGaussian | None,
                        lin: tuple[float, dict[str, float]] | None,
                        fixed_rng: FixedRng) -> list[pd.DataFrame]:
    """E[m | x_j = z] and the ALE of every feature: closed forms under ``lg`` (and the ALE
    under ``lin``), else Monte Carlo over the conditional law or binning."""
    frames, binned = [], None
    for j, name in enumerate(d.feature_names):
        g = grids[name]
        slope = None if g.discrete or lin is None else lin[1].get(name, 0.0)
        if lg is not None and lg.definite:
            frames.append(_frame("conditional", name, g.x, lg.intercept + lg.b @ lg.mu
                                 + lg.b @ lg.S[:, j] / lg.S[j, j] * (g.x - lg.mu[j]), 0.0))
        else:
            if d.has_conditional or d.independent_of(j):
                value, se = _given_exactly(d, j, g, fixed_rng(f"formula:conditional:{name}"))
            else:
                if binned is None:
                    rng = fixed_rng("formula:binned")
                    binned = np.concatenate([d.sample_features(CHUNK, rng)
                                             for _ in range(N_BINNED // CHUNK)])
                value, se = _binned(d, binned, j, g)
            frames.append(_frame("conditional", name, g.x, value[:len(g.x), 0],
                                 se[:len(g.x), 0]))
            if slope is None and not g.discrete:
                W = simpson_weights(g.x)
                frames.append(_frame("ale", name, g.x, W @ value[:, 1],
                                     np.sqrt(W**2 @ se[:, 1] ** 2)))
        if slope is not None:
            frames.append(_frame("ale", name, g.x, slope * (g.x - g.x[0]), 0.0))
    return frames


def _interventional_frames(d: FormulaDGP, grids: dict[str, Grid],
                           fixed_rng: FixedRng) -> list[pd.DataFrame]:
    """E[m(X) | do(x_j = z)] of every feature, by Monte Carlo over ``sample_intervened``."""
    frames = []
    for j, name in enumerate(d.feature_names):
        def do(z: float, j: int = j) -> Values:
            return lambda k, r: d.f(d.sample_intervened(k, r, j, z))

        rng = fixed_rng(f"formula:interventional:{name}")
        est = [monte_carlo(do(z), rng) for z in grids[name].x]
        frames.append(_frame("interventional", name, grids[name].x,
                             np.array([e[0] for e in est]), np.array([e[1] for e in est])))
    return frames


def effects_table(d: FormulaDGP, fixed_rng: FixedRng, *, closed: bool = True) -> pd.DataFrame:
    """The ``effects`` table (see the module doc); ``closed=False``: Monte Carlo only."""
    grids = feature_grids(d, fixed_rng("formula:grid"))
    lg = linear_gaussian(d) if closed else None
    frames = _pd_frames(d, grids, lg, fixed_rng)
    frames += _conditional_frames(d, grids, lg, d.linear() if closed else None, fixed_rng)
    if not d.has_conditional:
        frames += _interventional_frames(d, grids, fixed_rng)
    return pd.concat(frames, ignore_index=True)


def _importance_frames(features: list[str], kind: str, value: np.ndarray,
                       se: np.ndarray | float, noise_sd: float) -> list[pd.DataFrame]:
    """The PFI ``pfi_<kind>`` of every feature and, when noise_sd > 0, its ratio (noise_sd 0:
    no ratio)."""
    se = np.broadcast_to(se, value.shape)
    out = [truth_frame(f"pfi_{kind}", features, value, se=se)]
    if noise_sd > 0:
        out.append(truth_frame(f"pfi_{kind}_ratio", features, (noise_sd**2 + value) / noise_sd**2,
                               se=se / noise_sd**2))
    return out


def _law_key(m: Marginal) -> tuple:
    """What fixes a marginal law: its name and parameters (a categorical's probabilities of the
    codes 0..k-1 that m reads; its level names are labels)."""
    if m.law == "categorical":
        return m.law, tuple(float(p) for p in m.dist.pk)
    return m.law, tuple(float(a) for a in m.dist.args), tuple(sorted(m.dist.kwds.items()))


def _swappable(d: FormulaDGP, a: int, b: int, R: np.ndarray) -> bool:
    """Whether swapping features a and b leaves the joint law unchanged (see the module doc),
    given R, the copula correlation of all features (0 outside the copula block)."""
    names = d.feature_names
    conditions = [*d.equations.values(), *([d.exclude] if d.exclude is not None else [])]
    read = {n for expr in conditions for n in expr.names}
    if any(names[k] not in d.marginals or names[k] in read for k in (a, b)):
        return False
    others = [k for k in range(len(names)) if k not in (a, b)]
    return _law_key(d.marginals[names[a]]) == _law_key(d.marginals[names[b]]) and \
        np.array_equal(R[a, others], R[b, others])


def exchangeable_classes(d: FormulaDGP, rng: np.random.Generator) -> list[list[int]]:
    """The classes of two or more features (column indices, in order) that swaps of two
    features leaving the joint law and m unchanged map onto each other (see the module doc):
    their PFIs are equal. m is compared on N_SYMMETRY rows drawn with ``rng``."""
    p = len(d.feature_names)
    R = np.eye(p)
    block = [d.feature_names.index(n) for n in d.block]
    if block:
        R[np.ix_(block, block)] = d.correlation
    X = d.sample_features(N_SYMMETRY, rng)
    m = d.f(X)
    atol = SYMMETRY_RTOL * float(np.abs(m).max())
    label = list(range(p))
    for a in range(p):
        for b in range(a + 1, p):
            if label[a] == label[b] or not _swappable(d, a, b, R):
                continue
            swapped = X.copy()
            swapped[:, [a, b]] = X[:, [b, a]]
            if np.allclose(d.f(swapped), m, rtol=SYMMETRY_RTOL, atol=atol):
                old, new = label[b], label[a]
                label = [new if lab == old else lab for lab in label]
    classes = [[j for j in range(p) if label[j] == c] for c in dict.fromkeys(label)]
    return [c for c in classes if len(c) > 1]


def _pooled(terms: np.ndarray, classes: list[list[int]], kinds: int) -> np.ndarray:
    """``terms`` (rows, features x kinds: feature j's kind i in column j kinds + i) with the
    columns of every exchangeable class replaced, per row and kind, by their mean."""
    for c in classes:
        for i in range(kinds):
            cols = [j * kinds + i for j in c]
            terms[:, cols] = terms[:, cols].mean(axis=1, keepdims=True)
    return terms


def importance_table(d: FormulaDGP, fixed_rng: FixedRng, *, closed: bool = True
                     ) -> pd.DataFrame:
    """The ``importance`` table (see the module doc); ``closed=False``: Monte Carlo only."""
    names = d.feature_names
    targets = [j for j, name in enumerate(names) if name not in d.hidden]
    hidden = [j for j, name in enumerate(names) if name in d.hidden]
    noise_sd = 0.0 if hidden else float(d.noise_sd)
    lg = linear_gaussian(d) if closed else None
    exact: dict[str, np.ndarray] = {}
    if lg is not None:
        exact["marginal"] = (2 * lg.b**2 * np.diag(lg.S))[targets]
        if lg.definite and not hidden:
            exact["conditional"] = 2 * lg.b**2 * conditional_variances(lg.S)
    kinds = [k for k in ("marginal", "conditional")
             if k not in exact and (k == "marginal" or d.has_conditional)]
    classes = [[targets.index(j) for j in c if j in targets]
               for c in exchangeable_classes(d, fixed_rng("formula:exchangeable"))] \
        if kinds else []

    def values(k: int, r: np.random.Generator) -> np.ndarray:
        X, fresh = d.sample_features(k, r), d.sample_features(k, r)
        base = d.f(X)
        if hidden:  # X with a second, independent draw of the hidden features
            X2 = X.copy()
            X2[:, hidden] = d.sample_features(k, r)[:, hidden]
            base2 = d.f(X2)
        out = []
        for j in targets:
            for kind in kinds:
                Xt = X.copy()
                Xt[:, j] = fresh[:, j] if kind == "marginal" else \
                    d.sample_conditional(X, [j], r)[:, 0]
                if hidden:
                    X2t = X2.copy()
                    X2t[:, j] = Xt[:, j]
                    out.append((base - d.f(Xt)) * (base2 - d.f(X2t)))
                else:
                    out.append((base - d.f(Xt)) ** 2)
        return _pooled(np.column_stack(out), [c for c in classes if len(c) > 1], len(kinds))

    estimates = {kind: (value, 0.0) for kind, value in exact.items()}
    if kinds:
        value, se = monte_carlo(values, fixed_rng("formula:importance"))
        estimates |= {kind: (value[i::len(kinds)], se[i::len(kinds)])
                      for i, kind in enumerate(kinds)}
    features = [names[j] for j in targets]
    frames = [f for kind in ("marginal", "conditional") if kind in estimates
              for f in _importance_frames(features, kind, *estimates[kind], noise_sd)]
    return pd.concat(frames, ignore_index=True)


@truth("formula", ("effects", "importance"))
def formula_truths(d: FormulaDGP, fixed_rng: FixedRng) -> dict[str, pd.DataFrame]:
    """The ``effects`` and ``importance`` tables of a formula DGP (see the module doc)."""
    return {"effects": effects_table(d, fixed_rng), "importance": importance_table(d, fixed_rng)}
