"""Registries (:mod:`imlbench.registry`): one discovery mechanism and study-scoped names."""

from __future__ import annotations

import pytest

from imlbench import studies
from imlbench.dgp.base import DGPS
from imlbench.explain.api import METHODS
from imlbench.registry import Registry, owning_study

studies.load(["extrapolation", "conditional_subgroups", "pd_pfi_dgp", "stratpd"])


def test_an_entry_belongs_to_the_study_whose_package_defines_it():
    assert owning_study("imlbench.studies.extrapolation.dgp_copula") == "extrapolation"
    assert owning_study("imlbench.explain.methods") is None
    assert DGPS.owner("copula_linear") == "extrapolation"
    assert DGPS.owner("ale_book_ch6") is None  # a layer's, imported when the registry is read
    assert METHODS.owner("pfi") is None and METHODS.owner("learner_refits") == "pd_pfi_dgp"


def test_a_study_sees_the_layers_entries_and_its_own_only():
    mine = DGPS.names("extrapolation")
    assert {"copula_linear", "bikeshare", "ale_book_ch6"} <= set(mine)
    assert "cspfi_simulation" not in mine and "pd_pfi_simulation" not in mine
    assert {"cspfi_simulation", "pd_pfi_simulation"} <= set(DGPS.names())


def test_a_name_is_registered_once_and_unknown_names_list_the_allowed():
    registry: Registry[int] = Registry("thing")
    registry.register("a", module="imlbench.studies.x.m")(1)
    with pytest.raises(ValueError, match="registered twice"):
        registry.register("a")(2)
    with pytest.raises(KeyError, match="unknown thing 'b'; allowed: a"):
        registry.get("b")
