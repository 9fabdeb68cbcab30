"""Every registered DGP declares the parameters a study file may give it: the declarations
name the constructor's parameters with its defaults, and :func:`imlbench.dgp.base.make_dgp`
refuses a value they refuse before the constructor runs (the broken cases generated from them:
``tests/test_broken_params.py``)."""

from __future__ import annotations

import inspect

import pytest

from imlbench import studies as study_packages
from imlbench.dgp.base import DGPS, make_dgp
from imlbench.params import REQUIRED, ParamError

study_packages.load(study_packages.packages())

#: constructor parameters that are no study-file parameter: set by the DGP itself
INTERNAL = {("extrapolation.gaussian_noise_features", "anchors")}  # drawn per data set


@pytest.mark.parametrize("name", DGPS.names())
def test_the_declarations_are_the_constructor_parameters(name):
    cls = DGPS.get(name)
    signature = {p.name: p for p in inspect.signature(cls).parameters.values()
                 if p.kind is not p.VAR_KEYWORD}
    declared = cls.declared({})
    assert set(declared) == set(signature) - {p for d, p in INTERNAL if d == name}
    for key, param in declared.items():
        default = signature[key].default
        assert param.default == (REQUIRED if default is inspect.Parameter.empty else default), key


def test_make_dgp_refuses_a_declared_value_before_the_constructor():
    with pytest.raises(ParamError, match=r"^noise_sd: -1 is out of range; allowed: a number "
                                         r">= 0$"):
        make_dgp("stratpd.weather", {"noise_sd": -1})
    with pytest.raises(ParamError, match=r"^sd: unknown parameter 'sd' of DGP 'stratpd.weather'; "
                                         r"allowed: noise_sd$"):
        make_dgp("stratpd.weather", {"sd": 1.0})


def test_formula_declares_a_number_for_each_of_its_constants():
    spec = {"features": {"x1": {"law": "uniform", "low": 0.0, "high": 1.0}}, "f": "b * x1",
            "constants": {"b": 2.0}}
    assert make_dgp("formula", {**spec, "b": 3.0}).constants == {"b": 3.0}
    with pytest.raises(ParamError, match=r"^b: 'three' is not allowed; allowed: a number$"):
        make_dgp("formula", {**spec, "b": "three"})
    with pytest.raises(ParamError, match=r"^c: unknown parameter 'c' of DGP 'formula'; allowed: "
                                         r"features, .*, or a declared constant: b$"):
        make_dgp("formula", {**spec, "c": 3.0})


def test_a_cross_parameter_rule_stays_with_the_constructor():
    with pytest.raises(ParamError, match=r"^b: 0.0 is not above a = 1.0"):
        make_dgp("ale_book_ch6", {"a": 1.0, "b": 0.0})
