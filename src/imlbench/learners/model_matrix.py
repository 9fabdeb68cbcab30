"""R's model matrix of a numeric design whose categorical columns hold integer codes.

R codes a factor in a model formula by treatment contrasts (``contr.treatment``, R's default
for unordered factors): the lowest level is the reference and each other level gets a 0/1
column, in the order of the levels, at the position of the factor among the terms;
numeric columns pass through. ``model.matrix(y ~ ., data)`` adds an intercept column
first. Without an intercept (``y ~ . - 1``) R codes the *first* factor among the terms by
indicators of all its k levels (no reference level: the intercept is absorbed) and every
later factor by k - 1 contrasts, as before.

``lm(y ~ ., data)`` fits on the matrix with the intercept: :class:`ModelMatrix` with
``intercept=True`` is that matrix without its intercept column (the intercept is the
regression's own). ``e1071::svm(y ~ ., data)`` and ``kernlab::ksvm(y ~ ., data)`` (their
formula methods: ``e1071:::svm.formula``, ``getMethod("ksvm", "formula")``, read in
e1071 1.7-13 and kernlab 0.9-32 on R 4.2) both set ``attr(Terms, "intercept") <- 0`` before
``model.matrix``, so their first factor is coded by all k indicators (``intercept=False``);
then they scale only the columns whose term is not a factor (``scale <- !attr(x, "assign")
%in% remove``, ``remove`` the terms named in ``attr(x, "contrasts")``): numeric columns by
``scale()`` (mean, sample SD), the dummy columns stay 0/1 (``scale=True``). y is scaled
(regression) only when some column of x is (:class:`imlbench.learners.kernel_svr.RScaledTarget`).
e1071's gamma default 1 / ``ncol(x)`` and kernlab's ``sigest`` then see this matrix, and
``predict`` builds the same matrix for new rows with the training levels (a level not seen in
training stops R: "factor f has new levels ...", and raises a ValueError here).

Levels are the distinct codes seen in ``fit`` (R's ``factor()`` of the training column: its
sorted unique values). Two deviations, both where R refuses or warns: a factor with a single
level in training gets no contrast column (R stops: "contrasts can be applied only to factors
with 2 or more levels"), and a constant numeric column is only centred (e1071 and kernlab
then warn and scale no column at all, x nor y), as :class:`~.kernel_svr.RScale` does.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin

#: the values of the learner parameter ``coding``: codes used as numbers, or R's model matrix
CODINGS = ("numeric", "treatment")


def check_coding(coding: object) -> str:
    """``coding`` if it is one of :data:`CODINGS`; else a ValueError naming them."""
    if coding not in CODINGS:
        raise ValueError(f"coding {coding!r} is not allowed; allowed: {', '.join(CODINGS)}")
    return str(coding)


class ModelMatrix(TransformerMixin, BaseEstimator):
    """R's model matrix (without its intercept column) of a design X whose columns
    ``categorical`` (0-based) hold integer codes: each is replaced, at its own position, by
    treatment-contrast dummies of its levels seen in ``fit`` (the lowest the reference,
    dummies for the others in sorted order); with ``intercept=False`` the first categorical
    column gets indicators of all its levels, as ``model.matrix`` without an intercept (and
    so e1071's and kernlab's formula interfaces) does. With ``scale`` the numeric columns are
    centred and divided by their sample SD (R's ``scale()``; a constant column keeps scale 1),
    the dummy columns are left 0/1, as ``e1071::svm`` and ``kernlab::ksvm`` do.

    After ``fit``: ``levels_`` (the levels of each categorical column, by column index),
    ``assign_`` (the source column of each output column, R's ``attr(x, "assign")`` less 1),
    ``scaled_`` (the output columns that are scaled), ``center_`` and ``scale_`` (of the
    numeric columns, in their order)."""

    def __init__(self, categorical: Sequence[int] = (), *, intercept: bool = True,
                 scale: bool = False) -> None:
        self.categorical = categorical
        self.intercept = intercept
        self.scale = scale

    def fit(self, X: np.ndarray, y: object = None) -> ModelMatrix:
        X = np.asarray(X, dtype=float)
        if X.ndim != 2:
            raise ValueError(f"expected a 2-D design, got shape {X.shape}")
        p = X.shape[1]
        cats = sorted({int(j) for j in self.categorical})
        if cats and not 0 <= cats[0] <= cats[-1] < p:
            raise ValueError(f"categorical columns {cats} are not all columns of a design "
                             f"with {p} columns")
        self.n_features_in_ = p
        self.levels_: dict[int, np.ndarray] = {}
        assign: list[int] = []
        self.blocks_: list[tuple[int, int, int]] = []  # (source column, first output, dropped)
        first = True
        for j in range(p):
            if j not in cats:
                assign.append(j)
                continue
            col = X[:, j]
            if np.isnan(col).any():
                raise ValueError(f"categorical column {j} holds missing values (NaN)")
            levels = np.unique(col)
            self.levels_[j] = levels
            dropped = 0 if (first and not self.intercept) else 1
            first = False
            self.blocks_.append((j, len(assign), dropped))
            assign += [j] * (len(levels) - dropped)
        self.assign_ = np.asarray(assign, dtype=int)
        numeric = np.asarray([j for j in range(p) if j not in self.levels_], dtype=int)
        self.numeric_in_ = numeric
        self.numeric_out_ = np.flatnonzero(~np.isin(self.assign_, cats))
        self.scaled_ = np.zeros(len(assign), dtype=bool)
        if self.scale:
            self.scaled_[self.numeric_out_] = True
            from imlbench.learners.kernel_svr import r_scale_parameters

            self.center_, self.scale_ = r_scale_parameters(X[:, numeric])
        return self

    @property
    def n_columns_(self) -> int:
        """The number of columns of the model matrix (e1071's ``ncol(x)``)."""
        return len(self.assign_)

    def transform(self, X: np.ndarray) -> np.ndarray:
        """The model matrix of ``X`` (rows of the design ``fit`` saw): a ValueError naming the
        column and the level when a categorical column holds a level not seen in ``fit``."""
        X = np.asarray(X, dtype=float)
        if X.ndim != 2 or X.shape[1] != self.n_features_in_:
            raise ValueError(f"expected {self.n_features_in_} columns, got shape {X.shape}")
        n = len(X)
        out = np.zeros((n, len(self.assign_)))
        for k, (j, c) in enumerate(zip(self.numeric_in_, self.numeric_out_, strict=True)):
            if self.scale:  # column by column: no temporary copy of the numeric block
                np.subtract(X[:, j], self.center_[k], out=out[:, c])
                out[:, c] /= self.scale_[k]
            else:
                out[:, c] = X[:, j]
        rows = np.arange(n)
        for j, start, dropped in self.blocks_:
            levels, col = self.levels_[j], X[:, j]
            codes = np.searchsorted(levels, col)
            np.minimum(codes, len(levels) - 1, out=codes)
            unseen = levels[codes] != col
            if unseen.any():
                raise ValueError(
                    f"categorical column {j} has level {col[unseen][0]:g} not seen in fitting "
                    f"(levels {', '.join(f'{v:g}' for v in levels)}); R's predict stops "
                    f"likewise (factor has new levels)")
            hit = codes >= dropped
            out[rows[hit], start + codes[hit] - dropped] = 1.0
        return out
