"""Chapter 14's sketches and showcases: the binned bike data, the stability measure as the
kit's spread of a cell's weights, its ratios through ``contrast``'s ``spread_ratio`` and the
ratio of two ratios (``book_lime.sd_ratio``; each a case that holds and one that fails), and the
figures on synthetic inputs."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from figure_inputs import WrittenInputs, write

import imlbench.studies.book_lime  # noqa: F401  (registers the DGP, kind and figures)
from imlbench.dgp.base import DGPS
from imlbench.figures import FIGURES
from imlbench.figures.inputs import FigureInputs
from imlbench.metrics.claims import CLAIMS, NOT_REPRODUCED, REPRODUCED, Tables
from imlbench.metrics.contrasts import Cell, spread
from imlbench.studies.book_lime.ch14_showcase import weight_sd

FEATURES = ["a", "b", "c"]


def _lime(sd: float, *, scenario: str = "s", learner: str = "l", method: str = "m",
          point: str = "mean", repeats: int = 60, seed: int = 0) -> pd.DataFrame:
    """LIME rows of one point: every feature's weight N(1, sd^2) over the repeats."""
    rng = np.random.default_rng(seed)
    return pd.DataFrame({
        "scenario": scenario, "learner": learner, "method": method, "point": point,
        "repeat": np.repeat(np.arange(repeats), len(FEATURES)),
        "feature": np.tile(FEATURES, repeats),
        "value": 1.0 + sd * rng.standard_normal(repeats * len(FEATURES)),
    })


def _tables(rows: pd.DataFrame) -> Tables:
    return Tables(ranked=pd.DataFrame(), truth={}, other=rows)


def _row(rows: pd.DataFrame, **params) -> dict:
    claim = {"id": "c", "kind": "contrast", "text": "", "published": "",
             "statistic": "book_lime.weight_sd", "test": "spread_ratio", "k": 2.0,
             "where": {"scenario": "s", "learner": "l", "method": "m"}, **params}
    (row,) = CLAIMS.get("contrast")(claim, _tables(rows))
    return row


def test_the_spread_of_a_cells_weights_is_the_books_average_sd():
    rows = pd.concat([_lime(0.5, seed=1, repeats=8), _lime(2.0, point="x", seed=2, repeats=8)])
    sample = weight_sd(Cell("s", "l", "m"), _tables(rows))
    wide = rows.pivot_table(index=["point", "feature"], columns="repeat", values="value")
    assert spread(sample.values) == pytest.approx(wide.std(axis=1, ddof=1).mean())
    one = weight_sd(Cell("s", "l", "m", {"point": "x"}), _tables(rows))
    assert spread(one.values) == pytest.approx(wide.loc["x"].std(axis=1, ddof=1).mean())
    flat = weight_sd(Cell("s", "l", "m"), _tables(_lime(0.0)))
    assert "do not vary" in flat.reason


def test_the_sd_ratio_holds_and_fails_between_points():
    rows = pd.concat([_lime(0.1, seed=1), _lime(0.3, point="outlier", seed=2)])
    wider = {"point": "outlier", "than": {"point": "mean"}, "compare": "above", "value": 1.0}
    row = _row(rows, **wider)
    assert row["verdict"] == REPRODUCED and "ratio 3" in row["reproduced"]
    assert _row(rows, **{**wider, "point": "mean", "than": {"point": "outlier"}})["verdict"] \
        == NOT_REPRODUCED
    # a ratio of 3 is not above 5
    assert _row(rows, **{**wider, "value": 5.0})["verdict"] == NOT_REPRODUCED


def _ratio_of_ratios(rows: pd.DataFrame, **params) -> dict:
    claim = {"id": "c", "kind": "book_lime.sd_ratio", "text": "", "published": "", "k": 2.0,
             "where": {"scenario": "s", "learner": "tree", "method": "m"}, **params}
    (row,) = CLAIMS.get("book_lime.sd_ratio")(claim, _tables(rows))
    return row


def test_a_ratio_of_ratios_across_scenarios_and_learners():
    rows = pd.concat([
        _lime(0.2, learner="tree", seed=1), _lime(0.1, learner="lm", seed=2),  # ratio 2
        _lime(1.0, scenario="t", learner="tree", seed=3),
        _lime(0.01, scenario="t", learner="lm", seed=4),  # ratio 100
    ])
    weaker = {"than": {"learner": "lm"}, "against": {"scenario": "t"}, "compare": "below",
              "value": 1.0}
    row = _ratio_of_ratios(rows, **weaker)
    assert row["verdict"] == REPRODUCED and "ratio of ratios 0.01" in row["reproduced"]
    assert _ratio_of_ratios(rows, **{**weaker, "compare": "above"})["verdict"] == \
        NOT_REPRODUCED
    # D is C moved by against_than (default: by than): C over itself is 1, and 2 is not below 1
    same = _ratio_of_ratios(rows, **weaker, against_than={"learner": "tree"})
    assert same["verdict"] == NOT_REPRODUCED
    gone = _ratio_of_ratios(rows, **{**weaker, "against": {"scenario": "u"}})
    assert gone["verdict"] == "no data" and "u/tree/m" in gone["reason"]


def test_bikes_binned_makes_every_feature_a_class():
    dgp = DGPS.get("book_lime.bikes_binned")(features=["season", "holiday", "temp", "hum"],
                                     bins=["temp", "hum"])
    data = dgp.data
    assert dgp.categorical == ("season", "holiday", "temp", "hum")
    assert sorted(data["temp"].unique()) == [0.0, 1.0, 2.0, 3.0]
    assert np.std(data["y"], ddof=1) == pytest.approx(1.0)
    assert set(dgp.levels["temp"]) == {0, 1, 2, 3}
    with pytest.raises(ValueError, match="bins\\[0\\]"):
        DGPS.get("book_lime.bikes_binned")(features=["season"], bins=["temp"]).data  # noqa: B018


def _sketch_rows(scale: float) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    reps = 5
    slope = np.cos(266.24 / scale) / scale
    return pd.DataFrame({"point": "book", "repeat": np.arange(reps), "row": -1,
                         "feature": "x", "x": 266.24,
                         "value": slope + 0.001 * rng.standard_normal(reps),
                         "intercept": 0.1 * rng.standard_normal(reps)})


def _draw(name: str, inputs: FigureInputs, tmp_path, params: dict) -> None:
    spec = {"title": "t", "caption": "c", "params": params}
    FIGURES.get(name)(inputs, spec, tmp_path / "f.png", tmp_path / "f.pdf")
    assert (tmp_path / "f.png").read_bytes()[:4] == b"\x89PNG"


def test_sketch_and_data_panels_draw(tmp_path):
    w = WrittenInputs(tmp_path)
    w.table("sk", "truth", "m_sk10", "lime", _sketch_rows(50.0))
    w.paths["data"].append(write(pd.DataFrame({"rep": 0, "split": "train",
                                               "x": np.linspace(1, 1000, 50),
                                               "y": np.sin(np.linspace(1, 1000, 50) / 50)}),
                                 tmp_path / "data" / "sk" / "c0.parquet"))
    inputs = FigureInputs(w.paths, w.methods, ["sk"])
    _draw("book_lime.sketch", inputs, tmp_path, {"scale": 50.0, "kernel_width": 900.0})
    with pytest.raises(ValueError, match="no LIME rows of point 'other'"):
        _draw("book_lime.sketch", inputs, tmp_path,
              {"scale": 50.0, "kernel_width": 900.0, "point": "other"})
    _draw("book_lime.data_panels", inputs, tmp_path, {"kind": "scatter"})
    _draw("book_lime.data_panels", inputs, tmp_path, {"kind": "box"})


def test_weight_bands_draw_one_panel_per_setting(tmp_path):
    w = WrittenInputs(tmp_path)
    rows = pd.concat([_lime(0.1), _lime(0.5, point="outlier")])
    w.table("b", "rf", "kde", "lime", rows.drop(columns=["scenario", "learner", "method"]))
    inputs = FigureInputs(w.paths, w.methods, ["b"])
    panels = [{"method": "kde", "learner": "rf", "point": p, "title": p}
              for p in ("mean", "outlier")]
    _draw("book_lime.weight_bands", inputs, tmp_path, {"panels": panels})
    with pytest.raises(ValueError, match="no LIME rows of method 'kde', learner 'tree'"):
        _draw("book_lime.weight_bands", inputs, tmp_path,
              {"panels": [{**panels[0], "learner": "tree"}]})
