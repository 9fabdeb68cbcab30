"""The typed declarations (:class:`imlbench.params.Param`) of the hyperparameters of the
learners' estimators, which the validator checks before any job runs.

- A scikit-learn estimator (and our subclasses that keep its ``_parameter_constraints``, e.g.
  :class:`.class_probability.ProbabilityForest`, :class:`.kernel_svr.SigestRBFSVR`) is
  declared by translating its constraints (:func:`translate`): an ``Interval`` of integers or
  reals gives an integer or a number with its bounds (an open bound is exclusive, an open
  unbounded side refuses infinity), ``StrOptions`` a choice, ``"boolean"`` a flag, ``None``
  null, several constraints the forms of :func:`imlbench.params.either`. A constraint that no
  YAML value can meet (a callable, an object with given methods, a sparse matrix, an instance
  of a class such as a loss or a criterion) is left out: a study file cannot give one.
- Our own estimators without constraints and xgboost's ``XGBRegressor`` are declared
  explicitly here (:data:`EXPLICIT`): R's ranges where the estimator imitates R (rpart's
  ``cp``, ``maxdepth``; earth's ``nk``, ``thresh``, ``penalty``), pygam's where it wraps
  pygam (the GAM's ``n_bases``, ``lam``, ``max_iter``), xgboost's documented ranges
  (``doc/parameter.rst`` of xgboost 3.2; the C++ parameter bounds where the document states
  none).

The default of a declaration is the estimator's default as the learner builds it: the
parameter of the estimator the learner builds from no study parameters (``get_params``),
else the estimator class's own (e.g. ``rf``'s 500 trees, not ``RandomForestRegressor``'s
100).

What a declaration cannot state: ``number`` takes integers too, so an integer where
scikit-learn asks for a real that is not an integer (``RealNotInt``: ``min_samples_split: 1``,
which scikit-learn reads as a count below its minimum 2, not as the share 1.0) passes the
declaration; the validator runs scikit-learn's own check after it. ``number`` refuses NaN, so
xgboost's ``missing`` (default NaN) cannot be given as NaN; and a boolean is no number here,
where scikit-learn takes ``True`` as the integer 1.
"""

from __future__ import annotations

import dataclasses
import importlib
import math
from collections.abc import Callable, Mapping, Sequence
from numbers import Integral, Real
from typing import Any

from sklearn.utils._param_validation import (
    HasMethods,
    Interval,
    Options,
    _ArrayLikes,
    _Booleans,
    _Callables,
    _CVObjects,
    _InstancesOf,
    _NoneConstraint,
    _RandomStates,
    _SparseMatrices,
    _VerboseHelper,
    make_constraint,
)

from imlbench.learners.gam import INTERACTION_ORDERS, MIN_SPLINES
from imlbench.params import (
    REQUIRED,
    Param,
    choice,
    either,
    flag,
    integer,
    items,
    number,
    table,
    text,
)

#: a list of any items (scikit-learn's ``"array-like"``, ``list``, ``tuple``)
ANY_LIST = Param("list")
#: scikit-learn's largest seed (``"random_state"``: an integer in [0, 2**32 - 1] or null)
MAX_SEED = 2**32 - 1


def _with(param: Param, default: Any, nullable: bool = False) -> Param:
    """``param`` with ``default``, and null allowed as well when ``nullable``."""
    return dataclasses.replace(param, default=default, nullable=param.nullable or nullable)


def _one_of(forms: Sequence[Param], default: Any, nullable: bool) -> Param:
    """The declaration of a value of any of ``forms`` (or null, when ``nullable``)."""
    if len(forms) == 1:
        return _with(forms[0], default, nullable)
    if forms:
        return _with(either(*forms), default, nullable)
    if nullable:  # e.g. a callable or None: a study file can give only null
        return choice(default, (None,))
    raise ValueError("no value a study file can give meets these constraints")


def _interval(constraint: Interval) -> Param:
    """An ``Interval`` of scikit-learn: an integer or a number with its bounds."""
    low, high = constraint.left, constraint.right
    closed_low = constraint.closed in ("left", "both")
    closed_high = constraint.closed in ("right", "both")
    if constraint.type is Integral:  # open bounds of integers: the next integer inside
        return integer(minimum=None if low is None else low + (0 if closed_low else 1),
                       maximum=None if high is None else high - (0 if closed_high else 1))
    # Real and RealNotInt (integers are numbers here); an open unbounded side refuses infinity
    return number(minimum=low if closed_low else None,
                  above=None if closed_low else (-math.inf if low is None else low),
                  maximum=high if closed_high else None,
                  below=None if closed_high else (math.inf if high is None else high))


def _instances(cls: type) -> list[Param]:
    """The form of an instance of ``cls``: none when no YAML value is one (a loss, a criterion,
    a distance metric)."""
    for base, form in ((bool, flag()), (Integral, integer()), (Real, number()),
                       (str, text()), (Mapping, table()), (list, ANY_LIST), (tuple, ANY_LIST)):
        if issubclass(cls, base):
            return [form]
    return []


def _forms(constraint: Any) -> list[Param]:
    """The forms a YAML value can take to meet one scikit-learn constraint (``make_constraint``
    applied; ``None`` and ``StrOptions`` are read by :func:`translate`)."""
    if isinstance(constraint, Interval):
        return [_interval(constraint)]
    if isinstance(constraint, _Booleans):
        return [flag()]
    if isinstance(constraint, _VerboseHelper):  # an integer >= 0 or a boolean
        return [integer(minimum=0), flag()]
    if isinstance(constraint, _RandomStates):  # (a RandomState instance is no YAML value)
        return [integer(minimum=0, maximum=MAX_SEED, nullable=True)]
    if isinstance(constraint, _CVObjects):  # a number of folds, the folds, or null
        return [integer(minimum=2, nullable=True), ANY_LIST]
    if isinstance(constraint, _ArrayLikes):
        return [ANY_LIST]
    if isinstance(constraint, _InstancesOf):
        return _instances(constraint.type)
    if isinstance(constraint, _Callables | HasMethods | _SparseMatrices):
        return []
    raise TypeError(f"no translation of scikit-learn's constraint {constraint}")


def translate(constraints: Sequence[Any], default: Any) -> Param:
    """The declaration of a parameter of scikit-learn's ``constraints`` (the list of one
    parameter of an estimator's ``_parameter_constraints``), with ``default`` (module doc). The
    options of every ``StrOptions`` and ``Options`` become one choice, the first form."""
    options: list[Any] = []
    forms: list[Param] = []
    nullable = False
    for constraint in map(make_constraint, constraints):
        if isinstance(constraint, _NoneConstraint):
            nullable = True
        elif isinstance(constraint, Options):
            options += sorted(set(constraint.options) - set(options), key=str)
        else:
            forms += [f for f in _forms(constraint) if f not in forms]
    if options:
        forms.insert(0, choice(REQUIRED, tuple(options)))
    return _one_of(forms, default, nullable)


def from_constraints(constraints: Mapping[str, Sequence[Any]], names: Sequence[str],
                     defaults: Mapping[str, Any]) -> dict[str, Param]:
    """The declarations of the parameters ``names`` of an estimator whose scikit-learn
    constraints are ``constraints``, with their ``defaults``."""
    return {name: translate(constraints[name], defaults[name]) for name in names}


# --- explicit declarations -----------------------------------------------------------------


def _features_per_split(default: Any) -> Param:
    """``max_features`` as :func:`.compact.features_per_split` reads it: a number of features,
    a share of them, ``sqrt``, ``log2`` or null (every feature)."""
    return _with(either(choice(REQUIRED, ("log2", "sqrt")), integer(minimum=1),
                        number(above=0, maximum=1)), default, nullable=True)


def rpart_tree(defaults: Mapping[str, Any]) -> dict[str, Param]:
    """:class:`.compact.RpartTree`, with ``rpart.control``'s ranges: ``cp`` a share of the
    root's residual sum of squares, ``minsplit`` and ``minbucket`` numbers of rows, ``maxdepth``
    in [1, 30] (rpart stops at 30)."""
    return {"cp": number(defaults["cp"], minimum=0),
            "min_samples_split": integer(defaults["min_samples_split"], minimum=1),
            "min_samples_leaf": integer(defaults["min_samples_leaf"], minimum=1),
            "max_depth": integer(defaults["max_depth"], minimum=1, maximum=30),
            "max_features": _features_per_split(defaults["max_features"])}


def compact_forest(defaults: Mapping[str, Any]) -> dict[str, Param]:
    """:class:`.compact.CompactForest`: the ranges of ``RandomForestRegressor``, whose trees it
    draws, for the integer counts it passes to scikit-learn's tree builder (no shares of rows);
    ``nodesize`` is the learner's own."""
    return {"n_estimators": integer(defaults["n_estimators"], minimum=1),
            "max_features": _features_per_split(defaults["max_features"]),
            "min_samples_split": integer(defaults["min_samples_split"], minimum=2),
            "min_samples_leaf": integer(defaults["min_samples_leaf"], minimum=1),
            "max_depth": integer(defaults["max_depth"], minimum=1, nullable=True)}


def mars(defaults: Mapping[str, Any]) -> dict[str, Param]:
    """:class:`.mars.Mars`, with earth's checks (``CheckForwardPassArgs``, earth 5.3): ``nk`` in [1,
    1000] (null: earth's default), ``thresh`` in [0, 1), ``penalty`` in [0, 1000] (earth's -1,
    no penalty at all, is not implemented: refused), ``minspan`` and ``endspan`` 0 (earth's
    automatic value) or a number of rows (earth's negative ``minspan``, a number of knots, is
    not implemented: refused)."""
    return {"nk": integer(defaults["nk"], minimum=1, maximum=1000, nullable=True),
            "thresh": number(defaults["thresh"], minimum=0, below=1),
            "penalty": number(defaults["penalty"], minimum=0, maximum=1000),
            "minspan": integer(defaults["minspan"], minimum=0),
            "endspan": integer(defaults["endspan"], minimum=0)}


def gam(defaults: Mapping[str, Any]) -> dict[str, Param]:
    """:class:`.gam.Gam`, with pygam's checks (pygam 0.12): ``n_bases`` at least 4 (a cubic
    spline's ``n_splines`` must exceed its order 3), ``lam`` a penalty > 0 and finite (pygam
    takes 0 as well, no smoothing at all: refused, the learner is a penalised GAM),
    ``interaction_order`` 1 or 2, ``max_iter`` at least 1."""
    return {"n_bases": integer(defaults["n_bases"], minimum=MIN_SPLINES),
            "lam": number(defaults["lam"], above=0, below=math.inf),
            "interaction_order": choice(defaults["interaction_order"], INTERACTION_ORDERS),
            "max_iter": integer(defaults["max_iter"], minimum=1)}


#: xgboost's learning objectives (``objective``: those of its parameter document, and the
#: deprecated ``reg:linear`` it still takes)
XGB_OBJECTIVES = (
    "reg:squarederror", "reg:squaredlogerror", "reg:logistic", "reg:pseudohubererror",
    "reg:absoluteerror", "reg:quantileerror", "reg:gamma", "reg:tweedie", "reg:linear",
    "binary:logistic", "binary:logitraw", "binary:hinge", "count:poisson", "survival:cox",
    "survival:aft", "multi:softmax", "multi:softprob", "rank:ndcg", "rank:map", "rank:pairwise")
#: the feature types of an xgboost DMatrix (``feature_types``)
XGB_FEATURE_TYPES = ("c", "float", "i", "int", "q")


def _words(default: Any, options: tuple[str, ...]) -> Param:
    """One of ``options`` or null (xgboost's default)."""
    return choice(default, options, nullable=True)


def _share(default: Any) -> Param:
    """A share in (0, 1] or null (xgboost's default)."""
    return number(default, above=0, maximum=1, nullable=True)


def _at_least(default: Any, minimum: float, kind: Callable[..., Param] = number) -> Param:
    """A number (or with ``kind`` :func:`integer`, an integer) >= ``minimum``, or null."""
    return kind(default, minimum=minimum, nullable=True)


def xgboost_regressor(defaults: Mapping[str, Any]) -> dict[str, Param]:
    """``xgboost.XGBRegressor`` (xgboost 3.2): null is xgboost's default for each. Python
    objects (callbacks, callable objectives and metrics, tuples) are no YAML values: what a
    study file can give is declared. ``early_stopping_rounds`` must stay null: the learner fits
    without a validation set, which xgboost's early stopping needs. Nested names in
    ``interaction_constraints`` and the keys of ``monotone_constraints`` are feature names
    (xgboost maps them to columns); a string is xgboost's own notation, e.g. ``"(1,-1)"``."""
    d = defaults
    return {
        "objective": _words(d["objective"], XGB_OBJECTIVES),
        "base_score": _with(either(number(nullable=True), items(number())), d["base_score"]),
        "booster": _words(d["booster"], ("gbtree", "gblinear", "dart")),
        "callbacks": choice(d["callbacks"], (None,)),
        "colsample_bylevel": _share(d["colsample_bylevel"]),
        "colsample_bynode": _share(d["colsample_bynode"]),
        "colsample_bytree": _share(d["colsample_bytree"]),
        "device": text(d["device"], nullable=True),  # cpu, cuda, cuda:<ordinal>, gpu, ...
        "early_stopping_rounds": choice(d["early_stopping_rounds"], (None,)),
        "enable_categorical": flag(d["enable_categorical"]),
        "eval_metric": _with(either(text(nullable=True), items(text())), d["eval_metric"]),
        "feature_types": items(choice(REQUIRED, XGB_FEATURE_TYPES), d["feature_types"],
                               nullable=True),
        # >= 0 and finite: xgboost's check (``WeightsCheck``), looser than its docstring's > 0
        "feature_weights": items(number(minimum=0, below=math.inf), d["feature_weights"],
                                 nullable=True),
        "gamma": _at_least(d["gamma"], 0),
        "grow_policy": _words(d["grow_policy"], ("depthwise", "lossguide")),
        "importance_type": _words(d["importance_type"],
                                  ("gain", "weight", "cover", "total_gain", "total_cover")),
        "interaction_constraints": _with(either(text(nullable=True), items(items(text()))),
                                         d["interaction_constraints"]),
        "learning_rate": number(d["learning_rate"], minimum=0, maximum=1, nullable=True),
        "max_bin": _at_least(d["max_bin"], 2, integer),
        "max_cat_threshold": _at_least(d["max_cat_threshold"], 1, integer),
        "max_cat_to_onehot": _at_least(d["max_cat_to_onehot"], 1, integer),
        "max_delta_step": _at_least(d["max_delta_step"], 0),
        "max_depth": _at_least(d["max_depth"], 0, integer),
        "max_leaves": _at_least(d["max_leaves"], 0, integer),
        "min_child_weight": _at_least(d["min_child_weight"], 0),
        "missing": number(d["missing"]),  # NaN, the default, cannot be given (module doc)
        "monotone_constraints": _with(either(text(nullable=True),
                                             table(value=choice(REQUIRED, (-1, 0, 1)))),
                                      d["monotone_constraints"]),
        "multi_strategy": _words(d["multi_strategy"],
                                 ("one_output_per_tree", "multi_output_tree")),
        "n_estimators": _at_least(d["n_estimators"], 0, integer),
        "num_parallel_tree": _at_least(d["num_parallel_tree"], 1, integer),
        "reg_alpha": _at_least(d["reg_alpha"], 0),
        "reg_lambda": _at_least(d["reg_lambda"], 0),
        "sampling_method": _words(d["sampling_method"], ("uniform", "gradient_based")),
        "scale_pos_weight": _at_least(d["scale_pos_weight"], 0),
        "subsample": _share(d["subsample"]),
        "tree_method": _words(d["tree_method"], ("auto", "exact", "approx", "hist")),
        "validate_parameters": _with(flag(), d["validate_parameters"], nullable=True),
        "verbosity": integer(d["verbosity"], minimum=0, maximum=3, nullable=True),
    }


#: the estimators declared here rather than from scikit-learn constraints, by module.Class
EXPLICIT: dict[str, Callable[[Mapping[str, Any]], dict[str, Param]]] = {
    "imlbench.learners.compact.RpartTree": rpart_tree,
    "imlbench.learners.compact.CompactForest": compact_forest,
    "imlbench.learners.mars.Mars": mars,
    "imlbench.learners.gam.Gam": gam,
    "xgboost.XGBRegressor": xgboost_regressor,
}


# --- a learner's estimator -----------------------------------------------------------------


def final_estimator(estimator: Any) -> Any:
    """The estimator inside pipelines (their last step) and target transformers (their
    regressor)."""
    while hasattr(estimator, "steps") or hasattr(estimator, "regressor"):
        estimator = (estimator.steps[-1][1] if hasattr(estimator, "steps")
                     else estimator.regressor)
    return estimator


def learner_defaults(cls: type, build: Callable[..., Any]) -> dict[str, Any]:
    """The parameters of estimator class ``cls`` as learner ``build`` sets them when a study
    gives none (its final estimator's ``get_params``), else ``cls``'s defaults."""
    built = final_estimator(build({}, 0, 1)).get_params(deep=False)
    return {name: built.get(name, value) for name, value in cls().get_params(deep=False).items()}


def estimator_declarations(path: str, names: Sequence[str], build: Callable[..., Any]
                           ) -> dict[str, Param]:
    """The declarations of the parameters ``names`` of the estimator class at ``path``
    (module.Class) that learner ``build`` builds: explicit (:data:`EXPLICIT`) or translated
    from the class's scikit-learn constraints, with the learner's defaults."""
    module, name = path.rsplit(".", 1)
    cls = getattr(importlib.import_module(module), name)
    defaults = learner_defaults(cls, build)
    if path in EXPLICIT:
        declared = EXPLICIT[path](defaults)
        return {n: declared[n] for n in names}
    return from_constraints(cls._parameter_constraints, names, defaults)
