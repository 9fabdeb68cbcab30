"""Registries (:mod:`imlbench.registry`): one discovery mechanism and study-scoped names."""

from __future__ import annotations

import pytest
from shipped import STUDIES as SHIPPED

from imlbench import studies
from imlbench.dgp.base import DGPS
from imlbench.explain.api import METHODS
from imlbench.explain.samplers import SAMPLERS
from imlbench.figures import FIGURES
from imlbench.figures.table import SOURCES
from imlbench.learners import LEARNERS
from imlbench.metrics.claims import CLAIMS
from imlbench.metrics.contrasts import STATISTICS
from imlbench.registry import Registry, owning_study
from imlbench.truth import TRUTHS

studies.load(["extrapolation", "conditional_subgroups", "pd_pfi_dgp", "stratpd"])


def test_an_entry_belongs_to_the_study_whose_package_defines_it():
    assert owning_study("imlbench.studies.extrapolation.dgp_copula") == "extrapolation"
    assert owning_study("imlbench.explain.methods") is None
    assert DGPS.owner("extrapolation.copula_linear") == "extrapolation"
    assert DGPS.owner("ale_book_ch6") is None  # a layer's, imported when the registry is read
    assert METHODS.owner("pfi") is None
    assert METHODS.owner("pd_pfi_dgp.learner_refits") == "pd_pfi_dgp"


def test_a_study_sees_the_layers_entries_and_its_own_only():
    mine = DGPS.names("extrapolation")
    assert {"extrapolation.copula_linear", "extrapolation.bikeshare", "ale_book_ch6"} <= set(mine)
    assert "conditional_subgroups.simulation" not in mine and "pd_pfi_dgp.simulation" not in mine
    assert {"conditional_subgroups.simulation", "pd_pfi_dgp.simulation"} <= set(DGPS.names())


def test_a_name_is_registered_once_and_unknown_names_list_the_allowed():
    registry: Registry[int] = Registry("thing")
    registry.register("x.a", module="imlbench.studies.x.m")(1)
    with pytest.raises(ValueError, match="registered twice"):
        registry.register("x.a")(2)
    with pytest.raises(KeyError, match="unknown thing 'b'; allowed: x.a"):
        registry.get("b")


def test_a_study_entry_is_named_after_its_study():
    registry: Registry[int] = Registry("thing")
    registry.register("plain")(1)  # a layer's entry: any name
    registry.register("x.a", module="imlbench.studies.x.m")(2)
    for name in ("a", "y.a", "xa", "x_a"):
        with pytest.raises(ValueError, match=rf"thing '{name}' of module imlbench\.studies\.x\.m "
                                             r"belongs to study 'x': name it x\.<name>"):
            registry.register(name, module="imlbench.studies.x.m")(3)
    assert registry.names() == ["plain", "x.a"]


@pytest.mark.parametrize("registry", [DGPS, METHODS, TRUTHS, CLAIMS, STATISTICS, FIGURES, SOURCES,
                                      LEARNERS, SAMPLERS], ids=lambda r: r.kind)
def test_every_study_entry_of_the_shipped_studies_is_named_after_its_study(registry):
    studies.load(SHIPPED, figures=True)
    wrong = [n for n in registry.names() if (s := registry.owner(n)) and not n.startswith(s + ".")]
    assert not wrong
