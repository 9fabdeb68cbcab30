"""The layer's DAG figure (:mod:`imlbench.figures.dag`): a causal graph from YAML edges, with
its causal-order layout, given positions, and clear errors for a cycle or an unknown node."""

from __future__ import annotations

import pytest

from imlbench.figures import FIGURES
from imlbench.figures.dag import dag_graph, layout
from imlbench.figures.inputs import FigureInputs

SPEC = {"title": "chain", "caption": "test"}


def _draw(tmp_path, **params):
    png, pdf = tmp_path / "f.png", tmp_path / "f.pdf"
    inputs = FigureInputs({}, {}, ["sem"])  # a DAG reads no data
    FIGURES.get("dag")(inputs, {**SPEC, "params": params}, png, pdf)
    return png, pdf


def test_a_chain_with_an_isolated_node_is_drawn(tmp_path):
    png, pdf = _draw(tmp_path, edges=[["x", "y"]], nodes=["z"])
    assert png.read_bytes()[:4] == b"\x89PNG" and pdf.read_bytes()[:4] == b"%PDF"


def test_causes_are_placed_left_of_their_effects():
    graph = dag_graph([["z", "x"], ["x", "y"], ["z", "y"]])
    pos = layout(graph)
    assert pos["z"][0] < pos["x"][0] < pos["y"][0]
    assert set(graph.edges) == {("z", "x"), ("x", "y"), ("z", "y")}


def test_given_positions_override_the_layout():
    pos = layout(dag_graph([["x", "y"]], ["z"]), {"z": [0.5, 1.0]})
    assert pos["z"] == (0.5, 1.0) and pos["x"][0] < pos["y"][0]


def test_a_cycle_is_an_error_naming_the_figure(tmp_path):
    with pytest.raises(ValueError, match="'chain'.*cycle"):
        _draw(tmp_path, edges=[["x", "y"], ["y", "x"]])


def test_a_position_of_an_unknown_node_is_an_error(tmp_path):
    with pytest.raises(ValueError, match="unknown node.*w"):
        _draw(tmp_path, edges=[["x", "y"]], positions={"w": [0, 0]})


def test_the_figure_declares_no_inputs():
    spec = FIGURES.get("dag")
    assert not spec.methods and not spec.truths and not spec.tables
