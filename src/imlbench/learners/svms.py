"""Support vector regression with the RBF kernel (:mod:`.kernel_svr`). Each function builds the
unfitted estimator of one registered learner (:data:`imlbench.learners.LEARNERS`), from its
study parameters, seed and threads."""

from __future__ import annotations

from typing import Any


def svm(params: dict, random_state: int, threads: int) -> Any:
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from imlbench.learners.kernel_svr import BlockRBFSVR

    defaults = {"C": 1.0, "epsilon": 0.1, "gamma": "scale"}
    return make_pipeline(StandardScaler(), BlockRBFSVR(**{**defaults, **params}))


def svm_e1071(params: dict, random_state: int, threads: int) -> Any:
    """R's ``e1071::svm`` for regression with its defaults: eps-regression with the RBF kernel,
    x and y scaled by R's ``scale()`` (mean and sample SD; predictions back in y's units),
    gamma 1 / (columns), C 1, epsilon 0.1 (in units of y's SD). libsvm fits both, so the
    predictions agree (``tests/test_r_parity.py``). ``gamma: sigest`` takes kernlab's
    automatic width instead, as ``kernlab::ksvm`` does (:func:`.kernel_svr.sigest_gamma`,
    drawn with the learner's seed). ``svm`` differs: it scales x by the population SD and
    leaves y unscaled, so that C and epsilon act in y's units."""
    from sklearn.compose import TransformedTargetRegressor
    from sklearn.pipeline import make_pipeline

    from imlbench.learners.kernel_svr import RScale, SigestRBFSVR

    defaults = {"C": 1.0, "epsilon": 0.1, "gamma": "auto"}
    model = make_pipeline(RScale(), SigestRBFSVR(**{**defaults, **params},
                                                 random_state=random_state))
    return TransformedTargetRegressor(regressor=model, transformer=RScale())
