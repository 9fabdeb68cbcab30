"""Additive MARS (degree 1), as R's ``earth(x, y)`` with its defaults.

Friedman (1991), *Multivariate adaptive regression splines*, Annals of Statistics 19(1):1-67;
Milborrow's ``earth`` package (its ``earth.c``: the forward and backward passes below follow
it). The fitted function is ``b0 + sum_m b_m h_m(x)``, each basis function ``h_m`` a hinge
``max(0, x_j - t)`` or ``max(0, t - x_j)`` at a data value ``t`` of one feature, or ``x_j``
itself (earth's linear term, a knot at the feature's minimum).

Forward pass: starting from the intercept, each step adds the candidate that lowers the
residual sum of squares (RSS) most: the pair of hinges at a knot ``t`` of feature ``j`` (it
spans ``x_j`` and ``max(0, x_j - t)`` with the basis: one new column when ``x_j`` is already
spanned, two otherwise), or ``x_j`` alone. Knots are earth's: the sorted values of the
feature, ``endspan`` (Friedman's eq. 45) left out at either end and one every ``minspan``
(eq. 43, alpha 0.05) in between, placed as earth 5 places them (:func:`knot_rows`). The
RSS of every knot of a feature comes from suffix sums over its sorted values (one vectorised
pass per feature and step). The pass stops, as earth's, after ``(nk - 1) / 2`` steps, when
R^2 reaches ``1 - thresh``, when a step raises R^2 by less than ``thresh``, or when the GCV
R^2 falls below -10.

Backward pass: the non-intercept term whose removal raises the RSS least is removed, one at a
time; the subset kept is the one of lowest ``GCV = RSS / (n (1 - C(M) / n)^2)``, ``C(M) = M +
penalty (M - 1) / 2`` for ``M`` terms with the intercept (``penalty`` 2, earth's for degree 1).

Simplifications against earth: a linear term counts as spanned when its part orthogonal to
the basis keeps less than 1% of its centred sum of squares (earth: an absolute threshold on
its scaled copy; hinges as earth), tied feature values are not skipped when counting the
rows between knots (earth skips rows whose hinge is still constant), no ``newvar.penalty``,
``fast.k`` or weights, and an RSS below ``1e-12`` of the null RSS counts as zero (so that on
exact data the smaller of two perfect subsets is kept). On continuous features the terms
and predictions equal earth's (``tests/test_r_parity.py``).
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin

#: a candidate column is spanned by the basis below this share of its centred sum of squares
SPAN_TOL = 0.01
#: earth's share for a hinge that would be the 15th column or later (smaller: later knots
#: may lie closer to earlier ones)
LATE_SPAN_TOL = 1e-5
#: earth stops the forward pass when the GCV R^2 falls below this
MIN_GRSQ = -10.0
#: an RSS under this share of the null RSS is rounding: counted as zero
ZERO_RSS = 1e-12


def default_nk(n_features: int) -> int:
    """earth's default maximum number of terms, intercept included."""
    return min(200, max(20, 2 * n_features)) + 1


def min_span(n_features: int, n_used: int) -> int:
    """Friedman's (1991) eq. 43 with alpha 0.05, as earth computes it: the number of sorted
    rows between two candidate knots."""
    return int((2.9702 + np.log(n_features * n_used)) / 1.7329)


def end_span(n_features: int) -> int:
    """Friedman's (1991) eq. 45 with alpha 0.05, as earth computes it: the sorted rows at
    either end of a feature where no knot is placed."""
    return int(7.32193 + np.log(n_features) / 0.69315)


def gcv(rss: np.ndarray | float, n_terms: np.ndarray | int, n: int, penalty: float
        ) -> np.ndarray:
    """Friedman's generalised cross-validation ``RSS / (n (1 - C / n)^2)``, ``C = M +
    penalty (M - 1) / 2`` for ``M`` terms with the intercept; infinite once ``C >= n``."""
    cost = (np.asarray(n_terms) + penalty * (np.asarray(n_terms) - 1) / 2) / n
    with np.errstate(divide="ignore"):
        return np.where(cost >= 1, np.inf, np.asarray(rss) / (n * (1 - cost) ** 2))


def knot_rows(n: int, minspan: int, endspan: int) -> np.ndarray:
    """The positions in the sorted rows where earth's forward pass tries a knot (the knot is
    the value at that position; its upper hinge is positive on the rows after it): every
    ``minspan`` rows from the top down to ``endspan``, the first set so that the rows left
    over are shared by both ends (earth's ``GetSpanParams``)."""
    avail = max(0, n - 2 * endspan)
    start = avail // 2
    if avail > minspan:
        start = (avail % minspan) // 2 if avail % minspan else minspan // 2
    start = max(1, endspan + start)
    return np.arange(n - 1 - start, endspan - 1, -minspan)


class _Basis:
    """The span of the forward pass's basis (orthonormal columns) and the residual of y."""

    def __init__(self, y: np.ndarray):
        n = len(y)
        self.q = np.ones((n, 1)) / np.sqrt(n)
        self.resid = y - y.mean()

    def add(self, column: np.ndarray) -> None:
        v = column - self.q @ (self.q.T @ column)
        v -= self.q @ (self.q.T @ v)  # a second Gram-Schmidt sweep for rounding
        v /= np.linalg.norm(v)
        self.q = np.column_stack([self.q, v])
        self.resid = self.resid - v * (v @ self.resid)


def _best_knot(z: np.ndarray, basis: _Basis, rows: np.ndarray, max_delta: float, slot: int
               ) -> tuple[float, int, bool]:
    """The largest RSS decrease over the candidates of one standardised feature ``z``: its
    linear term (knot position -1) and the hinge pairs at the sorted positions ``rows``;
    ``slot``: earth's index of the new term (1, 3, 5, ...: two per forward step).
    Returns (decrease, position, new form): new form when ``z`` itself is not yet spanned,
    so that a pair adds two columns. Ties go to the linear term, then the highest knot."""
    order = np.argsort(z, kind="stable")
    zs, q, r = z[order], basis.q[order], basis.resid[order]
    n = len(z)

    def suffix(v: np.ndarray) -> np.ndarray:
        """sum over the sorted rows after each candidate position of ``v``"""
        total = np.cumsum(v[::-1], axis=0)[::-1]
        return np.concatenate([total[1:], np.zeros((1, *v.shape[1:]))])[rows]

    t = zs[rows]
    count = (n - 1 - rows).astype(float)
    s_z, s_zz = suffix(zs), suffix(zs * zs)
    qh = suffix(zs[:, None] * q) - t[:, None] * suffix(q)  # Q'h, one row per knot
    h_sum = s_z - t * count
    hh = s_zz - 2 * t * s_z + t * t * count
    h_centred = hh - h_sum ** 2 / n
    h_orth = hh - np.sum(qh ** 2, axis=1)
    rh = suffix(zs * r) - t * suffix(r)

    qz = q.T @ zs
    z_orth = zs @ zs - qz @ qz
    new_form = z_orth > SPAN_TOL * np.sum((zs - zs.mean()) ** 2)
    if new_form:
        rz = r @ zs
        lin = rz ** 2 / z_orth
        zh = s_zz - t * s_z - qh @ qz
        h_orth = h_orth - zh ** 2 / z_orth
        rh = rh - rz * zh / z_orth
    else:
        lin = 0.0
    tol = SPAN_TOL if slot + new_form < 15 else LATE_SPAN_TOL  # earth's FindKnot
    with np.errstate(divide="ignore", invalid="ignore"):
        delta = lin + np.where(h_orth > tol * h_centred, rh ** 2 / h_orth, -np.inf)
    delta[delta >= max_delta] = -np.inf
    best_lin = lin if new_form and lin < max_delta else -np.inf
    if len(delta) and delta.max() > best_lin:
        i = int(np.flatnonzero(delta == delta.max())[0])  # rows run from the top down
        return float(delta[i]), int(rows[i]), new_form
    return float(best_lin), -1, new_form


class Mars(RegressorMixin, BaseEstimator):
    """Additive MARS (degree 1) with R ``earth``'s defaults (module docstring).

    ``nk``: the maximum number of terms of the forward pass, intercept included (None:
    earth's ``min(200, max(20, 2 p)) + 1``); ``thresh``: the forward pass's R^2 threshold;
    ``penalty``: the GCV cost per knot; ``minspan``, ``endspan``: 0 for earth's automatic
    values (:func:`min_span`, :func:`end_span`), else the fixed number of rows.

    Fitted: ``terms_``, one ``(feature, knot, direction)`` per non-intercept term (direction
    1: ``max(0, x - knot)``, -1: ``max(0, knot - x)``, 0: ``x`` itself), ``intercept_``,
    ``coef_`` (one per term) and ``knots_``, the sorted ``(feature, knot)`` of the hinges."""

    def __init__(self, nk: int | None = None, thresh: float = 0.001, penalty: float = 2.0,
                 minspan: int = 0, endspan: int = 0):
        self.nk = nk
        self.thresh = thresh
        self.penalty = penalty
        self.minspan = minspan
        self.endspan = endspan

    def fit(self, X, y) -> Mars:
        X = np.asarray(X, dtype=float)
        y = np.asarray(y, dtype=float).ravel()
        for key in ("minspan", "endspan"):
            if getattr(self, key) < 0:
                raise ValueError(f"mars: {key} must be 0 (automatic) or a positive number "
                                 f"of rows, got {getattr(self, key)}")
        n, p = X.shape
        self.n_features_in_ = p
        terms = self._forward(X, y)
        self.terms_, coef = self._backward(X, y, terms)
        self.intercept_, self.coef_ = float(coef[0]), coef[1:]
        self.knots_ = sorted({(j, t) for j, t, d in self.terms_ if d != 0})
        return self

    def _forward(self, X: np.ndarray, y: np.ndarray) -> list[tuple[int, float, int]]:
        n, p = X.shape
        nk = default_nk(p) if self.nk is None else self.nk
        minspan = self.minspan or min_span(p, n)
        endspan = self.endspan or end_span(p)
        rows = knot_rows(n, minspan, endspan)
        z = (X - X.mean(axis=0)) / np.where(X.std(axis=0) > 0, X.std(axis=0), 1.0)
        basis = _Basis(y)
        rss_null = rss = float(basis.resid @ basis.resid)
        gcv_null = gcv(rss_null, 1, n, self.penalty)
        terms: list[tuple[int, float, int]] = []
        delta_prev = rss_null
        r2 = 0.0
        for slot in range(1, nk - 1, 2):
            if rss <= 0 or r2 >= 1 - self.thresh:
                break
            max_delta = min(1.01 * rss, 2 * delta_prev)
            found = [_best_knot(z[:, j], basis, rows, max_delta, slot) for j in range(p)]
            j = int(np.argmax([d for d, _, _ in found]))
            delta, row, new_form = found[j]
            if not np.isfinite(delta):
                break
            if row < 0:
                added = [(j, float(X[:, j].min()), 0)]
            else:
                knot = float(np.sort(X[:, j])[row])
                added = [(j, knot, 1), (j, knot, -1)] if new_form else [(j, knot, 1)]
            new_rss = max(rss - delta, 0.0)
            new_r2 = 1 - new_rss / rss_null
            grsq = 1 - gcv(new_rss, 1 + len(terms) + len(added), n, self.penalty) / gcv_null
            if new_r2 - r2 < self.thresh or grsq < MIN_GRSQ:
                break
            for term in added:
                basis.add(_column(X, term))
                terms.append(term)
            rss, r2, delta_prev = float(basis.resid @ basis.resid), new_r2, delta
        return terms

    def _backward(self, X: np.ndarray, y: np.ndarray, terms: list[tuple[int, float, int]]
                  ) -> tuple[list[tuple[int, float, int]], np.ndarray]:
        n = len(y)
        B = np.column_stack([np.ones(n)] + [_column(X, t) for t in terms])
        rss_null = float(np.sum((y - y.mean()) ** 2))

        def rss_of(keep: list[int]) -> float:
            coef = np.linalg.lstsq(B[:, keep], y, rcond=None)[0]
            rss = float(np.sum((y - B[:, keep] @ coef) ** 2))
            return 0.0 if rss < ZERO_RSS * rss_null else rss

        keep = list(range(B.shape[1]))
        subsets, rsses = [list(keep)], [rss_of(keep)]
        while len(keep) > 1:
            trials = [[k for k in keep if k != drop] for drop in keep[1:]]
            scores = [rss_of(s) for s in trials]
            keep = trials[int(np.argmin(scores))]
            subsets.append(keep)
            rsses.append(min(scores))
        scores = gcv(np.array(rsses), np.array([len(s) for s in subsets]), n, self.penalty)
        # subsets run from the largest down: of equal GCVs, the smallest subset is kept
        best = subsets[len(subsets) - 1 - int(np.argmin(scores[::-1]))]
        coef = np.linalg.lstsq(B[:, best], y, rcond=None)[0]
        return [terms[k - 1] for k in best[1:]], coef

    def predict(self, X) -> np.ndarray:
        X = np.asarray(X, dtype=float)
        out = np.full(len(X), self.intercept_)
        for term, b in zip(self.terms_, self.coef_, strict=True):
            out += b * _column(X, term)
        return out


def _column(X: np.ndarray, term: tuple[int, float, int]) -> np.ndarray:
    """The basis function ``term = (feature, knot, direction)`` on the rows of ``X``."""
    j, t, d = term
    return X[:, j] if d == 0 else np.maximum(0.0, d * (X[:, j] - t))


def mars(params: dict, random_state: int, threads: int) -> Mars:
    """Additive MARS as R's ``earth(x, y)`` (:class:`Mars`; deterministic: no seed)."""
    return Mars(**params)
