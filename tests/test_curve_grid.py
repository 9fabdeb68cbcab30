"""The layer's repetition curve grid (:mod:`imlbench.figures.curve_grid`) from synthetic
estimates and truths: both layouts drawn, the mean and its error bars as stated, and every
bad parameter refused with a message naming it."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from figure_inputs import WrittenInputs, write

from imlbench.figures import FIGURES
from imlbench.figures.curve_grid import draw_repetitions, panels
from imlbench.figures.inputs import FigureInputs

SCENARIOS = ["ind", "cor", "dep"]
SPEC = {"title": "test", "caption": "test"}


def _inputs(tmp_path, scenarios=SCENARIOS, learners=("lm",)) -> FigureInputs:
    """Three repetitions of curves of slope 1 (x1, x2) with offsets -1, 0, 1, on grids that
    differ per repetition; true PD slope 1 and interventional slope 2 (x1)."""
    w = WrittenInputs(tmp_path)
    truths = []
    for sc in scenarios:
        for learner in learners:
            rows = []
            for rep in range(3):
                x = np.linspace(-3 + 0.1 * rep, 3 - 0.1 * rep, 50)
                for f in ("x1", "x2"):
                    rows.append(pd.DataFrame({"rep": rep, "feature": f, "x": x,
                                              "value": x + (rep - 1)}))
            w.table(sc, learner, "pdp", "curves", pd.concat(rows, ignore_index=True))
        grid = np.linspace(-1.6, 1.6, 19)
        truths += [pd.DataFrame({"scenario": sc, "estimand": e, "feature": f, "row": -1,
                                 "x": grid, "value": s * grid, "se": 0.0})
                   for e, f, s in (("pd", "x1", 1), ("pd", "x2", 1),
                                   ("interventional", "x1", 2), ("interventional", "x2", 1))]
    w.paths["truth"].append(write(pd.concat(truths), tmp_path / "truth" / "effects.parquet"))
    return FigureInputs(w.paths, w.methods, list(scenarios))


def _draw(inputs: FigureInputs, tmp_path, **params) -> None:
    png, pdf = tmp_path / "f.png", tmp_path / "f.pdf"
    FIGURES.get("rep_curve_grid")(inputs, {**SPEC, "params": params}, png, pdf)
    assert png.read_bytes()[:4] == b"\x89PNG" and pdf.read_bytes()[:4] == b"%PDF"


def test_rows_of_scenarios_and_columns_of_features(tmp_path):
    _draw(_inputs(tmp_path), tmp_path, truths=["pd", "interventional"],
          references=[{"expression": "2*x", "label": "common effect", "features": ["x1"]}],
          xlim=[-3, 3], ylim=[-3, 3], row_labels=["independent", "correlated", "dependent"],
          error_bars="se", anchor="mean")


def test_a_grid_of_one_feature_over_scenarios(tmp_path):
    names = [f"s{i}" for i in range(5)]
    inputs = _inputs(tmp_path, scenarios=names)
    _draw(inputs, tmp_path, columns="scenarios", feature="x1",
          layout=[names[:3], names[3:]], column_labels=["N 100", "N 1000", "N 10000"],
          row_labels=["sd 0.1", "sd 0.5"], individual=False, error_bars="none")
    grid = panels(inputs, inputs.estimates("curves"), columns="scenarios", features=None,
                  feature="x1", layout=[names[:3], names[3:]])
    assert grid[1] == [("s3", "x1"), ("s4", "x1"), None]  # a ragged last row: an empty cell


def test_the_mean_and_its_sd_bars_are_those_of_the_repetitions():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = np.linspace(0, 1, 11)
    est = pd.DataFrame({"rep": np.repeat([0, 1, 2], 11), "x": np.tile(x, 3),
                        "value": np.concatenate([x - 1, x, x + 1])})
    fig, ax = plt.subplots()
    draw_repetitions(ax, est, anchor="none", individual=True, error_bars="sd", error_points=3)
    mean = ax.lines[3]  # three grey repetitions first
    np.testing.assert_allclose(mean.get_ydata(), x)
    bars = ax.collections[-1].get_segments()
    assert len(bars) == 3  # points 0, 5 and 10
    np.testing.assert_allclose([seg[1, 1] - seg[0, 1] for seg in bars], 2.0)  # 2 sd, sd = 1
    plt.close(fig)


@pytest.mark.parametrize(("params", "message"), [
    ({"references": [{"expression": "2*z"}]}, "params.references[0].expression"),
    ({"references": [{"label": "no line"}]}, "params.references[0]: no expression"),
    ({"row_labels": ["a", "b"]}, "params.row_labels: 2 labels for 3 rows"),
    ({"features": ["x9"]}, "params.features: no estimates of x9"),
    ({"columns": "scenarios", "feature": "x1", "layout": [["ind", "other"]]},
     "params.layout: other not among"),
    ({"columns": "scenarios", "layout": [["ind"]]}, "needs params.feature"),
    ({"feature": "x1"}, "go with columns: scenarios"),
])
def test_bad_parameters_are_named(tmp_path, params, message):
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        _draw(_inputs(tmp_path), tmp_path, **params)


def test_several_learners_need_one_picked(tmp_path):
    inputs = _inputs(tmp_path, learners=("lm", "rf"))
    with pytest.raises(ValueError, match="params.learner picks one"):
        _draw(inputs, tmp_path)
    with pytest.raises(ValueError, match="params.learner: 'svm' has no estimates"):
        _draw(inputs, tmp_path, learner="svm")
    _draw(inputs, tmp_path, learner="rf")
