"""Declared parameters (:mod:`imlbench.params`): what each declaration accepts and rejects, the
key and allowed values its errors name, and the defaults it fills."""

from __future__ import annotations

import pytest

from imlbench.explain.samplers import SAMPLERS
from imlbench.params import (
    REQUIRED,
    ParamError,
    check_all,
    choice,
    either,
    feature_name,
    feature_names,
    flag,
    integer,
    items,
    named_values,
    number,
    registered,
    study_name,
    table,
    with_defaults,
)

DECLARED = {
    "n": integer(1, minimum=1),
    "share": number(0.5, minimum=0, maximum=1),
    "on": flag(True),
    "how": choice("mean", ("mean", "median")),
    "cut": items(number(), length=2, default=[0.1, 0.9]),
    "grid": table({"kind": choice("a", ("a", "b")), "size": integer(minimum=1)}, {}),
    "groups": table(value=items(feature_name()), default={}),
    "width": either(number(minimum=0), choice(None, ("auto",)), default="auto"),
    "sampler": registered(SAMPLERS, "permutation"),
    "theory": study_name("methods", None),
    "need": integer(REQUIRED),
}


@pytest.mark.parametrize("given", [
    {"need": 1},
    {"need": 1, "n": 3, "share": 1, "on": False, "how": "median", "cut": [0, 1],
     "grid": {"kind": "b"}, "groups": {"pair": ["x1", "x2"]}, "width": 2.5,
     "sampler": "subgroups", "theory": "lm_theory"},
    {"need": 1, "width": "auto", "grid": {}},
])
def test_allowed_values_pass(given):
    check_all(DECLARED, given)


@pytest.mark.parametrize("given, key, fragment", [
    ({"need": 1, "n": "many"}, "n", "allowed: an integer >= 1"),
    ({"need": 1, "n": True}, "n", "allowed: an integer >= 1"),  # a flag is not a number
    ({"need": 1, "n": 0}, "n", "out of range; allowed: an integer >= 1"),
    ({"need": 1, "share": 1.5}, "share", "allowed: a number >= 0 and <= 1"),
    ({"need": 1, "on": "yes"}, "on", "allowed: true or false"),
    ({"need": 1, "how": "mode"}, "how", "allowed: mean, median"),
    ({"need": 1, "cut": [0.1]}, "cut", "has 1 items; allowed: a list of 2 items"),
    ({"need": 1, "cut": [0.1, "x"]}, "cut[1]", "allowed: a number"),
    ({"need": 1, "grid": {"kind": "c"}}, "grid.kind", "allowed: a, b"),
    ({"need": 1, "grid": {"step": 1}}, "grid", "unknown parameter(s) step; allowed: kind, size"),
    ({"need": 1, "groups": {"pair": "x1"}}, "groups.pair", "allowed: a list of items"),
    ({"need": 1, "width": -1}, "width", "allowed: a number >= 0 or auto"),
    ({"need": 1, "sampler": "ctree"}, "sampler", "allowed: exact, gaussian, impute_rf"),
    ({"need": 1, "extra": 1}, "", "unknown parameter(s) extra of m; allowed: cut, grid"),
    # YAML reads the key `off:` as the boolean false
    ({"need": 1, False: 1}, "", "unknown parameter(s) False of m; allowed: cut, grid"),
    ({}, "", "parameter(s) need of m must be given; allowed: need: an integer"),
])
def test_a_wrong_value_names_its_key_and_the_allowed_values(given, key, fragment):
    with pytest.raises(ParamError) as err:
        check_all(DECLARED, given, owner="m")
    assert err.value.key == key
    assert fragment in err.value.message


def test_nested_keys_are_optional_and_a_prefix_names_the_whole_path():
    check_all({"grid": DECLARED["grid"]}, {"grid": {"size": 3}})
    with pytest.raises(ParamError) as err:
        check_all({"grid": DECLARED["grid"]}, {"grid": {"size": 0}}, "methods.pdp.params")
    assert err.value.key == "methods.pdp.params.grid.size"


def test_fields_may_depend_on_the_sibling_parameters():
    declared = {"sampler": registered(SAMPLERS), "sampler_params": table(
        lambda p: SAMPLERS.get(p["sampler"]).params, {})}
    check_all(declared, {"sampler": "subgroups", "sampler_params": {"max_depth": 2}})
    with pytest.raises(ParamError, match="unknown parameter"):
        check_all(declared, {"sampler": "permutation", "sampler_params": {"max_depth": 2}})


def test_defaults_are_filled_as_copies_and_nested_mappings_are_not_filled():
    filled = with_defaults(DECLARED, {"need": 1, "grid": {"kind": "b"}})
    assert filled["n"] == 1 and filled["cut"] == [0.1, 0.9] and filled["grid"] == {"kind": "b"}
    assert "need" in filled and "theory" in filled and filled["theory"] is None
    filled["cut"].append(1.0)
    assert with_defaults(DECLARED, {"need": 1})["cut"] == [0.1, 0.9]


def test_named_values_finds_feature_and_method_names_at_any_depth():
    assert named_values(DECLARED["groups"], {"a": ["x1", "x2"], "b": ["x3"]}, "features",
                        True) == ["x1", "x2", "x3"]
    assert named_values(feature_names(), ["x1"], "features", True) == ["x1"]
    assert named_values(feature_names(), None, "features", True) == []
    assert named_values(DECLARED["theory"], "lm_theory", "refers", "methods") == ["lm_theory"]
    assert named_values(DECLARED["n"], 3, "features", True) == []
