"""Learners by name: each builds a scikit-learn estimator (or pipeline) from study parameters.

Threads come from the caller (Snakemake's ``threads:``), never from a hidden default.
Hyperparameters live in the study file; the defaults here mirror the R functions
the papers used where the paper is silent (``randomForest``, ``nnet``). Each learner
declares the hyperparameters a study file may set (:attr:`LearnerSpec.params`): those of
the estimator it builds, less the ones the workflow sets itself (seed, threads), and its own
ones (``coding`` of ``lm`` and ``svm_e1071``, how they code the categorical features,
:mod:`imlbench.learners.model_matrix`; ``aliased`` of ``lm``, how it treats aliased columns,
:mod:`imlbench.learners.aliased`; ``nodesize`` of the forests, R's node-size rule counted over
bootstrap draws, :mod:`imlbench.learners.nodesize`; ``mlp``'s nnet parameters,
:data:`imlbench.learners.networks.PARAMS`). Each of them has a typed declaration
(:attr:`LearnerSpec.declared`): the learner's own, and its estimator's from
:mod:`imlbench.learners.declarations`.
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
from imlbench.learners.gam import gam
from imlbench.learners.linear import lm, ols
from imlbench.learners.mars import mars
from imlbench.learners.neighbours import knn
from imlbench.learners.networks import PARAMS as MLP_PARAMS
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


def _estimator_declared(path: str, exclude: tuple[str, ...], build: Callable[..., Any],
                        own: Callable[[], Mapping[str, Param]]
                        ) -> Callable[[], dict[str, Param]]:
    """The declarations of the parameters of the estimator class at ``path`` (less
    ``exclude`` and the learner's ``own``, :mod:`.declarations`; its defaults as ``build`` sets
    them) and the learner's ``own``; looked up only when asked."""

    def declared() -> dict[str, Param]:
        from imlbench.learners.declarations import estimator_declarations

        mine = own()
        names = [n for n in _estimator_params(path, *exclude)() if n not in mine]
        return {**estimator_declarations(path, names, build), **mine}

    return declared


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


def _mlp_declared() -> dict[str, Param]:
    """``mlp``'s parameters, R ``nnet``'s (:data:`.networks.PARAMS`)."""
    return dict(MLP_PARAMS)


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
    #: the typed declarations of ``params`` (the learner's own and its estimator's), checked
    #: by the validator with their allowed values (a function, as ``params``)
    declared: Callable[[], Mapping[str, Param]] = field(default=dict)
    #: ``build`` takes the indices of the categorical columns (keyword ``categorical``)
    categorical: bool = False


LEARNERS: Registry[LearnerSpec] = Registry("learner")


_FOREST = "sklearn.ensemble.RandomForestRegressor"
#: a scikit-learn forest (out-of-bag rows, its trees) and any tree model the tree PD reads
_SKFOREST = {"oob", "trees", "tree_ensemble"}
_TREES = {"tree_ensemble"}
_REFITS = {"rf": rf_refit, "bagging": bagging_refit}
#: name, constructor, capabilities, the estimator class whose parameters a study file may set
#: (module.Class) and those it may not (the workflow's, or fixed by the learner), the learner's
#: own declared parameters
for _name, _build, _caps, _estimator, _exclude, _own in [
    ("rf", rf, _SKFOREST, _FOREST, ("bootstrap", "random_state", "n_jobs"), _nodesize),
    ("bagging", bagging, _SKFOREST, _FOREST,
     ("bootstrap", "random_state", "n_jobs", "max_features"), _nodesize),
    ("gbm", gbm, _TREES, "xgboost.XGBRegressor", ("random_state", "n_jobs"), None),
    ("svm", svm, set(), "imlbench.learners.kernel_svr.BlockRBFSVR", (), None),
    ("svm_e1071", svm_e1071, set(), "imlbench.learners.kernel_svr.SigestRBFSVR",
     ("random_state",), _coding),
    ("knn", knn, set(), "sklearn.neighbors.KNeighborsRegressor", ("n_jobs",), None),
    ("lm", lm, {"linear"}, "sklearn.linear_model.LinearRegression", (), _lm_declared),
    ("tree", tree, _TREES, "sklearn.tree.DecisionTreeRegressor", ("random_state",), None),
    ("cart", cart, _TREES, "imlbench.learners.compact.RpartTree", ("random_state",), None),
    ("forest", forest, _TREES, "imlbench.learners.compact.CompactForest", ("random_state",),
     _nodesize),
    ("rf_classifier", rf_classifier, set(),
     "imlbench.learners.class_probability.ProbabilityForest",
     ("bootstrap", "random_state", "n_jobs"), None),
    ("gbm_classifier", gbm_classifier, set(),
     "imlbench.learners.class_probability.EarlyStoppedBoosting", ("random_state",), None),
    ("ols", ols, {"linear"}, None, (), None),
    ("mars", mars, set(), "imlbench.learners.mars.Mars", (), None),
    ("gam", gam, set(), "imlbench.learners.gam.Gam", (), None),
    ("mlp", mlp, set(), None, (), _mlp_declared),
    ("truth", truth, {"oracle"}, None, (), None),
    ("none", none, set(), None, (), None),
]:
    _mine = _own or dict
    _names = _estimator_params(_estimator, *_exclude) if _estimator else _fixed()
    _params = _also(_names, _mine) if _own else _names
    _declared = _estimator_declared(_estimator, _exclude, _build, _mine) if _estimator else _mine
    _coded = _name in ("lm", "svm_e1071")
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
