"""Support vector regression with the RBF kernel (:mod:`.kernel_svr`). Each function builds the
unfitted estimator of one registered learner (:data:`imlbench.learners.LEARNERS`), from its
study parameters, seed and threads."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def svm(params: dict, random_state: int, threads: int) -> Any:
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from imlbench.learners.kernel_svr import BlockRBFSVR

    defaults = {"C": 1.0, "epsilon": 0.1, "gamma": "scale"}
    return make_pipeline(StandardScaler(), BlockRBFSVR(**{**defaults, **params}))


def svm_e1071(params: dict, random_state: int, threads: int,
              categorical: Sequence[int] = ()) -> Any:
    """R's ``e1071::svm`` for regression with its defaults: eps-regression with the RBF kernel,
    x and y scaled by R's ``scale()`` (mean and sample SD; predictions back in y's units),
    gamma 1 / (columns), C 1, epsilon 0.1 (in units of y's SD). libsvm fits both, so the
    predictions agree (``tests/test_r_parity.py``). ``gamma: sigest`` takes kernlab's
    automatic width instead, as ``kernlab::ksvm`` does (:func:`.kernel_svr.sigest_gamma`,
    drawn with the learner's seed). ``svm`` differs: it scales x by the population SD and
    leaves y unscaled, so that C and epsilon act in y's units.

    ``coding`` (:data:`.model_matrix.CODINGS`): ``numeric`` (default) fits on the codes of the
    ``categorical`` columns as numbers, as ``svm(x, y)`` on a numeric matrix does;
    ``treatment`` fits as ``svm(y ~ ., data)`` with those columns R factors: on R's model
    matrix without intercept (the first factor coded by all its levels, the others by
    treatment contrasts), numeric columns scaled, dummies left 0/1, y scaled when some column
    is; gamma 1 / (model-matrix columns) and ``sigest`` on the scaled model matrix, as
    e1071 and kernlab's ``ksvm(y ~ ., data)`` do (:mod:`.model_matrix`). Without categorical
    columns both codings are the same learner."""
    from sklearn.compose import TransformedTargetRegressor
    from sklearn.pipeline import make_pipeline

    from imlbench.learners.kernel_svr import RScale, RScaledTarget, SigestRBFSVR
    from imlbench.learners.model_matrix import ModelMatrix, check_coding

    params = dict(params)
    coding = check_coding(params.pop("coding", "numeric"))
    defaults = {"C": 1.0, "epsilon": 0.1, "gamma": "auto"}
    svr = SigestRBFSVR(**{**defaults, **params}, random_state=random_state)
    if coding == "treatment" and len(categorical):
        model = make_pipeline(ModelMatrix(tuple(categorical), intercept=False, scale=True), svr)
        return RScaledTarget(regressor=model, transformer=RScale())
    return TransformedTargetRegressor(regressor=make_pipeline(RScale(), svr),
                                      transformer=RScale())
