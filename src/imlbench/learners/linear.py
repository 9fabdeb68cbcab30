"""Least squares. Each function builds the unfitted estimator of one registered learner
(:data:`imlbench.learners.LEARNERS`), from its study parameters, seed and threads."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def lm(params: dict, random_state: int, threads: int, categorical: Sequence[int] = ()) -> Any:
    """Least squares (scikit-learn's ``LinearRegression``), as R's ``lm(y ~ ., data)``.

    ``coding`` (:data:`.model_matrix.CODINGS`): ``numeric`` (default) fits on the codes of
    the ``categorical`` columns as numbers, one coefficient each; ``treatment`` fits on R's
    model matrix, the columns R factors: each coded by treatment contrasts (the lowest level
    the reference, one dummy column per other level, at its position), so the intercept and
    coefficients are R's ``coef(lm(y ~ ., data))``; with ``fit_intercept: false`` the first
    factor gets all its levels, as ``lm(y ~ . - 1)`` (:mod:`.model_matrix`). The treatment
    coded learner is a pipeline (model matrix, regression): its coefficients are those of the
    model-matrix columns. Without categorical columns both codings are the same learner.

    ``aliased`` (:data:`.aliased.ALIASED`): ``split`` (default) is scikit-learn's minimum-norm
    solution, which shares an aliased column's effect with the columns it copies; ``drop`` is
    R's rule, the later of two aliased columns gets NaN (R's NA) and no part in the fit
    (:class:`.aliased.AliasedLeastSquares`; it takes only ``fit_intercept``)."""
    from sklearn.linear_model import LinearRegression

    from imlbench.learners.aliased import AliasedLeastSquares, check_aliased
    from imlbench.learners.model_matrix import ModelMatrix, check_coding

    params = dict(params)
    coding = check_coding(params.pop("coding", "numeric"))
    if check_aliased(params.pop("aliased", "split")) == "drop":
        other = set(params) - {"fit_intercept"}
        if other:
            raise ValueError(f"lm with aliased: drop takes only fit_intercept, got "
                             f"{', '.join(sorted(other))}")
        model = AliasedLeastSquares(**params)
    else:
        model = LinearRegression(**params)
    if coding == "treatment" and len(categorical):
        from sklearn.pipeline import make_pipeline

        coding_step = ModelMatrix(tuple(categorical), intercept=model.fit_intercept)
        return make_pipeline(coding_step, model)
    return model


def ols(params: dict, random_state: int, threads: int) -> Any:
    """Least squares with an intercept, as ``lm`` without scikit-learn's input checks."""
    from imlbench.learners.compact import LeastSquares

    if params:
        raise ValueError(f"the ols learner takes no parameters, got {', '.join(params)}")
    return LeastSquares()
