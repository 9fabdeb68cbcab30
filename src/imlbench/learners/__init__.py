"""Learners by name: each builds a scikit-learn estimator (or pipeline) from study parameters.

Threads come from the caller (Snakemake's ``threads:``), never from a hidden default.
Hyperparameters live in the study file; the defaults here mirror the R functions
the papers used where the paper is silent (``randomForest``, ``nnet``). Each learner
declares the hyperparameters a study file may set (:attr:`LearnerSpec.params`): those of
the estimator it builds, less the ones the workflow sets itself (seed, threads).
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from imlbench.registry import Registry


def _estimator_params(path: str, *exclude: str) -> Callable[[], tuple[str, ...]]:
    """The parameters of the estimator class at ``path`` (module.Class), less
    ``exclude``; looked up only when asked (importing the estimator's library is slow)."""

    def names() -> tuple[str, ...]:
        module, cls = path.rsplit(".", 1)
        params = getattr(importlib.import_module(module), cls)().get_params(deep=False)
        return tuple(p for p in params if p not in exclude)

    return names


def _fixed(*names: str) -> Callable[[], tuple[str, ...]]:
    return lambda: names


@dataclass(frozen=True)
class LearnerSpec:
    """A registered learner: its constructor, what it supports, and the names of the
    hyperparameters a study file may give it (a function: they are looked up when checked)."""

    build: Callable[..., Any]
    capabilities: frozenset[str] = field(default_factory=frozenset)
    params: Callable[[], tuple[str, ...]] = field(default=_fixed())
    #: builds the estimator for refits, whose fitted model is only ever asked to predict (e.g.
    #: relearned importance): predictions equal to ``build``'s, at lower cost; None: ``build``
    refit: Callable[..., Any] | None = None


LEARNERS: Registry[LearnerSpec] = Registry("learner")


def _rf(params: dict, random_state: int, threads: int) -> Any:
    from sklearn.ensemble import RandomForestRegressor

    defaults = {"n_estimators": 500, "max_features": 1 / 3, "min_samples_leaf": 5}
    return RandomForestRegressor(
        **{**defaults, **params}, bootstrap=True, random_state=random_state, n_jobs=threads
    )


def _bagging(params: dict, random_state: int, threads: int) -> Any:
    return _rf({**params, "max_features": 1.0}, random_state, threads)


#: the parameters of ``rf`` that :class:`.compact.CompactForest` takes as well
_COMPACT_FOREST_PARAMS = frozenset(
    {"n_estimators", "max_features", "min_samples_split", "min_samples_leaf", "max_depth"})


def _rf_refit(params: dict, random_state: int, threads: int) -> Any:
    """The trees of ``rf`` without scikit-learn's per-tree overhead (:class:`.compact.
    CompactForest`: the same trees and predictions) when the parameters allow, else ``rf``."""
    if set(params) <= _COMPACT_FOREST_PARAMS:
        return _forest(params, random_state, threads)
    return _rf(params, random_state, threads)


def _bagging_refit(params: dict, random_state: int, threads: int) -> Any:
    return _rf_refit({**params, "max_features": 1.0}, random_state, threads)


def _gbm(params: dict, random_state: int, threads: int) -> Any:
    from xgboost import XGBRegressor

    defaults = {"n_estimators": 300, "max_depth": 4, "learning_rate": 0.05, "subsample": 0.8}
    return XGBRegressor(
        **{**defaults, **params}, random_state=random_state, n_jobs=threads, tree_method="hist"
    )


def _svm(params: dict, random_state: int, threads: int) -> Any:
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from imlbench.learners.kernel_svr import BlockRBFSVR

    defaults = {"C": 1.0, "epsilon": 0.1, "gamma": "scale"}
    return make_pipeline(StandardScaler(), BlockRBFSVR(**{**defaults, **params}))


def _svm_e1071(params: dict, random_state: int, threads: int) -> Any:
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


def _knn(params: dict, random_state: int, threads: int) -> Any:
    """k nearest neighbours on standardised inputs.

    Neighbours are found by brute force: on the batches explainers predict, BLAS
    distances are several times faster than a k-d tree and find the same neighbours.
    """
    from sklearn.neighbors import KNeighborsRegressor
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    defaults = {"n_neighbors": 10, "algorithm": "brute", "n_jobs": threads}
    return make_pipeline(StandardScaler(), KNeighborsRegressor(**{**defaults, **params}))


def _lm(params: dict, random_state: int, threads: int) -> Any:
    from sklearn.linear_model import LinearRegression

    return LinearRegression(**params)


def _tree(params: dict, random_state: int, threads: int) -> Any:
    from sklearn.tree import DecisionTreeRegressor

    return DecisionTreeRegressor(**{"min_samples_leaf": 5, **params}, random_state=random_state)


def _cart(params: dict, random_state: int, threads: int) -> Any:
    """CART with R rpart's stopping rules, cp included (see :mod:`.compact`)."""
    from imlbench.learners.compact import RpartTree

    return RpartTree(**params, random_state=random_state)


def _ols(params: dict, random_state: int, threads: int) -> Any:
    """Least squares with an intercept, as ``lm`` without scikit-learn's input checks."""
    from imlbench.learners.compact import LeastSquares

    if params:
        raise ValueError(f"the ols learner takes no parameters, got {', '.join(params)}")
    return LeastSquares()


def _forest(params: dict, random_state: int, threads: int) -> Any:
    """The random forest of ``rf`` for many small refits: the same trees, without
    scikit-learn's per-tree overhead and out-of-bag bookkeeping (see :mod:`.compact`)."""
    from imlbench.learners.compact import CompactForest

    defaults = {"n_estimators": 500, "max_features": 1 / 3, "min_samples_leaf": 5}
    return CompactForest(**{**defaults, **params}, random_state=random_state)


def _mlp(params: dict, random_state: int, threads: int) -> Any:
    """One hidden layer of logistic units fitted by L-BFGS, as R's ``nnet``.

    ``decay`` is nnet's weight decay (sklearn's ``alpha``), ``maxit`` its iteration
    cap; ``scale: true`` standardises the inputs first.
    """
    from sklearn.neural_network import MLPRegressor
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    p = {"size": 20, "decay": 0.0, "maxit": 100, "scale": False, **params}
    net = MLPRegressor(
        hidden_layer_sizes=(int(p["size"]),),
        activation="logistic",
        solver="lbfgs",
        alpha=float(p["decay"]),
        max_iter=int(p["maxit"]),
        random_state=random_state,
    )
    return make_pipeline(StandardScaler(), net) if p["scale"] else net


def _truth(params: dict, random_state: int, threads: int) -> Any:
    """The DGP's own f (see :mod:`imlbench.learners.truth`); the fit stage binds the DGP."""
    from imlbench.learners.truth import TrueFunction

    if params:
        raise ValueError(f"the truth learner takes no parameters, got {', '.join(params)}")
    return TrueFunction()


def _none(params: dict, random_state: int, threads: int) -> Any:
    """No model: the training mean. For methods that study the data alone (data fidelity)."""
    from sklearn.dummy import DummyRegressor

    if params:
        raise ValueError(f"the none learner takes no parameters, got {', '.join(params)}")
    return DummyRegressor(strategy="mean")


_FOREST = "sklearn.ensemble.RandomForestRegressor"
#: a scikit-learn forest (out-of-bag rows, its trees) and any tree model the tree PD reads
_SKFOREST = {"oob", "trees", "tree_ensemble"}
_TREES = {"tree_ensemble"}
_REFITS = {"rf": _rf_refit, "bagging": _bagging_refit}
for _name, _build, _caps, _params in [
    ("rf", _rf, _SKFOREST, _estimator_params(_FOREST, "bootstrap", "random_state", "n_jobs")),
    ("bagging", _bagging, _SKFOREST,
     _estimator_params(_FOREST, "bootstrap", "random_state", "n_jobs", "max_features")),
    ("gbm", _gbm, _TREES, _estimator_params("xgboost.XGBRegressor", "random_state", "n_jobs",
                                            "tree_method")),
    ("svm", _svm, set(), _estimator_params("imlbench.learners.kernel_svr.BlockRBFSVR")),
    ("svm_e1071", _svm_e1071, set(),
     _estimator_params("imlbench.learners.kernel_svr.SigestRBFSVR", "random_state")),
    ("knn", _knn, set(), _estimator_params("sklearn.neighbors.KNeighborsRegressor", "n_jobs")),
    ("lm", _lm, {"linear"}, _estimator_params("sklearn.linear_model.LinearRegression")),
    ("tree", _tree, _TREES, _estimator_params("sklearn.tree.DecisionTreeRegressor",
                                              "random_state")),
    ("cart", _cart, _TREES, _estimator_params("imlbench.learners.compact.RpartTree",
                                              "random_state")),
    ("forest", _forest, _TREES, _estimator_params("imlbench.learners.compact.CompactForest",
                                                  "random_state")),
    ("ols", _ols, {"linear"}, _fixed()),
    ("mlp", _mlp, set(), _fixed("size", "decay", "maxit", "scale")),
    ("truth", _truth, {"oracle"}, _fixed()),
    ("none", _none, set(), _fixed()),
]:
    LEARNERS.register(_name)(LearnerSpec(_build, frozenset(_caps), _params,
                                         _REFITS.get(_name)))


def make_learner(name: str, params: dict, random_state: int, threads: int = 1, *,
                 refit: bool = False) -> Any:
    """A fresh, unfitted estimator of the registered learner ``name``; with ``refit``, the
    learner's estimator for refits that are only asked to predict (the same predictions)."""
    spec = LEARNERS.get(name)
    build = spec.refit if refit and spec.refit is not None else spec.build
    return build(dict(params), random_state, threads)


def fit_quietly(estimator: Any, X: Any, y: Any) -> Any:
    """Fit ``estimator``; iteration-cap warnings (nnet's ``maxit``) are expected and muted."""
    from sklearn.exceptions import ConvergenceWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return estimator.fit(X, y)
