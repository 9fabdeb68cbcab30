"""Support vector regression whose RBF predictions are evaluated with matrix products, and the
scaling R's e1071 applies around it.

libsvm evaluates the kernel expansion ``f(x) = sum_i a_i exp(-gamma |x - s_i|^2) + b``
one query row at a time. Explainers predict hundreds of thousands of rows at once,
where computing the squared distances as ``|x|^2 + |s|^2 - 2 x.s`` in blocks with one
matrix product is several times faster and agrees with libsvm to rounding
(about 1e-13 on standardised inputs, checked in ``tests/test_learners.py``).
Fitting is libsvm's, unchanged.

:class:`SigestRBFSVR` adds ``gamma="sigest"``: kernlab's automatic RBF width, which
``ksvm(kpar = "automatic")`` takes on its scaled x as the mean of the first and last of
``sigest(x, scaled = FALSE)`` (:func:`sigest`): 1 / the 0.9, 0.5 and 0.1 quantiles of the
non-zero squared distances between floor(m / 2) random pairs of rows, drawn with replacement
(:func:`sigest_gamma`, seeded by the learner's ``random_state``). kernlab's RBF is
exp(-sigma |x - x'|^2), so sigma is libsvm's gamma.

:class:`RScale` is R's ``scale()``: centre by the mean, divide by the sample SD (n - 1); a
column without spread is only centred (e1071 and kernlab instead warn "constant. Cannot scale
data." and then scale no column at all, neither x nor y). ``e1071::svm``
with ``scale = TRUE`` (its default) applies it to x and, for regression, to y, so that C = 1
and epsilon = 0.1 act in units of y's SD; the ``svm_e1071`` learner does the same. With
``coding: treatment`` the learner fits on R's model matrix instead (:mod:`.model_matrix`):
numeric columns scaled, dummies not, y scaled when some column is (:class:`RScaledTarget`).
"""

from __future__ import annotations

from numbers import Real

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.compose import TransformedTargetRegressor
from sklearn.svm import SVR
from sklearn.utils._param_validation import Interval, StrOptions

_BLOCK_ROWS = 512  # fastest of 256-4096 on 50,000 rows (cache-sized kernel blocks)


class BlockRBFSVR(SVR):
    """:class:`sklearn.svm.SVR` with a blocked, BLAS-backed ``predict`` for the RBF kernel."""

    def predict(self, X: np.ndarray) -> np.ndarray:
        if self.kernel != "rbf":
            return super().predict(X)
        X = np.asarray(self._validate_for_predict(X), dtype=float)
        sv = self.support_vectors_
        coef = self.dual_coef_[0]
        sv_sq = np.einsum("ij,ij->i", sv, sv)
        out = np.empty(len(X))
        for start in range(0, len(X), _BLOCK_ROWS):
            q = X[start : start + _BLOCK_ROWS]
            d = q @ sv.T
            d *= -2.0
            d += np.einsum("ij,ij->i", q, q)[:, None]
            d += sv_sq[None, :]
            np.maximum(d, 0.0, out=d)
            d *= -self._gamma
            np.exp(d, out=d)
            out[start : start + len(q)] = d @ coef
        return out + self.intercept_[0]


def r_scale_parameters(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The centres and scales R's ``scale(X)`` takes, bit for bit: each column's mean as
    ``colMeans`` computes it (a sequential sum in long double, divided by n in long double),
    then the root of the sequential long-double sum of the squared centred values (squared in
    double) over n - 1 (at least 1), as ``scale.default``'s ``sqrt(sum(v^2) / (n - 1))``; a
    column with zero SD gets scale 1. numpy's mean and SD round differently in the last bit,
    and libsvm's solver can turn such a bit into a different stopping point (an effect of
    order its tolerance on the fit; ``tests/test_r_parity.py``). numpy's long double is R's
    ``LDOUBLE`` (C's long double) on the platforms R is built for with it; where it is double,
    the two differ in the last bit again. X needs at least one row."""
    X = np.asarray(X, dtype=float)
    n = len(X)
    center = np.array([np.cumsum(c, dtype=np.longdouble)[-1] / np.longdouble(n)
                       for c in X.T], dtype=float)
    squares = np.array([np.cumsum((c - m) ** 2, dtype=np.longdouble)[-1]
                        for c, m in zip(X.T, center, strict=True)], dtype=float)
    sd = np.sqrt(squares / max(1, n - 1))
    return center, np.where(sd > 0, sd, 1.0)


class RScale(TransformerMixin, BaseEstimator):
    """R's ``scale()``: (x - mean) / sd with the sample SD (n - 1) per column, with R's
    rounding (:func:`r_scale_parameters`); a column with zero SD keeps scale 1."""

    def fit(self, X: np.ndarray, y: object = None) -> RScale:
        self.center_, self.scale_ = r_scale_parameters(X)
        return self

    def transform(self, X: np.ndarray) -> np.ndarray:
        return (np.asarray(X, dtype=float) - self.center_) / self.scale_

    def inverse_transform(self, X: np.ndarray) -> np.ndarray:
        return np.asarray(X, dtype=float) * self.scale_ + self.center_


class RScaledTarget(TransformedTargetRegressor):
    """:class:`~sklearn.compose.TransformedTargetRegressor` (y transformed by ``transformer``,
    an :class:`RScale`) whose y is scaled as ``e1071::svm`` and ``kernlab::ksvm`` scale it for
    regression: only when they scale some column of x. The regressor is a pipeline whose first
    step is a :class:`~.model_matrix.ModelMatrix`: with ``scale`` it scales the numeric columns
    and leaves the dummies 0/1, so on a design of categorical columns only R scales no column,
    and y is left unscaled too (``svm.default``: ``if (any(scale)) {... y <- scale(y)}``)."""

    def fit(self, X: np.ndarray, y: np.ndarray, **fit_params: object) -> RScaledTarget:
        coding = self.regressor.steps[0][1]
        numeric = np.shape(X)[1] > len(set(coding.categorical))
        if coding.scale and numeric:
            return super().fit(X, y, **fit_params)
        transformer = self.transformer
        self.transformer = None  # the identity
        try:
            return super().fit(X, y, **fit_params)
        finally:
            self.transformer = transformer


def sigest(X: np.ndarray, index: np.ndarray, index2: np.ndarray) -> np.ndarray:
    """kernlab's ``sigest`` on given row pairs (0-based ``index``, ``index2``): 1 / the 0.9,
    0.5 and 0.1 quantiles (R's type 7, numpy's default) of the non-zero squared distances
    |x[index] - x[index2]|^2."""
    d = ((X[index] - X[index2]) ** 2).sum(axis=1)
    return 1.0 / np.quantile(d[d != 0], [0.9, 0.5, 0.1])


def sigest_gamma(X: np.ndarray, rng: np.random.Generator, frac: float = 0.5) -> float:
    """The RBF width ``ksvm(kpar = "automatic")`` uses: the mean of the first and last value
    of :func:`sigest` on floor(frac m) pairs of rows drawn with replacement."""
    m = len(X)
    n = int(np.floor(frac * m))
    index, index2 = rng.integers(m, size=n), rng.integers(m, size=n)
    srange = sigest(X, index, index2)
    return float((srange[0] + srange[2]) / 2)


class SigestRBFSVR(BlockRBFSVR):
    """:class:`BlockRBFSVR` whose ``gamma`` may also be ``"sigest"`` (:func:`sigest_gamma` on
    the rows it is fitted on, drawn with ``random_state``); the width used is ``sigest_``."""

    #: SVR's constraints, ``gamma`` with ``"sigest"`` too (the learner's declarations are
    #: translated from them, :mod:`.declarations`)
    _parameter_constraints: dict = {
        **SVR._parameter_constraints,
        "gamma": [StrOptions({"scale", "auto", "sigest"}),
                  Interval(Real, 0.0, None, closed="left")],
    }

    def __init__(self, *, kernel: str = "rbf", degree: int = 3, gamma: float | str = "scale",
                 coef0: float = 0.0, tol: float = 1e-3, C: float = 1.0, epsilon: float = 0.1,
                 shrinking: bool = True, cache_size: float = 200, verbose: bool = False,
                 max_iter: int = -1, random_state: int | None = None) -> None:
        super().__init__(kernel=kernel, degree=degree, gamma=gamma, coef0=coef0, tol=tol, C=C,
                         epsilon=epsilon, shrinking=shrinking, cache_size=cache_size,
                         verbose=verbose, max_iter=max_iter)
        self.random_state = random_state

    def fit(self, X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray | None = None
            ) -> SigestRBFSVR:
        if not (isinstance(self.gamma, str) and self.gamma == "sigest"):
            return super().fit(X, y, sample_weight)
        self.sigest_ = sigest_gamma(np.asarray(X, dtype=float),
                                    np.random.default_rng(self.random_state))
        try:  # libsvm's fit reads the width from the parameter
            self.gamma = self.sigest_
            return super().fit(X, y, sample_weight)
        finally:
            self.gamma = "sigest"
