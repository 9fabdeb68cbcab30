"""Learners by name: each builds a scikit-learn estimator (or pipeline) from study parameters.

Threads come from the caller (Snakemake's ``threads:``), never from a hidden default.
Hyperparameters live in the study file; the defaults here mirror the R functions
the papers used where the paper is silent (``randomForest``, ``nnet``). Each learner
declares the hyperparameters a study file may set (:attr:`LearnerSpec.params`): those of
the estimator it builds, less the ones the workflow sets itself (seed, threads), and its own
typed ones (:attr:`LearnerSpec.declared`: ``coding`` of ``lm`` and ``svm_e1071``, how they code
the categorical features, :mod:`imlbench.learners.model_matrix`; ``aliased`` of ``lm``, how it
treats aliased columns, :mod:`imlbench.learners.aliased`; ``nodesize`` of the forests, R's
node-size rule counted over bootstrap draws, :mod:`imlbench.learners.nodesize`).
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from imlbench.learners.boosting import gbm
from imlbench.learners.classifiers import gbm_classifier, rf_classifier
from imlbench.learners.forests import bagging, bagging_refit, forest, rf, rf_refit
from imlbench.learners.linear import lm, ols
from imlbench.learners.mars import mars
from imlbench.learners.neighbours import knn
from imlbench.learners.networks import mlp
from imlbench.learners.reference import none, truth
from imlbench.learners.svms import svm, svm_e1071
from imlbench.learners.trees import cart, tree
from imlbench.params import Param, choice, integer
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


def _also(names: Callable[[], tuple[str, ...]], declared: Callable[[], Mapping[str, Param]]
          ) -> Callable[[], tuple[str, ...]]:
    """``names`` and the learner's own ``declared`` parameters, sorted."""
    return lambda: tuple(sorted({*names(), *declared()}))


def _coding() -> dict[str, Param]:
    """``coding`` of the learners that code categorical features as R's model matrix does
    (:mod:`imlbench.learners.model_matrix`, imported when asked: it imports scikit-learn)."""
    from imlbench.learners.model_matrix import CODINGS

    return {"coding": choice("numeric", CODINGS)}


def _lm_declared() -> dict[str, Param]:
    """``lm``'s own parameters: ``coding`` and ``aliased`` (:mod:`.aliased`)."""
    from imlbench.learners.aliased import ALIASED

    return {**_coding(), "aliased": choice("split", ALIASED)}


def _nodesize() -> dict[str, Param]:
    """``nodesize`` of the forests: R's node-size rule, counted over bootstrap draws
    (:mod:`imlbench.learners.nodesize`), in place of scikit-learn's ``min_samples_split`` and
    ``min_samples_leaf``."""
    return {"nodesize": integer(5, minimum=1)}


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
    #: the typed parameters among ``params`` that the learner reads itself (not its
    #: estimator's), checked by the validator with their allowed values (a function, as
    #: ``params``)
    declared: Callable[[], Mapping[str, Param]] = field(default=dict)
    #: ``build`` takes the indices of the categorical columns (keyword ``categorical``)
    categorical: bool = False


LEARNERS: Registry[LearnerSpec] = Registry("learner")


_FOREST = "sklearn.ensemble.RandomForestRegressor"
#: a scikit-learn forest (out-of-bag rows, its trees) and any tree model the tree PD reads
_SKFOREST = {"oob", "trees", "tree_ensemble"}
_TREES = {"tree_ensemble"}
_REFITS = {"rf": rf_refit, "bagging": bagging_refit}
for _name, _build, _caps, _params in [
    ("rf", rf, _SKFOREST,
     _also(_estimator_params(_FOREST, "bootstrap", "random_state", "n_jobs"), _nodesize)),
    ("bagging", bagging, _SKFOREST,
     _also(_estimator_params(_FOREST, "bootstrap", "random_state", "n_jobs", "max_features"),
           _nodesize)),
    ("gbm", gbm, _TREES, _estimator_params("xgboost.XGBRegressor", "random_state", "n_jobs")),
    ("svm", svm, set(), _estimator_params("imlbench.learners.kernel_svr.BlockRBFSVR")),
    ("svm_e1071", svm_e1071, set(),
     _also(_estimator_params("imlbench.learners.kernel_svr.SigestRBFSVR", "random_state"),
           _coding)),
    ("knn", knn, set(), _estimator_params("sklearn.neighbors.KNeighborsRegressor", "n_jobs")),
    ("lm", lm, {"linear"},
     _also(_estimator_params("sklearn.linear_model.LinearRegression"), _lm_declared)),
    ("tree", tree, _TREES, _estimator_params("sklearn.tree.DecisionTreeRegressor",
                                              "random_state")),
    ("cart", cart, _TREES, _estimator_params("imlbench.learners.compact.RpartTree",
                                              "random_state")),
    ("forest", forest, _TREES, _estimator_params("imlbench.learners.compact.CompactForest",
                                                  "random_state")),
    ("rf_classifier", rf_classifier, set(),
     _estimator_params("imlbench.learners.class_probability.ProbabilityForest", "bootstrap",
                       "random_state", "n_jobs")),
    ("gbm_classifier", gbm_classifier, set(),
     _estimator_params("imlbench.learners.class_probability.EarlyStoppedBoosting",
                       "random_state")),
    ("ols", ols, {"linear"}, _fixed()),
    ("mars", mars, set(), _estimator_params("imlbench.learners.mars.Mars")),
    ("mlp", mlp, set(), _fixed("size", "decay", "maxit", "scale")),
    ("truth", truth, {"oracle"}, _fixed()),
    ("none", none, set(), _fixed()),
]:
    _coded = _name in ("lm", "svm_e1071")
    _declared = {"lm": _lm_declared, "svm_e1071": _coding, "rf": _nodesize,
                 "bagging": _nodesize, "forest": _nodesize}.get(_name, dict)
    LEARNERS.register(_name)(LearnerSpec(_build, frozenset(_caps), _params,
                                         _REFITS.get(_name), _declared, _coded))


def make_learner(name: str, params: dict, random_state: int, threads: int = 1, *,
                 refit: bool = False, categorical: Sequence[int] = ()) -> Any:
    """A fresh, unfitted estimator of the registered learner ``name``; with ``refit``, the
    learner's estimator for refits that are only asked to predict (the same predictions).
    ``categorical``: the 0-based columns of X that hold the integer codes of a categorical
    feature; the learners that take ``coding`` (``lm``, ``svm_e1071``) code them as R's model
    matrix with ``coding: treatment``, the others ignore them."""
    spec = LEARNERS.get(name)
    build = spec.refit if refit and spec.refit is not None else spec.build
    if spec.categorical:
        return build(dict(params), random_state, threads, categorical=tuple(categorical))
    return build(dict(params), random_state, threads)


def fit_quietly(estimator: Any, X: Any, y: Any) -> Any:
    """Fit ``estimator``; iteration-cap warnings (nnet's ``maxit``) are expected and muted."""
    from sklearn.exceptions import ConvergenceWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return estimator.fit(X, y)
