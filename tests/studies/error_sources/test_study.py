"""The error-sources study file: its estimates and truths meet at the same points, its
strategies share their splits, and every printed number it checks belongs to a cell it runs."""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest

from imlbench.config import load_study
from imlbench.dgp.base import make_dgp
from imlbench.explain.grids import inner, law_quantiles
from imlbench.explain.strategies import REFITTING

STUDY = Path(__file__).resolve().parents[3] / "config" / "studies" / "error_sources.yaml"


@pytest.fixture(scope="module")
def study():
    return load_study(STUDY, "paper")


def test_the_truths_sit_at_the_points_of_every_pd_grid_and_ale_edge(study):
    """Each scenario's truth_grid and each method's law_quantile grid (PD) or its inner
    interval edges (ALE) give the same 98 points per feature, so no truth is interpolated."""
    for sc in study.scenarios.values():
        dgp = make_dgp(sc.dgp, sc.params)
        spec = dgp.truth_grid
        for m in sc.methods:
            params = study.method_params(m)
            grid = params.get("grid") or params["intervals"]
            # ALE: size intervals have size + 1 edges; trimmed, they are the curve's points
            size = grid["size"] + (1 if "intervals" in params else 0)
            assert size == spec["size"] and grid["trim"] == spec["trim"], (sc.name, m)
            for j in range(len(dgp.feature_names)):
                law = functools.partial(dgp.marginal_quantiles, j)
                truth = law_quantiles(spec, spec["size"], law)[inner(spec["size"],
                                                                     spec["trim"], "t")]
                mine = law_quantiles(grid, size, law)[inner(size, grid["trim"], "g")]
                np.testing.assert_array_equal(mine, truth)
                assert len(truth) == 98


def test_every_scenario_runs_each_strategy_for_pd_and_ale(study):
    for sc in study.scenarios.values():
        for learner in sc.learners:
            data = {(study.methods[m]["method"], study.method_params(m)["data"])
                    for m in study.methods_for(sc.name, learner)}
            assert data == {(e, d) for e in ("pdp", "ale") for d in ("train", *REFITTING)}, (
                sc.name, learner)


def test_every_printed_number_belongs_to_a_cell_the_study_runs(study):
    numbers = 0
    for claim in study.claims:
        if claim["kind"] != "error_component":
            continue
        sc = claim["where"]["scenario"]
        for learner, by_method in claim["values"].items():
            runs = set(study.methods_for(sc, learner))
            assert set(by_method) <= runs, (claim["id"], learner)
            numbers += len(by_method)
    assert numbers == 1536  # 6 tables x 216 printed cells + 240 of the decomposition tables
