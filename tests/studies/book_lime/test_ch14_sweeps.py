"""Chapter 14.4-14.5 of the book (LIME and sampling): the figures on synthetic LIME rows
written where the workflow puts them, and the choice of the point the surface figures draw."""

from __future__ import annotations

import numpy as np
import pandas as pd
from figure_inputs import WrittenInputs, write

import imlbench.studies.book_lime  # noqa: F401  (registers the figures)
from imlbench.figures import FIGURES
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.book_lime.figures.ch14_sweeps import widest_plateau


def _lime(sd: float, seed: int, **cols) -> pd.DataFrame:
    """3 points x 4 repeats x 2 features of LIME rows scattering with ``sd``."""
    rng = np.random.default_rng(seed)
    n = 3 * 4 * 2
    return pd.DataFrame({"point": np.repeat(["p0", "p1", "p2"], 8),
                         "repeat": np.tile(np.repeat(np.arange(4), 2), 3),
                         "feature": np.tile(["x1", "x2"], 12),
                         "value": sd * rng.standard_normal(n), "x": np.tile([1.0, 2.0], 12),
                         "intercept": 1.0, "rep": 0, **cols})


def test_sd_curves_draw_each_axis(tmp_path):
    w = WrittenInputs(tmp_path)
    for k, sc in enumerate(["a2", "a3"]):
        w.table(sc, "rf", "bins", "lime", _lime(1.0 + k, k))
        w.table(sc, "rf", "kde", "lime", _lime(0.5, 10 + k))
    for k, lrn in enumerate(["l1", "l2"]):
        w.table("lad", lrn, "kde", "lime", _lime(1.0 / (k + 1), 20 + k))
        w.table("lad", lrn, "fit", "fit", pd.DataFrame({"metric": ["mse_train"],
                                                         "value": [1.0 / (k + 1)], "rep": 0}))
    for k, m in enumerate(["n1", "n2"]):
        w.table("size", "rf", m, "lime", _lime(1.0 / (k + 1), 30 + k))
    w.table("nf", "rf", "sweep", "lime", pd.concat(
        [_lime(s, 40 + k, n_features=k + 1, selected=True) for k, s in enumerate([1, 2, 1])]))
    inputs = FigureInputs(w.paths, w.methods, ["a2", "a3", "lad", "size", "nf"])
    panels = [
        {"title": "scenarios", "along": "scenario", "scenarios": ["a2", "a3"], "at": [2, 3],
         "learner": "rf", "series": [{"label": "bins", "method": "bins"},
                                     {"label": "KDE", "method": "kde"}]},
        {"title": "methods", "along": "method", "scenario": "size", "learner": "rf",
         "at": [1000, 2000], "log2_x": True, "series": [{"label": "KDE", "methods": ["n1", "n2"]}]},
        {"title": "column", "along": "n_features", "scenario": "nf", "learner": "rf",
         "selected_only": True, "series": [{"label": "bins", "method": "sweep"}]},
    ]
    spec = {"title": "t", "caption": "c", "params": {"panels": panels}}
    FIGURES.get("book_lime.sd_curves")(inputs, spec, tmp_path / "a.png", tmp_path / "a.pdf")
    assert (tmp_path / "a.png").read_bytes()[:4] == b"\x89PNG"
    ladder = {"title": "ladder", "along": "learner", "scenario": "lad",
              "learners": ["l1", "l2"], "at": [2, 4], "log2_x": True,
              "series": [{"label": "KDE", "method": "kde"}]}
    spec = {"title": "t", "caption": "c", "params": {"panels": [ladder]}}
    FIGURES.get("book_lime.sd_curves_fit")(inputs, spec, tmp_path / "b.png", tmp_path / "b.pdf")
    assert (tmp_path / "b.pdf").read_bytes()[:4] == b"%PDF"


def test_lime_surface_draws_the_point_on_the_widest_plateau(tmp_path):
    w = WrittenInputs(tmp_path)
    rows = _lime(1.0, 0).query("feature == 'x1'").assign(feature="lstat")
    rows["x"] = rows["point"].map({"p0": 1.0, "p1": 5.0, "p2": 5.2})
    w.table("s", "xgb", "global", "lime", rows)
    grid = np.linspace(0, 10, 21)
    w.table("s", "xgb", "pdp", "surface", pd.DataFrame({"feature": "lstat", "x": grid,
                                                        "value": np.floor(grid), "rep": 0}))
    data = pd.DataFrame({"rep": 0, "lstat": [1.0, 5.0, 5.2, 9.0], "y": [1.0, 5, 5, 9]})
    w.paths["data"].append(write(data, tmp_path / "data" / "s" / "c0.parquet"))
    assert widest_plateau(rows, data["lstat"].to_numpy()) == "p0"
    inputs = FigureInputs(w.paths, w.methods, ["s"])
    spec = {"title": "t", "caption": "c",
            "params": {"feature": "lstat", "panels": [{"title": "g", "method": "global",
                                                       "learner": "xgb"}]}}
    FIGURES.get("book_lime.lime_surface")(inputs, spec, tmp_path / "s.png", tmp_path / "s.pdf")
    assert (tmp_path / "s.png").read_bytes()[:4] == b"\x89PNG"
