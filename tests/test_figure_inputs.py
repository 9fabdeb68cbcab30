"""What a figure reads (:class:`imlbench.figures.inputs.FigureInputs`): the first repetition of
each scenario, the first data set's training rows, and a scenario's true curve."""

from __future__ import annotations

import pandas as pd
import pytest
from figure_inputs import WrittenInputs, write

from imlbench.explain.estimands import truth_frame
from imlbench.figures.inputs import FigureInputs


def test_the_first_repetition_of_each_scenario():
    table = pd.DataFrame({"scenario": ["a", "a", "b", "b"], "rep": [3, 4, 1, 2],
                          "value": [1.0, 2.0, 3.0, 4.0]})
    assert FigureInputs.first_rep(table)["value"].tolist() == [1.0, 3.0]


def test_the_first_data_sets_training_rows_and_a_true_curve(tmp_path):
    w = WrittenInputs(tmp_path)
    for scenario, first in (("a", 0), ("b", 5)):
        rows = pd.DataFrame({"rep": [first, first, first + 1], "split": ["train", "test",
                                                                          "train"],
                             "x1": [1.0, 2.0, 3.0]})
        w.paths["data"].append(write(rows, tmp_path / "data" / scenario / "c0.parquet"))
    truth = pd.concat([truth_frame("pd", "x1", [2.0, 1.0], x=[1.0, 0.0]),
                       truth_frame("pd", "x1", 9.0, x=0.5, row=3),
                       truth_frame("ale", "x1", 5.0, x=0.0)]).assign(scenario="a")
    w.paths["truth"].append(write(truth, tmp_path / "truth" / "a" / "effects.parquet"))
    inputs = FigureInputs(w.paths, {}, ["a", "b"])
    assert inputs.first_data()["x1"].tolist() == [1.0, 1.0]
    assert inputs.first_data("b")["rep"].tolist() == [5]
    curve = inputs.truth_curve("a", "x1", "pd")
    assert curve.index.tolist() == [0.0, 1.0] and curve.tolist() == [1.0, 2.0]  # not row 3
    assert inputs.truth_curve("b", "x1", "pd").empty
    with pytest.raises(ValueError, match="no training rows of c"):
        inputs.first_data("c")
