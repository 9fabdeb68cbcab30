"""A generalised additive model (GAM) of penalised regression splines, as pygam's ``LinearGAM``
fits it: the GAM of Heiß, Bögel, Bischl & Casalicchio (2026), whose code wraps
``pygam.LinearGAM`` in the same way.

For ``p`` features the model has one spline term per feature, ``s(j, n_splines=max(4,
round(n_bases)), lam=lam)``, and with ``interaction_order`` 2 also one tensor-product term per
pair of features ``j < k``, ``te(j, k, n_splines=max(4, round(sqrt(n_bases))), lam=lam)``
(about ``n_bases`` coefficients, as a spline term); every term has the same smoothing penalty
``lam``, and pygam adds the intercept. The model is fitted by least squares with those
penalties (``LinearGAM(terms, max_iter=max_iter).fit(X, y)``); nothing is random. pygam is
imported when a model is fitted: importing it takes seconds.

The model is a sum of terms, each linear in its coefficients: a spline s_j(x_j) = B_j(x_j)'b,
a tensor term B_j(x_j)' W B_k(x_k) (the row-wise product of the marginal bases) and the
intercept. Its partial dependence on x_j at z over rows x_i (Friedman 2001, Sect. 8.2:
PD_j(z) = 1/n sum_i f(z, x_i,-j)) therefore needs no stacked predictions
(:meth:`Gam.partial_dependence`): a term without x_j adds its mean over the rows, s_j adds
s_j(z), and a tensor term with x_j adds B_j(z)' W (1/n sum_i B_k(x_ik)), the other marginals'
basis averaged over the rows first. It costs one basis evaluation per row and per grid point
instead of one per (row, grid point), and equals the brute force to rounding.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin

if TYPE_CHECKING:
    from pygam.terms import TermList

#: the interaction orders of the model: main effects alone (1), or with every pair's (2)
INTERACTION_ORDERS = (1, 2)
#: the fewest basis functions of a term's spline (pygam's cubic splines need more than 3)
MIN_SPLINES = 4


def spline_count(n_bases: float) -> int:
    """The basis functions of a feature's spline term: ``max(4, round(n_bases))``."""
    return max(MIN_SPLINES, round(n_bases))


def tensor_count(n_bases: float) -> int:
    """The basis functions along each of the two features of a tensor term: ``max(4,
    round(sqrt(n_bases)))``."""
    return max(MIN_SPLINES, round(math.sqrt(n_bases)))


def gam_terms(n_features: int, n_bases: float, lam: float, interaction_order: int
              ) -> TermList:
    """The terms of the GAM on ``n_features`` features (module doc): a spline term per
    feature, then with ``interaction_order`` 2 a tensor term per pair ``j < k`` in order."""
    from pygam import s, te
    from pygam.terms import TermList

    if interaction_order not in INTERACTION_ORDERS:
        raise ValueError(f"gam: interaction_order must be 1 or 2, got {interaction_order!r}")
    terms = [s(j, n_splines=spline_count(n_bases), lam=lam) for j in range(n_features)]
    if interaction_order == 2:
        terms += [te(j, k, n_splines=tensor_count(n_bases), lam=lam)
                  for j in range(n_features) for k in range(j + 1, n_features)]
    return TermList(*terms)


class Gam(RegressorMixin, BaseEstimator):
    """The GAM of the module doc, a scikit-learn regressor around ``pygam.LinearGAM``.

    ``n_bases``: the basis functions of a feature's spline (a tensor term's: ``round(sqrt(
    n_bases))`` along each feature; at least 4 each; the default 20 is pygam's ``n_splines``,
    within the range 5-50 the authors tune it over); ``lam``: the smoothing penalty of every
    term (pygam's default 0.6); ``interaction_order``: 1 for spline terms alone, 2 (the
    default) for a tensor term of every pair of features as well; ``max_iter``: pygam's
    iteration cap of the penalised fit.

    Fitted: ``gam_``, the fitted ``pygam.LinearGAM``, and ``n_features_in_``."""

    def __init__(self, n_bases: int = 20, lam: float = 0.6, interaction_order: int = 2,
                 max_iter: int = 1000):
        self.n_bases = n_bases
        self.lam = lam
        self.interaction_order = interaction_order
        self.max_iter = max_iter

    def fit(self, X, y) -> Gam:
        """Fit the GAM's terms on the rows of ``X`` (n, p) to ``y`` (n,)."""
        from pygam import LinearGAM

        X = np.asarray(X, dtype=float)
        y = np.asarray(y, dtype=float).ravel()
        self.n_features_in_ = X.shape[1]
        terms = gam_terms(X.shape[1], self.n_bases, self.lam, self.interaction_order)
        self.gam_ = LinearGAM(terms, max_iter=self.max_iter).fit(X, y)
        return self

    def predict(self, X) -> np.ndarray:
        """The fitted GAM's predictions at the rows of ``X``."""
        return self.gam_.predict(np.asarray(X, dtype=float))

    def partial_dependence(self, X, j: int, grid) -> np.ndarray:
        """The partial dependence on feature ``j`` at the points ``grid`` over the rows of
        ``X``, 1/n sum_i f(z, x_i,-j), from the terms (module doc): equal to averaging
        ``predict`` over the rows with x_j set to each point, up to rounding."""
        X = np.asarray(X, dtype=float)
        grid = np.asarray(grid, dtype=float)
        Z = np.zeros((len(grid), X.shape[1]))
        Z[:, j] = grid
        model, out = self.gam_, np.zeros(len(grid))
        for i, term in enumerate(model.terms):
            coef = model.coef_[model.terms.get_coef_indices(i)]
            if term.isintercept:
                out += coef[0]
            elif j not in np.atleast_1d(term.feature):
                out += float(np.mean(term.build_columns(X) @ coef))
            elif not term.istensor:
                out += term.build_columns(Z) @ coef
            else:
                out += _tensor_pd(term, X, Z, j) @ coef
        return out


def _tensor_pd(term, X: np.ndarray, Z: np.ndarray, j: int) -> np.ndarray:
    """The columns of a tensor term averaged over the rows ``X`` with x_j at each row of
    ``Z`` (grid points x columns): the row-wise product of the marginal bases, the marginal
    of x_j evaluated at the grid and the others averaged over the rows (the product of the
    others varies with the row, so they are multiplied before averaging)."""
    at_grid, over_rows = np.ones((len(Z), 1)), np.ones((len(X), 1))
    for marginal in term._terms:
        if marginal.feature == j:
            b = marginal.build_columns(Z).toarray()
            at_grid = (at_grid[:, :, None] * b[:, None, :]).reshape(len(Z), -1)
            over_rows = np.repeat(over_rows, b.shape[1], axis=1)
        else:
            b = marginal.build_columns(X).toarray()
            over_rows = (over_rows[:, :, None] * b[:, None, :]).reshape(len(X), -1)
            at_grid = np.repeat(at_grid, b.shape[1], axis=1)
    return at_grid * over_rows.mean(axis=0)


def gam(params: dict, random_state: int, threads: int) -> Gam:
    """The GAM of pygam's ``LinearGAM`` (:class:`Gam`; deterministic: no seed)."""
    return Gam(**params)
