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


def gam(params: dict, random_state: int, threads: int) -> Gam:
    """The GAM of pygam's ``LinearGAM`` (:class:`Gam`; deterministic: no seed)."""
    return Gam(**params)
