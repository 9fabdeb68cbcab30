"""Every hyperparameter of every learner has a typed declaration
(:mod:`imlbench.learners.declarations`): the declarations cover exactly the names a study file
may set, allow every default and every value the shipped study files give, refuse broken
values with the allowed values, and agree with scikit-learn's own constraints where they are
translated from them.
"""

from __future__ import annotations

import importlib
import math
from numbers import Integral
from pathlib import Path
from typing import Any

import pytest
import yaml
from broken_params import ParamCase, hosts, message, message_holds
from sklearn.utils._param_validation import Interval, RealNotInt, make_constraint

from imlbench import studies as study_packages
from imlbench.config import PROFILES, for_profile
from imlbench.learners import LEARNERS
from imlbench.learners.declarations import translate
from imlbench.learners.networks import mlp
from imlbench.params import Param, ParamError, check

REPO = Path(__file__).resolve().parents[1]
STUDIES = REPO / "config" / "studies"

#: the estimator class of each learner whose declarations are translated from scikit-learn's
#: constraints
TRANSLATED = {
    "rf": "sklearn.ensemble.RandomForestRegressor",
    "bagging": "sklearn.ensemble.RandomForestRegressor",
    "knn": "sklearn.neighbors.KNeighborsRegressor",
    "lm": "sklearn.linear_model.LinearRegression",
    "tree": "sklearn.tree.DecisionTreeRegressor",
    "svm": "imlbench.learners.kernel_svr.BlockRBFSVR",
    "svm_e1071": "imlbench.learners.kernel_svr.SigestRBFSVR",
    "rf_classifier": "imlbench.learners.class_probability.ProbabilityForest",
    "gbm_classifier": "imlbench.learners.class_probability.EarlyStoppedBoosting",
}
#: the estimator class of each learner declared explicitly
EXPLICIT = {
    "cart": "imlbench.learners.compact.RpartTree",
    "forest": "imlbench.learners.compact.CompactForest",
    "mars": "imlbench.learners.mars.Mars",
    "gam": "imlbench.learners.gam.Gam",
    "gbm": "xgboost.XGBRegressor",
}
#: the learner's own parameters, declared where it is registered (not its estimator's)
OWN = {"nodesize", "coding", "aliased"}


def _class(path: str) -> type:
    module, name = path.rsplit(".", 1)
    return getattr(importlib.import_module(module), name)


def _accepts(param: Param, value: Any) -> bool:
    try:
        check(param, value, "x")
    except ParamError:
        return False
    return True


def _learners() -> list[str]:
    study_packages.load(study_packages.packages(), figures=True)
    return LEARNERS.names()


@pytest.fixture(scope="module")
def declared() -> dict[str, dict[str, Param]]:
    return {name: dict(LEARNERS.get(name).declared()) for name in _learners()}


# --- (a) every parameter a study file may set is declared ------------------------------------


def test_every_parameter_is_declared(declared):
    for name, params in declared.items():
        assert set(params) == set(LEARNERS.get(name).params()), name
    assert sum(map(len, declared.values())) == 177  # 6 before: nodesize, coding, aliased
    assert set(TRANSLATED) | set(EXPLICIT) | {"mlp", "ols", "truth", "none"} == set(declared)


# --- (b) defaults and the shipped values pass ------------------------------------------------


def _shipped() -> list[tuple[str, str, str, Any]]:
    """Every learner parameter value of the shipped study files, per profile: (file, learner,
    parameter, value)."""
    out = []
    for path in sorted(STUDIES.rglob("*.yaml")):
        doc = yaml.safe_load(path.read_text()) or {}
        for spec in (doc.get("learners") or {}).values():
            for param, value in (spec.get("params") or {}).items():
                out += [(path.name, spec["learner"], param, for_profile(value, profile))
                        for profile in PROFILES]
    return out


def test_every_shipped_study_value_passes(declared):
    shipped = _shipped()
    assert len({(learner, param) for _, learner, param, _ in shipped}) >= 35, len(shipped)
    for path, learner, param, value in shipped:
        check(declared[learner][param], value, f"{path}: learners.{learner}.params.{param}")


def _nan(value: Any) -> bool:
    return isinstance(value, float) and math.isnan(value)


def test_every_default_passes(declared):
    """The declared defaults (the learner's) and the estimator classes' own defaults pass;
    NaN, xgboost's ``missing``, is the one default a declaration cannot state (``number``
    refuses NaN)."""
    nan = []
    for name, params in declared.items():
        for param, decl in params.items():
            if _nan(decl.default):
                nan.append((name, param))
                continue
            check(decl, decl.default, f"{name}.{param}")
    assert nan == [("gbm", "missing")]
    for name, path in {**TRANSLATED, **EXPLICIT}.items():
        for param, value in _class(path)().get_params(deep=False).items():
            if param in declared[name] and param not in OWN and not _nan(value):
                check(declared[name][param], value, f"{path}.{param}")


def test_the_defaults_are_the_learners():
    """A default is the value the learner builds when the study gives none."""
    decl = {n: LEARNERS.get(n).declared() for n in ("rf", "knn", "gbm", "gbm_classifier",
                                                     "svm_e1071", "tree")}
    assert decl["rf"]["n_estimators"].default == 500  # randomForest's, not scikit-learn's 100
    assert decl["rf"]["max_features"].default == pytest.approx(1 / 3)
    assert decl["knn"]["n_neighbors"].default == 10
    assert decl["gbm"]["learning_rate"].default == 0.05
    assert decl["gbm_classifier"]["scoring"].default == "roc_auc"
    assert decl["svm_e1071"]["gamma"].default == "auto"
    assert decl["tree"]["min_samples_leaf"].default == 5
    net = mlp({}, 0, 1)
    assert (net.hidden_layer_sizes, net.alpha, net.max_iter) == ((20,), 0.0, 100)
    assert hasattr(mlp({"scale": True}, 0, 1), "steps")


# --- (c) broken values are refused with the allowed values -----------------------------------

BROKEN = [
    ("rf", "n_estimators", 0, "an integer >= 1"),
    ("rf", "max_features", "cube", "log2, sqrt or an integer >= 1 or a number > 0 and <= 1"),
    ("rf", "criterion", "gini", "absolute_error, poisson, squared_error"),
    ("bagging", "min_samples_leaf", 0, "an integer >= 1 or a number > 0 and < 1"),
    ("bagging", "oob_score", "yes", "true or false"),
    ("gbm", "learning_rate", 1.5, "a number >= 0 and <= 1 or null"),
    ("gbm", "subsample", 0, "a number > 0 and <= 1 or null"),
    ("gbm", "max_depth", 2.5, "an integer >= 0 or null"),
    ("gbm", "tree_method", "fast", "auto, exact, approx, hist or null"),
    ("gbm", "verbosity", 4, "an integer >= 0 and <= 3 or null"),
    ("gbm", "early_stopping_rounds", 10, "None"),
    ("gbm", "missing", "NA", "a number"),
    ("gbm", "monotone_constraints", {"x1": 2}, "a string or null or a mapping of names to"),
    ("gbm_classifier", "max_bins", 256, "an integer >= 2 and <= 255"),
    ("gbm_classifier", "validation_fraction", 1.0,
     "a number > 0 and < 1 or an integer >= 1 or null"),
    ("gbm_classifier", "early_stopping", "never", "auto or true or false"),
    ("knn", "n_neighbors", 0, "an integer >= 1 or null"),
    ("knn", "metric", "euclid", "braycurtis, canberra"),
    ("knn", "weights", 3, "distance, uniform or null"),
    ("lm", "fit_intercept", "yes", "true or false"),
    ("lm", "tol", -1, "a number >= 0 and < inf"),
    ("lm", "coding", "dummy", "numeric, treatment"),
    ("tree", "splitter", "worst", "best, random"),
    ("tree", "min_weight_fraction_leaf", 0.6, "a number >= 0 and <= 0.5"),
    ("cart", "cp", -0.1, "a number >= 0"),
    ("cart", "max_depth", 31, "an integer >= 1 and <= 30"),
    ("cart", "min_samples_split", 0, "an integer >= 1"),
    ("forest", "min_samples_split", 1, "an integer >= 2"),
    ("forest", "max_features", 1.5, "log2, sqrt or an integer >= 1 or a number > 0 and <= 1"),
    ("forest", "nodesize", 0, "an integer >= 1"),
    ("rf_classifier", "criterion", "squared_error", "entropy, gini, log_loss"),
    ("rf_classifier", "class_weight", "even", "balanced, balanced_subsample or a mapping"),
    ("svm", "C", 0, "a number > 0"),
    ("svm", "kernel", "gauss", "linear, poly, precomputed, rbf, sigmoid"),
    ("svm", "gamma", "sigest", "auto, scale or a number >= 0 and < inf"),  # svm_e1071's only
    ("svm", "coef0", math.inf, "a number > -inf and < inf"),
    ("svm_e1071", "epsilon", -0.1, "a number >= 0 and < inf"),
    ("svm_e1071", "gamma", "sig", "auto, scale, sigest or a number >= 0 and < inf"),
    ("mars", "nk", 0, "an integer >= 1 and <= 1000 or null"),
    ("mars", "nk", 1001, "an integer >= 1 and <= 1000 or null"),
    ("mars", "thresh", 1, "a number >= 0 and < 1"),
    ("mars", "penalty", -1, "a number >= 0 and <= 1000"),  # earth's -1: not implemented
    ("mars", "minspan", -1, "an integer >= 0"),
    ("gam", "n_bases", 3, "an integer >= 4"),
    ("gam", "lam", math.inf, "a number > 0 and < inf"),
    ("mlp", "size", 0, "an integer >= 1"),
    ("mlp", "decay", -0.01, "a number >= 0 and < inf"),
    ("mlp", "maxit", 10.5, "an integer >= 1"),
    ("mlp", "scale", "yes", "true or false"),
]


@pytest.mark.parametrize("learner, param, value, allowed", BROKEN,
                         ids=[f"{c[0]}-{c[1]}-{c[2]!r}" for c in BROKEN])
def test_a_broken_value_is_refused(declared, learner, param, value, allowed):
    key = f"learners.{learner}.params.{param}"
    with pytest.raises(ParamError) as err:
        check(declared[learner][param], value, key)
    assert err.value.key == key
    assert f"allowed: {allowed}" in str(err.value), str(err.value)
    assert f"allowed: {declared[learner][param].describe()}" in str(err.value)


def test_every_learner_has_a_broken_case(declared):
    assert {c[0] for c in BROKEN} == set(declared) - {"ols", "truth", "none"}


def _case(learner: str, param: str, value: Any, fragments: tuple[str, ...],
          at_param: bool = True) -> ParamCase:
    """One value of a shipped study's learner entry of ``learner`` (its host) broken."""
    host = hosts()[("learner", learner)]
    key = f"{host.key}.{param}" if at_param else host.key
    return ParamCase("learner", learner, param, "test", host.study, (*host.at, param), value,
                     key, fragments)


def test_the_validator_names_the_key_and_the_allowed_values():
    case = _case("gbm", "learning_rate", 1.5,
                 ("1.5 is out of range", "allowed: a number >= 0 and <= 1 or null"))
    msg = message(case)
    assert message_holds(case, msg), msg


def test_scikit_learns_check_follows_the_declarations():
    """An integer where scikit-learn wants a share (a real that is no integer) passes the
    declaration (``number`` takes integers); scikit-learn's own check, run after it, refuses
    it."""
    assert _accepts(LEARNERS.get("tree").declared()["min_samples_split"], 1)
    case = _case("tree", "min_samples_split", 1,
                 ("invalid hyperparameters", "'min_samples_split' parameter", "Got 1"),
                 at_param=False)
    msg = message(case)
    assert message_holds(case, msg), msg


# --- (d) the translations agree with scikit-learn --------------------------------------------

#: values a YAML file can give, tried on every translated parameter
POOL: list[Any] = [None, True, False, -2, -1, 0, 1, 2, 3, 30, 255, 256, 1000, 2**32, 0.0, 0.5,
                   1.0, 1.5, -0.5, 1e-9, math.inf, -math.inf, math.nan, "", "auto", "sqrt",
                   "log2", "balanced", "from_dtype", "pairwise", "rbf", "sigest", "roc_auc",
                   "squared_error", "no_such_name", [], [1, 0, -1], [[0, 1]], {}, {"a": 1}]


def _yaml_value(value: Any) -> bool:
    return value is None or isinstance(value, bool | int | float | str | list | dict)


def _sklearn_accepts(constraints: list, value: Any) -> bool:
    return any(make_constraint(c).is_satisfied_by(value) for c in constraints)


def _known_gap(constraints: list, value: Any) -> str | None:
    """Why a declaration and scikit-learn may disagree on ``value`` (module doc of
    :mod:`imlbench.learners.declarations`), or None."""
    made = [make_constraint(c) for c in constraints]
    if isinstance(value, bool):
        return "a boolean is no number here"
    if isinstance(value, int) and any(isinstance(c, Interval) and c.type is RealNotInt
                                      and value in c for c in made):
        return "an integer in a range of reals that are no integers"
    if isinstance(value, dict) and "array-like" in constraints:
        return "scikit-learn's array-like takes anything with a length"
    return None


def _candidates(constraints: list) -> list[Any]:
    """:data:`POOL`, each option of the constraints, and their bounds and neighbours."""
    out = list(POOL)
    for c in map(make_constraint, constraints):
        out += sorted(getattr(c, "options", ()), key=str)
        if isinstance(c, Interval):
            for bound in (c.left, c.right):
                if bound is not None:
                    step = 1 if c.type is Integral else 1e-6
                    out += [bound, bound - step, bound + step, float(bound)]
    return [v for v in out if _yaml_value(v)]


@pytest.mark.parametrize("learner", sorted(TRANSLATED))
def test_a_translation_agrees_with_scikit_learn(declared, learner):
    constraints = _class(TRANSLATED[learner])._parameter_constraints
    gaps, compared = set(), 0
    for param, decl in declared[learner].items():
        if param in OWN:
            continue
        for value in _candidates(constraints[param]):
            ours, theirs = _accepts(decl, value), _sklearn_accepts(constraints[param], value)
            compared += 1
            if ours != theirs:
                why = _known_gap(constraints[param], value)
                assert why, f"{learner}.{param} = {value!r}: ours {ours}, scikit-learn {theirs}"
                gaps.add((param, why))
    assert compared >= 40 * (len(declared[learner]) - len(OWN & set(declared[learner]))), compared
    if learner in ("rf", "bagging", "tree", "rf_classifier"):  # min_samples_split: 1
        assert ("min_samples_split", "an integer in a range of reals that are no integers"
                ) in gaps


def test_the_scikit_learn_vocabulary():
    """The constraints no estimator of ours uses today translate too."""
    seed = translate(["random_state"], None)
    assert all(_accepts(seed, v) for v in (None, 0, 2**32 - 1))
    assert not any(_accepts(seed, v) for v in (-1, 2**32, "a", 1.5))
    folds = translate(["cv_object"], 5)
    assert all(_accepts(folds, v) for v in (None, 2, [[0, 1], [2, 3]]))
    assert not any(_accepts(folds, v) for v in (1, "five"))
    only_null = translate([callable, None], None)  # a study file can give only null
    assert _accepts(only_null, None) and not _accepts(only_null, "print")
    assert translate(["sparse matrix", "array-like"], None).kind == "list"
    with pytest.raises(ValueError, match="no value a study file can give"):
        translate([callable], None)
    with pytest.raises(TypeError, match="no translation"):
        translate(["nan"], None)
