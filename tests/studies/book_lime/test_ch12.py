"""Chapter 12 of the book (introduction to LIME): the black-box map, the statistics through
``contrast`` (each on a case that holds and one that fails) and the two figures on synthetic
inputs."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from figure_inputs import WrittenInputs, write

import imlbench.studies.book_lime  # noqa: F401  (registers the method, kinds, figures)
from imlbench.figures import FIGURES
from imlbench.figures.inputs import FigureInputs
from imlbench.metrics.claims import CLAIMS, NOT_REPRODUCED, REPRODUCED, Tables
from imlbench.studies.book_lime.figures.ch12 import bin_label

REPS = 4


def _lime(coefs: dict[str, list[float]], point: dict[str, float], intercept: list[float],
          r2: list[float]) -> pd.DataFrame:
    """LIME rows of one point per repetition (scenario s, learner l, method lime)."""
    return pd.DataFrame([
        {"scenario": "s", "learner": "l", "method": "lime", "rep": r, "point": "p",
         "repeat": 0, "row": 0, "feature": f, "x": point[f], "value": v[r],
         "intercept": intercept[r], "r2": r2[r], "selected": True}
        for r in range(REPS) for f, v in coefs.items()])


def _map() -> pd.DataFrame:
    """Black box f = 1[x2 > x1] at 200 rows per repetition, and a coarse grid."""
    r = np.random.default_rng(5)
    frames = []
    for rep in range(REPS):
        X = r.uniform(-2, 2, size=(200, 2))
        g1, g2 = np.meshgrid(np.linspace(-2, 2, 5), np.linspace(-2, 2, 5), indexing="ij")
        frames += [
            pd.DataFrame({"part": "data", "row": np.arange(200), "x": X[:, 0], "z": X[:, 1],
                          "y": (X[:, 1] > X[:, 0]).astype(float),
                          "value": (X[:, 1] > X[:, 0]).astype(float)}),
            pd.DataFrame({"part": "grid", "row": -1, "x": g1.ravel(), "z": g2.ravel(),
                          "y": np.nan, "value": (g2 > g1).ravel().astype(float)})]
        frames[-2]["rep"] = frames[-1]["rep"] = rep
    return pd.concat(frames, ignore_index=True).assign(scenario="s", learner="l", method="map")


def _row(statistic: str, other: pd.DataFrame, **params) -> dict:
    """The row of a ``contrast`` claim on the study's ``statistic``."""
    claim = {"id": "c", "kind": "contrast", "text": "", "published": "",
             "statistic": f"book_lime.{statistic}",
             "where": {"scenario": "s", "learner": "l", "method": "lime"}, **params}
    (row,) = CLAIMS.get("contrast")(claim, Tables(ranked=pd.DataFrame(), truth={},
                                                  other=other))
    return row


def test_the_boundary_map_predicts_grid_and_rows():
    from true_model import true_model_context

    from imlbench.dgp.effect_examples import AleBookCh6
    from imlbench.explain.api import METHODS

    dgp = AleBookCh6("additive")
    df = dgp.sample(50, np.random.default_rng(6))
    ctx = true_model_context(dgp, df[dgp.feature_names].to_numpy(), df["y"].to_numpy())
    out = METHODS.get("book_lime.boundary")(ctx, {"grid_size": 4}, np.random.default_rng(7))
    grid, data = out[out["part"] == "grid"], out[out["part"] == "data"]
    assert len(grid) == 16 and len(data) == 50
    np.testing.assert_allclose(data["value"], dgp.f(ctx.X))
    assert grid["x"].min() == ctx.X[:, 0].min() and grid["z"].max() == ctx.X[:, 1].max()


def test_local_agreement_holds_for_the_boundary_and_fails_for_a_flipped_line():
    """Black box 1[x2 > x1]; the surrogate g = 0.5 + (x2 - x1) has the same boundary
    (agreement 1 everywhere), the flipped g = 0.5 - (x2 - x1) the opposite one (0)."""
    point = {"x1": 0.0, "x2": 0.0}
    good = _lime({"x1": [-1.0] * REPS, "x2": [1.0] * REPS}, point, [0.5] * REPS, [0.9] * REPS)
    bad = _lime({"x1": [1.0] * REPS, "x2": [-1.0] * REPS}, point, [0.5] * REPS, [0.9] * REPS)
    params = {"map": "map", "nearest": 20, "value": 0.9, "compare": "above"}
    assert _row("local_agreement", pd.concat([good, _map()]), **params)["verdict"] == (
        REPRODUCED)
    assert _row("local_agreement", pd.concat([bad, _map()]), **params)["verdict"] == (
        NOT_REPRODUCED)
    vs = _row("local_agreement", pd.concat([good, _map()]), **{**params, "value": 0.0},
              test="paired", than={"nearest": None})
    assert vs["verdict"] != REPRODUCED  # equal agreement near and far: no local advantage
    assert "paired difference 0 " in vs["reproduced"]
    gone = _row("local_agreement", good, **params)  # no black-box rows
    assert gone["verdict"] == "no data"


def test_lime_fit_and_order():
    point = {"a": 1.0, "b": 2.0, "c": 3.0}
    rows = _lime({"a": [0.5, 0.45, 0.55, 0.5], "b": [-0.4, -0.35, -0.42, -0.38],
                  "c": [0.01, -0.02, 0.0, 0.02]}, point, [0.1] * REPS, [0.8, 0.78, 0.82, 0.8])
    assert _row("weight_order", rows, above=["a", "b"], below=["c"],
                compare="above")["verdict"] == REPRODUCED
    assert _row("weight_order", rows, above=["a", "c"], below=["b"],
                compare="above")["verdict"] == NOT_REPRODUCED
    assert _row("lime_fit", rows, value=0.5, compare="above")["verdict"] == REPRODUCED
    assert _row("lime_fit", rows, value=0.9, compare="above")["verdict"] == NOT_REPRODUCED


def test_bin_labels_follow_r_lime():
    edges = np.array([1.0, 1.6, 4.35, 5.1, 6.9])
    assert bin_label("PL", edges, 1.4) == "PL <= 1.6"
    assert bin_label("PL", edges, 4.35) == "1.6 < PL <= 4.35"
    assert bin_label("PL", edges, 6.0) == "5.1 < PL"


@pytest.mark.parametrize("name, roles, params", [
    ("book_lime.sine_lime", ("lime", "map"), {"kernel_width": 0.5}),
    ("book_lime.lime_bars", ("lime",), {"label": "setosa"}),
])
def test_figures_draw_synthetic_inputs(tmp_path, name, roles, params):
    w = WrittenInputs(tmp_path)
    lime = _lime({"x1": [-1.0] * REPS, "x2": [1.0] * REPS}, {"x1": 0.2, "x2": 0.1},
                 [0.5] * REPS, [0.9] * REPS)
    w.table("s", "l", "lime", "lime", lime)
    if "map" in roles:
        w.table("s", "l", "map", "map", _map())
    r = np.random.default_rng(8)
    data = pd.DataFrame({"rep": 0, "x1": r.normal(size=50), "x2": r.normal(size=50), "y": 0.0})
    w.paths["data"].append(write(data, tmp_path / "data" / "s" / "c0.parquet"))
    inputs = FigureInputs(w.paths, w.methods, ["s"])
    spec = {"title": "t", "caption": "c", "params": params}
    FIGURES.get(name)(inputs, spec, tmp_path / "f.png", tmp_path / "f.pdf")
    assert (tmp_path / "f.png").read_bytes()[:4] == b"\x89PNG"
