"""Additive MARS (degree 1), as R's ``earth(x, y)`` with its defaults.

Friedman (1991), *Multivariate adaptive regression splines*, Annals of Statistics 19(1):1-67;
Milborrow's ``earth`` package 5.3 (its ``earth.c`` and ``earth.prune.R``: the passes below
follow them step by step). The fitted function is ``b0 + sum_m b_m h_m(x)``, each basis
function ``h_m`` a hinge ``max(0, x_j - t)`` or ``max(0, t - x_j)`` at a data value ``t`` of
one feature, or ``x_j`` itself (earth's linear term, ``dirs`` 2).

Forward pass (earth's ``ForwardPass``, on ``y`` scaled to mean 0 and SD 1 as earth's
``Scale.y``): the basis is kept as orthonormal columns (modified Gram-Schmidt). Each step
tries, feature by feature, first ``x_j`` alone and then the hinge pairs at the knots of
``x_j``, and adds the candidate that lowers the residual sum of squares (RSS) most (the first
of equal ones). ``x_j`` alone is a candidate, and a pair adds both hinges, only when ``x_j``
is a "new form" (earth's ``GetNewFormFlag``: not every term in the basis is on ``x_j``) and
its part orthogonal to the basis keeps a sum of squares above ``MIN_BX_SOS`` (0.01, in x's own
units); else a knot adds its upper hinge alone. Knots are tried from the top of the sorted
values down, ``endspan`` (Friedman's eq. 45) rows left out at either end and one every
``minspan`` (eq. 43, alpha 0.05) in between, counting only the rows whose upper hinge is not
constant (so tied top values are skipped); a knot counts only when its hinge keeps more than
``SPAN_TOL`` of its centred sum of squares once orthogonalised (``LATE_SPAN_TOL`` from the
15th column on), and its RSS decrease must stay under ``min(1.01 RSS, 10 x`` the previous
step's decrease). A hinge that is zero on every row enters as a zero column. The pass stops,
as earth's, when no candidate lowers the RSS, when a step raises R^2 by less than
``thresh``, when the GCV R^2 falls below -10, when R^2 reaches ``1 - thresh``, after ``nk``
terms, or when earth's fast-MARS queue (``fast.k`` 20, ``fast.beta`` 1) no longer offers the
intercept as a parent (:func:`_fast_queue_offers_intercept`): with degree 1 that ends a pass
of hinge pairs after 10 pairs (21 terms); steps of one term let it run longer.

Backward pass (earth's ``RegressAndFix`` and ``pruning.pass``): the columns that ``dqrdc2``
(tolerance ``1e-8``) finds linearly dependent on earlier ones are dropped (a hinge that is
zero on every row among them); then, as the ``leaps`` package's backward elimination that
earth calls (:func:`_leaps_backward`), the best subset of each size is recorded (they need
not nest), and the one kept is the smallest of lowest ``GCV = RSS / (n (1 - C(M) / n)^2)``,
``C(M) = M + penalty (M - 1) / 2`` for ``M`` terms with the intercept (``penalty`` 2,
earth's for degree 1); the coefficients are its least-squares fit on ``y``.

Simplifications against earth: degree 1 only, and no ``newvar.penalty``, ``linpreds``,
``allowed`` or weights; the RSS of the subsets comes from Householder QR where ``leaps``
updates its QR by Givens rotations (the same numbers, rounding apart); and an RSS below
``1e-12`` of the null RSS counts as zero (so that on exact data the smaller of two perfect
subsets is kept; earth's choice there depends on rounding). Terms and predictions equal
earth's on the designs of ``tests/test_r_parity.py`` (the book's ch. 13 truths) and
``tests/test_r_parity_mars.py`` (0/1 and integer-coded features, 25 and 30 features, pure
noise, 60 and 80 rows).
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin

#: earth's MIN_BX_SOS: a candidate linear term whose part orthogonal to the basis has a sum of
#: squares up to this (in the feature's units) is spanned, so not a new form
MIN_BX_SOS = 0.01
#: earth's FindKnot: a hinge counts when its orthogonalised part keeps more than this share of
#: its centred sum of squares
SPAN_TOL = 0.01
#: earth's share for a hinge that would be the 15th column or later
LATE_SPAN_TOL = 1e-5
#: earth stops the forward pass when the GCV R^2 falls below this
MIN_GRSQ = -10.0
#: earth's ALMOST_ZERO: its running RSS and R^2 steps closer to 0 than this are 0
ALMOST_ZERO = 1e-10
#: earth's QR_TOL for dqrdc2: a column whose part orthogonal to the earlier ones has a norm
#: under this share of its own is linearly dependent
QR_TOL = 1e-8
#: earth's default ``fast.k``: the parents a forward step considers (``fast.beta`` is 1)
FAST_K = 20
#: an RSS under this share of the null RSS is rounding: counted as zero
ZERO_RSS = 1e-12


def default_nk(n_features: int) -> int:
    """earth's default maximum number of terms, intercept included."""
    return min(200, max(20, 2 * n_features)) + 1


def min_span(n_features: int, n_used: int) -> int:
    """Friedman's (1991) eq. 43 with alpha 0.05, as earth computes it: the number of sorted
    rows between two candidate knots."""
    return max(1, int((2.9702 + np.log(n_features * n_used)) / 1.7329))


def end_span(n_features: int) -> int:
    """Friedman's (1991) eq. 45 with alpha 0.05, as earth computes it: the sorted rows at
    either end of a feature where no knot is placed (the forward pass caps it at ``n / 2 - 1``,
    as earth's ``GetEndSpan``)."""
    return int(7.32193 + np.log(n_features) / 0.69315)


def gcv(rss: np.ndarray | float, n_terms: np.ndarray | int, n: int, penalty: float
        ) -> np.ndarray:
    """Friedman's generalised cross-validation ``RSS / (n (1 - C / n)^2)``, ``C = M +
    penalty (M - 1) / 2`` for ``M`` terms with the intercept; infinite once ``C >= n``."""
    cost = (np.asarray(n_terms) + penalty * (np.asarray(n_terms) - 1) / 2) / n
    with np.errstate(divide="ignore"):
        return np.where(cost >= 1, np.inf, np.asarray(rss) / (n * (1 - cost) ** 2))


def start_span(n: int, minspan: int, endspan: int) -> int:
    """earth's ``nStartSpan``: the counted rows from the top down to the first knot, set so
    that the rows left over are shared by both ends (``GetSpanParams``)."""
    avail = max(0, n - 2 * endspan)
    start = avail // 2
    if avail > minspan:
        start = (avail % minspan) // 2 if avail % minspan else minspan // 2
    return max(1, endspan + start)


def knot_rows(n: int, minspan: int, endspan: int, counted: np.ndarray | None = None
              ) -> np.ndarray:
    """The positions in the sorted rows where earth's forward pass tries a knot (the knot is
    the value at that position; its upper hinge is positive on the rows after it), from the
    top down: ``counted`` (one flag per position ``n - 2, n - 3, ..., endspan``; None: all)
    marks the rows earth counts (those whose upper hinge is not constant); the first knot is
    the :func:`start_span`-th counted row, then every ``minspan``-th."""
    positions = np.arange(n - 2, endspan - 1, -1)
    if counted is None:
        counted = np.ones(len(positions), dtype=bool)
    count = np.cumsum(counted) - start_span(n, minspan, endspan)
    return positions[counted & (count >= 0) & (count % minspan == 0)]


def _fast_queue_offers_intercept(added_at: list[int], n_terms: int) -> bool:
    """Whether earth's fast-MARS queue (``fast.k`` :data:`FAST_K`, ``fast.beta`` 1) offers
    the intercept, the only parent of degree 1, among its first ``fast.k`` parents to the
    step that fills column ``n_terms``. The queue was sorted at the end of the previous step
    (``nTerms`` ``n_terms - 2``): the other terms are never searched, so they keep an
    infinite RSS decrease and rank ahead of the intercept in order of entry; each ages by
    the terms added since it entered (``added_at``: the ``nTerms`` of its step), the
    intercept (searched in that step) not at all; the queue is sorted on rank plus age,
    ties to the larger decrease."""
    aged = np.arange(len(added_at)) + (n_terms - 2 - np.asarray(added_at, dtype=int))
    return int(np.sum(aged <= len(added_at))) < FAST_K


class _Basis:
    """The forward pass's basis as earth keeps it: orthonormal columns ``q`` (column 0 the
    intercept, a column of zeros for a term that is not used or spans nothing new), their
    means, the term of each column and which columns are used (earth's ``FullSet``)."""

    def __init__(self, n: int, nk: int):
        self.q = np.zeros((n, nk + 1))  # one spare column for the candidate linear term
        self.terms: list[tuple[int, float, int] | None] = [None] * (nk + 1)
        self.q[:, 0] = 1 / np.sqrt(n)
        self.mean = np.zeros(nk + 1)
        self.mean[0] = 1 / np.sqrt(n)
        self.used = np.zeros(nk + 1, dtype=bool)
        self.used[0] = True

    def residual(self, column: np.ndarray, slot: int) -> np.ndarray:
        """``column`` orthogonalised against the used columns before ``slot`` (modified
        Gram-Schmidt; the first term is only centred, as earth's ``InitBxOrthCol``)."""
        if slot == 1:
            return column - column.mean()
        out = column.copy()
        for k in np.flatnonzero(self.used[:slot]):
            out -= (self.q[:, k] @ out) * self.q[:, k]
        return out

    def set(self, slot: int, resid: np.ndarray, min_ss: float) -> bool:
        """Store ``resid`` normalised in ``slot`` if its sum of squares exceeds ``min_ss``
        (else zeros); returns whether it did."""
        ss = resid @ resid
        good = bool(ss > min_ss)
        self.mean[slot] = resid.mean() if good else 0.0  # earth's mean of the unscaled column
        self.q[:, slot] = resid / np.sqrt(ss) if good else 0.0
        return good

    def add(self, x: np.ndarray, order: np.ndarray, j: int, row: int, new_form: bool,
            n_terms: int) -> int:
        """earth's ``AddTermPair``: feature ``j``'s (values ``x``, sorted rows ``order``)
        linear term (``row`` 0), or its upper hinge at the sorted position ``row`` and, when
        ``new_form``, the lower one, into the columns ``n_terms`` and ``n_terms + 1``;
        returns the number of columns added."""
        knot = float(x[order[row]])
        added = [(j, knot, 0)] if row == 0 else [(j, knot, 1), (j, knot, -1)][:1 + new_form]
        for slot, term in enumerate(added, start=n_terms):
            self.terms[slot] = term
            self.used[slot] = True
            self.set(slot, self.residual(_function(x, knot, term[2]), slot), 0.0)
        self.used[n_terms + len(added):n_terms + 2] = False
        self.q[:, n_terms + len(added):n_terms + 2] = 0.0
        return len(added)


class Mars(RegressorMixin, BaseEstimator):
    """Additive MARS (degree 1) with R ``earth``'s defaults (module docstring).

    ``nk``: the maximum number of terms of the forward pass, intercept included (None:
    earth's ``min(200, max(20, 2 p)) + 1``); ``thresh``: the forward pass's R^2 threshold;
    ``penalty``: the GCV cost per knot; ``minspan``, ``endspan``: 0 for earth's automatic
    values (:func:`min_span`, :func:`end_span`), else the fixed number of rows.

    Fitted: ``terms_``, one ``(feature, knot, direction)`` per non-intercept term (direction
    1: ``max(0, x - knot)``, -1: ``max(0, knot - x)``, 0: ``x`` itself, its knot the minimum),
    ``intercept_``, ``coef_`` (one per term) and ``knots_``, the sorted ``(feature, knot)`` of
    the hinges."""

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
        self.n_features_in_ = X.shape[1]
        terms = self._forward(X, y)
        self.terms_, coef = self._backward(X, y, terms)
        self.intercept_, self.coef_ = float(coef[0]), coef[1:]
        self.knots_ = sorted({(j, t) for j, t, d in self.terms_ if d != 0})
        return self

    def _forward(self, X: np.ndarray, y: np.ndarray) -> list[tuple[int, float, int]]:
        """earth's forward pass: the used terms, in the order they entered."""
        n, p = X.shape
        nk = default_nk(p) if self.nk is None else self.nk
        minspan = self.minspan or min_span(p, n)
        endspan = max(1, min(self.endspan or end_span(p), n // 2 - 1))
        sd = y.std(ddof=1)
        yc = (y - y.mean()) / (sd if sd > 0 else 1.0)  # earth's Scale.y
        yc = yc - yc.mean()
        order = np.argsort(X, axis=0, kind="stable")
        basis = _Basis(n, nk)
        rss_null = max(float(yc @ yc), 1e-8 * n)  # earth's CheckRssNull
        gcv_null = gcv(rss_null, 1, n, self.penalty)
        rss, delta, r2, n_used = rss_null, rss_null, 0.0, 1
        added_at: list[int] = []  # the fast-MARS queue's entries (module function)
        n_terms = 1
        while nk >= 3:
            max_delta = min(1.01 * rss, 10 * delta)
            best = (0.0, -1, -1, False)  # (decrease, feature, sorted position or 0, new form)
            if _fast_queue_offers_intercept(added_at, n_terms):
                for j in range(p):
                    best = _best_for_feature(X[:, j], order[:, j], j, yc, basis, n_terms,
                                             minspan, endspan, max_delta, best)
            delta, j, row, new_form = best
            if row >= 0:
                added_at += [n_terms] * basis.add(X[:, j], order[:, j], j, row, new_form,
                                                  n_terms)
            n_used += 2 if row > 0 and new_form else 1
            old_r2 = r2
            rss = rss - delta
            rss = 0.0 if abs(rss) < ALMOST_ZERO else rss
            r2 = 1 - rss / rss_null
            r2_step = r2 - old_r2 if abs(r2 - old_r2) >= ALMOST_ZERO else 0.0
            grsq = 1 - gcv(rss, n_used, n, self.penalty) / gcv_null
            if row < 0 or (self.thresh != 0 and (r2_step < self.thresh or grsq < MIN_GRSQ)):
                basis.used[n_terms:] = False
                break
            n_terms += 2
            if r2 >= 1 - self.thresh or n_terms >= nk - 1:
                break
        return [t for t, used in zip(basis.terms[1:], basis.used[1:], strict=True) if used]

    def _backward(self, X: np.ndarray, y: np.ndarray, terms: list[tuple[int, float, int]]
                  ) -> tuple[list[tuple[int, float, int]], np.ndarray]:
        """earth's ``RegressAndFix`` and backward pruning: the kept terms and coefficients
        (intercept first)."""
        n = len(y)
        B = np.column_stack([np.ones(n)] + [_column(X, t) for t in terms])
        kept = _independent(B)
        B, terms = B[:, kept], [terms[k - 1] for k in kept[1:]]
        subsets, rss = _leaps_backward(B, y)
        rss[rss < ZERO_RSS * float(np.sum((y - y.mean()) ** 2))] = 0.0
        # earth's which.min over the sizes 1, 2, ...: the smallest of equal GCVs
        best = sorted(subsets[int(np.argmin(gcv(rss, np.arange(1, len(rss) + 1), n,
                                               self.penalty)))])
        coef = np.linalg.lstsq(B[:, best], y, rcond=None)[0]
        return [terms[k - 1] for k in best[1:]], coef

    def predict(self, X) -> np.ndarray:
        X = np.asarray(X, dtype=float)
        out = np.full(len(X), self.intercept_)
        for term, b in zip(self.terms_, self.coef_, strict=True):
            out += b * _column(X, term)
        return out


def _best_for_feature(x: np.ndarray, order: np.ndarray, j: int, yc: np.ndarray, basis: _Basis,
                      n_terms: int, minspan: int, endspan: int, max_delta: float,
                      best: tuple[float, int, int, bool]) -> tuple[float, int, int, bool]:
    """earth's ``FindPredGivenParent`` and ``FindKnot`` for feature ``j`` (values ``x``, sorted
    rows ``order``) against the scaled, centred ``yc``: ``best`` (RSS decrease, feature,
    sorted position, new form) updated with the feature's linear term (position 0) and then
    its best knot, each only if it lowers the RSS by strictly more. The sums over the rows
    above each knot are earth's running sums (cumulative sums from the top down)."""
    others = [t for t, used in zip(basis.terms[1:n_terms], basis.used[1:n_terms], strict=True)
              if used]
    new_form = not others or any(t[0] != j for t in others)  # earth's GetNewFormFlag
    lin = 0.0
    if new_form:
        new_form = basis.set(n_terms, basis.residual(x, n_terms), MIN_BX_SOS)
        lin = float(yc @ basis.q[:, n_terms]) ** 2 if new_form else 0.0
        if lin > best[0]:
            best = (lin, j, 0, new_form)
    cols = n_terms + 1 if new_form else n_terms
    n = len(x)
    pos = np.arange(n - 2, endspan - 1, -1)
    below, above = order[pos], order[pos + 1]
    x0, x1 = x[below], x[above]
    step = x1 - x0
    cov_sx = np.cumsum(basis.q[above, :cols] - basis.mean[:cols], axis=0)
    cov = np.cumsum(step[:, None] * cov_sx, axis=0)  # Q_c' h for each knot
    count = np.arange(1, len(pos) + 1, dtype=float)
    x_sum = np.cumsum(x1)
    st = x_sum - count * x0
    su = np.concatenate([[0.0], st[:-1]])
    h_ss = np.cumsum(step * (2 * x_sum - count * (x0 + x1)) + (su ** 2 - st ** 2) / n)
    y_h = np.cumsum(step * np.cumsum(yc[above]))  # y_c' h
    y_q = yc @ basis.q[:, :cols]
    top = y_h - cov @ y_q
    bottom = h_ss - np.sum(cov ** 2, axis=1)
    tol = SPAN_TOL if cols < 15 else LATE_SPAN_TOL
    with np.errstate(divide="ignore", invalid="ignore"):
        gain = np.where(bottom / h_ss > tol, top ** 2 / bottom, 0.0)
    counted = h_ss > 0
    at = knot_rows(n, minspan, endspan, counted)
    total = lin + gain[n - 2 - at]
    legal = total < max_delta
    if legal.any():
        i = int(np.argmax(np.where(legal, total, -np.inf)))
        if total[i] > lin and total[i] > best[0]:
            best = (float(total[i]), j, int(at[i]), new_form)
    return best


def _prefix_rss(B: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The RSS of the least-squares fit of ``y`` on the first ``k`` columns of ``B``, for ``k
    = 1, ..., B.shape[1]`` (one QR: the residual of all plus the later rotated parts of y)."""
    q, _ = np.linalg.qr(B)
    qty = q.T @ y
    resid = y - q @ qty
    later = np.append(np.cumsum((qty ** 2)[::-1])[::-1][1:], 0.0)  # rotated y after column k
    return float(resid @ resid) + later


def _leaps_backward(B: np.ndarray, y: np.ndarray) -> tuple[list[list[int]], np.ndarray]:
    """The best subset of the columns of ``B`` of each size (the intercept, column 0, in
    all) and its RSS, as earth's pruning pass finds them with the ``leaps`` package's
    backward elimination (Miller's ``BAKWRD``, ``nbest`` 1): the columns start in their
    order, each size's best the first columns; then, for the last position from the end down
    to the third, the column whose removal from the columns up to there raises the RSS least
    (the first of equal ones) moves to that position, and each first-columns subset that
    changed replaces the best of its size if its RSS is lower. The subsets need not nest."""
    order = list(range(B.shape[1]))
    rss = _prefix_rss(B, y)
    subsets = [order[:k] for k in range(1, len(order) + 1)]
    for last in range(len(order) - 1, 1, -1):
        cols = order[:last + 1]
        r = np.linalg.qr(B[:, cols], mode="r")
        coef = np.linalg.lstsq(B[:, cols], y, rcond=None)[0]
        raised = coef[1:] ** 2 / np.sum(np.linalg.inv(r) ** 2, axis=1)[1:]  # diag (B'B)^-1
        drop = 1 + int(np.argmin(raised))
        if drop == last:
            continue
        order.insert(last, order.pop(drop))
        moved = _prefix_rss(B[:, order[:last]], y)
        for size in range(drop + 1, last + 1):
            if moved[size - 1] < rss[size - 1] and set(order[:size]) != set(subsets[size - 1]):
                rss[size - 1], subsets[size - 1] = moved[size - 1], order[:size]
    return subsets, rss


def _independent(B: np.ndarray) -> list[int]:
    """The columns of ``B`` that R's ``dqrdc2`` (tolerance :data:`QR_TOL`) keeps in order:
    each whose part orthogonal to the kept ones has a norm of at least ``QR_TOL`` times its
    own (a zero column: of at least ``QR_TOL``)."""
    kept: list[int] = []
    q = np.zeros((len(B), 0))
    for k in range(B.shape[1]):
        v = B[:, k] - q @ (q.T @ B[:, k])
        v -= q @ (q.T @ v)  # a second sweep for rounding
        norm = np.linalg.norm(B[:, k])
        if np.linalg.norm(v) >= QR_TOL * (norm if norm > 0 else 1.0):
            kept.append(k)
            q = np.column_stack([q, v / np.linalg.norm(v)])
    return kept


def _function(x: np.ndarray, knot: float, direction: int) -> np.ndarray:
    """``x`` itself (``direction`` 0) or its hinge ``max(0, direction (x - knot))``."""
    return x if direction == 0 else np.maximum(0.0, direction * (x - knot))


def _column(X: np.ndarray, term: tuple[int, float, int]) -> np.ndarray:
    """The basis function ``term = (feature, knot, direction)`` on the rows of ``X``."""
    j, t, d = term
    return _function(X[:, j], t, d)


def mars(params: dict, random_state: int, threads: int) -> Mars:
    """Additive MARS as R's ``earth(x, y)`` (:class:`Mars`; deterministic: no seed)."""
    return Mars(**params)
