"""The layer's matrix drawers (:mod:`imlbench.figures.matrix`): a metric method's pairs and the
data's correlations as a heat map with the values printed, a highlighted pair framed."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from figure_inputs import WrittenInputs, write

from imlbench.figures import FIGURES
from imlbench.figures.inputs import FigureInputs
from imlbench.figures.matrix import pairs_matrix


def _metrics(values: dict[str, float]) -> pd.DataFrame:
    return pd.DataFrame([{"rep": r, "metric": k, "value": v + 0.01 * r}
                         for r in range(2) for k, v in values.items()])


def test_pairs_are_symmetric_with_a_unit_diagonal():
    m = pairs_matrix(_metrics({"kstar:season:mnth": 0.97, "kstar:season:holiday": 0.05}),
                     "kstar", ["mnth", "season", "holiday"])
    assert m.loc["mnth", "season"] == m.loc["season", "mnth"] == pytest.approx(0.975)
    assert np.isnan(m.loc["mnth", "holiday"]) and (np.diag(m) == 1).all()


def test_a_metric_methods_pairs(tmp_path, drawn):
    w = WrittenInputs(tmp_path)
    w.table("s", "lm", "assoc", "matrix", _metrics({"pearson:a:b": 0.9, "pearson:a:c": -0.7,
                                                    "kstar:d:e": 0.5}))
    inputs = FigureInputs(w.paths, w.methods, ["s"])
    draw = FIGURES.get("matrix")
    draw(inputs, {"title": "t", "params": {"measure": "pearson", "variables": ["a", "b", "c",
                                                                             "d"],
                                           "highlight": ["a", "b"], "rename": {"a": "A"}}},
         None, None)
    ax = drawn[0].axes[0]
    texts = [t.get_text() for t in ax.texts]
    assert len(texts) == 9 and "0.91" in texts and "-0.69" in texts  # d has no pearson pair
    assert ax.get_title() == "A, b: 0.91" and len(ax.patches) == 2  # the pair framed twice
    assert [t.get_text() for t in ax.get_yticklabels()] == ["A", "b", "c"]
    with pytest.raises(ValueError, match="fewer than 2"):
        draw(inputs, {"title": "t", "params": {"measure": "kstar", "variables": ["a", "d"]}},
             None, None)


def test_the_datas_correlations(tmp_path, drawn):
    rng = np.random.default_rng(0)
    x = rng.normal(size=50)
    rows = pd.DataFrame({"rep": [0] * 50 + [1] * 50, "split": "train",
                         "x1": np.concatenate([x, -x]), "x2": np.concatenate([x, x]),
                         "y": np.concatenate([-x, x])})
    w = WrittenInputs(tmp_path)
    w.paths["data"].append(write(rows, tmp_path / "data" / "s" / "c0.parquet"))
    inputs = FigureInputs(w.paths, {}, ["s"])
    FIGURES.get("correlation_matrix")(inputs, {"title": "t", "params": {
        "highlight": ["x1", "y"]}}, None, None)
    ax = drawn[0].axes[0]
    assert ax.get_title() == "x1, y: -1.00; 50 rows"  # the first repetition's rows only
    with pytest.raises(ValueError, match="params.variables: z not among"):
        FIGURES.get("correlation_matrix")(inputs, {"title": "t", "params": {
            "variables": ["x1", "z"]}}, None, None)
