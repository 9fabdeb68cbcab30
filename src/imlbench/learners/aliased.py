"""Least squares that drops aliased columns, as R's ``lm`` does.

R's ``lm`` solves least squares by a QR decomposition with limited pivoting (LINPACK's
``dqrdc2``, tolerance 1e-7): the columns of the model matrix (the intercept first) are taken in
their order, and a column whose part orthogonal to the columns kept before it has a norm below
``tol`` times its own norm is aliased: it gets the coefficient NA and no part in the fit, and
the columns before it carry its effect. With x2 an exact copy of x1, ``lm`` gives x1 the
whole coefficient and x2 NA, where scikit-learn's minimum-norm solution splits it between them
(the book's ch. 3: "PDP(x2) flat, PDP(x1) slope 2" needs R's rule).
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin

#: R's tolerance of ``lm.fit`` (``tol = 1e-07``)
R_TOL = 1e-7
#: how ``lm`` treats aliased columns: ``split`` (scikit-learn's minimum-norm solution) or
#: ``drop`` (R's ``lm``: :class:`AliasedLeastSquares`)
ALIASED = ("split", "drop")


def check_aliased(aliased: object) -> str:
    """``aliased`` if it is one of :data:`ALIASED`; else a ValueError naming them."""
    if aliased not in ALIASED:
        raise ValueError(f"aliased {aliased!r} is not allowed; allowed: {', '.join(ALIASED)}")
    return str(aliased)


def unaliased_columns(A: np.ndarray, tol: float = R_TOL) -> np.ndarray:
    """The columns of ``A`` that are not aliased, in order: each column's residual after
    projecting it on the kept columns before it (Gram-Schmidt, twice for accuracy) must have a
    norm of at least ``tol`` times its own (a zero column is aliased)."""
    basis: list[np.ndarray] = []
    kept = []
    for j in range(A.shape[1]):
        a = A[:, j].astype(float)
        norm = np.linalg.norm(a)
        r = a.copy()
        for _ in range(2):
            for q in basis:
                r -= (q @ r) * q
        rn = np.linalg.norm(r)
        if norm > 0 and rn >= tol * norm:
            basis.append(r / rn)
            kept.append(j)
    return np.array(kept, dtype=int)


class AliasedLeastSquares(RegressorMixin, BaseEstimator):
    """Least squares with R's rule for aliased columns (see the module doc): ``coef_`` holds
    NaN for an aliased column, as R's NA, and the prediction leaves it out."""

    def __init__(self, fit_intercept: bool = True, tol: float = R_TOL) -> None:
        self.fit_intercept = fit_intercept
        self.tol = tol

    def fit(self, X, y) -> AliasedLeastSquares:
        X = np.asarray(X, dtype=float)
        y = np.asarray(y, dtype=float)
        A = np.column_stack([np.ones(len(X)), X]) if self.fit_intercept else X
        kept = unaliased_columns(A, self.tol)
        beta = np.full(A.shape[1], np.nan)
        beta[kept] = np.linalg.lstsq(A[:, kept], y, rcond=None)[0]
        if self.fit_intercept:
            self.intercept_, self.coef_ = float(beta[0]), beta[1:]
        else:
            self.intercept_, self.coef_ = 0.0, beta
        self.n_features_in_ = X.shape[1]
        return self

    def predict(self, X) -> np.ndarray:
        X = np.asarray(X, dtype=float)
        used = ~np.isnan(self.coef_)
        return X[:, used] @ self.coef_[used] + self.intercept_
